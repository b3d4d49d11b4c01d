"""Record the offload bundles amdgpu-objdump's bundle tests read (tests/cli/data).

``tests/cli/data/bundle_kernels.hip`` is compiled by clang-19 as HIP for two
targets (gfx803, gfx900:xnack-), once plain and once ``--offload-compress``
(a CCOB bundle holding the same entries). For every device entry of the plain
bundle, llvm-objdump-19's disassembly of the entry's code object (unbundled by
clang-offload-bundler-19) is recorded as ``<bundle>.<bundle id>.objdump.txt``,
and clang-offload-bundler-19's ``--list`` of each bundle as ``<bundle>.list.txt``.
``kernels_host.o`` is a host object (``clang -x hip -c``) carrying the bundle.

    python -m tools.isa_gen.gen_bundle
"""

import os
import subprocess
import tempfile

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "..", "..", "tests", "cli", "data")
SOURCE = os.path.join(DATA, "bundle_kernels.hip")
BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
CLANG = "/usr/lib/llvm-19/bin/clang"
BUNDLER = "/usr/lib/llvm-19/bin/clang-offload-bundler"
OBJDUMP = "/usr/lib/llvm-19/bin/llvm-objdump"
ARCHS = ("gfx803", "gfx900:xnack-")
BUNDLES = {"kernels.hipfb": (), "kernels_compressed.hipfb": ("--offload-compress",)}


def compile_bundle(output, extra):
    argv = [CLANG, "-x", "hip", "--cuda-device-only", "-O2", "--rocm-path=/usr",
            f"--rocm-device-lib-path={BITCODE}", *extra,
            *(f"--offload-arch={arch}" for arch in ARCHS), SOURCE, "-o", output]
    subprocess.run(argv, check=True, env=dict(os.environ, HIP_PLATFORM="amd"))


def bundle_ids(path):
    listed = subprocess.run([BUNDLER, "--list", "--type=o", f"--input={path}"], check=True,
                            capture_output=True, text=True).stdout
    return [line for line in listed.splitlines() if line]


def record(name, extra, goldens):
    path = os.path.join(DATA, name)
    compile_bundle(path, extra)
    ids = bundle_ids(path)
    with open(path + ".list.txt", "w") as handle:
        handle.write("".join(f"{i}\n" for i in ids))
    with tempfile.TemporaryDirectory() as tmp:
        for bundle_id in ids:
            if "amdgcn" not in bundle_id or not goldens:
                continue
            entry = os.path.join(tmp, "entry.o")
            subprocess.run([BUNDLER, "--unbundle", "--type=o", f"--input={path}",
                            f"--targets={bundle_id}", f"--output={entry}"], check=True)
            listing = subprocess.run([OBJDUMP, "-d", entry], check=True, capture_output=True,
                                     text=True).stdout
            with open(f"{path}.{bundle_id}.objdump.txt", "w") as handle:
                handle.write(listing.replace(entry, f"{name}({bundle_id})"))


def record_host_object():
    """``kernels_host.o``: the x86-64 object of ``clang -x hip -c`` for gfx900:xnack-,
    whose ``.hip_fatbin`` section holds the bundle (its entry lists as the plain
    bundle's gfx900 entry does)."""
    argv = [CLANG, "-x", "hip", "-c", "-O2", "--rocm-path=/usr",
            f"--rocm-device-lib-path={BITCODE}", f"--offload-arch={ARCHS[1]}", SOURCE,
            "-o", os.path.join(DATA, "kernels_host.o")]
    subprocess.run(argv, check=True, env=dict(os.environ, HIP_PLATFORM="amd"))


def main():
    for name, extra in BUNDLES.items():
        record(name, extra, goldens=not extra)
    record_host_object()


if __name__ == "__main__":
    main()

"""Rebuild the recorded code objects of tests/runtime/data/ with the LLVM tools.

Run from anywhere: ``python tests/runtime/data/build.py``. The outputs are
committed so the runtime tests run without LLVM; the tests that need LLVM
rebuild the same sources into a temporary directory instead.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
SAMPLES = os.path.join(HERE, "..", "..", "..", "samples")
BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
LLD = "/usr/lib/llvm-19/bin/ld.lld"
CLANG19 = "/usr/lib/llvm-19/bin/clang"
CLANG14 = "/usr/lib/llvm-14/bin/clang"
MC14 = "/usr/lib/llvm-14/bin/llvm-mc"
MC19 = "/usr/lib/llvm-19/bin/llvm-mc"

#: output name -> (kind, source, cpu, code object version)
OBJECTS = {
    "hello_world_v2.hsaco": ("mc14", os.path.join(SAMPLES, "hello_world.s"), "gfx803", 2),
    "trap_v2.hsaco": ("mc14", os.path.join(SRC, "trap_v2.s"), "gfx803", 2),
    "spin_v2.hsaco": ("mc14", os.path.join(SRC, "spin_v2.s"), "gfx803", 2),
    "abs64_v5.hsaco": ("mc19", os.path.join(SRC, "abs64_v5.s"), "gfx900", 5),
    "printf_v5.hsaco": ("mc19", os.path.join(SRC, "printf_v5.s"), "gfx900", 5),
    "kernels_v2_gfx803.hsaco": ("clang14", os.path.join(SRC, "kernels_v2.cl"), "gfx803", 2),
    "kernels_v2_gfx900.hsaco": ("clang14", os.path.join(SRC, "kernels_v2.cl"), "gfx900", 2),
    "kernels_v3_gfx900.hsaco": ("clang14", os.path.join(SRC, "kernels_v2.cl"), "gfx900", 3),
    "kernels_v4_gfx900.hsaco": ("clang19", os.path.join(SRC, "kernels.cl"), "gfx900", 4),
    "kernels_v5_gfx900.hsaco": ("clang19", os.path.join(SRC, "kernels.cl"), "gfx900", 5),
    "kernels_v4_gfx803.hsaco": ("clang19", os.path.join(SRC, "kernels.cl"), "gfx803", 4),
    "kernels_v5_gfx803.hsaco": ("clang19", os.path.join(SRC, "kernels.cl"), "gfx803", 5),
    "kernels_v5_gfx900.o": ("clang19-obj", os.path.join(SRC, "kernels.cl"), "gfx900", 5),
}


def build(name, kind, source, cpu, version, outdir):
    out = os.path.join(outdir, name)
    obj = out if name.endswith(".o") else out + ".o"
    if kind == "mc14":
        subprocess.run([MC14, "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}",
                        "--amdhsa-code-object-version=2", "-filetype=obj", source, "-o", obj],
                       check=True)
    elif kind == "mc19":
        subprocess.run([MC19, "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}",
                        f"--amdhsa-code-object-version={version}", "-filetype=obj", source,
                        "-o", obj], check=True)
    elif kind == "clang14":
        subprocess.run([CLANG14, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}",
                        f"-mcode-object-version={version}", "-nogpulib", "-x", "cl", "-cl-std=CL2.0",
                        "-O2", "-c", source, "-o", obj], check=True)
    else:
        subprocess.run([CLANG19, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}",
                        f"-mcode-object-version={version}", "-x", "cl", "-cl-std=CL2.0", "-O2",
                        f"--rocm-device-lib-path={BITCODE}", "-c", source, "-o", obj],
                       check=True)
    if not name.endswith(".o"):
        subprocess.run([LLD, "-shared", obj, "-o", out], check=True)
        os.remove(obj)
    return out


def main(outdir=HERE):
    for name, spec in OBJECTS.items():
        print(build(name, *spec, outdir))


if __name__ == "__main__":
    main(*sys.argv[1:])

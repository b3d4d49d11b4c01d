"""Rebuild the recorded hostcall code objects in this folder with clang-19.

Run from anywhere: ``python tests/runtime/data/hostcall/build.py [OUTDIR]``.
The outputs are committed so the hostcall tests run without LLVM; the live
test rebuilds one of them into a temporary directory with ``build``.

* ``printf.hip``: HIP kernels; clang lowers their ``printf`` to the device
  libraries' hostcall printf service (HIP output is already a linked code
  object).
* ``ockl.cl``: OpenCL C kernels calling the ockl hostcall services directly.
* ``opencl_printf.cl``: plain OpenCL printf, which clang-19 lowers to the
  printf buffer (not hostcall) when the device libraries are linked after
  optimisation; otherwise their stub ``printf`` is used.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
CLANG19 = "/usr/lib/llvm-19/bin/clang"
LLD = "/usr/lib/llvm-19/bin/ld.lld"

TARGETS = [(cpu, version) for cpu in ("gfx803", "gfx900") for version in (4, 5)]
#: output name -> (source, cpu, code object version)
OBJECTS = {}
for _cpu, _version in TARGETS:
    OBJECTS[f"printf_hip_{_cpu}_v{_version}.hsaco"] = ("printf.hip", _cpu, _version)
    OBJECTS[f"ockl_{_cpu}_v{_version}.hsaco"] = ("ockl.cl", _cpu, _version)
OBJECTS["opencl_printf_gfx900_v5.hsaco"] = ("opencl_printf.cl", "gfx900", 5)
OBJECTS["opencl_printf_gfx803_v4.hsaco"] = ("opencl_printf.cl", "gfx803", 4)


def build(name, source, cpu, version, outdir, clang=CLANG19, lld=LLD):
    """Compile ``source`` (in this folder) into ``outdir/name``."""
    out = os.path.join(outdir, name)
    common = ["-O2", f"-mcode-object-version={version}", f"--rocm-device-lib-path={BITCODE}"]
    path = os.path.join(HERE, source)
    if source.endswith(".hip"):
        subprocess.run([clang, "-x", "hip", f"--offload-arch={cpu}", "-nogpuinc",
                        "--cuda-device-only", "--no-gpu-bundle-output", *common, "-c", path,
                        "-o", out], check=True)
        return out
    obj = out + ".o"
    postopt = ["-Xclang", "-mlink-builtin-bitcode-postopt"] if source == "opencl_printf.cl" else []
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-x", "cl",
                    "-cl-std=CL2.0", *common, *postopt, "-c", path, "-o", obj], check=True)
    subprocess.run([lld, "-shared", obj, "-o", out], check=True)
    os.remove(obj)
    return out


def main(outdir=HERE):
    for name, spec in OBJECTS.items():
        print(build(name, *spec, outdir))


if __name__ == "__main__":
    main(*sys.argv[1:])

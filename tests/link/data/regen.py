"""Rebuild the recorded linker test inputs and ld.lld's outputs for them.

Dev-time only (the tests read the recorded files and never need LLVM):

    python tests/link/data/regen.py

Objects come from llvm-mc 14 (code object v2), llvm-mc 19 (v4/v5), clang-19
(OpenCL, v4 and v5) and clang-14 (OpenCL, v2); reference links from
``ld.lld-19 -shared``. Outputs are written next to this file.
"""

import pathlib
import subprocess

HERE = pathlib.Path(__file__).parent
SRC = HERE / "src"
MC14 = ["/usr/bin/llvm-mc", "-arch=amdgcn", "-mcpu=gfx803", "-filetype=obj"]
MC19 = ["/usr/lib/llvm-19/bin/llvm-mc", "--triple=amdgcn-amd-amdhsa", "-filetype=obj"]
BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
CLANG19 = ["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx900", "-x", "cl",
           "-cl-std=CL2.0", "-O2", f"--rocm-device-lib-path={BITCODE}", "-c"]
CLANG14 = ["clang-14", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx803",
           "-mcode-object-version=2", "-nogpulib", "-x", "cl", "-cl-std=CL2.0", "-O2", "-c"]

#: the printf-buffer lowering of OpenCL printf (amdhsa.printf ids; see README)
POSTOPT = ["-Xclang", "-mlink-builtin-bitcode-postopt"]

#: object name -> command (source appended, then -o OUT)
OBJECTS = {
    "v2_kernel.o": MC14 + ["v2_kernel.s"],
    "v5_kernel_call.o": MC19 + ["-mcpu=gfx900", "v5_kernel_call.s"],
    "v5_func.o": MC19 + ["-mcpu=gfx900", "v5_func.s"],
    "v5_symbols.o": MC19 + ["-mcpu=gfx900", "v5_symbols.s"],
    "v5_relocs.o": MC19 + ["-mcpu=gfx900", "v5_relocs.s"],
    "v5_abs32.o": MC19 + ["-mcpu=gfx900", "v5_abs32.s"],
    "err_undefined.o": MC19 + ["-mcpu=gfx900", "err_undefined.s"],
    "err_duplicate.o": MC19 + ["-mcpu=gfx900", "err_duplicate.s"],
    "err_overflow.o": MC19 + ["-mcpu=gfx900", "err_overflow.s"],
    "err_pic.o": MC19 + ["-mcpu=gfx900", "err_pic.s"],
    "err_readonly.o": MC19 + ["-mcpu=gfx900", "err_readonly.s"],
    "err_absolute_pc.o": MC19 + ["-mcpu=gfx900", "err_absolute_pc.s"],
    "sym_weak_a.o": MC19 + ["-mcpu=gfx900", "sym_weak_a.s"],
    "sym_strong_b.o": MC19 + ["-mcpu=gfx900", "sym_strong_b.s"],
    "weak_ref.o": MC19 + ["-mcpu=gfx900", "weak_ref.s"],
    "v5_gfx803.o": MC19 + ["-mcpu=gfx803", "v5_gfx803.s"],
    "v4_gfx900.o": MC19 + ["-mcpu=gfx900", "--amdhsa-code-object-version=4", "v4_gfx900.s"],
    "cl_v5.o": CLANG19 + ["-mcode-object-version=5", "cl_v5.cl"],
    "cl_v5_func.o": CLANG19 + ["-mcode-object-version=5", "cl_v5_func.cl"],
    "cl_v4.o": CLANG19 + ["-mcode-object-version=4", "cl_v5.cl"],
    "cl_v4_func.o": CLANG19 + ["-mcode-object-version=4", "cl_v5_func.cl"],
    "cl_printf.o": CLANG19 + ["-mcode-object-version=5", "cl_printf.cl"],
    "cl_printf2.o": CLANG19 + ["-mcode-object-version=5", "cl_printf2.cl"],
    "cl_printf_buf.o": CLANG19 + POSTOPT + ["-mcode-object-version=5", "cl_printf.cl"],
    "cl_printf2_buf.o": CLANG19 + POSTOPT + ["-mcode-object-version=5", "cl_printf2.cl"],
    "cl_printf3_buf.o": CLANG19 + POSTOPT + ["-mcode-object-version=5", "cl_printf3.cl"],
    "cl_printf_buf_v4.o": CLANG19 + POSTOPT + ["-mcode-object-version=4", "cl_printf.cl"],
    "cl_printf2_buf_v4.o": CLANG19 + POSTOPT + ["-mcode-object-version=4", "cl_printf2.cl"],
    "cl_v5_debug.o": CLANG19 + ["-g", "-mcode-object-version=5", "cl_v5.cl"],
    "cl_v5_func_debug.o": CLANG19 + ["-g", "-mcode-object-version=5", "cl_v5_func.cl"],
    "merge_a.o": MC19 + ["-mcpu=gfx900", "merge_a.s"],
    "merge_b.o": MC19 + ["-mcpu=gfx900", "merge_b.s"],
    "lazy_a.o": MC19 + ["-mcpu=gfx900", "lazy_a.s"],
    "lazy_b.o": MC19 + ["-mcpu=gfx900", "lazy_b.s"],
    "lazy_m1.o": MC19 + ["-mcpu=gfx900", "lazy_m1.s"],
    "lazy_m2.o": MC19 + ["-mcpu=gfx900", "lazy_m2.s"],
    "comdat_a.o": MC19 + ["-mcpu=gfx900", "comdat_a.s"],
    "comdat_b.o": MC19 + ["-mcpu=gfx900", "comdat_b.s"],
    "comdat_stale.o": MC19 + ["-mcpu=gfx900", "comdat_stale.s"],
    "cl_v2.o": CLANG14 + ["cl_v2.cl"],
    "cl_v2_b.o": CLANG14 + ["cl_v2_b.cl"],
    "cl_v2_globals.o": CLANG14 + ["cl_v2_globals.cl"],
}

#: code object v3 objects (llvm-mc 14): the v5 sources with the xnack target id v3 needs
V3_OBJECTS = {"v3_kernel_call.o": "v5_kernel_call.s", "v3_func.o": "v5_func.s"}
MC14_V3 = ["/usr/bin/llvm-mc", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-mattr=+xnack",
           "--amdhsa-code-object-version=3", "-filetype=obj"]

#: HIP -fgpu-rdc objects: device bitcode (no HIP headers or device libraries), then
#: its object file, as the relocatable link step of -fgpu-rdc sees it
HIP_OBJECTS = {"hip_comdat_a.o": "hip_comdat_a.hip", "hip_comdat_b.o": "hip_comdat_b.hip"}
HIP_BITCODE = ["clang-19", "-x", "hip", "--cuda-device-only", "-fgpu-rdc", "-nogpuinc",
               "-nogpulib", "--offload-arch=gfx900", "-O2", "-c", "-emit-llvm"]
HIP_OBJECT = ["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx900", "-nogpulib", "-O2",
              "-c"]

#: reference link name -> its inputs (ld.lld-19 -shared)
LINKS = {
    "call.lld.so": ["v5_kernel_call.o", "v5_func.o"],
    "call_v3.lld.so": ["v3_kernel_call.o", "v3_func.o"],
    "symbols.lld.so": ["v5_symbols.o"],
    "relocs.lld.so": ["v5_relocs.o"],
    "resolution.lld.so": ["sym_weak_a.o", "sym_strong_b.o"],
    "weak_ref.lld.so": ["weak_ref.o", "libfunc.a"],
    "v2_kernel.lld.so": ["v2_kernel.o"],
    "cl_v5.lld.so": ["cl_v5.o", "cl_v5_func.o"],
    "cl_v4.lld.so": ["cl_v4.o", "cl_v4_func.o"],
    "cl_v2.lld.so": ["cl_v2.o"],
    "cl_v5_debug.lld.so": ["cl_v5_debug.o", "cl_v5_func_debug.o"],
    "cl_v2_two.lld.so": ["cl_v2.o", "cl_v2_b.o"],
    "cl_v2_globals.lld.so": ["cl_v2_globals.o"],
    "comdat.lld.so": ["comdat_a.o", "comdat_b.o"],
    "comdat_reversed.lld.so": ["comdat_b.o", "comdat_a.o"],
    "hip_comdat.lld.so": ["hip_comdat_a.o", "hip_comdat_b.o"],
    "merge.lld.so": ["merge_a.o", "merge_b.o"],
    "merge_reversed.lld.so": ["merge_b.o", "merge_a.o"],
    "cl_printf.lld.so": ["cl_printf.o", "cl_printf2.o"],
}

#: reference links made with ld.lld options (test_link_options.py runs amdgpu-ld
#: with the same arguments, file names taken from this folder)
OPTION_LINKS = {
    "soname.lld.so": ["-soname", "libk.so.1", "v5_kernel_call.o", "v5_func.o"],
    "lib_search.lld.so": ["-L", ".", "-lfunc", "v5_kernel_call.o"],
    "whole_archive.lld.so": ["v5_kernel_call.o", "--whole-archive", "libextra.a"],
    "thin_archive.lld.so": ["v5_kernel_call.o", "libthin.a"],
    "lazy_order.lld.so": ["lazy_a.o", "liblazy.a", "lazy_b.o"],
}


def main():
    for name, command in OBJECTS.items():
        subprocess.run(command + ["-o", str(HERE / name)], cwd=SRC, check=True)
    for name, source in V3_OBJECTS.items():
        text = (SRC / source).read_text().replace('gfx900"', 'gfx900+xnack"')
        subprocess.run(MC14_V3 + ["-o", str(HERE / name)], input=text.encode(), check=True)
    for name, source in HIP_OBJECTS.items():
        bitcode = HERE / (name + ".bc")
        subprocess.run(HIP_BITCODE + [source, "-o", str(bitcode)], cwd=SRC, check=True)
        subprocess.run(HIP_OBJECT + [str(bitcode), "-o", str(HERE / name)], check=True)
        bitcode.unlink()
    (HERE / "libfunc.a").unlink(missing_ok=True)
    subprocess.run(["/usr/lib/llvm-19/bin/llvm-ar", "rcs", "libfunc.a", "v5_func.o"],
                   cwd=HERE, check=True)
    for name, members, flags in (("libextra.a", ["v5_func.o", "v5_symbols.o"], "rcs"),
                                 ("libthin.a", ["v5_func.o"], "rcsT"),
                                 ("liblazy.a", ["lazy_m1.o", "lazy_m2.o"], "rcs")):
        (HERE / name).unlink(missing_ok=True)
        subprocess.run(["/usr/lib/llvm-19/bin/llvm-ar", flags, name, *members], cwd=HERE,
                       check=True)
    for name, inputs in {**LINKS, **OPTION_LINKS}.items():
        subprocess.run(["ld.lld-19", "-shared", *inputs, "-o", name], cwd=HERE, check=True)


if __name__ == "__main__":
    main()

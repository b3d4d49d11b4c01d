"""Dev-time: rebuild the golden data of tests/elf from the LLVM reference tools.

Run from anywhere with the LLVM 14/19 tools installed:
    python tests/elf/data/regenerate.py
It assembles/compiles the sources in src/, links some with ld.lld-19, and
records llvm-readelf-19 (JSON) and llvm-objdump-19 -d output next to each
object, plus kernel descriptor / amd_kernel_code_t cases (kd_cases.json,
akc_cases.json) assembled one by one. The tests only read these files.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
MC14 = "/usr/bin/llvm-mc"
MC19 = "/usr/lib/llvm-19/bin/llvm-mc"
CLANG19 = "clang-19"
CLANG14 = "clang-14"
LLD = "ld.lld-19"
READELF = "llvm-readelf-19"
OBJDUMP = "llvm-objdump-19"
BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def mc(tool, source, out, mcpu, version=None):
    argv = [tool, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-filetype=obj",
            os.path.join(SRC, source), "-o", out]
    if version:
        argv.append(f"--amdhsa-code-object-version={version}")
    run(argv, check=True)


def clang(tool, source, out, mcpu, extra=()):
    argv = [tool, "-target", "amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-x", "cl",
            "-cl-std=CL2.0", "-O2", "-c", os.path.join(SRC, source), "-o", out, *extra]
    run(argv, check=True)


OBJECTS = {
    "symbols_relocs.o": lambda o: mc(MC19, "symbols_relocs.s", o, "gfx900"),
    "kernel_v5_gfx900.o": lambda o: mc(MC19, "kernel_v5.s", o, "gfx900"),
    "kernel_v3_gfx900.o": lambda o: mc(MC14, "kernel_v5.s", o, "gfx900", 3),
    "kernel_v4_gfx803.o": lambda o: mc(MC19, "kernel_v5.s", o, "gfx803", 4),
    "kernel_v2_gfx803.o": lambda o: mc(MC14, "kernel_v2.s", o, "gfx803", 2),
    "kernel_v2_gfx700.o": lambda o: mc(MC14, "kernel_v2.s", o, "gfx700", 2),
    "v2_code_gfx700.o": lambda o: mc(MC14, "v2_code.s", o, "gfx700", 2),
    "v2_code_gfx803.o": lambda o: mc(MC14, "v2_code.s", o, "gfx803", 2),
    "v2_metadata_full.o": lambda o: mc(MC14, "v2_metadata_full.s", o, "gfx803", 2),
    "v2_metadata_quoting.o": lambda o: mc(MC14, "v2_metadata_quoting.s", o, "gfx803", 2),
    "metadata_typing.o": lambda o: mc(MC19, "metadata_typing.s", o, "gfx900"),
    "vadd_gfx900_v5.o": lambda o: clang(CLANG19, "vadd.cl", o, "gfx900",
                                        [f"--rocm-device-lib-path={BITCODE}"]),
    "vadd_gfx803_v4.o": lambda o: clang(CLANG19, "vadd.cl", o, "gfx803",
                                        [f"--rocm-device-lib-path={BITCODE}",
                                         "-mcode-object-version=4"]),
    "vadd_v2_gfx803.o": lambda o: clang(CLANG14, "vadd_v2.cl", o, "gfx803",
                                        ["-nogpulib", "-mcode-object-version=2"]),
}
SHOW_ENCODING = {"v2_code_gfx700.o": ("v2_code.s", "gfx700"),
                 "kernel_v2_gfx700.o": ("kernel_v2.s", "gfx700")}
LINKED = {"vadd_gfx900_v5.hsaco": "vadd_gfx900_v5.o", "vadd_gfx803_v4.hsaco": "vadd_gfx803_v4.o",
          "vadd_v2_gfx803.hsaco": "vadd_v2_gfx803.o"}


def record(path):
    elf = run([READELF, "--elf-output-style=JSON", "-h", "-S", "-s", "--dyn-syms", "-r",
               "-l", "-d", path], check=True).stdout
    with open(path + ".readelf.json", "w") as f:
        json.dump(json.loads(elf), f, indent=1)
    dump = run([OBJDUMP, "-d", path])
    if dump.returncode:          # llvm-objdump-19 aborts on GFX6/GFX7 objects
        return
    with open(path + ".objdump.txt", "w") as f:
        f.write(dump.stdout.replace(path, os.path.basename(path)))


def record_show_encoding(path, source, mcpu):
    """Where llvm-objdump-19 cannot (LLVM has no GFX6/GFX7 disassembler: it aborts
    with "Disassembly not yet supported for subtarget"): llvm-mc 14 -show-encoding of
    the source, i.e. the same instruction printer, as (text, encoding) rows."""
    out = run([MC14, "-show-encoding", "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}",
               "--amdhsa-code-object-version=2", os.path.join(SRC, source)], check=True).stdout
    rows = []
    for line in out.splitlines():
        if "; encoding:" in line and not line.strip().startswith("."):
            inst, encoding = line.split("; encoding:")
            rows.append([inst.strip(), encoding.strip()])
    with open(path + ".show-encoding.json", "w") as f:
        json.dump({"mcpu": mcpu, "rows": rows}, f, indent=0)


# --- kernel descriptor cases (llvm-mc 19) -----------------------------------
KD_TARGETS = ["gfx600", "gfx700", "gfx801", "gfx802", "gfx803", "gfx810", "gfx900", "gfx906"]
KD_DIRECTIVES = [
    ("group_segment_fixed_size", [0, 1, 65536, 4294967295, 4294967296]),
    ("private_segment_fixed_size", [16, 4294967296]),
    ("kernarg_size", [24]),
    ("user_sgpr_count", [0, 3, 17, 31, 32]),
    ("user_sgpr_private_segment_buffer", [1, 2]),
    ("user_sgpr_dispatch_ptr", [1]), ("user_sgpr_queue_ptr", [1]),
    ("user_sgpr_kernarg_segment_ptr", [1]), ("user_sgpr_dispatch_id", [1]),
    ("user_sgpr_flat_scratch_init", [1]), ("user_sgpr_private_segment_size", [1]),
    ("user_sgpr_kernarg_preload_length", [1]), ("wavefront_size32", [1]),
    ("uses_dynamic_stack", [1]), ("system_sgpr_private_segment_wavefront_offset", [1]),
    ("enable_private_segment", [1]),
    ("system_sgpr_workgroup_id_x", [0]), ("system_sgpr_workgroup_id_y", [1]),
    ("system_sgpr_workgroup_id_z", [1]), ("system_sgpr_workgroup_info", [1]),
    ("system_vgpr_workitem_id", [1, 2, 3, 4]),
    ("float_round_mode_32", [1, 3]), ("float_round_mode_16_64", [2]),
    ("float_denorm_mode_32", [3]), ("float_denorm_mode_16_64", [0, 4]),
    ("dx10_clamp", [0]), ("ieee_mode", [0]), ("fp16_overflow", [1]),
    ("tg_split", [1]), ("workgroup_processor_mode", [1]), ("memory_ordered", [1]),
    ("forward_progress", [1]), ("shared_vgpr_count", [1]), ("accum_offset", [4]),
    ("exception_fp_ieee_invalid_op", [1]), ("exception_fp_denorm_src", [1]),
    ("exception_fp_ieee_div_zero", [1]), ("exception_fp_ieee_overflow", [1]),
    ("exception_fp_ieee_underflow", [1]), ("exception_fp_ieee_inexact", [1]),
    ("exception_int_div_zero", [1]),
    ("reserve_vcc", [0]), ("reserve_flat_scratch", [0]), ("reserve_xnack_mask", [0, 1]),
    ("bogus_directive", [1]),
]


def kd_case(mcpu, version, lines, mattr=None):
    body = "\n".join(lines)
    source = (".text\n.p2align 8\nk:\ns_endpgm\n.rodata\n.p2align 6\n"
              f".amdhsa_kernel k\n{body}\n.end_amdhsa_kernel\n")
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = os.path.join(tmp, "k.s"), os.path.join(tmp, "k.o")
        with open(src, "w") as f:
            f.write(source)
        result = run([MC19, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-filetype=obj",
                      f"--amdhsa-code-object-version={version}", src, "-o", obj]
                     + ([f"-mattr={mattr}"] if mattr else []))
        if result.returncode:
            errors = [l.split("error: ", 1)[1] for l in result.stderr.splitlines()
                      if "error: " in l]
            return {"error": errors[0] if errors else result.stderr.strip()}
        from elftools.elf.elffile import ELFFile
        with open(obj, "rb") as f:
            return {"bytes": ELFFile(f).get_section_by_name(".rodata").data().hex()}


def kd_cases():
    cases = []
    base = lambda v, s: [f".amdhsa_next_free_vgpr {v}", f".amdhsa_next_free_sgpr {s}"]
    for mcpu in KD_TARGETS:
        for version in (4, 5):
            cases.append((mcpu, version, base(0, 0)))
        for vgprs, sgprs in [(1, 1), (4, 2), (5, 3), (9, 5), (256, 7), (257, 1), (1, 11),
                             (1, 16), (1, 17), (1, 90), (1, 96), (1, 97), (1, 102), (1, 103)]:
            cases.append((mcpu, 4, base(vgprs, sgprs)))
        for reserve in (["vcc 0"], ["flat_scratch 0"], ["vcc 0", "flat_scratch 0"],
                        ["vcc 0", "flat_scratch 0", "xnack_mask 0"]):
            cases.append((mcpu, 4, base(1, 5) + [f".amdhsa_reserve_{r}" for r in reserve]))
    for name, values in KD_DIRECTIVES:
        for value in values:
            for mcpu in ("gfx700", "gfx803", "gfx900"):
                cases.append((mcpu, 5, base(1, 1) + [f".amdhsa_{name} {value}"]))
    cases.append(("gfx900", 4, [".amdhsa_next_free_vgpr 1"]))
    cases.append(("gfx900", 4, [".amdhsa_next_free_sgpr 1"]))
    cases.append(("gfx900", 4, base(1, 1) + [".amdhsa_next_free_sgpr 1"]))
    cases.append(("gfx900", 4, base(1, 1) + [".amdhsa_user_sgpr_count 1",
                                             ".amdhsa_user_sgpr_kernarg_segment_ptr 1"]))
    cases.append(("gfx900", 4, base(1, 1) + [".amdhsa_user_sgpr_kernarg_segment_ptr 1",
                                             ".amdhsa_user_sgpr_count 3"]))
    every_user_sgpr = [f".amdhsa_user_sgpr_{n} 1" for n in (
        "private_segment_buffer", "dispatch_ptr", "queue_ptr", "kernarg_segment_ptr",
        "dispatch_id", "flat_scratch_init", "private_segment_size")]
    cases.append(("gfx900", 5, base(37, 40) + every_user_sgpr + [
        ".amdhsa_system_sgpr_workgroup_id_z 1", ".amdhsa_system_vgpr_workitem_id 2",
        ".amdhsa_group_segment_fixed_size 4096", ".amdhsa_kernarg_size 64"]))
    results = [{"mcpu": m, "version": v, "lines": lines, **kd_case(m, v, lines)}
               for m, v, lines in cases]
    for mcpu, mattr in (("gfx900", "-xnack"), ("gfx900", "+xnack"), ("gfx906", "-xnack")):
        for extra in ([], [".amdhsa_reserve_flat_scratch 0"],
                      [".amdhsa_reserve_flat_scratch 0", ".amdhsa_reserve_xnack_mask 0"],
                      [".amdhsa_reserve_flat_scratch 0", ".amdhsa_reserve_xnack_mask 1"]):
            lines = base(1, 5) + extra
            results.append({"mcpu": mcpu, "version": 4, "mattr": mattr, "lines": lines,
                            **kd_case(mcpu, 4, lines, mattr)})
    return results


# --- amd_kernel_code_t cases (llvm-mc 14) -----------------------------------
AKC_CASES = [
    ("gfx803", []), ("gfx700", []), ("gfx600", []), ("gfx900", []), ("gfx801", []),
    ("gfx803", ["enable_sgpr_kernarg_segment_ptr = 1", "compute_pgm_rsrc1_vgprs = 1",
                "wavefront_sgpr_count = 10", "workitem_vgpr_count = 5",
                "kernarg_segment_byte_size = 8"]),
    ("gfx803", ["private_element_size = 1", "is_ptr64 = 1", "enable_exception = 0x7f",
                "enable_exception_msb = 3", "granulated_lds_size = 5",
                "enable_vgpr_workitem_id = 2", "user_sgpr_count = 6", "priority = 3",
                "kernarg_segment_byte_size = 0x123456789",
                "runtime_loader_kernel_symbol = 0x1122334455667788",
                "kernel_code_prefetch_byte_size = 7"]),
    ("gfx803", ["float_mode = 0xc0", "enable_dx10_clamp = 1", "enable_ieee_mode = 1",
                "compute_pgm_rsrc1_sgprs = 3", "compute_pgm_rsrc2_scratch_en = 1",
                "compute_pgm_rsrc2_tgid_x_en = 1", "compute_pgm_rsrc2_tgid_y_en = 1",
                "compute_pgm_rsrc2_tgid_z_en = 1", "compute_pgm_rsrc2_tg_size_en = 1",
                "compute_pgm_rsrc2_trap_handler = 1", "priv = 1", "debug_mode = 1"]),
    ("gfx803", ["enable_sgpr_private_segment_buffer = 1", "enable_sgpr_dispatch_ptr = 1",
                "enable_sgpr_queue_ptr = 1", "enable_sgpr_dispatch_id = 1",
                "enable_sgpr_flat_scratch_init = 1", "enable_sgpr_private_segment_size = 1",
                "enable_sgpr_grid_workgroup_count_x = 1", "enable_sgpr_grid_workgroup_count_y = 1",
                "enable_sgpr_grid_workgroup_count_z = 1", "enable_ordered_append_gds = 1",
                "is_dynamic_callstack = 1", "is_debug_enabled = 1", "is_xnack_enabled = 1"]),
    ("gfx803", ["workitem_private_segment_byte_size = 16", "workgroup_group_segment_byte_size = 1024",
                "gds_segment_byte_size = 8", "workgroup_fbarrier_count = 2",
                "reserved_vgpr_first = 3", "reserved_vgpr_count = 4", "reserved_sgpr_first = 5",
                "reserved_sgpr_count = 6", "debug_wavefront_private_segment_offset_sgpr = 7",
                "debug_private_segment_buffer_sgpr = 8", "kernarg_segment_alignment = 5",
                "group_segment_alignment = 6", "private_segment_alignment = 7",
                "wavefront_size = 7", "call_convention = 3",
                "kernel_code_entry_byte_offset = 512", "amd_machine_version_stepping = 9",
                "kernel_code_version_major = 3", "machine_kind = 2"]),
    ("gfx803", ["bogus_key = 1"]), ("gfx803", ["wavefront_size = 5"]),
    ("gfx803", ["enable_wgp_mode = 1"]), ("gfx803", ["enable_mem_ordered = 1"]),
    ("gfx803", ["enable_fwd_progress = 1"]), ("gfx803", ["enable_wavefront_size32 = 1"]),
    ("gfx900", ["enable_wgp_mode = 0", "enable_wavefront_size32 = 0", "wavefront_size = 6"]),
]


def akc_case(mcpu, lines):
    body = "\n".join(lines)
    source = (".hsa_code_object_version 2,1\n.hsa_code_object_isa\n.text\n.globl k\n"
              ".p2align 8\n.type k,@function\n.amdgpu_hsa_kernel k\nk:\n"
              f".amd_kernel_code_t\n{body}\n.end_amd_kernel_code_t\ns_endpgm\n")
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = os.path.join(tmp, "k.s"), os.path.join(tmp, "k.o")
        with open(src, "w") as f:
            f.write(source)
        result = run([MC14, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-filetype=obj",
                      "--amdhsa-code-object-version=2", src, "-o", obj])
        if result.returncode:
            errors = [l.split("error: ", 1)[1] for l in result.stderr.splitlines()
                      if "error: " in l]
            return {"error": errors[0] if errors else result.stderr.strip()}
        from elftools.elf.elffile import ELFFile
        with open(obj, "rb") as f:
            return {"bytes": ELFFile(f).get_section_by_name(".text").data()[:256].hex()}


def akc_printed(mcpu):
    """llvm-mc 14's own listing of a default amd_kernel_code_t: every key and value."""
    source = (".hsa_code_object_version 2,1\n.hsa_code_object_isa\n.text\n.globl k\n"
              ".p2align 8\n.type k,@function\n.amdgpu_hsa_kernel k\nk:\n"
              ".amd_kernel_code_t\n.end_amd_kernel_code_t\ns_endpgm\n")
    text = run([MC14, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}",
                "--amdhsa-code-object-version=2"], input=source, check=True).stdout
    body = text.split(".amd_kernel_code_t\n")[1].split(".end_amd_kernel_code_t")[0]
    return [line.strip() for line in body.splitlines() if line.strip()]


def main():
    for name, build in OBJECTS.items():
        path = os.path.join(HERE, name)
        build(path)
        record(path)
    for name, (source, mcpu) in SHOW_ENCODING.items():
        record_show_encoding(os.path.join(HERE, name), source, mcpu)
    for name, obj in LINKED.items():
        path = os.path.join(HERE, name)
        run([LLD, "-shared", os.path.join(HERE, obj), "-o", path], check=True)
        record(path)
    with open(os.path.join(HERE, "kd_cases.json"), "w") as f:
        json.dump(kd_cases(), f, indent=0)
    with open(os.path.join(HERE, "akc_printed.json"), "w") as f:
        json.dump({m: akc_printed(m) for m in ("gfx600", "gfx700", "gfx803")}, f, indent=0)
    with open(os.path.join(HERE, "akc_cases.json"), "w") as f:
        json.dump([{"mcpu": m, "lines": lines, **akc_case(m, lines)} for m, lines in AKC_CASES],
                  f, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())

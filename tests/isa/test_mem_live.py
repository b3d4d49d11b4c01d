"""Live checks of the memory families against the LLVM tools (skipped when absent).

- Real compiler output: OpenCL kernels (private arrays at -O0 give the scratch
  accesses clang emits, local memory gives DS, atomics give FLAT/GLOBAL/DS
  atomics) built by clang-19 for gfx803/gfx900 and disassembled by
  llvm-objdump-19: every memory instruction decodes to the same text and
  encodes back to the same bytes.
- GFX7 (no LLVM disassembler): clang-14 -S output assembled by llvm-mc 14.
- A sample of the recorded corpus re-assembled by today's llvm-mc.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from amdgpu_tools.isa.decoder import decode
from amdgpu_tools.isa.encoder import encode_instruction
from reftools import ROCM_BITCODE

sys.path.insert(0, os.path.dirname(__file__))
from mem_syntax import parse_line  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "data")
KERNELS = os.path.join(DATA, "mem_kernels.cl")
MEMORY = re.compile(r"^(ds_|buffer_|tbuffer_|flat_|global_|scratch_|image_|exp |v_interp_)")
_DUMP = re.compile(r"^\s+(.*?)\s*// [0-9A-F]+: ([0-9A-F ]+)$")
_MC = re.compile(r"^\s+(.*?)\s*; encoding: \[(.*)\]")


def memory_lines_of_object(objdump, path, cpu):
    out = subprocess.run([objdump, "-d", f"--mcpu={cpu}", path], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        match = _DUMP.match(line)
        if match and MEMORY.match(match.group(1)):
            data = b"".join(int(w, 16).to_bytes(4, "little") for w in match.group(2).split())
            yield match.group(1), data


def check_pairs(pairs, cpu):
    wrong = []
    for text, data in pairs:
        ours = decode(data, 0, cpu).text()
        mnemonic, operands = parse_line(text)
        encoded = encode_instruction(mnemonic, operands, cpu)
        if ours != text or encoded.data != data:
            wrong.append((text, data.hex(), ours, encoded.data.hex()))
    return wrong


@pytest.mark.parametrize("cpu,features", [("gfx803", ()), ("gfx900", ()),
                                          ("gfx900", ("+enable-flat-scratch",))])
@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_clang19_kernels_memory_instructions(tmp_path, cpu, features, opt, clang19,
                                             llvm_objdump19):
    """-O0 private arrays: MUBUF scratch (buffer_* off, s[0:3], s33 offset:N), or
    scratch_* with flat scratch enabled."""
    obj = tmp_path / "k.o"
    extra = [arg for feature in features for arg in ("-Xclang", "-target-feature", "-Xclang",
                                                     feature)]
    subprocess.run([clang19, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", *extra, "-x", "cl",
                    "-cl-std=CL2.0", opt, f"--rocm-device-lib-path={ROCM_BITCODE}", "-c",
                    KERNELS, "-o", str(obj)], check=True, capture_output=True)
    pairs = list(memory_lines_of_object(llvm_objdump19, str(obj), cpu))
    assert len(pairs) > 10
    wrong = check_pairs(pairs, cpu)
    assert not wrong, f"{len(wrong)}/{len(pairs)} differ, e.g. {wrong[:5]}"


def test_clang14_gfx700_memory_instructions(tmp_path, clang14, llvm_mc14):
    source = tmp_path / "k.cl"
    text = open(KERNELS).read()
    # clang-14 cannot read the device libraries: spell the work-item functions as builtins
    text = text.replace("get_global_id(0)", "(int)__builtin_amdgcn_workitem_id_x()")
    text = text.replace("get_local_id(0)", "(int)__builtin_amdgcn_workitem_id_x()")
    text = text.replace("barrier(CLK_LOCAL_MEM_FENCE)", "__builtin_amdgcn_s_barrier()")
    text = re.sub(r"atom(ic)?_(\w+)\(", r"__opencl_atomic_fetch_\2_shim(", text)
    shim = "\n".join(
        f"#define __opencl_atomic_fetch_{op}_shim(p, ...) __atomic_{builtin}(p, __VA_ARGS__, 0)"
        for op, builtin in (("add", "fetch_add"), ("or", "fetch_or"), ("max", "fetch_max"),
                            ("xchg", "exchange_n")))
    shim += ("\n#define __opencl_atomic_fetch_cmpxchg_shim(p, e, d) "
             "__sync_val_compare_and_swap(p, e, d)\n")
    source.write_text(shim + text)
    asm = tmp_path / "k.s"
    subprocess.run([clang14, "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx700", "-nogpulib",
                    "-mcode-object-version=2", "-x", "cl", "-cl-std=CL2.0", "-O0", "-S",
                    str(source), "-o", str(asm)], check=True, capture_output=True)
    lines = [line.split("//")[0].strip() for line in asm.read_text().splitlines()]
    lines = [line for line in lines if MEMORY.match(line)]
    out = subprocess.run([llvm_mc14, "-triple=amdgcn", "-mcpu=gfx700", "-show-encoding"],
                         input="\n".join(lines), capture_output=True, text=True, check=True)
    pairs = [(m.group(1), bytes(int(x, 16) for x in m.group(2).split(",")))
             for m in map(_MC.match, out.stdout.splitlines()) if m]
    assert len(pairs) > 10
    wrong = check_pairs(pairs, "gfx700")
    assert not wrong, f"{len(wrong)}/{len(pairs)} differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("family", ["ds", "flat", "buffer", "mimg", "export", "vintrp"])
def test_corpus_still_matches_llvm_mc(family, llvm_mc19):
    """The recorded text->bytes rows agree with the llvm-mc installed now."""
    with open(os.path.join(DATA, f"mem_{family}.json")) as handle:
        rows = [r for r in json.load(handle)["encode"] if r[1] == "19" and r[3]][::7]
    by_target = {}
    for target, _, text, code, _ in rows:
        by_target.setdefault(target, []).append((text, code))
    for target, items in by_target.items():
        out = subprocess.run([llvm_mc19, "-triple=amdgcn", f"-mcpu={target}", "-show-encoding"],
                             input="\n".join(t for t, _ in items), capture_output=True,
                             text=True)
        got = [bytes(int(x, 16) for x in m.group(2).split(",")).hex()
               for m in map(_MC.match, out.stdout.splitlines()) if m]
        assert got == [code for _, code in items], target

"""Properties over every row of the tables, for every generation:
encode -> decode gives back the row and the fields; decode -> text -> encode
gives back the bytes; undecodable or truncated input never crashes."""

import os
import random
import sys

import pytest

from amdgpu_tools.errors import DecodeError
from amdgpu_tools.isa import DataWord, decode, disassemble, encode_instruction, get_target
from amdgpu_tools.isa.asm_operands import Func, Imm, Modifier, Reg, SpecialReg
from amdgpu_tools.isa.families import families

sys.path.insert(0, os.path.dirname(__file__))
from asm_text import parse_instruction  # noqa: E402

TARGETS = ["gfx600", "gfx700", "gfx803", "gfx900", "gfx906"]
CORE = ("sop", "smem", "vop")


def core_rows(target):
    for family in families():
        if getattr(family, "name", None) in CORE:
            yield from family.instructions(target)


def operand_for(spec, slot, rng):
    """A valid operand for one syntax slot (registers chosen at random, aligned)."""
    if "fixed" in spec:
        return SpecialReg(spec["fixed"]) if not spec["fixed"].startswith(("s[", "ttmp")) \
            else parse_instruction("x " + spec["fixed"])[1][0]
    kind, width = spec["kind"], spec.get("width", 1)
    if kind in ("vgpr", "sdwa_src") or (kind == "src" and spec.get("file") != "s"):
        return Reg("v", rng.randrange(0, 257 - width), width)
    if kind in ("sdst", "ssrc", "src", "sbase"):
        align = 1 if width == 1 else (2 if width == 2 else 4)
        top = 100 - width
        return Reg("s", rng.randrange(0, top) // align * align, width)
    if kind == "smem_offset":
        return Imm(rng.randrange(0, 256))
    if kind in ("simm16", "label", "imm"):
        return Imm(rng.randrange(0, 64))
    if kind == "imm_hex":
        return Imm(rng.randrange(0, 8))
    if kind == "hwreg":
        return Func("hwreg", ("HW_REG_MODE", rng.randrange(0, 8), rng.randrange(1, 9)))
    if kind == "sendmsg":
        return Func("sendmsg", ("MSG_GS", "GS_OP_EMIT", rng.randrange(0, 4)))
    if kind == "waitcnt":
        return Func("lgkmcnt", (rng.randrange(0, 16),))
    if kind == "gpr_idx":
        return Func("gpr_idx", ("SRC0",))
    if kind == "literal":
        return Imm(0x1234)
    raise AssertionError(f"no operand generator for kind {kind}")


@pytest.mark.parametrize("cpu", TARGETS)
def test_every_row_encodes_decodes_and_prints_back(cpu):
    target = get_target(cpu)
    rng = random.Random(cpu)
    checked = 0
    for row in core_rows(target):
        operands = [operand_for(spec, i, rng) for i, spec in enumerate(row.operands)]
        scalar_sources = [i for i, spec in enumerate(row.operands)
                          if spec.get("kind") in ("src", "ssrc") and spec.get("file") == "s"
                          and row.encoding.startswith("VOP")]
        for i in scalar_sources[1:]:  # one SGPR value: the constant bus allows no more
            if operands[i].count == operands[scalar_sources[0]].count:
                operands[i] = operands[scalar_sources[0]]
        if row.encoding == "DPP":
            operands.append(Modifier("quad_perm", (1, 2, 3, 0)))
        if row.encoding == "SDWA":
            operands.append(Modifier("src0_sel", "WORD_1"))
        encoded = encode_instruction(row.asm, operands, target)
        inst = decode(encoded.data, 0, target)
        if inst.info is not row:  # same spelling, llvm picks the shorter form: so do we
            assert inst.info.asm == row.asm and inst.size < 8 and not operands, (row, inst.info)
            continue
        assert inst.size == len(encoded.data)
        for spec, operand in zip(row.operands, operands):
            if isinstance(operand, Reg) and spec.get("kind") in ("vgpr", "sdst"):
                assert inst.fields[spec["field"]] == operand.index + (
                    0 if operand.file == "v" or spec["kind"] == "sdst" else 0)
        again = encode_instruction(*parse_instruction(inst.text()), target)
        assert again.data == encoded.data, (inst.text(), encoded.data.hex(), again.data.hex())
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("cpu", TARGETS)
def test_random_words_never_crash(cpu):
    target = get_target(cpu)
    rng = random.Random(7)
    code = bytes(rng.randrange(256) for _ in range(16384))
    seen = 0
    for address, inst in disassemble(code, target, base_address=0x1000):
        assert isinstance(inst.text(), str)
        seen += inst.size
    assert seen == len(code)


def test_truncated_and_unknown_words():
    target = get_target("gfx900")
    with pytest.raises(DecodeError, match="truncated"):
        decode(bytes.fromhex("ff02007e"), 0, target)  # v_mov_b32 with a missing literal
    with pytest.raises(DecodeError):
        decode(b"\x00\x00", 0, target)
    items = list(disassemble(bytes.fromhex("000081bf") + b"\x01\x02", target))
    assert items[0][1].text() == "s_endpgm"
    assert isinstance(items[1][1], DataWord) and items[1][1].text() == ".byte 0x01, 0x02"
    assert items[1][0] == 4


@pytest.mark.parametrize("cpu, text, hexbytes", [
    ("gfx900", "s_load_dwordx2 s[0:1], s[4:5], 0x24", "020006c024000000"),
    ("gfx803", "s_load_dwordx2 s[0:1], s[4:5], 0x24", "020006c024000000"),
    ("gfx700", "s_load_dwordx2 s[0:1], s[4:5], 0x24", "240540c0"),
    ("gfx900", "v_mov_b32_e32 v0, 0x40490fd0", "ff02007ed00f4940"),
    ("gfx900", "s_waitcnt lgkmcnt(0)", "7fc08cbf"),
    ("gfx900", "s_endpgm", "000081bf"),
    ("gfx900", "v_add_u32_e32 v0, v1, v2", "01050068"),
    ("gfx900", "v_add_co_u32_e32 v0, vcc, v1, v2", "01050032"),
    ("gfx803", "v_add_u32_e32 v0, vcc, v1, v2", "01050032"),
    ("gfx900", "v_mad_u32_u24 v0, v1, v2, v3", "0000c3d101050e04"),
    ("gfx900", "v_cmp_gt_i32_e32 vcc, 0, v1", "8002887d"),
])
def test_known_encodings(cpu, text, hexbytes):
    target = get_target(cpu)
    assert decode(bytes.fromhex(hexbytes), 0, target).text() == text
    assert encode_instruction(*parse_instruction(text), target).data.hex() == hexbytes


def test_float_literal_and_branch_fixup():
    from amdgpu_tools.isa.asm_operands import SymbolRef
    target = get_target("gfx900")
    encoded = encode_instruction("v_mov_b32", [Reg("v", 0), Imm(3.14159, True)], target)
    assert encoded.data.hex() == "ff02007ed00f4940" and encoded.text == "v_mov_b32_e32 v0, 0x40490fd0"
    branch = encode_instruction("s_cbranch_scc0", [SymbolRef("L1")], target)
    assert branch.data.hex() == "000084bf"
    assert [(f.offset, f.size, f.kind, f.expr) for f in branch.fixups] == [(0, 2, "branch16", "L1")]
    literal = encode_instruction("v_mov_b32", [Reg("v", 1), SymbolRef("sym", "abs32@lo")], target)
    assert [(f.offset, f.size, f.kind, f.specifier) for f in literal.fixups] == \
        [(4, 4, "literal32", "abs32@lo")]


def test_every_processor_decodes_its_generation():
    for target_name, hexbytes, text in [
            ("gfx602", "01050206", "v_add_f32_e32 v1, v1, v2"),
            ("gfx705", "01050206", "v_add_f32_e32 v1, v1, v2"),
            ("gfx801", "01050202", "v_add_f32_e32 v1, v1, v2"),
            ("gfx810", "01050202", "v_add_f32_e32 v1, v1, v2"),
            ("gfx902", "0000a0d301050e04", "v_mad_mix_f32 v0, v1, v2, v3"),
            ("gfx909", "0000a0d301050e04", "v_mad_mix_f32 v0, v1, v2, v3"),
            ("gfx90c", "0000a0d301050e04", "v_mad_mix_f32 v0, v1, v2, v3"),
            ("gfx904", "0000a0d301050e04", "v_fma_mix_f32 v0, v1, v2, v3")]:
        assert decode(bytes.fromhex(hexbytes), 0, target_name).text() == text, target_name

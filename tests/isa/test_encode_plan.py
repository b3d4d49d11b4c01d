"""The memoised encoder (isa.encode_plan) and the assembler's line memo give the
same answers as the plain encoder: bytes, canonical text and errors.

The corpus lines are llvm-mc-accepted instructions of every family; each is
encoded as written and with its v/s register indices moved (which is what a
shape plan predicts), by both paths.
"""

import os
import random
import sys

import pytest

from amdgpu_tools.asm.assembler import Assembler
from amdgpu_tools.isa import encode_plan, encoder
from amdgpu_tools.isa.asm_operands import Imm, Modifier, Reg
from amdgpu_tools.isa.targets import get_target

ISA_TESTS = os.path.dirname(__file__)
sys.path.insert(0, ISA_TESTS)
from asm_text import parse_instruction  # noqa: E402


def _outcome(encode, mnemonic, operands, target):
    try:
        encoded = encode(mnemonic, operands, target)
    except Exception as error:  # pylint: disable=broad-except  (compared, not hidden)
        return ("error", type(error).__name__, str(error), getattr(error, "operand_index", None))
    try:  # a plan's text comes from the encoder: it fails if the plan accepted a bad operand
        text = encoded.text
    except Exception as error:  # pylint: disable=broad-except
        text = ("no text", str(error))
    return ("ok", bytes(encoded.data), [(f.offset, f.size, f.kind) for f in encoded.fixups], text)


def _moved(operands, rng):
    """The operands with every v/s register (consistently) given another index."""
    new_index = {}
    moved = []
    for operand in operands:
        if type(operand) is Reg and operand.file in ("v", "s"):
            ident = (operand.file, operand.index, operand.count)
            if ident not in new_index:
                new_index[ident] = rng.choice([
                    operand.index ^ (1 << rng.randrange(8)), rng.randrange(0, 260),
                    max(0, operand.index + rng.choice([-2, -1, 1, 2, 4])), rng.randrange(0, 110)])
            operand = Reg(operand.file, new_index[ident], operand.count, operand.neg,
                          operand.abs, operand.sext)
        moved.append(operand)
    return moved


@pytest.mark.parametrize("cpu", ["gfx600", "gfx803", "gfx900"])
def test_plans_agree_with_the_encoder_on_the_corpus(cpu):
    target = get_target(cpu)
    encode_plan.clear()
    rng = random.Random(cpu)
    path = os.path.join(ISA_TESTS, "data", f"corpus_{cpu}.txt")
    with open(path) as handle:
        lines = [line.split("\t")[0] for line in handle if not line.startswith("#")]
    checked = 0
    for text in lines[::31]:
        mnemonic, operands = parse_instruction(text)
        for variant in (operands, _moved(operands, rng), _moved(operands, rng), operands):
            planned = _outcome(encode_plan.encode_instruction, mnemonic, variant, target)
            direct = _outcome(encoder.encode_instruction, mnemonic, variant, target)
            assert planned == direct, (text, variant)
            checked += 1
    plans = sum(type(v) is encode_plan.Plan for v in encode_plan._SHAPES.values())
    assert checked > 2500 and plans > 150  # the plans were really exercised


def test_constant_bus_follows_which_sgprs_are_the_same():
    target = get_target("gfx900")
    encode_plan.clear()
    same = [Reg("v", 0), Reg("s", 1), Reg("s", 1)]
    for index in (1, 2, 5, 9):
        same = [Reg("v", index), Reg("s", index + 3), Reg("s", index + 3)]
        assert _outcome(encode_plan.encode_instruction, "v_add_f32_e64", same, target)[0] == "ok"
    distinct = [Reg("v", 0), Reg("s", 1), Reg("s", 2)]
    outcome = _outcome(encode_plan.encode_instruction, "v_add_f32_e64", distinct, target)
    assert outcome[0] == "error" and "constant bus" in outcome[2]


def test_signed_zero_and_range_errors_are_not_shared():
    target = get_target("gfx900")
    encode_plan.clear()
    for sign in (0.0, -0.0, 0.0, -0.0):
        operands = [Reg("v", 1), Imm(sign, True)]
        assert _outcome(encode_plan.encode_instruction, "v_mov_b32", operands, target) == \
            _outcome(encoder.encode_instruction, "v_mov_b32", operands, target)
    for index in (0, 2, 4, 254, 255):  # v[255:256] is out of range after a learnt plan
        operands = [Reg("v", index, 2), Reg("v", 0, 2), Reg("v", 8, 2)]
        assert _outcome(encode_plan.encode_instruction, "v_add_f64", operands, target) == \
            _outcome(encoder.encode_instruction, "v_add_f64", operands, target)


def _text_section(source):
    return bytes(Assembler("gfx900").assemble(source).sections[".text"].data)


def test_repeated_lines_follow_symbol_changes():
    twice = _text_section(".set x, 1\nv_mov_b32 v0, x\n.set x, 2\nv_mov_b32 v0, x\n")
    assert twice == _text_section("v_mov_b32 v0, 1\nv_mov_b32 v0, 2\n")
    same = _text_section("s_mov_b32 s0, 3\n" * 3 + "v_mov_b32 v0, -0.0\nv_mov_b32 v0, 0.0\n")
    single = [_text_section(line + "\n") for line in
              ("s_mov_b32 s0, 3", "v_mov_b32 v0, -0.0", "v_mov_b32 v0, 0.0")]
    assert same == single[0] * 3 + single[1] + single[2]
    assert single[1] != single[2]


_LITERAL_LINES = [  # (mnemonic, operands with a literal slot None)
    ("s_add_u32", [Reg("s", 3), Reg("s", 7), None]),
    ("s_add_u32", [Reg("s", 3), None, Reg("s", 3)]),
    ("s_mov_b32", [Reg("s", 9), None]),
    ("v_mul_f32_e32", [Reg("v", 1), None, Reg("v", 2)]),
    ("v_add_u32_e32", [Reg("v", 1), None, Reg("v", 5)]),
    ("v_fma_f32", [Reg("v", 1), Reg("v", 2), Reg("v", 3), None]),  # VOP3: no literal on gfx9
    ("v_madak_f32", [Reg("v", 1), Reg("v", 2), Reg("v", 3), None]),
    ("s_movk_i32", [Reg("s", 1), None]),  # simm16 field, not an appended dword
    ("v_add_f16_e32", [Reg("v", 1), None, Reg("v", 2)]),  # 16-bit: full encode
    ("s_mov_b64", [Reg("s", 2, 2), None]),  # 64-bit: full encode
    ("v_add_f64", [Reg("v", 2, 2), None, Reg("v", 4, 2)]),
]
#: Non-inline values, inline integers and float bit patterns, 16/32/64-bit edges.
_LITERAL_VALUES = [100, 65, 64, -16, -17, 0x3F800000, 0xBF000000, 0x3E22F983, 0x3C00, -0x4800,
                   0x3FF00000, 0x12345, 70000, 0xFFFFFFFF, -(1 << 31), 1 << 32, -65536, 0x7FFF,
                   0x8000, 99999, 123456789, 0xFFFFFFF0, 0xFFFFFFEF, 0xFFFFFFC0]


@pytest.mark.parametrize("cpu", ["gfx803", "gfx900"])
def test_literal_shapes_agree_with_the_encoder(cpu):
    target = get_target(cpu)
    encode_plan.clear()
    rng = random.Random(cpu)
    literal_plans = 0
    for mnemonic, template in _LITERAL_LINES:
        for value in _LITERAL_VALUES * 2 + [rng.randrange(65, 1 << 32) for _ in range(20)]:
            operands = [Imm(value) if o is None else o for o in template]
            for variant in (operands, _moved(operands, rng)):
                planned = _outcome(encode_plan.encode_instruction, mnemonic, variant, target)
                direct = _outcome(encoder.encode_instruction, mnemonic, variant, target)
                assert planned == direct, (mnemonic, variant)
    literal_plans = sum(type(v) is encode_plan.Plan and v.literal_free
                        for v in encode_plan._SHAPES.values())
    assert literal_plans >= 4  # s_add_u32 (2 shapes), s_mov_b32, v_mul_f32_e32, ...
    assert not encode_plan._literal_shapes_allowed("v_add_f16_e32", target)
    assert not encode_plan._literal_shapes_allowed("s_mov_b64", target)


def test_a_broken_literal_plan_is_caught_by_the_comparison(monkeypatch):
    """The comparison above can fail: a plan that writes the literal wrongly is seen."""
    target = get_target("gfx900")
    encode_plan.clear()
    operands = [[Reg("s", 3), Reg("s", 7), Imm(value)] for value in (100, 200, 300, 400)]
    for variant in operands[:3]:
        encode_plan.encode_instruction("s_add_u32", variant, target)
    plan = next(v for v in encode_plan._SHAPES.values() if type(v) is encode_plan.Plan)
    assert plan.literal_free
    good_apply = encode_plan.Plan.apply

    def swapped_literal(self, indices, literal=None):
        data = good_apply(self, indices, literal)
        return data if data is None else data[:-4] + (literal + 1).to_bytes(4, "little")

    monkeypatch.setattr(encode_plan.Plan, "apply", swapped_literal)
    planned = _outcome(encode_plan.encode_instruction, "s_add_u32", operands[3], target)
    direct = _outcome(encoder.encode_instruction, "s_add_u32", operands[3], target)
    assert planned != direct and planned[1][:-4] == direct[1][:-4]


def _offset_variants(rng):
    for offset in list(range(0, 256, 4)) + [65532, 65535, 65536, -4, 0xFFFFF, 0x100000]:
        yield "ds_read_b32", [Reg("v", rng.randrange(60)), Reg("v", rng.randrange(60)),
                              Modifier("offset", offset)]
        pair = rng.randrange(8, 40, 2)
        yield "s_load_dwordx2", [Reg("s", pair, 2), Reg("s", 4, 2), Imm(offset)]
        yield "global_store_dword", [Reg("v", rng.randrange(60)), Reg("v", rng.randrange(60)),
                                     Reg("s", pair, 2), Modifier("offset", offset)]


def test_offset_siblings_agree_with_the_encoder():
    """Shapes differing only in an offset reuse each other's masks (checked by flips)."""
    target = get_target("gfx900")
    encode_plan.clear()
    rng = random.Random(5)
    for _ in range(3):
        for mnemonic, operands in _offset_variants(rng):
            for variant in (operands, _moved(operands, rng)):
                assert _outcome(encode_plan.encode_instruction, mnemonic, variant, target) == \
                    _outcome(encoder.encode_instruction, mnemonic, variant, target), variant
    assert len(encode_plan._SIBLING_MASKS) >= 3
    assert sum(type(v) is encode_plan.Plan for v in encode_plan._SHAPES.values()) > 100


def test_wrong_sibling_masks_are_refused():
    """Deliberately broken sibling masks fail the flip check: the shape is probed itself."""
    target = get_target("gfx900")
    encode_plan.clear()
    rng = random.Random(6)
    for offset in (16, 32):
        for index in (1, 2, 3, 9):
            encode_plan.encode_instruction("ds_read_b32", [Reg("v", index), Reg("v", index + 20),
                                                           Modifier("offset", offset)], target)
    (sibling, (masks, fixed)), = encode_plan._SIBLING_MASKS.items()
    encode_plan._SIBLING_MASKS[sibling] = ([m[::-1] for m in masks], fixed)  # bits reversed
    for index in (1, 2, 3, 9, 17, 40):
        operands = [Reg("v", index), Reg("v", rng.randrange(60, 90)), Modifier("offset", 48)]
        assert _outcome(encode_plan.encode_instruction, "ds_read_b32", operands, target) == \
            _outcome(encoder.encode_instruction, "ds_read_b32", operands, target)
    plan = next(v for k, v in encode_plan._SHAPES.items()
                if type(v) is encode_plan.Plan and ("m", "offset", 48, int) in k)
    assert plan.masks == masks  # its own probes, not the broken ones

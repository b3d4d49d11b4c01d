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
from amdgpu_tools.isa.asm_operands import Imm, Reg
from amdgpu_tools.isa.targets import get_target

ISA_TESTS = os.path.join(os.path.dirname(__file__), os.pardir, "isa")
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

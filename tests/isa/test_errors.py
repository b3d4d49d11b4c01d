"""Bad input raises InstructionError with a readable message and the culprit operand."""

import os
import sys

import pytest

from amdgpu_tools.errors import ToolchainError
from amdgpu_tools.isa import encode_instruction
from amdgpu_tools.isa.encoder import InstructionError

sys.path.insert(0, os.path.dirname(__file__))
from asm_text import parse_instruction  # noqa: E402


def error_of(text, cpu="gfx900"):
    with pytest.raises(InstructionError) as info:
        encode_instruction(*parse_instruction(text), cpu)
    assert isinstance(info.value, ToolchainError)
    return str(info.value), info.value.operand_index


@pytest.mark.parametrize("text, cpu, message, index", [
    ("v_frobnicate v0, v1", "gfx900", "invalid instruction: v_frobnicate", None),
    ("v_pk_add_f16 v0, v1, v2", "gfx803", "not supported on this GPU (gfx803)", None),
    ("v_dot2_f32_f16 v0, v1, v2, v3", "gfx900", "not supported on this GPU (gfx900)", None),
    ("v_add_f32 v0, v1", "gfx900", "too few operands", None),
    ("v_add_f32 v0, v1, v2, v3", "gfx900", "too many operands", 3),
    ("v_mov_b32 v256, v1", "gfx900", "out of range", 0),
    ("s_mov_b32 s102, s1", "gfx900", "out of range", 0),
    ("s_mov_b64 s[1:2], s[4:5]", "gfx900", "alignment", 0),
    ("s_mov_b32 ttmp12, s0", "gfx803", "trap temporary", 0),
    ("v_add_f32 v0, s0, s1", "gfx900", "constant bus", None),
    ("v_fma_f32 v0, v1, v2, 0x12345678", "gfx900", "literal operands are not supported", 3),
    ("v_add_f32 v0, v1, v2 glc", "gfx900", "invalid modifier", 3),
    ("s_getreg_b32 s0, hwreg(HW_REG_NOPE)", "gfx900", "invalid hardware register", 1),
    ("s_waitcnt vmcnt(99)", "gfx803", "too large value for vmcnt", 0),
    ("s_load_dword s0, s[4:5], 0x100000", "gfx900", "21-bit signed offset", 2),
    ("s_load_dword m0, s[4:5], 0x0", "gfx900", "m0/exec", 0),
    ("v_readfirstlane_b32 s0, s1", "gfx900", "scalar register is not allowed", 1),
    ("v_mov_b32 v0, 0x123456789", "gfx900", "does not fit 32 bits", 1),
])
def test_messages(text, cpu, message, index):
    got, got_index = error_of(text, cpu)
    assert message in got
    assert got_index == index


def test_sgpr_104_exists_only_on_gfx6_7():
    assert encode_instruction(*parse_instruction("s_mov_b32 s103, s0"), "gfx700").data
    error_of("s_mov_b32 s103, s0", "gfx803")

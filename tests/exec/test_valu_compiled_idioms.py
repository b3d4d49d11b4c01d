"""Instruction forms that real compiler output relies on, checked against the
ISA manual's definition rather than against the executor's own output.

v_cndmask_b32 moves 32-bit values bit-exactly, but in its VOP3 form the
hardware still honours the abs/neg source modifiers as on an f32 (abs clears
bit 31, neg flips it), and LLVM folds fneg/fabs into its sources (clang-19's
OCML sincos selects ``v_cndmask_b32_e64 v3, -v3, v4, vcc`` for cos).
"""

import numpy as np
import pytest

from .kernel_util import f32_bits, run_snippet

SIGN = np.uint32(0x80000000)


@pytest.mark.parametrize("mcpu", ["gfx700", "gfx803", "gfx900"])
def test_vop3_cndmask_applies_neg_and_abs_to_bit_31(mcpu):
    a = f32_bits(np.linspace(-3, 3, 64, dtype=np.float32))
    b = np.resize(np.array([0x12345678, 0x87654321, 0xFFFFFFFF, 0x80000000], np.uint32), 64)
    select = 0xF0F0_0FF0_1234_5678
    lanes = (np.uint64(select) >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    state = run_snippet("v_cndmask_b32_e64 v2, -v0, |v1|, s[0:1]\n"
                        "v_cndmask_b32_e64 v3, |v0|, -|v1|, s[0:1]\n"
                        "v_cndmask_b32_e64 v4, v0, v1, s[0:1]",
                        vgpr={0: a, 1: b}, sgpr={0: select & 0xFFFFFFFF, 1: select >> 32},
                        mcpu=mcpu)
    chosen = lanes.astype(bool)
    np.testing.assert_array_equal(state.vgpr[2, 0], np.where(chosen, b & ~SIGN, a ^ SIGN))
    np.testing.assert_array_equal(state.vgpr[3, 0], np.where(chosen, b | SIGN, a & ~SIGN))
    np.testing.assert_array_equal(state.vgpr[4, 0], np.where(chosen, b, a))

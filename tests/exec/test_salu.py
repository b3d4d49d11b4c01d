"""Scalar ALU semantics, one instruction at a time, against values worked out
by hand from the ISA manual's definitions (wrap-around, SCC rules, shifts
that use only the low bits, bit-field edge cases)."""

import numpy as np
import pytest

from .kernel_util import run_snippet

M32 = 0xFFFFFFFF

# (instruction, {sgpr: value}, scc in, {sgpr: expected}, expected scc or None)
CASES = [
    ("s_add_u32 s0, s1, s2", {1: M32, 2: 2}, 0, {0: 1}, 1),
    ("s_add_u32 s0, s1, s2", {1: 5, 2: 7}, 1, {0: 12}, 0),
    ("s_sub_u32 s0, s1, s2", {1: 1, 2: 2}, 0, {0: M32}, 1),
    ("s_addc_u32 s0, s1, s2", {1: M32, 2: 0}, 1, {0: 0}, 1),
    ("s_subb_u32 s0, s1, s2", {1: 5, 2: 5}, 1, {0: M32}, 1),
    ("s_add_i32 s0, s1, s2", {1: 0x7FFFFFFF, 2: 1}, 0, {0: 0x80000000}, 1),
    ("s_add_i32 s0, s1, s2", {1: M32, 2: 1}, 1, {0: 0}, 0),
    ("s_sub_i32 s0, s1, s2", {1: 0x80000000, 2: 1}, 0, {0: 0x7FFFFFFF}, 1),
    ("s_mul_i32 s0, s1, s2", {1: 0x10000, 2: 0x10001}, 0, {0: 0x10000}, None),
    ("s_mul_hi_u32 s0, s1, s2", {1: M32, 2: M32}, 0, {0: 0xFFFFFFFE}, None),
    ("s_mul_hi_i32 s0, s1, s2", {1: M32, 2: 2}, 0, {0: M32}, None),
    ("s_min_i32 s0, s1, s2", {1: M32, 2: 1}, 0, {0: M32}, 1),
    ("s_min_u32 s0, s1, s2", {1: M32, 2: 1}, 1, {0: 1}, 0),
    ("s_max_i32 s0, s1, s2", {1: M32, 2: 1}, 0, {0: 1}, 0),
    ("s_max_u32 s0, s1, s2", {1: M32, 2: 1}, 0, {0: M32}, 1),
    ("s_absdiff_i32 s0, s1, s2", {1: 3, 2: M32}, 0, {0: 4}, 1),
    ("s_abs_i32 s0, s1", {1: 0x80000000}, 0, {0: 0x80000000}, 1),
    ("s_and_b32 s0, s1, s2", {1: 0xF0, 2: 0x0F}, 1, {0: 0}, 0),
    ("s_or_b64 s[0:1], s[2:3], s[4:5]", {2: 1, 3: 0, 4: 0, 5: 0x80000000}, 0,
     {0: 1, 1: 0x80000000}, 1),
    ("s_andn2_b32 s0, s1, s2", {1: 0xFF, 2: 0x0F}, 0, {0: 0xF0}, 1),
    ("s_orn2_b32 s0, s1, s2", {1: 0, 2: M32}, 1, {0: 0}, 0),
    ("s_nand_b32 s0, s1, s2", {1: M32, 2: M32}, 1, {0: 0}, 0),
    ("s_nor_b32 s0, s1, s2", {1: 0, 2: 0}, 0, {0: M32}, 1),
    ("s_xnor_b64 s[0:1], s[2:3], s[4:5]", {2: 0, 3: 0, 4: 0, 5: 0}, 0, {0: M32, 1: M32}, 1),
    ("s_lshl_b32 s0, s1, s2", {1: 3, 2: 33}, 0, {0: 6}, 1),
    ("s_lshr_b32 s0, s1, s2", {1: 0x80000000, 2: 31}, 0, {0: 1}, 1),
    ("s_ashr_i32 s0, s1, s2", {1: 0x80000000, 2: 35}, 0, {0: 0xF0000000}, 1),
    ("s_lshl_b64 s[0:1], s[2:3], s4", {2: 1, 3: 0, 4: 63}, 0, {0: 0, 1: 0x80000000}, 1),
    ("s_lshr_b64 s[0:1], s[2:3], s4", {2: 0, 3: 1, 4: 64}, 0, {0: 0, 1: 1}, 1),
    ("s_ashr_i64 s[0:1], s[2:3], s4", {2: 0, 3: 0x80000000, 4: 32}, 0,
     {0: 0x80000000, 1: M32}, 1),
    ("s_bfm_b32 s0, s1, s2", {1: 4, 2: 8}, 0, {0: 0xF00}, None),
    ("s_bfm_b64 s[0:1], s1, s2", {1: 8, 2: 28}, 0, {0: 0xF0000000, 1: 0xF}, None),
    ("s_bfe_u32 s0, s1, s2", {1: 0x12345678, 2: (8 << 16) | 4}, 0, {0: 0x67}, 1),
    ("s_bfe_i32 s0, s1, s2", {1: 0x000000F0, 2: (4 << 16) | 4}, 0, {0: M32}, 1),
    ("s_bfe_u32 s0, s1, s2", {1: 0x12345678, 2: (0 << 16) | 4}, 1, {0: 0}, 0),
    ("s_bfe_u64 s[0:1], s[2:3], s4", {2: 0, 3: 0xAB, 4: (8 << 16) | 32}, 0, {0: 0xAB, 1: 0}, 1),
    ("s_bfe_i64 s[0:1], s[2:3], s4", {2: 0x80000000, 3: 0, 4: (1 << 16) | 31}, 0,
     {0: M32, 1: M32}, 1),
    ("s_cselect_b32 s0, s1, s2", {1: 7, 2: 9}, 1, {0: 7}, 1),
    ("s_cselect_b64 s[0:1], s[2:3], s[4:5]", {2: 1, 3: 2, 4: 3, 5: 4}, 0, {0: 3, 1: 4}, 0),
    ("s_mov_b64 s[0:1], -1", {}, 0, {0: M32, 1: M32}, None),
    ("s_mov_b32 s0, 0.5", {}, 0, {0: 0x3F000000}, None),
    ("s_mov_b64 s[0:1], 1.0", {}, 0, {0: 0, 1: 0x3FF00000}, None),
    ("s_mov_b32 s0, 0x12345678", {}, 0, {0: 0x12345678}, None),
    ("s_cmov_b32 s0, s1", {0: 5, 1: 6}, 0, {0: 5}, 0),
    ("s_cmov_b32 s0, s1", {0: 5, 1: 6}, 1, {0: 6}, 1),
    ("s_not_b32 s0, s1", {1: M32}, 1, {0: 0}, 0),
    ("s_wqm_b32 s0, s1", {1: 0x00010020}, 0, {0: 0x000F00F0}, 1),
    ("s_brev_b32 s0, s1", {1: 1}, 0, {0: 0x80000000}, None),
    ("s_brev_b64 s[0:1], s[2:3]", {2: 1, 3: 0}, 0, {0: 0, 1: 0x80000000}, None),
    ("s_bcnt1_i32_b32 s0, s1", {1: 0xF0F0}, 0, {0: 8}, 1),
    ("s_bcnt0_i32_b64 s0, s[2:3]", {2: M32, 3: M32}, 1, {0: 0}, 0),
    ("s_ff1_i32_b32 s0, s1", {1: 0x100}, 0, {0: 8}, None),
    ("s_ff1_i32_b32 s0, s1", {1: 0}, 0, {0: M32}, None),
    ("s_ff0_i32_b32 s0, s1", {1: 0xFF}, 0, {0: 8}, None),
    ("s_ff1_i32_b64 s0, s[2:3]", {2: 0, 3: 2}, 0, {0: 33}, None),
    ("s_flbit_i32_b32 s0, s1", {1: 0x00010000}, 0, {0: 15}, None),
    ("s_flbit_i32_b32 s0, s1", {1: 0}, 0, {0: M32}, None),
    ("s_flbit_i32_b64 s0, s[2:3]", {2: 1, 3: 0}, 0, {0: 63}, None),
    ("s_flbit_i32 s0, s1", {1: 0xFFFF0000}, 0, {0: 16}, None),
    ("s_flbit_i32 s0, s1", {1: M32}, 0, {0: M32}, None),
    ("s_sext_i32_i8 s0, s1", {1: 0x180}, 0, {0: 0xFFFFFF80}, None),
    ("s_sext_i32_i16 s0, s1", {1: 0x7FFF}, 0, {0: 0x7FFF}, None),
    ("s_bitset1_b32 s0, s1", {0: 0, 1: 35}, 0, {0: 8}, None),
    ("s_bitset0_b64 s[0:1], s2", {0: M32, 1: M32, 2: 63}, 0, {0: M32, 1: 0x7FFFFFFF}, None),
    ("s_quadmask_b32 s0, s1", {1: 0x00F00001}, 0, {0: 0x21}, 1),
    ("s_movk_i32 s0, 0x8000", {}, 0, {0: 0xFFFF8000}, None),
    ("s_cmovk_i32 s0, 0x7", {0: 1}, 1, {0: 7}, 1),
    ("s_addk_i32 s0, 0xffff", {0: 0x80000000}, 0, {0: 0x7FFFFFFF}, 1),
    ("s_mulk_i32 s0, 0xfffe", {0: 3}, 0, {0: 0xFFFFFFFA}, None),
    ("s_cmpk_lt_i32 s0, 0xffff", {0: 0xFFFFFFFE}, 0, {}, 1),
    ("s_cmpk_lt_u32 s0, 0xffff", {0: 0xFFFFFFFE}, 1, {}, 0),
    ("s_cmp_lt_i32 s0, s1", {0: M32, 1: 0}, 0, {}, 1),
    ("s_cmp_lt_u32 s0, s1", {0: M32, 1: 0}, 1, {}, 0),
    ("s_cmp_eq_u64 s[0:1], s[2:3]", {0: 1, 1: 2, 2: 1, 3: 2}, 0, {}, 1),
    ("s_cmp_lg_u64 s[0:1], s[2:3]", {0: 1, 1: 2, 2: 1, 3: 3}, 0, {}, 1),
    ("s_bitcmp1_b32 s0, 33", {0: 2}, 0, {}, 1),
    ("s_bitcmp0_b64 s[0:1], 63", {0: 0, 1: 0x80000000}, 1, {}, 0),
    ("s_lshl2_add_u32 s0, s1, s2", {1: 0x40000000, 2: 1}, 0, {0: 1}, 1),
    ("s_pack_lh_b32_b16 s0, s1, s2", {1: 0x1234ABCD, 2: 0x5678EF01}, 0, {0: 0x5678ABCD}, None),
    ("s_pack_hh_b32_b16 s0, s1, s2", {1: 0x1234ABCD, 2: 0x5678EF01}, 0, {0: 0x56781234}, None),
    ("s_and_saveexec_b64 s[0:1], s[2:3]", {2: 0xF, 3: 0}, 0, {0: M32, 1: M32, 126: 0xF, 127: 0}, 1),
    ("s_andn2_wrexec_b64 s[0:1], s[2:3]", {2: M32, 3: 0}, 0, {0: 0, 1: 0, 126: 0, 127: 0}, 0),
]


@pytest.mark.parametrize("source, inputs, scc, expected, expected_scc", CASES,
                         ids=[f"{c[0]}#{i}" for i, c in enumerate(CASES)])
def test_scalar_instruction(source, inputs, scc, expected, expected_scc):
    state = run_snippet(source, sgpr=inputs, scc=bool(scc))
    for code, value in expected.items():
        assert int(state.sgpr[code, 0]) == value, f"s{code}"
    if expected_scc is not None:
        assert bool(state.scc[0]) == bool(expected_scc)


def test_getpc_and_setreg_getreg_round_trip():
    state = run_snippet("s_getpc_b64 s[0:1]\ns_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3\n"
                        "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 8)")
    entry = int(state.request.setup.entry_address)
    assert (int(state.sgpr[1, 0]) << 32 | int(state.sgpr[0, 0])) == entry + 4
    assert int(state.sgpr[2, 0]) == 0xF0          # default 0xC0 with f32 denorms enabled
    assert state.flush_f32 is False


def test_waves_branch_independently():
    source = """
s_cmp_eq_u32 s0, 0
s_cbranch_scc1 skip
s_mov_b32 s1, 11
s_branch out
skip:
s_mov_b32 s1, 22
out:
s_nop 0
"""
    state = run_snippet(source.replace("s_nop 0", "s_mov_b32 s2, 1"),
                        sgpr={0: [0, 1, 0, 5]}, waves=4)
    np.testing.assert_array_equal(state.sgpr[1], [22, 11, 22, 11])


def test_relative_moves_use_m0_per_wave():
    state = run_snippet("s_movrels_b32 s0, s10\ns_movreld_b32 s20, s11\n"
                        "v_movrels_b32 v1, v4\nv_movreld_b32 v8, v2",
                        sgpr={124: [1, 2], 10: 5, 11: 7, 12: 9},
                        vgpr={2: 77, 4: 40, 5: 50, 6: 60}, waves=2, mcpu="gfx803")
    np.testing.assert_array_equal(state.sgpr[0], [7, 9])          # s[10 + m0]
    np.testing.assert_array_equal(state.sgpr[21], [7, 0])         # s[20 + m0] = s11
    np.testing.assert_array_equal(state.sgpr[22], [0, 7])
    np.testing.assert_array_equal(state.vgpr[1, :, 0], [50, 60])  # v[4 + m0]
    np.testing.assert_array_equal(state.vgpr[9, 0], 77)
    np.testing.assert_array_equal(state.vgpr[10, 1], 77)


def test_setpc_to_different_targets_per_wave():
    source = """
s_getpc_b64 s[4:5]
base:
s_lshl_b32 s6, s0, 3
s_add_u32 s4, s4, s6
s_addc_u32 s5, s5, 0
s_add_u32 s4, s4, table - base
s_addc_u32 s5, s5, 0
s_setpc_b64 s[4:5]
table:
s_mov_b32 s1, 10
s_branch done
s_mov_b32 s1, 20
s_branch done
s_mov_b32 s1, 30
s_branch done
done:
s_add_u32 s1, s1, 1
"""
    state = run_snippet(source, sgpr={0: [2, 0, 1, 2]}, waves=4)
    np.testing.assert_array_equal(state.sgpr[1], [31, 11, 21, 31])   # 8-byte table entries


def test_signed_bitfield_reaching_past_bit_31_reads_sign_copies():
    state = run_snippet("s_bfe_i32 s0, s1, s2\nv_bfe_i32 v1, v0, 28, 8\nv_bfe_u32 v2, v0, 28, 8",
                        sgpr={1: 0x80000000, 2: (8 << 16) | 28}, vgpr={0: 0x80000000})
    assert int(state.sgpr[0, 0]) == 0xFFFFFFF8          # 0b1111_1000 sign-extended
    assert int(state.vgpr[1, 0][0]) == 0xFFFFFFF8
    assert int(state.vgpr[2, 0][0]) == 0x08


def test_getreg_status_and_hw_id():
    state = run_snippet("s_cmp_eq_u32 0, 0\ns_mov_b64 vcc, 0\n"
                        "s_getreg_b32 s0, hwreg(HW_REG_STATUS, 0, 16)\n"
                        "s_getreg_b32 s1, hwreg(HW_REG_HW_ID, 0, 4)\n"
                        "s_getreg_b32 s2, hwreg(HW_REG_GPR_ALLOC, 8, 6)", waves=2)
    status = state.sgpr[0]
    assert (status & 1).all()                 # SCC
    assert ((status >> 10) & 1).all()         # VCCZ
    assert not ((status >> 9) & 1).any()      # EXECZ: EXEC is not zero
    np.testing.assert_array_equal(state.sgpr[1], [0, 0])   # one wave per work-group
    assert (state.sgpr[2] == 16 // 4 - 1).all()            # VGPR granules of 4, minus one

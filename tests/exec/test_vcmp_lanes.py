"""Vector compares (VCC/SGPR masks, v_cmpx EXEC writes, NaN rules, classes),
cross-lane moves, DPP permutations and SDWA selects."""

import numpy as np

from .kernel_util import run_snippet

LANE = np.arange(64, dtype=np.uint32)


def mask_of(state, code, wave=0):
    return int(state.sgpr[code + 1, wave]) << 32 | int(state.sgpr[code, wave])


def mask_from(bools):
    return sum(1 << i for i, b in enumerate(bools) if b)


def test_compare_writes_only_active_lanes_and_cmpx_sets_exec():
    a = np.resize(np.array([1.0, np.nan, -0.0, 3.0], np.float32), 64)
    b = np.resize(np.array([2.0, 1.0, 0.0, np.inf], np.float32), 64)
    state = run_snippet("v_cmp_lt_f32 vcc, v0, v1\nv_cmp_neq_f32_e64 s[0:1], v0, v1\n"
                        "v_cmp_eq_f32_e64 s[2:3], v0, v1\nv_cmp_u_f32_e64 s[4:5], v0, v1\n"
                        "v_cmpx_gt_u32 exec, v2, 40",
                        vgpr={0: a, 1: b, 2: LANE}, exec_mask=0xFFFFFFFF_FFFFFF00)
    active = LANE >= 8
    with np.errstate(invalid="ignore"):
        assert mask_of(state, 106) == mask_from((a < b) & active)
        assert mask_of(state, 0) == mask_from(~(a == b) & active)      # neq is true for NaN
        assert mask_of(state, 2) == mask_from((a == b) & active)       # -0 == +0
    assert mask_of(state, 4) == mask_from((np.isnan(a) | np.isnan(b)) & active)
    assert mask_of(state, 126) == mask_from(LANE > 40)


def test_64_bit_and_16_bit_integer_compares():
    lo = LANE.copy()
    hi = np.where(LANE % 2 == 1, 0xFFFFFFFF, 0).astype(np.uint32)
    state = run_snippet("v_cmp_gt_i64 vcc, v[0:1], 0\nv_cmp_gt_u64_e64 s[0:1], v[0:1], 0\n"
                        "v_cmp_lt_i16 s[2:3], v2, 0",
                        vgpr={0: lo, 1: hi, 2: LANE * 0x1000})
    value = (hi.astype(np.int64) << 32 | lo).astype(np.uint64)
    assert mask_of(state, 106) == mask_from(value.view(np.int64) > 0)
    assert mask_of(state, 0) == mask_from(value > 0)
    assert mask_of(state, 2) == mask_from(((LANE * 0x1000) & 0xFFFF).astype(np.uint16)
                                          .view(np.int16) < 0)


def test_cmp_class_recognises_every_class():
    values = np.resize(np.array([np.nan, -np.inf, -2.0, -1e-40, -0.0, 0.0, 1e-40, 2.0, np.inf],
                                np.float32), 64)
    signalling = np.float32(0).view(np.uint32) | np.uint32(0x7F800001)
    values[9] = signalling.view(np.float32)
    results = {}
    for bit in range(10):
        state = run_snippet("v_cmp_class_f32_e64 s[0:1], v0, s2", vgpr={0: values},
                            sgpr={2: 1 << bit})
        results[bit] = mask_of(state, 0)
    assert results[0] == 1 << 9                                    # signalling NaN
    assert results[1] == mask_from([i % 9 == 0 and i != 9 for i in range(64)])
    for bit, position in zip(range(2, 10), range(1, 9)):
        expected = [i % 9 == position and i != 9 for i in range(64)]
        assert results[bit] == mask_from(expected), bit


def test_readlane_writelane_readfirstlane():
    state = run_snippet("v_readlane_b32 s0, v0, 37\nv_readfirstlane_b32 s1, v0\n"
                        "v_writelane_b32 v1, s2, 5\nv_readlane_b32 s3, v0, s4",
                        vgpr={0: LANE * 3, 1: 0}, sgpr={2: 99, 4: 64 + 7},
                        exec_mask=0xFFFF0000_00000000)
    assert int(state.sgpr[0, 0]) == 111
    assert int(state.sgpr[1, 0]) == 48 * 3         # lowest active lane
    np.testing.assert_array_equal(state.vgpr[1, 0], np.where(LANE == 5, 99, 0))  # EXEC ignored
    assert int(state.sgpr[3, 0]) == 21             # lane select uses the low 6 bits


def test_dpp_quad_perm_row_shift_and_masks():
    state = run_snippet("v_mov_b32_dpp v1, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\n"
                        "v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf\n"
                        "v_mov_b32_dpp v3, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0\n"
                        "v_add_u32_dpp v4, v0, v0 row_ror:4 row_mask:0x5 bank_mask:0xf\n"
                        "v_mov_b32_dpp v5, v0 row_bcast:15 row_mask:0xa bank_mask:0xf",
                        vgpr={0: LANE + 100, 1: 7, 2: 7, 3: 7, 4: 7, 5: 7})
    v = state.vgpr[:, 0]
    np.testing.assert_array_equal(v[1], (LANE & 0xFFFFFFFC) + 3 - (LANE & 3) + 100)
    first_in_row = LANE % 16 == 0
    np.testing.assert_array_equal(v[2], np.where(first_in_row, 7, LANE - 1 + 100))
    np.testing.assert_array_equal(v[3], np.where(first_in_row, 0, LANE - 1 + 100))
    rotated = (LANE & 0xFFFFFFF0) + ((LANE + 12) & 15) + 100
    row_on = np.isin(LANE // 16, [0, 2])
    np.testing.assert_array_equal(v[4], np.where(row_on, rotated + LANE + 100, 7))
    bcast = np.where(np.isin(LANE // 16, [1, 3]), (LANE // 16) * 16 - 1 + 100, 7)
    np.testing.assert_array_equal(v[5], bcast)


def test_sdwa_selects_and_destination_modes():
    state = run_snippet(
        "v_mov_b32_sdwa v1, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1\n"
        "v_add_u32_sdwa v2, sext(v0), v3 dst_sel:DWORD dst_unused:UNUSED_PAD "
        "src0_sel:BYTE_1 src1_sel:WORD_1\n"
        "v_mov_b32_sdwa v4, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0\n"
        "v_mov_b32_sdwa v5, v0 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_1\n"
        "v_add_f16_sdwa v6, v7, v7 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 "
        "src1_sel:WORD_0",
        vgpr={0: 0x1234_F08A, 3: 0x0005_0000, 4: 0xAAAA_BBBB, 7: 0x4000_3C00})
    v = state.vgpr[:, 0]
    assert int(v[1][0]) == 0xF0
    assert int(v[2][0]) == (0xFFFFFFF0 + 5) & 0xFFFFFFFF
    assert int(v[4][0]) == 0xF08A_BBBB
    assert int(v[5][0]) == 0xFFFF_FFF0
    assert int(v[6][0]) == 0x4200 << 16               # 2.0 + 1.0 = 3.0 in the high half



def test_sdwa_sources_may_be_sgprs_and_constants_on_gfx9():
    """GFX9 SDWA's S0/S1 bits make src0/src1 an SGPR or a constant (src1
    had been read as the VGPR of the same number)."""
    state = run_snippet(
        "v_add_u32_sdwa v3, v1, s2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 "
        "src1_sel:DWORD\n"
        "v_sub_u32_sdwa v4, s2, v1 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:DWORD "
        "src1_sel:BYTE_1\n"
        "v_or_b32_sdwa v5, v1, 64 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 "
        "src1_sel:DWORD",
        vgpr={1: LANE * 0x0101 + 0x300, 2: 0x5000}, sgpr={2: 0x7007})
    v = state.vgpr[:, 0]
    np.testing.assert_array_equal(v[3], (LANE & 0xFF) + 0x7007)
    byte_1 = ((LANE * 0x0101 + 0x300) >> 8) & 0xFF
    np.testing.assert_array_equal(v[4], (0x7007 - byte_1) & 0xFFFF)
    np.testing.assert_array_equal(v[5], byte_1 | 64)

def test_dpp_mirrors_and_wave_shifts():
    state = run_snippet("v_mov_b32_dpp v1, v0 row_mirror row_mask:0xf bank_mask:0xf\n"
                        "v_mov_b32_dpp v2, v0 row_half_mirror row_mask:0xf bank_mask:0xf\n"
                        "v_mov_b32_dpp v3, v0 wave_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0\n"
                        "v_mov_b32_dpp v4, v0 wave_rol:1 row_mask:0xf bank_mask:0xf\n"
                        "v_mov_b32_dpp v5, v0 row_bcast:31 row_mask:0xc bank_mask:0xf\n"
                        "v_mov_b32_dpp v6, v0 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0x1",
                        vgpr={0: LANE + 1, 5: 0, 6: 0})
    v = state.vgpr[:, 0]
    np.testing.assert_array_equal(v[1], (LANE & 0xFFFFFFF0) + 15 - (LANE & 15) + 1)
    np.testing.assert_array_equal(v[2], (LANE & 0xFFFFFFF8) + 7 - (LANE & 7) + 1)
    np.testing.assert_array_equal(v[3], np.where(LANE == 0, 0, LANE))        # lane i-1 (+1)
    np.testing.assert_array_equal(v[4], (LANE + 1) % 64 + 1)
    np.testing.assert_array_equal(v[5], np.where(LANE >= 32, 32, 0))
    bank0 = (LANE & 15) < 4
    np.testing.assert_array_equal(v[6], np.where(bank0, (LANE & 0xFFFFFFFC) + 1, 0))


def test_dpp_source_lane_disabled_by_exec():
    state = run_snippet("v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
                        "v_mov_b32_dpp v2, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf "
                        "bound_ctrl:0", vgpr={0: LANE + 1, 1: 99, 2: 99},
                        exec_mask=0x5555555555555555)
    even = LANE % 2 == 0
    # even lanes read their odd neighbour, which EXEC disables
    np.testing.assert_array_equal(state.vgpr[1, 0], 99)
    np.testing.assert_array_equal(state.vgpr[2, 0], np.where(even, 0, 99))

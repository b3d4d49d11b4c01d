"""Vector ALU semantics against independently computed values: NumPy's IEEE
arithmetic for the f32/f64 ops (denormals enabled unless a test is about
flushing), hand-worked values for integer edge cases, carries and shifts."""

import numpy as np
import pytest

from .kernel_util import F32_DIVISION, f32_bits, f64_parts, run_snippet

LANE = np.arange(64, dtype=np.uint32)
DENORMS_ON = 0xF0          # MODE: f32 and f64/f16 denormals kept
TINY = np.float32(1e-40)   # an f32 denormal

SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, 1.5, -2.75, np.inf, -np.inf, np.nan, 3.4e38,
                     -3.4e38, 1e-40, -1e-40, 1.17549435e-38, 7.0, 1e-7], dtype=np.float32)
A = np.resize(SPECIALS, 64)
B = np.resize(np.roll(SPECIALS, 5)[::-1], 64)


def vf32(state, reg):
    return state.vgpr[reg, 0].view(np.float32)


def same_floats(actual, expected):
    actual, expected = np.asarray(actual), np.asarray(expected, dtype=actual.dtype)
    both_nan = np.isnan(actual) & np.isnan(expected)
    return bool(np.all(both_nan | (actual.view(f"u{actual.itemsize}") ==
                                   expected.view(f"u{expected.itemsize}"))))


@pytest.mark.parametrize("op, reference", [
    ("v_add_f32", np.add), ("v_sub_f32", np.subtract), ("v_subrev_f32", lambda a, b: b - a),
    ("v_mul_f32", np.multiply), ("v_min_f32", np.fmin), ("v_max_f32", np.fmax)])
def test_f32_binary_ops_match_ieee(op, reference):
    state = run_snippet(f"{op} v2, v0, v1", vgpr={0: A, 1: B}, float_mode=DENORMS_ON)
    with np.errstate(all="ignore"):
        assert same_floats(vf32(state, 2), reference(A, B))


def test_f32_denormals_flush_by_default():
    state = run_snippet("v_add_f32 v2, v0, v1\nv_mul_f32 v3, v1, v1",
                        vgpr={0: np.full(64, TINY), 1: np.full(64, -1e-20, np.float32)})
    assert same_floats(vf32(state, 2), np.full(64, -1e-20, np.float32))   # denormal input is 0
    assert same_floats(vf32(state, 3), np.zeros(64, np.float32))          # 1e-40 result flushed


def test_vop3_modifiers_neg_abs_clamp_omod():
    a = np.linspace(-2, 2, 64, dtype=np.float32)
    state = run_snippet("v_add_f32_e64 v2, -v0, |v1|\nv_mul_f32_e64 v3, v0, v1 clamp\n"
                        "v_add_f32_e64 v4, v0, 1.0 mul:2\nv_max_f32_e64 v5, v0, v0 clamp",
                        vgpr={0: a, 1: -a}, float_mode=DENORMS_ON)
    assert same_floats(vf32(state, 2), -a + np.abs(a))
    assert same_floats(vf32(state, 3), np.clip(a * -a, 0, 1))
    assert same_floats(vf32(state, 4), (a + 1) * 2)
    assert same_floats(vf32(state, 5), np.clip(a, 0, 1))


def test_clamp_turns_nan_into_zero():
    state = run_snippet("v_add_f32_e64 v2, v0, v1 clamp",
                        vgpr={0: np.full(64, np.nan, np.float32), 1: np.ones(64, np.float32)})
    assert not vf32(state, 2).any()


def test_literal_and_inline_constants_follow_the_operand_type():
    state = run_snippet("v_add_f32 v2, 0x40400000, v0\nv_add_f64 v[4:5], v[0:1], 1.0\n"
                        "v_add_f16 v6, 0.5, v7\nv_add_u32 v8, -16, v9\n"
                        "v_cvt_f32_f64 v10, 0x40080000",
                        vgpr={0: 0, 1: 0, 7: 0x3C00, 9: 20})
    assert same_floats(vf32(state, 2), np.full(64, 3.0, np.float32))
    f64 = (state.vgpr[4, 0].astype(np.uint64) | (state.vgpr[5, 0].astype(np.uint64) << 32))
    assert (f64.view(np.float64) == 1.0).all()
    assert (state.vgpr[6, 0] == np.float16(1.5).view(np.uint16)).all()
    assert (state.vgpr[8, 0] == 4).all()
    assert (vf32(state, 10) == 3.0).all()     # an f64 literal supplies the high dword


def test_carry_chain_64_bit_add_and_vop3b_carry_out():
    lo = np.full(64, 0xFFFFFFFF, np.uint32)
    lo[::2] = 5
    state = run_snippet("v_add_co_u32 v2, vcc, v0, 1\nv_addc_co_u32 v3, vcc, v1, 0, vcc\n"
                        "v_sub_co_u32_e64 v4, s[6:7], v0, v5\n"
                        "v_mad_u64_u32 v[6:7], s[8:9], v0, v0, v[8:9]",
                        vgpr={0: lo, 1: 7, 5: 6, 8: 0xFFFFFFFF, 9: 0xFFFFFFFF})
    carry = lo == 0xFFFFFFFF
    np.testing.assert_array_equal(state.vgpr[2, 0], lo + np.uint32(1))
    np.testing.assert_array_equal(state.vgpr[3, 0], np.where(carry, 8, 7))
    vcc = int(state.sgpr[107, 0]) << 32 | int(state.sgpr[106, 0])
    assert vcc == 0          # the second add produced no carry
    borrow = int(state.sgpr[7, 0]) << 32 | int(state.sgpr[6, 0])
    assert borrow == sum(1 << i for i in range(64) if lo[i] < 6)
    wide = lo.astype(object) * lo.astype(object) + (2 ** 64 - 1)
    low = np.array([w & 0xFFFFFFFF for w in wide], np.uint32)
    high = np.array([(w >> 32) & 0xFFFFFFFF for w in wide], np.uint32)
    np.testing.assert_array_equal(state.vgpr[6, 0], low)
    np.testing.assert_array_equal(state.vgpr[7, 0], high)
    mad_carry = int(state.sgpr[9, 0]) << 32 | int(state.sgpr[8, 0])
    assert mad_carry == sum(1 << i for i in range(64) if wide[i] >= 2 ** 64)


def test_integer_ops_edge_cases():
    x = (LANE * np.uint32(0x9E3779B9)) ^ np.uint32(0x80000001)
    s = LANE  # shift amounts 0..63
    state = run_snippet(
        "v_lshlrev_b32 v2, v1, v0\nv_lshrrev_b32 v3, v1, v0\nv_ashrrev_i32 v4, v1, v0\n"
        "v_mul_hi_u32 v5, v0, v0\nv_mul_lo_u32 v6, v0, v1\nv_mul_i32_i24 v7, v0, v1\n"
        "v_mul_hi_i32 v8, v0, v1\nv_bcnt_u32_b32 v9, v0, 3\nv_ffbh_u32 v10, v1\n"
        "v_ffbl_b32 v11, v1\nv_bfe_u32 v12, v0, v1, 5\nv_bfe_i32 v13, v0, 4, v1\n",
        vgpr={0: x, 1: s})
    v = state.vgpr[:, 0]
    sh = s & 31
    np.testing.assert_array_equal(v[2], x << sh)
    np.testing.assert_array_equal(v[3], x >> sh)
    np.testing.assert_array_equal(v[4], (x.view(np.int32) >> sh.astype(np.int32)).view(np.uint32))
    np.testing.assert_array_equal(v[5], ((x.astype(np.uint64) ** 2) >> 32).astype(np.uint32))
    np.testing.assert_array_equal(v[6], x * s)
    i24 = ((x & 0xFFFFFF).astype(np.int64) ^ 0x800000) - 0x800000
    np.testing.assert_array_equal(v[7], (i24 * s.astype(np.int64)).astype(np.uint32))
    np.testing.assert_array_equal(v[8], ((x.view(np.int32).astype(np.int64) * s) >> 32)
                                  .astype(np.uint32))
    np.testing.assert_array_equal(v[9], [bin(int(w)).count("1") + 3 for w in x])
    np.testing.assert_array_equal(v[10], [32 - int(w).bit_length() if w else 0xFFFFFFFF
                                          for w in s])
    np.testing.assert_array_equal(v[11], [(int(w) & -int(w)).bit_length() - 1 if w
                                          else 0xFFFFFFFF for w in s])
    np.testing.assert_array_equal(v[12], (x >> sh) & 31)
    width = s & 31
    shifted = (x.view(np.int32) >> 4).view(np.uint32)           # arithmetic: S0.i >> 4
    field = shifted & ((np.uint64(1) << width.astype(np.uint64)) - 1).astype(np.uint32)
    signed = np.where(width == 0, 0, ((field.astype(np.int64) ^ (1 << (width.astype(np.int64) - 1)))
                                      - (1 << (width.astype(np.int64) - 1))))
    np.testing.assert_array_equal(v[13], signed.astype(np.int64).astype(np.uint32))


def test_bit_packing_ops():
    state = run_snippet("v_alignbit_b32 v3, v0, v1, v2\nv_alignbyte_b32 v4, v0, v1, v2\n"
                        "v_perm_b32 v5, v0, v1, s0\nv_bfi_b32 v6, s1, v0, v1\n"
                        "v_lshlrev_b64 v[8:9], v2, v[0:1]\nv_sad_u8 v10, v0, v1, 1\n"
                        "v_lerp_u8 v11, v0, v1, 1\nv_cndmask_b32 v12, v0, v1, vcc",
                        vgpr={0: 0x11223344, 1: 0x8899AABB, 2: LANE},
                        sgpr={106: 0x0000FFFF, 107: 0, 0: 0x0C050A00, 1: 0xFF00FF00})
    v = state.vgpr[:, 0]
    joined = (0x11223344 << 32) | 0x8899AABB
    np.testing.assert_array_equal(v[3], [(joined >> (i & 31)) & 0xFFFFFFFF for i in range(64)])
    np.testing.assert_array_equal(v[4], [(joined >> (8 * (i & 3))) & 0xFFFFFFFF
                                         for i in range(64)])
    # selectors: byte0 -> b.byte0 (0xBB), byte1 -> sign of b.byte3? 0x0a = sign of byte 5
    # (a.byte1 = 0x33 -> 0x00), 0x05 = a.byte1 (0x33), 0x0c = 0x00
    assert int(v[5][0]) == 0x0033_00BB
    assert int(v[6][0]) == 0x1199_33BB
    pair = (0x8899AABB << 32) | 0x11223344
    np.testing.assert_array_equal(v[8], [(pair << (i & 63)) & 0xFFFFFFFF for i in range(64)])
    np.testing.assert_array_equal(v[9], [((pair << (i & 63)) >> 32) & 0xFFFFFFFF
                                         for i in range(64)])
    assert int(v[10][0]) == 1 + (0x88 - 0x11) + (0x99 - 0x22) + (0xAA - 0x33) + (0xBB - 0x44)
    # the rounding bit of byte i is bit 8*i of src2: only byte 0 rounds up here
    assert int(v[11][0]) == sum(((a + b + (i == 0)) >> 1) << (8 * i) for i, (a, b) in
                                enumerate([(0x44, 0xBB), (0x33, 0xAA), (0x22, 0x99),
                                           (0x11, 0x88)]))
    np.testing.assert_array_equal(v[12], np.where(LANE < 16, 0x8899AABB, 0x11223344))


def test_mbcnt_counts_lanes_below():
    state = run_snippet("v_mbcnt_lo_u32_b32 v1, -1, 0\nv_mbcnt_hi_u32_b32 v1, -1, v1\n"
                        "v_mbcnt_lo_u32_b32 v2, s0, 0", sgpr={0: 0xAAAAAAAA})
    np.testing.assert_array_equal(state.vgpr[1, 0], LANE)
    np.testing.assert_array_equal(state.vgpr[2, 0], [bin(0xAAAAAAAA & ((1 << min(i, 32)) - 1))
                                                     .count("1") for i in range(64)])


def test_min_max_med3():
    a = (LANE.astype(np.int32) - 32).view(np.uint32)
    state = run_snippet("v_med3_i32 v3, v0, v1, v2\nv_min3_u32 v4, v0, v1, v2\n"
                        "v_max3_i32 v5, v0, v1, v2\nv_med3_f32 v6, v7, v8, v9",
                        vgpr={0: a, 1: 5, 2: np.uint32(0xFFFFFFF6), 7: np.full(64, 2.0, np.float32),
                              8: np.full(64, np.nan, np.float32), 9: np.full(64, 1.0, np.float32)})
    s = a.view(np.int32)
    np.testing.assert_array_equal(state.vgpr[3, 0].view(np.int32),
                                  np.median(np.stack([s, np.full(64, 5), np.full(64, -10)]), 0))
    np.testing.assert_array_equal(state.vgpr[4, 0], np.minimum(np.minimum(a, 5), 0xFFFFFFF6))
    np.testing.assert_array_equal(state.vgpr[5, 0].view(np.int32), np.maximum(s, 5))
    assert (vf32(state, 6) == 1.0).all()        # with a NaN operand med3 returns min3


def test_conversions_round_and_saturate():
    values = np.resize(np.array([1.5, -1.5, 2.5, np.nan, 1e10, -1e10, -0.7, 0.49999997, 65504.0,
                                 70000.0], np.float32), 64)
    state = run_snippet("v_cvt_i32_f32 v1, v0\nv_cvt_u32_f32 v2, v0\nv_cvt_rpi_i32_f32 v3, v0\n"
                        "v_cvt_flr_i32_f32 v4, v0\nv_cvt_f16_f32 v5, v0\nv_cvt_f32_f16 v6, v5\n"
                        "v_cvt_f32_i32 v7, v1\nv_cvt_f64_f32 v[8:9], v0\nv_cvt_f32_ubyte2 v10, v11\n"
                        "v_rndne_f32 v12, v0\nv_cvt_pkrtz_f16_f32 v13, v0, v0",
                        vgpr={0: values, 11: 0x00AB0000}, float_mode=DENORMS_ON)
    v = state.vgpr[:, 0]
    with np.errstate(all="ignore"):
        f = values.astype(np.float64)
        trunc = np.where(np.isnan(f), 0, np.clip(np.trunc(f), -2 ** 31, 2 ** 31 - 1))
        np.testing.assert_array_equal(v[1].view(np.int32), trunc)
        np.testing.assert_array_equal(v[2], np.where(np.isnan(f), 0, np.clip(np.trunc(f), 0,
                                                                             2 ** 32 - 1)))
        np.testing.assert_array_equal(v[3].view(np.int32), np.where(
            np.isnan(f), 0, np.clip(np.floor(f + 0.5), -2 ** 31, 2 ** 31 - 1)))
        np.testing.assert_array_equal(v[4].view(np.int32), np.where(
            np.isnan(f), 0, np.clip(np.floor(f), -2 ** 31, 2 ** 31 - 1)))
        half = values.astype(np.float16)
        assert same_floats((v[5] & 0xFFFF).astype(np.uint16).view(np.float16), half)
        assert same_floats(v[6].view(np.float32), half.astype(np.float32))
        assert same_floats(v[7].view(np.float32), trunc.astype(np.int32).astype(np.float32))
    doubles = (v[8].astype(np.uint64) | (v[9].astype(np.uint64) << 32)).view(np.float64)
    assert same_floats(doubles, values.astype(np.float64))
    assert (v[10].view(np.float32) == 171.0).all()
    assert same_floats(v[12].view(np.float32), np.rint(values))
    assert int(v[13][8]) & 0xFFFF == 0x7BFF       # 65504 stays, RTZ never rounds up to Inf
    assert int(v[13][9]) & 0xFFFF == 0x7BFF       # 70000 -> max half under round-toward-zero


def test_transcendentals_and_special_inputs():
    x = np.resize(np.array([0.0, -0.0, 1.0, 4.0, -1.0, np.inf, 0.25, 3.0, 8.0, 0.5],
                           np.float32), 64)
    state = run_snippet("v_rcp_f32 v1, v0\nv_sqrt_f32 v2, v0\nv_rsq_f32 v3, v0\n"
                        "v_exp_f32 v4, v0\nv_log_f32 v5, v0\nv_sin_f32 v6, v0\nv_cos_f32 v7, v0\n"
                        "v_fract_f32 v8, v9\nv_frexp_mant_f32 v10, v0\nv_frexp_exp_i32_f32 v11, v0\n"
                        "v_ldexp_f32 v12, v0, 3", vgpr={0: x, 9: np.full(64, -0.25, np.float32)},
                        float_mode=DENORMS_ON)
    with np.errstate(all="ignore"):
        xd = x.astype(np.float64)
        assert same_floats(vf32(state, 1), (1 / xd).astype(np.float32))
        assert same_floats(vf32(state, 2), np.sqrt(xd).astype(np.float32))
        assert same_floats(vf32(state, 3), (1 / np.sqrt(xd)).astype(np.float32))
        assert same_floats(vf32(state, 4), np.exp2(xd).astype(np.float32))
        assert same_floats(vf32(state, 5), np.log2(xd).astype(np.float32))
    np.testing.assert_allclose(vf32(state, 6)[6], 1.0)            # sin(0.25 revolutions)
    np.testing.assert_allclose(vf32(state, 7)[9], -1.0)           # cos(half a revolution)
    assert (vf32(state, 8) == 0.75).all()
    assert vf32(state, 10)[3] == 0.5 and state.vgpr[11, 0][3] == 3   # 4 = 0.5 * 2^3
    assert vf32(state, 12)[2] == 8.0


def test_f64_fma_is_fused_and_div_fixup_special_cases():
    a = np.full(64, 1 + 2.0 ** -30)
    c = np.full(64, -(1 + 2.0 ** -29))
    lo_a, hi_a = f64_parts(a)
    lo_c, hi_c = f64_parts(c)
    num = np.resize(np.array([1.0, 0.0, np.inf, 5.0, -3.0, np.nan]), 64)
    den = np.resize(np.array([0.0, 0.0, np.inf, np.inf, 0.0, 1.0]), 64)
    ln, hn = f64_parts(num)
    ld, hd = f64_parts(den)
    state = run_snippet("v_fma_f64 v[4:5], v[0:1], v[0:1], v[2:3]\n"
                        "v_div_fixup_f64 v[10:11], v[12:13], v[6:7], v[8:9]",
                        vgpr={0: lo_a, 1: hi_a, 2: lo_c, 3: hi_c, 6: ld, 7: hd, 8: ln, 9: hn,
                              12: 0, 13: 0}, float_mode=DENORMS_ON)
    fused = (state.vgpr[4, 0].astype(np.uint64) | (state.vgpr[5, 0].astype(np.uint64) << 32))
    assert (fused.view(np.float64) == 2.0 ** -60).all()      # unfused would give 0
    fixed = (state.vgpr[10, 0].astype(np.uint64) |
             (state.vgpr[11, 0].astype(np.uint64) << 32)).view(np.float64)
    assert fixed[0] == np.inf and np.isnan(fixed[1]) and np.isnan(fixed[2])
    assert fixed[3] == 0.0 and fixed[4] == -np.inf and np.isnan(fixed[5])


def test_inactive_lanes_keep_their_values():
    state = run_snippet("v_mov_b32 v1, 7\nv_add_f32 v2, 1.0, v2", vgpr={1: 3, 2: 0},
                        exec_mask=0x00000000FFFF0000)
    expected = np.where((LANE >= 16) & (LANE < 32), 7, 3)
    np.testing.assert_array_equal(state.vgpr[1, 0], expected)
    np.testing.assert_array_equal(state.vgpr[2, 0] != 0, (LANE >= 16) & (LANE < 32))


def test_division_sequence_scales_extreme_operands():
    """n / d by the compiler's sequence (div_scale, rcp, fma refinement,
    div_fmas, div_fixup), with operands that overflow/underflow naively."""
    n = np.resize(np.array([1.0, 3e38, 1e-30, 7.0, 1.0, 5.0, 0.0, 1e-38], np.float32), 64)
    d = np.resize(np.array([3.0, 1e-5, 3e37, 0.0, 1e38, 2.5e-38, 0.0, 3.0], np.float32), 64)
    state = run_snippet(F32_DIVISION, vgpr={0: n, 1: d}, float_mode=DENORMS_ON)
    with np.errstate(all="ignore"):
        expected = (n.astype(np.float64) / d).astype(np.float32)
    got = vf32(state, 7)
    finite = np.isfinite(expected) & (expected != 0)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=2e-7)
    assert same_floats(got[~finite], expected[~finite])


def _two_over_pi_bits(count):
    """The first ``count`` fraction bits of 2/pi, from pi by Machin's formula
    (integer arithmetic, independent of the executor's table)."""
    scale = 1 << (count + 64)

    def arctan_inverse(x):
        total, term, n, sign = 0, scale // x, 1, 1
        while term:
            total += sign * (term // n)
            term //= x * x
            n += 2
            sign = -sign
        return total

    pi_scaled = 4 * (4 * arctan_inverse(5) - arctan_inverse(239))
    return ((2 * scale * scale) // pi_scaled) >> 64


def test_trig_preop_returns_successive_53_bit_pieces_of_two_over_pi():
    bits = _two_over_pi_bits(159)
    lo, hi = f64_parts(np.ones(64))
    state = run_snippet("v_trig_preop_f64 v[2:3], v[0:1], 0\nv_trig_preop_f64 v[4:5], v[0:1], 1\n"
                        "v_trig_preop_f64 v[6:7], v[0:1], 2", vgpr={0: lo, 1: hi})
    for segment, reg in enumerate((2, 4, 6)):
        value = (state.vgpr[reg, 0].astype(np.uint64) |
                 (state.vgpr[reg + 1, 0].astype(np.uint64) << 32)).view(np.float64)[0]
        chunk = (bits >> (159 - 53 * (segment + 1))) & ((1 << 53) - 1)
        assert value == chunk * 2.0 ** (-53 * (segment + 1)), segment


def test_cube_map_ops_pick_the_major_axis():
    x = np.resize(np.array([2.0, 0.5, -0.25, 0.1], np.float32), 64)
    y = np.resize(np.array([0.5, -3.0, 0.25, 0.2], np.float32), 64)
    z = np.resize(np.array([1.0, 0.5, -1.0, -0.3], np.float32), 64)
    state = run_snippet("v_cubeid_f32 v3, v0, v1, v2\nv_cubesc_f32 v4, v0, v1, v2\n"
                        "v_cubetc_f32 v5, v0, v1, v2\nv_cubema_f32 v6, v0, v1, v2",
                        vgpr={0: x, 1: y, 2: z})
    # +x major: face 0, sc = -z, tc = -y ; -y major: face 3, sc = x, tc = -z ;
    # -z major: face 5, sc = -x, tc = -y
    np.testing.assert_array_equal(vf32(state, 3)[:4], [0, 3, 5, 5])
    np.testing.assert_array_equal(vf32(state, 4)[:4], np.float32([-1.0, 0.5, 0.25, -0.1]))
    np.testing.assert_array_equal(vf32(state, 5)[:4], np.float32([-0.5, -0.5, -0.25, -0.2]))
    np.testing.assert_array_equal(vf32(state, 6)[:4], np.float32([4.0, -6.0, -2.0, -0.6]))


def test_clamp_keeps_nan_without_dx10_clamp():
    state = run_snippet("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 1), 0\n"
                        "v_add_f32_e64 v2, v0, v1 clamp",
                        vgpr={0: np.full(64, np.nan, np.float32), 1: np.ones(64, np.float32)})
    assert np.isnan(vf32(state, 2)).all()


def test_ieee_mode_min_max_with_signalling_nan():
    snan = np.full(64, 0x7F800001, np.uint32)
    qnan = np.full(64, 0x7FC00000, np.uint32)
    source = "v_min_f32 v2, v0, v1\nv_max_f32 v3, v4, v1\nv_max3_f32 v5, v0, v1, v1"
    inputs = {0: snan, 1: np.full(64, 2.0, np.float32), 4: qnan}
    ieee = run_snippet(source, vgpr=inputs)
    assert np.isnan(vf32(ieee, 2)).all() and np.isnan(vf32(ieee, 5)).all()
    assert (ieee.vgpr[2, 0] & 0x00400000).all()            # quieted
    assert (vf32(ieee, 3) == 2.0).all()                    # a quiet NaN loses
    legacy = run_snippet("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 9, 1), 0\n" + source,
                         vgpr=inputs)
    assert (vf32(legacy, 2) == 2.0).all() and (vf32(legacy, 5) == 2.0).all()

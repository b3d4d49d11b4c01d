"""Instruction forms that real compiler output relies on, checked against the
ISA manual's definition rather than against the executor's own output.

v_cndmask_b32 moves 32-bit values bit-exactly, but in its VOP3 form the
hardware still honours the abs/neg source modifiers as on an f32 (abs clears
bit 31, neg flips it), and LLVM folds fneg/fabs into its sources (clang-19's
OCML sincos selects ``v_cndmask_b32_e64 v3, -v3, v4, vcc`` for cos).
"""

import math

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


def _lanes(mask):
    return ((np.uint64(mask) >> np.arange(64, dtype=np.uint64)) & np.uint64(1)).astype(bool)


@pytest.mark.parametrize("mcpu, spelling", [
    ("gfx803", {"add": "v_add_u32", "sub": "v_sub_u32", "subrev": "v_subrev_u32",
                "addc": "v_addc_u32", "subb": "v_subb_u32"}),
    ("gfx900", {"add": "v_add_co_u32", "sub": "v_sub_co_u32", "subrev": "v_subrev_co_u32",
                "addc": "v_addc_co_u32", "subb": "v_subb_co_u32"})])
def test_vop3b_carry_ops_clamp_saturates_and_still_reports_carry(mcpu, spelling):
    """GFX8+ integer clamp on the carry-out forms: the unsigned result saturates
    to [0, 0xFFFFFFFF] instead of wrapping (OCML's sub_sat/add_sat use it);
    without clamp it wraps; the carry/borrow output is the unsaturated one."""
    a = np.resize(np.array([5, 0xFFFFFFF0, 0, 0x80000000, 7, 0xFFFFFFFF], np.uint32), 64)
    b = np.resize(np.array([9, 0x20, 0, 0x80000000, 7, 1], np.uint32), 64)
    carry_in = 0xAAAA_AAAA_AAAA_AAAA
    s = spelling
    state = run_snippet(f"{s['add']}_e64 v2, s[4:5], v0, v1 clamp\n"
                        f"{s['sub']}_e64 v3, s[6:7], v0, v1 clamp\n"
                        f"{s['subrev']}_e64 v4, s[8:9], v0, v1 clamp\n"
                        f"{s['addc']}_e64 v5, s[10:11], v0, v1, s[0:1] clamp\n"
                        f"{s['subb']}_e64 v6, s[12:13], v0, v1, s[0:1] clamp\n"
                        f"{s['sub']}_e64 v7, s[14:15], v0, v1",
                        vgpr={0: a, 1: b}, sgpr={0: carry_in & 0xFFFFFFFF, 1: carry_in >> 32},
                        mcpu=mcpu)
    x, y, c = a.astype(np.int64), b.astype(np.int64), _lanes(carry_in).astype(np.int64)
    exact = {2: x + y, 3: x - y, 4: y - x, 5: x + y + c, 6: x - y - c}
    for reg, value in exact.items():
        np.testing.assert_array_equal(state.vgpr[reg, 0], np.clip(value, 0, 0xFFFFFFFF), str(reg))
        flag = (value > 0xFFFFFFFF) | (value < 0)
        sdst = 4 + 2 * (reg - 2)
        lo, hi = state.sgpr[sdst, 0], state.sgpr[sdst + 1, 0]
        got_flag = _lanes(int(lo) | int(hi) << 32)
        np.testing.assert_array_equal(got_flag, flag, f"carry of v{reg}")
    np.testing.assert_array_equal(state.vgpr[7, 0], ((x - y) & 0xFFFFFFFF).astype(np.uint32))


def test_trig_preop_slides_the_window_by_the_biased_exponent_above_1077():
    """ISA manual V_TRIG_PREOP_F64: shift = segment * 53, plus (E - 1077) when the
    biased exponent field E of S0 exceeds 1077; result = 53 bits of 2/pi from
    bit ``shift`` times 2**(-53 - shift), times 2**128 more when E >= 1968.
    OCML's double sin/cos reduce huge arguments (|x| >= 2**55 or so) with it."""
    from .test_valu import _two_over_pi_bits
    exponents = np.array([0, 54, 55, 60, 500, 944, 945, 1000, -3], np.int64)
    x = np.resize(np.ldexp(1.0, exponents) * np.where(exponents % 2, -1.5, 1.0), 64)
    lo, hi = (x.view(np.uint64) & 0xFFFFFFFF).astype(np.uint32), (x.view(np.uint64) >> 32)
    state = run_snippet("v_trig_preop_f64 v[2:3], v[0:1], 0\nv_trig_preop_f64 v[4:5], v[0:1], 1\n"
                        "v_trig_preop_f64 v[6:7], v[0:1], 2",
                        vgpr={0: lo, 1: hi.astype(np.uint32)})
    bits = _two_over_pi_bits(1200)
    for segment, reg in enumerate((2, 4, 6)):
        got = (state.vgpr[reg, 0].astype(np.uint64) |
               (state.vgpr[reg + 1, 0].astype(np.uint64) << 32)).view(np.float64)
        for lane in range(len(exponents)):
            biased = int(x[lane].view(np.uint64) >> 52) & 0x7FF
            shift = segment * 53 + max(biased - 1077, 0)
            chunk = (bits >> (1200 - shift - 53)) & ((1 << 53) - 1)
            scale = -53 - shift + (128 if biased >= 1968 else 0)
            assert got[lane] == math.ldexp(chunk, scale), (segment, lane, biased)


def test_div_fixup_zero_numerator_gives_signed_zero_whatever_the_estimate():
    """ISA manual V_DIV_FIXUP_F32/F64 (S0 estimate, S1 denominator, S2 numerator):
    NaN operands first, then 0/0 and Inf/Inf give 0xFFC00000 (f64 0xFFF8...),
    x/0 and Inf/y a signed Inf, x/Inf and 0/y a signed zero, else the estimate
    with the quotient's sign.  v_div_scale returns NaN for a zero numerator, so
    the IEEE division sequence computes 0/y only through this rule."""
    nan = np.float32(np.nan)
    cases = [  # (estimate, denominator, numerator, expected bits)
        (nan, 6.5, 0.0, 0x00000000), (nan, 6.5, -0.0, 0x80000000),
        (nan, -6.5, 0.0, 0x80000000), (1.0, -np.inf, 0.0, 0x80000000),
        (5.0, np.inf, 3.0, 0x00000000), (5.0, 0.0, 0.0, 0xFFC00000),
        (5.0, np.inf, -np.inf, 0xFFC00000), (5.0, -0.0, 3.0, 0xFF800000),
        (5.0, 2.0, -np.inf, 0xFF800000), (0.75, -4.0, 3.0, f32_bits(-0.75))]
    table = np.array([c[:3] for c in cases], np.float32)
    rows = np.resize(np.arange(len(cases)), 64)
    state = run_snippet("v_div_fixup_f32 v3, v0, v1, v2\n"
                        "v_cvt_f64_f32 v[4:5], v0\nv_cvt_f64_f32 v[6:7], v1\n"
                        "v_cvt_f64_f32 v[8:9], v2\n"
                        "v_div_fixup_f64 v[10:11], v[4:5], v[6:7], v[8:9]",
                        vgpr={0: table[rows, 0], 1: table[rows, 1], 2: table[rows, 2]})
    expected = np.array([int(c[3]) for c in cases], np.uint32)[rows]
    np.testing.assert_array_equal(state.vgpr[3, 0], expected)
    f64 = state.vgpr[10, 0].astype(np.uint64) | (state.vgpr[11, 0].astype(np.uint64) << 32)
    want64 = np.where(expected == 0xFFC00000, np.uint64(0xFFF8000000000000),
                      np.asarray(expected.view(np.float32), np.float64).view(np.uint64))
    np.testing.assert_array_equal(f64, want64)


@pytest.mark.parametrize("mcpu", ["gfx803", "gfx900"])
def test_sdwa_clamp_saturates_integer_results(mcpu):
    """SDWA has the clamp bit as VOP3 does; on an integer op it saturates to the
    result type (clang-19 selects v_sub_u16_sdwa ... clamp for uchar sub_sat)."""
    a = np.resize(np.array([0x1234_00FF, 0x0000_0000, 0xFFFF_FF10, 0x8000_0005], np.uint32), 64)
    b = np.resize(np.array([0x0000_0001, 0x0000_0001, 0xABCD_EF20, 0x0000_0004], np.uint32), 64)
    state = run_snippet(
        "v_sub_u16_sdwa v2, v0, v1 clamp dst_sel:DWORD dst_unused:UNUSED_PAD "
        "src0_sel:BYTE_0 src1_sel:BYTE_0\n"
        "v_add_u16_sdwa v3, v0, v1 clamp dst_sel:DWORD dst_unused:UNUSED_PAD "
        "src0_sel:WORD_1 src1_sel:WORD_1\n"
        "v_sub_u16_sdwa v4, v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD "
        "src0_sel:BYTE_0 src1_sel:BYTE_0",
        vgpr={0: a, 1: b}, mcpu=mcpu)
    x8, y8 = (a & 0xFF).astype(np.int64), (b & 0xFF).astype(np.int64)
    x16, y16 = (a >> 16).astype(np.int64), (b >> 16).astype(np.int64)
    np.testing.assert_array_equal(state.vgpr[2, 0], np.clip(x8 - y8, 0, 0xFFFF))
    np.testing.assert_array_equal(state.vgpr[3, 0], np.clip(x16 + y16, 0, 0xFFFF))
    np.testing.assert_array_equal(state.vgpr[4, 0], (x8 - y8) & 0xFFFF)


def _f64_lanes(values):
    bits = np.resize(np.asarray(values, np.float64), 64).view(np.uint64)
    return (bits & 0xFFFFFFFF).astype(np.uint32), (bits >> 32).astype(np.uint32)


def _f64_result(state, reg):
    return (state.vgpr[reg, 0].astype(np.uint64) |
            (state.vgpr[reg + 1, 0].astype(np.uint64) << 32)).view(np.float64)


def test_fma_rounds_once():
    """V_FMA_F32/F64 are IEEE fusedMultiplyAdd: the exact a * b + c rounded once.
    Expected values are exact rationals rounded by Python (int / int division
    rounds correctly).  The cases are ties after a first rounding, so rounding
    twice gives the other neighbour, and clang-19's double sqrt step
    fma(-g, g, DBL_MAX) whose product alone overflows."""
    from fractions import Fraction
    root = math.sqrt(np.finfo(np.float64).max)
    r = np.random.default_rng(7)
    rows = [(1 + 2.0 ** -27, 1 + 2.0 ** -27, 2.0 ** -200),
            (1 + 2.0 ** -27, -(1 + 2.0 ** -27), -(2.0 ** -200)),
            (-root, root, float(np.finfo(np.float64).max)),
            (2.0 ** 1000, 2.0 ** 24, -float(np.finfo(np.float64).max)),
            (3.0, 1.0 / 3.0, -1.0)]
    rows += [tuple(r.uniform(-4, 4, 3) * 2.0 ** r.integers(-30, 30, 3)) for _ in range(59)]
    a, b, c = (np.array(col) for col in zip(*rows))
    (a_lo, a_hi), (b_lo, b_hi), (c_lo, c_hi) = _f64_lanes(a), _f64_lanes(b), _f64_lanes(c)
    state = run_snippet("v_fma_f64 v[6:7], v[0:1], v[2:3], v[4:5]",
                        vgpr={0: a_lo, 1: a_hi, 2: b_lo, 3: b_hi, 4: c_lo, 5: c_hi})
    want = np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in rows])
    np.testing.assert_array_equal(_f64_result(state, 6).view(np.uint64), want.view(np.uint64))

    # f32: (1 + 2**-12)**2 + 2**-90 lies just above the midpoint 1 + 2**-11 + 2**-24.
    x = np.resize(np.array([1 + 2.0 ** -12, 3.0], np.float32), 64)
    z = np.resize(np.array([2.0 ** -90, -2.0 ** -90], np.float32), 64)
    state = run_snippet("v_fma_f32 v3, v0, v0, v1", vgpr={0: x, 1: z})
    want32 = np.resize(np.array([1 + 2.0 ** -11 + 2.0 ** -23, 9.0], np.float32), 64)
    np.testing.assert_array_equal(state.vgpr[3, 0], want32.view(np.uint32))


def test_sdwa_and_dpp_cndmask_apply_neg_and_abs_to_bit_31():
    """The SDWA and DPP forms of v_cndmask_b32 carry the same float abs/neg
    source modifiers (LLVM 19 encodes them), applied to bit 31 of the raw value."""
    a = f32_bits(np.linspace(-3, 3, 64, dtype=np.float32))
    b = np.resize(np.array([0x12345678, 0x87654321, 0xFFFFFFFF, 0x80000000], np.uint32), 64)
    chosen = (np.arange(64) % 3) == 0
    select = sum(1 << int(i) for i in np.flatnonzero(chosen))
    state = run_snippet(
        "v_cndmask_b32_sdwa v2, -v0, |v1|, vcc dst_sel:DWORD dst_unused:UNUSED_PRESERVE "
        "src0_sel:DWORD src1_sel:DWORD\n"
        "v_cndmask_b32_dpp v3, |v0|, -v1, vcc quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
        vgpr={0: a, 1: b}, sgpr={106: select & 0xFFFFFFFF, 107: select >> 32})
    np.testing.assert_array_equal(state.vgpr[2, 0], np.where(chosen, b & ~SIGN, a ^ SIGN))
    np.testing.assert_array_equal(state.vgpr[3, 0], np.where(chosen, b ^ SIGN, a & ~SIGN))

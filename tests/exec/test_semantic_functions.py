"""Semantic functions called directly, for ops the decoder cannot reach on the
targets the other tests assemble for (GFX6/GFX7 variants) and for helpers."""

import numpy as np

from amdgpu_tools.exec import semantics  # noqa: F401
from amdgpu_tools.exec.core.registry import SEMANTICS
from amdgpu_tools.exec.core.state import (lanes_to_mask, lanes_to_mask64, mask64_to_lanes,
                                     mask_to_lanes)

F32 = np.float32


def call(op, *args):
    with np.errstate(all="ignore"):
        return SEMANTICS[op].fn(*args)


def test_legacy_min_max_return_the_second_operand_on_nan():
    a = np.array([np.nan, 1.0, 3.0], F32)
    b = np.array([2.0, np.nan, 1.0], F32)
    np.testing.assert_array_equal(call("v_min_legacy_f32", a, b), [2.0, np.nan, 1.0])
    np.testing.assert_array_equal(call("v_max_legacy_f32", a, b), [2.0, np.nan, 3.0])


def test_clamped_reciprocals_never_return_infinity():
    x = np.array([0.0, -0.0, 4.0], F32)
    np.testing.assert_array_equal(call("v_rcp_clamp_f32", x),
                                  [np.finfo(F32).max, -np.finfo(F32).max, 0.25])
    assert call("v_rsq_legacy_f32", np.array([0.0], F32))[0] == 0.0


def test_gfx7_64_bit_shifts_take_the_amount_second():
    value = np.array([0x8000_0000_0000_0001], np.uint64)
    assert call("v_lshl_b64", value, np.uint32(65))[0] == 2
    assert call("v_lshr_b64", value, np.uint32(63))[0] == 1
    assert call("v_ashr_i64", value.view(np.int64), np.uint32(62))[0] == -2


def test_mullit_and_mul_legacy_zero_rules():
    a = np.array([np.inf, 2.0, 2.0], F32)
    b = np.array([0.0, 3.0, -1.0], F32)
    c = np.array([1.0, 1.0, 1.0], F32)
    np.testing.assert_array_equal(call("v_mul_legacy_f32", a, b), [0.0, 6.0, -2.0])
    np.testing.assert_array_equal(call("v_mullit_f32", a, b, c), [0.0, 6.0, -np.finfo(F32).max])


def test_lane_mask_conversions_round_trip():
    rng = np.random.default_rng(0)
    lanes = rng.random((5, 64)) < 0.5
    lo, hi = lanes_to_mask(lanes)
    np.testing.assert_array_equal(mask_to_lanes(lo, hi), lanes)
    masks = lanes_to_mask64(lanes)
    assert int(masks[0]) == sum(1 << i for i in range(64) if lanes[0, i])
    np.testing.assert_array_equal(mask64_to_lanes(masks), lanes)


def test_qsad_sums_shifted_byte_differences():
    reference = np.uint64(0x0807060504030201)
    pattern = np.uint32(0x04030201)
    result = int(call("v_qsad_pk_u16_u8", reference, pattern, np.uint64(0x0001000100010001)))
    assert [result >> (16 * i) & 0xFFFF for i in range(4)] == [1, 5, 9, 13]


def test_frexp_from_the_bits_is_numpys_frexp():
    """v_frexp_mant/exp read the split from the bits (compiled code has no
    np.frexp): every f16, and f32/f64 bit patterns at random plus zeros,
    denormals and extremes, split as np.frexp splits them; Inf and NaN keep
    themselves as the mantissa and give exponent 0."""
    rng = np.random.default_rng(9)
    cases = {"f16": (np.float16, np.arange(1 << 16, dtype=np.uint16)),
             "f32": (np.float32, rng.integers(0, 1 << 32, 100000, dtype=np.uint64)
                     .astype(np.uint32)),
             "f64": (np.float64, rng.integers(0, 1 << 64, 100000, dtype=np.uint64))}
    for type_, (ftype, bits) in cases.items():
        width = 8 * bits.dtype.itemsize
        specials = [0, 1, 3, (1 << (width - 1)) | 1, (1 << (width - 1)) - 1, 1 << (width - 1)]
        bits = np.concatenate([bits, np.array(specials, bits.dtype)])
        x = bits.view(ftype)
        suffix = {"f16": "i16_f16", "f32": "i32_f32", "f64": "i32_f64"}[type_]
        mantissa, exponent = (call(f"v_frexp_mant_{type_}", x),
                              call(f"v_frexp_exp_{suffix}", x))
        finite = np.isfinite(x)
        expected_mantissa, expected_exponent = np.frexp(x[finite])
        np.testing.assert_array_equal(mantissa[finite].view(bits.dtype),
                                      expected_mantissa.astype(ftype).view(bits.dtype))
        np.testing.assert_array_equal(exponent[finite], expected_exponent)
        np.testing.assert_array_equal(mantissa[~finite].view(bits.dtype), bits[~finite])
        assert not exponent[~finite].any()


def test_bit_searches_of_vector_ops():
    """v_ffbh_i32 counts the leading bits equal to the sign (-1 for 0 and
    all ones), v_ffbl_b32 finds the lowest set bit (-1 for 0), as the SALU
    searches they share."""
    signed = np.array([0, -1, 1, 0x40000000, -2, -0x80000000, -0x10000000, 0x7FFFFFFF],
                      np.int32)
    np.testing.assert_array_equal(call("v_ffbh_i32", signed),
                                  [0xFFFFFFFF, 0xFFFFFFFF, 31, 1, 31, 1, 4, 1])
    bits = np.array([0, 1, 0x80000000, 0x00F00000, 6], np.uint32)
    np.testing.assert_array_equal(call("v_ffbl_b32", bits), [0xFFFFFFFF, 0, 31, 20, 1])


def test_div_fixup_quiets_nans_and_settles_underflow_and_overflow():
    """v_div_fixup: a NaN operand comes back quiet, numerator first (the
    manual's cvtToQuietNAN); a numerator exponent field more than 150 (f32)
    or 1075 (f64) below the denominator's gives a signed zero whatever the
    estimate; a NaN estimate past the special cases (the iteration's
    Inf - Inf on overflow) gives a signed Inf; else the estimate with the
    quotient's sign."""
    f32 = np.float32
    signalling = np.array([0x7FA00001, 0xFFA00000], np.uint32).view(f32)
    got = call("v_div_fixup_f32", np.ones(2, f32), signalling, np.full(2, f32(2)))
    assert [hex(x) for x in got.view(np.uint32)] == ["0x7fe00001", "0xffe00000"]
    got = call("v_div_fixup_f32", np.ones(2, f32), signalling, signalling[::-1].copy())
    assert [hex(x) for x in got.view(np.uint32)] == ["0xffe00000", "0x7fe00001"]
    tiny = np.full(3, 2.0 ** -140, f32)                         # a denormal: exponent field 0
    denominators = np.array([2.0 ** 23, 2.0 ** 24, -2.0 ** 24], f32)    # fields 150, 151, 151
    got = call("v_div_fixup_f32", np.full(3, 5, f32), denominators, tiny)
    assert got.tolist() == [5.0, 0.0, 0.0] and np.signbit(got).tolist() == [False, False, True]
    got = call("v_div_fixup_f32", np.full(2, np.nan, f32), np.array([-1e-30, 1e-30], f32),
               np.full(2, 1e30, f32))
    assert got.tolist() == [-np.inf, np.inf]
    got = call("v_div_fixup_f64", np.array([np.nan, 7.0, 7.0]),
               np.array([1e-300, 2.0 ** 1000, -2.0 ** 990]),
               np.array([1e300, 2.0 ** -80, 2.0 ** -80]))     # fields 943 - 2023; 943 - 2013
    assert got.tolist() == [np.inf, 0.0, -7.0]

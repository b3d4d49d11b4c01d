"""Table-driven f16/f64/16-bit checks: each op runs over special values
(signed zeros, infinities, NaN, denormals, halfway cases) and is compared
with NumPy's IEEE result in the same precision."""

import numpy as np
import pytest

from .kernel_util import run_snippet

DENORMS_ON = 0xF0

F64_VALUES = np.resize(np.array([0.0, -0.0, 1.0, -1.5, 2.5, -2.5, 3.5, 1e300, -1e-310, np.inf,
                                 -np.inf, np.nan, 0.1, 7.75, -1e-5, 4.0]), 64)
F64_OTHER = np.resize(np.array([1.0, 2.0, -0.0, 0.5, np.inf, 3.0, -7.0, 1e10, 2.0, -1.0, 0.25,
                                1.0, 1e-300, -2.0, 5.0, np.nan]), 64)
F16_VALUES = np.resize(np.array([0.0, -0.0, 1.0, -1.5, 2.5, -2.5, 3.5, 65504, -6e-8, np.inf,
                                 -np.inf, np.nan, 0.1, 7.75, -1e-5, 4.0], np.float16), 64)
F16_OTHER = np.resize(np.array([1.0, 2.0, -0.0, 0.5, np.inf, 3.0, -7.0, 100, 2.0, -1.0, 0.25,
                                1.0, 6e-5, -2.0, 5.0, np.nan], np.float16), 64)


def split64(values):
    bits = np.asarray(values, np.float64).view(np.uint64)
    return (bits & 0xFFFFFFFF).astype(np.uint32), (bits >> 32).astype(np.uint32)


def join64(state, reg):
    return (state.vgpr[reg, 0].astype(np.uint64) |
            (state.vgpr[reg + 1, 0].astype(np.uint64) << 32)).view(np.float64)


def half(state, reg):
    return (state.vgpr[reg, 0] & 0xFFFF).astype(np.uint16).view(np.float16)


def assert_same(actual, expected):
    expected = np.asarray(expected, actual.dtype)
    nan = np.isnan(actual) & np.isnan(expected)
    bits = {2: np.uint16, 8: np.uint64}[actual.itemsize]
    mismatch = ~nan & (actual.view(bits) != expected.view(bits))
    assert not mismatch.any(), (np.flatnonzero(mismatch), actual[mismatch], expected[mismatch])


def fract(x):
    with np.errstate(all="ignore"):
        result = np.minimum(x - np.floor(x), np.nextafter(x.dtype.type(1), x.dtype.type(0)))
    return np.where(np.isinf(x), np.nan, result)


F64_BINARY = [("v_add_f64", np.add), ("v_mul_f64", np.multiply), ("v_min_f64", np.fmin),
              ("v_max_f64", np.fmax)]
F64_UNARY = [("v_floor_f64", np.floor), ("v_ceil_f64", np.ceil), ("v_trunc_f64", np.trunc),
             ("v_rndne_f64", np.rint), ("v_fract_f64", fract), ("v_sqrt_f64", np.sqrt),
             ("v_rcp_f64", lambda x: 1.0 / x)]


def test_f64_ops_match_numpy():
    lo_a, hi_a = split64(F64_VALUES)
    lo_b, hi_b = split64(F64_OTHER)
    lines, checks, reg = [], [], 4
    for op, reference in F64_BINARY:
        lines.append(f"{op} v[{reg}:{reg + 1}], v[0:1], v[2:3]")
        with np.errstate(all="ignore"):
            checks.append((reg, reference(F64_VALUES, F64_OTHER)))
        reg += 2
    for op, reference in F64_UNARY:
        lines.append(f"{op} v[{reg}:{reg + 1}], v[0:1]")
        with np.errstate(all="ignore"):
            checks.append((reg, reference(F64_VALUES)))
        reg += 2
    state = run_snippet("\n".join(lines), vgpr={0: lo_a, 1: hi_a, 2: lo_b, 3: hi_b},
                        float_mode=DENORMS_ON, vgprs=reg)
    for reg, expected in checks:
        assert_same(join64(state, reg), expected)


F16_BINARY = [("v_add_f16", np.add), ("v_sub_f16", np.subtract), ("v_mul_f16", np.multiply),
              ("v_min_f16", np.fmin), ("v_max_f16", np.fmax)]
F16_UNARY = [("v_floor_f16", np.floor), ("v_ceil_f16", np.ceil), ("v_trunc_f16", np.trunc),
             ("v_rndne_f16", np.rint), ("v_fract_f16", fract),
             ("v_sqrt_f16", lambda x: np.sqrt(x.astype(np.float64)).astype(np.float16)),
             ("v_cvt_f32_f16", None)]


def test_f16_ops_match_numpy():
    a = F16_VALUES.view(np.uint16).astype(np.uint32)
    b = F16_OTHER.view(np.uint16).astype(np.uint32)
    lines, checks = [], []
    for reg, (op, reference) in enumerate(F16_BINARY, start=2):
        lines.append(f"{op} v{reg}, v0, v1")
        with np.errstate(all="ignore"):
            checks.append((reg, reference(F16_VALUES, F16_OTHER)))
    for reg, (op, reference) in enumerate(F16_UNARY, start=2 + len(F16_BINARY)):
        lines.append(f"{op} v{reg}, v0")
        if reference is None:
            continue
        with np.errstate(all="ignore"):
            checks.append((reg, reference(F16_VALUES)))
    state = run_snippet("\n".join(lines), vgpr={0: a, 1: b}, vgprs=32)
    for reg, expected in checks:
        assert_same(half(state, reg), expected)
        assert not (state.vgpr[reg, 0] >> 16).any()
    last = 1 + len(F16_BINARY) + len(F16_UNARY)
    widened = state.vgpr[last, 0].view(np.float32)
    np.testing.assert_array_equal(np.isnan(widened), np.isnan(F16_VALUES))
    ok = ~np.isnan(widened)
    np.testing.assert_array_equal(widened[ok], F16_VALUES.astype(np.float32)[ok])


@pytest.mark.parametrize("op, kind, predicate", [
    ("v_cmp_lt_f64", "f64", np.less), ("v_cmp_nge_f64", "f64", lambda a, b: ~(a >= b)),
    ("v_cmp_o_f64", "f64", lambda a, b: ~np.isnan(a) & ~np.isnan(b)),
    ("v_cmp_eq_f16", "f16", np.equal), ("v_cmp_nlt_f16", "f16", lambda a, b: ~(a < b)),
    ("v_cmp_lg_f16", "f16", lambda a, b: (a < b) | (a > b))])
def test_float_compares_in_other_precisions(op, kind, predicate):
    if kind == "f64":
        lo_a, hi_a = split64(F64_VALUES)
        lo_b, hi_b = split64(F64_OTHER)
        state = run_snippet(f"{op}_e64 s[0:1], v[0:1], v[2:3]",
                            vgpr={0: lo_a, 1: hi_a, 2: lo_b, 3: hi_b})
        a, b = F64_VALUES, F64_OTHER
    else:
        state = run_snippet(f"{op}_e64 s[0:1], v0, v1",
                            vgpr={0: F16_VALUES.view(np.uint16), 1: F16_OTHER.view(np.uint16)})
        a, b = F16_VALUES, F16_OTHER
    with np.errstate(invalid="ignore"):
        expected = predicate(a, b)
    got = int(state.sgpr[1, 0]) << 32 | int(state.sgpr[0, 0])
    assert got == sum(1 << i for i in range(64) if expected[i])


def test_16_bit_integer_ops_wrap():
    a = (np.arange(64, dtype=np.uint32) * 1031) & 0xFFFF
    b = np.full(64, 0xFFF0, np.uint32)
    state = run_snippet("v_add_u16 v2, v0, v1\nv_sub_u16 v3, v0, v1\nv_mul_lo_u16 v4, v0, v1\n"
                        "v_max_i16 v5, v0, v1\nv_min_u16 v6, v0, v1\nv_lshrrev_b16 v7, v0, v1\n"
                        "v_ashrrev_i16 v8, v0, v1", vgpr={0: a, 1: b})
    v = state.vgpr[:, 0]
    np.testing.assert_array_equal(v[2], (a + b) & 0xFFFF)
    np.testing.assert_array_equal(v[3], (a - b) & 0xFFFF)
    np.testing.assert_array_equal(v[4], (a * b) & 0xFFFF)
    signed = lambda x: x.astype(np.uint16).view(np.int16)
    np.testing.assert_array_equal(v[5], np.maximum(signed(a), signed(b)).view(np.uint16))
    np.testing.assert_array_equal(v[6], np.minimum(a, b))
    np.testing.assert_array_equal(v[7], b >> (a & 15))
    np.testing.assert_array_equal(v[8], (signed(b) >> (a & 15).astype(np.int16)).view(np.uint16))


def test_f64_and_f16_denormals_flush_when_mode_says_so():
    tiny64 = np.full(64, -1e-310)
    lo, hi = split64(tiny64)
    tiny16 = np.full(64, 6e-8, np.float16).view(np.uint16)
    kept = run_snippet("v_add_f64 v[2:3], v[0:1], 0\nv_add_f16 v4, v5, 0",
                       vgpr={0: lo, 1: hi, 5: tiny16}, float_mode=0xC0)
    flushed = run_snippet("v_add_f64 v[2:3], v[0:1], 0\nv_add_f16 v4, v5, 0",
                          vgpr={0: lo, 1: hi, 5: tiny16}, float_mode=0x00)
    assert (join64(kept, 2) == -1e-310).all() and (half(kept, 4) == np.float16(6e-8)).all()
    assert_same(join64(flushed, 2), np.zeros(64))        # -0 (flushed) + +0 = +0
    assert_same(half(flushed, 4), np.zeros(64, np.float16))

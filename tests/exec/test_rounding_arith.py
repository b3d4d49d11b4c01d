"""exec/rounding.py's directed arithmetic called directly on many random
operands spread over the whole exponent range of each type (the float64
paths through Dekker's product, the expansion sign and the rational
fallback for products near under/overflow), against the exact Fraction
reference of test_rounding."""

from __future__ import annotations

import numpy as np
import pytest

from amdgpu_tools.exec.semantics import rounding
from amdgpu_tools.exec.semantics.fused import fma64

from .test_rounding import F16, F32, F64, FORMATS, MODES, assert_same, expected_lanes

COUNT = 300


def spread(rng, dtype, count=COUNT):
    """Random finite values of ``dtype`` over its whole exponent range, with
    a few zeros, extremes and denormals."""
    precision, emin, emax = FORMATS[dtype]
    exponents = rng.integers(emin - precision, emax + 1, count)
    values = np.ldexp(rng.uniform(1, 2, count), exponents) * rng.choice([-1, 1], count)
    with np.errstate(all="ignore"):
        values = values.astype(dtype)
    values[:6] = [0.0, -0.0, np.finfo(dtype).max, -np.finfo(dtype).max,
                  np.finfo(dtype).smallest_subnormal, 1.0]
    return values


def near_product(rng, a, b, dtype):
    """Addends that nearly cancel a * b (the interesting fma lanes)."""
    with np.errstate(all="ignore"):
        c = -(a.astype(F64) * b.astype(F64)).astype(dtype)
        return np.where(np.isfinite(c) & (rng.random(a.shape) < 0.5), c, spread(rng, dtype))


@pytest.mark.parametrize("dtype", (F16, F32, F64), ids=("f16", "f32", "f64"))
@pytest.mark.parametrize("mode", MODES)
def test_directed_arithmetic_is_exactly_rounded(dtype, mode):
    rng = np.random.default_rng(100 + mode)
    a, b = spread(rng, dtype), rng.permutation(spread(rng, dtype))
    # products in every range: scale b so that a * b lands anywhere
    with np.errstate(all="ignore"):
        c = near_product(rng, a, b, dtype)
        assert_same(rounding.add(a, b, mode, dtype), expected_lanes("add", mode, dtype, a, b),
                    "add")
        assert_same(rounding.multiply(a, b, mode, dtype),
                    expected_lanes("mul", mode, dtype, a, b), "mul")
        assert_same(rounding.fma(a, b, c, mode, dtype),
                    expected_lanes("fma", mode, dtype, a, b, c), "fma")
        assert_same(rounding.multiply_add(a, b, c, mode, dtype),
                    expected_lanes("mad", mode, dtype, a, b, c), "mad")
        exponents = rng.integers(-2 * FORMATS[dtype][2] - 60, 2 * FORMATS[dtype][2] + 60, COUNT)
        assert_same(rounding.ldexp(a, exponents, mode, dtype),
                    expected_lanes("ldexp", mode, dtype, a, exponents), "ldexp")


@pytest.mark.parametrize("mode", MODES)
def test_f64_products_near_the_range_limits_use_exact_arithmetic(mode):
    """Products whose Dekker error term underflows or whose factors would
    overflow the split: the rational fallback must decide the direction."""
    rng = np.random.default_rng(7)
    a = np.ldexp(rng.uniform(1, 2, COUNT), rng.integers(-1074, -400, COUNT))
    b = np.ldexp(rng.uniform(1, 2, COUNT), rng.integers(-700, 0, COUNT))
    a[:50] = np.ldexp(rng.uniform(1, 2, 50), rng.integers(990, 1023, 50))
    b[:50] = np.ldexp(rng.uniform(1, 2, 50), rng.integers(-1060, 0, 50))
    c = np.where(rng.random(COUNT) < 0.5, 0.0, np.ldexp(1.0, -1074) * rng.integers(-9, 9, COUNT))
    assert_same(rounding.multiply(a, b, mode, F64), expected_lanes("mul", mode, F64, a, b),
                "mul")
    assert_same(rounding.fma(a, b, c, mode, F64), expected_lanes("fma", mode, F64, a, b, c),
                "fma")


def test_nearest_mode_of_the_directed_helpers_matches_numpy():
    """Mode 0 through the directed helpers is plain IEEE arithmetic (a check
    that the reference and the helpers agree on the easy case)."""
    rng = np.random.default_rng(1)
    a, b, c = (spread(rng, F64) for _ in range(3))
    with np.errstate(all="ignore"):
        assert_same(rounding.add(a, b, 0, F64), a + b, "add")
        assert_same(rounding.multiply(a, b, 0, F64), a * b, "mul")
        assert_same(rounding.fma(a, b, c, 0, F64), fma64(a, b, c), "fma")


def test_fma64_of_finite_factors_and_a_non_finite_addend_is_the_addend():
    """The exact product of finite factors is finite, so a * b + Inf is Inf
    even where RN(a * b) overflows (fma(2**52, DBL_MAX, -Inf) is -Inf, not
    Inf - Inf); an infinite or invalid product still meets the addend."""
    big = np.finfo(F64).max
    a = np.array([2.0 ** 52, big, big, -big, 1.0, np.inf, np.inf, 0.0, big])
    b = np.array([big, 2.0, big, big, 2.0, 1.0, 1.0, np.inf, big])
    c = np.array([-np.inf, np.inf, -np.inf, np.inf, -np.inf, -np.inf, 1.0, 1.0, np.nan])
    with np.errstate(all="ignore"):
        result = fma64(a, b, c)
    expected = [-np.inf, np.inf, -np.inf, np.inf, -np.inf, np.nan, np.inf, np.nan, np.nan]
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("mode", MODES)
def test_ldexp_of_huge_values_into_the_denormal_range(mode):
    """MAX * 2**-2098 lies just below the smallest denormal: scaling the
    rounded result back overflows, which still tells the direction."""
    big = float(np.finfo(F64).max)
    a = np.array([big, -big, big, 1.5 * 2.0 ** 1000], F64)
    e = np.array([-2098, -2098, -2099, -2075], np.int32)
    assert_same(rounding.ldexp(a, e, mode, F64), expected_lanes("ldexp", mode, F64, a, e),
                "ldexp")


def test_fma64_cancellation_lanes_are_exact_down_to_the_denormals():
    """Addends that cancel a * b to a tiny or zero residual, c + RN(a * b)
    exact (a division's residual fma(-d, q, n)): fma64 takes them on its
    array path (they had gone to rationals lane by lane) and must still
    round once, down into the denormals and to signed zeros."""
    rng = np.random.default_rng(12)
    count = 2000
    a = np.ldexp(rng.uniform(1, 2, count), rng.integers(-500, 500, count)) * \
        rng.choice([-1, 1], count)
    b = np.ldexp(rng.uniform(1, 2, count), rng.integers(-480, 480, count))
    # products from 2**-958 up to 2**-900 (the smallest whose error term fma64
    # computes exactly) for half the lanes: residuals below 2**-1000
    tiny = np.ldexp(rng.uniform(1, 2, count // 2), rng.integers(-958, -900, count // 2))
    b[:count // 2] = tiny / np.abs(a[:count // 2])
    with np.errstate(all="ignore"):
        product = a * b
        steps = rng.integers(-3, 4, count).astype(F64)
        c = -product + steps * np.abs(np.spacing(product))      # residuals of a few ulps
        c[::4] = -product[::4]                                 # residuals of the error term alone
        result = fma64(a, b, c)
    assert (np.abs(result) < 2.0 ** -1000).sum() > 300 and \
        ((result != 0) & (np.abs(result) < np.finfo(F64).tiny)).sum() > 50    # denormals
    assert_same(result, expected_lanes("fma", 0, F64, a, b, c), "fma")

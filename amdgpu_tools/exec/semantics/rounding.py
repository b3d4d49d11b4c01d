"""Directed rounding (MODE.FP_ROUND) for the vector ALU's float results.

NumPy only rounds to nearest even, the default MODE.  The other three modes
(1 toward +inf, 2 toward -inf, 3 toward zero) are derived from that result:
a directed rounding of an exact value x is either RN(x) itself or its
neighbour on the side where x lies, so knowing the *sign* of the rounding
error x - RN(x) is enough; ``step`` then moves one ulp with ``np.nextafter``.
The sign is obtained exactly:

- f16/f32 results: the exact value of the operation fits in (or is an
  error-free sum ``hi + lo`` of) float64 values (``two_sum``; products of two
  narrow values are exact in float64), so comparing with the narrow result
  is exact (``narrow``);
- f64 results: from error-free transformations (Knuth's sum, Dekker's
  product) summed as a non-overlapping expansion (``expansion_sign``); lanes
  where those are not exact (products near under/overflow) fall back to
  rational arithmetic.

Overflow follows IEEE 754: a finite exact value that rounds to nearest to
infinity rounds to the largest finite value in the modes that point away
from that infinity (``nextafter(inf, -inf)`` is exactly that).  An exact zero
sum of operands of opposite sign is -0.0 toward -inf and +0.0 otherwise
(``zero_sum``).

The ISA reads the mode of the result type: f32 results MODE.FP_ROUND[1:0]
(``state.round_f32``), f64 and f16 results MODE.FP_ROUND[3:2]
(``state.round_f64_f16``).  The executor calls the directed variants only when
that field is not 0, so round-to-nearest code pays one branch per instruction.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..core.state import NEAREST_EVEN, TOWARD_NEGATIVE, TOWARD_POSITIVE, TOWARD_ZERO  # noqa: F401
from .fused import MAX_FACTOR, MIN_PRODUCT, fma64, two_product, two_sum

F64 = np.float64
_TARGET = {TOWARD_POSITIVE: np.inf, TOWARD_NEGATIVE: -np.inf, TOWARD_ZERO: 0.0}


def sign_of(x):
    """-1, 0 or +1 per lane as int8 (0 for NaN)."""
    return (x > 0).astype(np.int8) - (x < 0).astype(np.int8)


def step(nearest, error_sign, mode):
    """The ``mode`` rounding of an exact value, given ``nearest`` (a rounding
    of it to nearest, any dtype) and ``error_sign`` = sign(exact - nearest)."""
    nearest = np.asarray(nearest)
    if mode == TOWARD_POSITIVE:
        move = error_sign > 0
    elif mode == TOWARD_NEGATIVE:
        move = error_sign < 0
    elif mode == TOWARD_ZERO:
        move = ((error_sign > 0) & (nearest < 0)) | ((error_sign < 0) & (nearest > 0))
    else:
        return nearest
    if not np.any(move):
        return nearest
    dtype = nearest.dtype.type
    return np.where(move, np.nextafter(nearest, dtype(_TARGET[mode])), nearest)


def narrow(hi, lo, mode, dtype):
    """Round the exact value ``hi + lo`` (float64 arrays, ``lo`` within half an
    ulp of ``hi``, e.g. from ``two_sum``) to ``dtype`` in ``mode``.

    RN(hi) is a nearest rounding of hi + lo up to the side of a tie, and both
    sides of the exact value are found by comparing in float64: hi != r
    decides, else the sign of lo does."""
    hi = np.asarray(hi, F64)
    with np.errstate(all="ignore"):
        nearest = hi.astype(dtype)
        wide = nearest.astype(F64)
        error = np.where(hi != wide, sign_of(hi - wide), sign_of(np.asarray(lo, F64)))
    return step(nearest, error, mode)


def zero_sum(result, x, y, mode, exact_zero):
    """IEEE 754 sign of an exact zero sum x + y (lanes ``exact_zero``): -0.0
    when rounding toward -inf unless both addends are +0.0; round to nearest
    (NumPy) already gave the other modes' +0.0, and a zero rounded from a
    nonzero sum carries that sum's sign."""
    if mode != TOWARD_NEGATIVE:
        return result
    result = np.asarray(result)
    both_plus_zero = (x == 0) & (y == 0) & ~np.signbit(x) & ~np.signbit(y)
    negative = exact_zero & ~both_plus_zero
    if not np.any(negative):
        return result
    return np.where(negative, result.dtype.type(-0.0), result)


def expansion_sign(terms):
    """Sign of the exact sum of finite float64 arrays ``terms`` (+1/0/-1 int8)
    and a mask of lanes where that sign is trustworthy.

    Shewchuk's grow-expansion turns the terms into non-overlapping components
    of increasing magnitude, whose largest nonzero one has the sign of the sum.
    A lane whose partial sums overflow is reported as not exact."""
    components = [np.asarray(terms[0], F64)]
    with np.errstate(all="ignore"):
        for term in terms[1:]:
            carry = np.asarray(term, F64)
            grown = []
            for component in components:
                carry, error = two_sum(carry, component)
                grown.append(error)
            components = grown + [carry]
        sign = np.zeros(np.broadcast(*components).shape, np.int8)
        exact = np.ones(sign.shape, np.bool_)
        for component in components:
            sign = np.where(component != 0, sign_of(component), sign)
            exact &= np.isfinite(component)
    return sign, exact


def exact_fallback(error, exact_lanes, nearest, exact_value, operands):
    """Fill ``error`` (sign of exact - nearest) on lanes not in ``exact_lanes``
    from ``exact_value(*operand floats) -> Fraction | None`` (None: the exact
    value is not finite, so the nearest result is already exact)."""
    todo = ~exact_lanes
    if not np.any(todo):
        return error
    error = np.array(error, np.int8)
    operands = np.broadcast_arrays(*operands)
    nearest = np.broadcast_to(nearest, error.shape)
    for index in zip(*np.nonzero(todo)):
        values = [float(operand[index]) for operand in operands]
        exact = exact_value(*values) if all(np.isfinite(values)) else None
        rounded = float(nearest[index])
        if exact is None or not np.isfinite(rounded):
            error[index] = 0 if exact is None else (-1 if rounded > 0 else 1)
        else:
            difference = exact - Fraction(rounded)
            error[index] = (difference > 0) - (difference < 0)
    return error


# ------------------------------------------------ directed arithmetic

def _wide(x):
    return np.asarray(x).astype(F64)


def _is_f64(dtype):
    return np.dtype(dtype) == np.float64


def convert(values, mode, dtype):
    """Round values that float64 holds exactly (integers, wider or narrower
    floats) to ``dtype`` in ``mode``: conversions."""
    return narrow(_wide(values), 0.0, mode, dtype)


def add(a, b, mode, dtype):
    """a + b rounded once in ``mode`` (a and b of ``dtype``)."""
    if not _is_f64(dtype):
        with np.errstate(all="ignore"):
            hi, lo = two_sum(_wide(a), _wide(b))
        return zero_sum(narrow(hi, lo, mode, dtype), a, b, mode, hi == 0)
    a, b = np.broadcast_arrays(np.asarray(a, F64), np.asarray(b, F64))
    with np.errstate(all="ignore"):
        total, error = two_sum(a, b)
    sign = _finite_error(total, sign_of(error), a, b)
    return zero_sum(step(total, sign, mode), a, b, mode, total == 0)


def _finite_error(nearest, sign, *operands):
    """Error signs where ``nearest`` is not finite: 0 if an operand is not
    finite either (the result is exact), else the overflow's -sign(nearest)."""
    overflow = ~np.isfinite(nearest)
    if not np.any(overflow):
        return sign
    finite = np.ones(np.shape(nearest), np.bool_)
    for operand in operands:
        finite &= np.isfinite(operand)
    return np.where(overflow, np.where(finite, -sign_of(nearest), 0), sign).astype(np.int8)


def _product_exact(a, b, p):
    """Lanes where ``two_product`` is error-free, or the product is exactly zero."""
    magnitude = np.abs(p)
    return ((np.abs(a) < MAX_FACTOR) & (np.abs(b) < MAX_FACTOR) &
            (magnitude >= MIN_PRODUCT) & np.isfinite(p)) | (a == 0) | (b == 0)


def multiply(a, b, mode, dtype):
    """a * b rounded once in ``mode``."""
    if not _is_f64(dtype):
        return narrow(_wide(a) * _wide(b), 0.0, mode, dtype)
    a, b = np.broadcast_arrays(np.asarray(a, F64), np.asarray(b, F64))
    with np.errstate(all="ignore"):
        p, error = two_product(a, b)
    sign = _finite_error(p, sign_of(error), a, b)
    known = _product_exact(a, b, p) | ~np.isfinite(p) | ~np.isfinite(a) | ~np.isfinite(b)
    sign = exact_fallback(sign, known, p, lambda x, y: Fraction(x) * Fraction(y), (a, b))
    return step(p, sign, mode)


def fma(a, b, c, mode, dtype):
    """a * b + c rounded once in ``mode`` (v_fma_*)."""
    if not _is_f64(dtype):
        with np.errstate(all="ignore"):
            product = _wide(a) * _wide(b)
            hi, lo = two_sum(product, _wide(c))
        return zero_sum(narrow(hi, lo, mode, dtype), product, c, mode, hi == 0)
    a, b, c = np.broadcast_arrays(*(np.asarray(x, F64) for x in (a, b, c)))
    nearest = fma64(a, b, c)
    with np.errstate(all="ignore"):
        p, p_error = two_product(a, b)
        sign, exact = expansion_sign([c, p, p_error, -nearest])
    sign = _finite_error(nearest, sign, a, b, c)
    operands_finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    known = (_product_exact(a, b, p) & exact & np.isfinite(nearest)) | \
        ~np.isfinite(nearest) | ~operands_finite
    sign = exact_fallback(sign, known, nearest,
                          lambda x, y, z: Fraction(x) * Fraction(y) + Fraction(z), (a, b, c))
    result = step(nearest, sign, mode)
    return zero_sum(result, p, c, mode, (nearest == 0) & (sign == 0))


def multiply_add(a, b, c, mode, dtype):
    """Unfused a * b + c (v_mad_*): the product and the sum each rounded in ``mode``."""
    return add(multiply(a, b, mode, dtype), c, mode, dtype)


def ldexp(a, exponent, mode, dtype):
    """a * 2**exponent rounded in ``mode``."""
    exponent = np.asarray(exponent).astype(np.int64)
    if not _is_f64(dtype):
        # f16/f32 values scaled by at most 2**400 stay exact in float64, and
        # larger exponents over- or underflow the narrow type all the same.
        return narrow(np.ldexp(_wide(a), np.clip(exponent, -400, 400)), 0.0, mode, dtype)
    a, exponent = np.broadcast_arrays(np.asarray(a, F64), np.clip(exponent, -2200, 2200))
    with np.errstate(all="ignore"):
        nearest = np.ldexp(a, exponent)
        # exact - nearest has the sign of a - nearest * 2**-exponent (an
        # overflowing back-scaled value means nearest rounded away from a)
        sign = sign_of(a - np.ldexp(nearest, -exponent))
    return step(nearest, _finite_error(nearest, sign, a), mode)

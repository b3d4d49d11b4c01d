"""Correctly rounded fused multiply-add (IEEE 754 fusedMultiplyAdd) on NumPy arrays.

The ISA's V_FMA_* compute a * b + c with a single rounding.  Compilers lean
on that exactness (OCML's double sqrt, division and Payne-Hanek reduction
recover rounding errors with fma), so an fma that rounds twice gives wrong
answers in the last bits and can overflow where the hardware does not.

f16/f32: the f64 product of two narrow values is exact; the sum is rounded to
odd in f64 (53 >= 2 * 24 + 2 bits), which makes the final rounding to the
narrow type a correct single rounding (Boldo and Melquiond, "Emulation of FMA
and correctly rounded sums: proved algorithms using rounding to odd", 2008).

f64: the same paper's algorithm from error-free transformations (Dekker's
product, Knuth's sum) plus an odd-rounded addition, on the lanes whose
intermediate values stay well inside the normal range; the few other lanes
(huge, tiny, zero or non-finite operands) are computed exactly with rationals.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

F64 = np.float64
_SPLIT = F64(2.0 ** 27 + 1)
#: Operand and product bounds inside which Dekker's product (``two_product``)
#: is error-free and the final rounding correct (no overflow in the split, no
#: underflow in the product's error term or the result).
MAX_FACTOR = 2.0 ** 990
_MAX_ADDEND = 2.0 ** 1020
MIN_PRODUCT = 2.0 ** -960
_MIN_RESULT = 2.0 ** -1000


def two_sum(x, y):
    """s = RN(x + y) and the exact error e = (x + y) - s (Knuth; exact for any
    finite x, y whose sum does not overflow)."""
    s = x + y
    virtual = s - x
    return s, (x - (s - virtual)) + (y - virtual)


def _round_to_odd(s, error):
    """The odd-rounded value of s + error, given s = RN(s + error): when the sum was
    inexact and s is even, step one ulp towards the exact value."""
    bits = s.view(np.uint64)
    step = (error != 0) & np.isfinite(error) & ((bits & np.uint64(1)) == 0) & np.isfinite(s)
    toward = np.where(error > 0, F64(np.inf), F64(-np.inf))
    return np.where(step, np.nextafter(s, toward), s)


def fma_narrow(a, b, c, dtype):
    """Fused multiply-add for f16/f32 operands, one rounding to ``dtype``.
    (Overflow and NaN warnings are off where it runs: the scheduler runs
    every instruction under ``np.errstate(all="ignore")``; no ``with`` here,
    so that compiled blocks can compile it.)"""
    product = a.astype(F64) * b.astype(F64)
    s, error = two_sum(product, c.astype(F64))
    return _round_to_odd(s, error).astype(dtype)


def two_product(a, b):
    """p = RN(a * b) and the exact error (Dekker/Veltkamp split, no FMA needed;
    error-free inside MAX_FACTOR / MIN_PRODUCT)."""
    p = a * b
    a_big = a * _SPLIT
    a_hi = a_big - (a_big - a)
    b_big = b * _SPLIT
    b_hi = b_big - (b_big - b)
    a_lo, b_lo = a - a_hi, b - b_hi
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _exact_fma(a, b, c):
    """One lane by rational arithmetic: any finite operands, IEEE signed zeros."""
    if not (np.isfinite(a) and np.isfinite(b) and np.isfinite(c)):
        return F64(a) * F64(b) + F64(c)
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    if exact == 0:
        product_negative = (np.signbit(a) != np.signbit(b))
        if a == 0 or b == 0:
            return F64(-0.0) if product_negative and np.signbit(c) else F64(0.0)
        return F64(0.0)
    try:
        return F64(float(exact))         # int/int true division rounds correctly
    except OverflowError:
        return F64(np.inf) if exact > 0 else F64(-np.inf)


def fma64(a, b, c):
    """Fused f64 multiply-add with a single correct rounding."""
    a, b, c = np.broadcast_arrays(*(np.asarray(x, F64) for x in (a, b, c)))
    with np.errstate(all="ignore"):
        p, p_error = two_product(a, b)
        high, low = two_sum(c, p)
        result = high + _round_to_odd(*two_sum(low, p_error))
        magnitude = np.abs(p)
        error_free = ((np.abs(a) < MAX_FACTOR) & (np.abs(b) < MAX_FACTOR) &
                      (magnitude >= MIN_PRODUCT) & (magnitude < _MAX_ADDEND) &
                      (np.abs(c) < _MAX_ADDEND) & (c != 0))
        # A tiny result comes of cancellation: c + p is then exact (low is 0),
        # so the result, high + p_error, is rounded once and right however
        # small (a division's residual fma(-d, q, n) is such a lane).
        fast = error_free & (((np.abs(result) >= _MIN_RESULT) & np.isfinite(result)) |
                             (low == 0))
        # Exact without help: a zero factor (p is a signed zero, one rounding in
        # p + c), a zero addend (RN(a * b) is p itself), non-finite operands:
        # p + c, but for finite factors and an infinite or NaN addend, which
        # is the result (the exact product is finite even where p overflowed:
        # fma(2**52, DBL_MAX, -Inf) is -Inf, not Inf - Inf).
        factors_finite = np.isfinite(a) & np.isfinite(b)
        finite = factors_finite & np.isfinite(c)
        simple = ~fast & (((a == 0) | (b == 0) | (c == 0)) & finite | ~finite)
        result = np.where(simple & (c == 0) & (a != 0) & (b != 0) & finite, p,
                          np.where(simple & factors_finite & ~finite, c,
                                   np.where(simple, p + c, result)))
        fast |= simple
    if fast.all():
        return result
    result = np.array(result, F64)
    for index in zip(*np.nonzero(~fast)):
        result[index] = _exact_fma(a[index], b[index], c[index])
    return result

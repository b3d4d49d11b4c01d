"""Vector ALU floating-point semantics: f16/f32/f64 arithmetic, conversions,
transcendentals and the division helpers.

NumPy's IEEE arithmetic rounds to nearest even, as the default MODE does;
ops whose result the ISA rounds per MODE.FP_ROUND also register a
``rounded=fn(mode, *sources)`` variant (exec/semantics/rounding.py) that the wrappers
call when the result type's round mode is a directed one.  Ops that ignore
FP_ROUND: float -> int conversions (truncate, or floor/round-half-up by
name), v_rndne/floor/ceil/trunc/fract/frexp (exact or own rule), min/max/med3,
the transcendental approximations (rcp, rsq, sqrt, exp, log, sin, cos) and
v_cvt_pkrtz (always toward zero).
Transcendentals are computed in float64 and rounded once, which is at least
as accurate as the hardware's 1-ulp approximations; v_sin/v_cos take their
input in revolutions (x * 2*pi) as the ISA manual defines.

Which NaN an arithmetic op returns is stated here, not left to the host
(``first_nan``): the first NaN operand, quieted, in the order the op's
arithmetic is written. x86 gives that for ``a + b`` as NumPy computes it,
but LLVM may swap the operands of a commutative op in a compiled block, and
x86 then returns the other NaN; with the rule written into the semantic,
both tiers compute the same bits by construction. (Directed-rounding forms,
interpreted only, keep the host's float64 order.)
"""

from __future__ import annotations

import numpy as np

from . import rounding
from .float_format import FORMATS
from .fused import fma64, fma_narrow
from ..core.registry import row_source_types, valu

F16, F32, F64 = np.float16, np.float32, np.float64
U16, U32, U64 = np.uint16, np.uint32, np.uint64
_FTYPES = {"f16": F16, "f32": F32, "f64": F64}


def nan_rule(type_):
    """``unless_nan(x, otherwise)``: x with its quiet bit set where x is a NaN
    of ``type_``, else ``otherwise`` (the NaN an op returns of its operand)."""
    layout = FORMATS[type_]
    ftype, bits, quiet = layout.float_type, layout.bits_type, layout.quiet

    def unless_nan(x, otherwise):   # (astype: Numba widens the | of two uint32 scalars)
        quieted = (np.asarray(x, ftype).view(bits) | quiet).astype(bits).view(ftype)
        return np.where(np.isnan(x), quieted, otherwise)
    return unless_nan


def first_nan(type_, arity):
    """``rule(result, *operands)`` for ``arity`` operands of float type
    ``type_``: ``result`` where no operand is a NaN (the default NaN where
    the operation itself was invalid: Inf - Inf, 0 * Inf), else the first
    NaN operand with its quiet bit set, IEEE 754's advice that an operand's
    payload propagate. x86 gives that for two operands in the order written,
    which a compiled block loses once LLVM commutes them. For a multiply-add
    an operand's NaN also wins over the default NaN of an invalid product
    (0 * Inf + NaN), which evaluating it as ``(a * b) + c`` would return.
    Arrays without a NaN result skip the selections: the interpreter pays
    a NumPy call or two. One lane's scalars (a block's lane loop, where
    ``np.ndim`` is a constant 0) always select, which LLVM vectorises; a
    branch per lane stopped that (a one-wave loop of six f32 ops: 0.45
    against 0.24 ms a launch)."""
    unless_nan = nan_rule(type_)

    def without_nan(result):
        return np.ndim(result) and not np.isnan(result).any()

    if arity == 1:
        def rule(result, a):
            return result if without_nan(result) else unless_nan(a, result)
    elif arity == 2:
        def rule(result, a, b):
            return result if without_nan(result) else unless_nan(a, unless_nan(b, result))
    else:
        def rule(result, a, b, c):
            return result if without_nan(result) else \
                unless_nan(a, unless_nan(b, unless_nan(c, result)))
    return rule


def _register(name, fn, out=None, view=None, rounded=None, ieee_nan=False, **flags):
    """Register ``fn`` as ``name``: sources typed as the op's table row types
    them (or ``view``, where the semantic reads them otherwise), the result
    typed ``out`` or as the first source. ``rounded`` is exec/semantics/rounding.py
    arithmetic ``(*sources, mode, dtype)`` for MODE's directed round modes.
    ``ieee_nan``: ``fn`` as MODE.IEEE runs it is kept as the flag
    (``_ieee_form``)."""
    sources = view or row_source_types(name)
    result = out or sources[0]
    if rounded is not None:
        flags["rounded"] = _directed(rounded, result)
    if ieee_nan:
        flags["ieee_nan"] = _ieee_form(fn, result)
    fn.__name__ = name
    valu(name, result, *(view or ()), **flags)(fn)


def _binary(name, op, **flags):
    """Register ``op(a, b)`` (see ``_register``)."""
    _register(name, lambda a, b: op(a, b), **flags)


def _arithmetic(name, op, swapped=False, **flags):
    """Register IEEE arithmetic ``op(a, b)`` (``op(b, a)`` when ``swapped``: the
    *rev ops) under the NaN rule (``first_nan``), in the order it computes."""
    rule = first_nan(row_source_types(name)[0], 2)
    if swapped:
        _register(name, lambda a, b: rule(op(b, a), b, a), **flags)
    else:
        _register(name, lambda a, b: rule(op(a, b), a, b), **flags)


def _unary(name, op, **flags):
    """Register ``op(a)`` (see ``_register``)."""
    _register(name, lambda a: op(a), **flags)


def _three(name, combine):
    """Register a min3/max3/med3 ``combine(a, b, c)`` (IEEE-mode NaN quieting)."""
    _register(name, lambda a, b, c: combine(a, b, c), ieee_nan=True)


def in_f64(op):
    """``op`` computed in float64 and rounded once to the source's type (the
    transcendentals: at least as accurate as the hardware's approximations)."""
    return lambda a: op(a.astype(F64)).astype(a.dtype)


def ieee_min(a, b):
    """v_min: IEEE 754-2019 minimumNumber. A NaN operand loses to a number
    (of two NaNs the first is returned) and -0 is below +0: LLVM selects
    v_min/v_max for fminnum_ieee/fmaxnum_ieee, which it defines with that
    order of signed zeros, as the hardware has it. Written with selections
    only, so that NumPy here and Numba in compiled blocks give the same
    bits (np.fmin leaves the order of the zeros to the implementation)."""
    return np.where(np.isnan(b), a, np.where(np.isnan(a), b, np.where(_below(a, b), a, b)))


def ieee_max(a, b):
    """v_max: IEEE 754-2019 maximumNumber (see ``ieee_min``)."""
    return np.where(np.isnan(b), a, np.where(np.isnan(a), b, np.where(_below(a, b), b, a)))


def _below(a, b):
    """a < b for numbers, with -0 below +0."""
    return (a < b) | ((a == b) & np.signbit(a))


def _signalling(type_):
    """Where a ``type_`` value is a signalling NaN (a NaN whose quiet bit,
    the top of the mantissa, is clear)."""
    layout = FORMATS[type_]
    bits_type, magnitude, infinity, quiet = (layout.bits_type, layout.magnitude,
                                             layout.exponent_field, layout.quiet)
    zero = bits_type(0)

    def signalling(x):
        bits = np.asarray(x).view(bits_type) & magnitude
        return (bits > infinity) & ((bits & quiet) == zero)
    return signalling


_SIGNALLING = {type_: _signalling(type_) for type_ in FORMATS}


def _ieee_form(op, type_):
    """``op`` (a min/max/med3 of two or three sources) as MODE.IEEE runs it:
    a signalling NaN operand makes the result the default quiet NaN (the
    NaN loses to a number otherwise). The interpreter calls it in IEEE mode,
    compiled blocks in IEEE mode compile it (``registry.ieee_form``)."""
    signalling = _SIGNALLING[type_]
    nan = _FTYPES[type_](np.nan)
    if op.__code__.co_argcount == 2:
        def quieted(a, b):
            return np.where(signalling(a) | signalling(b), nan, op(a, b))
    else:
        def quieted(a, b, c):
            return np.where(signalling(a) | signalling(b) | signalling(c), nan, op(a, b, c))
    return quieted


def fraction(type_):
    """v_fract of ``type_`` values: x - floor(x), clamped below 1.0 (so tiny
    negatives do not round up to 1); NaN for an infinity. (A function per
    type, its constants made once, not per call.)"""
    ftype = FORMATS[type_].float_type
    below_one, nan = np.nextafter(ftype(1), ftype(0)), ftype(np.nan)

    def fract(x):
        return np.where(np.isinf(x), nan, np.minimum(x - np.floor(x), below_one))
    return fract


def _directed(arithmetic, type_, swap=False):
    """``rounded(mode, *sources)`` for a registration: ``arithmetic(*sources,
    mode, dtype)`` from exec/semantics/rounding.py (sources swapped for *rev ops)."""
    dtype = _FTYPES[type_]
    if swap:
        return lambda mode, a, b: arithmetic(b, a, mode, dtype)
    return lambda mode, *sources: arithmetic(*sources, mode, dtype)


def _subtract(a, b, mode, dtype):
    return rounding.add(a, -b, mode, dtype)


def _subtract_reversed(a, b, mode, dtype):
    return rounding.add(b, -a, mode, dtype)


def _sin(x):
    """v_sin/v_cos take their input in revolutions."""
    return np.sin(x * (2 * np.pi))


def _cos(x):
    return np.cos(x * (2 * np.pi))


_arithmetic("v_add_f16", np.add, rounded=rounding.add)
_arithmetic("v_add_f32", np.add, rounded=rounding.add)
_arithmetic("v_add_f64", np.add, rounded=rounding.add)
_arithmetic("v_sub_f16", np.subtract, rounded=_subtract)
_arithmetic("v_sub_f32", np.subtract, rounded=_subtract)
_arithmetic("v_subrev_f16", np.subtract, swapped=True, rounded=_subtract_reversed)
_arithmetic("v_subrev_f32", np.subtract, swapped=True, rounded=_subtract_reversed)
_arithmetic("v_mul_f16", np.multiply, rounded=rounding.multiply)
_arithmetic("v_mul_f32", np.multiply, rounded=rounding.multiply)
_arithmetic("v_mul_f64", np.multiply, rounded=rounding.multiply)
_binary("v_min_f16", ieee_min, ieee_nan=True)
_binary("v_min_f32", ieee_min, ieee_nan=True)
_binary("v_min_f64", ieee_min, ieee_nan=True)
_binary("v_max_f16", ieee_max, ieee_nan=True)
_binary("v_max_f32", ieee_max, ieee_nan=True)
_binary("v_max_f64", ieee_max, ieee_nan=True)
_unary("v_ceil_f16", np.ceil)
_unary("v_ceil_f32", np.ceil)
_unary("v_ceil_f64", np.ceil)
_unary("v_floor_f16", np.floor)
_unary("v_floor_f32", np.floor)
_unary("v_floor_f64", np.floor)
_unary("v_trunc_f16", np.trunc)
_unary("v_trunc_f32", np.trunc)
_unary("v_trunc_f64", np.trunc)
_unary("v_rndne_f16", np.rint)
_unary("v_rndne_f32", np.rint)
_unary("v_rndne_f64", np.rint)
_unary("v_fract_f16", fraction("f16"))
_unary("v_fract_f32", fraction("f32"))
_unary("v_fract_f64", fraction("f64"))
_unary("v_sqrt_f16", in_f64(np.sqrt))
_unary("v_sqrt_f32", in_f64(np.sqrt))
_unary("v_sqrt_f64", in_f64(np.sqrt))
_unary("v_rcp_f16", in_f64(lambda x: 1.0 / x))
_unary("v_rcp_f32", in_f64(lambda x: 1.0 / x))
_unary("v_rcp_f64", in_f64(lambda x: 1.0 / x))
_unary("v_rcp_iflag_f32", in_f64(lambda x: 1.0 / x))
_unary("v_rsq_f16", in_f64(lambda x: 1.0 / np.sqrt(x)))
_unary("v_rsq_f32", in_f64(lambda x: 1.0 / np.sqrt(x)))
_unary("v_rsq_f64", in_f64(lambda x: 1.0 / np.sqrt(x)))
_unary("v_exp_f16", in_f64(np.exp2))
_unary("v_exp_f32", in_f64(np.exp2))
_unary("v_exp_legacy_f32", in_f64(np.exp2))
_unary("v_log_f16", in_f64(np.log2))
_unary("v_log_f32", in_f64(np.log2))
_unary("v_log_legacy_f32", in_f64(np.log2))
_unary("v_sin_f16", in_f64(_sin))
_unary("v_sin_f32", in_f64(_sin))
_unary("v_cos_f16", in_f64(_cos))
_unary("v_cos_f32", in_f64(_cos))


_FIRST_NAN_F32 = first_nan("f32", 2)


def _legacy_product(a, b):
    """DX9 multiply: 0 * anything (even Inf/NaN) is 0."""
    return _legacy_zero(a, b, _FIRST_NAN_F32(a * b, a, b))


def _legacy_product_rounded(mode, a, b):
    """``_legacy_product`` rounded in a directed ``mode``."""
    return _legacy_zero(a, b, _FIRST_NAN_F32(rounding.multiply(a, b, mode, F32), a, b))


def _legacy_zero(a, b, product):
    return np.where((a == 0) | (b == 0), F32(0), product)


def _legacy_mad(mode, a, b, c):
    product = _legacy_product_rounded(mode, a, b)
    return _FIRST_NAN_F32(rounding.add(product, c, mode, F32), product, c)


def _legacy_mad_nearest(a, b, c):
    """v_mad_legacy/v_mac_legacy: the DX9 product plus c."""
    product = _legacy_product(a, b)
    return _FIRST_NAN_F32(product + c, product, c)


valu("v_mul_legacy_f32", "f32", rounded=_legacy_product_rounded)(_legacy_product)


# ---------------------------------------------------------- multiply-add
_FIRST_NAN1_F64 = first_nan("f64", 1)
_FIRST_NAN3_F16 = first_nan("f16", 3)
_FIRST_NAN3_F32 = first_nan("f32", 3)
_FIRST_NAN3_F64 = first_nan("f64", 3)


def fma32(a, b, c):
    """Fused f32 multiply-add, one rounding (see ``exec/semantics/fused.py``),
    under the NaN rule (``first_nan``)."""
    return _FIRST_NAN3_F32(fma_narrow(a, b, c, F32), a, b, c)


@valu("v_fma_f32", "f32", rounded=_directed(rounding.fma, "f32"))
def v_fma_f32(a, b, c):
    return fma32(a, b, c)


@valu("v_fma_f64", "f64", rounded=_directed(rounding.fma, "f64"))
def v_fma_f64(a, b, c):
    return _FIRST_NAN3_F64(fma64(a, b, c), a, b, c)


@valu("v_fma_f16", "f16", rounded=_directed(rounding.fma, "f16"))
def v_fma_f16(a, b, c):
    return _FIRST_NAN3_F16(fma_narrow(a, b, c, F16), a, b, c)


@valu("v_mad_f32", "f32", rounded=_directed(rounding.multiply_add, "f32"))
def v_mad_f32(a, b, c):
    return _FIRST_NAN3_F32(a * b + c, a, b, c)


@valu("v_mad_f16", "f16", rounded=_directed(rounding.multiply_add, "f16"))
def v_mad_f16(a, b, c):
    return _FIRST_NAN3_F16(a * b + c, a, b, c)


@valu("v_mac_f32", "f32", layout="mac",
      rounded=_directed(rounding.multiply_add, "f32"))
def v_mac_f32(a, b, c):
    return _FIRST_NAN3_F32(a * b + c, a, b, c)


@valu("v_mac_f16", "f16", layout="mac",
      rounded=_directed(rounding.multiply_add, "f16"))
def v_mac_f16(a, b, c):
    return _FIRST_NAN3_F16(a * b + c, a, b, c)


@valu("v_fmac_f32", "f32", layout="mac",
      rounded=_directed(rounding.fma, "f32"))
def v_fmac_f32(a, b, c):
    return fma32(a, b, c)


@valu("v_madmk_f32", "f32", "f32", "f32", "f32", layout="madmk",
      rounded=_directed(rounding.multiply_add, "f32"))
def v_madmk_f32(a, k, b):
    return _FIRST_NAN3_F32(a * k + b, a, k, b)


@valu("v_madak_f32", "f32", "f32", "f32", "f32", layout="madak",
      rounded=_directed(rounding.multiply_add, "f32"))
def v_madak_f32(a, b, k):
    return _FIRST_NAN3_F32(a * b + k, a, b, k)


@valu("v_madmk_f16", "f16", "f16", "f16", "f16", layout="madmk",
      rounded=_directed(rounding.multiply_add, "f16"))
def v_madmk_f16(a, k, b):
    return _FIRST_NAN3_F16(a * k + b, a, k, b)


@valu("v_madak_f16", "f16", "f16", "f16", "f16", layout="madak",
      rounded=_directed(rounding.multiply_add, "f16"))
def v_madak_f16(a, b, k):
    return _FIRST_NAN3_F16(a * b + k, a, b, k)


valu("v_mad_legacy_f32", "f32", rounded=_legacy_mad)(_legacy_mad_nearest)


# --------------------------------------------------------------- 3-operand
def median3_float(a, b, c):
    """v_med3_f32: the middle value; with a NaN operand the ISA returns min3."""
    any_nan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    middle = ieee_max(ieee_min(a, b), ieee_min(ieee_max(a, b), c))
    return np.where(any_nan, min3_float(a, b, c), middle)


def min3_float(a, b, c):
    return ieee_min(ieee_min(a, b), c)


def max3_float(a, b, c):
    return ieee_max(ieee_max(a, b), c)


_three("v_min3_f16", min3_float)
_three("v_min3_f32", min3_float)
_three("v_max3_f16", max3_float)
_three("v_max3_f32", max3_float)
_three("v_med3_f16", median3_float)
_three("v_med3_f32", median3_float)


# ------------------------------------------------------------- exponents
@valu("v_ldexp_f32", "f32", "f32", "i32", rounded=_directed(rounding.ldexp, "f32"))
def v_ldexp_f32(a, b):
    return np.ldexp(a.astype(F64), np.clip(b, -1100, 1100)).astype(F32)


@valu("v_ldexp_f64", "f64", "f64", "i32", rounded=_directed(rounding.ldexp, "f64"))
def v_ldexp_f64(a, b):
    """(A NaN comes back quiet, as NumPy's ldexp gives it and IEEE's scaleB
    asks; Numba's passes a signalling one through.)"""
    return _FIRST_NAN1_F64(np.ldexp(a, np.clip(b, -2200, 2200)), a)


@valu("v_ldexp_f16", "f16", "f16", "i16", rounded=_directed(rounding.ldexp, "f16"))
def v_ldexp_f16(a, b):
    return np.ldexp(a.astype(F64), np.clip(b.astype(np.int32), -100, 100)).astype(F16)


def _denormal_test(type_):
    """``denormal(x)``: whether x is a non-zero denormal."""
    ftype = FORMATS[type_].float_type
    smallest_normal = ftype(np.finfo(ftype).tiny)

    def denormal(x):
        return (x != 0) & (np.abs(x) < smallest_normal)
    return denormal


def frexp_parts(type_):
    """``parts(x) -> (mantissa, exponent)`` of ``type_`` values: x = m * 2**e
    with 0.5 <= |m| < 1, as ``np.frexp`` splits a finite non-zero x (a zero
    is itself and 0). Read from the bits, a denormal scaled up first (an
    exact product, by 2**(mantissa bits + 1)), so that compiled code, which
    has no ``np.frexp``, takes the same code."""
    layout = FORMATS[type_]
    bits_type, ftype, bias = layout.bits_type, layout.float_type, layout.bias
    exponent_field = layout.exponent_field
    sign_and_mantissa = bits_type(((1 << layout.width) - 1) ^ int(exponent_field))
    one_half = bits_type((bias - 1) << layout.mantissa_bits)
    shift = bits_type(layout.mantissa_bits)
    lift = layout.mantissa_bits + 1
    scale, is_denormal = ftype(2.0 ** lift), _denormal_test(type_)

    def parts(x):
        x = np.asarray(x, ftype)
        denormal = is_denormal(x)
        bits = np.where(denormal, x * scale, x).view(bits_type)
        exponent = ((bits & exponent_field) >> shift).astype(np.int32) - np.int32(bias - 1) \
            - np.where(denormal, np.int32(lift), np.int32(0))
        mantissa = ((bits & sign_and_mantissa) | one_half).astype(bits_type).view(ftype)
        zero = x == 0
        return np.where(zero, x, mantissa), np.where(zero, np.int32(0), exponent)
    return parts


def _frexp_exp(type_):
    """v_frexp_exp: the exponent of a finite x, else 0."""
    parts = frexp_parts(type_)

    def exponent(x):
        return np.where(np.isfinite(x), parts(x)[1], np.int32(0)).astype(np.int32)
    return exponent


def _frexp_mant(type_):
    """v_frexp_mant: the mantissa of a finite x, else x itself."""
    parts = frexp_parts(type_)

    def mantissa(x):
        return np.where(np.isfinite(x), parts(x)[0], x).astype(np.asarray(x).dtype)
    return mantissa


_unary("v_frexp_exp_i32_f32", _frexp_exp("f32"), out="i32")
_unary("v_frexp_exp_i32_f64", _frexp_exp("f64"), out="i32")
_FREXP_EXP_F16 = _frexp_exp("f16")
_unary("v_frexp_exp_i16_f16", lambda x: _FREXP_EXP_F16(x).astype(np.int16), out="i16")
_unary("v_frexp_mant_f32", _frexp_mant("f32"))
_unary("v_frexp_mant_f64", _frexp_mant("f64"))
_unary("v_frexp_mant_f16", _frexp_mant("f16"))


# ------------------------------------------------------------ conversions
def float_to_int(x, low, high, dtype):
    """Round toward zero, saturate, NaN -> 0 (the ISA's v_cvt_*_f* rule)."""
    x = np.asarray(x, F64)
    return np.where(np.isnan(x), 0, np.clip(np.trunc(x), low, high)).astype(dtype)


_unary("v_cvt_i32_f32", lambda x: float_to_int(x, -2**31, 2**31 - 1, np.int32), out="i32")
_unary("v_cvt_u32_f32", lambda x: float_to_int(x, 0, 2**32 - 1, np.uint32), out="u32")
_unary("v_cvt_i32_f64", lambda x: float_to_int(x, -2**31, 2**31 - 1, np.int32), out="i32")
_unary("v_cvt_u32_f64", lambda x: float_to_int(x, 0, 2**32 - 1, np.uint32), out="u32")
_unary("v_cvt_i16_f16", lambda x: float_to_int(x, -2**15, 2**15 - 1, np.int16), out="i16")
_unary("v_cvt_u16_f16", lambda x: float_to_int(x, 0, 2**16 - 1, np.uint16), out="u16")
_unary("v_cvt_f32_i32", lambda x: x.astype(F32), out="f32", view=("i32",),
       rounded=rounding.convert)
_unary("v_cvt_f32_u32", lambda x: x.astype(F32), out="f32",
       rounded=rounding.convert)
_unary("v_cvt_f64_i32", lambda x: x.astype(F64), out="f64", view=("i32",))
_unary("v_cvt_f64_u32", lambda x: x.astype(F64), out="f64")
_unary("v_cvt_f16_i16", lambda x: x.astype(F16), out="f16",
       rounded=rounding.convert)
_unary("v_cvt_f16_u16", lambda x: x.astype(F16), out="f16", view=("u16",),
       rounded=rounding.convert)
_unary("v_cvt_f32_f64", lambda x: x.astype(F32), out="f32",
       rounded=rounding.convert)
_unary("v_cvt_f64_f32", lambda x: x.astype(F64), out="f64")
_unary("v_cvt_f16_f32", lambda x: x.astype(F16), out="f16",
       rounded=rounding.convert)
_unary("v_cvt_f32_f16", lambda x: x.astype(F32), out="f32")
_unary("v_cvt_rpi_i32_f32",
       lambda x: float_to_int(np.floor(np.asarray(x, F64) + 0.5), -2**31, 2**31 - 1, np.int32),
       out="i32")
_unary("v_cvt_flr_i32_f32",
       lambda x: float_to_int(np.floor(np.asarray(x, F64)), -2**31, 2**31 - 1, np.int32),
       out="i32")


def _byte_to_f32(index):
    """v_cvt_f32_ubyteN: byte N of the source as an f32."""
    return lambda x: ((x >> U32(8 * index)) & U32(0xFF)).astype(F32)


_unary("v_cvt_f32_ubyte0", _byte_to_f32(0), out="f32")
_unary("v_cvt_f32_ubyte1", _byte_to_f32(1), out="f32")
_unary("v_cvt_f32_ubyte2", _byte_to_f32(2), out="f32")
_unary("v_cvt_f32_ubyte3", _byte_to_f32(3), out="f32")
_unary("v_cvt_off_f32_i4",
       lambda x: (((x & U32(15)).astype(np.int32) ^ 8) - 8).astype(F32) / F32(16), out="f32")


@valu("v_cvt_pkrtz_f16_f32", "b32")
def v_cvt_pkrtz_f16_f32(a, b):
    """Pack two f32 as f16, rounding toward zero."""
    return _f16_rtz(a) | (_f16_rtz(b) << U32(16))


def _f16_rtz(x):
    x = np.asarray(x, F32)
    nearest = x.astype(F16)
    overshoot = np.abs(nearest.astype(F32)) > np.abs(x)
    finite = np.isfinite(x)
    toward_zero = np.where(overshoot & finite,
                           np.nextafter(nearest, F16(0)), nearest)
    return toward_zero.astype(F16).view(np.uint16).astype(U32)


@valu("v_cvt_pknorm_i16_f32", "b32")
def v_cvt_pknorm_i16_f32(a, b):
    norm = lambda x: np.rint(np.clip(np.nan_to_num(x), -1, 1) * 32767).astype(np.int16)
    return norm(a).view(np.uint16).astype(U32) | (norm(b).view(np.uint16).astype(U32) << U32(16))


@valu("v_cvt_pknorm_u16_f32", "b32")
def v_cvt_pknorm_u16_f32(a, b):
    norm = lambda x: np.rint(np.clip(np.nan_to_num(x), 0, 1) * 65535).astype(U32)
    return norm(a) | (norm(b) << U32(16))


@valu("v_cvt_pk_u8_f32", "b32")
def v_cvt_pk_u8_f32(a, b, c):
    """Convert a to a byte (round to nearest even, saturate) into byte b[1:0] of c."""
    byte = np.clip(np.rint(np.nan_to_num(np.asarray(a, F64))), 0, 255).astype(U32)
    shift = (b & U32(3)) * U32(8)
    return (c & ~(U32(0xFF) << shift)) | (byte << shift)


@valu("v_pack_b32_f16", "b32")
def v_pack_b32_f16(a, b):
    return a.view(np.uint16).astype(U32) | (b.view(np.uint16).astype(U32) << U32(16))


# ------------------------------------------------------------- division
# The division family is written with selections and bit masks only, one
# function per type (as ``first_nan``), so that one lane's scalars (a
# compiled block's lane loop) take the same code as arrays.
def _exponent_reader(type_):
    """``exponent(x)``: the biased exponent field of x as int64 (0 for zero
    and denormals)."""
    layout = FORMATS[type_]
    ftype, bits, field = layout.float_type, layout.bits_type, layout.exponent_field
    shift = bits(layout.mantissa_bits)

    def exponent(x):
        return ((np.asarray(x, ftype).view(bits) & field) >> shift).astype(np.int64)
    return exponent


def div_fixup(type_, underflow_gap=None):
    """``fixup(quotient, denominator, numerator)``: the special cases of
    n / d over an estimate, in the ISA manual's order: a NaN operand, quieted
    (the numerator's first); 0/0 and Inf/Inf give the default NaN (sign
    set); x/0 and Inf/y give a signed Inf; x/Inf and 0/y a signed zero
    (whatever the estimate holds: v_div_scale made it NaN for a zero
    numerator). With an ``underflow_gap`` (f32, f64: the f16 op has none),
    n's exponent field that far below d's gives a signed zero, and a NaN
    estimate, which the iteration makes of a quotient past the largest
    finite (Inf - Inf), a signed Inf: IEEE's answers in both cases, and what
    RDNA 3.5 hardware was measured to return (the manual's UNDERFLOW; its
    overflow clause tests the denominator's exponent for 255, which no
    number reaching it has)."""
    ftype = FORMATS[type_].float_type
    infinity, negative_infinity = ftype(np.inf), ftype(-np.inf)
    zero, negative_zero = ftype(0.0), ftype(-0.0)
    default_nan = ftype(np.copysign(np.nan, -1.0))
    exponent, unless_nan = _exponent_reader(type_), nan_rule(type_)

    def fixup(quotient, denominator, numerator):
        """(The cases from the last to the first: each later one wins.)"""
        sign = np.signbit(denominator) ^ np.signbit(numerator)
        magnitude = np.abs(quotient)
        signed_infinity = np.where(sign, negative_infinity, infinity)
        signed_zero = np.where(sign, negative_zero, zero)
        result = np.where(sign, -magnitude, magnitude)
        if underflow_gap is not None:
            result = np.where(np.isnan(quotient), signed_infinity, result)
            underflow = exponent(numerator) - exponent(denominator) < underflow_gap
            result = np.where(underflow, signed_zero, result)
        zero_num, zero_den = numerator == 0, denominator == 0
        inf_num, inf_den = np.isinf(numerator), np.isinf(denominator)
        result = np.where(inf_den | zero_num, signed_zero, result)
        result = np.where(zero_den | inf_num, signed_infinity, result)
        invalid = (zero_num & zero_den) | (inf_num & inf_den)
        result = np.where(invalid, default_nan, result)
        return unless_nan(numerator, unless_nan(denominator, result))
    return fixup


_DIV_FIXUP_F16 = div_fixup("f16")
valu("v_div_fixup_f32", "f32")(div_fixup("f32", -150))
valu("v_div_fixup_f64", "f64")(div_fixup("f64", -1075))
valu("v_div_fixup_f16", "f16")(_DIV_FIXUP_F16)

#: float type -> (v_div_scale's exponent gap past which it scales the
#: denominator, the power of two it scales by, the numerator exponent at or
#: below which it scales the numerator), from the ISA manual
_DIV_SCALE_LIMITS = {"f32": (96, 64, 23), "f64": (768, 128, 53)}


def div_scale(type_):
    """``scale(value, denominator, numerator) -> (value', vcc)``: pre-scale
    the numerator or denominator of n / d (the ISA manual's cases, the first
    that holds deciding) so that the reciprocal iteration cannot over- or
    underflow; VCC tells v_div_fmas to undo the scaling of the quotient."""
    gap, power, tiny_exponent = _DIV_SCALE_LIMITS[type_]
    ftype = FORMATS[type_].float_type
    up_by, nan = ftype(2.0 ** power), ftype(np.nan)
    exponent, denormal = _exponent_reader(type_), _denormal_test(type_)

    def scale(value, denominator, numerator):
        quotient = (numerator / denominator).astype(ftype)
        zero = (numerator == 0) | (denominator == 0)
        wide_gap = ~zero & (exponent(numerator) - exponent(denominator) >= gap)
        undecided = ~zero & ~wide_gap
        small_denominator = undecided & denormal(denominator)
        undecided = undecided & ~small_denominator
        # The manual's "1 / d is denormal" cases test the reciprocal in wider
        # precision (as RDNA's pseudocode spells out), where it never is.
        small_quotient = undecided & denormal(quotient)
        small_numerator = undecided & ~small_quotient & (exponent(numerator) <= tiny_exponent)
        scaled = (wide_gap & (value == denominator)) | small_denominator | \
            (small_quotient & (value == numerator)) | small_numerator
        # (a product by a power of two: rounded once, as ldexp's)
        result = np.where(zero, nan, np.where(scaled, value * up_by, value))
        return result, wide_gap | small_quotient
    return scale


valu("v_div_scale_f32", "f32", carry_out=True)(div_scale("f32"))
valu("v_div_scale_f64", "f64", carry_out=True)(div_scale("f64"))


def quotient_unscaling(type_):
    """``factor(estimate, vcc)``: the power of two (a float64) that undoes
    v_div_scale's scaling of a quotient where VCC is set: up when the
    denominator was scaled (the estimate is large: |estimate| >= 1, or not
    finite), down when the numerator was (the estimate is small); else 1."""
    layout = FORMATS[type_]
    power = _DIV_SCALE_LIMITS[type_][1]
    one = layout.bits_type(layout.bias << layout.mantissa_bits)
    ftype, bits, magnitude = layout.float_type, layout.bits_type, layout.magnitude
    up, down = F64(2.0 ** power), F64(2.0 ** -power)

    def factor(estimate, vcc):
        large = (np.asarray(estimate, ftype).view(bits) & magnitude) >= one
        return np.where(vcc, np.where(large, up, down), F64(1.0))
    return factor


_UNSCALING_F32 = quotient_unscaling("f32")
_UNSCALING_F64 = quotient_unscaling("f64")


def _div_fmas_f32_directed(mode, a, b, c, vcc):
    """The fused a * b + c kept exact as hi + lo in float64, scaled by the
    power of two VCC asks for (exact), then rounded once in ``mode``."""
    with np.errstate(all="ignore"):
        product = a.astype(F64) * b.astype(F64)
        hi, lo = rounding.two_sum(product, c.astype(F64))
        scale = _UNSCALING_F32(c, vcc)
        result = rounding.narrow(hi * scale, lo * scale, mode, F32)
    return rounding.zero_sum(result, product, c, mode, hi == 0)


@valu("v_div_fmas_f32", "f32", carry_in=True, vcc_in=True,
      rounded=_div_fmas_f32_directed)
def v_div_fmas_f32(a, b, c, vcc):
    """(The scaling is exact in float64, where the sum is kept.)"""
    wide = a.astype(F64) * b.astype(F64) + c.astype(F64)
    return _FIRST_NAN3_F32((wide * _UNSCALING_F32(c, vcc)).astype(F32), a, b, c)


@valu("v_div_fmas_f64", "f64", carry_in=True, vcc_in=True,
      rounded=lambda mode, a, b, c, vcc: rounding.fma(a, b, c, mode, F64) * _UNSCALING_F64(c, vcc))
def v_div_fmas_f64(a, b, c, vcc):
    """(A product by a power of two is rounded once, as ``np.ldexp`` is.)"""
    return _FIRST_NAN3_F64(fma64(a, b, c) * _UNSCALING_F64(c, vcc), a, b, c)


# ----------------------------------------------------------------- cube map
def _cube_axes(x, y, z):
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    major_z = (az >= ax) & (az >= ay)
    major_y = ~major_z & (ay >= ax)
    return major_z, major_y


@valu("v_cubeid_f32", "f32")
def v_cubeid_f32(x, y, z):
    major_z, major_y = _cube_axes(x, y, z)
    return np.where(major_z, np.where(z < 0, 5.0, 4.0),
                    np.where(major_y, np.where(y < 0, 3.0, 2.0),
                             np.where(x < 0, 1.0, 0.0))).astype(F32)


@valu("v_cubesc_f32", "f32")
def v_cubesc_f32(x, y, z):
    major_z, major_y = _cube_axes(x, y, z)
    return np.where(major_z, np.where(z < 0, -x, x),
                    np.where(major_y, x, np.where(x < 0, z, -z))).astype(F32)


@valu("v_cubetc_f32", "f32")
def v_cubetc_f32(x, y, z):
    major_z, major_y = _cube_axes(x, y, z)
    return np.where(major_z, -y, np.where(major_y, np.where(y < 0, -z, z), -y)).astype(F32)


@valu("v_cubema_f32", "f32")
def v_cubema_f32(x, y, z):
    major_z, major_y = _cube_axes(x, y, z)
    return (F32(2) * np.where(major_z, z, np.where(major_y, y, x))).astype(F32)


# ---------------------------------------------------------------- trig_preop
#: Bits of 2/pi, most significant first (1200 bits, as the hardware table).
_TWO_OVER_PI_HEX = (
    "A2F9836E4E441529FC2757D1F534DDC0DB6295993C439041FE5163ABDEBBC561B7246E3A424DD2E0"
    "06492EEA09D1921CFE1DEB1CB129A73EE88235F52EBB4484E99C7026B45F7E413991D639835339F4"
    "9C845F8BBDF9283B1FF897FFDE05980FEF2F118B5A0A6D1F6D367ECF27CB09B74F463F669E5FEA2D"
    "7527BAC7EBE5F17B3D0739F78A5292EA6BFB5FB11F8D5D0856033046FC7B6BABF0CFBC209AF4361D"
    "A9E391615EE61B086599855F14A068408DFFD8804D73273106061556CA73A8C960E27BC08C6B")


def _two_over_pi_words():
    """The bits of 2/pi as uint64 words, most significant first, zeros after
    them as far as any window reaches (a segment of 31 and the largest
    exponent start 31 * 53 + 970 bits in)."""
    total = len(_TWO_OVER_PI_HEX) * 4
    count = (31 * 53 + (2047 - 1077) + 53) // 64 + 2
    bits = int(_TWO_OVER_PI_HEX, 16) << (64 * count - total)
    return np.array([(bits >> (64 * (count - 1 - k))) & ((1 << 64) - 1) for k in range(count)],
                    U64)


_TWO_OVER_PI_WORDS = _two_over_pi_words()


@valu("v_trig_preop_f64", "f64")
def v_trig_preop_f64(x, segment):
    """53 bits of 2/pi starting at bit shift = segment[4:0] * 53, scaled by
    2**(-53 - shift).  For a large x (biased exponent field > 1077) the window
    slides right by (exponent - 1077) so x * result keeps its useful bits; from
    exponent 1968 the scale gains 2**128 so those products stay normal (ISA
    manual, V_TRIG_PREOP_F64).  The exponent is the raw IEEE field, as the
    manual's exponent(S0) is. (The window is read from two table words.)"""
    exponent = ((np.asarray(x, F64).view(U64) >> U64(52)) & U64(0x7FF)).astype(np.int64)
    shift = (np.asarray(segment, U32) & U32(31)).astype(np.int64) * 53 + \
        np.maximum(exponent - 1077, 0)
    scale = -53 - shift + np.where(exponent >= 1968, 128, 0)
    word, offset = shift >> 6, (shift & 63).astype(U64)
    high, low = _TWO_OVER_PI_WORDS[word], _TWO_OVER_PI_WORDS[word + 1]
    top = np.where(offset == 0, high,
                   (high << offset) | (low >> ((U64(64) - offset) & U64(63))))
    return np.ldexp((top >> U64(11)).astype(F64), scale.astype(np.int32))


# GFX9 renamed the GFX8 f16 mad/fma/div_fixup (which zero the high half) to
# *_legacy_f16; the computation is the same.
valu("v_mad_legacy_f16", "f16",
     rounded=_directed(rounding.multiply_add, "f16"))(
    lambda a, b, c: _FIRST_NAN3_F16(a * b + c, a, b, c))
valu("v_fma_legacy_f16", "f16", rounded=_directed(rounding.fma, "f16"))(
    lambda a, b, c: _FIRST_NAN3_F16(fma_narrow(a, b, c, F16), a, b, c))
valu("v_div_fixup_legacy_f16", "f16")(_DIV_FIXUP_F16)


@valu("v_cvt_norm_i16_f16", "i16")
def v_cvt_norm_i16_f16(a):
    """f16 in [-1, 1] -> snorm16 (round to nearest even, saturate, NaN -> 0)."""
    return np.rint(np.clip(np.nan_to_num(a.astype(F64)), -1, 1) * 32767).astype(np.int16)


@valu("v_cvt_norm_u16_f16", "u16")
def v_cvt_norm_u16_f16(a):
    return np.rint(np.clip(np.nan_to_num(a.astype(F64)), 0, 1) * 65535).astype(np.uint16)


@valu("v_cvt_pknorm_i16_f16", "b32")
def v_cvt_pknorm_i16_f16(a, b):
    return v_cvt_pknorm_i16_f32(a.astype(F32), b.astype(F32))


@valu("v_cvt_pknorm_u16_f16", "b32")
def v_cvt_pknorm_u16_f16(a, b):
    return v_cvt_pknorm_u16_f32(a.astype(F32), b.astype(F32))


@valu("v_cvt_pkaccum_u8_f32", "b32", layout="mac")
def v_cvt_pkaccum_u8_f32(a, b, old):
    """Convert a to a byte into byte b[1:0] of the destination, keeping the others."""
    return v_cvt_pk_u8_f32(a, b, np.asarray(old, U32))


# ------------------------------------------------------- GFX6/GFX7 variants
def _legacy_min(a, b):
    """DX9 min: if either operand is NaN the second operand is returned."""
    return np.where(a < b, a, b)


def _legacy_max(a, b):
    return np.where(a > b, a, b)


_binary("v_min_legacy_f32", _legacy_min)
_binary("v_max_legacy_f32", _legacy_max)


valu("v_mac_legacy_f32", "f32", layout="mac", rounded=_legacy_mad)(_legacy_mad_nearest)


def _clamped(op, dtype):
    """*_clamp variants: an infinite result becomes the largest finite value."""
    largest = np.finfo(dtype).max

    def fn(a):
        return np.clip(op(a.astype(F64)), -largest, largest).astype(dtype)   # NaN stays NaN
    return fn


_unary("v_rcp_clamp_f32", _clamped(lambda x: 1.0 / x, F32))
_unary("v_rsq_clamp_f32", _clamped(lambda x: 1.0 / np.sqrt(x), F32))
_unary("v_log_clamp_f32", _clamped(np.log2, F32))
_unary("v_rcp_clamp_f64", _clamped(lambda x: 1.0 / x, F64))
_unary("v_rsq_clamp_f64", _clamped(lambda x: 1.0 / np.sqrt(x), F64))
_unary("v_rcp_legacy_f32", lambda a: np.where(a == 0, F32(0), (1.0 / a.astype(F64))
                                                     .astype(F32)).astype(F32))
_unary("v_rsq_legacy_f32", lambda a: np.where(a == 0, F32(0), (1.0 / np.sqrt(a.astype(
    F64))).astype(F32)).astype(F32))


def _mullit(a, b, c):
    """Lighting multiply: -FLT_MAX when src2 <= 0 or src1 < 0, else src0 * src1
    (with the DX9 rule that 0 * anything is 0)."""
    return _lit(b, c, _legacy_product(a, b))


def _lit(b, c, product):
    return np.where((c <= 0) | (b < 0), F32(-np.finfo(F32).max), product).astype(F32)


valu("v_mullit_f32", "f32",
     rounded=lambda mode, a, b, c: _lit(b, c, _legacy_product_rounded(mode, a, b)))(_mullit)

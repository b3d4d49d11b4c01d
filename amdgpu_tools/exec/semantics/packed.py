"""VOP3P (GFX9): packed 16-bit math, mixed-precision mad/fma and dot products.

A packed op's semantic computes one 16-bit half; the wrapper picks each
source's halves with op_sel (low result) and op_sel_hi (high result), applies
neg_lo/neg_hi, runs the function on both halves in one NumPy call and packs
the result. Mix ops read each source as f32 (op_sel_hi bit 0) or as the f16
half op_sel chooses (op_sel_hi bit 1), with neg_lo = neg and neg_hi = abs.

Float results follow MODE: packed f16 math and f16 mix results round with
FP_ROUND[3:2] and flush denormals with FP_DENORM[7:6], f32 mix results use
FP_ROUND[1:0] (directed variants ``rounded(mode, ...)``, exec/semantics/rounding.py).
"""

from __future__ import annotations

import numpy as np

from ..core import operands as ops
from . import rounding
from ..core.formats import BUILDERS, _aperture_reader, field, mode_reader
from .fused import fma_narrow
from .valu_float import ieee_max, ieee_min
from ..core.registry import SEMANTICS, Semantic, row_source_types

F16, F32 = np.float16, np.float32
U16, U32 = np.uint16, np.uint32
#: MODE.FP_DENORM bits of a type: bit 0 allows denormal inputs, bit 1 outputs.
_ALLOW_INPUT, _ALLOW_OUTPUT = 1, 2
_SMALLEST_NORMAL_F16 = F16(2.0 ** -14)
_HALF_VIEW = {"f16": np.float16, "i16": np.int16, "u16": np.uint16, "b16": np.uint16}


#: The half type of a packed row type ('f16x2'); integer rows say 'b32'.
_HALF_OF_ROW = {"f16x2": "f16"}


def packed(op, view=None, **flags):
    """Register a packed op computing one half from as many source halves as
    the op's table row has sources, each half typed as the row types it
    ('f16x2': f16) or, for the integer ops the row types 'b32', as ``view``
    ('u16', 'i16')."""
    def decorate(fn):
        row_types = row_source_types(op)
        type_ = view or _HALF_OF_ROW[row_types[0]]
        SEMANTICS[op] = Semantic(op, "packed", fn, type_, (type_,) * len(row_types), dict(flags))
        return fn
    return decorate


def _flush_f16(values):
    """Denormal f16 values -> zero of the same sign."""
    tiny = (np.abs(values) < _SMALLEST_NORMAL_F16) & (values != 0)
    if not tiny.any():
        return values
    return np.where(tiny, np.copysign(F16(0), values), values)


def mix(op, **flags):
    def decorate(fn):
        SEMANTICS[op] = Semantic(op, "mix", fn, "f32", ("f32",) * 3, dict(flags))
        return fn
    return decorate


def _packed_constant(code, literal):
    """An inline constant or literal read by a packed operand: the 16-bit value
    in both halves (literals: as written)."""
    if code == ops.LITERAL:
        return np.uint32(int(literal or 0) & 0xFFFFFFFF)
    half = int(ops.constant_bits(code, "f16", literal)) & 0xFFFF
    return np.uint32(half | (half << 16))


def _source(inst, index, program, literal_type="f16"):
    code = field(inst, f"src{index}")
    if ops.is_constant(code):
        value = _packed_constant(code, inst.literal)
        return lambda state, sel: value
    return ops.vector_getter(code, "b32", inst.literal, _aperture_reader(program))


def build_packed(inst, semantic, program):
    fn = semantic.fn
    count = len(semantic.srcs)
    view = _HALF_VIEW[semantic.dst]
    is_float = semantic.dst == "f16"
    op_sel = field(inst, "op_sel")
    op_sel_hi = field(inst, "op_sel_hi", default=3) | (field(inst, "op_sel_hi2", default=1) << 2)
    neg_lo, neg_hi = field(inst, "neg_lo"), field(inst, "neg_hi")
    clamp = field(inst, "clamp")
    getters = [_source(inst, i, program) for i in range(count)]
    dst = field(inst, "vdst")
    rounded = semantic.flags.get("rounded")

    def halves(bits, i):
        bits = np.asarray(bits, U32)
        low = (bits >> U32(16 * (op_sel >> i & 1))) & U32(0xFFFF)
        high = (bits >> U32(16 * (op_sel_hi >> i & 1))) & U32(0xFFFF)
        if is_float:
            low = low ^ U32(0x8000 * (neg_lo >> i & 1))
            high = high ^ U32(0x8000 * (neg_hi >> i & 1))
        low, high = np.broadcast_arrays(low, high)
        stacked = np.stack([low, high]).astype(U16).view(view)
        return stacked.reshape(2, 1, 1) if stacked.ndim == 1 else stacked

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        args = [halves(get(state, sel), i) for i, get in enumerate(getters)]
        if not is_float:
            result = np.asarray(fn(*args))
        else:
            denorm = state.denorm_f64_f16
            if not denorm & _ALLOW_INPUT:
                args = [_flush_f16(arg) for arg in args]
            mode = state.round_f64_f16 if rounded is not None else 0
            result = np.asarray(rounded(mode, *args) if mode else fn(*args))
            if not denorm & _ALLOW_OUTPUT:
                result = _flush_f16(result)
        if clamp and is_float:
            result = np.where(np.isnan(result), view(0), np.clip(result, view(0), view(1)))
        bits = np.asarray(result, dtype=view).view(U16).astype(U32)
        bits = np.broadcast_to(bits, (2, ctx.n, 64))
        state.write_vgpr(sel, dst, bits[0] | (bits[1] << U32(16)), ctx.write_lanes())
    return run


def build_mix(inst, semantic, program):
    """v_mad_mix*/v_fma_mix*: f32 or f16-half sources, f32 or f16-half result.

    The semantic is ``fn(a, b, c, mode, dtype)``: the result rounded once to
    the destination type in that type's MODE.FP_ROUND."""
    fn = semantic.fn
    op_sel = field(inst, "op_sel")
    op_sel_hi = field(inst, "op_sel_hi", default=0) | (field(inst, "op_sel_hi2", default=0) << 2)
    neg, abs_ = field(inst, "neg_lo"), field(inst, "neg_hi")
    clamp = field(inst, "clamp")
    dst = field(inst, "vdst")
    result_half = semantic.flags.get("half")          # None, 'lo' or 'hi'
    dtype = F32 if result_half is None else F16
    round_mode = mode_reader("f32" if result_half is None else "f16")
    getters = []
    for i in range(3):
        code = field(inst, f"src{i}")
        as_half = bool(op_sel_hi >> i & 1)
        getters.append((ops.vector_getter(code, "f16" if as_half else "f32", inst.literal,
                                          _aperture_reader(program)), as_half,
                        bool(op_sel >> i & 1), bool(neg >> i & 1), bool(abs_ >> i & 1)))

    def read(state, sel, get, as_half, high, negate, absolute):
        bits = np.asarray(get(state, sel), U32)
        if as_half:
            value = ((bits >> U32(16 if high else 0)) & U32(0xFFFF)).astype(U16) \
                .view(np.float16).astype(np.float32)
        else:
            value = bits.view(np.float32)
        if absolute:
            value = np.abs(value)
        return -value if negate else value

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        sources = [read(state, sel, *g) for g in getters]
        result = np.asarray(fn(*sources, round_mode(state), dtype), dtype)
        if clamp:
            result = np.where(np.isnan(result), dtype(0), np.clip(result, dtype(0), dtype(1)))
        if result_half is None:
            bits = result.view(U32)
        else:
            half = result.view(U16).astype(U32)
            old = state.vgpr[dst, sel]
            bits = (old & U32(0xFFFF0000)) | half if result_half == "lo" else \
                (old & U32(0xFFFF)) | (half << U32(16))
        state.write_vgpr(sel, dst, bits, ctx.write_lanes())
    return run


BUILDERS["packed"] = build_packed
BUILDERS["mix"] = build_mix


# ------------------------------------------------------------ packed ops
def _directed(arithmetic):
    return lambda mode, *halves: arithmetic(*halves, mode, F16)


@packed("v_pk_add_f16", rounded=_directed(rounding.add))
def v_pk_add_f16(a, b):
    return a + b


@packed("v_pk_mul_f16", rounded=_directed(rounding.multiply))
def v_pk_mul_f16(a, b):
    return a * b


@packed("v_pk_fma_f16", rounded=_directed(rounding.fma))
def v_pk_fma_f16(a, b, c):
    return fma_narrow(a, b, c, F16)


@packed("v_pk_min_f16")
def v_pk_min_f16(a, b):
    return ieee_min(a, b)


@packed("v_pk_max_f16")
def v_pk_max_f16(a, b):
    return ieee_max(a, b)


@packed("v_pk_add_u16", "u16")
def v_pk_add_u16(a, b):
    return a + b


@packed("v_pk_sub_u16", "u16")
def v_pk_sub_u16(a, b):
    return a - b


@packed("v_pk_add_i16", "i16")
def v_pk_add_i16(a, b):
    return a + b


@packed("v_pk_sub_i16", "i16")
def v_pk_sub_i16(a, b):
    return a - b


@packed("v_pk_mul_lo_u16", "u16")
def v_pk_mul_lo_u16(a, b):
    return a * b


@packed("v_pk_mad_u16", "u16")
def v_pk_mad_u16(a, b, c):
    return a * b + c


@packed("v_pk_mad_i16", "i16")
def v_pk_mad_i16(a, b, c):
    return a * b + c


@packed("v_pk_min_u16", "u16")
def v_pk_min_u16(a, b):
    return np.minimum(a, b)


@packed("v_pk_max_u16", "u16")
def v_pk_max_u16(a, b):
    return np.maximum(a, b)


@packed("v_pk_min_i16", "i16")
def v_pk_min_i16(a, b):
    return np.minimum(a, b)


@packed("v_pk_max_i16", "i16")
def v_pk_max_i16(a, b):
    return np.maximum(a, b)


@packed("v_pk_lshlrev_b16", "u16")
def v_pk_lshlrev_b16(a, b):
    return b << (a & U16(15))


@packed("v_pk_lshrrev_b16", "u16")
def v_pk_lshrrev_b16(a, b):
    return b >> (a & U16(15))


@packed("v_pk_ashrrev_i16", "i16")
def v_pk_ashrrev_i16(a, b):
    return b >> (a.view(U16) & U16(15)).astype(np.int16)


# -------------------------------------------------------------- mix ops
def _fma(a, b, c, mode, dtype):
    """Fused: one rounding of the exact a * b + c to the destination type."""
    if mode:
        return rounding.fma(a, b, c, mode, dtype)
    return fma_narrow(a, b, c, dtype)


def _mad(a, b, c, mode, dtype):
    """Unfused: product and sum rounded to f32, an f16 destination rounds that."""
    if not mode:
        return (a * b + c).astype(dtype)
    return rounding.convert(rounding.multiply_add(a, b, c, mode, F32), mode, dtype)


mix("v_mad_mix_f32")(_mad)
mix("v_mad_mixlo_f16", half="lo")(_mad)
mix("v_mad_mixhi_f16", half="hi")(_mad)
mix("v_fma_mix_f32")(_fma)
mix("v_fma_mixlo_f16", half="lo")(_fma)
mix("v_fma_mixhi_f16", half="hi")(_fma)


# ------------------------------------------------------------ dot products
def _dot(op, element_bits, signed, float_=False):
    """v_dot*: sum of the element-wise products of two packed sources, plus src2."""
    from ..core.registry import builder

    @builder(op)
    def build(inst, program):
        a, b = _source(inst, 0, program), _source(inst, 1, program)
        c = ops.vector_getter(field(inst, "src2"), "f32" if float_ else "u32", inst.literal,
                              _aperture_reader(program))
        dst = field(inst, "vdst")
        count = 32 // element_bits
        mask = U32((1 << element_bits) - 1)

        def element(bits, k):
            value = (np.asarray(bits, U32) >> U32(k * element_bits)) & mask
            if float_:
                return value.astype(U16).view(np.float16).astype(np.float64)
            value = value.astype(np.int64)
            if signed:
                value = (value ^ (1 << (element_bits - 1))) - (1 << (element_bits - 1))
            return value

        def run(ctx):
            state, sel = ctx.state, ctx.sel
            x, y, z = a(state, sel), b(state, sel), c(state, sel)
            total = sum(element(x, k) * element(y, k) for k in range(count))
            if float_:
                bits = (total + np.asarray(z, U32).view(np.float32)).astype(np.float32).view(U32)
            else:
                addend = np.asarray(z, U32).view(np.int32).astype(np.int64) if signed \
                    else np.asarray(z, U32).astype(np.int64)
                bits = (total + addend).astype(np.int64).astype(U32)
            state.write_vgpr(sel, dst, np.broadcast_to(bits, (ctx.n, 64)), ctx.write_lanes())
        return run
    build.__name__ = op


_dot("v_dot2_f32_f16", 16, True, float_=True)
_dot("v_dot2_i32_i16", 16, True)
_dot("v_dot2_u32_u16", 16, False)
_dot("v_dot4_i32_i8", 8, True)
_dot("v_dot4_u32_u8", 8, False)
_dot("v_dot8_i32_i4", 4, True)
_dot("v_dot8_u32_u4", 4, False)

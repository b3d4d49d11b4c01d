"""Vector compares (VOPC and their VOP3 forms): every mnemonic with its
predicate, one line per condition (v_cmp writes VCC or an SGPR pair, v_cmpx
also EXEC; GFX6/7's v_cmps/v_cmpsx signal on NaN inputs, which the executor
does not model, and compare as v_cmp/v_cmpx). Operand types are the table
row's (a float row types its sources f16/f32/f64, an unsigned integer row
b32/b64 = raw bits); a signed or 16-bit integer compare states its ``view``,
which the row cannot (it types u16 and i16 sources alike 'i16', i32/u32 'b32').
"""

from __future__ import annotations

import numpy as np

from ..core.registry import SEMANTICS, Semantic, row_source_types, vcmp
from .float_format import FORMATS


def never(a, b):
    return np.zeros(np.broadcast_shapes(np.shape(a), np.shape(b)), np.bool_)


def always(a, b):
    return np.ones(np.broadcast_shapes(np.shape(a), np.shape(b)), np.bool_)


def less_or_greater(a, b):
    """lg: ordered and not equal (NaN makes it false)."""
    return (a < b) | (a > b)


def ordered(a, b):
    return ~np.isnan(a) & ~np.isnan(b)


def unordered(a, b):
    return np.isnan(a) | np.isnan(b)


def negated(predicate):
    """The n* float predicates: true where ``predicate`` is false, NaN included."""
    return lambda a, b: ~predicate(a, b)


def compares(predicate, *names, view=None):
    """Register ``predicate`` under each mnemonic of ``names`` (sources: ``view``,
    else the row's type)."""
    for name in names:
        @vcmp(name, view)
        def fn(a, b):
            return predicate(a, b)
        fn.__name__ = name

compares(never, "v_cmp_f_f16", "v_cmpx_f_f16")
compares(np.less, "v_cmp_lt_f16", "v_cmpx_lt_f16")
compares(np.equal, "v_cmp_eq_f16", "v_cmpx_eq_f16")
compares(np.less_equal, "v_cmp_le_f16", "v_cmpx_le_f16")
compares(np.greater, "v_cmp_gt_f16", "v_cmpx_gt_f16")
compares(less_or_greater, "v_cmp_lg_f16", "v_cmpx_lg_f16")
compares(np.greater_equal, "v_cmp_ge_f16", "v_cmpx_ge_f16")
compares(ordered, "v_cmp_o_f16", "v_cmpx_o_f16")
compares(unordered, "v_cmp_u_f16", "v_cmpx_u_f16")
compares(negated(np.greater_equal), "v_cmp_nge_f16", "v_cmpx_nge_f16")
compares(negated(less_or_greater), "v_cmp_nlg_f16", "v_cmpx_nlg_f16")
compares(negated(np.greater), "v_cmp_ngt_f16", "v_cmpx_ngt_f16")
compares(negated(np.less_equal), "v_cmp_nle_f16", "v_cmpx_nle_f16")
compares(negated(np.equal), "v_cmp_neq_f16", "v_cmpx_neq_f16")
compares(negated(np.less), "v_cmp_nlt_f16", "v_cmpx_nlt_f16")
compares(always, "v_cmp_tru_f16", "v_cmpx_tru_f16")

compares(never, "v_cmp_f_f32", "v_cmpx_f_f32", "v_cmps_f_f32", "v_cmpsx_f_f32")
compares(np.less, "v_cmp_lt_f32", "v_cmpx_lt_f32", "v_cmps_lt_f32", "v_cmpsx_lt_f32")
compares(np.equal, "v_cmp_eq_f32", "v_cmpx_eq_f32", "v_cmps_eq_f32", "v_cmpsx_eq_f32")
compares(np.less_equal, "v_cmp_le_f32", "v_cmpx_le_f32", "v_cmps_le_f32", "v_cmpsx_le_f32")
compares(np.greater, "v_cmp_gt_f32", "v_cmpx_gt_f32", "v_cmps_gt_f32", "v_cmpsx_gt_f32")
compares(less_or_greater, "v_cmp_lg_f32", "v_cmpx_lg_f32", "v_cmps_lg_f32", "v_cmpsx_lg_f32")
compares(np.greater_equal, "v_cmp_ge_f32", "v_cmpx_ge_f32", "v_cmps_ge_f32", "v_cmpsx_ge_f32")
compares(ordered, "v_cmp_o_f32", "v_cmpx_o_f32", "v_cmps_o_f32", "v_cmpsx_o_f32")
compares(unordered, "v_cmp_u_f32", "v_cmpx_u_f32", "v_cmps_u_f32", "v_cmpsx_u_f32")
compares(negated(np.greater_equal),
         "v_cmp_nge_f32", "v_cmpx_nge_f32", "v_cmps_nge_f32", "v_cmpsx_nge_f32")
compares(negated(less_or_greater),
         "v_cmp_nlg_f32", "v_cmpx_nlg_f32", "v_cmps_nlg_f32", "v_cmpsx_nlg_f32")
compares(negated(np.greater),
         "v_cmp_ngt_f32", "v_cmpx_ngt_f32", "v_cmps_ngt_f32", "v_cmpsx_ngt_f32")
compares(negated(np.less_equal),
         "v_cmp_nle_f32", "v_cmpx_nle_f32", "v_cmps_nle_f32", "v_cmpsx_nle_f32")
compares(negated(np.equal), "v_cmp_neq_f32", "v_cmpx_neq_f32", "v_cmps_neq_f32", "v_cmpsx_neq_f32")
compares(negated(np.less), "v_cmp_nlt_f32", "v_cmpx_nlt_f32", "v_cmps_nlt_f32", "v_cmpsx_nlt_f32")
compares(always, "v_cmp_tru_f32", "v_cmpx_tru_f32", "v_cmps_tru_f32", "v_cmpsx_tru_f32")

compares(never, "v_cmp_f_f64", "v_cmpx_f_f64", "v_cmps_f_f64", "v_cmpsx_f_f64")
compares(np.less, "v_cmp_lt_f64", "v_cmpx_lt_f64", "v_cmps_lt_f64", "v_cmpsx_lt_f64")
compares(np.equal, "v_cmp_eq_f64", "v_cmpx_eq_f64", "v_cmps_eq_f64", "v_cmpsx_eq_f64")
compares(np.less_equal, "v_cmp_le_f64", "v_cmpx_le_f64", "v_cmps_le_f64", "v_cmpsx_le_f64")
compares(np.greater, "v_cmp_gt_f64", "v_cmpx_gt_f64", "v_cmps_gt_f64", "v_cmpsx_gt_f64")
compares(less_or_greater, "v_cmp_lg_f64", "v_cmpx_lg_f64", "v_cmps_lg_f64", "v_cmpsx_lg_f64")
compares(np.greater_equal, "v_cmp_ge_f64", "v_cmpx_ge_f64", "v_cmps_ge_f64", "v_cmpsx_ge_f64")
compares(ordered, "v_cmp_o_f64", "v_cmpx_o_f64", "v_cmps_o_f64", "v_cmpsx_o_f64")
compares(unordered, "v_cmp_u_f64", "v_cmpx_u_f64", "v_cmps_u_f64", "v_cmpsx_u_f64")
compares(negated(np.greater_equal),
         "v_cmp_nge_f64", "v_cmpx_nge_f64", "v_cmps_nge_f64", "v_cmpsx_nge_f64")
compares(negated(less_or_greater),
         "v_cmp_nlg_f64", "v_cmpx_nlg_f64", "v_cmps_nlg_f64", "v_cmpsx_nlg_f64")
compares(negated(np.greater),
         "v_cmp_ngt_f64", "v_cmpx_ngt_f64", "v_cmps_ngt_f64", "v_cmpsx_ngt_f64")
compares(negated(np.less_equal),
         "v_cmp_nle_f64", "v_cmpx_nle_f64", "v_cmps_nle_f64", "v_cmpsx_nle_f64")
compares(negated(np.equal), "v_cmp_neq_f64", "v_cmpx_neq_f64", "v_cmps_neq_f64", "v_cmpsx_neq_f64")
compares(negated(np.less), "v_cmp_nlt_f64", "v_cmpx_nlt_f64", "v_cmps_nlt_f64", "v_cmpsx_nlt_f64")
compares(always, "v_cmp_tru_f64", "v_cmpx_tru_f64", "v_cmps_tru_f64", "v_cmpsx_tru_f64")

compares(never, "v_cmp_f_i16", "v_cmpx_f_i16", view="i16")
compares(np.less, "v_cmp_lt_i16", "v_cmpx_lt_i16", view="i16")
compares(np.equal, "v_cmp_eq_i16", "v_cmpx_eq_i16", view="i16")
compares(np.less_equal, "v_cmp_le_i16", "v_cmpx_le_i16", view="i16")
compares(np.greater, "v_cmp_gt_i16", "v_cmpx_gt_i16", view="i16")
compares(np.not_equal, "v_cmp_ne_i16", "v_cmpx_ne_i16", view="i16")
compares(np.greater_equal, "v_cmp_ge_i16", "v_cmpx_ge_i16", view="i16")
compares(always, "v_cmp_t_i16", "v_cmpx_t_i16", view="i16")

compares(never, "v_cmp_f_u16", "v_cmpx_f_u16", view="u16")
compares(np.less, "v_cmp_lt_u16", "v_cmpx_lt_u16", view="u16")
compares(np.equal, "v_cmp_eq_u16", "v_cmpx_eq_u16", view="u16")
compares(np.less_equal, "v_cmp_le_u16", "v_cmpx_le_u16", view="u16")
compares(np.greater, "v_cmp_gt_u16", "v_cmpx_gt_u16", view="u16")
compares(np.not_equal, "v_cmp_ne_u16", "v_cmpx_ne_u16", view="u16")
compares(np.greater_equal, "v_cmp_ge_u16", "v_cmpx_ge_u16", view="u16")
compares(always, "v_cmp_t_u16", "v_cmpx_t_u16", view="u16")

compares(never, "v_cmp_f_i32", "v_cmpx_f_i32", view="i32")
compares(np.less, "v_cmp_lt_i32", "v_cmpx_lt_i32", view="i32")
compares(np.equal, "v_cmp_eq_i32", "v_cmpx_eq_i32", view="i32")
compares(np.less_equal, "v_cmp_le_i32", "v_cmpx_le_i32", view="i32")
compares(np.greater, "v_cmp_gt_i32", "v_cmpx_gt_i32", view="i32")
compares(np.not_equal, "v_cmp_ne_i32", "v_cmpx_ne_i32", view="i32")
compares(np.greater_equal, "v_cmp_ge_i32", "v_cmpx_ge_i32", view="i32")
compares(always, "v_cmp_t_i32", "v_cmpx_t_i32", view="i32")

compares(never, "v_cmp_f_u32", "v_cmpx_f_u32")
compares(np.less, "v_cmp_lt_u32", "v_cmpx_lt_u32")
compares(np.equal, "v_cmp_eq_u32", "v_cmpx_eq_u32")
compares(np.less_equal, "v_cmp_le_u32", "v_cmpx_le_u32")
compares(np.greater, "v_cmp_gt_u32", "v_cmpx_gt_u32")
compares(np.not_equal, "v_cmp_ne_u32", "v_cmpx_ne_u32")
compares(np.greater_equal, "v_cmp_ge_u32", "v_cmpx_ge_u32")
compares(always, "v_cmp_t_u32", "v_cmpx_t_u32")

compares(never, "v_cmp_f_i64", "v_cmpx_f_i64", view="i64")
compares(np.less, "v_cmp_lt_i64", "v_cmpx_lt_i64", view="i64")
compares(np.equal, "v_cmp_eq_i64", "v_cmpx_eq_i64", view="i64")
compares(np.less_equal, "v_cmp_le_i64", "v_cmpx_le_i64", view="i64")
compares(np.greater, "v_cmp_gt_i64", "v_cmpx_gt_i64", view="i64")
compares(np.not_equal, "v_cmp_ne_i64", "v_cmpx_ne_i64", view="i64")
compares(np.greater_equal, "v_cmp_ge_i64", "v_cmpx_ge_i64", view="i64")
compares(always, "v_cmp_t_i64", "v_cmpx_t_i64", view="i64")

compares(never, "v_cmp_f_u64", "v_cmpx_f_u64")
compares(np.less, "v_cmp_lt_u64", "v_cmpx_lt_u64")
compares(np.equal, "v_cmp_eq_u64", "v_cmpx_eq_u64")
compares(np.less_equal, "v_cmp_le_u64", "v_cmpx_le_u64")
compares(np.greater, "v_cmp_gt_u64", "v_cmpx_gt_u64")
compares(np.not_equal, "v_cmp_ne_u64", "v_cmpx_ne_u64")
compares(np.greater_equal, "v_cmp_ge_u64", "v_cmpx_ge_u64")
compares(always, "v_cmp_t_u64", "v_cmpx_t_u64")


def float_class(type_):
    """v_cmp_class of a ``type_`` value: ``test(x, mask)``, whether bit c of
    ``mask`` is set for the class c of x: 0 sNaN, 1 qNaN, 2 -Inf, 3 -normal,
    4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +Inf. The class is
    read from x's bits with selections only, so that one lane's scalars
    (compiled blocks) take the same code as arrays."""
    layout = FORMATS[type_]
    bits_type, magnitude_mask, sign = layout.bits_type, layout.magnitude, layout.sign
    infinity, quiet, normal = layout.exponent_field, layout.quiet, layout.smallest_normal
    zero = bits_type(0)

    def test(x, mask):
        bits = np.asarray(x).view(bits_type)
        magnitude = bits & magnitude_mask
        negative = (bits & sign) != zero
        index = np.where(magnitude > infinity, np.where((bits & quiet) == zero, 0, 1),
                         np.where(magnitude == infinity, np.where(negative, 2, 9),
                                  np.where(magnitude >= normal, np.where(negative, 3, 8),
                                           np.where(magnitude != zero,
                                                    np.where(negative, 4, 7),
                                                    np.where(negative, 5, 6)))))
        return ((np.asarray(mask).astype(np.uint32) >> np.asarray(index).astype(np.uint32))
                & np.uint32(1)) != np.uint32(0)
    return test


def class_compares(*names):
    """v_cmp_class/v_cmpx_class: the value as the row types it, the class mask
    as raw bits; the value is tested as it is (no denormal flush)."""
    for name in names:
        vcmp(name)(float_class(row_source_types(name)[0]))
        old = SEMANTICS[name]
        SEMANTICS[name] = Semantic(old.op, old.kind, old.fn, old.dst, (old.srcs[0], "u32"),
                                   {**old.flags, "no_flush": True})


class_compares("v_cmp_class_f16", "v_cmpx_class_f16")
class_compares("v_cmp_class_f32", "v_cmpx_class_f32")
class_compares("v_cmp_class_f64", "v_cmpx_class_f64")

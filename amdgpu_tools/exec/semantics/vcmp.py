"""Vector compares (VOPC and their VOP3 forms), generated from one table:
the 16 float predicates and 8 integer predicates, each as v_cmp and v_cmpx
(which also writes EXEC), plus v_cmp_class.
"""

from __future__ import annotations

import numpy as np

from ..core.registry import vcmp

#: Float predicates as the ISA manual defines them (NaN makes ordered ones false).
FLOAT_PREDICATES = {
    "f": lambda a, b: np.zeros(np.broadcast_shapes(np.shape(a), np.shape(b)), np.bool_),
    "lt": np.less, "eq": np.equal, "le": np.less_equal, "gt": np.greater,
    "lg": lambda a, b: (a < b) | (a > b), "ge": np.greater_equal,
    "o": lambda a, b: ~np.isnan(a) & ~np.isnan(b),
    "u": lambda a, b: np.isnan(a) | np.isnan(b),
    "nge": lambda a, b: ~(a >= b), "nlg": lambda a, b: ~((a < b) | (a > b)),
    "ngt": lambda a, b: ~(a > b), "nle": lambda a, b: ~(a <= b), "neq": lambda a, b: ~(a == b),
    "nlt": lambda a, b: ~(a < b),
    "tru": lambda a, b: np.ones(np.broadcast_shapes(np.shape(a), np.shape(b)), np.bool_),
}
INT_PREDICATES = {
    "f": FLOAT_PREDICATES["f"], "lt": np.less, "eq": np.equal, "le": np.less_equal,
    "gt": np.greater, "ne": np.not_equal, "lg": np.not_equal, "ge": np.greater_equal,
    "t": FLOAT_PREDICATES["tru"],
}


def _register(name, type_, predicate):
    @vcmp(name, type_)
    def fn(a, b):
        return predicate(a, b)
    fn.__name__ = name


for _type in ("f16", "f32", "f64"):
    for _cond, _pred in FLOAT_PREDICATES.items():
        for _prefix in ("v_cmp", "v_cmpx", "v_cmps", "v_cmpsx"):
            _register(f"{_prefix}_{_cond}_{_type}", _type, _pred)
for _type in ("i16", "u16", "i32", "u32", "i64", "u64"):
    for _cond, _pred in INT_PREDICATES.items():
        for _prefix in ("v_cmp", "v_cmpx"):
            _register(f"{_prefix}_{_cond}_{_type}", _type, _pred)


def float_class(x, mask):
    """v_cmp_class: bit i of ``mask`` tests class i of x (sNaN, qNaN, -Inf,
    -normal, -denormal, -0, +0, +denormal, +normal, +Inf)."""
    x = np.asarray(x)
    info = np.finfo(x.dtype)
    mask = np.asarray(mask).astype(np.uint32)
    bits = x.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize])
    quiet_bit = bits.dtype.type(1 << (info.nmant - 1))
    nan = np.isnan(x)
    negative = np.signbit(x)
    tiny = np.abs(x) < info.tiny
    classes = [nan & ((bits & quiet_bit) == 0), nan & ((bits & quiet_bit) != 0),
               np.isneginf(x), negative & np.isfinite(x) & ~tiny,
               negative & tiny & (x != 0), negative & (x == 0), ~negative & (x == 0),
               ~negative & tiny & (x != 0), ~negative & np.isfinite(x) & ~tiny & ~nan,
               np.isposinf(x)]
    result = np.zeros(np.broadcast_shapes(x.shape, mask.shape), np.bool_)
    for index, members in enumerate(classes):
        result |= members & (((mask >> np.uint32(index)) & np.uint32(1)) != 0)
    return result


for _type in ("f16", "f32", "f64"):
    for _prefix in ("v_cmp", "v_cmpx"):
        _name = f"{_prefix}_class_{_type}"
        vcmp(_name, _type)(float_class)
        from ..core.registry import SEMANTICS as _S, Semantic as _Sem
        _old = _S[_name]
        _S[_name] = _Sem(_old.op, _old.kind, _old.fn, _old.dst, (_type, "u32"),
                         {**_old.flags, "no_flush": True})

"""Semantic functions applied lane by lane in native code, where that is
exactly what the interpreter computes.

A compiled block that calls a semantic on whole (waves, 64) arrays pays for
a new array per operation (every NumPy expression in the semantic, every
``astype``): at one or a few waves that allocation, not the arithmetic, is
the cost of an instruction. The same semantic compiled for scalars runs
inside a loop over the lanes with no allocation at all. But a semantic is
NumPy array code and scalars do not always behave like arrays: Numba widens
the sum of two uint32 scalars to 64 bits where the array wraps, and a
Python float constant turns a float32 scalar expression into float64 where
the array stays float32.

So an op is applied lane by lane only once its scalar form is shown to give
the interpreter's bits: ``lanewise(op)`` compiles the scalar form in a probe
that reads its sources as a block would, runs it over a battery of values
(zeros, ones, sign and carry boundaries, shift counts, infinities, NaNs,
denormals, random bits) and compares every result and carry bit with the
semantic run as the interpreter runs it. The verdict is kept in the block
cache (like refused ops), so each op is probed once per machine and
version of the sources. Anything else, or an op whose scalar form Numba
cannot type, stays on the array path.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit
from numba import types as nbtypes
from numba.extending import overload, overload_method

from .codegen import LANE_RESULTS, LANE_VIEWS

_LANE_NUMPY = None


def lane_numpy():
    """A stand-in for the ``numpy`` module in a semantic's scalar form: every
    name is NumPy's, but ``asarray`` of a scalar is the scalar (cast to the
    dtype asked for) and ``where`` of scalars selects one, as they do lane by
    lane on arrays; NumPy's own return 0-d arrays, an allocation per lane."""
    global _LANE_NUMPY
    if _LANE_NUMPY is None:
        module = types.ModuleType("amdgpu_tools_lane_numpy")
        module.__dict__.update({name: getattr(np, name) for name in dir(np)
                                if not name.startswith("__")})
        module.asarray = _lane_asarray
        module.where = _lane_where
        _LANE_NUMPY = module
    return _LANE_NUMPY


def _lane_asarray(value, dtype=None):
    raise NotImplementedError("only compiled code calls it")


@overload(_lane_asarray)
def _choose_asarray(value, dtype=None):
    if isinstance(value, nbtypes.Array):
        if dtype is None or isinstance(dtype, (nbtypes.NoneType, nbtypes.Omitted)):
            return lambda value, dtype=None: value
        return lambda value, dtype=None: value.astype(dtype)
    if dtype is None or isinstance(dtype, (nbtypes.NoneType, nbtypes.Omitted)):
        return lambda value, dtype=None: value
    return lambda value, dtype=None: dtype(value)


def _lane_where(condition, yes, no):
    raise NotImplementedError("only compiled code calls it")


@overload(_lane_where)
def _choose_where(condition, yes, no):
    if isinstance(condition, nbtypes.Array) or isinstance(yes, nbtypes.Array) or \
            isinstance(no, nbtypes.Array):
        return lambda condition, yes, no: np.where(condition, yes, no)
    return lambda condition, yes, no: yes if condition else no


@overload_method(nbtypes.Number, "astype")
def _scalar_astype(value, dtype):
    return lambda value, dtype: dtype(value)


@overload_method(nbtypes.Boolean, "astype")
def _bool_astype(value, dtype):
    return lambda value, dtype: dtype(value)


@overload(np.clip)
def _scalar_clip(value, low, high):
    if isinstance(value, nbtypes.Number) and isinstance(low, nbtypes.Number) and \
            isinstance(high, nbtypes.Number):
        return lambda value, low, high: min(max(value, low), high)


# ------------------------------------------------------------- the probe
#: The values every source takes (raw bits), besides random ones: zero and
#: one, shift counts around 32, sign and carry boundaries, float ones,
#: powers of two, largest finite, infinities, quiet and signalling NaNs,
#: denormals, both signs.
_SPECIAL_32 = (0, 1, 2, 3, 7, 0x1F, 0x20, 0x21, 0x3F, 0x40, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF,
               0x10000, 0x7FFFFF, 0x800000, 0xFFFFFF, 0x1000000, 0x3F000000, 0x3F800000,
               0x3FC00000, 0x40000000, 0x40490FDB, 0x4B000000, 0x4B800000, 0x4F000000,
               0x4F800000, 0x7F7FFFFF, 0x7F800000, 0x7FC00000, 0x7FA00000, 0x7FFFFFFF,
               0x80000000, 0x80000001, 0x807FFFFF, 0xBF800000, 0xBF000000, 0xCB000000,
               0xCF000000, 0xCF800000, 0xFF7FFFFF, 0xFF800000, 0xFFC00001, 0xFFFFFFFE,
               0xFFFFFFFF)
_SPECIAL_64 = (0, 1, 2, 0x3F, 0x40, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF,
               0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFF00000000,
               0x3FF0000000000000, 0xBFF0000000000000, 0x3FE0000000000000,
               0x4330000000000000, 0x41E0000000000000, 0x43E0000000000000,
               0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000,
               0x7FF8000000000000, 0x7FF4000000000000, 0x000FFFFFFFFFFFFF,
               0x800FFFFFFFFFFFFF, 0x0000000000000001, 0x400921FB54442D18)
#: random draws per probe (on top of the specials' combinations)
_RANDOM = 4096
#: the specials crossed for three sources (all of them would be 100k cases)
_CROSSED_FOR_THREE = 16


def _battery(source_types, carry_in):
    """Raw bits for each source and the carry-in lanes of one probe: every
    combination of the special values (of the first few, for three
    sources), then random bits, some of them specials mixed in."""
    rng = np.random.default_rng(1234)
    specials = [np.array(_SPECIAL_64 if _wide(type_) else _SPECIAL_32, np.uint64)
                for type_ in source_types]
    if len(source_types) == 3:
        specials = [values[::max(1, len(values) // _CROSSED_FOR_THREE)] for values in specials]
    crossed = np.meshgrid(*specials, indexing="ij") if specials else []
    columns = []
    for type_, grid, values in zip(source_types, crossed, specials):
        dtype = np.uint64 if _wide(type_) else np.uint32
        draws = rng.integers(0, 1 << 64, _RANDOM, dtype=np.uint64, endpoint=False)
        picks = rng.integers(0, len(values), _RANDOM)
        mixed = np.where(rng.random(_RANDOM) < 0.3, values[picks], draws)
        columns.append(np.concatenate([grid.reshape(-1), mixed]).astype(dtype))
    count = len(columns[0]) if columns else _RANDOM
    carries = rng.random(count) < 0.5 if carry_in else None
    return columns, carries


def _wide(type_):
    return type_ in ("u64", "b64", "i64", "f64")


def probe(semantic):
    """None when ``semantic``'s scalar form gives the interpreter's result
    (and carry) bits on every value of the battery, else why not."""
    flags = semantic.flags
    compare = semantic.kind == "vcmp"
    sources = tuple(semantic.srcs)
    result = "mask" if compare else semantic.dst
    if any(type_ not in LANE_VIEWS for type_ in sources) or \
            (not compare and result not in LANE_RESULTS):
        return "a 16-bit or packed operand"
    carry_in = bool(flags.get("carry_in"))
    carry_out = bool(flags.get("carry_out"))
    columns, carries = _battery(sources, carry_in)
    try:
        lanes = _run_scalar_form(semantic, columns, carries, compare, carry_out)
    except Exception as error:          # Numba's typing and lowering errors
        first = str(error).strip().splitlines()
        return f"Numba cannot compile its scalar form: {first[0] if first else error}"
    expected = _run_as_interpreted(semantic, columns, carries, compare, carry_out)
    for got, want, what in zip(lanes, expected, ("result", "carry")):
        differs = np.flatnonzero(got != want)
        if differs.size:
            k = differs[0]
            values = ", ".join(hex(int(column[k])) for column in columns)
            return f"its scalar form's {what} differs at sources ({values})"
    return None


def _run_scalar_form(semantic, columns, carries, compare, carry_out):
    """The scalar form over the battery, one lane at a time, reading its
    sources through the helpers a block uses."""
    from . import kernels as rt
    from .jitcopy import compiled_copy
    args = [f"{LANE_VIEWS[type_]}(s{k}[i])" for k, type_ in enumerate(semantic.srcs)]
    if carries is not None:
        args.append("c[i]")
    lines = ["def run(s0, s1, s2, c, out, carry):",
             "    for i in range(out.shape[0]):",
             f"        r = f({', '.join(args)})"]
    if carry_out:           # (truth tested as a block tests it)
        lines += ["        r, k = r", "        if k:", "            carry[i] = True"]
    lines += ["        if r:", "            out[i] = True"] if compare else \
        [f"        out[i] = {LANE_RESULTS[semantic.dst]}(r)"]
    namespace = {"f": compiled_copy(semantic.fn, semantic.op, lanes=True), "rt": rt, "np": np}
    exec("\n".join(lines), namespace)
    run = njit(error_model="numpy")(namespace["run"])
    count = len(columns[0])
    out = np.zeros(count, np.bool_ if compare else
                   (np.uint64 if _wide(semantic.dst) else np.uint32))
    carry = np.zeros(count, np.bool_)
    padded = columns + [np.zeros(1, np.uint32)] * (3 - len(columns))
    run(*padded, carries if carries is not None else np.zeros(1, np.bool_), out, carry)
    return out, carry


def _run_as_interpreted(semantic, columns, carries, compare, carry_out):
    """The semantic over the battery as the interpreter runs it: NumPy
    arrays of the typed sources, the result converted by ``ops.to_bits``."""
    from ..core import operands as ops
    count = len(columns[0])
    args = [ops.typed(column.reshape(1, -1), type_)
            for column, type_ in zip(columns, semantic.srcs)]
    if carries is not None:
        args.append(carries.reshape(1, -1))
    with np.errstate(all="ignore"):
        value = semantic.fn(*args)
        carry = np.zeros(count, np.bool_)
        if carry_out:
            value, carry = value
            carry = np.broadcast_to(np.asarray(carry, np.bool_), (1, count)).reshape(-1)
        if compare:
            bits = np.broadcast_to(np.asarray(value, np.bool_), (1, count)).reshape(-1)
        else:
            bits = np.broadcast_to(ops.to_bits(value, semantic.dst), (1, count)).reshape(-1)
    return bits, carry

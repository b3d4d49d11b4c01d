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
the interpreter's bits: ``probe`` compiles the scalar form (as
scalar_numpy.py sets it up) in a function that reads its sources as a block
would, runs it over a battery of values (zeros, ones, sign and carry
boundaries, shift counts, infinities, NaNs, denormals, random bits) and
compares every result, carry and SCC bit with the semantic run as the
interpreter runs it. The verdict is kept in the block
cache (like refused ops), so each op is probed once per machine and
version of the sources. Anything else, or an op whose scalar form Numba
cannot type, stays on the array path.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core import operands as ops
from .codegen import LANE_RESULTS, LANE_VIEWS
from .jitcopy import compiled_copy

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


def _battery(widths):
    """A column of raw bits (a bool column for width 0: a carry or SCC) for
    each input of one probe: every combination of the special values (of a
    few of them, for three inputs), then random bits, some of them specials
    mixed in."""
    rng = np.random.default_rng(1234)
    values = [np.array(_SPECIAL_64 if bits == 64 else _SPECIAL_32 if bits else (0, 1), np.uint64)
              for bits in widths]
    if len(widths) >= 3:
        values = [v[::max(1, len(v) // _CROSSED_FOR_THREE)] for v in values]
    crossed = np.meshgrid(*values, indexing="ij")
    columns = []
    for bits, grid, specials in zip(widths, crossed, values):
        draws = rng.integers(0, 1 << 64, _RANDOM, dtype=np.uint64, endpoint=False)
        picks = rng.integers(0, len(specials), _RANDOM)
        mixed = np.where(rng.random(_RANDOM) < 0.3, specials[picks], draws)
        column = np.concatenate([grid.reshape(-1), mixed])
        columns.append(column & np.uint64(1) != 0 if bits == 0 else
                       column.astype(np.uint64 if bits == 64 else np.uint32))
    return columns


def _wide(type_):
    return ops.bits_of(type_) == 64


class _Form:
    """How a semantic's scalar form is called and what it gives back: its
    inputs ((bits of the battery column: 32, 64 or 0 for bool, the
    expression reading one value of it, with ``{}`` for the value), its
    result (the kernels.py converter to bits, or None), whether it also
    gives a flag (carry or SCC) and whether the result is a compare's truth."""

    def __init__(self, inputs, result=None, flag=False, compare=False):
        self.inputs, self.result, self.flag, self.compare = inputs, result, flag, compare


def _form(semantic):
    """The _Form of a VALU, compare or SALU semantic, a saveexec's combine
    or a conditional branch's predicate, or why it has none."""
    flags = semantic.flags
    if semantic.kind == "builder":
        if "combine" in flags:          # new EXEC = combine(source, old EXEC)
            return _Form([(64, "rt.lane_u64({})")] * 2, "rt.lane_bits_u64")
        tests = flags.get("tests")
        if tests == "scc":
            return _Form([(0, "{}")], compare=True)
        if tests in ("vcc", "exec"):    # an SGPR pair's halves OR'ed
            return _Form([(32, "rt.lane_u32({})")], compare=True)
        return "no scalar form"
    sources = tuple(semantic.srcs)
    if any(type_ not in LANE_VIEWS for type_ in sources):
        return "a 16-bit or packed operand"
    if semantic.kind in ("valu", "vcmp"):
        inputs = [(64 if _wide(type_) else 32, LANE_VIEWS[type_] + "({})") for type_ in sources]
        if flags.get("lane_fn"):        # a lane's number, 0-63
            inputs.append((32, "np.uint64({} & np.uint32(63))"))
        if flags.get("carry_in"):
            inputs.append((0, "{}"))
        if semantic.kind == "vcmp":
            return _Form(inputs, compare=True)
        if semantic.dst not in LANE_RESULTS:
            return "a 16-bit or packed result"
        return _Form(inputs, LANE_RESULTS[semantic.dst], bool(flags.get("carry_out")))
    # SALU: raw bits in and out, as the interpreter's getters and writer move them
    inputs = [(64, "rt.lane_u64({})") if _wide(type_) else (32, "rt.lane_u32({})")
              for type_ in sources]
    has_dst = semantic.dst not in (None, "none")
    if has_dst and semantic.dst not in LANE_RESULTS:
        return "a 16-bit result"
    wide = has_dst and _wide(semantic.dst)
    if flags.get("scc_in"):
        inputs.append((0, "{}"))
    if flags.get("dst_in"):
        inputs.append((64, "rt.lane_u64({})") if wide else (32, "rt.lane_u32({})"))
    result = ("rt.lane_bits_u64" if wide else "rt.lane_bits_u32") if has_dst else None
    return _Form(inputs, result, bool(flags.get("scc_out")))


def probe(semantic):
    """None when ``semantic``'s scalar form gives the interpreter's result,
    carry and SCC bits on every value of the battery, else why not."""
    form = _form(semantic)
    if isinstance(form, str):
        return form
    columns = _battery([bits for bits, _ in form.inputs])
    try:
        got = _run_scalar_form(semantic, form, columns)
    except Exception as error:          # Numba's typing and lowering errors
        first = str(error).strip().splitlines()
        return f"Numba cannot compile its scalar form: {first[0] if first else error}"
    expected = _run_as_interpreted(semantic, form, columns)
    for mine, theirs, what in zip(got, expected, ("result", "carry or SCC")):
        differs = np.flatnonzero(mine != theirs)
        if differs.size:
            k = differs[0]
            values = ", ".join(hex(int(column[k])) for column in columns)
            return f"its scalar form's {what} differs at inputs ({values})"
    return None


def _run_scalar_form(semantic, form, columns):
    """The scalar form over the battery, one value at a time, read and
    written through the helpers a block uses, truth tested as a block tests it."""
    from . import kernels as rt
    names = [f"x{k}" for k in range(len(columns))]
    args = [read.format(f"{name}[i]") for name, (_, read) in zip(names, form.inputs)]
    lines = [f"def run({', '.join(names + ['out', 'flag'])}):",
             "    for i in range(out.shape[0]):",
             f"        r = f({', '.join(args)})"]
    if form.flag:
        lines += ["        r, k = r", "        if k:", "            flag[i] = True"]
    if form.compare:
        lines += ["        if r:", "            out[i] = True"]
    elif form.result is not None:
        lines.append(f"        out[i] = {form.result}(r)")
    namespace = {"f": compiled_copy(_subject(semantic), semantic.op, lanes=True), "rt": rt,
                 "np": np}
    exec("\n".join(lines), namespace)
    run = njit(error_model="numpy")(namespace["run"])
    count = len(columns[0])
    wide = form.result is not None and "64" in form.result
    out = np.zeros(count, np.bool_ if form.compare or form.result is None else
                   np.uint64 if wide else np.uint32)
    flag = np.zeros(count, np.bool_)
    run(*columns, out, flag)
    return out, flag


def _run_as_interpreted(semantic, form, columns):
    """The semantic over the battery as the interpreter runs it: NumPy
    arrays of the typed sources (of raw bits, for SALU), the result turned
    into bits as the interpreter's writers do."""
    from ..core.formats import _scalar_bits
    count = len(columns[0])
    vector = semantic.kind in ("valu", "vcmp")
    args = [column.reshape(1, -1) if vector else column for column in columns]
    if vector:
        args[:len(semantic.srcs)] = [ops.typed(arg, type_)
                                     for arg, type_ in zip(args, semantic.srcs)]
        if semantic.flags.get("lane_fn"):
            lane = len(semantic.srcs)
            args[lane] = (args[lane] & np.uint32(63)).astype(np.uint64)
    with np.errstate(all="ignore"):
        value = _subject(semantic)(*args)
        flag = np.zeros(count, np.bool_)
        if form.flag:
            value, flag = value
            flag = _spread(np.asarray(flag, np.bool_), count)
        if form.compare:
            bits = _spread(np.asarray(value, np.bool_), count)
        elif form.result is None:
            bits = np.zeros(count, np.bool_)
        elif vector:
            bits = _spread(ops.to_bits(value, semantic.dst), count)
        else:
            bits = _spread(_scalar_bits(value, "64" in form.result), count)
    return bits, flag


def _subject(semantic):
    """The function a scalar form is made of: the semantic's, or a
    builder's ``combine`` or ``taken`` (what ``jitcopy.semantic`` compiles)."""
    if semantic.kind == "builder":
        facts = semantic.flags
        return facts["combine"] if "combine" in facts else facts["taken"]
    return semantic.fn


def _spread(values, count):
    """``values`` (a scalar, (count,) or (1, count)) as (count,)."""
    return np.broadcast_to(values, (1, count)).reshape(-1)

"""Shared machinery of the memory instructions: byte movement, atomics, faults.

The semantics of each family (``smem``, ``ds``,
``vmem``) reduce an instruction to *pieces*: a set of active
lanes, the backend they reach (device memory, or the batch's LDS viewed as
one flat byte array) and, per lane, the address of each contiguous chunk of
the access with an in-range flag.  This module moves bytes for pieces and
applies atomics in the one deterministic order the executor promises:
lanes of the first wave in lane order, then the next wave, and so on; each
returned pre-op value reflects that order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import MemoryFault
from .valu_float import ieee_max, ieee_min

_U32 = np.uint32
_U64 = np.uint64


#: Access sizes an LDS access moves as whole words when every address is aligned.
_WORD_TYPES = {4: (np.uint32, 2), 8: (np.uint64, 3)}


class ByteArrayMemory:
    """A flat ``uint8`` array with DeviceMemory's gather/scatter interface (LDS).

    Aligned dword/qword accesses (nearly all of them) index a typed view of
    the array once instead of building an (n, nbytes) byte index matrix.
    """

    def __init__(self, data: np.ndarray):
        self.data = data.reshape(-1)
        self._views = {}

    def word_view(self, nbytes):
        """The array as ``nbytes``-wide words (4 or 8), created once."""
        view = self._views.get(nbytes)
        if view is None:
            usable = self.data.size // nbytes * nbytes
            view = self._views[nbytes] = self.data[:usable].view(_WORD_TYPES[nbytes][0])
        return view

    def _words(self, addresses, nbytes):
        """(typed view, word indices) when every address is ``nbytes``-aligned, else None."""
        kind = _WORD_TYPES.get(nbytes)
        if kind is None or not addresses.size or \
                int(np.bitwise_or.reduce(addresses, axis=None)) & (nbytes - 1):
            return None
        return self.word_view(nbytes), addresses >> kind[1]

    def gather(self, addresses, nbytes):
        addresses = np.asarray(addresses, np.int64)
        words = self._words(addresses, nbytes)
        if words is not None:
            return np.take(words[0], words[1]).view(np.uint8).reshape(-1, nbytes)
        return self.data[addresses[:, None] + np.arange(nbytes, dtype=np.int64)]

    def scatter(self, addresses, data):
        addresses = np.asarray(addresses, np.int64)
        nbytes = data.shape[1]
        words = self._words(addresses, nbytes)
        if words is not None:
            view, index = words
            view[index] = np.ascontiguousarray(data).view(view.dtype)[:, 0]
            return
        self.data[addresses[:, None] + np.arange(nbytes, dtype=np.int64)] = data


def lds_memory(state) -> ByteArrayMemory:
    """The batch's LDS rows as one byte array: address = row * size + offset."""
    cached = state.lds_view
    if cached is None or cached[0] is not state.lds:
        cached = state.lds_view = (state.lds, ByteArrayMemory(state.lds))
    return cached[1]


@dataclass
class Piece:
    """Lanes of one access going to one backend.

    ``lanes``: (n, 64) bool, the lanes taking part (a subset of EXEC);
    ``addresses``: (k, chunks) uint64 for the k selected lanes in row-major
    order; ``valid``: (k, chunks) bool, False for out-of-range chunks (loads
    read zero, stores and atomics are dropped); ``chunk_bytes``: bytes per chunk.
    """

    backend: object
    lanes: np.ndarray
    addresses: np.ndarray
    valid: np.ndarray
    chunk_bytes: int


def _fault_wave(piece: Piece, address: int) -> int:
    """Index (within the group) of the first wave whose lane hit ``address``."""
    rows = np.flatnonzero((piece.addresses == np.uint64(address)).any(axis=1))
    waves = np.nonzero(piece.lanes)[0]
    return int(waves[rows[0]]) if rows.size else int(waves[0]) if waves.size else 0


def _guard(ctx, piece, action):
    """Run ``action``; turn a MemoryFault into a KernelError naming the wave."""
    try:
        return action()
    except MemoryFault as fault:
        if ctx is None:
            raise
        wave = _fault_wave(piece, fault.address)
        raise ctx.fault(f"memory fault: {fault}", address=fault.address,
                        wave_index=wave) from None


# ------------------------------------------------------------- loads, stores
def watched(ctx, pieces, write, atomic):
    """Tell the state's memory watcher (a hazard checker) of an access, if one watches."""
    watch = ctx.state.memory_watch if ctx is not None else None
    if watch is not None:
        for piece in pieces:
            watch(ctx, piece, write, atomic)


def load_pieces(ctx, pieces, shape, nbytes) -> np.ndarray:
    """Bytes of every lane's access: (n, 64, nbytes) uint8, zero where not read."""
    watched(ctx, pieces, False, False)
    out = np.zeros(shape + (nbytes,), np.uint8)
    for piece in pieces:
        if not piece.lanes.any():
            continue
        rows = piece.addresses.shape[0]
        valid = piece.valid
        if valid.all():
            addresses = piece.addresses.reshape(-1)
            raw = _guard(ctx, piece, lambda: piece.backend.gather(addresses, piece.chunk_bytes))
        else:
            raw = np.zeros(valid.shape + (piece.chunk_bytes,), np.uint8)
            if valid.any():
                addresses = piece.addresses[valid]
                raw[valid] = _guard(ctx, piece, lambda: piece.backend.gather(
                    addresses, piece.chunk_bytes))
        raw = raw.reshape(rows, -1)
        if piece.lanes.all() and raw.shape[1] == nbytes:
            out = raw.reshape(shape + (nbytes,))
        else:
            out[piece.lanes] = raw[:, :nbytes]
    return out


def store_pieces(ctx, pieces, data: np.ndarray) -> None:
    """Write ``data`` ((n, 64, nbytes) uint8) for every valid chunk of the pieces."""
    watched(ctx, pieces, True, False)
    for piece in pieces:
        chunks = piece.addresses.shape[1]
        if chunks == 1 and piece.chunk_bytes == data.shape[-1] and \
                piece.addresses.shape[0] == data.shape[0] * data.shape[1] and \
                piece.valid.all():
            # every lane stores one whole chunk: the register bytes as they are
            rows = data.reshape(-1, piece.chunk_bytes)
            addresses = piece.addresses.reshape(-1)
            _guard(ctx, piece, lambda: piece.backend.scatter(addresses, rows))
            continue
        if not piece.valid.any():
            continue
        lane_bytes = data[piece.lanes]
        pad = chunks * piece.chunk_bytes - lane_bytes.shape[1]
        if pad > 0:
            lane_bytes = np.pad(lane_bytes, ((0, 0), (0, pad)))
        rows = lane_bytes.reshape(-1, chunks, piece.chunk_bytes)[piece.valid]
        addresses = piece.addresses[piece.valid]
        _guard(ctx, piece, lambda: piece.backend.scatter(addresses, rows))


# ---------------------------------------------------------------- conversion
def words_to_bytes(words: np.ndarray, nbytes: int) -> np.ndarray:
    """(n, 64, dwords) uint32 register contents -> (n, 64, nbytes) uint8."""
    words = np.ascontiguousarray(words, dtype=_U32)
    return words.view(np.uint8).reshape(words.shape[:-1] + (-1,))[..., :nbytes]


def bytes_to_words(data: np.ndarray, *, signed: bool = False) -> np.ndarray:
    """(..., nbytes) uint8 -> (..., dwords) uint32, sub-dword values extended."""
    nbytes = data.shape[-1]
    if nbytes % 4 == 0:
        return np.ascontiguousarray(data).view(_U32)
    kind = {1: np.int8 if signed else np.uint8, 2: np.int16 if signed else np.uint16}[nbytes]
    value = np.ascontiguousarray(data).view(kind)
    return value.astype(np.int32).astype(_U32) if signed else value.astype(_U32)


def join64(words: np.ndarray) -> np.ndarray:
    """(..., 2) uint32 -> (...,) uint64, low dword first."""
    words = np.asarray(words, _U32)
    return words[..., 0].astype(_U64) | (words[..., 1].astype(_U64) << _U64(32))


def split64(values: np.ndarray) -> np.ndarray:
    """(...,) uint64 -> (..., 2) uint32."""
    values = np.asarray(values, _U64)
    return np.stack([(values & _U64(0xFFFFFFFF)).astype(_U32),
                     (values >> _U64(32)).astype(_U32)], axis=-1)


# -------------------------------------------------------------------- atomics
def as_float(values, width):
    """An atomic's values (uint32/uint64 by ``width``) as the float type as
    wide (compiled copies: ``primitives.view_as_width``)."""
    return values.view(np.float32 if width == 4 else np.float64)


def as_signed(values, width):
    """An atomic's values as the signed type as wide (see ``as_float``)."""
    return values.view(np.int32 if width == 4 else np.int64)


def _fmin(a, b, width):
    """The float min atomics: memory's value and the data ordered as v_min
    orders them (``valu_float.ieee_min``: a number beats a NaN, -0 is below
    +0), so that the result does not hang on how NumPy or Numba orders
    signed zeros."""
    fa, fb = as_float(a, width), as_float(b, width)
    return ieee_min(fa, fb).astype(fa.dtype).view(a.dtype)


def _fmax(a, b, width):
    """The float max atomics (see ``_fmin``)."""
    fa, fb = as_float(a, width), as_float(b, width)
    return ieee_max(fa, fb).astype(fa.dtype).view(a.dtype)


def _fadd(a, b, width):
    """(Its callers ignore floating-point errors: ``_atomic_serial``,
    ``_atomic_chunked``; so does its compiled copy, which has no errstate.)"""
    return (as_float(a, width) + as_float(b, width)).view(a.dtype)


def _pk_fadd16(a, b, width):
    """Two packed f16 additions in one dword (global/buffer_atomic_pk_add_f16),
    its errors ignored by its callers as ``_fadd``'s."""
    halves = (a.view(np.uint16).reshape(-1, 2).view(np.float16)
              + b.view(np.uint16).reshape(-1, 2).view(np.float16))
    return halves.view(np.uint32).reshape(a.shape)


def _inc(old, data, width):
    return np.where(old >= data, old.dtype.type(0), old + old.dtype.type(1))


def _dec(old, data, width):
    return np.where((old == 0) | (old > data), data, old - old.dtype.type(1))


def _cmpswap(old, data, width, data2):
    """Memory gets ``data`` (the source) when it equals ``data2`` (the compare)."""
    return np.where(old == data2, data, old)


def _cmpswap_float(old, data, width, data2):
    return np.where(as_float(old, width) == as_float(data2, width), data, old)


def _mskor(old, data, width, data2):
    return (old & ~data) | data2


def _wrap(old, data, width, data2):
    """ds_wrap_rtn_b32: subtract DATA while that stays non-negative, else add DATA2."""
    return np.where(old >= data, old - data, old + data2)


#: Atomic operation name -> fn(old, data, width[, data2]) -> new value.
#: Values are unsigned arrays of the access width (uint32 or uint64).
ATOMIC_OPS = {
    "add": lambda o, d, w: o + d,
    "sub": lambda o, d, w: o - d,
    "rsub": lambda o, d, w: d - o,
    "swap": lambda o, d, w: d,
    "and": lambda o, d, w: o & d,
    "or": lambda o, d, w: o | d,
    "xor": lambda o, d, w: o ^ d,
    "umin": lambda o, d, w: np.minimum(o, d),
    "umax": lambda o, d, w: np.maximum(o, d),
    "smin": lambda o, d, w: np.minimum(as_signed(o, w), as_signed(d, w)).view(o.dtype),
    "smax": lambda o, d, w: np.maximum(as_signed(o, w), as_signed(d, w)).view(o.dtype),
    "fmin": _fmin,
    "fmax": _fmax,
    "fadd": _fadd,
    "pk_fadd16": _pk_fadd16,
    "inc": _inc,
    "dec": _dec,
    "cmpswap": _cmpswap,
    "fcmpswap": _cmpswap_float,
    "mskor": _mskor,
    "wrap": _wrap,
}
#: Operations taking a second data operand.
TWO_OPERAND_ATOMICS = frozenset({"cmpswap", "fcmpswap", "mskor", "wrap"})
#: The compare-and-swaps among them: memory gets the first (the source) where
#: it equals the second (the compare).
COMPARE_AND_SWAPS = frozenset({"cmpswap", "fcmpswap"})


def _occurrence_rank(addresses: np.ndarray) -> np.ndarray:
    """For each element, how many earlier elements have the same address."""
    order = np.argsort(addresses, kind="stable")
    sorted_addresses = addresses[order]
    starts = np.r_[True, sorted_addresses[1:] != sorted_addresses[:-1]]
    group_start = np.maximum.accumulate(np.where(starts, np.arange(order.size), 0))
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size) - group_start
    return rank


def atomic_serial(backend, addresses, op: str, width: int, data, data2=None):
    """Apply ``op`` at each address in array order; return the pre-op values.

    Lanes hitting distinct addresses are applied together; a lane whose
    address an earlier lane also hit waits for a later round, so each lane
    sees exactly the value left by the lanes before it.

    In a worker process of a dispatch (``exec.core.workers``) the backend's
    ``atomic_guard`` is held around the read-modify-write, so that the other
    workers' atomics on those addresses come wholly before or after it. Only
    values that change are written back (``_store_changed``): a failed
    compare-and-swap then cannot undo another process's plain store.
    """
    guard = getattr(backend, "atomic_guard", None)
    if guard is None:
        return _atomic_serial(backend, addresses, op, width, data, data2)
    with guard(addresses):
        return _atomic_serial(backend, addresses, op, width, data, data2)


def _store_changed(backend, addresses, new, before):
    """Write ``new`` at ``addresses`` where it differs from ``before`` (what was read)."""
    changed = new != before
    if not changed.all():
        addresses, new = addresses[changed], new[changed]
        if not addresses.size:
            return
    backend.scatter(addresses, np.ascontiguousarray(new).reshape(-1, 1).view(np.uint8))


def _atomic_serial(backend, addresses, op, width, data, data2):
    addresses = np.asarray(addresses, _U64)
    dtype = _U32 if width == 4 else _U64
    data = np.asarray(data, dtype)
    data2 = None if data2 is None else np.asarray(data2, dtype)
    old = np.zeros(addresses.size, dtype)
    if addresses.size == 0:
        return old
    if op in _SUMMING:
        return _atomic_sum(backend, addresses, op, width, data, dtype)
    fn = ATOMIC_OPS[op]
    if op in _ASSOCIATIVE:
        return _atomic_scan(backend, addresses, fn, width, data, dtype)
    if op in _CHAINED:
        return _atomic_chain(backend, addresses, fn, width, data, data2, dtype)
    rank = _occurrence_rank(addresses)
    for round_number in range(int(rank.max()) + 1):
        rows = np.flatnonzero(rank == round_number)
        current = backend.gather(addresses[rows], width).view(dtype)[:, 0]
        args = (current, data[rows], width) + (() if data2 is None else (data2[rows],))
        with np.errstate(all="ignore"):
            new = np.asarray(fn(*args), dtype)
        _store_changed(backend, addresses[rows], new, current)
        old[rows] = current
    return old


#: Integer atomics whose serial result is a prefix sum: done in one pass.
_SUMMING = frozenset({"add", "sub"})


def _atomic_sum(backend, addresses, op, width, data, dtype):
    """add/sub with any number of lanes per address, without serial rounds.

    Each lane's pre-op value is the memory value plus (or minus) the sum of
    the data of the earlier lanes that hit the same address, modulo 2**bits.
    """
    order = np.argsort(addresses, kind="stable")
    sorted_addresses = addresses[order]
    starts = np.flatnonzero(np.r_[True, sorted_addresses[1:] != sorted_addresses[:-1]])
    unique = sorted_addresses[starts]
    memory = backend.gather(unique, width).view(dtype)[:, 0]
    inclusive = np.cumsum(data[order], dtype=dtype)
    before_group = np.r_[dtype(0), inclusive[:-1]][starts]
    group_of = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, order.size]))
    earlier = inclusive - data[order] - before_group[group_of]
    totals = np.add.reduceat(data[order], starts, dtype=dtype)
    if op == "add":
        old_sorted = memory[group_of] + earlier
        new = memory + totals
    else:
        old_sorted = memory[group_of] - earlier
        new = memory - totals
    _store_changed(backend, unique, np.asarray(new, dtype), memory)
    old = np.empty(addresses.size, dtype)
    old[order] = old_sorted
    return old


#: Atomics whose update is an associative combine ``(memory op a) op b``:
#: computed for any contention with a segmented prefix scan.
_ASSOCIATIVE = frozenset({"and", "or", "xor", "umin", "umax", "smin", "smax", "swap",
                          "fmin", "fmax"})


def _atomic_scan(backend, addresses, fn, width, data, dtype):
    """Serial-order results of an associative atomic via a segmented scan.

    Lanes are grouped by address (stable, so serial order is kept); a
    doubling (Hillis-Steele) scan gives each lane the combination of its
    group's data up to itself in log2(group size) vectorised steps.  A lane's
    pre-op value is the memory value combined with the data of the lanes
    before it.
    """
    order = np.argsort(addresses, kind="stable")
    sorted_addresses = addresses[order]
    starts = np.r_[True, sorted_addresses[1:] != sorted_addresses[:-1]]
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    memory = backend.gather(sorted_addresses[first], width).view(dtype)[:, 0]
    scan = np.asarray(data, dtype)[order].copy()
    longest = int(np.diff(np.r_[first, order.size]).max())
    shift = 1
    while shift < longest:
        same = group[shift:] == group[:-shift]
        combined = np.asarray(fn(scan[:-shift], scan[shift:], width), dtype)
        scan[shift:] = np.where(same, combined, scan[shift:])
        shift *= 2
    before = memory[group]
    previous = np.r_[scan[:1], scan[:-1]]
    old_sorted = np.where(starts, before, np.asarray(fn(before, previous, width), dtype))
    last = np.r_[first[1:], order.size] - 1
    final = np.asarray(fn(memory, scan[last], width), dtype)
    _store_changed(backend, sorted_addresses[first], final, memory)
    old = np.empty(addresses.size, dtype)
    old[order] = old_sorted
    return old


#: Atomics that under contention mostly leave memory as it is (a compare-and-swap
#: loop: every lane compares with the value it read, one of them wins): done by
#: following the changes, not the lanes.
_CHAINED = COMPARE_AND_SWAPS


def _atomic_chain(backend, addresses, fn, width, data, data2, dtype):
    """Serial-order results of an atomic, one vectorised pass per change of memory.

    Lanes are grouped by address (stable, so serial order is kept).  Each pass
    applies every unresolved lane to its group's current value; the lanes up
    to each group's first one that changes the value are resolved (their
    pre-op value is the current one) and that lane's result becomes the
    group's value.  Passes = the most changes at one address + 1: two for a
    contended compare-and-swap, whose losers change nothing.
    """
    order = np.argsort(addresses, kind="stable")
    sorted_addresses = addresses[order]
    starts = np.r_[True, sorted_addresses[1:] != sorted_addresses[:-1]]
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    current = np.array(backend.gather(sorted_addresses[first], width).view(dtype)[:, 0])
    read = current.copy()
    data = np.asarray(data, dtype)[order]
    data2 = None if data2 is None else np.asarray(data2, dtype)[order]
    count = order.size
    index = np.arange(count)
    old_sorted = np.zeros(count, dtype)
    pending = np.ones(count, bool)
    while pending.any():
        value = current[group]
        args = (value, data, width) + (() if data2 is None else (data2,))
        with np.errstate(all="ignore"):
            new = np.asarray(fn(*args), dtype)
        changes = np.where(pending & (new != value), index, count)
        first_change = np.minimum.reduceat(changes, first)
        resolved = pending & (index <= first_change[group])
        old_sorted[resolved] = value[resolved]
        pending &= ~resolved
        changed = first_change < count
        current[changed] = new[first_change[changed]]
    _store_changed(backend, sorted_addresses[first], current, read)
    old = np.empty(count, dtype)
    old[order] = old_sorted
    return old


def atomic_pieces(ctx, pieces, shape, op: str, width: int, data, data2=None):
    """Run an atomic over pieces; returns (n, 64) pre-op values (zero if not done).

    ``data`` / ``data2`` are (n, 64) arrays of the access width.  Atomics are
    all-or-nothing per lane: a lane with any invalid chunk does nothing.
    """
    watched(ctx, pieces, True, True)
    dtype = _U32 if width == 4 else _U64
    old = np.zeros(shape, dtype)
    for piece in pieces:
        valid = piece.valid.all(axis=1)
        if not valid.any():
            continue
        lane_rows = np.zeros(shape, bool)
        lane_rows[piece.lanes] = valid
        second = None if data2 is None else data2[lane_rows]
        if piece.chunk_bytes < width:           # lane-private, split into chunks
            addresses = piece.addresses[valid]
            result = _guard(ctx, piece, lambda: _atomic_chunked(
                piece.backend, addresses, piece.chunk_bytes, op, width, data[lane_rows],
                second))
        else:
            addresses = piece.addresses[valid, 0]
            result = _guard(ctx, piece, lambda: atomic_serial(
                piece.backend, addresses, op, width, data[lane_rows], second))
        old[lane_rows] = result
    return old


def _atomic_chunked(backend, addresses, chunk_bytes, op, width, data, data2):
    """An atomic on values stored in scattered chunks (a 64-bit value in swizzled
    private memory).  Such addresses belong to one lane each, so no two lanes
    collide and one read-modify-write pass is exact (private memory: no other
    process touches it, so no guard is needed)."""
    dtype = _U32 if width == 4 else _U64
    flat = addresses.reshape(-1)
    current = backend.gather(flat, chunk_bytes).reshape(addresses.shape[0], width)
    current = np.ascontiguousarray(current).view(dtype)[:, 0]
    args = (current, np.asarray(data, dtype), width)
    if data2 is not None:
        args += (np.asarray(data2, dtype),)
    with np.errstate(all="ignore"):
        new = np.ascontiguousarray(np.asarray(ATOMIC_OPS[op](*args), dtype))
    backend.scatter(flat, new.view(np.uint8).reshape(-1, chunk_bytes))
    return current


# ------------------------------------------------------------- table facts
#: The generated tables of the memory families (isa/data/<file>: family).
MEMORY_TABLES = {"buffer.json": "buffer", "flat.json": "flat", "ds.json": "ds"}


@dataclass(frozen=True)
class TableFacts:
    """What a memory op's table row states, the same on every processor that has
    it: ``encoding`` (MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH, DS), the width in
    dwords of each VGPR operand (``vdata``, ``vdst``, ``data``, ``data0``...,
    and the address), and the memory properties: ``data_bytes`` of a sub-dword
    element (None: whole dwords), ``signed`` (a sub-dword load sign-extends),
    ``d16`` ("lo"/"hi": the VGPR half a d16 element or component takes)."""

    encoding: str
    widths: dict
    data_bytes: int = None
    signed: bool = False
    d16: str = None


def table_facts(name) -> TableFacts:
    """The row facts of the memory op ``name`` (its first row; KeyError for a
    name no memory table has)."""
    return _memory_rows()[name]


_ROWS = None


def _memory_rows():
    global _ROWS
    if _ROWS is None:
        from ...isa.families.mem_common import table_rows
        rows = {}
        for filename, family in MEMORY_TABLES.items():
            for row in table_rows(filename, family):
                if row.name in rows:
                    continue
                widths = {o["field"]: o["width"] for o in row.operands if o["kind"] == "vgpr"}
                for operand in row.get("operands_glc", ()):
                    widths.setdefault(operand["field"], operand["width"])
                rows[row.name] = TableFacts(row.encoding, widths, row.get("data_bytes"),
                                            bool(row.get("signed")), row.get("d16"))
        _ROWS = rows
    return _ROWS

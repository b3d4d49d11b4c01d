"""The compiled blocks' register plumbing, as Numba functions.

What the format wrappers of ``exec/core/formats.py`` do around a semantic
function (operand fetch, EXEC-masked write-back, lane masks in SGPR pairs,
MODE's f32 denormal flush), written once more for native code: the
generated blocks (``codegen.py``) call these between the semantic calls.
They work on the batch's arrays as ``state.py`` lays them out: ``vgpr``
(V, W, 64) uint32, ``sgpr`` (128, W) uint32, ``scc`` (W,) bool, for the
contiguous waves ``w0:w1``. Values of shape (1, 1) or (n, 1) broadcast over
waves and lanes as NumPy broadcasts them.

Importing this module imports Numba: only ``tier.py`` does, and only when
a block is to be compiled.
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype, njit, types
from numba.extending import intrinsic, overload

from ..addressing import (INDEX_STRIDE_TABLE, V_SHARP_FIELDS, range_checked_by_bytes,
                          record_stride, swizzle_element, swizzled_address)
from ..semantics.ds import permute_lane

_EXPONENT_F32 = np.uint32(0x7F800000)
_MAGNITUDE_F32 = np.uint32(0x7FFFFFFF)
_SIGN_F32 = np.uint32(0x80000000)


@njit(cache=True)
def read_mask(sgpr, code, w0, w1):
    """The lane mask in the SGPR pair at ``code`` as (n, 64) bool (EXEC's
    lanes at code 126)."""
    lanes = np.empty((w1 - w0, 64), np.bool_)
    for w in range(w0, w1):
        lo, hi = sgpr[code, w], sgpr[code + 1, w]
        for lane in range(32):
            lanes[w - w0, lane] = (lo >> np.uint32(lane)) & np.uint32(1) != 0
            lanes[w - w0, lane + 32] = (hi >> np.uint32(lane)) & np.uint32(1) != 0
    return lanes


@njit(cache=True)
def read_mask_into(lanes, full, sgpr, code, w0, w1):
    """``read_mask`` into the (n, 64) bool array ``lanes``, and into the (n,)
    bool array ``full`` whether each wave has every lane set (a lane loop
    runs such a wave without testing lanes, which LLVM vectorises: about 3x
    faster than a loop testing each lane); the lanes set."""
    count = 0
    for w in range(w0, w1):
        lo, hi = sgpr[code, w], sgpr[code + 1, w]
        every = lo == np.uint32(0xFFFFFFFF) and hi == np.uint32(0xFFFFFFFF)
        full[w - w0] = every
        if every:                       # (a fill: ~4x faster than the bits one by one)
            lanes[w - w0, :] = True
            count += 64
            continue
        for lane in range(32):
            low = (lo >> np.uint32(lane)) & np.uint32(1) != 0
            high = (hi >> np.uint32(lane)) & np.uint32(1) != 0
            lanes[w - w0, lane] = low
            lanes[w - w0, lane + 32] = high
            count += low + high
    return count


@njit(cache=True)
def write_mask(sgpr, code, w0, w1, values, lanes):
    """Write ``values & lanes`` (bool, broadcast to (n, 64)) as a lane mask to
    the SGPR pair at ``code``."""
    rows, cols = values.shape
    for w in range(w0, w1):
        lo = np.uint32(0)
        hi = np.uint32(0)
        r = w - w0 if rows > 1 else 0
        for lane in range(64):
            if values[r, lane if cols > 1 else 0] and lanes[w - w0, lane]:
                if lane < 32:
                    lo |= np.uint32(1) << np.uint32(lane)
                else:
                    hi |= np.uint32(1) << np.uint32(lane - 32)
        sgpr[code, w] = lo
        sgpr[code + 1, w] = hi


@njit(cache=True)
def vgpr_rows(vgpr, reg, w0, w1):
    """VGPR ``reg`` of waves w0:w1, (n, 64) uint32 (a view)."""
    return vgpr[reg, w0:w1]


@njit(cache=True)
def vgpr_pair(vgpr, reg, w0, w1):
    """VGPRs reg, reg+1 of waves w0:w1 as (n, 64) uint64."""
    n = w1 - w0
    out = np.empty((n, 64), np.uint64)
    for w in range(n):
        for lane in range(64):
            out[w, lane] = np.uint64(vgpr[reg, w0 + w, lane]) | \
                (np.uint64(vgpr[reg + 1, w0 + w, lane]) << np.uint64(32))
    return out


@njit(cache=True)
def sgpr_column(sgpr, code, w0, w1):
    """SGPR ``code`` of waves w0:w1 as (n, 1) uint32 (broadcast over lanes)."""
    out = np.empty((w1 - w0, 1), np.uint32)
    for w in range(w0, w1):
        out[w - w0, 0] = sgpr[code, w]
    return out


@njit(cache=True)
def sgpr_pair_column(sgpr, code, w0, w1):
    """SGPRs code, code+1 of waves w0:w1 as (n, 1) uint64."""
    out = np.empty((w1 - w0, 1), np.uint64)
    for w in range(w0, w1):
        out[w - w0, 0] = np.uint64(sgpr[code, w]) | (np.uint64(sgpr[code + 1, w]) << np.uint64(32))
    return out


@njit(cache=True)
def sgpr_row(sgpr, code, w0, w1):
    """SGPR ``code`` of waves w0:w1 as (n,) uint32 (a copy: SALU sources)."""
    return sgpr[code, w0:w1].copy()


@njit(cache=True)
def sgpr_pair_row(sgpr, code, w0, w1):
    """SGPRs code, code+1 of waves w0:w1 as (n,) uint64."""
    out = np.empty(w1 - w0, np.uint64)
    for w in range(w0, w1):
        out[w - w0] = np.uint64(sgpr[code, w]) | (np.uint64(sgpr[code + 1, w]) << np.uint64(32))
    return out


@njit(cache=True)
def scc_bits(scc, w0, w1):
    """SCC of waves w0:w1 as (n,) uint32 0/1 (SCC read as a source operand)."""
    out = np.empty(w1 - w0, np.uint32)
    for w in range(w0, w1):
        out[w - w0] = 1 if scc[w] else 0
    return out


@njit(cache=True)
def flush_f32(bits):
    """Denormal f32 bits -> signed zero (MODE.FP_DENORM f32 flushes): a
    flushed copy, or ``bits`` itself when it holds no denormal (the common
    case costs a scan, no allocation; callers never write the result)."""
    rows, cols = bits.shape
    for r in range(rows):
        for c in range(cols):
            value = bits[r, c]
            if value & _EXPONENT_F32 == 0 and value & _MAGNITUDE_F32 != 0:
                return _flushed_f32(bits)
    return bits


@njit(cache=True)
def _flushed_f32(bits):
    out = bits.copy()
    rows, cols = out.shape
    for r in range(rows):
        for c in range(cols):
            value = out[r, c]
            if value & _EXPONENT_F32 == 0 and value & _MAGNITUDE_F32 != 0:
                out[r, c] = value & _SIGN_F32
    return out


@njit(cache=True)
def store32(vgpr, reg, w0, w1, bits, lanes):
    """Write (broadcast) uint32 ``bits`` to VGPR ``reg`` of waves w0:w1 in ``lanes``."""
    rows, cols = bits.shape
    for w in range(w1 - w0):
        r = w if rows > 1 else 0
        for lane in range(64):
            if lanes[w, lane]:
                vgpr[reg, w0 + w, lane] = bits[r, lane if cols > 1 else 0]


@njit(cache=True)
def dpp_rows(vgpr, reg, w0, w1, sources, valid, lanes, bound_ctrl):
    """VGPR ``reg`` of waves w0:w1 with each lane read from its DPP source
    lane (``sources``); with ``bound_ctrl``, 0 where the lane has none
    (``valid``) or that lane is off in ``lanes`` (EXEC)."""
    n = w1 - w0
    out = np.empty((n, 64), np.uint32)
    for w in range(n):
        for lane in range(64):
            source = sources[lane]
            readable = valid[lane] and lanes[w, source]
            out[w, lane] = vgpr[reg, w0 + w, source] if readable or not bound_ctrl else \
                np.uint32(0)
    return out


@njit(cache=True)
def dpp_lanes(lanes, sources, valid, enabled, bound_ctrl):
    """The lanes a DPP op writes: EXEC's (``lanes``) in its enabled rows and
    banks, and without ``bound_ctrl`` only those whose source lane exists
    and is on."""
    n = lanes.shape[0]
    out = np.empty((n, 64), np.bool_)
    for w in range(n):
        for lane in range(64):
            out[w, lane] = lanes[w, lane] and enabled[lane] and \
                (bound_ctrl or (valid[lane] and lanes[w, sources[lane]]))
    return out


@njit(cache=True)
def store64(vgpr, reg, w0, w1, bits, lanes):
    """Write (broadcast) uint64 ``bits`` to VGPRs reg, reg+1 of waves w0:w1 in ``lanes``."""
    rows, cols = bits.shape
    for w in range(w1 - w0):
        r = w if rows > 1 else 0
        for lane in range(64):
            if lanes[w, lane]:
                value = bits[r, lane if cols > 1 else 0]
                vgpr[reg, w0 + w, lane] = np.uint32(value & np.uint64(0xFFFFFFFF))
                vgpr[reg + 1, w0 + w, lane] = np.uint32(value >> np.uint64(32))


@njit(cache=True)
def write_scc(scc, w0, w1, values):
    """SCC of waves w0:w1 = values != 0 (broadcast from (1,) or (n,))."""
    for w in range(w1 - w0):
        scc[w0 + w] = values[w if values.shape[0] > 1 else 0] != 0


@njit(cache=True)
def sstore32(sgpr, code, w0, w1, values):
    """SGPR ``code`` of waves w0:w1 = values as uint32 (broadcast from (1,) or (n,))."""
    for w in range(w1 - w0):
        sgpr[code, w0 + w] = np.uint32(values[w if values.shape[0] > 1 else 0])


@njit(cache=True)
def sstore64(sgpr, code, w0, w1, values):
    """SGPRs code, code+1 of waves w0:w1 = 64-bit values (broadcast)."""
    for w in range(w1 - w0):
        value = np.uint64(values[w if values.shape[0] > 1 else 0])
        sgpr[code, w0 + w] = np.uint32(value & np.uint64(0xFFFFFFFF))
        sgpr[code + 1, w0 + w] = np.uint32(value >> np.uint64(32))


def _lds_mover(nbytes):
    """The LDS move of ``nbytes`` (4, 8 or 16) a lane: one function per size (a
    loop over a size known only as the program runs cost the global moves
    ~3x, see ``_global_mover``)::

        lds_move(vgpr, sgpr, lds, wave_group, w0, w1, lanes, full, addr,
                 offsets, registers, write, gen9) -> bool

    A ds_read/ds_write(2) of whole dwords at ADDR + each of ``offsets``, to
    or from the VGPRs from each of ``registers``; False, having moved
    nothing, unless every active lane's access is aligned to its size and
    in range (the segment, and M0 before GFX9) without wrapping: the
    interpreter's fast path (semantics/ds.py), whose conditions make the
    general path's bytes the same. Each lane reads its addresses before it
    writes a VGPR (a lane writes only its own); writes go offset by offset,
    dword by dword, lane order last, as there (the highest lane wins a
    shared dword). Addresses are read again for the move, not kept: no
    array is made. ``full`` says which waves have every lane active."""
    align = nbytes - 1
    dwords = nbytes // 4

    @njit(cache=True)
    def lds_move(vgpr, sgpr, lds, wave_group, w0, w1, lanes, full, addr, offsets, registers,
                 write, gen9):
        size = lds.shape[1]
        if size & 3:
            return False
        n = w1 - w0
        for k in range(len(offsets)):
            if offsets[k] & align:
                return False
            for w in range(n):
                limit = _lds_limit(sgpr, size, w0 + w, gen9)
                every = full[w]
                for lane in range(64):
                    if every or lanes[w, lane]:
                        start = np.int64(vgpr[addr, w0 + w, lane]) + offsets[k]
                        if start + nbytes > limit or start & align:
                            return False
        words = lds.reshape(-1).view(np.uint32)
        if write:
            for k in range(len(offsets)):
                for d in range(dwords):
                    for w in range(n):
                        base = wave_group[w0 + w] * (size >> 2)
                        every = full[w]
                        for lane in range(64):
                            if every or lanes[w, lane]:
                                at = base + ((np.int64(vgpr[addr, w0 + w, lane]) + offsets[k]) >> 2)
                                words[at + d] = vgpr[registers[k] + d, w0 + w, lane]
            return True
        for w in range(n):
            base = wave_group[w0 + w] * (size >> 2)
            every = full[w]
            for lane in range(64):
                if every or lanes[w, lane]:
                    first = np.int64(vgpr[addr, w0 + w, lane])
                    at0 = base + ((first + offsets[0]) >> 2)
                    at1 = base + ((first + offsets[-1]) >> 2)
                    for k in range(len(offsets)):
                        at = at0 if k == 0 else at1
                        for d in range(dwords):
                            vgpr[registers[k] + d, w0 + w, lane] = words[at + d]
        return True
    return lds_move


@njit(cache=True, inline="always")
def _lds_limit(sgpr, size, w, gen9):
    """The bytes of its LDS segment wave ``w`` may access: the segment, and
    before GFX9 no more than M0 says."""
    return size if gen9 else min(size, np.int64(sgpr[124, w]))


lds_move_b32, lds_move_b64, lds_move_b128 = _lds_mover(4), _lds_mover(8), _lds_mover(16)


@njit(cache=True)
def lds_atomic_in_range(vgpr, sgpr, lds, w0, w1, lanes, full, addr, offset, width, gen9):
    """Whether every active lane's LDS atomic element (ADDR + ``offset``
    aligned down to ``width`` bytes, as ``ds._build_atomic`` aligns it) lies
    in the work-group's segment and, before GFX9, below M0's limit, and the
    segment keeps elements aligned: a compiled block's LDS atomic then
    gives the interpreter's bytes (``codegen._lds_atomic``)."""
    size = lds.shape[1]
    if size % width:
        return False
    for w in range(w1 - w0):
        limit = _lds_limit(sgpr, size, w0 + w, gen9)
        every = full[w]
        for lane in range(64):
            if every or lanes[w, lane]:
                start = (np.int64(vgpr[addr, w0 + w, lane]) + offset) // width * width
                if start + width > limit:
                    return False
    return True


@intrinsic
def _bytes_at(typingctx, address):
    """The host address ``address`` (uint64) as a byte pointer: an
    allocation's bytes, indexed without making an array (a Numba typed list
    of the allocations' arrays would cost ~1.4 s of compiling per process)."""
    signature = types.CPointer(types.uint8)(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.uint8)))
    return signature, codegen


@intrinsic
def dwords_at(typingctx, address):
    """``_bytes_at`` as a dword pointer, for a 4-aligned ``address``."""
    signature = types.CPointer(types.uint32)(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.uint32)))
    return signature, codegen


@njit(cache=True, inline="always")
def qword_at(address):
    """The qword at host ``address`` (8-aligned), from its two dwords."""
    words = dwords_at(address)
    return np.uint64(words[0]) | (np.uint64(words[1]) << np.uint64(32))


@njit(cache=True, inline="always")
def store_qword_at(address, bits):
    """Write the qword ``bits`` at host ``address`` (8-aligned), as two dwords."""
    words = dwords_at(address)
    words[0] = np.uint32(bits & np.uint64(0xFFFFFFFF))
    words[1] = np.uint32(bits >> np.uint64(32))


@njit(cache=True, inline="always")
def lane_address(vgpr, sgpr, addr, saddr, offset, w, lane):
    """A FLAT/GLOBAL lane's address: the VGPR pair at ``addr``, or with
    ``saddr`` >= 0 the SGPR pair there plus the VGPR at ``addr``; plus
    ``offset`` (64-bit two's complement). Inlined where it is called (Numba
    IR): called as a function, with the arrays passed member by member, it
    cost a move ~15 ns a lane."""
    if saddr >= 0:
        address = (np.uint64(sgpr[saddr, w]) | (np.uint64(sgpr[saddr + 1, w]) << np.uint64(32))) \
            + np.uint64(vgpr[addr, w, lane])
    else:
        address = np.uint64(vgpr[addr, w, lane]) | \
            (np.uint64(vgpr[addr + 1, w, lane]) << np.uint64(32))
    return address + offset


def _global_mover(dwords):
    """The FLAT or GLOBAL load or store of ``dwords`` (1-4) whole dwords per
    lane, one function per size (a loop over a size known only as the
    program runs cost the move ~3x: 2.7 against 1.1 ns a lane)::

        global_move(vgpr, sgpr, w0, w1, lanes, full, addr, saddr, offset,
                    data_reg, write, flat, memory) -> bool

    to VGPRs from ``data_reg`` or from them, at each lane's address
    (``lane_address``). ``memory`` is the device's address space as
    ``tier.memory_view`` lays it out; ``full`` says which waves have every
    lane active (``read_mask_into``).

    False, having moved nothing, unless every active lane's access lies in
    a mapped allocation (writable for a store) and, for FLAT, outside the
    LDS and private apertures: the interpreter then takes the instruction
    and its faults. Every address is checked before any register or byte is
    written, and read again for the move (a lane reads its own before it
    writes its VGPRs; no array is made); lanes move in wave and lane order,
    as the interpreter's gather and scatter do (the highest lane wins a
    shared byte).

    The usual case, every lane's dword-aligned access inside one allocation,
    is found from the lowest and highest address and moves through dword
    pointers with nothing tested per lane; any other goes lane by lane
    (``_global_move_lanes``)."""
    nbytes = np.uint64(4 * dwords)

    @njit(cache=True)
    def global_move(vgpr, sgpr, w0, w1, lanes, full, addr, saddr, offset, data_reg, write,
                    flat, memory):
        bases, ends, writable, addresses, apertures, _ = memory
        wave_bases = np.empty(w1 - w0, np.uint64)
        shared = np.empty(w1 - w0, np.bool_)
        lowest = np.uint64(0xFFFFFFFFFFFFFFFF)
        highest = np.uint64(0)
        bits = np.uint64(0)             # every address or-ed: their alignment
        for w in range(w0, w1):
            low, high, wave_bits, wave_bases[w - w0], shared[w - w0] = _wave_span(
                vgpr, sgpr, addr, saddr, offset, w, full[w - w0], lanes[w - w0])
            lowest = min(lowest, low)
            highest = max(highest, high)
            bits |= wave_bits
        if lowest > highest:
            return True                 # no lane active
        k = np.searchsorted(bases, lowest, side="right") - 1
        host = addresses[k] - bases[k]  # (two's complement)
        if k < 0 or ends[k] - bases[k] < nbytes or highest > ends[k] - nbytes or \
                (write and not writable[k]) or (host | bits) & np.uint64(3) or \
                (flat and _spans_aperture(lowest, highest, apertures)):
            return _global_move_lanes(vgpr, sgpr, w0, w1, lanes, addr, saddr, offset,
                                      data_reg, 4 * dwords, False, write, flat, memory)
        for w in range(w0, w1):
            base = host + wave_bases[w - w0]
            every = full[w - w0]
            if not shared[w - w0]:
                for lane in range(64):
                    if every or lanes[w - w0, lane]:
                        _move_dwords(vgpr, host + lane_address(vgpr, sgpr, addr, saddr, offset,
                                                                w, lane),
                                     w, lane, data_reg, dwords, write)
            elif every and _consecutive(vgpr, addr, w, nbytes):
                _move_run(vgpr, base + np.uint64(vgpr[addr, w, 0]), w, data_reg, dwords,
                          write)
            elif every:                 # (no test a lane: ~0.5 against ~1 ns)
                for lane in range(64):
                    _move_dwords(vgpr, base + np.uint64(vgpr[addr, w, lane]), w, lane,
                                 data_reg, dwords, write)
            else:
                for lane in range(64):
                    if lanes[w - w0, lane]:
                        _move_dwords(vgpr, base + np.uint64(vgpr[addr, w, lane]), w, lane,
                                     data_reg, dwords, write)
        return True
    return global_move


@njit(cache=True, inline="always")
def _spans_aperture(lowest, highest, apertures):
    """Whether a FLAT address from ``lowest`` to ``highest`` may fall in the
    LDS or private aperture (their 4 GiB windows, by high dword)."""
    low, high = lowest >> np.uint64(32), highest >> np.uint64(32)
    return (low <= apertures[0] and apertures[0] <= high) or \
        (low <= apertures[1] and apertures[1] <= high)


@njit(cache=True, inline="always")
def _consecutive(vgpr, addr, w, nbytes):
    """Whether every lane of wave ``w`` addresses the ``nbytes`` after lane
    0's, lane after lane (its low address dwords at ``addr`` step by
    ``nbytes``, compared without wrapping): the coalesced access of
    ``a[global id]``. (A loop to the array's lane count, which LLVM
    vectorises: ``_wave_span``.) A pass of its own: the same test folded
    into ``_wave_span``'s loop, in 64 or in 32 bits, kept that loop from
    vectorising (the 1M vector add, one process: 5.6-6.7 against 4.1-4.7 ms)."""
    first = np.uint64(vgpr[addr, w, 0])
    step = np.uint64(nbytes)
    same = True
    for lane in range(vgpr.shape[2]):
        same &= np.uint64(vgpr[addr, w, lane]) == first + step * np.uint64(lane)
    return same


@njit(cache=True, inline="always")
def _move_run(vgpr, at, w, data_reg, dwords, write):
    """Every lane of wave ``w``: ``dwords`` dwords each, lane after lane from
    host address ``at`` (4-aligned), to its VGPRs from ``data_reg`` or
    (``write``) from them: ``_move_dwords`` for consecutive lanes, as one
    run that LLVM vectorises (~0.2 against ~1 ns a lane, measured for the
    1M vector add's dword loads and stores). The lanes' bytes do not
    overlap, so their order does not matter."""
    words = dwords_at(at)
    if write:
        for lane in range(vgpr.shape[2]):
            for d in range(dwords):
                words[lane * dwords + d] = vgpr[data_reg + d, w, lane]
    else:
        for lane in range(vgpr.shape[2]):
            for d in range(dwords):
                vgpr[data_reg + d, w, lane] = words[lane * dwords + d]


@njit(cache=True, inline="always")
def _move_dwords(vgpr, at, w, lane, data_reg, dwords, write):
    """Lane ``lane`` of wave ``w``: ``dwords`` dwords at host address ``at``
    (4-aligned) to its VGPRs from ``data_reg``, or (``write``) from them."""
    words = dwords_at(at)
    if write:
        for d in range(dwords):
            words[d] = vgpr[data_reg + d, w, lane]
    else:
        for d in range(dwords):
            vgpr[data_reg + d, w, lane] = words[d]


@njit(cache=True, inline="always")
def _wave_span(vgpr, sgpr, addr, saddr, offset, w, every, lanes):
    """(lowest, highest, or-ed, base, shared) of the addresses of wave
    ``w``'s active lanes (``every``: all 64); (2**64 - 1, 0, 0, ...) with none.
    With ``shared``, each active lane addresses ``base`` plus its VGPR at
    ``addr`` (wrapping at 64 bits): an SGPR pair's address (``saddr`` >= 0)
    or a VGPR pair's whose high dwords all agree; the span then comes from
    the low dwords' minimum, maximum and or, in 32 bits.

    For a wave with every lane active the lane loop runs to
    ``vgpr.shape[2]`` (64, unknown to LLVM): LLVM unrolls a loop of 64 known
    turns, and the unrolled reductions stayed scalar; kept a loop, it
    vectorises them (AVX2 has no 64-bit unsigned minimum)."""
    small = np.uint32(0xFFFFFFFF)
    large = np.uint32(0)
    ored = np.uint32(0)
    bottom = np.uint32(0xFFFFFFFF)
    top = np.uint32(0)
    seen = every
    wide = saddr < 0
    if every:
        for lane in range(vgpr.shape[2]):
            small = min(small, vgpr[addr, w, lane])
            large = max(large, vgpr[addr, w, lane])
            ored |= vgpr[addr, w, lane]
            if wide:
                bottom = min(bottom, vgpr[addr + 1, w, lane])
                top = max(top, vgpr[addr + 1, w, lane])
    else:
        # the same reductions, lane by lane: written with selects they stayed
        # scalar and slower, and one loop for both cases (testing ``every``
        # each lane) moved a full wave at 1.8 ns a lane against 0.95
        for lane in range(64):
            if lanes[lane]:
                seen = True
                small = min(small, vgpr[addr, w, lane])
                large = max(large, vgpr[addr, w, lane])
                ored |= vgpr[addr, w, lane]
                if wide:
                    bottom = min(bottom, vgpr[addr + 1, w, lane])
                    top = max(top, vgpr[addr + 1, w, lane])
    lowest = np.uint64(0xFFFFFFFFFFFFFFFF)
    highest = np.uint64(0)
    if not seen:
        return lowest, highest, np.uint64(0), np.uint64(0), True
    if wide:
        base = (np.uint64(top) << np.uint64(32)) + offset
        shared = top == bottom
    else:
        base = lane_sgpr_pair(sgpr, saddr, w) + offset
        shared = True
    if shared:
        lowest, highest = base + np.uint64(small), base + np.uint64(large)
        if highest >= lowest:           # (no wrap between them)
            return lowest, highest, base | np.uint64(ored), base, shared
        lowest = np.uint64(0xFFFFFFFFFFFFFFFF)
        highest = np.uint64(0)
    bits = np.uint64(0)
    for lane in range(64):
        if every or lanes[lane]:
            address = lane_address(vgpr, sgpr, addr, saddr, offset, w, lane)
            lowest = min(lowest, address)
            highest = max(highest, address)
            bits |= address
    return lowest, highest, bits, base, shared


@njit(cache=True)
def global_atomic_host(vgpr, sgpr, w0, w1, lanes, full, addr, saddr, offset, width, flat,
                       memory):
    """(whether, host offset): whether a FLAT/GLOBAL atomic of ``width``
    bytes a lane may be applied by a compiled block, and what to add to a
    lane's address (``lane_address``) for its element's host address:
    only while no other process shares the memory (``memory_view``'s
    ``native_atomics``: a worker's atomics hold cross-process locks the
    block cannot take) and every active lane's element lies in one
    writable allocation, aligned to its size, and for FLAT outside the LDS
    and private apertures. Otherwise the interpreter takes the instruction
    (its faults, apertures and locks); with no lane active there is nothing
    to apply."""
    bases, ends, writable, addresses, apertures, native_atomics = memory
    if not native_atomics[0]:
        return False, np.uint64(0)
    nbytes = np.uint64(width)
    lowest = np.uint64(0xFFFFFFFFFFFFFFFF)
    highest = np.uint64(0)
    bits = np.uint64(0)
    for w in range(w0, w1):
        low, high, wave_bits, _, _ = _wave_span(vgpr, sgpr, addr, saddr, offset, w,
                                                full[w - w0], lanes[w - w0])
        lowest = min(lowest, low)
        highest = max(highest, high)
        bits |= wave_bits
    if lowest > highest:
        return True, np.uint64(0)
    k = np.searchsorted(bases, lowest, side="right") - 1
    if k < 0:
        return False, np.uint64(0)
    host = addresses[k] - bases[k]
    if ends[k] - bases[k] < nbytes or highest > ends[k] - nbytes or \
            not writable[k] or (host | bits) & (nbytes - np.uint64(1)) or \
            (flat and _spans_aperture(lowest, highest, apertures)):
        return False, np.uint64(0)
    return True, host


global_move_x1, global_move_x2, global_move_x3, global_move_x4 = (
    _global_mover(dwords) for dwords in (1, 2, 3, 4))


@njit(cache=True)
def global_move_narrow(vgpr, sgpr, w0, w1, lanes, addr, saddr, offset, data_reg, nbytes,
                       signed, write, flat, memory):
    """A FLAT/GLOBAL load or store of one byte or short per lane: loaded
    zero- or (``signed``) sign-extended into the VGPR at ``data_reg``,
    stored from its low bytes; lane by lane (``_global_move_lanes``), with
    its checks. False, having moved nothing, where the interpreter must take
    it."""
    return _global_move_lanes(vgpr, sgpr, w0, w1, lanes, addr, saddr, offset, data_reg,
                              nbytes, signed, write, flat, memory)


@njit(cache=True)
def _global_move_lanes(vgpr, sgpr, w0, w1, lanes, addr, saddr, offset, data_reg, nbytes,
                       signed, write, flat, memory):
    """``global_move`` lane by lane, of ``nbytes`` per lane (a byte, a short,
    or 1-4 whole dwords): each lane's allocation found (the last lane's tried
    first), unaligned dwords and sub-dword elements byte by byte; a loaded
    sub-dword element zero- or (``signed``) sign-extended to its VGPR."""
    bases, ends, writable, addresses, apertures, _ = memory
    size = np.uint64(nbytes)
    k = -1                   # the last lane's allocation: mostly this lane's too
    for w in range(w0, w1):
        for lane in range(64):
            if not lanes[w - w0, lane]:
                continue
            address = lane_address(vgpr, sgpr, addr, saddr, offset, w, lane)
            if flat:
                high = address >> np.uint64(32)
                if high == apertures[0] or high == apertures[1]:
                    return False
            if k < 0 or address < bases[k] or address >= ends[k]:
                # (not the last lane's allocation; inline: as a function call
                # this test cost more than the search)
                k = np.searchsorted(bases, address, side="right") - 1
            if k < 0 or ends[k] - bases[k] < size or address > ends[k] - size:
                return False
            if write and not writable[k]:
                return False
    dwords = nbytes // 4
    for w in range(w0, w1):
        for lane in range(64):
            if not lanes[w - w0, lane]:
                continue
            address = lane_address(vgpr, sgpr, addr, saddr, offset, w, lane)
            if address < bases[k] or address >= ends[k]:
                k = np.searchsorted(bases, address, side="right") - 1
            at = np.int64(address - bases[k])
            if dwords and (addresses[k] + np.uint64(at)) & np.uint64(3) == 0:
                words = dwords_at(addresses[k] + np.uint64(at))
                for d in range(dwords):
                    if write:
                        words[d] = vgpr[data_reg + d, w, lane]
                    else:
                        vgpr[data_reg + d, w, lane] = words[d]
                continue
            buffer = _bytes_at(addresses[k])
            if not dwords:
                if write:
                    value = vgpr[data_reg, w, lane]
                    for b in range(nbytes):
                        buffer[at + b] = np.uint8((value >> np.uint32(8 * b)) & 0xFF)
                else:
                    value = np.uint32(0)
                    for b in range(nbytes):
                        value |= np.uint32(buffer[at + b]) << np.uint32(8 * b)
                    if signed:           # the element's top bit copied up
                        shift = 32 - 8 * nbytes
                        value = np.uint32(np.int32(np.uint32(value << np.uint32(shift)))
                                          >> np.int32(shift))
                    vgpr[data_reg, w, lane] = value
                continue
            for d in range(dwords):
                if write:
                    value = vgpr[data_reg + d, w, lane]
                    for b in range(4):
                        buffer[at + 4 * d + b] = np.uint8((value >> np.uint32(8 * b)) & 0xFF)
                else:
                    value = np.uint32(0)
                    for b in range(4):
                        value |= np.uint32(buffer[at + 4 * d + b]) << np.uint32(8 * b)
                    vgpr[data_reg + d, w, lane] = value
    return True


@njit(cache=True)
def scalar_load(sgpr, w0, w1, base_code, offset, data_code, dwords, memory):
    """s_load_dword(xN) for waves w0:w1: ``dwords`` dwords at the SGPR pair
    at ``base_code`` plus ``offset``, low two bits cleared, into the SGPRs
    from ``data_code``. False, having written nothing, unless every wave's
    dwords lie in one mapped allocation at a dword-aligned host address:
    the interpreter then takes the instruction and its faults. Each wave
    reads its base before it writes its data (a load may overwrite its
    base)."""
    bases, ends, writable, addresses, apertures, _ = memory
    nbytes = np.uint64(4 * dwords)
    k = -1
    for w in range(w0, w1):
        address = (lane_sgpr_pair(sgpr, base_code, w) + offset) & ~np.uint64(3)
        if k < 0 or address < bases[k] or address >= ends[k]:
            k = np.searchsorted(bases, address, side="right") - 1
        if k < 0 or ends[k] - bases[k] < nbytes or address > ends[k] - nbytes or \
                (addresses[k] + (address - bases[k])) & np.uint64(3):
            return False
    for w in range(w0, w1):
        address = (lane_sgpr_pair(sgpr, base_code, w) + offset) & ~np.uint64(3)
        if address < bases[k] or address >= ends[k]:
            k = np.searchsorted(bases, address, side="right") - 1
        words = dwords_at(addresses[k] + (address - bases[k]))
        for d in range(dwords):
            sgpr[data_code + d, w] = words[d]
    return True


#: Where the V# fields a buffer move reads lie, and their codes' meanings:
#: the interpreter's own (``addressing.V_SHARP_FIELDS``).
_BASE_HIGH, _STRIDE, _SWIZZLE, _DATA_FORMAT, _ELEMENT_SIZE, _INDEX_STRIDE, _ADD_TID = (
    V_SHARP_FIELDS[name] for name in ("base_high", "stride", "swizzle_enable", "data_format",
                                      "element_size", "index_stride", "add_tid_enable"))
_swizzled_address, _record_stride, _swizzle_element, _range_checked_by_bytes = (
    njit(cache=True, inline="always")(rule) for rule in (
        swizzled_address, record_stride, swizzle_element, range_checked_by_bytes))


@njit(cache=True, inline="always")
def _v_sharp_bits(sgpr, code, w, place):
    """A V# field of wave ``w``'s descriptor in the SGPRs from ``code``:
    ``place`` is its (dword, lowest bit, width)."""
    dword, low, width = place
    return (np.uint64(sgpr[code + dword, w]) >> np.uint64(low)) & \
        np.uint64((1 << width) - 1)


@njit(cache=True, inline="always")
def _buffer_wave(sgpr, code, w, generation):
    """(start without soffset, stride, swizzled, element bytes, index stride,
    adds the lane number, num_records, raw) of wave ``w``'s V#, decoded as
    ``addressing.decode_buffer_resource`` decodes it, by the same rules; raw:
    range-checked by bytes (a block's buffer moves have no IDXEN)."""
    base = np.uint64(sgpr[code, w]) | (_v_sharp_bits(sgpr, code, w, _BASE_HIGH) << np.uint64(32))
    add_tid = _v_sharp_bits(sgpr, code, w, _ADD_TID)
    stride = _record_stride(_v_sharp_bits(sgpr, code, w, _STRIDE),
                            _v_sharp_bits(sgpr, code, w, _DATA_FORMAT), add_tid, generation)
    swizzled = _v_sharp_bits(sgpr, code, w, _SWIZZLE) != 0
    element = _swizzle_element(_v_sharp_bits(sgpr, code, w, _ELEMENT_SIZE), generation)
    index_stride = INDEX_STRIDE_TABLE[_v_sharp_bits(sgpr, code, w, _INDEX_STRIDE)]
    raw = _range_checked_by_bytes(stride, swizzled, False, generation)
    return (base, stride, swizzled, element, index_stride, add_tid != 0,
            np.uint64(sgpr[code + 2, w]), raw)


def _buffer_mover(dwords):
    """The MUBUF load or store of ``dwords`` (1-4) whole dwords per lane
    without IDXEN or ADDR64 (-O0 code's scratch spills and private arrays go
    through the private segment V# so), one function per size::

        buffer_move(vgpr, sgpr, w0, w1, lanes, rsrc, soffset_code, soffset, vaddr,
                    offen, inst_offset, data_reg, write, generation, memory) -> bool

    Each lane's dword k is at byte ``(VGPR[vaddr] if offen) + inst_offset``
    (32 bits) + 4k of record ``lane if ADD_TID_ENABLE else 0``, laid out
    swizzled (``addressing.swizzled_address``) or linearly after the V#'s
    base plus the soffset SGPR (``soffset_code`` >= 0) or constant.
    False, having moved nothing, unless every active lane's dwords are in
    range (by bytes or, structured, by record) and lie 4-aligned in a mapped
    allocation (writable for a store): the interpreter then takes the
    instruction, its zeros for out-of-range loads and its faults. Lanes and
    dwords move in the interpreter's order (a later lane wins a shared byte)."""
    size = np.uint64(4)

    @njit(cache=True)
    def buffer_move(vgpr, sgpr, w0, w1, lanes, rsrc, soffset_code, soffset, vaddr, offen,
                    inst_offset, data_reg, write, generation, memory):
        bases, ends, writable, addresses, apertures, _ = memory
        host = np.empty((w1 - w0, 64, dwords), np.uint64)
        k = -1
        for w in range(w0, w1):
            base, stride, swizzled, element, index_stride, add_tid, records, raw = \
                _buffer_wave(sgpr, rsrc, w, generation)
            start = base + (np.uint64(sgpr[soffset_code, w]) if soffset_code >= 0 else soffset)
            for lane in range(64):
                if not lanes[w - w0, lane]:
                    continue
                index = np.uint64(lane) if add_tid else np.uint64(0)
                first = np.uint64(vgpr[vaddr, w, lane]) if offen else np.uint64(0)
                first = (first + inst_offset) & np.uint64(0xFFFFFFFF)
                if not raw and (index >= records or first >= stride):
                    return False
                for d in range(dwords):
                    offset = first + np.uint64(4 * d)
                    if raw and offset + size > records:
                        return False
                    if swizzled:
                        address = _swizzled_address(start, index, offset, element,
                                                    index_stride, stride)
                    else:
                        address = start + stride * index + offset
                    if k < 0 or address < bases[k] or address >= ends[k]:
                        k = np.searchsorted(bases, address, side="right") - 1
                    if k < 0 or ends[k] - bases[k] < size or address > ends[k] - size or \
                            (write and not writable[k]):
                        return False
                    at = addresses[k] + (address - bases[k])
                    if at & np.uint64(3):
                        return False
                    host[w - w0, lane, d] = at
        for w in range(w0, w1):
            for lane in range(64):
                if lanes[w - w0, lane]:
                    for d in range(dwords):
                        words = dwords_at(host[w - w0, lane, d])
                        if write:
                            words[0] = vgpr[data_reg + d, w, lane]
                        else:
                            vgpr[data_reg + d, w, lane] = words[0]
        return True
    return buffer_move


buffer_move_x1, buffer_move_x2, buffer_move_x3, buffer_move_x4 = (
    _buffer_mover(dwords) for dwords in (1, 2, 3, 4))


def _result_bits(value_dtype, bits_dtype):
    """A function turning a semantic's result into the raw bits of a result
    of ``value_dtype`` (``ops.to_bits``): a result already held in that dtype
    and contiguous is viewed, not copied (the choice is made when Numba
    compiles it, per result type). Only compiled code calls it."""
    value, bits = np.dtype(value_dtype), np.dtype(bits_dtype)

    def convert(result):
        raise NotImplementedError("only compiled blocks call this")

    @overload(convert)
    def choose(result):
        if isinstance(result, types.Array) and result.dtype == from_dtype(value) \
                and result.layout == "C":
            if value == bits:
                return lambda result: result
            return lambda result: result.view(bits)
        return lambda result: np.asarray(result).astype(value).view(bits)
    return convert


#: result type (codegen's names) -> its bits converter
bits_u32 = _result_bits(np.uint32, np.uint32)
bits_i32 = _result_bits(np.int32, np.uint32)
bits_f32 = _result_bits(np.float32, np.uint32)
bits_u64 = _result_bits(np.uint64, np.uint64)
bits_i64 = _result_bits(np.int64, np.uint64)
bits_f64 = _result_bits(np.float64, np.uint64)
#: (16-bit results: the low half of the register, the high half zero, as
#: ``ops.to_bits`` makes them; the store widens them)
bits_u16 = _result_bits(np.uint16, np.uint16)
bits_i16 = _result_bits(np.int16, np.uint16)


# ------------------------------------------------------ one lane at a time
# The lane-by-lane form of an instruction (lanewise.py) reads and writes one
# lane's registers as scalars, with the same rules as the array helpers above.

@njit(cache=True)
def lane_pair(vgpr, reg, w, lane):
    """VGPRs reg, reg+1 of one lane as uint64."""
    return pair_bits(vgpr[reg, w, lane], vgpr[reg + 1, w, lane])


@njit(cache=True)
def lane_sgpr_pair(sgpr, code, w):
    """SGPRs code, code+1 of wave ``w`` as uint64."""
    return np.uint64(sgpr[code, w]) | (np.uint64(sgpr[code + 1, w]) << np.uint64(32))


@njit(cache=True)
def lane_scc_bits(scc, w):
    """SCC of wave ``w`` as uint32 0/1 (SCC read as a source operand)."""
    return np.uint32(1) if scc[w] else np.uint32(0)


@njit(cache=True)
def lane_sstore64(sgpr, code, w, bits):
    """SGPRs code, code+1 of wave ``w`` = uint64 ``bits``."""
    sgpr[code, w] = np.uint32(bits & np.uint64(0xFFFFFFFF))
    sgpr[code + 1, w] = np.uint32(bits >> np.uint64(32))


@njit(cache=True)
def mask_bit(mask, lane):
    """Whether ``lane``'s bit is set in the uint64 lane mask ``mask``."""
    return (mask >> np.uint64(lane)) & np.uint64(1) != 0


@njit(cache=True)
def lane_flush_f32(bits):
    """One lane's f32 bits with a denormal flushed to signed zero."""
    bits = np.uint32(bits)
    if bits & _EXPONENT_F32 == 0 and bits & _MAGNITUDE_F32 != 0:
        return bits & _SIGN_F32
    return bits


@njit(cache=True, inline="always")
def pair_bits(low, high):
    """Two dwords (a register pair's, low first) as one uint64."""
    return np.uint64(low) | (np.uint64(high) << np.uint64(32))


@njit(cache=True, inline="always")
def low_dword(bits):
    """The low dword of uint64 ``bits``."""
    return np.uint32(np.uint64(bits) & np.uint64(0xFFFFFFFF))


@njit(cache=True, inline="always")
def high_dword(bits):
    """The high dword of uint64 ``bits``."""
    return np.uint32(np.uint64(bits) >> np.uint64(32))


@njit(cache=True)
def lane_store64(vgpr, reg, w, lane, bits):
    """Write uint64 ``bits`` to VGPRs reg, reg+1 of one lane."""
    vgpr[reg, w, lane] = low_dword(bits)
    vgpr[reg + 1, w, lane] = high_dword(bits)


def _cast_and_view(cast_dtype, view_dtype):
    """A scalar cast to ``cast_dtype`` (a 0-d array's value first), then bit
    cast to ``view_dtype``: one lane's raw bits -> the value a semantic sees
    (uint -> its type), and its result -> raw bits, as ``ops.to_bits``
    converts an array (``astype`` to the result type, then a view)."""
    cast_type, view_type = np.dtype(cast_dtype).type, np.dtype(view_dtype).type

    def convert(value):
        raise NotImplementedError("only compiled blocks call this")

    @overload(convert)
    def choose(value):
        if isinstance(value, types.Array):
            return lambda value: cast_type(value[()]).view(view_type)
        if cast_type is view_type:
            return lambda value: cast_type(value)
        return lambda value: cast_type(value).view(view_type)
    return convert


@njit(cache=True, inline="always")
def opaque_sign_32(sgpr):
    """0x80000000, the f32 sign mask, made from ``sgpr``'s row count (below
    2^62) so that LLVM does not know its value. Known, ``bits ^ 0x80000000``
    viewed as a float is a negation to LLVM, which it folds into the op
    (``-a + b`` becomes ``b - a``), and x86 then returns a NaN ``a`` as it
    was, where the interpreter negates it (the modifier flips the sign bit).
    Unknown, it stays an integer XOR, as fast (the loops still vectorise)."""
    # (cast again: Numba widens the | of two uint32 scalars, and a wider mask
    # would widen the whole-array operands it is XORed with)
    return np.uint32(np.uint32(0x80000000) | np.uint32(np.uint64(sgpr.shape[0]) >> np.uint64(62)))


@njit(cache=True, inline="always")
def opaque_sign_64(sgpr):
    """``opaque_sign_32`` for f64: 1 << 63."""
    return np.uint64(np.uint64(1 << 63) | (np.uint64(sgpr.shape[0]) >> np.uint64(62)))


_permute_lane = njit(cache=True, inline="always")(permute_lane)


@njit(cache=True, inline="always")
def _write_gathered(vgpr, dst, ww, e, w, row):
    for l in range(64):
        if e[w, l]:
            vgpr[dst, ww, l] = row[l]


@njit(cache=True)
def swizzle_lanes(vgpr, w0, w1, e, source, dst, sources):
    """ds_swizzle_b32: each active lane's VGPR ``dst`` = VGPR ``source`` of
    lane ``sources[lane]`` (the pattern's table, ``ds.swizzle_sources``), 0
    from a lane EXEC leaves off, as the interpreter's; every lane read
    before any is written."""
    row = np.empty(64, np.uint32)
    for w in range(w1 - w0):
        ww = w0 + w
        for l in range(64):
            s = sources[l]
            row[l] = vgpr[source, ww, s] if e[w, s] else np.uint32(0)
        _write_gathered(vgpr, dst, ww, e, w, row)


@njit(cache=True)
def bpermute_lanes(vgpr, w0, w1, e, addr, offset, source, dst):
    """ds_bpermute_b32: as ``swizzle_lanes``, each lane's source lane named
    by its ADDR VGPR plus ``offset`` (``ds.permute_lane``)."""
    row = np.empty(64, np.uint32)
    for w in range(w1 - w0):
        ww = w0 + w
        for l in range(64):
            s = np.int64(_permute_lane(np.uint64(vgpr[addr, ww, l]), offset))
            row[l] = vgpr[source, ww, s] if e[w, s] else np.uint32(0)
        _write_gathered(vgpr, dst, ww, e, w, row)


#: source type (codegen's names) -> one lane's bits viewed as that type
lane_u32 = _cast_and_view(np.uint32, np.uint32)
lane_i32 = _cast_and_view(np.uint32, np.int32)
lane_f32 = _cast_and_view(np.uint32, np.float32)
lane_u64 = _cast_and_view(np.uint64, np.uint64)
lane_i64 = _cast_and_view(np.uint64, np.int64)
lane_f64 = _cast_and_view(np.uint64, np.float64)
lane_u16 = _cast_and_view(np.uint16, np.uint16)       # (the low half: cast truncates)
lane_i16 = _cast_and_view(np.uint16, np.int16)
#: result type -> one lane's bits converter
lane_bits_u32 = _cast_and_view(np.uint32, np.uint32)
lane_bits_i32 = _cast_and_view(np.int32, np.uint32)
lane_bits_f32 = _cast_and_view(np.float32, np.uint32)
lane_bits_u64 = _cast_and_view(np.uint64, np.uint64)
lane_bits_i64 = _cast_and_view(np.int64, np.uint64)
lane_bits_f64 = _cast_and_view(np.float64, np.uint64)
lane_bits_u16 = _cast_and_view(np.uint16, np.uint16)
lane_bits_i16 = _cast_and_view(np.int16, np.uint16)

"""Semantics of the DS (LDS) instructions, vectorised over lanes and waves.

An LDS address is ``ADDR VGPR + instruction offset`` within the wave's
work-group segment.  An access is in range when it ends inside the group
segment and, on GFX6-8, below the byte limit in M0; out-of-range reads
return zero and out-of-range writes and atomics do nothing, as on hardware.

With the gds bit set the same builders address the device's global data
share instead: every builder takes its pieces from ``_space(inst)``, which
is ``lds_piece`` or ``gds.gds_piece`` (the M0 window rule is
described there, with GWS and ds_ordered_count).

Every mnemonic is registered on one line at the end of this module; data
widths, sub-dword elements (bytes, sign), the d16 half and whether an atomic
returns are read from its table row. The plain reads and writes also state
``lds_move`` ("read"/"write"), ``elements`` and ``stride64``: compiled blocks
(exec/compiled) move whole aligned dwords from those facts, as the fast path
here does, and leave every other access to these builders. The atomics
state ``lds_atomic`` (their memory.ATOMIC_OPS name) and ``returns``: compiled
blocks apply the integer ones to in-range lanes in the order used here.
"""

from __future__ import annotations

import numpy as np

from .memory import (TWO_OPERAND_ATOMICS, Piece, atomic_pieces, bytes_to_words, join64,
                     lds_memory, load_pieces, split64, store_pieces, table_facts, words_to_bytes)
from .gds import gds_piece
from ..core.registry import builder

_U32 = np.uint32
_U64 = np.uint64
_M0 = 124
WAVE = 64

# ------------------------------------------------------------------ tables
#: Whole-dword accesses and atomics move as many dwords as the table row's
#: vdst/data0 is wide (sub-dword elements: the row's data_bytes and signed, the
#: d16 forms' half: its d16); an atomic returns when its row has a vdst.
#: The src2 ops have no data operand: their element size is stated.
DWORD, QWORD = 4, 8


# ----------------------------------------------------------------- helpers
def offset16(inst):
    """A DS instruction's 16-bit offset (OFFSET, or OFFSET1:OFFSET0)."""
    fields = inst.fields
    if "offset" in fields:
        return int(fields["offset"]) & 0xFFFF
    return (int(fields.get("offset0", 0)) | int(fields.get("offset1", 0)) << 8) & 0xFFFF


def _read_vgprs(state, sel, first, count):
    """(n, 64, count) uint32 from VGPRs first..first+count-1."""
    return np.stack([state.vgpr[first + i, sel] for i in range(count)], axis=-1)


def _write_vgprs(state, sel, first, words, lanes):
    for i in range(words.shape[-1]):
        state.write_vgpr(sel, first + i, words[..., i], lanes)


def element_offsets(inst, nbytes, elements=1, stride64=False):
    """Byte offsets from ADDR of a DS access's elements: offset16 for one;
    offset0 and offset1, counted in elements (or in 64 elements), for two.
    (Compiled blocks read them here too.)"""
    if elements == 1:
        return (offset16(inst),)
    scale = nbytes * (64 if stride64 else 1)
    return (int(inst.fields.get("offset0", 0)) * scale, int(inst.fields.get("offset1", 0)) * scale)


def _lds_limit(ctx, generation):
    """Per-wave byte limit of LDS accesses: the segment size, and M0 before GFX9."""
    size = ctx.state.lds.shape[1]
    limit = np.full(ctx.n, size, _U64)
    if generation < 9:
        limit = np.minimum(limit, ctx.state.sgpr[_M0, ctx.sel].astype(_U64))
    return limit


def lds_piece(ctx, generation, addresses, nbytes, lanes):
    """A Piece for LDS byte addresses ``addresses`` ((n, 64) uint64) of ``lanes``.

    LDS addresses are 32-bit: ADDR + offset wraps, which compilers rely on
    (clang emits ``ds_read_b32 v2, v1 offset:252`` with a negative v1).
    """
    state = ctx.state
    addresses = addresses & _U64(0xFFFFFFFF)
    size = state.lds.shape[1]
    limit = _lds_limit(ctx, generation)
    valid = (addresses + _U64(nbytes)) <= limit[:, None]
    rows = state.wave_group[ctx.sel].astype(_U64)
    linear = rows[:, None] * _U64(size) + addresses
    if lanes.all():                     # every lane: views instead of selections
        return Piece(lds_memory(state), lanes, linear.reshape(-1, 1), valid.reshape(-1, 1),
                     nbytes)
    return Piece(lds_memory(state), lanes, linear[lanes][:, None],
                 valid[lanes][:, None], nbytes)


def _gds_bit(inst) -> bool:
    return bool(int(inst.fields.get("gds", 0)))


def _gds_space(ctx, generation, addresses, nbytes, lanes):
    return gds_piece(ctx, addresses, nbytes, lanes)


def _space(inst):
    """The piece maker of the memory ``inst`` addresses: LDS, or GDS with the gds bit."""
    return _gds_space if _gds_bit(inst) else lds_piece


def _dword_indices(ctx, generation, reg, offsets, nbytes=4):
    """``(indices, lanes)``: dword indices into the batch's LDS of every lane's
    ``nbytes`` (4 or 8) accesses at ADDR + each offset (their first dword), and
    the EXEC lanes that take part (None: every lane; the indices of the others
    are 0 and must not be used).

    The fast path of b32 and b64 accesses: only when every active lane's access
    is in range without wrapping and aligned to its size (so two lanes' b64
    accesses are the same dwords or none: whole dwords in lane order give the
    general path's bytes), and the segment size keeps rows aligned; otherwise None, and the general path (pieces, range flags,
    32-bit wrap-around) handles the access. Also None while a hazard checker
    watches memory: the general path tells it of every access.
    """
    state = ctx.state
    size = state.lds.shape[1]
    align = nbytes - 1
    if size & 3 or any(offset & align for offset in offsets) or state.memory_watch is not None:
        return None
    addr = state.vgpr[reg, ctx.sel]
    lanes = None
    if not ctx.every_lane_active():
        lanes = ctx.exec_lanes()
        if not lanes.any():
            return None
        addr = np.where(lanes, addr, _U32(0))
    limit = size if generation >= 9 else min(size, int(state.sgpr[_M0, ctx.sel].min()))
    if int(addr.max()) + max(offsets) + nbytes > limit or \
            int(np.bitwise_or.reduce(addr, axis=None)) & align:
        return None
    base = (state.wave_group[ctx.sel] * (size >> 2))[:, None] + (addr >> _U32(2))
    return [base + (offset >> 2) if offset else base for offset in offsets], lanes


def _take_dwords(ctx, index, lanes, vdst):
    """VDST of the ``lanes`` (None: all) = the LDS dwords at ``index``."""
    values = np.take(lds_memory(ctx.state).word_view(4), index)
    if lanes is None:
        ctx.state.vgpr[vdst, ctx.sel] = values
    else:
        ctx.state.write_vgpr(ctx.sel, vdst, values, lanes)


def _put_dwords(ctx, index, lanes, source):
    """The LDS dwords at ``index`` of the ``lanes`` (None: all) = VGPR ``source``."""
    values = ctx.state.vgpr[source, ctx.sel]
    if lanes is None:
        lds_memory(ctx.state).word_view(4)[index] = values
    else:
        lds_memory(ctx.state).word_view(4)[index[lanes]] = values[lanes]


def _moved_whole_dwords(ctx, generation, reg, offsets, nbytes, registers, move):
    """The fast path of b32/b64 accesses (``_dword_indices``): ``move``
    (``_take_dwords`` or ``_put_dwords``) every dword of the access at each
    offset, to or from the VGPRs that start at the matching ``registers``
    entry; False when the path does not apply."""
    fast = _dword_indices(ctx, generation, reg, offsets, nbytes)
    if fast is None:
        return False
    indices, lanes = fast
    for index, first in zip(indices, registers):
        for k in range(nbytes // 4):
            move(ctx, index + k if k else index, lanes, first + k)
    return True


def _lane_addresses(ctx, inst, extra_offset=0):
    addr = ctx.state.vgpr[int(inst.fields["addr"]), ctx.sel].astype(_U64)
    return addr + _U64(offset16(inst) + extra_offset)


def _finish_load(ctx, inst, raw, signed, d16=None):
    """Write loaded bytes to VDST (extending sub-dword values, merging d16 halves)."""
    state, lanes = ctx.state, ctx.exec_lanes()
    vdst = int(inst.fields["vdst"])
    words = bytes_to_words(raw, signed=signed)
    if d16 is not None:
        current = state.vgpr[vdst, ctx.sel]
        low = words[..., 0] & _U32(0xFFFF)
        merged = (current & _U32(0xFFFF0000)) | low if d16 == "lo" else \
            (current & _U32(0xFFFF)) | (low << _U32(16))
        state.write_vgpr(ctx.sel, vdst, merged, lanes)
        return
    _write_vgprs(state, ctx.sel, vdst, words, ctx.write_lanes())


# ------------------------------------------------------------------- loads
def _build_read(inst, program, nbytes, signed, d16=None):
    generation, piece_at = program.generation, _space(inst)

    whole_dwords = nbytes in (4, 8) and d16 is None and not _gds_bit(inst)
    reg, offset, vdst = int(inst.fields["addr"]), offset16(inst), int(inst.fields["vdst"])

    def run(ctx):
        if whole_dwords and _moved_whole_dwords(ctx, generation, reg, (offset,), nbytes,
                                                (vdst,), _take_dwords):
            return
        lanes = ctx.exec_lanes()
        piece = piece_at(ctx, generation, _lane_addresses(ctx, inst), nbytes, lanes)
        raw = load_pieces(ctx, [piece], lanes.shape, nbytes)
        _finish_load(ctx, inst, raw, signed, d16)
    return run


def _build_read2(inst, program, nbytes, stride64):
    generation, piece_at = program.generation, _space(inst)
    fast = nbytes in (4, 8) and not _gds_bit(inst)
    dwords = nbytes // 4
    offsets = element_offsets(inst, nbytes, 2, stride64)

    reg, vdst = int(inst.fields["addr"]), int(inst.fields["vdst"])

    def run(ctx):
        if fast and _moved_whole_dwords(ctx, generation, reg, offsets, nbytes,
                                        (vdst, vdst + dwords), _take_dwords):
            return
        lanes = ctx.exec_lanes()
        addr = ctx.state.vgpr[int(inst.fields["addr"]), ctx.sel].astype(_U64)
        halves = [load_pieces(ctx, [piece_at(ctx, generation, addr + _U64(off), nbytes, lanes)],
                              lanes.shape, nbytes) for off in offsets]
        words = bytes_to_words(np.concatenate(halves, axis=-1))
        _write_vgprs(ctx.state, ctx.sel, int(inst.fields["vdst"]), words, ctx.write_lanes())
    return run


def _addtid_addresses(ctx, inst):
    base = (ctx.state.sgpr[_M0, ctx.sel].astype(_U64) & _U64(0xFFFF))[:, None]
    return base + _U64(offset16(inst)) + np.arange(WAVE, dtype=_U64)[None, :] * _U64(4)


def _build_read_addtid(inst, program):
    generation = program.generation
    if _gds_bit(inst):
        return _rejecting("ds_read_addtid_b32 with the gds bit is not supported (M0[15:0] "
                          "is both the LDS base of addtid and the GDS window size)")

    def run(ctx):
        lanes = ctx.exec_lanes()
        piece = lds_piece(ctx, generation, _addtid_addresses(ctx, inst), 4, lanes)
        _finish_load(ctx, inst, load_pieces(ctx, [piece], lanes.shape, 4), False)
    return run


# ------------------------------------------------------------------ stores
def _build_write(inst, program, nbytes, high_half=False):
    generation, piece_at = program.generation, _space(inst)
    dwords = max(1, nbytes // 4)

    whole_dwords = nbytes in (4, 8) and not high_half and not _gds_bit(inst)
    reg, offset, data = int(inst.fields["addr"]), offset16(inst), int(inst.fields["data0"])

    def run(ctx):
        # lanes in order, so the highest lane wins a shared address
        if whole_dwords and _moved_whole_dwords(ctx, generation, reg, (offset,), nbytes,
                                                (data,), _put_dwords):
            return
        lanes = ctx.exec_lanes()
        words = _read_vgprs(ctx.state, ctx.sel, int(inst.fields["data0"]), dwords)
        if high_half:
            words = words >> _U32(16)
        piece = piece_at(ctx, generation, _lane_addresses(ctx, inst), nbytes, lanes)
        store_pieces(ctx, [piece], words_to_bytes(words, nbytes))
    return run


def _build_write2(inst, program, nbytes, stride64):
    generation, piece_at = program.generation, _space(inst)
    fast = nbytes in (4, 8) and not _gds_bit(inst)
    dwords = nbytes // 4
    plan = tuple(zip(element_offsets(inst, nbytes, 2, stride64), ("data0", "data1")))

    reg = int(inst.fields["addr"])
    sources = tuple(int(inst.fields[source]) for _, source in plan)

    def run(ctx):
        if fast and _moved_whole_dwords(ctx, generation, reg, (plan[0][0], plan[1][0]),
                                        nbytes, sources, _put_dwords):
            return
        lanes = ctx.exec_lanes()
        addr = ctx.state.vgpr[int(inst.fields["addr"]), ctx.sel].astype(_U64)
        for offset, source in plan:
            words = _read_vgprs(ctx.state, ctx.sel, int(inst.fields[source]), dwords)
            piece = piece_at(ctx, generation, addr + _U64(offset), nbytes, lanes)
            store_pieces(ctx, [piece], words_to_bytes(words, nbytes))
    return run


def _build_write_addtid(inst, program):
    generation = program.generation
    if _gds_bit(inst):
        return _rejecting("ds_write_addtid_b32 with the gds bit is not supported (M0[15:0] "
                          "is both the LDS base of addtid and the GDS window size)")

    def run(ctx):
        lanes = ctx.exec_lanes()
        words = _read_vgprs(ctx.state, ctx.sel, int(inst.fields["data0"]), 1)
        piece = lds_piece(ctx, generation, _addtid_addresses(ctx, inst), 4, lanes)
        store_pieces(ctx, [piece], words_to_bytes(words, 4))
    return run


# ----------------------------------------------------------------- atomics
def _read_operand(state, sel, reg, width):
    if width == 4:
        return state.vgpr[reg, sel].copy()
    return join64(_read_vgprs(state, sel, reg, 2))


def _write_result(ctx, reg, values, width):
    lanes = ctx.exec_lanes()
    if width == 4:
        ctx.state.write_vgpr(ctx.sel, reg, values.astype(_U32), lanes)
    else:
        _write_vgprs(ctx.state, ctx.sel, reg, split64(values), lanes)


def _build_atomic(inst, program, op, width, returns, offsets=None):
    """One atomic (or two, for ds_wrxchg2*) per lane, applied in lane-then-wave order."""
    generation, piece_at = program.generation, _space(inst)
    two = op in TWO_OPERAND_ATOMICS
    fields = inst.fields
    offsets = offsets or (offset16(inst),)

    def run(ctx):
        state, lanes = ctx.state, ctx.exec_lanes()
        addr = state.vgpr[int(fields["addr"]), ctx.sel].astype(_U64)
        results = []
        for index, offset in enumerate(offsets):
            source = "data1" if index else "data0"
            data = _read_operand(state, ctx.sel, int(fields[source]), width)
            data2 = None
            if two:
                data2 = _read_operand(state, ctx.sel, int(fields["data1"]), width)
                if op in ("cmpswap", "fcmpswap"):
                    data, data2 = data2, data      # DATA0 compares, DATA1 is stored
            aligned = (addr + _U64(offset)) & ~_U64(width - 1)    # LDS atomics align
            piece = piece_at(ctx, generation, aligned, width, lanes)
            results.append(atomic_pieces(ctx, [piece], lanes.shape, op, width, data, data2))
        if returns:
            vdst = int(fields["vdst"])
            for index, old in enumerate(results):
                _write_result(ctx, vdst + index * (width // 4), old, width)
    return run


# ------------------------------------------------------------- src2 forms
#: src2 stems -> the atomic applied at A with DS[B] as its operand
#: (ds_write_src2 is a plain move: DS[A] = DS[B], the atomic "swap").
#: offset bit 15 (offset1[7]) selects the address-derived stride
_SRC2_STRIDE_FROM_ADDRESS = 0x8000


#: with offset1[7] set, A is the low 17 address bits (CLRX: ADDR & 0x1fffc)
_SRC2_ADDRESS_BITS = 0x1FFFF


def src2_stride(offset16):
    """The signed element stride of a src2 op's offset field, or None.

    The manual: B = A + size * (offset1[7] ? {A[31], A[31:17]} :
    {offset1[6], offset1[6:0], offset0}), i.e. the low 15 offset bits
    sign-extended. None: offset1[7] is set and each lane's stride comes
    from its address (``src2_address_form``).
    """
    if offset16 & _SRC2_STRIDE_FROM_ADDRESS:
        return None
    low = offset16 & 0x7FFF
    return low - 0x8000 if low & 0x4000 else low


def src2_address_form(addr: np.ndarray):
    """(A, stride) of the offset1[7] form for ADDR values ``addr`` (uint64).

    The stride {A[31], A[31:17]} is ADDR[31:17] sign-extended (bit 31 is
    its sign) and A is ADDR[16:0], the bits that address LDS (CLRX's
    GcnInstrsDs: A = ADDR & 0x1fffc for dwords, & 0x1fff8 for qwords).
    """
    high = (addr >> _U64(17)) & _U64(0x7FFF)
    stride = high.astype(np.int64) - np.where(high & _U64(0x4000), 0x8000, 0)
    return addr & _U64(_SRC2_ADDRESS_BITS), stride


def _build_src2(inst, program, op, width):
    """DS[A] = DS[A] op DS[B] per active lane, B = A + width * stride.

    A = ADDR and the stride from the offset field, or (offset1[7] set)
    both from the address bits. Every lane's DS[B] is read before the
    updates, which then apply in lane-then-wave order like the other
    atomics.
    """
    generation, piece_at = program.generation, _space(inst)
    stride = src2_stride(offset16(inst))

    def run(ctx):
        state, lanes = ctx.state, ctx.exec_lanes()
        first = state.vgpr[int(inst.fields["addr"]), ctx.sel].astype(_U64)
        if stride is None:
            first, strides = src2_address_form(first)
            step = ((strides * width) & 0xFFFFFFFF).astype(_U64)
        else:
            step = _U64((stride * width) & 0xFFFFFFFF)
        second = (first + step) & _U64(0xFFFFFFFF)
        align = ~_U64(width - 1)
        source = piece_at(ctx, generation, second & align, width, lanes)
        data = bytes_to_words(load_pieces(ctx, [source], lanes.shape, width))
        data = data[..., 0] if width == 4 else join64(data)
        target = piece_at(ctx, generation, first & align, width, lanes)
        atomic_pieces(ctx, [target], lanes.shape, op, width, data, None)
    return run


# ------------------------------------------------- conditional exchange
def _build_condxchg32(inst, program):
    """ds_condxchg32_rtn_b64: two conditional 32-bit write exchanges per lane.

    The manuals' pseudo-code: A0 = (ADDR + offset) & 0xfff8, A1 = A0 + 4;
    VDST gets the old dwords at A0 and A1; DS[Ak] = {0, DATAk[30:0]} only
    when DATAk[31] is set (DATA0 is the low dword of the data pair). Lanes
    apply in lane-then-wave order, so a lane sees the earlier lanes' writes.
    """
    generation, piece_at = program.generation, _space(inst)
    reg, data, vdst = (int(inst.fields[name]) for name in ("addr", "data0", "vdst"))
    offset = offset16(inst)

    def run(ctx):
        state, lanes = ctx.state, ctx.exec_lanes()
        addr = (state.vgpr[reg, ctx.sel].astype(_U64) + _U64(offset)) & _U64(0xFFF8)
        piece = piece_at(ctx, generation, addr, 8, lanes)
        words = _read_vgprs(state, ctx.sel, data, 2)[lanes]
        old = np.zeros(words.shape, _U32)
        valid = piece.valid[:, 0]
        addresses = piece.addresses[:, 0]
        for rows in _serial_rounds(addresses, valid):
            current = piece.backend.gather(addresses[rows], 8).view(_U32).reshape(-1, 2)
            old[rows] = current
            new = np.where(words[rows] >> _U32(31), words[rows] & _U32(0x7FFFFFFF), current)
            piece.backend.scatter(addresses[rows], np.ascontiguousarray(new).view(np.uint8))
        result = np.zeros(lanes.shape + (2,), _U32)
        result[lanes] = old
        _write_vgprs(state, ctx.sel, vdst, result, lanes)
    return run


def _serial_rounds(addresses, valid):
    """Rows of the valid accesses, split into rounds with distinct addresses
    each, a repeated address going to a later round (keeps lane order)."""
    rows = np.flatnonzero(valid)
    if not rows.size:
        return []
    order = np.argsort(addresses[rows], kind="stable")
    ranked = addresses[rows][order]
    starts = np.r_[True, ranked[1:] != ranked[:-1]]
    rank = np.empty(rows.size, np.int64)
    rank[order] = np.arange(rows.size) - np.maximum.accumulate(
        np.where(starts, np.arange(rows.size), 0))
    return [rows[rank == r] for r in range(int(rank.max()) + 1)]


# --------------------------------------------------------------- lane ops
def swizzle_sources(offset: int) -> np.ndarray:
    """Source lane of each of the 64 lanes for ds_swizzle_b32 with ``offset``."""
    lanes = np.arange(WAVE)
    if offset & 0x8000:                           # quad permute mode
        selects = np.array([(offset >> (2 * i)) & 3 for i in range(4)])
        return (lanes & ~3) | selects[lanes & 3]
    and_mask, or_mask, xor_mask = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
    within = ((lanes & 31 & and_mask) | or_mask) ^ xor_mask
    return (lanes & 32) | within


def _build_swizzle(inst, program):
    """Each active lane takes the ADDR VGPR of its pattern's source lane, 0
    from a lane EXEC leaves off; the facts (``lane_gather``) let compiled
    blocks run it, as ds_bpermute_b32."""
    sources = swizzle_sources(offset16(inst))

    def run(ctx):
        state, lanes = ctx.state, ctx.exec_lanes()
        # the swizzled value travels in the ADDR field (as llvm-mc encodes
        # `ds_swizzle_b32 vdst, vsrc`), DATA0 is unused
        data = state.vgpr[int(inst.fields["addr"]), ctx.sel]
        result = np.where(lanes[:, sources], data[:, sources], _U32(0))
        state.write_vgpr(ctx.sel, int(inst.fields["vdst"]), result, lanes)
    return run


def permute_lane(address, offset):
    """The lane a ds_permute/ds_bpermute lane's address names: the address
    plus the instruction's offset, in dwords, modulo the wave. Element by
    element on uint64 arrays or one lane's scalars: compiled blocks call it
    too (``lane_gather``)."""
    return ((address + offset) >> _U64(2)) & _U64(WAVE - 1)


def _permute_lanes(ctx, inst):
    addr = ctx.state.vgpr[int(inst.fields["addr"]), ctx.sel].astype(_U64)
    return permute_lane(addr, _U64(offset16(inst))).astype(np.int64)


def _build_bpermute(inst, program):
    def run(ctx):
        state, lanes = ctx.state, ctx.exec_lanes()
        source = _permute_lanes(ctx, inst)
        data = state.vgpr[int(inst.fields["data0"]), ctx.sel]
        picked = np.take_along_axis(data, source, axis=1)
        active = np.take_along_axis(lanes, source, axis=1)
        state.write_vgpr(ctx.sel, int(inst.fields["vdst"]),
                         np.where(active, picked, _U32(0)), lanes)
    return run


def _build_permute(inst, program):
    def run(ctx):
        state, lanes = ctx.state, ctx.exec_lanes()
        target = _permute_lanes(ctx, inst)
        data = state.vgpr[int(inst.fields["data0"]), ctx.sel]
        result = np.zeros(data.shape, _U32)
        waves, lane_ids = np.nonzero(lanes)        # row-major: a later lane wins
        result[waves, target[waves, lane_ids]] = data[waves, lane_ids]
        state.write_vgpr(ctx.sel, int(inst.fields["vdst"]), result, lanes)
    return run


def _build_append(inst, program, sign):
    """ds_append / ds_consume: one counter update per wave at LDS address M0 + offset
    (with the gds bit: at the instruction offset within the wave's GDS window)."""
    generation, piece_at, gds = program.generation, _space(inst), _gds_bit(inst)

    def run(ctx):
        state, lanes = ctx.state, ctx.exec_lanes()
        count = lanes.sum(axis=1).astype(_U32)
        base = _U64(offset16(inst)) + (np.zeros(ctx.n, _U64) if gds else
                                        state.sgpr[_M0, ctx.sel].astype(_U64))
        wave_lanes = np.zeros(lanes.shape, bool)
        wave_lanes[:, 0] = count > 0
        piece = piece_at(ctx, generation, np.broadcast_to(base[:, None], lanes.shape).copy(),
                          4, wave_lanes)
        data = np.broadcast_to(count[:, None], lanes.shape)
        old = atomic_pieces(ctx, [piece], lanes.shape, "add" if sign > 0 else "sub", 4, data)
        state.write_vgpr(ctx.sel, int(inst.fields["vdst"]),
                         np.broadcast_to(old[:, :1], lanes.shape), lanes)
    return run


def _build_nop(inst, program):
    def run(ctx):
        return None
    return run


# ------------------------------------------------------------ registration
def _rejecting(message):
    """A run function for an encoding the executor does not model (said when reached)."""
    def run(ctx):
        raise ctx.fault(message)
    return run


def _widths(name):
    return table_facts(name).widths


def read(name):
    """A read of the row's sub-dword element (data_bytes, signed), or of whole
    dwords as the row's vdst is wide."""
    facts = table_facts(name)
    nbytes, signed = facts.data_bytes or 4 * facts.widths["vdst"], facts.signed
    builder(name, data_bytes=nbytes, signed=signed, lds_move="read")(
        lambda i, p: _build_read(i, p, nbytes, signed))


def read_d16(name):
    """GFX9 d16 read: the row's sub-dword element into the half of vdst its d16 names."""
    facts = table_facts(name)
    nbytes, signed, half = facts.data_bytes, facts.signed, facts.d16
    builder(name, data_bytes=nbytes, signed=signed)(
        lambda i, p: _build_read(i, p, nbytes, signed, half))


def read2(name, stride64=False):
    """Two reads (offset0, offset1 in elements, or 64 elements); each element is
    half the row's vdst."""
    nbytes = 4 * _widths(name)["vdst"] // 2
    builder(name, data_bytes=nbytes, elements=2, lds_move="read", stride64=stride64)(
        lambda i, p: _build_read2(i, p, nbytes, stride64))


def write(name):
    """A write of the row's sub-dword element (data_bytes), or of data0's dwords."""
    facts = table_facts(name)
    nbytes = facts.data_bytes or 4 * facts.widths["data0"]
    builder(name, data_bytes=nbytes, lds_move="write")(lambda i, p: _build_write(i, p, nbytes))


def write_high_half(name):
    """GFX9 d16_hi write: the row's sub-dword element from the high half of data0."""
    nbytes = table_facts(name).data_bytes
    builder(name, data_bytes=nbytes)(lambda i, p: _build_write(i, p, nbytes, True))


def write2(name, stride64=False):
    nbytes = 4 * _widths(name)["data0"]
    builder(name, data_bytes=nbytes, elements=2, lds_move="write", stride64=stride64)(
        lambda i, p: _build_write2(i, p, nbytes, stride64))


def atomic(name, op):
    """An atomic ``op`` (memory.ATOMIC_OPS) on values as wide as data0; returns
    the old value when the row has a vdst."""
    widths = _widths(name)
    width, returns = 4 * widths["data0"], "vdst" in widths
    builder(name, data_bytes=width, lds_atomic=op, returns=returns)(
        lambda i, p: _build_atomic(i, p, op, width, returns))


def exchange2(name, stride64=False):
    """ds_wrxchg2*: two exchanges at offset0 and offset1 (in elements, or 64)."""
    width = 4 * _widths(name)["data0"]
    scale = width * (64 if stride64 else 1)
    builder(name, data_bytes=width, elements=2)(lambda i, p: _build_atomic(
        i, p, "swap", width, True,
        (int(i.fields.get("offset0", 0)) * scale, int(i.fields.get("offset1", 0)) * scale)))


def src2(name, op, width):
    """The src2 forms: ``op`` with the data read from LDS (see ``_build_src2``)."""
    builder(name, data_bytes=width)(lambda i, p: _build_src2(i, p, op, width))


# ------------------------------------------------------------ the mnemonics
read("ds_read_b32")
read("ds_read_b64")
read("ds_read_b96")
read("ds_read_b128")
read("ds_read_u8")
read("ds_read_i8")
read("ds_read_u16")
read("ds_read_i16")
read_d16("ds_read_u8_d16")
read_d16("ds_read_u8_d16_hi")
read_d16("ds_read_i8_d16")
read_d16("ds_read_i8_d16_hi")
read_d16("ds_read_u16_d16")
read_d16("ds_read_u16_d16_hi")
read2("ds_read2_b32")
read2("ds_read2st64_b32", stride64=True)
read2("ds_read2_b64")
read2("ds_read2st64_b64", stride64=True)
write("ds_write_b8")
write("ds_write_b16")
write("ds_write_b32")
write("ds_write_b64")
write("ds_write_b96")
write("ds_write_b128")
write_high_half("ds_write_b8_d16_hi")
write_high_half("ds_write_b16_d16_hi")
write2("ds_write2_b32")
write2("ds_write2st64_b32", stride64=True)
write2("ds_write2_b64")
write2("ds_write2st64_b64", stride64=True)
# ds_cmpst compares with DATA0 and stores DATA1 (the reverse of the vector
# cmpswap's register order); ds_mskor and ds_wrap use DATA0 then DATA1 as given.
atomic("ds_add_u32", "add")
atomic("ds_add_rtn_u32", "add")
atomic("ds_add_u64", "add")
atomic("ds_add_rtn_u64", "add")
atomic("ds_add_f32", "fadd")
atomic("ds_add_rtn_f32", "fadd")
atomic("ds_sub_u32", "sub")
atomic("ds_sub_rtn_u32", "sub")
atomic("ds_sub_u64", "sub")
atomic("ds_sub_rtn_u64", "sub")
atomic("ds_rsub_u32", "rsub")
atomic("ds_rsub_rtn_u32", "rsub")
atomic("ds_rsub_u64", "rsub")
atomic("ds_rsub_rtn_u64", "rsub")
atomic("ds_inc_u32", "inc")
atomic("ds_inc_rtn_u32", "inc")
atomic("ds_inc_u64", "inc")
atomic("ds_inc_rtn_u64", "inc")
atomic("ds_dec_u32", "dec")
atomic("ds_dec_rtn_u32", "dec")
atomic("ds_dec_u64", "dec")
atomic("ds_dec_rtn_u64", "dec")
atomic("ds_min_i32", "smin")
atomic("ds_min_rtn_i32", "smin")
atomic("ds_min_i64", "smin")
atomic("ds_min_rtn_i64", "smin")
atomic("ds_min_u32", "umin")
atomic("ds_min_rtn_u32", "umin")
atomic("ds_min_u64", "umin")
atomic("ds_min_rtn_u64", "umin")
atomic("ds_min_f32", "fmin")
atomic("ds_min_rtn_f32", "fmin")
atomic("ds_min_f64", "fmin")
atomic("ds_min_rtn_f64", "fmin")
atomic("ds_max_i32", "smax")
atomic("ds_max_rtn_i32", "smax")
atomic("ds_max_i64", "smax")
atomic("ds_max_rtn_i64", "smax")
atomic("ds_max_u32", "umax")
atomic("ds_max_rtn_u32", "umax")
atomic("ds_max_u64", "umax")
atomic("ds_max_rtn_u64", "umax")
atomic("ds_max_f32", "fmax")
atomic("ds_max_rtn_f32", "fmax")
atomic("ds_max_f64", "fmax")
atomic("ds_max_rtn_f64", "fmax")
atomic("ds_and_b32", "and")
atomic("ds_and_rtn_b32", "and")
atomic("ds_and_b64", "and")
atomic("ds_and_rtn_b64", "and")
atomic("ds_or_b32", "or")
atomic("ds_or_rtn_b32", "or")
atomic("ds_or_b64", "or")
atomic("ds_or_rtn_b64", "or")
atomic("ds_xor_b32", "xor")
atomic("ds_xor_rtn_b32", "xor")
atomic("ds_xor_b64", "xor")
atomic("ds_xor_rtn_b64", "xor")
atomic("ds_mskor_b32", "mskor")
atomic("ds_mskor_rtn_b32", "mskor")
atomic("ds_mskor_b64", "mskor")
atomic("ds_mskor_rtn_b64", "mskor")
atomic("ds_cmpst_b32", "cmpswap")
atomic("ds_cmpst_rtn_b32", "cmpswap")
atomic("ds_cmpst_b64", "cmpswap")
atomic("ds_cmpst_rtn_b64", "cmpswap")
atomic("ds_cmpst_f32", "fcmpswap")
atomic("ds_cmpst_rtn_f32", "fcmpswap")
atomic("ds_cmpst_f64", "fcmpswap")
atomic("ds_cmpst_rtn_f64", "fcmpswap")
atomic("ds_wrxchg_rtn_b32", "swap")
atomic("ds_wrxchg_rtn_b64", "swap")
atomic("ds_wrap_rtn_b32", "wrap")
exchange2("ds_wrxchg2_rtn_b32")
exchange2("ds_wrxchg2st64_rtn_b32", stride64=True)
exchange2("ds_wrxchg2_rtn_b64")
exchange2("ds_wrxchg2st64_rtn_b64", stride64=True)
src2("ds_add_src2_u32", "add", DWORD)
src2("ds_add_src2_u64", "add", QWORD)
src2("ds_add_src2_f32", "fadd", DWORD)
src2("ds_sub_src2_u32", "sub", DWORD)
src2("ds_sub_src2_u64", "sub", QWORD)
src2("ds_rsub_src2_u32", "rsub", DWORD)
src2("ds_rsub_src2_u64", "rsub", QWORD)
src2("ds_inc_src2_u32", "inc", DWORD)
src2("ds_inc_src2_u64", "inc", QWORD)
src2("ds_dec_src2_u32", "dec", DWORD)
src2("ds_dec_src2_u64", "dec", QWORD)
src2("ds_min_src2_i32", "smin", DWORD)
src2("ds_min_src2_i64", "smin", QWORD)
src2("ds_min_src2_u32", "umin", DWORD)
src2("ds_min_src2_u64", "umin", QWORD)
src2("ds_min_src2_f32", "fmin", DWORD)
src2("ds_min_src2_f64", "fmin", QWORD)
src2("ds_max_src2_i32", "smax", DWORD)
src2("ds_max_src2_i64", "smax", QWORD)
src2("ds_max_src2_u32", "umax", DWORD)
src2("ds_max_src2_u64", "umax", QWORD)
src2("ds_max_src2_f32", "fmax", DWORD)
src2("ds_max_src2_f64", "fmax", QWORD)
src2("ds_and_src2_b32", "and", DWORD)
src2("ds_and_src2_b64", "and", QWORD)
src2("ds_or_src2_b32", "or", DWORD)
src2("ds_or_src2_b64", "or", QWORD)
src2("ds_xor_src2_b32", "xor", DWORD)
src2("ds_xor_src2_b64", "xor", QWORD)
src2("ds_write_src2_b32", "swap", DWORD)
src2("ds_write_src2_b64", "swap", QWORD)

builder("ds_read_addtid_b32")(_build_read_addtid)
builder("ds_write_addtid_b32")(_build_write_addtid)
builder("ds_swizzle_b32", lane_gather="swizzle")(_build_swizzle)
builder("ds_permute_b32")(_build_permute)
builder("ds_bpermute_b32", lane_gather="bpermute")(_build_bpermute)
builder("ds_append")(lambda i, p: _build_append(i, p, +1))
builder("ds_consume")(lambda i, p: _build_append(i, p, -1))
builder("ds_nop", no_effect=True)(_build_nop)
builder("ds_condxchg32_rtn_b64")(_build_condxchg32)

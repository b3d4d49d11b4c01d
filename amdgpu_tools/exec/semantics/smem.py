"""Semantics of the scalar memory instructions (SMRD on GFX6/7, SMEM on GFX8/9).

A scalar load reads dwords at ``base + offset`` for each wave (the low two
address bits are ignored, as the hardware ignores them) and writes SGPRs.
The offset is an immediate (in dwords on GFX6/7, bytes on GFX8/9) or an SGPR
holding a byte offset; GFX9 can add both (the soe bit).  ``s_buffer_*``
take their base from a V# and return zero for dwords past its range.
GFX9's s_scratch_* address the wave's private area: SBASE (normally
FLAT_SCRATCH) plus the immediate plus the SGPR offset scaled by the wave
size, which lands dword k on lane k's slot of the lane-interleaved layout.
Cache maintenance instructions are no-ops: the executor has no caches.
Every mnemonic is registered on one line at the end of this module; data
widths and whether the base is a V# are read from its table row.
"""

from __future__ import annotations

import numpy as np

from ...errors import MemoryFault
from ..addressing import decode_buffer_resource
from .memory import Piece, atomic_serial, join64, split64, watched
from ..core.operands import scalar_getter
from ..core.registry import builder

_U32 = np.uint32
_U64 = np.uint64
_SGPR_OFF = 0x7F          # GFX9 soffset field value meaning "no SGPR offset"


def _sign_extend(value, bits):
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def immediate_offset(inst, generation):
    """The byte offset (uint64, two's complement) of a scalar access whose
    offset is a constant: an immediate, or CI's literal dword offset; None
    where an SGPR supplies it or part of it."""
    fields = inst.fields
    imm = int(fields.get("imm", 0))
    offset = int(fields.get("offset", 0))
    if generation <= 7:
        if imm:
            return _U64(offset * 4)
        if offset == 255:                          # CI: 32-bit literal dword offset
            return _U64(((inst.literal or 0) & 0xFFFFFFFF) * 4)
        return None
    if generation == 8:
        return _U64(offset & 0xFFFFF) if imm else None
    if not imm or (int(fields.get("soe", 0)) and int(fields.get("soffset", _SGPR_OFF)) != _SGPR_OFF):
        return None
    return _U64(_sign_extend(offset, 21) & 0xFFFF_FFFF_FFFF_FFFF)


def _offset_getter(inst, generation):
    """fn(state, sel) -> (n,) uint64 byte offsets, from the imm/SGPR/literal fields."""
    constant = immediate_offset(inst, generation)
    if constant is not None:
        return lambda state, sel: constant
    fields = inst.fields
    imm = int(fields.get("imm", 0))
    offset = int(fields.get("offset", 0))
    if generation <= 8:
        sgpr = scalar_getter(offset if generation <= 7 else offset & 0xFF, "u32")
        return lambda state, sel: np.asarray(sgpr(state, sel), _U64)
    parts = []
    if imm:
        parts.append(lambda state, sel, c=_U64(_sign_extend(offset, 21) & 0xFFFF_FFFF_FFFF_FFFF): c)
    else:
        sgpr = scalar_getter(offset & 0xFF, "u32")
        parts.append(lambda state, sel, g=sgpr: np.asarray(g(state, sel), _U64))
    soffset = int(fields.get("soffset", _SGPR_OFF))
    if int(fields.get("soe", 0)) and soffset != _SGPR_OFF:
        extra = scalar_getter(soffset, "u32")
        parts.append(lambda state, sel, g=extra: np.asarray(g(state, sel), _U64))

    def total(state, sel):
        value = _U64(0)
        for part in parts:
            value = value + part(state, sel)
        return value
    return total


def _data_code(inst):
    return int(inst.fields["sdata"] if "sdata" in inst.fields else inst.fields["sdst"])


def _base_code(inst):
    return int(inst.fields["sbase"]) * 2


def _fault(ctx, fault, addresses):
    rows = np.flatnonzero((addresses[:, None] <= fault.address)
                          & (fault.address < addresses[:, None] + _U64(64)))
    return ctx.fault(f"memory fault: {fault}", address=fault.address,
                     wave_index=int(rows[0]) if rows.size else 0)


def _watch(ctx, chunk, valid, write):
    """Tell a hazard checker watching memory of a scalar access: one lane per
    wave stands for the wave, each dword a chunk (atomics are never races and
    are not reported)."""
    if ctx.state.memory_watch is None:
        return
    lanes = np.zeros((ctx.n, 64), bool)
    lanes[:, 0] = True
    watched(ctx, [Piece(ctx.state.memory, lanes, chunk, valid, 4)], write, False)


def _base_and_offset(ctx, offset_of, base_code, generation, buffer):
    """(base, offset, resource) per wave: the base comes from the buffer
    resource (s_buffer_*, returned as ``resource`` for range checks) or from
    the SGPR pair SBASE; the offset from the instruction's offset operand."""
    state, sel = ctx.state, ctx.sel
    offset = np.broadcast_to(offset_of(state, sel), (ctx.n,)).astype(_U64)
    if buffer:
        resource = decode_buffer_resource(state.read_sgpr(sel, base_code, 4), generation)
        return resource.base, offset, resource
    return state.read_sgpr64(sel, base_code), offset, None


#: Scalar scratch (GFX9 s_scratch_*): the SGPR offset counts in wave-sized
#: units (the CLRX GCN 1.4 SMEM reference: SBASE + (OFFSET & ~3) +
#: (SGPR offset & ~3) * 64).  With SBASE = FLAT_SCRATCH, an SGPR offset B
#: reaches private byte offset B of the lane-interleaved layout, where
#: dword k of the access is lane k's dword.
SCRATCH_SGPR_SCALE = 64


def _scratch_offset_getter(inst):
    """fn(state, sel) -> byte offsets of s_scratch_*: imm + SGPR offset * 64."""
    fields = inst.fields
    imm = int(fields.get("imm", 0))
    constant = _U64(_sign_extend(int(fields.get("offset", 0)), 21) & 0xFFFF_FFFF_FFFF_FFFC) \
        if imm else _U64(0)
    code = int(fields.get("soffset", _SGPR_OFF)) if int(fields.get("soe", 0)) else \
        (None if imm else int(fields.get("offset", 0)) & 0xFF)
    sgpr = scalar_getter(code, "u32") if code not in (None, _SGPR_OFF) else None

    def offset(state, sel):
        if sgpr is None:
            return constant
        scaled = (np.asarray(sgpr(state, sel), _U64) & ~_U64(3)) * _U64(SCRATCH_SGPR_SCALE)
        return constant + scaled
    return offset


def _build_load(inst, program, dwords, buffer, offset_of=None):
    """s_load / s_buffer_load, and s_scratch_load with its own ``offset_of``."""
    offset_of = offset_of or _offset_getter(inst, program.generation)
    base_code, data_code = _base_code(inst), _data_code(inst)
    generation = program.generation

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        base, offset, rsrc = _base_and_offset(ctx, offset_of, base_code, generation, buffer)
        if buffer:
            limit = np.where(rsrc.stride == 0, rsrc.num_records,
                             rsrc.num_records * np.maximum(rsrc.stride, _U64(1)))
        addresses = (base + offset) & ~_U64(3)
        chunk = addresses[:, None] + np.arange(dwords, dtype=_U64) * _U64(4)
        valid = np.ones(chunk.shape, bool)
        if buffer:
            valid = (offset[:, None] & ~_U64(3)) + np.arange(1, dwords + 1, dtype=_U64) * \
                _U64(4) <= limit[:, None]
        _watch(ctx, chunk, valid, False)
        values = np.zeros(chunk.shape, _U32)
        try:
            if valid.all():
                values = state.memory.gather(addresses, dwords * 4).view(_U32)
            elif valid.any():
                values[valid] = state.memory.gather(chunk[valid], 4).view(_U32)[:, 0]
        except MemoryFault as fault:
            raise _fault(ctx, fault, addresses) from None
        state.write_sgpr(sel, data_code, values if dwords > 1 else values[:, 0], dwords)
    return run


def _build_store(inst, program, dwords, buffer, offset_of=None):
    """s_store / s_buffer_store, and s_scratch_store with its own ``offset_of``."""
    offset_of = offset_of or _offset_getter(inst, program.generation)
    base_code, data_code = _base_code(inst), _data_code(inst)
    generation = program.generation

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        base, offset, _ = _base_and_offset(ctx, offset_of, base_code, generation, buffer)
        addresses = (base + offset) & ~_U64(3)
        data = state.sgpr[data_code:data_code + dwords, sel].T
        _watch(ctx, addresses[:, None] + np.arange(dwords, dtype=_U64) * _U64(4),
               np.ones((ctx.n, dwords), bool), True)
        try:
            state.memory.scatter(addresses, np.ascontiguousarray(data, _U32).view(np.uint8))
        except MemoryFault as fault:
            raise _fault(ctx, fault, addresses) from None
    return run


def _build_atomic(inst, program, op, width, buffer):
    """One atomic per wave on ``base + offset``, waves in order; glc returns pre-op."""
    offset_of = _offset_getter(inst, program.generation)
    base_code, data_code = _base_code(inst), _data_code(inst)
    generation = program.generation
    returns = bool(int(inst.fields.get("glc", 0)))
    two = op == "cmpswap"
    step = width // 4

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        base, offset, rsrc = _base_and_offset(ctx, offset_of, base_code, generation, buffer)
        valid = offset + _U64(width) <= rsrc.num_records if buffer else np.ones(ctx.n, bool)
        addresses = (base + offset) & ~_U64(width - 1 if width == 8 else 3)
        words = state.sgpr[data_code:data_code + step * (2 if two else 1), sel].T
        data = words[:, 0] if width == 4 else join64(words[:, 0:2])
        data2 = None
        if two:
            data2 = words[:, 1] if width == 4 else join64(words[:, 2:4])
        old = np.zeros(ctx.n, _U32 if width == 4 else _U64)
        try:
            old[valid] = atomic_serial(state.memory, addresses[valid], op, width, data[valid],
                                       None if data2 is None else data2[valid])
        except MemoryFault as fault:
            raise _fault(ctx, fault, addresses) from None
        if returns:
            values = old if width == 4 else split64(old)
            state.write_sgpr(sel, data_code, values, step)
    return run


def _build_memtime(inst, program):
    """s_memtime / s_memrealtime: a 64-bit counter that only moves forward."""
    data_code = _data_code(inst)

    def run(ctx):
        ticks = ctx.state.memtime = ctx.state.memtime + 1
        ctx.state.write_sgpr64(ctx.sel, data_code, np.full(ctx.n, ticks * 64, _U64))
    return run


def _build_nop(inst, program):
    def run(ctx):
        return None
    return run


def _row(name):
    """(data dwords, whether the base is a buffer resource) of ``name`` from its
    table row (isa/data/smem.json: sdata/sdst width, sbase 4 SGPRs = a V#)."""
    from ...isa.families.smem import FAMILY
    row = next(row for row in FAMILY.rows_named(name) if row.name == name)
    widths = {spec["field"]: spec.get("width") for spec in row.operands}
    return widths.get("sdata") or widths["sdst"], widths["sbase"] == 4


def load(name):
    """s_load_* / s_buffer_load_*: as many dwords as the row's sdata is wide.
    ``scalar_load`` marks a plain load (its base an address) for compiled
    blocks (exec/compiled/codegen.py)."""
    dwords, buffer = _row(name)
    builder(name, data_bytes=4 * dwords, scalar_load=not buffer)(
        lambda i, p: _build_load(i, p, dwords, buffer))


def store(name):
    dwords, buffer = _row(name)
    builder(name, data_bytes=4 * dwords)(lambda i, p: _build_store(i, p, dwords, buffer))


def atomic(name, op):
    """An atomic ``op`` on values as wide as sdata (half of it for cmpswap,
    whose sdata holds the source and the compare value)."""
    dwords, buffer = _row(name)
    width = 4 * dwords // (2 if op == "cmpswap" else 1)
    builder(name, data_bytes=width)(lambda i, p: _build_atomic(i, p, op, width, buffer))


def scratch_load(name):
    """GFX9 s_scratch_load_*: the address from the wave's scratch (see above)."""
    dwords, _ = _row(name)
    builder(name, data_bytes=4 * dwords)(
        lambda i, p: _build_load(i, p, dwords, False, _scratch_offset_getter(i)))


def scratch_store(name):
    dwords, _ = _row(name)
    builder(name, data_bytes=4 * dwords)(
        lambda i, p: _build_store(i, p, dwords, False, _scratch_offset_getter(i)))


def cache_control(name):
    """Cache maintenance and probes: nothing to do, the executor has no caches
    (the fact, ``no_effect``, lets a compiled block run it)."""
    builder(name, no_effect=True)(_build_nop)


# ------------------------------------------------------------ the mnemonics
load("s_load_dword")
load("s_buffer_load_dword")
load("s_load_dwordx2")
load("s_buffer_load_dwordx2")
load("s_load_dwordx4")
load("s_buffer_load_dwordx4")
load("s_load_dwordx8")
load("s_buffer_load_dwordx8")
load("s_load_dwordx16")
load("s_buffer_load_dwordx16")
store("s_store_dword")
store("s_buffer_store_dword")
store("s_store_dwordx2")
store("s_buffer_store_dwordx2")
store("s_store_dwordx4")
store("s_buffer_store_dwordx4")
atomic("s_atomic_swap", "swap")
atomic("s_atomic_swap_x2", "swap")
atomic("s_buffer_atomic_swap", "swap")
atomic("s_buffer_atomic_swap_x2", "swap")
atomic("s_atomic_cmpswap", "cmpswap")
atomic("s_atomic_cmpswap_x2", "cmpswap")
atomic("s_buffer_atomic_cmpswap", "cmpswap")
atomic("s_buffer_atomic_cmpswap_x2", "cmpswap")
atomic("s_atomic_add", "add")
atomic("s_atomic_add_x2", "add")
atomic("s_buffer_atomic_add", "add")
atomic("s_buffer_atomic_add_x2", "add")
atomic("s_atomic_sub", "sub")
atomic("s_atomic_sub_x2", "sub")
atomic("s_buffer_atomic_sub", "sub")
atomic("s_buffer_atomic_sub_x2", "sub")
atomic("s_atomic_smin", "smin")
atomic("s_atomic_smin_x2", "smin")
atomic("s_buffer_atomic_smin", "smin")
atomic("s_buffer_atomic_smin_x2", "smin")
atomic("s_atomic_umin", "umin")
atomic("s_atomic_umin_x2", "umin")
atomic("s_buffer_atomic_umin", "umin")
atomic("s_buffer_atomic_umin_x2", "umin")
atomic("s_atomic_smax", "smax")
atomic("s_atomic_smax_x2", "smax")
atomic("s_buffer_atomic_smax", "smax")
atomic("s_buffer_atomic_smax_x2", "smax")
atomic("s_atomic_umax", "umax")
atomic("s_atomic_umax_x2", "umax")
atomic("s_buffer_atomic_umax", "umax")
atomic("s_buffer_atomic_umax_x2", "umax")
atomic("s_atomic_and", "and")
atomic("s_atomic_and_x2", "and")
atomic("s_buffer_atomic_and", "and")
atomic("s_buffer_atomic_and_x2", "and")
atomic("s_atomic_or", "or")
atomic("s_atomic_or_x2", "or")
atomic("s_buffer_atomic_or", "or")
atomic("s_buffer_atomic_or_x2", "or")
atomic("s_atomic_xor", "xor")
atomic("s_atomic_xor_x2", "xor")
atomic("s_buffer_atomic_xor", "xor")
atomic("s_buffer_atomic_xor_x2", "xor")
atomic("s_atomic_inc", "inc")
atomic("s_atomic_inc_x2", "inc")
atomic("s_buffer_atomic_inc", "inc")
atomic("s_buffer_atomic_inc_x2", "inc")
atomic("s_atomic_dec", "dec")
atomic("s_atomic_dec_x2", "dec")
atomic("s_buffer_atomic_dec", "dec")
atomic("s_buffer_atomic_dec_x2", "dec")
scratch_load("s_scratch_load_dword")
scratch_store("s_scratch_store_dword")
scratch_load("s_scratch_load_dwordx2")
scratch_store("s_scratch_store_dwordx2")
scratch_load("s_scratch_load_dwordx4")
scratch_store("s_scratch_store_dwordx4")
builder("s_memtime")(_build_memtime)
builder("s_memrealtime")(_build_memtime)
cache_control("s_dcache_inv")
cache_control("s_dcache_wb")
cache_control("s_dcache_inv_vol")
cache_control("s_dcache_wb_vol")
cache_control("s_dcache_discard")
cache_control("s_dcache_discard_x2")
cache_control("s_atc_probe")
cache_control("s_atc_probe_buffer")
cache_control("s_icache_inv")

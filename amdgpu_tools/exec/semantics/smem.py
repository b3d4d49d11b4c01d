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
"""

from __future__ import annotations

import numpy as np

from ...errors import MemoryFault
from ..addressing import decode_buffer_resource
from .memory import atomic_serial, join64, split64
from ..core.operands import scalar_getter
from ..core.registry import SEMANTICS, builder

_U32 = np.uint32
_U64 = np.uint64
_SGPR_OFF = 0x7F          # GFX9 soffset field value meaning "no SGPR offset"

_DWORDS = {"dword": 1, "dwordx2": 2, "dwordx4": 4, "dwordx8": 8, "dwordx16": 16}


def _sign_extend(value, bits):
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _offset_getter(inst, generation):
    """fn(state, sel) -> (n,) uint64 byte offsets, from the imm/SGPR/literal fields."""
    fields = inst.fields
    imm = int(fields.get("imm", 0))
    offset = int(fields.get("offset", 0))
    if generation <= 7:
        if imm:
            constant = _U64(offset * 4)
            return lambda state, sel: constant
        if offset == 255:                          # CI: 32-bit literal dword offset
            constant = _U64(((inst.literal or 0) & 0xFFFFFFFF) * 4)
            return lambda state, sel: constant
        sgpr = scalar_getter(offset, "u32")
        return lambda state, sel: np.asarray(sgpr(state, sel), _U64)
    if generation == 8:
        if imm:
            constant = _U64(offset & 0xFFFFF)
            return lambda state, sel: constant
        sgpr = scalar_getter(offset & 0xFF, "u32")
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
        try:
            state.memory.scatter(addresses, np.ascontiguousarray(data, _U32).view(np.uint8))
        except MemoryFault as fault:
            raise _fault(ctx, fault, addresses) from None
    return run


#: Scalar atomic stem -> ATOMIC_OPS name (GFX9 s_atomic_* / s_buffer_atomic_*)
SCALAR_ATOMICS = {"swap": "swap", "cmpswap": "cmpswap", "add": "add", "sub": "sub",
                  "smin": "smin", "umin": "umin", "smax": "smax", "umax": "umax",
                  "and": "and", "or": "or", "xor": "xor", "inc": "inc", "dec": "dec"}


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


def _register_all():
    for suffix, dwords in _DWORDS.items():
        builder(f"s_load_{suffix}")(lambda i, p, d=dwords: _build_load(i, p, d, False))
        builder(f"s_buffer_load_{suffix}")(lambda i, p, d=dwords: _build_load(i, p, d, True))
        if dwords <= 4:
            builder(f"s_store_{suffix}")(lambda i, p, d=dwords: _build_store(i, p, d, False))
            builder(f"s_buffer_store_{suffix}")(
                lambda i, p, d=dwords: _build_store(i, p, d, True))
    for stem, op in SCALAR_ATOMICS.items():
        for wide in (False, True):
            suffix = f"{stem}{'_x2' if wide else ''}"
            for buffer in (False, True):
                name = f"s_{'buffer_' if buffer else ''}atomic_{suffix}"
                builder(name)(lambda i, p, o=op, w=8 if wide else 4, b=buffer:
                              _build_atomic(i, p, o, w, b))
    for suffix, dwords in (("dword", 1), ("dwordx2", 2), ("dwordx4", 4)):
        builder(f"s_scratch_load_{suffix}")(
            lambda i, p, d=dwords: _build_load(i, p, d, False, _scratch_offset_getter(i)))
        builder(f"s_scratch_store_{suffix}")(
            lambda i, p, d=dwords: _build_store(i, p, d, False, _scratch_offset_getter(i)))
    builder("s_memtime")(_build_memtime)
    builder("s_memrealtime")(_build_memtime)
    for name in ("s_dcache_inv", "s_dcache_wb", "s_dcache_inv_vol", "s_dcache_wb_vol",
                 "s_dcache_discard", "s_dcache_discard_x2", "s_atc_probe",
                 "s_atc_probe_buffer", "s_icache_inv"):
        if name not in SEMANTICS:
            builder(name)(_build_nop)


_register_all()

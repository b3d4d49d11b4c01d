"""Cross-lane and scalar<->vector moves: v_readlane, v_writelane,
v_readfirstlane, v_swap, v_movrel*, and the VALU no-ops."""

from __future__ import annotations

import numpy as np

from ..core.formats import field
from ..core.operands import OperandError, constant_bits, is_constant, scalar_getter, vector_getter
from ..core.registry import builder, instruction
from ..core.state import M0


#: The bits of a readlane/writelane's lane operand that pick the lane (a wave
#: has 64): compiled blocks use it too (exec/compiled/codegen.py).
LANE_SELECT_MASK = 63


def _source_vgpr(inst):
    code = field(inst, "src0")
    return code - 256 if code >= 256 else code


def _constant_lane(inst):
    """The lane of a readlane/writelane whose lane operand is a constant (as in
    every SGPR spill and reload), else None: then one plain index does."""
    code = field(inst, "src1", "vsrc1")
    if not is_constant(code):
        return None
    return int(constant_bits(code, "u32", inst.literal)) & LANE_SELECT_MASK


@builder("v_readlane_b32", lane_move="read")
def v_readlane_b32(inst, program):
    """SGPR = VGPR[lane], lane = src1 & 63 (EXEC is ignored). The facts
    (``lane_move``) let compiled blocks run it (codegen._lane_move)."""
    reg = _source_vgpr(inst)
    lane = scalar_getter(field(inst, "src1", "vsrc1"), "u32", inst.literal)
    dst = field(inst, "vdst", "sdst")
    fixed = _constant_lane(inst)
    if fixed is not None:
        def run_fixed(ctx):
            state = ctx.state
            state.sgpr[dst, ctx.sel] = state.vgpr[reg, ctx.sel, fixed]
        return run_fixed

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        lanes = np.broadcast_to(np.asarray(lane(state, sel), np.int64) & LANE_SELECT_MASK,
                                (ctx.n,))
        state.sgpr[dst, sel] = state.vgpr[reg, sel][np.arange(ctx.n), lanes]
    return run


@builder("v_writelane_b32", lane_move="write")
def v_writelane_b32(inst, program):
    """VGPR[lane] = SGPR/constant, lane = src1 & 63, regardless of EXEC."""
    value = scalar_getter(field(inst, "src0"), "b32", inst.literal)
    lane = scalar_getter(field(inst, "src1", "vsrc1"), "u32", inst.literal)
    dst = field(inst, "vdst")
    fixed = _constant_lane(inst)
    if fixed is not None:
        def run_fixed(ctx):
            state = ctx.state
            state.vgpr[dst, ctx.sel, fixed] = value(state, ctx.sel)
        return run_fixed

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        lanes = np.broadcast_to(np.asarray(lane(state, sel), np.int64) & LANE_SELECT_MASK,
                                (ctx.n,))
        values = np.broadcast_to(np.asarray(value(state, sel), np.uint32), (ctx.n,))
        rows = state.vgpr[dst, sel]
        rows[np.arange(ctx.n), lanes] = values
        state.vgpr[dst, sel] = rows
    return run


@builder("v_readfirstlane_b32", lane_move="first")
def v_readfirstlane_b32(inst, program):
    """SGPR = the source in the lowest active lane, lane 0 when EXEC is 0:
    ``np.argmax`` of the wave's EXEC lanes, which compiled blocks take too
    (``lane_move``: codegen._lane_move)."""
    source = vector_getter(field(inst, "src0"), "b32", inst.literal)
    dst = field(inst, "vdst")

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        values = np.broadcast_to(np.asarray(source(state, sel), np.uint32), (ctx.n, 64))
        first = np.argmax(ctx.exec_lanes(), axis=1)
        state.sgpr[dst, sel] = values[np.arange(ctx.n), first]
    return run


@builder("v_swap_b32")
def v_swap_b32(inst, program):
    a, b = field(inst, "vdst"), _source_vgpr(inst)

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        lanes = ctx.write_lanes()
        first, second = state.vgpr[a, sel].copy(), state.vgpr[b, sel].copy()
        state.write_vgpr(sel, a, second, lanes)
        state.write_vgpr(sel, b, first, lanes)
    return run


def _movrel(inst, src_relative, dst_relative):
    """VGPR moves indexed by M0 (which differs per wave: handled wave by wave).

    v_movrels: D = VGPR[S0 + M0]; v_movreld: VGPR[D + M0] = S0, where S0 may
    be any source operand (SGPR, constant, literal); v_movrelsd: VGPR[D + M0]
    = VGPR[S0 + M0]. A relative source must be a VGPR.
    """
    code, dst = field(inst, "src0"), field(inst, "vdst")
    if src_relative and code < 256:
        raise OperandError(f"{inst.op}: the relative source must be a VGPR")
    plain_source = None if src_relative else vector_getter(code, "u32", inst.literal)

    def run(ctx):
        state = ctx.state
        lanes = ctx.exec_lanes()
        for position, wave in enumerate(ctx.waves()):
            offset = int(state.sgpr[M0, wave])
            d = dst + offset if dst_relative else dst
            s = code - 256 + offset if src_relative else 0
            if max(s, d) >= state.vgpr.shape[0]:
                raise ctx.fault(f"relative VGPR index out of range (m0={offset})",
                                wave_index=position)
            active = lanes[position]
            if src_relative:
                values = state.vgpr[s, wave]
            else:
                one = slice(wave, wave + 1)
                values = np.broadcast_to(plain_source(state, one), (1, 64))[0]
            state.vgpr[d, wave, active] = values[active]
    return run


@builder("v_movrels_b32")
def v_movrels_b32(inst, program):
    return _movrel(inst, True, False)


@builder("v_movreld_b32")
def v_movreld_b32(inst, program):
    return _movrel(inst, False, True)


@builder("v_movrelsd_b32")
def v_movrelsd_b32(inst, program):
    return _movrel(inst, True, True)


@builder("v_mqsad_u32_u8")
def v_mqsad_u32_u8(inst, program):
    """Masked quad SAD into four 32-bit accumulators: D[i] = S2[i] + masked SAD of
    the pattern S1 against the 64-bit reference S0 shifted by i bytes."""
    from .valu_int import sad_bytes
    reference = vector_getter(field(inst, "src0"), "u64", inst.literal)
    pattern = vector_getter(field(inst, "src1"), "u32", inst.literal)
    accumulator = field(inst, "src2")
    dst = field(inst, "vdst")

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        ref, pat = reference(state, sel), pattern(state, sel)
        lanes = ctx.write_lanes()
        totals = []
        for shift in range(4):
            base = state.vgpr[accumulator - 256 + shift, sel] if accumulator >= 256 else \
                np.uint32(0)
            totals.append((sad_bytes(pat, ref, shift, masked=True) + base).astype(np.uint32))
        for shift, total in enumerate(totals):
            state.write_vgpr(sel, dst + shift, np.broadcast_to(total, (ctx.n, 64)), lanes)
    return run


@instruction("v_nop")
def v_nop(ctx):
    return None


@instruction("v_clrexcp")
def v_clrexcp(ctx):
    return None

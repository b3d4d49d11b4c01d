"""DPP and SDWA operand processing (GFX8/GFX9), bound at pre-decode time.

DPP permutes src0 across lanes (quad_perm, row shifts/rotates, wave shifts,
mirrors, row broadcasts) and restricts writes to the enabled rows and banks;
a lane whose source lane is out of range or disabled reads 0 with
``bound_ctrl`` set, and is not written otherwise. SDWA selects a byte or word
of each source (zero- or sign-extended) and places the result in a byte or
word of the destination, padding, sign-extending or preserving the rest.
"""

from __future__ import annotations

import functools

import numpy as np

from . import operands as ops
from .operands import field

_LANE = np.arange(64)
_ROW_BASE = _LANE & ~15
_IN_ROW = _LANE & 15


def dpp_sources(ctrl: int):
    """(source lane per lane, lane-has-a-source) for a dpp_ctrl value."""
    if ctrl <= 0xFF:
        src = (_LANE & ~3) + ((ctrl >> (2 * (_LANE & 3))) & 3)
        return src, np.ones(64, np.bool_)
    if 0x101 <= ctrl <= 0x10F:
        moved = _IN_ROW + (ctrl & 15)
        return _ROW_BASE + np.minimum(moved, 15), moved <= 15
    if 0x111 <= ctrl <= 0x11F:
        moved = _IN_ROW - (ctrl & 15)
        return _ROW_BASE + np.maximum(moved, 0), moved >= 0
    if 0x121 <= ctrl <= 0x12F:
        return _ROW_BASE + ((_IN_ROW - (ctrl & 15)) & 15), np.ones(64, np.bool_)
    if ctrl == 0x130:
        return np.minimum(_LANE + 1, 63), _LANE + 1 <= 63
    if ctrl == 0x134:
        return (_LANE + 1) & 63, np.ones(64, np.bool_)
    if ctrl == 0x138:
        return np.maximum(_LANE - 1, 0), _LANE >= 1
    if ctrl == 0x13C:
        return (_LANE - 1) & 63, np.ones(64, np.bool_)
    if ctrl == 0x140:
        return _ROW_BASE + (15 - _IN_ROW), np.ones(64, np.bool_)
    if ctrl == 0x141:
        return (_LANE & ~7) + (7 - (_LANE & 7)), np.ones(64, np.bool_)
    if ctrl == 0x142:
        row = _LANE >> 4
        return np.maximum(row * 16 - 1, 0), row >= 1
    if ctrl == 0x143:
        row = _LANE >> 4
        return np.full(64, 31), row >= 2
    raise ops.OperandError(f"reserved dpp_ctrl value 0x{ctrl:x}")


class DppModifiers:
    """src0 lane permutation, neg/abs on both sources, row/bank write masks."""

    def __init__(self, inst):
        ctrl = field(inst, "dpp_ctrl")
        self.sources, self.valid = dpp_sources(ctrl)
        self.bound_ctrl = bool(field(inst, "bound_ctrl"))
        row_mask = field(inst, "row_mask", default=0xF)
        bank_mask = field(inst, "bank_mask", default=0xF)
        self.enabled = ((row_mask >> (_LANE >> 4)) & 1).astype(bool) & \
            ((bank_mask >> ((_LANE >> 2) & 3)) & 1).astype(bool)
        self.neg = (field(inst, "src0_neg"), field(inst, "src1_neg"))
        self.abs = (field(inst, "src0_abs"), field(inst, "src1_abs"))

    def wrap(self, index, getter, type_):
        if index == 0:
            sources, valid, bound_ctrl = self.sources, self.valid, self.bound_ctrl
            inner = getter

            def getter(state, sel):
                values = np.asarray(inner(state, sel))[:, sources]
                if bound_ctrl:
                    readable = valid & state.exec_lanes(sel)[:, sources]
                    values = np.where(readable, values, values.dtype.type(0))
                return values
        if index < 2:
            modify = ops.source_modifier(type_, bool(self.abs[index]), bool(self.neg[index]))
            if modify is not None:
                base = getter
                return lambda state, sel: modify(base(state, sel))
        return getter

    def lanes(self, ctx, exec_lanes):
        """Lanes written: EXEC & row/bank mask & (source valid unless bound_ctrl)."""
        lanes = exec_lanes & self.enabled
        if not self.bound_ctrl:
            lanes = lanes & self.valid & exec_lanes[:, self.sources]
        return lanes


_SEL_SHIFT = {0: 0, 1: 8, 2: 16, 3: 24, 4: 0, 5: 16, 6: 0}
_SEL_BITS = {0: 8, 1: 8, 2: 8, 3: 8, 4: 16, 5: 16, 6: 32}


@functools.lru_cache(maxsize=None)
def sdwa_selector(sel, sext):
    """``select(bits)``: the byte or word ``sel`` of 32-bit ``bits`` (6: all
    of them), zero- or sign-extended, as uint32. One function per selection,
    so that a compiled block calls the interpreter's own (jitcopy.part)."""
    width = _SEL_BITS[sel]
    shift = np.uint32(_SEL_SHIFT[sel])
    mask = np.uint32((1 << width) - 1 if width < 32 else 0xFFFFFFFF)
    sign = np.uint32(1 << (width - 1))
    extend = bool(sext) and width < 32

    def select(bits):
        value = (np.asarray(bits, np.uint32) >> shift) & mask
        if extend:
            value = (value ^ sign) - sign
        return np.asarray(value, np.uint32)     # (a scalar form's widened value wraps)
    return select


class SdwaModifiers:
    """Source selects with sign extension, neg/abs; destination select."""

    def __init__(self, inst):
        self.sel = (field(inst, "src0_sel", default=6), field(inst, "src1_sel", default=6))
        self.sext = (field(inst, "src0_sext"), field(inst, "src1_sext"))
        self.neg = (field(inst, "src0_neg"), field(inst, "src1_neg"))
        self.abs = (field(inst, "src0_abs"), field(inst, "src1_abs"))

    def wrap(self, index, getter, type_):
        if index > 1:
            return getter
        sel, sext = self.sel[index], bool(self.sext[index])
        if sel != 6 or sext:
            inner, select = getter, sdwa_selector(sel, sext)
            getter = (lambda state, sel_: select(inner(state, sel_)))
        modify = ops.source_modifier(type_, bool(self.abs[index]), bool(self.neg[index]))
        if modify is not None:
            base = getter
            return lambda state, sel_: modify(base(state, sel_))
        return getter

    def lanes(self, ctx, exec_lanes):
        return exec_lanes


def source_modifiers(inst):
    return DppModifiers(inst) if inst.encoding == "DPP" else SdwaModifiers(inst)


@functools.lru_cache(maxsize=None)
def sdwa_placer(sel, unused):
    """``place(bits, old)``: the register value a result's ``bits`` make with
    SDWA dst_sel ``sel`` and dst_unused ``unused``: the selected byte or word,
    the rest zero (0, UNUSED_PAD), the result's sign (1, UNUSED_SEXT) or
    ``old``'s (2, UNUSED_PRESERVE). One function per pair, as ``sdwa_selector``."""
    width = _SEL_BITS[sel]
    shift = np.uint32(_SEL_SHIFT[sel])
    mask = np.uint32(((1 << width) - 1) << _SEL_SHIFT[sel]) if width < 32 else np.uint32(0xFFFFFFFF)
    keep = np.uint32(~int(mask) & 0xFFFFFFFF)
    top = np.uint32(1 << (width - 1))
    above = np.uint32(~((1 << (width + _SEL_SHIFT[sel])) - 1) & 0xFFFFFFFF)

    def place(bits, old):
        bits = np.asarray(bits, np.uint32)
        if width == 32:
            return bits
        placed = (bits << shift) & mask
        if unused == 2:
            return np.asarray((np.asarray(old, np.uint32) & keep) | placed, np.uint32)
        if unused == 1:
            return np.asarray(np.where((bits & top) != 0, placed | above, placed), np.uint32)
        return np.asarray(placed, np.uint32)
    return place


def sdwa_writer(inst, dst):
    """Write a result into the selected part of VGPR ``dst`` (SDWA dst_sel/dst_unused)."""
    place = sdwa_placer(field(inst, "dst_sel", default=6), field(inst, "dst_unused", default=0))

    def write(state, sel_, bits, lanes):
        state.write_vgpr(sel_, dst, place(bits, state.vgpr[dst, sel_]), lanes)
    return write

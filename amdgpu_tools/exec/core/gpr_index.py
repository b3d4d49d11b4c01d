"""Per-wave modes that change what an instruction does: VGPR indexing
(GFX8/GFX9 ``s_set_gpr_idx_*``) and vector skip (``s_setvskip``).

While MODE.GPR_IDX_EN (bit 27) is set, a VALU instruction adds the index
M0[7:0] to the VGPR numbers of the operand slots enabled in M0[15:12]
(bit 0 SRC0, 1 SRC1, 2 SRC2, 3 DST). SGPR, constant and literal operands
are not VGPRs and stay as they are.

The index is per wave, while the run loop executes pre-decoded records with
fixed register numbers for a whole group of waves. So waves with the mode
on leave the fast loop: the scheduler runs them one instruction at a time,
split into parts that share (index, enables), each part with a record
pre-decoded for its indexed registers (cached by (pc, index, enables)).
Waves with the mode off never see any of this.

MODE.VSKIP (bit 28), set by s_setvskip, makes a wave skip every vector
instruction (VALU, vector memory, LDS, export) until it is cleared: those
waves are stepped the same way, with a record that does nothing.
"""

from __future__ import annotations

import numpy as np

from .state import M0

#: MODE.GPR_IDX_EN and MODE.VSKIP
MODE_GPR_IDX_EN = np.uint32(1 << 27)
MODE_VSKIP = np.uint32(1 << 28)
WAVE_MODES = MODE_GPR_IDX_EN | MODE_VSKIP
#: M0 bits that select the variant: the index [7:0] and the enables [15:12]
M0_INDEX_BITS = 0xF0FF
#: partition key of waves whose mode is off (outside every M0_INDEX_BITS value)
MODE_OFF = 1 << 16

SRC0, SRC1, SRC2, DST = 1, 2, 4, 8
#: VALU ops whose ``vdst`` field names an SGPR
SGPR_DESTINATION_OPS = frozenset({"v_readlane_b32", "v_readfirstlane_b32"})


def enable_mode(state, sel, index, enables):
    """s_set_gpr_idx_on: M0[7:0] = index, M0[15:12] = enables, MODE.GPR_IDX_EN = 1."""
    m0 = state.sgpr[M0, sel] & np.uint32(~0xF0FF & 0xFFFFFFFF)
    state.sgpr[M0, sel] = m0 | (np.asarray(index, np.uint32) & np.uint32(0xFF)) | \
        np.uint32((enables & 0xF) << 12)
    state.mode[sel] |= MODE_GPR_IDX_EN
    state.wave_modes_used = True


def set_vskip(state, sel, skip):
    """s_setvskip: MODE.VSKIP = ``skip`` ((n,) bool) for each wave."""
    mode = state.mode[sel] & ~MODE_VSKIP
    state.mode[sel] = mode | np.where(skip, MODE_VSKIP, np.uint32(0)).astype(np.uint32)
    state.wave_modes_used = True


def any_enabled(state, sel):
    """Whether some wave of ``sel`` runs with indexing or vector skip on."""
    return bool((state.mode[sel] & WAVE_MODES).any())


def partition(state, indices):
    """Split waves ``indices`` (int64 array) by the variant of record they need.

    Yields ``(wave indices, key)``, key = (index, enables, vskip); enables is
    0 for waves whose indexing mode is off.
    """
    mode = state.mode[indices]
    on = (mode & MODE_GPR_IDX_EN) != 0
    keys = np.where(on, state.sgpr[M0, indices].astype(np.int64) & M0_INDEX_BITS, MODE_OFF)
    keys |= ((mode & MODE_VSKIP) != 0).astype(np.int64) << 17
    for key in np.unique(keys):
        part = indices[keys == key]
        key = int(key)
        vskip = bool(key >> 17)
        if key & MODE_OFF:
            yield part, (0, 0, vskip)
        else:
            yield part, (key & 0xFF, (key >> 12) & 0xF, vskip)


def indexed_fields(inst, index, enables, writes_vgpr_dst=True):
    """``inst.fields`` with ``index`` added to the VGPR operands of the enabled slots."""
    fields = dict(inst.fields)
    base = inst.base_encoding if inst.encoding in ("DPP", "SDWA") else inst.encoding
    if "src0" in fields and enables & SRC0:
        if inst.encoding == "DPP" or (inst.encoding == "SDWA" and not fields.get("s0")):
            fields["src0"] += index                      # an 8-bit VGPR number
        elif inst.encoding != "SDWA" and fields["src0"] >= 256:
            fields["src0"] += index                      # a 9-bit operand code
    if base in ("VOP3", "VOP3P"):
        for name, bit in (("src1", SRC1), ("src2", SRC2)):
            if name in fields and enables & bit and fields[name] >= 256:
                fields[name] += index
    elif "vsrc1" in fields and enables & SRC1:
        fields["vsrc1"] += index
    if "vdst" in fields and enables & DST and writes_vgpr_dst:
        fields["vdst"] += index
    return fields


__all__ = ["MODE_GPR_IDX_EN", "MODE_VSKIP", "enable_mode", "set_vskip", "any_enabled",
           "partition", "indexed_fields"]

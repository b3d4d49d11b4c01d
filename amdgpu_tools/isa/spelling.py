"""Symbolic spellings of special immediates: waitcnt, hwreg(...), sendmsg(...).

Bit layouts are ISA-manual facts (waitcnt: vmcnt [3:0] plus [15:14] on GFX9,
expcnt [6:4], lgkmcnt [11:8]; hwreg: id [5:0], offset [10:6], size-1
[15:11]); names and message texts come from ``data/spellings.json``
(generated from llvm-mc).  Used by the printer and the encoder.
"""

import json
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=None)
def _data():
    text = resources.files("amdgpu_tools.isa.data").joinpath("spellings.json").read_text()
    return json.loads(text)


def _gen_key(generation):
    return "9" if generation >= 9 else "8"


# ---- waitcnt ----------------------------------------------------------------------
def waitcnt_max(generation):
    return {"vmcnt": 63 if generation >= 9 else 15, "expcnt": 7, "lgkmcnt": 15}


def waitcnt_decode(simm16, generation):
    """{'vmcnt': n, 'expcnt': n, 'lgkmcnt': n} of an s_waitcnt immediate."""
    vmcnt = simm16 & 0xF
    if generation >= 9:
        vmcnt |= ((simm16 >> 14) & 3) << 4
    return {"vmcnt": vmcnt, "expcnt": (simm16 >> 4) & 7, "lgkmcnt": (simm16 >> 8) & 0xF}


def waitcnt_encode(counts, generation):
    """The immediate for counters (missing ones wait for nothing: their maximum)."""
    full = dict(waitcnt_max(generation))
    full.update(counts)
    value = (full["vmcnt"] & 0xF) | (full["expcnt"] << 4) | (full["lgkmcnt"] << 8)
    if generation >= 9:
        value |= (full["vmcnt"] >> 4) << 14
    return value


@lru_cache(maxsize=4096)
def waitcnt_text(simm16, generation):
    counts = waitcnt_decode(simm16, generation)
    limits = waitcnt_max(generation)
    parts = [f"{name}({value})" for name, value in counts.items() if value != limits[name]]
    if not parts:
        parts = [f"{name}({value})" for name, value in counts.items()]
    return " ".join(parts)


# ---- hwreg ------------------------------------------------------------------------
@lru_cache(maxsize=None)
def hwreg_names(generation):
    return {int(k): v for k, v in _data()["hwreg"][_gen_key(generation)].items()}


@lru_cache(maxsize=4096)
def hwreg_text(simm16, generation):
    reg, offset, size = simm16 & 0x3F, (simm16 >> 6) & 0x1F, ((simm16 >> 11) & 0x1F) + 1
    name = hwreg_names(generation).get(reg)
    if name is None:
        return f"hwreg({reg})" if offset == 0 and size == 32 else f"hwreg({reg}, {offset}, {size})"
    if offset == 0 and size == 32:
        return f"hwreg({name})"
    return f"hwreg({name}, {offset}, {size})"


def hwreg_encode(reg, offset=0, size=32):
    return (reg & 0x3F) | (offset << 6) | ((size - 1) << 11)


def hwreg_id(name, generation):
    for reg, known in hwreg_names(generation).items():
        if known == name or known == "HW_REG_" + name:
            return reg
    return None


# ---- sendmsg ----------------------------------------------------------------------
@lru_cache(maxsize=None)
def sendmsg_texts(generation):
    return {int(k): v for k, v in _data()["sendmsg"][_gen_key(generation)].items()}


@lru_cache(maxsize=4096)
def sendmsg_text(simm16, generation):
    """llvm names a known message by its low 10 bits (message, operation, stream)."""
    texts = sendmsg_texts(generation)
    if simm16 in texts:
        return texts[simm16]
    low = texts.get(simm16 & 0x3FF, "")
    return low if low.startswith("sendmsg(MSG_") else str(simm16)


@lru_cache(maxsize=None)
def _sendmsg_reverse(generation):
    reverse = {}
    for value, text in sorted(sendmsg_texts(generation).items()):
        reverse.setdefault(_normalise(text), value)
    return reverse


def _normalise(text):
    return text.replace(" ", "").lower()


def sendmsg_value(args, generation):
    """The immediate of ``sendmsg(args...)`` or None when not a valid combination."""
    names = _data()["sendmsg"][_gen_key(generation)]
    text = "sendmsg(" + ",".join(str(a) for a in args) + ")"
    found = _sendmsg_reverse(generation).get(_normalise(text))
    if found is not None:
        return found
    # numeric forms: sendmsg(msg[, op[, stream]])
    if all(isinstance(a, int) for a in args) and 1 <= len(args) <= 3:
        msg, op, stream = (list(args) + [0, 0])[:3]
        value = (msg & 0xF) | ((op & 7) << 4) | ((stream & 3) << 8)
        return value if str(value) in names or len(args) == 3 else value
    return None


# ---- s_set_gpr_idx_on / s_set_gpr_idx_mode -------------------------------------
GPR_IDX_MODES = ("SRC0", "SRC1", "SRC2", "DST")


def gpr_idx_text(value):
    if value & ~0xF:
        return f"0x{value:x}"
    return "gpr_idx(" + ",".join(m for i, m in enumerate(GPR_IDX_MODES) if value >> i & 1) + ")"


def gpr_idx_value(names):
    value = 0
    for name in names:
        value |= 1 << GPR_IDX_MODES.index(str(name).upper())
    return value

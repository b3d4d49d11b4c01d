"""A small reader of LLVM operand syntax for the ISA tests (not the assembler).

Turns ``v[0:1], -|s2|, 0x10 clamp row_mask:0xf`` into ``isa.asm_operands``
objects so recorded (text, bytes) pairs can drive ``encode_instruction``
without the assembler package.  Unknown words become ``SymbolRef``.
"""

import re

from amdgpu_tools.isa.asm_operands import Func, Imm, Modifier, Reg, SpecialReg, SymbolRef

_MODIFIER = re.compile(r"^[a-z_][a-z0-9_]*:")
_REG = re.compile(r"^(v|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")
_INT = re.compile(r"^-?(0x[0-9a-fA-F]+|\d+)$")
_FLOAT = re.compile(r"^-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")
FLAGS = {"clamp", "glc", "slc", "tfe", "lds", "offen", "idxen", "addr64", "gds", "unorm", "da",
         "r128", "d16", "high", "row_mirror", "row_half_mirror", "compr", "vm", "done", "a16",
         "lwe", "nv", "dlc", "scc", "sc0", "sc1"}
SPECIAL = {"vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "flat_scratch",
           "flat_scratch_lo", "flat_scratch_hi", "xnack_mask", "xnack_mask_lo", "xnack_mask_hi",
           "tba", "tba_lo", "tba_hi", "tma", "tma_lo", "tma_hi", "scc", "vccz", "execz",
           "src_vccz", "src_execz", "src_scc", "lds_direct", "src_lds_direct", "src_shared_base",
           "src_shared_limit", "src_private_base", "src_private_limit",
           "src_pops_exiting_wave_id", "shared_base", "shared_limit", "private_base",
           "private_limit", "pops_exiting_wave_id", "off"}


def split_items(text):
    """Top-level items separated by commas, spaces or '&' (brackets kept whole)."""
    items, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if depth == 0 and ch in ", &":
            if cur:
                items.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        items.append(cur)
    return _join_abs(items)


def _join_abs(items):
    """``-|v1|`` may not contain spaces, but ``| v1 |`` never appears in llvm output."""
    return items


def parse_value(text):
    text = text.strip()
    if _INT.match(text):
        return int(text, 0)
    if text.startswith("[") and text.endswith("]"):
        return tuple(parse_value(t) for t in text[1:-1].split(",") if t.strip())
    if _FLOAT.match(text):
        return float(text)
    if text.startswith('"'):
        return text.strip('"')
    return text


def parse_operand(item):
    neg = abs_ = sext = False
    if item.startswith("-") and not _INT.match(item) and not _FLOAT.match(item):
        neg, item = True, item[1:]
    if item.startswith("|") and item.endswith("|"):
        abs_, item = True, item[1:-1]
    for wrapper in ("abs", "neg", "sext"):
        if item.startswith(wrapper + "(") and item.endswith(")") and wrapper != "":
            inner = item[len(wrapper) + 1:-1]
            if wrapper == "abs":
                abs_ = True
            elif wrapper == "neg":
                neg = True
            else:
                sext = True
            item = inner
    mods = dict(neg=neg, abs=abs_, sext=sext)
    m = _REG.match(item)
    if m:
        file, single, lo, hi = m.groups()
        if single is not None:
            return Reg(file, int(single), 1, **mods)
        return Reg(file, int(lo), int(hi) - int(lo) + 1, **mods)
    if item in SPECIAL:
        return SpecialReg(item, **mods)
    if _INT.match(item):
        return Imm(int(item, 0), False, **mods)
    if _FLOAT.match(item):
        return Imm(float(item), True, **mods)
    m = re.match(r"^(\w+)\((.*)\)$", item)
    if m:
        args = tuple(parse_value(a) for a in split_func_args(m.group(2)))
        return Func(m.group(1), args, **mods)
    return SymbolRef(item, None, **mods)


def split_func_args(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_instruction(text):
    """``(mnemonic, [operands])`` of one line of LLVM assembly."""
    mnemonic, _, rest = text.strip().partition(" ")
    operands = []
    for item in split_items(rest):
        if _MODIFIER.match(item):
            name, _, value = item.partition(":")
            operands.append(Modifier(name, parse_value(value)))
        elif item in FLAGS:
            operands.append(Modifier(item, True))
        else:
            operands.append(parse_operand(item))
    return mnemonic, operands

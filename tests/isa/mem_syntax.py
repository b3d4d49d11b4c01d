"""A small reader of llvm's memory-instruction syntax for the memory-family tests.

It turns one line of canonical text into ``(mnemonic, [neutral operands])``
exactly as the assembler's parser would hand them to ``encode_instruction``,
so the tests check the ISA encoder without depending on the assembler.
"""

import re
from dataclasses import replace

from amdgpu_tools.isa.asm_operands import Func, Imm, Modifier, Reg, SpecialReg, SymbolRef

_REG = re.compile(r"^(v|s|ttmp)(\d+)$")
_RANGE = re.compile(r"^(v|s|ttmp)\[(\d+):(\d+)\]$")
_INT = re.compile(r"^-?(0x[0-9a-fA-F]+|\d+)$")
_FLOAT = re.compile(r"^-?\d+\.\d+$")
_COMMENT = re.compile(r"/\*.*?\*/")
FLAGS = {"gds", "glc", "slc", "tfe", "lds", "offen", "idxen", "addr64", "unorm", "da", "r128",
         "a16", "lwe", "d16", "done", "compr", "vm", "nv", "high", "clamp"}
SPECIAL = {"vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "flat_scratch",
           "flat_scratch_lo", "flat_scratch_hi", "xnack_mask", "xnack_mask_lo", "xnack_mask_hi",
           "tba", "tba_lo", "tba_hi", "tma", "tma_lo", "tma_hi", "off", "null", "src_vccz",
           "src_execz", "src_scc", "src_lds_direct", "src_shared_base", "src_shared_limit",
           "src_private_base", "src_private_limit", "src_pops_exiting_wave_id"}


def split_top(text, separator):
    """Split at ``separator`` outside brackets, parentheses and quotes."""
    parts, depth, quoted, current = [], 0, False, ""
    for char in text:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "[(":
            depth += 1
        elif not quoted and char in "])":
            depth -= 1
        if char == separator and depth == 0 and not quoted:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def parse_line(line):
    """``'global_load_dword v1, v[2:3], off offset:-16'`` -> (mnemonic, operands)."""
    line = _COMMENT.sub("", line).strip()
    mnemonic, _, rest = line.partition(" ")
    items = split_top(rest, ",")
    tokens = []
    for position, item in enumerate(items):
        words = split_top(item, " ")
        if position == len(items) - 1 or position == 0:
            tokens.extend(words)
        else:
            tokens.append(item)
    operands = []
    for index, token in enumerate(tokens):
        operands.append(_token(token, index))
    return mnemonic, operands


def _token(token, index):
    if token.startswith("-") and (token[1:2] in ("v", "s", "|") or token[1:5] == "ttmp"):
        return replace(_token(token[1:], index), neg=True)
    if token.startswith("|") and token.endswith("|"):
        return replace(_token(token[1:-1], index), abs=True)
    if ":" in token and not _RANGE.match(token):
        name, _, value = token.partition(":")
        return Modifier(name, _value(value))
    if token in FLAGS and index > 0 or token in ("gds",):
        return Modifier(token, True)
    match = _REG.match(token)
    if match:
        return Reg(match.group(1), int(match.group(2)), 1)
    match = _RANGE.match(token)
    if match:
        low, high = int(match.group(2)), int(match.group(3))
        return Reg(match.group(1), low, high - low + 1)
    if token in SPECIAL:
        return SpecialReg(token)
    if _INT.match(token):
        return Imm(int(token, 0), False)
    if _FLOAT.match(token):
        return Imm(float(token), True)
    return SymbolRef(token)


def _value(text):
    if text.startswith("[") and text.endswith("]"):
        return tuple(_scalar(part) for part in split_top(text[1:-1], ","))
    call = re.match(r"^(\w+)\((.*)\)$", text)
    if call:
        return Func(call.group(1), tuple(_scalar(a) for a in split_top(call.group(2), ",")))
    return _scalar(text)


def _scalar(text):
    if _INT.match(text):
        return int(text, 0)
    return text

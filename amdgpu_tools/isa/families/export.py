"""EXP: export to render targets, positions and parameters (graphics).

Printed as ``exp <target> src0, src1, src2, src3 [done] [compr] [vm]`` with
``off`` for a source whose enable bit is clear.  In compressed mode llvm
prints vsrc0 for sources 0-1 and vsrc1 for sources 2-3, and its assembler
takes vsrc0 from source 0 and vsrc1 from source 2 (mirrored here).
Target spellings per processor come from ``data/export.json``.
"""

from .formats_mem import EXP_SI, EXP_VI
from .mem_common import (MemOpInfo, OperandError, OperandSpec, check_modifier_order,
                         check_plain, decode_error,
                         expect_count, expect_vgpr, load_table, modifier_flag, reject_unknown,
                         split_operands, table_key)
from ..asm_operands import SpecialReg

FORMATS = (EXP_SI, EXP_VI)
_TABLE = "export.json"
INFO = MemOpInfo("exp", "EXP", 0, tuple(OperandSpec(f"vsrc{i}", "vgpr", 1, "b32")
                                        for i in range(4)))


def instructions(target):
    return [INFO]


def lookup(name, target):
    return INFO if name == "exp" else None


def target_name(code, target):
    document = load_table(_TABLE)
    names = document["target_names"][table_key(document, target)]
    return names[code] or f"invalid_target_{code}"


def decode_fields(fields, target, value):
    if fields.get("op", 0):
        raise decode_error("EXP", value, 2, target, "bad EXP word")
    return INFO


def _source_fields(fields):
    if fields["compr"]:
        return ("vsrc0", "vsrc0", "vsrc1", "vsrc1")
    return ("vsrc0", "vsrc1", "vsrc2", "vsrc3")


def text(info, fields, target):
    sources = [f"v{fields[slot]}" if fields["en"] >> i & 1 else "off"
               for i, slot in enumerate(_source_fields(fields))]
    out = f"exp {target_name(fields['tgt'], target)} " + ", ".join(sources)
    for flag in ("done", "compr", "vm"):
        if fields[flag]:
            out += " " + flag
    return out


def encode(info, operands, target):
    positional, modifiers = split_operands(operands)
    reject_unknown(modifiers, {"done", "compr", "vm"}, "exp")
    check_modifier_order(modifiers, (("done",), ("compr",), ("vm",)), "exp")
    expect_count(positional, 5, "exp", operands)
    index, name_operand = positional[0]
    fields = {"tgt": _encode_target(name_operand, index, target), "en": 0}
    compr = modifier_flag(modifiers, "compr")
    for flag in ("done", "compr", "vm"):
        fields[flag] = int(modifier_flag(modifiers, flag))
    for position, (index, operand) in enumerate(positional[1:]):
        check_plain(operand, index)
        if isinstance(operand, SpecialReg) and operand.name == "off":
            continue
        register = expect_vgpr(operand, index, 1, f"export source {position}")
        if not compr:
            fields[f"vsrc{position}"] = register
            fields["en"] |= 1 << position
        elif position in (0, 2):
            fields["vsrc0" if position == 0 else "vsrc1"] = register
            fields["en"] |= 0x3 << position
    return fields


def _encode_target(operand, index, target):
    spelled = str(getattr(operand, "expr", operand)).lower()
    document = load_table(_TABLE)
    names = document["target_names"][table_key(document, target)]
    if spelled in names and not spelled.startswith("invalid"):
        return names.index(spelled)
    raise OperandError(f"invalid export target '{spelled}'", index)

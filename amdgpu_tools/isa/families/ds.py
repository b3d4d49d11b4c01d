"""DS: local data share (LDS) and global data share (GDS/GWS) instructions.

The table (``data/ds.json``, rows of isa/table.py's ``ops`` schema) gives each
op's opcode per generation, its register operands in printed order (vdst,
addr, data0, data1 with widths and types), how its offset is spelled
('single' 16-bit ``offset:``, 'pair' ``offset0:``/``offset1:``, 'swizzle' for
ds_swizzle_b32, or 'none') and whether gds is 'optional', 'required' (GWS,
ordered count) or 'never'.
"""

from .formats_mem import DS_SI, DS_VI
from .mem_common import (MemOpInfo, OperandError, check_modifier_order, indexed_rows,
                         decode_error, expect_count,
                         expect_vgpr, modifier_flag, modifier_int, operand_specs, reject_unknown,
                         split_operands, vreg_text)
from ..asm_operands import Func, Imm

ENCODING = "DS"
FORMATS = (DS_SI, DS_VI)
_TABLE = "ds.json"
_OPERAND_FIELDS = ("vdst", "addr", "data0", "data1")


def _info(row, opcode):
    return MemOpInfo(row.name, row.encoding, opcode, operand_specs(row.operands),
                     {"offset": row.get("offset"), "gds": row.get("gds")})


_CACHE = {}


def _tables(target):
    """({name: info}, {decode key: info}) for ``target``."""
    return indexed_rows(_TABLE, "ds", target, _info, lambda info: info.opcode, _CACHE)


def instructions(target):
    """Every DS instruction of ``target``."""
    return list(_tables(target)[0].values())


def lookup(name, target):
    """The DS instruction called ``name`` on ``target``, or None."""
    return _tables(target)[0].get(name)


def decode_fields(fields, target, value):
    """Find the instruction for unpacked ``fields``; enforce what llvm-mc enforces."""
    info = _tables(target)[1].get(fields["op"])
    if info is None:
        raise decode_error(ENCODING, value, 2, target, f"no DS opcode {fields['op']}")
    used = {spec.slot for spec in info.operands}
    for spec in info.operands:
        if fields[spec.slot] + spec.width > 256:
            raise decode_error(ENCODING, value, 2, target, f"{spec.slot} register range beyond v255")
    for slot in _OPERAND_FIELDS:
        if slot not in used and fields[slot]:
            raise decode_error(ENCODING, value, 2, target, f"{info.name} does not use {slot}")
    gds = info.props["gds"]
    if (gds == "never" and fields["gds"]) or (gds == "required" and not fields["gds"]):
        raise decode_error(ENCODING, value, 2, target, f"{info.name}: gds must be {gds}")
    if info.props["offset"] == "none" and (fields["offset0"] or fields["offset1"]):
        raise decode_error(ENCODING, value, 2, target, f"{info.name} takes no offset")
    return info


def text(info, fields, target):
    """The instruction as llvm-objdump prints it."""
    parts = [vreg_text(fields[spec.slot], spec.width) for spec in info.operands]
    out = info.name + (" " + ", ".join(parts) if parts else "")
    style = info.props["offset"]
    offset = fields["offset1"] << 8 | fields["offset0"]
    if style == "single" and offset:
        out += f" offset:{offset}"
    elif style == "swizzle" and offset:
        out += f" offset:{swizzle_text(offset)}"
    elif style == "pair":
        if fields["offset0"]:
            out += f" offset0:{fields['offset0']}"
        if fields["offset1"]:
            out += f" offset1:{fields['offset1']}"
    if fields["gds"]:
        out += " gds"
    return out


def encode(info, operands, target):
    """Field values for ``info`` from the assembler's operands."""
    positional, modifiers = split_operands(operands)
    expect_count(positional, len(info.operands), info.name, operands)
    fields = {"op": info.opcode}
    for spec, (index, operand) in zip(info.operands, positional):
        fields[spec.slot] = expect_vgpr(operand, index, spec.width, spec.slot)
    style = info.props["offset"]
    allowed = {"gds"} if info.props["gds"] != "never" else set()
    allowed |= {"single": {"offset"}, "swizzle": {"offset"}, "pair": {"offset0", "offset1"},
                "none": set()}[style]
    reject_unknown(modifiers, allowed, info.name)
    check_modifier_order(modifiers, (("offset", "offset0"), ("offset1",), ("gds",)), info.name)
    if style == "pair":
        for name in ("offset0", "offset1"):
            fields[name] = _ranged(modifiers, name, 255)
    elif style == "swizzle" and "offset" in modifiers and isinstance(modifiers["offset"][1], Func):
        offset = swizzle_encode(*modifiers["offset"])
        fields["offset0"], fields["offset1"] = offset & 0xFF, offset >> 8
    elif style in ("single", "swizzle"):
        offset = _ranged(modifiers, "offset", 0xFFFF)
        fields["offset0"], fields["offset1"] = offset & 0xFF, offset >> 8
    gds = modifier_flag(modifiers, "gds")
    if info.props["gds"] == "required" and not gds:
        raise OperandError(f"{info.name} requires gds", None)
    fields["gds"] = int(gds)
    return fields


def _ranged(modifiers, name, limit):
    value = modifier_int(modifiers, name)
    if not 0 <= value <= limit:
        raise OperandError(f"{name} must be in 0..{limit}, got {value}", modifiers[name][0])
    return value


# --- ds_swizzle_b32 offset: swizzle(...) macros -------------------------------------

_BITMASK_MAX = 0x1F


def swizzle_text(offset):
    """Spell a swizzle offset as llvm prints it (swizzle(...) or a number)."""
    if offset & 0xFF00 == 0x8000:
        lanes = ",".join(str((offset >> (2 * i)) & 3) for i in range(4))
        return f"swizzle(QUAD_PERM,{lanes})"
    if offset & 0x8000:
        return str(offset)
    and_mask, or_mask, xor_mask = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
    if and_mask == _BITMASK_MAX and or_mask == 0 and bin(xor_mask).count("1") == 1:
        return f"swizzle(SWAP,{xor_mask})"
    if and_mask == _BITMASK_MAX and or_mask == 0 and xor_mask and not (xor_mask + 1) & xor_mask:
        return f"swizzle(REVERSE,{xor_mask + 1})"
    group = _BITMASK_MAX - and_mask + 1
    if group > 1 and not group & (group - 1) and or_mask < group and xor_mask == 0:
        return f"swizzle(BROADCAST,{group},{or_mask})"
    chars = []
    for bit in range(4, -1, -1):
        mask = 1 << bit
        if and_mask & mask and not or_mask & mask:
            chars.append("i" if xor_mask & mask else "p")
        else:  # the lane bit is forced: ((lane & and) | or) ^ xor
            chars.append("1" if (or_mask ^ xor_mask) & mask else "0")
    return 'swizzle(BITMASK_PERM,"' + "".join(chars) + '")'


def swizzle_encode(index, func):
    """The 16-bit offset of ``swizzle(MODE, ...)`` (the ISA's swizzle macros)."""
    args = list(func.args)
    if func.name != "swizzle" or not args or not isinstance(args[0], str):
        raise OperandError("expected swizzle(QUAD_PERM|BITMASK_PERM|SWAP|REVERSE|BROADCAST, ...)", index)
    mode, values = args[0].upper(), args[1:]

    def number(position, low, high):
        if position >= len(values) or isinstance(values[position], str):
            raise OperandError(f"swizzle({mode}) expects a number as argument {position + 2}", index)
        value = values[position].value if isinstance(values[position], Imm) else values[position]
        if not low <= value <= high:
            raise OperandError(f"swizzle({mode}) argument {position + 2} must be in {low}..{high}", index)
        return value

    def arity(count):
        if len(values) != count:
            raise OperandError(f"swizzle({mode}) takes {count} argument(s) after the mode", index)

    if mode == "QUAD_PERM":
        arity(4)
        return 0x8000 | sum(number(i, 0, 3) << (2 * i) for i in range(4))
    if mode == "SWAP":
        arity(1)
        group = number(0, 1, 16)
        if group & (group - 1):
            raise OperandError("swizzle(SWAP) group size must be a power of two", index)
        return _BITMASK_MAX | group << 10
    if mode == "REVERSE":
        arity(1)
        group = number(0, 2, 32)
        if group & (group - 1):
            raise OperandError("swizzle(REVERSE) group size must be a power of two", index)
        return _BITMASK_MAX | (group - 1) << 10
    if mode == "BROADCAST":
        arity(2)
        group = number(0, 2, 32)
        if group & (group - 1):
            raise OperandError("swizzle(BROADCAST) group size must be a power of two", index)
        lane = number(1, 0, group - 1)
        return (_BITMASK_MAX - group + 1) | lane << 5
    if mode == "BITMASK_PERM":
        arity(1)
        control = values[0]
        if not isinstance(control, str) or len(control.strip('"')) != 5:
            raise OperandError('swizzle(BITMASK_PERM) expects a 5-character string of 0, 1, p, i', index)
        and_mask = or_mask = xor_mask = 0
        for char in control.strip('"').lower():
            and_mask, or_mask, xor_mask = and_mask << 1, or_mask << 1, xor_mask << 1
            if char == "1":
                or_mask |= 1
            elif char == "p":
                and_mask |= 1
            elif char == "i":
                and_mask |= 1
                xor_mask |= 1
            elif char != "0":
                raise OperandError(f"bad swizzle(BITMASK_PERM) character '{char}'", index)
        return and_mask | or_mask << 5 | xor_mask << 10
    raise OperandError(f"unknown swizzle mode '{args[0]}'", index)

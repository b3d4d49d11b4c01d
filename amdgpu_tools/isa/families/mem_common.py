"""What the memory, export and interpolation families share.

Each family is a table (generated JSON under ``isa/data``) plus a
format-specific printer and encoder.  The rows (ds, buffer, flat, mimg,
vintrp) are in the ``ops`` schema of isa/table.py: ``opcodes`` per
generation, ``targets`` where the processors of one generation differ, typed
operands, family keys; the document also lists the swept processors and
keeps per-processor spellings (and vintrp's VOP3 interpolation rows) by
processor.  This module loads the tables, picks the rows that
apply to a target, formats registers, and turns the assembler's neutral
operands into field values with readable errors.
"""

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ...errors import DecodeError
from ..asm_operands import Imm, Modifier, Reg, SpecialReg
from ..operands import encode_named, encode_register, inline_code_for_float, inline_code_for_int
from ..table import load_document, load_rows

#: The processor whose rows apply to a generation unless a table lists the
#: processor itself among its swept ones (the generators sweep these).
GENERATION_DEFAULT = {6: "gfx600", 7: "gfx700", 8: "gfx803", 9: "gfx900"}

_VALUE_TYPE = re.compile(r"_([biuf])(8|16|32|64|96|128)(?:_|$)")


@dataclass(frozen=True)
class OperandSpec:
    """One register operand: the field it lives in, its kind, width (dwords), type."""

    slot: str
    kind: str
    width: int
    type: str


@dataclass(eq=False)
class MemOpInfo:
    """One instruction of a memory family on one processor (a table sub-row)."""

    name: str
    encoding: str
    opcode: int
    operands: tuple
    props: dict = field(default_factory=dict)
    format: str = None

    def __post_init__(self):
        if self.format is None:
            self.format = self.encoding

    @property
    def base_encoding(self):
        return self.encoding

    def operand(self, slot):
        for spec in self.operands:
            if spec.slot == slot:
                return spec
        return None


def value_type(name, width):
    """The element type an instruction moves, read from its mnemonic suffix."""
    match = None
    for match in _VALUE_TYPE.finditer(name):
        pass
    if match:
        return match.group(1) + match.group(2)
    return f"b{32 * width}"


def load_table(filename):
    """The generated JSON document ``isa/data/<filename>``."""
    return load_document(filename)


@lru_cache(maxsize=None)
def table_rows(filename, family):
    """The ``ops`` rows (table.OpInfo) of a memory family's table, loaded once."""
    return tuple(load_rows(filename, family))


def operand_specs(operands):
    """OperandSpecs of a row's typed operands (``{"field", "kind", "width", "type"}``)."""
    return tuple(OperandSpec(o["field"], o["kind"], o["width"], o["type"]) for o in operands)


def table_key(document, target):
    """Which swept processor of ``document`` stands for ``target`` (its rows and
    per-processor entries apply)."""
    if target.name in document["sweep_targets"]:
        return target.name
    return GENERATION_DEFAULT[target.generation]


def rows_for(filename, family, target):
    """(table key, [(row, opcode)]) of the ``ops`` table ``filename``: the rows
    listed for the swept processor that stands for ``target``, in table order."""
    key = table_key(load_table(filename), target)
    generation = target.generation
    return key, [(row, row.opcodes[generation]) for row in table_rows(filename, family)
                 if row.listed_for(key, generation)]


def indexed_rows(filename, family, target, make_info, decode_key, cache):
    """({name: info}, {decode key: info}) of the ``ops`` table ``filename`` for
    ``target``: each row listed for the target's table key (the swept processor
    that stands for it) becomes an info through ``make_info(row, opcode)`` and
    is indexed for the decoder by ``decode_key(info)``. ``cache`` (one dict per
    family) keeps the result per table key, since many targets share one."""
    key = table_key(load_table(filename), target)
    if key not in cache:
        by_name, by_code = {}, {}
        for row, opcode in rows_for(filename, family, target)[1]:
            info = make_info(row, opcode)
            by_name[info.name] = info
            by_code[decode_key(info)] = info
        cache[key] = (by_name, by_code)
    return cache[key]


def vreg_text(index, width):
    return f"v{index}" if width == 1 else f"v[{index}:{index + width - 1}]"


def sreg_range_text(index, width):
    return f"s{index}" if width == 1 else f"s[{index}:{index + width - 1}]"


def decode_error(encoding, value, words, target, why):
    hexwords = " ".join(f"0x{(value >> (32 * i)) & 0xFFFFFFFF:08x}" for i in range(words))
    return DecodeError(f"cannot decode {encoding} instruction {hexwords} for {target.name}: {why}")


class OperandError(Exception):
    """Raised inside the memory encoders; the adapter turns it into InstructionError."""

    def __init__(self, message, operand_index=None):
        super().__init__(message)
        self.operand_index = operand_index


def split_operands(operands):
    """Separate the positional operands from the trailing named modifiers.

    Returns (positional [(index, operand)], modifiers {name: (index, value)}).
    """
    positional, modifiers = [], {}
    for index, operand in enumerate(operands):
        if isinstance(operand, Modifier):
            if operand.name in modifiers:
                raise OperandError(f"duplicate modifier '{operand.name}'", index)
            modifiers[operand.name] = (index, operand.value)
        else:
            if modifiers:
                raise OperandError("operand after a modifier", index)
            positional.append((index, operand))
    return positional, modifiers


def check_plain(operand, index):
    """Memory operands take no source modifiers (-v, |v|, sext(v))."""
    if getattr(operand, "neg", False) or getattr(operand, "abs", False) or getattr(operand, "sext", False):
        raise OperandError("source modifiers are not allowed here", index)


def expect_vgpr(operand, index, width, what):
    """The VGPR index of ``operand``, which must be a ``width``-dword VGPR range."""
    check_plain(operand, index)
    if not isinstance(operand, Reg) or operand.file != "v":
        raise OperandError(f"{what} must be a VGPR{'' if width == 1 else ' range'}"
                           f" ({vreg_text(0, width)} style), got '{operand}'", index)
    if operand.count != width:
        raise OperandError(f"{what} must be {width} VGPR{'s' if width > 1 else ''}"
                           f" wide, got '{operand}'", index)
    if operand.index + width > 256:
        raise OperandError(f"register '{operand}' out of range", index)
    return operand.index


def expect_sgpr_range(operand, index, width, what, ttmp_base, sgpr_count=102, ttmp_count=16):
    """The 8-bit encoding of an aligned SGPR/TTMP range (srsrc, ssamp, saddr)."""
    check_plain(operand, index)
    if isinstance(operand, Reg) and operand.file in ("s", "ttmp") and operand.count == width:
        align = 4 if width >= 4 else width
        if operand.index % align:
            raise OperandError(f"{what} '{operand}' must start at a multiple of {align}", index)
        if operand.file == "s":
            if operand.index + width > sgpr_count:
                raise OperandError(f"register '{operand}' out of range", index)
            return operand.index
        if ttmp_base is None:
            raise OperandError(f"{what} cannot be a trap temporary here", index)
        if operand.index + width > ttmp_count:
            raise OperandError(f"register '{operand}' not available on this GPU", index)
        return ttmp_base + operand.index
    raise OperandError(f"{what} must be an SGPR range of {width} registers"
                       f" ({sreg_range_text(0, width)} style), got '{operand}'", index)


def modifier_int(modifiers, name, default=0):
    """An integer modifier value (offset:16), or ``default`` when absent."""
    if name not in modifiers:
        return default
    index, value = modifiers[name]
    if isinstance(value, Imm):
        value = value.value
    if isinstance(value, bool) or not isinstance(value, int):
        raise OperandError(f"'{name}' needs an integer value, got '{value}'", index)
    return value


def modifier_flag(modifiers, name):
    """True when a bare flag modifier (glc, gds, ...) was written."""
    if name not in modifiers:
        return False
    index, value = modifiers[name]
    if value is not True:
        if value in (0, 1):
            return bool(value)
        raise OperandError(f"'{name}' takes no value", index)
    return True


def reject_unknown(modifiers, allowed, mnemonic):
    """Fail on the first modifier the instruction does not take."""
    for name, (index, _) in sorted(modifiers.items(), key=lambda item: item[1][0]):
        if name not in allowed:
            raise OperandError(f"'{name}' is not a valid modifier for {mnemonic}", index)


def check_modifier_order(modifiers, groups, mnemonic):
    """llvm-mc takes modifiers only in its printing order; names within one group
    (glc and slc) may come in either order."""
    rank = {name: position for position, group in enumerate(groups) for name in group}
    written = sorted((index, name) for name, (index, _) in modifiers.items() if name in rank)
    previous = None
    for index, name in written:
        if previous is not None and rank[name] < rank[previous]:
            order = " ".join("/".join(group) for group in groups)
            raise OperandError(f"'{name}' must come before '{previous}' (the modifier order of"
                               f" {mnemonic} is: {order})", index)
        previous = name


def expect_count(positional, count, mnemonic, all_operands):
    if len(positional) < count:
        where = len(all_operands)
        raise OperandError(f"{mnemonic} expects {count} operand{'s' if count != 1 else ''},"
                           f" got {len(positional)}", where if where else None)
    if len(positional) > count:
        raise OperandError(f"too many operands for {mnemonic}", positional[count][0])




def scalar_source_code(operand, target, width=1):
    """The 8-bit scalar operand code of an SGPR range, named register or inline
    constant (as soffset and saddr take them), or None."""
    gen = target.generation
    if isinstance(operand, Reg) and operand.count == width and operand.file in ("s", "ttmp"):
        if width > 1 and operand.index % 2:
            return None
        return encode_register(operand.file, operand.index, width, gen)
    if isinstance(operand, SpecialReg):
        if operand.name.startswith("xnack_mask") and not target.has("xnack"):
            return None
        named = encode_named(operand.name, gen)
        return named[0] if named and named[1] == width else None
    if isinstance(operand, Imm) and width == 1:
        if operand.is_float:
            return inline_code_for_float(float(operand.value), 32, gen)
        if isinstance(operand.value, int):
            return inline_code_for_int(operand.value, gen)
    return None

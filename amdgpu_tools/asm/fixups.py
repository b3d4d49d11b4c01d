"""Resolving fixups at the end of assembly: bytes when the value is known,
relocations (``R_AMDGPU_*``) when it depends on where things end up.

Choices follow llvm-mc: a difference of two labels of one section is a
constant; a value relative to the fixup's own section is PC-relative
(REL32/REL64); a reference to a local symbol is rewritten against its
section's symbol; branches must land in their own section and in range.
"""

from __future__ import annotations

from ..elf import constants as elfc
from ..errors import ToolchainError
from .expr import ExprError, Value, symbols_in

#: Relocation type of an instruction literal by its relocation specifier.
LITERAL_RELOCATIONS = {
    None: 6,
    "abs32": 6, "abs32@lo": 1, "abs32@hi": 2, "abs64": 3,
    "rel32": 4, "rel32@lo": 10, "rel32@hi": 11, "rel64": 5,
    "gotpcrel": 7, "gotpcrel32@lo": 8, "gotpcrel32@hi": 9,
}
_PC_RELATIVE = {4, 5, 7, 8, 9, 10, 11}
_ABSOLUTE_DATA = {4: 6, 8: 3}
_RELATIVE_DATA = {4: 4, 8: 5}


def resolve_fixups(ctx):
    for section in list(ctx.sections.values()):
        for fixup in section.fixups:
            try:
                _resolve(ctx, fixup)
            except (ToolchainError, ExprError) as error:
                ctx.diagnostics.error(str(error), fixup.where.column, fixup.where)


def _resolve(ctx, fixup):
    value = ctx.symbols.evaluate(fixup.expr)
    if fixup.kind == "branch16":
        _branch(ctx, fixup, value)
    elif fixup.kind == "literal32":
        _literal(ctx, fixup, value)
    else:
        _data(ctx, fixup, value)


def _patch(fixup, number: int, size: int = None):
    size = size or fixup.size
    fixup.section.data[fixup.offset:fixup.offset + size] = \
        (number & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def _branch(ctx, fixup, value: Value):
    """SOPP simm16 = (target - (pc + 4)) / 4; a branch to a preemptible symbol or
    another section becomes R_AMDGPU_REL16, as llvm-mc writes it."""
    target = value.add
    if value.sub is not None or target is None:
        raise ToolchainError("branch target must be a label")
    if not target.defined:
        raise ToolchainError(f"undefined label '{_shown(target)}'")
    if target.section is not fixup.section or not _is_local(target):
        _relocate(ctx, fixup, _REL16, target, value.constant)
        _patch(fixup, (value.constant - 4) // 4, 2)
        return
    distance = target.offset + value.constant - (fixup.offset + 4)
    if distance % 4:
        raise ToolchainError("branch target is not 4-byte aligned")
    distance //= 4
    if not -0x8000 <= distance <= 0x7FFF:
        raise ToolchainError("branch offset out of range")
    _patch(fixup, distance, 2)


_REL16 = 14


def _literal(ctx, fixup, value: Value):
    """An instruction literal. Without a specifier llvm-mc makes it PC-relative
    (S + A - P, P = the literal's address); a difference of labels is a plain
    number, and a constant only known at the end still gets an R_AMDGPU_REL32
    against the null symbol."""
    if value.specifier is not None:
        if value.is_absolute:
            _patch(fixup, value.constant >> 32 if value.specifier.endswith("@hi") else value.constant)
            return
        rtype = LITERAL_RELOCATIONS.get(value.specifier)
        if rtype is None:
            raise ToolchainError(f"relocation specifier @{value.specifier} is not supported here")
        _relocate(ctx, fixup, rtype, value.add, value.constant)
        return
    if value.is_absolute:
        if _mentions_label(ctx, fixup.expr):
            _patch(fixup, value.constant)
        else:
            _patch(fixup, 0)
            fixup.section.relocations.append(_Relocation(fixup.offset, _REL32, None, value.constant))
        return
    if value.sub is not None:
        _pc_relative_difference(ctx, fixup, value)
        return
    target = value.add
    if target.defined and target.section is fixup.section and target.variable is None \
            and _is_local(target) and not target.common_size:
        _patch(fixup, target.offset + value.constant - fixup.offset)
        return
    _relocate(ctx, fixup, _REL32, target, value.constant)


_REL32 = 4


def _mentions_label(ctx, expr) -> bool:
    return any(not ctx.symbols.is_constant(name) for name in symbols_in(expr))


def _is_local(symbol) -> bool:
    return symbol.binding in (None, elfc.STB_LOCAL)


def _data(ctx, fixup, value: Value):
    if value.is_absolute:
        _check_range(value.constant, fixup.size, "value")
        _patch(fixup, value.constant)
        return
    if value.sub is not None:
        _pc_relative_difference(ctx, fixup, value)
        return
    if value.specifier is not None:
        rtype = LITERAL_RELOCATIONS.get(value.specifier)
        if rtype is None:
            raise ToolchainError(f"relocation specifier @{value.specifier} is not supported here")
    else:
        rtype = _ABSOLUTE_DATA.get(fixup.size)
    if rtype is None:
        raise ToolchainError(f"cannot relocate a {fixup.size}-byte value")
    _relocate(ctx, fixup, rtype, value.add, value.constant)


def _pc_relative_difference(ctx, fixup, value: Value):
    """``sym - label`` where label is in the fixup's section: a PC-relative relocation."""
    base = value.sub
    if not base.defined or base.section is not fixup.section:
        raise ToolchainError("cannot represent a difference across sections")
    rtype = _RELATIVE_DATA.get(fixup.size)
    if rtype is None:
        raise ToolchainError(f"cannot relocate a {fixup.size}-byte difference")
    addend = value.constant + (fixup.offset - base.offset)
    _relocate(ctx, fixup, rtype, value.add, addend)


def _relocate(ctx, fixup, rtype, symbol, addend):
    if symbol.is_temporary and not symbol.defined:
        raise ToolchainError(f"Undefined temporary symbol {_shown(symbol)}")
    if rtype not in _PC_RELATIVE and symbol.defined and symbol.variable is not None:
        raise ToolchainError(f"symbol '{symbol.name}' is not relocatable")
    if symbol.alias_of is not None:
        symbol = symbol.alias_of
    _patch(fixup, 0)
    symbol.in_reloc = True
    fixup.section.relocations.append(_Relocation(fixup.offset, rtype, symbol, addend))


def _check_range(number: int, size: int, what: str):
    if size >= 8:
        return
    low, high = -(1 << (8 * size - 1)), (1 << (8 * size)) - 1
    if not low <= number <= high:
        raise ToolchainError(f"{what} {number} is out of range for a {size}-byte field")


def _shown(symbol) -> str:
    name = symbol.name
    if "\x02" in name:
        return name[2:].split("\x02")[0] + "b/f"
    return name


class _Relocation:
    __slots__ = ("offset", "type", "symbol", "addend")

    def __init__(self, offset, rtype, symbol, addend):
        self.offset = offset
        self.type = rtype
        self.symbol = symbol
        self.addend = addend

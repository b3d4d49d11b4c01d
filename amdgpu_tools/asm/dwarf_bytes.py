"""Building DWARF section contents at the end of assembly.

The line table (``dwarf_line.py``) and the call frame tables (``cfi.py``) are
written once every instruction is placed, so offsets are already final: most
fields are plain numbers. Only addresses (code labels) and cross-section
offsets need relocations; a ``DwarfBuffer`` records those as references to
symbols, and ``append_to_section`` turns them into ordinary data fixups that
``fixups.py`` resolves like any ``.quad label``.
"""

from __future__ import annotations

from .expr import Binary, Sym
from .leb128 import encode_leb128
from .model import Fixup, Location, Symbol


class DwarfBuffer:
    """Little-endian bytes plus the (offset, size, symbol, pc_relative) fields
    to relocate."""

    def __init__(self):
        self.data = bytearray()
        self.references: list[tuple] = []

    def u8(self, value: int):
        self.data.append(value & 0xFF)

    def u16(self, value: int):
        self.data += (value & 0xFFFF).to_bytes(2, "little")

    def u32(self, value: int):
        self.data += (value & 0xFFFFFFFF).to_bytes(4, "little")

    def u64(self, value: int):
        self.data += (value & (1 << 64) - 1).to_bytes(8, "little")

    def uleb(self, value: int):
        self.data += encode_leb128(value, False)

    def sleb(self, value: int):
        self.data += encode_leb128(value, True)

    def raw(self, data: bytes):
        self.data += data

    def reference(self, symbol: Symbol, size: int, pc_relative: bool = False):
        """A ``size``-byte field holding the address of ``symbol`` (relocated),
        or with ``pc_relative`` its distance from the field itself."""
        self.references.append((len(self.data), size, symbol, pc_relative))
        self.data += bytes(size)

    def pad_to(self, alignment: int):
        self.data += bytes(-len(self.data) % alignment)

    def __len__(self):
        return len(self.data)


def temporary_label(ctx, section, offset: int) -> Symbol:
    """A ``.L`` label at ``section``+``offset`` that never reaches the symbol
    table: relocations against it go through the section symbol, as llvm-mc's
    temporary labels do."""
    name = f".Ldwarf{len(ctx.symbols)}"
    while name in ctx.symbols:
        name += "_"
    symbol = Symbol(name, section, offset, True)
    ctx.symbols[name] = symbol
    return symbol


def append_to_section(ctx, section, buffer: DwarfBuffer) -> int:
    """Append ``buffer`` to ``section``; its references become data fixups.
    Returns the offset where the buffer starts."""
    start = len(section.data)
    section.data += buffer.data
    where = Location(ctx.options.filename, 0, 1, "")
    for offset, size, symbol, pc_relative in buffer.references:
        expr = Sym(symbol.name)
        if pc_relative:
            expr = Binary("-", expr, Sym(temporary_label(ctx, section, start + offset).name))
        section.fixups.append(Fixup(section, start + offset, size, "data", expr, where))
    return start

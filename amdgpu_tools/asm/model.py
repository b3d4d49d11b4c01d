"""The assembler's object model: sections with bytes, symbols, pending fixups.

Everything here is independent of ELF layout; ``objfile.py`` turns a finished
model into an ELF relocatable object with the ELF package.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..elf import constants as elfc


@dataclass
class Location:
    """Where a statement came from, for diagnostics."""

    filename: str
    line: int
    column: int
    source: str
    #: the .include sites that led to this file, outermost first: ((file, line), ...)
    included_from: tuple = ()


@dataclass
class Fixup:
    """Bytes of a section still to be filled from an expression's value.

    ``kind``: 'data' (plain value of ``size`` bytes), 'literal32' (an
    instruction literal, may carry a relocation specifier), 'branch16' (SOPP
    simm16 of a branch), 'kd_entry' (REL64 from a kernel descriptor).
    """

    section: "Section"
    offset: int
    size: int
    kind: str
    expr: object
    where: Location


@dataclass
class Relocation:
    offset: int
    type: int
    symbol: "Symbol"
    addend: int


class Section:
    """A named section being assembled; bytes are appended as statements go."""

    def __init__(self, name, sh_type=elfc.SHT_PROGBITS, flags=0, entsize=0):
        self.name = name
        self.sh_type = sh_type
        self.flags = flags
        self.entsize = entsize
        self.data = bytearray()
        self.alignment = 1
        self.has_instructions = False
        self.fixups: list[Fixup] = []
        self.relocations: list[Relocation] = []
        self.symbol = None  # the STT_SECTION symbol, created on first use
        self.nobits_size = 0

    @property
    def is_code(self) -> bool:
        return bool(self.flags & elfc.SHF_EXECINSTR)

    @property
    def size(self) -> int:
        return self.nobits_size if self.sh_type == elfc.SHT_NOBITS else len(self.data)

    def __repr__(self):
        return f"Section({self.name!r})"


@dataclass(eq=False)
class Symbol:
    """A symbol: defined by a label (section + offset), by ``.set`` (an
    expression), by ``.comm`` (common), or undefined."""

    name: str
    section: Section | None = None
    offset: int = 0
    defined: bool = False
    binding: int | None = None  # None: local unless referenced while undefined
    sym_type: int = elfc.STT_NOTYPE
    visibility: int = 0
    size_expr: object = None
    size: int = 0  # the value of size_expr, computed when assembly ends
    size_where: Location | None = None
    variable: object = None  # the expression of a .set/.equ/= symbol
    common_size: int = 0
    common_align: int = 0
    used: bool = False
    in_reloc: bool = False
    is_section: bool = False  # a section's name standing for its start
    where: Location | None = None
    alias_of: "Symbol | None" = None  # ``.set a, label``: a names label's place
    lds: tuple | None = None  # ``.amdgpu_lds``: (size, alignment)

    @property
    def is_temporary(self) -> bool:
        return self.name.startswith(".L")

    def __repr__(self):
        return f"Symbol({self.name!r})"

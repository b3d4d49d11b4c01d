"""A relocatable object model (ET_REL) and its writer, laid out as llvm-mc does.

The assembler fills a ``RelocatableObject`` with sections, symbols,
relocations and notes; ``to_bytes`` writes it in llvm-mc's shape:

* section headers: NULL, ``.strtab`` (names of sections and symbols share one
  table, e_shstrndx = 1), the content sections in creation order each
  followed by its ``.rela<name>``, and ``.symtab`` last;
* file data: ELF header, content sections (aligned), ``.symtab``, the
  ``.rela`` sections, ``.strtab``, then the section header table (8-aligned);
* symbols: the null symbol, local symbols in the order they were added, then
  global and weak ones in the order they were added.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ElfFormatError
from . import constants as C
from .notes import Note, encode_notes
from .strtab import StringTable
from .structs import (Elf64_Ehdr, Elf64_Rela, Elf64_Shdr, Elf64_Sym, Elf_Ident,
                      align_up, r_info, st_info)


@dataclass
class ObjSection:
    """A content section. ``data`` grows as the assembler emits bytes."""

    name: str
    type: int = C.SHT_PROGBITS
    flags: int = C.SHF_ALLOC
    data: bytearray = field(default_factory=bytearray)
    align: int = 1
    entsize: int = 0
    #: size of a SHT_NOBITS section (its data stays empty)
    nobits_size: int = 0
    link: int = 0
    info: int = 0

    @property
    def size(self) -> int:
        return self.nobits_size if self.type == C.SHT_NOBITS else len(self.data)


@dataclass
class ObjSymbol:
    """A symbol; ``section`` is a section name, or None for undefined symbols.

    ``shndx`` may force SHN_ABS or SHN_COMMON (then ``section`` is None).
    """

    name: str
    section: str | None = None
    value: int = 0
    size: int = 0
    bind: int = C.STB_LOCAL
    type: int = C.STT_NOTYPE
    visibility: int = C.STV_DEFAULT
    shndx: int | None = None

    @property
    def is_section_symbol(self) -> bool:
        return self.type == C.STT_SECTION


@dataclass
class ObjRelocation:
    offset: int
    type: int
    symbol: ObjSymbol
    addend: int = 0


class RelocatableObject:
    """Everything an ET_REL code object holds, before layout."""

    def __init__(self, e_flags: int, osabi: int = C.ELFOSABI_AMDGPU_HSA,
                 abi_version: int = C.ABI_VERSION_FOR_CODE_OBJECT[5]):
        self.e_flags = e_flags
        self.osabi = osabi
        self.abi_version = abi_version
        self.sections: list[ObjSection] = []
        self.symbols: list[ObjSymbol] = []
        self.relocations: dict[str, list[ObjRelocation]] = {}

    # --- building ---------------------------------------------------------
    def section(self, name: str) -> ObjSection | None:
        return next((s for s in self.sections if s.name == name), None)

    def add_section(self, name: str, type: int = C.SHT_PROGBITS, flags: int = C.SHF_ALLOC,
                    data: bytes = b"", align: int = 1, entsize: int = 0) -> ObjSection:
        if self.section(name) is not None:
            raise ValueError(f"section '{name}' already exists")
        if name in (".strtab", ".symtab") or name.startswith(".rela"):
            raise ValueError(f"section '{name}' is written by the ELF writer itself")
        section = ObjSection(name, type, flags, bytearray(data), align, entsize)
        self.sections.append(section)
        return section

    def add_symbol(self, name: str, section: str | None = None, value: int = 0, size: int = 0,
                   bind: int = C.STB_LOCAL, type: int = C.STT_NOTYPE,
                   visibility: int = C.STV_DEFAULT, shndx: int | None = None) -> ObjSymbol:
        if section is not None and self.section(section) is None:
            raise ValueError(f"symbol '{name}': no section '{section}'")
        symbol = ObjSymbol(name, section, value, size, bind, type, visibility, shndx)
        self.symbols.append(symbol)
        return symbol

    def add_section_symbol(self, section: str) -> ObjSymbol:
        """The STT_SECTION symbol of ``section`` (created once)."""
        for symbol in self.symbols:
            if symbol.is_section_symbol and symbol.section == section:
                return symbol
        return self.add_symbol(section, section, type=C.STT_SECTION)

    def find_symbol(self, name: str) -> ObjSymbol | None:
        return next((s for s in self.symbols if s.name == name and not s.is_section_symbol), None)

    def add_relocation(self, section: str, offset: int, type: int, symbol, addend: int = 0):
        """A relocation of ``section`` at ``offset`` against ``symbol``.

        ``symbol`` is an ``ObjSymbol`` or a name; an unknown name becomes an
        undefined global symbol, as an assembler reference does.
        """
        if self.section(section) is None:
            raise ValueError(f"relocation in unknown section '{section}'")
        if isinstance(symbol, str):
            name = symbol
            symbol = self.find_symbol(name) or self.add_symbol(name, bind=C.STB_GLOBAL)
        relocation = ObjRelocation(offset, type, symbol, addend)
        self.relocations.setdefault(section, []).append(relocation)
        return relocation

    def add_notes(self, notes: list[Note], name: str = ".note") -> ObjSection:
        """A SHT_NOTE section (SHF_ALLOC, 4-aligned, as llvm-mc writes it)."""
        return self.add_section(name, C.SHT_NOTE, C.SHF_ALLOC, encode_notes(notes), align=4)

    # --- writing ----------------------------------------------------------
    def to_bytes(self) -> bytes:
        return _Layout(self).write()


class _Layout:
    """Assigns section indices, symbol indices and file offsets, then writes."""

    def __init__(self, obj: RelocatableObject):
        self.obj = obj
        # header table: NULL, .strtab, content (+ .rela after each), .symtab
        self.order: list[tuple[str, object]] = [("null", None), ("strtab", None)]
        self.index_of_section: dict[str, int] = {}
        for section in obj.sections:
            self.index_of_section[section.name] = len(self.order)
            self.order.append(("content", section))
            if obj.relocations.get(section.name):
                self.order.append(("rela", section))
        self.symtab_index = len(self.order)
        self.order.append(("symtab", None))
        locals_ = [s for s in obj.symbols if s.bind == C.STB_LOCAL]
        globals_ = [s for s in obj.symbols if s.bind != C.STB_LOCAL]
        self.symbol_list = locals_ + globals_
        self.first_global = 1 + len(locals_)
        self.symbol_index = {id(s): i + 1 for i, s in enumerate(self.symbol_list)}

    def write(self) -> bytes:
        names = self._string_table()
        out = bytearray(Elf64_Ehdr.size)
        headers: dict[int, dict] = {}
        for index, (kind, section) in enumerate(self.order):
            if kind == "content":
                start = align_up(len(out), section.align)
                out += bytes(start - len(out))
                out += section.data
                headers[index] = self._header(section.name, section.type, section.flags, start,
                                              section.size, section.link, section.info,
                                              section.align, section.entsize)
        symtab = self._symtab(names)
        headers[self.symtab_index] = self._placed(out, ".symtab", C.SHT_SYMTAB, 0, symtab, 1,
                                                  self.first_global, 8, Elf64_Sym.size)
        for index, (kind, section) in enumerate(self.order):
            if kind == "rela":
                headers[index] = self._placed(
                    out, ".rela" + section.name, C.SHT_RELA, C.SHF_INFO_LINK,
                    self._rela(section.name), self.symtab_index,
                    self.index_of_section[section.name], 8, Elf64_Rela.size)
        headers[1] = self._placed(out, ".strtab", C.SHT_STRTAB, 0, names.data, 0, 0, 1, 0)
        shoff = align_up(len(out), 8)
        out += bytes(shoff - len(out))
        for index in range(len(self.order)):
            row = headers.get(index, {})
            if row:
                row = dict(row, sh_name=names.offset(row.pop("name")))
            out += Elf64_Shdr.pack(**row)
        out[:Elf64_Ehdr.size] = self._elf_header(shoff)
        return bytes(out)

    def _string_table(self) -> StringTable:
        names = StringTable()
        for kind, section in self.order:
            if kind == "content":
                names.add(section.name)
            elif kind == "rela":
                names.add(".rela" + section.name)
        names.add(".strtab")
        names.add(".symtab")
        for symbol in self.symbol_list:
            if not symbol.is_section_symbol:
                names.add(symbol.name)
        names.finalize()
        return names

    @staticmethod
    def _header(name, type_, flags, offset, size, link, info, align, entsize) -> dict:
        return {"name": name, "sh_type": type_, "sh_flags": flags, "sh_offset": offset,
                "sh_size": size, "sh_link": link, "sh_info": info,
                "sh_addralign": align, "sh_entsize": entsize}

    def _placed(self, out, name, type_, flags, data, link, info, align, entsize) -> dict:
        start = align_up(len(out), align)
        out += bytes(start - len(out))
        out += data
        return self._header(name, type_, flags, start, len(data), link, info, align, entsize)

    def _shndx(self, symbol: ObjSymbol) -> int:
        if symbol.shndx is not None:
            return symbol.shndx
        if symbol.section is None:
            return C.SHN_UNDEF
        return self.index_of_section[symbol.section]

    def _symtab(self, names: StringTable) -> bytes:
        rows = [Elf64_Sym.pack()]
        for symbol in self.symbol_list:
            name = 0 if symbol.is_section_symbol else names.offset(symbol.name)
            rows.append(Elf64_Sym.pack(st_name=name, st_info=st_info(symbol.bind, symbol.type),
                                       st_other=symbol.visibility, st_shndx=self._shndx(symbol),
                                       st_value=symbol.value, st_size=symbol.size))
        return b"".join(rows)

    def _rela(self, section_name: str) -> bytes:
        rows = []
        for relocation in self.obj.relocations[section_name]:
            # symbol None: relocation against the null symbol (an absolute value)
            index = 0 if relocation.symbol is None else self.symbol_index.get(id(relocation.symbol))
            if index is None:
                raise ElfFormatError(f"relocation in '{section_name}' refers to symbol "
                                     f"'{relocation.symbol.name}' not in the object")
            rows.append(Elf64_Rela.pack(r_offset=relocation.offset,
                                        r_info=r_info(index, relocation.type),
                                        r_addend=relocation.addend))
        return b"".join(rows)

    def _elf_header(self, shoff: int) -> bytes:
        ident = Elf_Ident.pack(ei_magic=C.ELF_MAGIC, ei_class=C.ELFCLASS64,
                               ei_data=C.ELFDATA2LSB, ei_version=C.EV_CURRENT,
                               ei_osabi=self.obj.osabi, ei_abiversion=self.obj.abi_version)
        return Elf64_Ehdr.pack(e_ident=ident, e_type=C.ET_REL, e_machine=C.EM_AMDGPU,
                               e_version=C.EV_CURRENT, e_shoff=shoff, e_flags=self.obj.e_flags,
                               e_ehsize=Elf64_Ehdr.size, e_shentsize=Elf64_Shdr.size,
                               e_shnum=len(self.order), e_shstrndx=1)

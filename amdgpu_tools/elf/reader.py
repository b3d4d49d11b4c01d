"""Reading ELF64 AMDGPU code objects (ET_REL and ET_DYN) into plain objects.

Every inconsistency a malformed or foreign file can have (truncation, offsets
or sizes past the end, bad section/symbol/string indices, a wrong class,
byte order or machine) is reported as one ``ElfFormatError`` naming the file
and the problem, never as an IndexError or struct.error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ElfFormatError
from . import constants as C
from .notes import Note, decode_isa_name, decode_isa_version, decode_notes
from .structs import (Elf64_Dyn, Elf64_Ehdr, Elf64_Phdr, Elf64_Rela, Elf64_Shdr, Elf64_Sym,
                      Elf_Ident)


@dataclass(slots=True)
class Section:
    index: int
    name: str
    type: int
    flags: int
    addr: int
    offset: int
    size: int
    link: int
    info: int
    addralign: int
    entsize: int
    data: bytes = b""

    @property
    def is_alloc(self) -> bool:
        return bool(self.flags & C.SHF_ALLOC)


@dataclass(slots=True)
class Segment:
    type: int
    flags: int
    offset: int
    vaddr: int
    paddr: int
    filesz: int
    memsz: int
    align: int
    data: bytes = b""


@dataclass(slots=True)
class Symbol:
    index: int
    name: str
    value: int
    size: int
    bind: int
    type: int
    visibility: int
    shndx: int
    #: name of the defining section ('' for undefined / absolute / common)
    section: str = ""

    @property
    def is_defined(self) -> bool:
        return self.shndx != C.SHN_UNDEF


@dataclass(slots=True)
class Relocation:
    offset: int
    type: int
    symbol_index: int
    addend: int
    symbol: Symbol | None = None

    @property
    def type_name(self) -> str:
        return C.relocation_name(self.type)


@dataclass
class ElfFile:
    """A parsed code object. Tables are lists; look-ups go through methods."""

    name: str
    data: bytes
    type: int
    machine: int
    flags: int
    osabi: int
    abi_version: int
    entry: int
    sections: list[Section] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)          # .symtab
    dynamic_symbols: list[Symbol] = field(default_factory=list)  # .dynsym
    #: target section name -> its relocations (from SHT_RELA sections)
    relocations: dict[str, list[Relocation]] = field(default_factory=dict)
    #: the relocations against .dynsym, in file order: what a loader applies
    dynamic_relocations: list[Relocation] = field(default_factory=list)
    dynamic: list[tuple[int, int]] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    def section(self, name: str) -> Section | None:
        return next((s for s in self.sections if s.name == name), None)

    def symbol(self, name: str, dynamic: bool = False) -> Symbol | None:
        table = self.dynamic_symbols if dynamic else self.symbols
        return next((s for s in table if s.name == name), None)

    @property
    def processor(self) -> str | None:
        return C.processor_of_flags(self.flags)

    @property
    def mach(self) -> int:
        """The EF_AMDGPU_MACH processor number (0: none, as in some v2 objects)."""
        return self.flags & C.EF_AMDGPU_MACH

    @property
    def isa_version(self) -> tuple[int, int, int] | None:
        """(major, minor, stepping) of a v2 NT_AMD_HSA_ISA_VERSION note, or None."""
        for note in self.notes:
            if note.owner == C.NOTE_OWNER_AMD and note.type == C.NT_AMD_HSA_ISA_VERSION:
                isa = decode_isa_version(note.desc)
                return isa["major"], isa["minor"], isa["stepping"]
        return None

    @property
    def isa_name(self) -> str | None:
        """The target name of a v2 NT_AMD_HSA_ISA_NAME note, or None."""
        for note in self.notes:
            if note.owner == C.NOTE_OWNER_AMD and note.type == C.NT_AMD_HSA_ISA_NAME:
                return decode_isa_name(note.desc)
        return None

    @property
    def has_legacy_e_flags(self) -> bool:
        """e_flags of an early v2 producer (0, or 0x2: EF_AMDGPU_ARCH_GCN): the
        processor is named only by the ISA notes."""
        return self.mach in C.LEGACY_V2_E_FLAGS and self.code_object_version in (None, 2)

    @property
    def code_object_version(self) -> int | None:
        """HSA code object version from EI_ABIVERSION (None if not HSA)."""
        if self.osabi != C.ELFOSABI_AMDGPU_HSA:
            return None
        return C.CODE_OBJECT_FOR_ABI_VERSION.get(self.abi_version)

    def bytes_at(self, address: int, size: int) -> bytes:
        """``size`` bytes at a virtual address (ET_DYN) or section-0 offset."""
        for section in self.sections:
            if (section.is_alloc and section.type != C.SHT_NOBITS
                    and section.addr <= address and address + size <= section.addr + section.size):
                start = address - section.addr
                return section.data[start:start + size]
        raise ElfFormatError(f"{self.name}: no section holds {size} bytes at address 0x{address:x}")


def read_elf(data: bytes, name: str = "<memory>", *, contents: bool = True) -> ElfFile:
    """Parse an AMDGPU ELF64 code object; ``name`` prefixes every error.

    ``contents=False`` reads the headers, sections, segments and symbols only,
    leaving ``relocations``, ``dynamic`` and ``notes`` empty: the linker decodes
    relocations per input section and merges note sections itself, and reading
    thousands of inputs is most of its time.
    """
    try:
        return _Parser(bytes(data), name).parse(contents)
    except ElfFormatError as bad:
        message = str(bad)
        if message.startswith(f"{name}: "):
            raise
        raise ElfFormatError(f"{name}: {message}") from None


def read_elf_file(path) -> ElfFile:
    """Read and parse a file; an unreadable file is an ElfFormatError too."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as failure:
        raise ElfFormatError(f"{path}: cannot read: {failure.strerror}") from None
    return read_elf(data, str(path))


class _Parser:
    def __init__(self, data: bytes, name: str):
        self.data = data
        self.name = name

    def parse(self, contents: bool) -> ElfFile:
        ident = self._identify()
        header = Elf64_Ehdr.unpack(self.data, 0)
        if header["e_machine"] != C.EM_AMDGPU:
            raise ElfFormatError(f"not an AMDGPU object: e_machine is {header['e_machine']}, "
                                 f"expected EM_AMDGPU ({C.EM_AMDGPU})")
        if header["e_type"] not in (C.ET_REL, C.ET_EXEC, C.ET_DYN):
            raise ElfFormatError(f"unsupported ELF type {header['e_type']}")
        elf = ElfFile(self.name, self.data, header["e_type"], header["e_machine"],
                      header["e_flags"], ident["ei_osabi"], ident["ei_abiversion"],
                      header["e_entry"])
        elf.sections = sections = self._sections(header)
        elf.segments = self._segments(header)
        for section in sections:
            if section.type == C.SHT_SYMTAB:
                elf.symbols = self._symbols(section, sections)
            elif section.type == C.SHT_DYNSYM:
                elf.dynamic_symbols = self._symbols(section, sections)
        if contents:
            self._section_contents(elf)
        return elf

    def _section_contents(self, elf: ElfFile) -> None:
        """Relocations, the dynamic table and notes (from the PT_NOTE segments if
        no note section is left, as in a stripped shared object)."""
        has_note_section = False
        for section in elf.sections:
            kind = section.type
            if kind == C.SHT_RELA:
                target, relocs = self._relocations(section, elf)
                elf.relocations.setdefault(target, []).extend(relocs)
                if elf.sections[section.link].type == C.SHT_DYNSYM:
                    elf.dynamic_relocations.extend(relocs)
            elif kind == C.SHT_NOTE:
                has_note_section = True
                elf.notes.extend(decode_notes(section.data, f"section '{section.name}'"))
            elif kind == C.SHT_REL:
                raise ElfFormatError(f"section '{section.name}': SHT_REL relocations "
                                     "are not used by AMDGPU (expected SHT_RELA)")
            elif kind == C.SHT_DYNAMIC:
                elf.dynamic = self._dynamic(section)
        if not has_note_section:
            for segment in elf.segments:
                if segment.type == C.PT_NOTE:
                    elf.notes.extend(decode_notes(segment.data, "PT_NOTE segment"))

    def _identify(self) -> dict:
        data = self.data
        if len(data) < 4 or len(data) < 16 and data[:4] == C.ELF_MAGIC:
            raise ElfFormatError(f"truncated file: {len(data)} bytes is too short "
                                 "for an ELF header")
        if data[:4] != C.ELF_MAGIC:
            raise ElfFormatError("not an ELF file (bad magic)")
        ident = Elf_Ident.unpack(data, 0)
        ei_class, ei_data = ident["ei_class"], ident["ei_data"]
        if ei_class != C.ELFCLASS64:
            raise ElfFormatError(f"unsupported ELF class {ei_class} "
                                 "(AMDGPU code objects are ELF64)")
        if ei_data != C.ELFDATA2LSB:
            raise ElfFormatError(f"unsupported ELF data encoding {ei_data} "
                                 "(AMDGPU code objects are little-endian)")
        if len(data) < Elf64_Ehdr.size:
            raise ElfFormatError(f"truncated file: {len(data)} bytes is too short "
                                 f"for an ELF64 header ({Elf64_Ehdr.size} bytes)")
        return ident

    def _slice(self, offset: int, size: int, what: str) -> bytes:
        if offset + size > len(self.data):
            raise ElfFormatError(f"{what}: offset 0x{offset:x} + size 0x{size:x} is past "
                                 f"the end of the file (0x{len(self.data):x} bytes)")
        return self.data[offset:offset + size]

    def _header_table(self, header, kind: str, record, what: str) -> list[tuple]:
        """The rows of the section (``kind`` 'sh') or program ('ph') header table."""
        count, offset, entsize = (header[f"e_{kind}num"], header[f"e_{kind}off"],
                                  header[f"e_{kind}entsize"])
        if offset == 0 or count == 0:
            return []
        if entsize != record.size:
            raise ElfFormatError(f"bad e_{kind}entsize {entsize} (expected {record.size})")
        return record.rows(self.data, offset, count, what)

    def _sections(self, header) -> list[Section]:
        rows = self._header_table(header, "sh", Elf64_Shdr, "section header table")
        if not rows:
            return []
        data, size = self.data, len(self.data)
        no_data = (C.SHT_NOBITS, C.SHT_NULL)
        sections = []
        for index, (_, type_, flags, addr, start, length, link, info, align, entsize) \
                in enumerate(rows):
            body = b""
            if type_ not in no_data:
                if start + length > size:
                    self._slice(start, length, f"section {index}")   # raises
                body = data[start:start + length]
            sections.append(Section(index, "", type_, flags, addr, start, length, link, info,
                                    align, entsize, body))
        names_index = header["e_shstrndx"]
        if names_index != C.SHN_UNDEF:
            if names_index >= len(sections):
                raise ElfFormatError(f"e_shstrndx {names_index} is not a section index "
                                     f"(the file has {len(sections)} sections)")
            strtab = sections[names_index]
            names = strtab.data if strtab.type == C.SHT_STRTAB else b""
            for section, row in zip(sections, rows):
                offset = row[0]
                end = names.find(b"\0", offset) if offset else -1
                if end >= 0:
                    section.name = names[offset:end].decode("utf-8", errors="replace")
                elif offset:
                    _string(strtab, offset, "name of section {}", section.index)   # raises
        return sections

    def _segments(self, header) -> list[Segment]:
        segments = []
        for index, (type_, flags, offset, vaddr, paddr, filesz, memsz, align) in enumerate(
                self._header_table(header, "ph", Elf64_Phdr, "program header table")):
            data = self._slice(offset, filesz, f"segment {index}")
            if type_ == C.PT_LOAD and memsz < filesz:
                raise ElfFormatError(f"PT_LOAD segment {index}: memory size 0x{memsz:x} is "
                                     f"smaller than its file size 0x{filesz:x}")
            segments.append(Segment(type_, flags, offset, vaddr, paddr, filesz, memsz, align,
                                    data))
        return segments

    def _linked(self, section: Section, sections, what: str) -> Section:
        if not 0 < section.link < len(sections):
            raise ElfFormatError(f"section '{section.name}': sh_link {section.link} is not "
                                 f"a valid {what} section index")
        return sections[section.link]

    def _symbols(self, section: Section, sections) -> list[Symbol]:
        if section.entsize not in (0, Elf64_Sym.size) or section.size % Elf64_Sym.size:
            raise ElfFormatError(f"section '{section.name}': size {section.size} is not a "
                                 f"multiple of the symbol size {Elf64_Sym.size}")
        strtab = self._linked(section, sections, "string table")
        rows = Elf64_Sym.rows(section.data, 0, section.size // Elf64_Sym.size,
                              f"section '{section.name}'")
        count, table = len(sections), section.name
        undefined, reserved, stt_section = C.SHN_UNDEF, C.SHN_LORESERVE, C.STT_SECTION
        symbols = []
        append = symbols.append
        for index, (name_at, info, other, shndx, value, size) in enumerate(rows):
            name = _string(strtab, name_at, "name of symbol {} in '{}'", index, table) \
                if name_at else ""
            section_name = ""
            if shndx != undefined and shndx < reserved:
                if shndx >= count:
                    raise ElfFormatError(f"symbol {index} ('{name}') in '{table}' "
                                         f"refers to section index {shndx}, but the file "
                                         f"has {count} sections")
                section_name = sections[shndx].name
            kind = info & 0xF
            if kind == stt_section and not name:
                name = section_name
            append(Symbol(index, name, value, size, info >> 4, kind, other & 3, shndx,
                          section_name))
        return symbols

    def _relocations(self, section: Section, elf: ElfFile):
        if section.size % Elf64_Rela.size:
            raise ElfFormatError(f"section '{section.name}': size {section.size} is not a "
                                 f"multiple of the relocation size {Elf64_Rela.size}")
        if not 0 < section.link < len(elf.sections):
            raise ElfFormatError(f"section '{section.name}': sh_link {section.link} is not "
                                 "a valid symbol table section index")
        table = elf.sections[section.link]
        symbols = elf.dynamic_symbols if table.type == C.SHT_DYNSYM else elf.symbols
        target = ""
        if section.flags & C.SHF_INFO_LINK or section.info:
            if section.info >= len(elf.sections):
                raise ElfFormatError(f"section '{section.name}': sh_info {section.info} is "
                                     "not a valid section index")
            target = elf.sections[section.info].name if section.info else ""
        rows = Elf64_Rela.rows(section.data, 0, section.size // Elf64_Rela.size,
                               f"section '{section.name}'")
        limit = max(len(symbols), 1)
        relocations = []
        for number, (offset, info, addend) in enumerate(rows):
            symbol_index = info >> 32
            if symbol_index >= limit:
                raise ElfFormatError(f"relocation {number} in '{section.name}' refers to "
                                     f"symbol index {symbol_index}, but the symbol table "
                                     f"has {len(symbols)} entries")
            relocations.append(Relocation(offset, info & 0xFFFFFFFF, symbol_index, addend,
                                          symbols[symbol_index] if symbols else None))
        return target or section.name, relocations

    def _dynamic(self, section: Section) -> list[tuple[int, int]]:
        entries = []
        for tag, value in Elf64_Dyn.rows(section.data, 0, section.size // Elf64_Dyn.size,
                                         f"section '{section.name}'"):
            entries.append((tag, value))
            if tag == C.DT_NULL:
                break
        return entries


def _string(strtab: Section, offset: int, what: str, *what_args) -> str:
    """The NUL-terminated string at ``offset`` of a string table section;
    ``what.format(*what_args)`` names the reference in errors (built only then)."""
    if offset == 0:
        return ""
    data = strtab.data
    end = data.find(b"\0", offset)
    if end < 0 or strtab.type != C.SHT_STRTAB:
        what = what.format(*what_args)
        if strtab.type != C.SHT_STRTAB:
            raise ElfFormatError(f"{what}: section '{strtab.name or strtab.index}' used as "
                                 "a string table is not SHT_STRTAB")
        if offset >= len(data):
            raise ElfFormatError(f"{what}: string offset {offset} is past the end of the "
                                 f"string table ({len(data)} bytes)")
        raise ElfFormatError(f"{what}: string at offset {offset} is not NUL-terminated")
    return data[offset:end].decode("utf-8", errors="replace")

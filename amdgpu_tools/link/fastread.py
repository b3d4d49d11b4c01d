"""A lean reader for the linker's inputs: well-formed relocatable objects.

Linking thousands of objects is dominated by reading them; the ELF layer's
reader builds a dict per table row and decodes everything (notes,
relocations with symbol look-ups), which is right for a general reader and
three times the cost the linker needs. This one reads only headers,
sections and symbols, as tuples, with the ELF layer's record layouts, and
checks every offset, size and index it uses. When a check fails it lets the
ELF layer's reader describe the problem, so malformed input gets the same
ElfFormatError wording everywhere in the toolchain.
"""

from __future__ import annotations

from collections import namedtuple

from ..elf import constants as C
from ..elf.reader import read_elf
from ..elf.structs import Elf64_Ehdr, Elf64_Shdr, Elf64_Sym
from ..errors import ElfFormatError

Section = namedtuple("Section", "index name type flags offset size link info addralign "
                                "entsize data")
Symbol = namedtuple("Symbol", "index name value size bind type visibility shndx")


class ObjectImage:
    """What the linker reads from one ET_REL file."""

    __slots__ = ("name", "type", "flags", "osabi", "abi_version", "sections", "symbols")

    def __init__(self, name, type_, flags, osabi, abi_version):
        self.name = name
        self.type = type_
        self.flags = flags
        self.osabi = osabi
        self.abi_version = abi_version
        self.sections: list[Section] = []
        self.symbols: list[Symbol] = []


class _Malformed(Exception):
    """A check failed; ``str()`` says which (used when the full reader accepts the file)."""


def read_object(data: bytes, name: str) -> ObjectImage:
    """The linker's view of ``data``, or an ElfFormatError naming ``name``."""
    try:
        return _parse(data, name)
    except (_Malformed, ValueError, IndexError) as problem:
        read_elf(data, name)  # raises the ELF layer's description of the problem
        raise ElfFormatError(f"{name}: {problem}") from None


def _parse(data: bytes, name: str) -> ObjectImage:
    if len(data) < Elf64_Ehdr.size or data[:4] != C.ELF_MAGIC:
        raise _Malformed("not an ELF64 file")
    if data[4] != C.ELFCLASS64 or data[5] != C.ELFDATA2LSB:
        raise _Malformed("not a little-endian ELF64 file")
    header = Elf64_Ehdr.unpack(data, 0)
    if header["e_machine"] != C.EM_AMDGPU:
        raise _Malformed("not an AMDGPU object")
    image = ObjectImage(name, header["e_type"], header["e_flags"], data[7], data[8])
    image.sections = _sections(data, header)
    for section in image.sections:
        if section.type == C.SHT_SYMTAB:
            image.symbols = _symbols(section, image.sections)
    return image


def _sections(data: bytes, header) -> list[Section]:
    count, offset = header["e_shnum"], header["e_shoff"]
    if not count:
        return []
    if header["e_shentsize"] != Elf64_Shdr.size or offset + count * Elf64_Shdr.size > len(data):
        raise _Malformed("bad section header table")
    rows = list(Elf64_Shdr.iter_values(data, offset, count))
    names_index = header["e_shstrndx"]
    if not 0 < names_index < count:
        raise _Malformed(f"bad e_shstrndx {names_index}")
    size = len(data)
    names_row = rows[names_index]
    if names_row[4] + names_row[5] > size:
        raise _Malformed("section name table past the end of the file")
    names = data[names_row[4]:names_row[4] + names_row[5]]
    sections = []
    for index, (name, type_, flags, _, start, length, link, info, align, entsize) in enumerate(rows):
        if type_ == C.SHT_NOBITS or type_ == C.SHT_NULL:
            body = b""
        elif start + length > size:
            raise _Malformed(f"section {index} past the end of the file")
        else:
            body = data[start:start + length]
        sections.append(Section(index, _string(names, name) if name else "", type_, flags,
                                start, length, link, info, align, entsize, body))
    return sections


def _symbols(section: Section, sections) -> list[Symbol]:
    if section.size % Elf64_Sym.size or not 0 < section.link < len(sections):
        raise _Malformed("bad symbol table")
    strings = sections[section.link].data
    limit = len(strings)
    count = len(sections)
    symbols = []
    append = symbols.append
    for index, (name, info, other, shndx, value, size) in enumerate(
            Elf64_Sym.iter_values(section.data, 0, section.size // Elf64_Sym.size)):
        if name:
            end = strings.find(b"\0", name)
            if name >= limit or end < 0:
                raise _Malformed(f"name of symbol {index} outside its string table")
            text = strings[name:end].decode("utf-8", errors="replace")
        else:
            text = ""
        kind = info & 0xF
        if shndx != C.SHN_UNDEF and shndx < C.SHN_LORESERVE:
            if shndx >= count:
                raise _Malformed(f"symbol {index} refers to section index {shndx}")
            if kind == C.STT_SECTION and not text:
                text = sections[shndx].name
        append(Symbol(index, text, value, size, info >> 4, kind, other & 3, shndx))
    return symbols


def _string(table: bytes, offset: int) -> str:
    if offset == 0:
        return ""
    end = table.find(b"\0", offset)
    if offset >= len(table) or end < 0:
        raise _Malformed(f"string offset {offset} outside its string table")
    return table[offset:end].decode("utf-8", errors="replace")

"""Reading a shared code object for the loader: header checks, segments,
symbols, dynamic relocations, notes and kernel metadata.

Every structure is bounds-checked against the file, so a truncated or
corrupted code object ends in one ``LoadError`` saying what is wrong rather
than an exception from deep inside a parser.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from ..elf.constants import (ABI_VERSION_FOR_CODE_OBJECT, EF_AMDGPU_MACH, ELF_MAGIC,
                             ELFCLASS64, ELFDATA2LSB, ELFOSABI_AMDGPU_HSA, EM_AMDGPU, ET_DYN,
                             ET_REL)
from ..errors import LoadError
from .metadata import ProgramMetadata, parse_v2_yaml, parse_v3_msgpack

PT_LOAD, PT_DYNAMIC, PT_NOTE = 1, 2, 4
SHT_SYMTAB, SHT_RELA, SHT_NOTE, SHT_DYNSYM = 2, 4, 7, 11
STT_AMDGPU_HSA_KERNEL = 10
DT_NULL, DT_RELA, DT_RELASZ, DT_RELAENT = 0, 7, 8, 9

NT_AMD_HSA_CODE_OBJECT_VERSION = 1
NT_AMD_HSA_ISA_VERSION = 3
NT_AMD_HSA_METADATA = 10
NT_AMDGPU_METADATA = 32

CODE_OBJECT_FOR_ABI = {abi: version for version, abi in ABI_VERSION_FOR_CODE_OBJECT.items()}


@dataclass(frozen=True)
class Segment:
    offset: int
    vaddr: int
    filesz: int
    memsz: int
    flags: int
    align: int


@dataclass(frozen=True)
class Symbol:
    name: str
    value: int
    size: int
    type: int
    bind: int
    shndx: int


@dataclass(frozen=True)
class Relocation:
    offset: int
    type: int
    symbol: Symbol | None
    addend: int


@dataclass
class CodeObject:
    """The loader's view of one ELF code object."""

    data: bytes
    elf_type: int
    mach: int
    flags: int
    abi_version: int
    segments: list = field(default_factory=list)
    symbols: dict = field(default_factory=dict)        # name -> Symbol (symtab and dynsym)
    relocations: list = field(default_factory=list)
    notes: list = field(default_factory=list)          # (owner, type, desc)
    metadata: ProgramMetadata | None = None

    @property
    def code_object_version(self) -> int:
        if self.abi_version == 0:
            for owner, note_type, desc in self.notes:
                if owner == "AMD" and note_type == NT_AMD_HSA_CODE_OBJECT_VERSION and \
                        len(desc) >= 4:
                    return struct.unpack_from("<I", desc)[0] or 2
            return 2
        return CODE_OBJECT_FOR_ABI[self.abi_version]

    @property
    def isa_version(self):
        """(major, minor, stepping) of a v2 NT_AMD_HSA_ISA_VERSION note, or None."""
        for owner, note_type, desc in self.notes:
            if owner == "AMD" and note_type == NT_AMD_HSA_ISA_VERSION and len(desc) >= 16:
                # vendor and architecture name sizes (u16 each), then the version
                return struct.unpack_from("<III", desc, 4)
        return None

    def kernel_symbols(self) -> list:
        """v2 kernel symbols (type STT_AMDGPU_HSA_KERNEL), local or global."""
        return [s for s in self.symbols.values() if s.type == STT_AMDGPU_HSA_KERNEL and s.shndx]


class _Reader:
    """Bounds-checked unpacking from the file bytes."""

    def __init__(self, data: bytes):
        self.data = data

    def unpack(self, fmt: str, offset: int, what: str):
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > len(self.data):
            raise LoadError(f"truncated code object: {what} at offset 0x{offset:x} "
                            f"(+{size}) is past the end of the {len(self.data)}-byte file")
        return struct.unpack_from(fmt, self.data, offset)

    def bytes(self, offset: int, size: int, what: str) -> bytes:
        if offset < 0 or size < 0 or offset + size > len(self.data):
            raise LoadError(f"truncated code object: {what} at offset 0x{offset:x} "
                            f"(+{size}) is past the end of the {len(self.data)}-byte file")
        return self.data[offset:offset + size]


def elf_type_of(data: bytes) -> int:
    """e_type of an ELF file, after the identification checks."""
    reader = _Reader(bytes(data))
    _check_ident(reader)
    return reader.unpack("<H", 16, "ELF header")[0]


def _check_ident(reader: _Reader) -> None:
    if len(reader.data) < 4 or reader.data[:4] != ELF_MAGIC:
        raise LoadError("not an ELF file (bad magic)")
    ident = reader.bytes(0, 16, "ELF identification")
    if ident[4] != ELFCLASS64:
        raise LoadError(f"not a 64-bit ELF file (EI_CLASS {ident[4]})")
    if ident[5] != ELFDATA2LSB:
        raise LoadError(f"not a little-endian ELF file (EI_DATA {ident[5]})")


def parse_code_object(data: bytes) -> CodeObject:
    """Parse and check a code object (ET_DYN or ET_REL) for the AMDGPU HSA ABI."""
    reader = _Reader(bytes(data))
    _check_ident(reader)
    osabi, abi_version = reader.data[7], reader.data[8]
    (e_type, e_machine, _, _, e_phoff, e_shoff, e_flags, _, e_phentsize, e_phnum,
     e_shentsize, e_shnum, _) = reader.unpack("<HHIQQQIHHHHHH", 16, "ELF header")
    if e_machine != EM_AMDGPU:
        raise LoadError(f"wrong machine: e_machine is {e_machine}, not EM_AMDGPU ({EM_AMDGPU})")
    if osabi != ELFOSABI_AMDGPU_HSA:
        raise LoadError(f"wrong OS/ABI {osabi}: only the AMDGPU HSA ABI "
                        f"({ELFOSABI_AMDGPU_HSA}) is loadable")
    if abi_version not in CODE_OBJECT_FOR_ABI:
        raise LoadError(f"unsupported ABI version {abi_version} (code objects v2-v5 "
                        f"have {sorted(CODE_OBJECT_FOR_ABI)})")
    if e_type not in (ET_DYN, ET_REL):
        raise LoadError(f"e_type {e_type} is neither a shared nor a relocatable object")
    code = CodeObject(bytes(data), e_type, e_flags & EF_AMDGPU_MACH, e_flags, abi_version)
    if e_phnum and e_phentsize < 56:
        raise LoadError(f"bad program header size {e_phentsize}")
    if e_shnum and e_shentsize < 64:
        raise LoadError(f"bad section header size {e_shentsize}")
    phdrs = [reader.unpack("<IIQQQQQQ", e_phoff + i * e_phentsize, f"program header {i}")
             for i in range(e_phnum)]
    shdrs = [reader.unpack("<IIQQQQIIQQ", e_shoff + i * e_shentsize, f"section header {i}")
             for i in range(e_shnum)]
    for index, (p_type, p_flags, p_offset, p_vaddr, _, p_filesz, p_memsz, p_align) in \
            enumerate(phdrs):
        if p_type == PT_LOAD:
            reader.bytes(p_offset, p_filesz, f"PT_LOAD segment {index}")
            if p_memsz < p_filesz:
                raise LoadError(f"PT_LOAD segment {index}: memory size {p_memsz} is smaller "
                                f"than file size {p_filesz}")
            code.segments.append(Segment(p_offset, p_vaddr, p_filesz, p_memsz, p_flags,
                                         p_align or 1))
        elif p_type == PT_NOTE:
            code.notes.extend(_notes(reader, p_offset, p_filesz))
    if not phdrs:
        for (_, sh_type, _, _, sh_offset, sh_size, *_rest) in shdrs:
            if sh_type == SHT_NOTE:
                code.notes.extend(_notes(reader, sh_offset, sh_size))
    _read_symbols(reader, shdrs, code)
    if e_type == ET_DYN:
        _read_relocations(reader, shdrs, code)
    code.metadata = _metadata(code)
    return code


def _notes(reader: _Reader, offset: int, size: int):
    reader.bytes(offset, size, "note segment")
    end, notes = offset + size, []
    while offset + 12 <= end:
        namesz, descsz, note_type = reader.unpack("<III", offset, "note header")
        name_at = offset + 12
        desc_at = name_at + (namesz + 3) // 4 * 4
        next_note = desc_at + (descsz + 3) // 4 * 4
        if desc_at + descsz > end:
            raise LoadError(f"malformed note at offset 0x{offset:x}: its sizes run past "
                            "the note segment")
        owner = reader.bytes(name_at, namesz, "note name").rstrip(b"\0").decode("latin-1")
        notes.append((owner, note_type, reader.bytes(desc_at, descsz, "note descriptor")))
        offset = next_note
    return notes


def _read_symbols(reader, shdrs, code):
    for index, (_, sh_type, _, _, sh_offset, sh_size, sh_link, _, _, sh_entsize) in \
            enumerate(shdrs):
        if sh_type not in (SHT_SYMTAB, SHT_DYNSYM):
            continue
        if sh_link >= len(shdrs):
            raise LoadError(f"section {index}: string table index {sh_link} out of range")
        strtab = shdrs[sh_link]
        strings = reader.bytes(strtab[4], strtab[5], f"string table of section {index}")
        entsize = sh_entsize or 24
        if entsize < 24:
            raise LoadError(f"section {index}: symbol entry size {entsize} is too small")
        reader.bytes(sh_offset, sh_size, f"symbol table section {index}")
        for n in range(1, sh_size // entsize):
            st_name, st_info, _, st_shndx, st_value, st_size = reader.unpack(
                "<IBBHQQ", sh_offset + n * entsize, f"symbol {n} of section {index}")
            name = _string(strings, st_name, f"symbol {n} of section {index}")
            symbol = Symbol(name, st_value, st_size, st_info & 0xF, st_info >> 4, st_shndx)
            if name and (name not in code.symbols or sh_type == SHT_DYNSYM):
                code.symbols[name] = symbol


def _string(strings: bytes, offset: int, what: str) -> str:
    if offset >= len(strings) and offset:
        raise LoadError(f"{what}: name offset {offset} is outside its string table")
    end = strings.find(b"\0", offset)
    return strings[offset:end if end >= 0 else len(strings)].decode("utf-8", "replace")


def _read_relocations(reader, shdrs, code):
    """The dynamic relocations (SHT_RELA sections whose symbols are in .dynsym)."""
    dynsyms = None
    for index, (_, sh_type, _, _, sh_offset, sh_size, sh_link, _, _, sh_entsize) in \
            enumerate(shdrs):
        if sh_type != SHT_RELA or sh_link >= len(shdrs) or shdrs[sh_link][1] != SHT_DYNSYM:
            continue
        if dynsyms is None:
            dynsyms = _symbols_by_index(reader, shdrs, sh_link)
        entsize = sh_entsize or 24
        for n in range(sh_size // entsize):
            r_offset, r_info, r_addend = reader.unpack(
                "<QQq", sh_offset + n * entsize, f"relocation {n} of section {index}")
            symbol_index = r_info >> 32
            if symbol_index and symbol_index >= len(dynsyms):
                raise LoadError(f"relocation {n} of section {index}: symbol index "
                                f"{symbol_index} out of range")
            code.relocations.append(Relocation(
                r_offset, r_info & 0xFFFFFFFF, dynsyms[symbol_index] if symbol_index else None,
                r_addend))


def _symbols_by_index(reader, shdrs, index):
    _, _, _, _, sh_offset, sh_size, sh_link, _, _, sh_entsize = shdrs[index]
    strtab = shdrs[sh_link] if sh_link < len(shdrs) else None
    if strtab is None:
        raise LoadError(f"section {index}: string table index {sh_link} out of range")
    strings = reader.bytes(strtab[4], strtab[5], "dynamic string table")
    entsize = sh_entsize or 24
    out = []
    for n in range(sh_size // entsize):
        st_name, st_info, _, st_shndx, st_value, st_size = reader.unpack(
            "<IBBHQQ", sh_offset + n * entsize, f"dynamic symbol {n}")
        out.append(Symbol(_string(strings, st_name, f"dynamic symbol {n}"), st_value, st_size,
                          st_info & 0xF, st_info >> 4, st_shndx))
    return out


def _metadata(code: CodeObject):
    for owner, note_type, desc in code.notes:
        if owner == "AMDGPU" and note_type == NT_AMDGPU_METADATA:
            return parse_v3_msgpack(desc)
        if owner == "AMD" and note_type == NT_AMD_HSA_METADATA:
            return parse_v2_yaml(desc.rstrip(b"\0").decode("utf-8", "replace"))
    return None

"""The linker's view of its inputs: relocatable objects and their sections.

The ELF layer's reader parses and validates each file's headers, sections and
symbols (``contents=False``: relocations are decoded here); this module keeps
what the link needs (content sections with their relocations, symbols,
the target identity from e_flags / EI_ABIVERSION) and checks what only a
linker cares about: the file is ET_REL, every relocation patches bytes
inside its section, every relocation names a symbol that exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..elf import constants as C
from ..elf.reader import ElfFile, read_elf
from ..elf.structs import Elf64_Rela
from ..errors import ElfFormatError
from .comdat import ComdatGroups

#: Section types that hold link-time bookkeeping, never output content.
_BOOKKEEPING_TYPES = {C.SHT_NULL, C.SHT_SYMTAB, C.SHT_STRTAB, C.SHT_RELA, C.SHT_REL,
                      C.SHT_GROUP, C.SHT_DYNSYM, C.SHT_HASH, C.SHT_GNU_HASH,
                      C.SHT_DYNAMIC, C.SHT_LLVM_ADDRSIG}
#: Input sections ld.lld drops from a shared object (GNU-stack marks the
#: stack non-executable through PT_GNU_STACK instead).
_DROPPED_NAMES = {".note.GNU-stack"}


@dataclass(eq=False, slots=True)
class InputSection:
    """A content section of one input object, placed later in an output section."""

    obj: "InputObject"
    index: int
    name: str
    type: int
    flags: int
    align: int
    size: int
    data: bytes
    entsize: int = 0
    #: (offset, type, symbol index, addend) tuples from the matching .rela section
    relocations: list = field(default_factory=list)
    output: object = None
    #: offset inside the output section, set by the layout
    out_offset: int = 0
    #: the MergedSection holding this SHF_MERGE section's pieces (None: placed whole)
    merge: object = None

    def address_of(self, offset: int) -> int:
        """The output address of ``offset`` in this section (merged pieces move)."""
        if self.merge is not None:
            return self.merge.section.address + self.merge.output_offset(self, offset)
        return self.output.addr + self.out_offset + offset

    @property
    def is_alloc(self) -> bool:
        return bool(self.flags & C.SHF_ALLOC)

    @property
    def address(self) -> int:
        return self.output.addr + self.out_offset

    def where(self, offset: int) -> str:
        """``obj.o:(.text+0x10)``: how diagnostics name a place in the input."""
        return f"{self.obj.name}:({self.name}+0x{offset:x})"


@dataclass(eq=False)
class InputObject:
    """One ET_REL file: identity, content sections, raw symbols."""

    name: str
    elf: ElfFile
    #: section index -> InputSection (only sections that reach the output)
    sections: dict = field(default_factory=dict)
    #: the resolved Symbol for each symbol-table index (filled by the resolver)
    symbol_refs: list = field(default_factory=list)
    #: section index -> signature, for members of COMDAT groups another object won
    comdat_discarded: dict = field(default_factory=dict)

    @property
    def flags(self) -> int:
        return self.elf.flags

    @property
    def osabi(self) -> int:
        return self.elf.osabi

    @property
    def abi_version(self) -> int:
        return self.elf.abi_version

    @property
    def code_object_version(self) -> int:
        """2 for the seed-era format (no HSA OS/ABI), else from EI_ABIVERSION."""
        if self.osabi != C.ELFOSABI_AMDGPU_HSA:
            return 2
        return C.CODE_OBJECT_FOR_ABI_VERSION.get(self.abi_version, self.abi_version + 2)

    @property
    def processor(self) -> str:
        name = C.processor_of_flags(self.flags)
        return name or f"EF_AMDGPU_MACH 0x{self.flags & C.EF_AMDGPU_MACH:x}"


def load_object(data: bytes, name: str, groups: ComdatGroups | None = None) -> InputObject:
    """Parse one relocatable object, keeping the sections the output needs
    (``groups``: the link's COMDAT signatures; members of groups an earlier
    object provided are left out)."""
    elf = read_elf(data, name, contents=False)
    if elf.type != C.ET_REL:
        kind = C.ET_NAMES.get(elf.type, str(elf.type))
        raise ElfFormatError(f"{name}: is ET_{kind}, expected a relocatable object (ET_REL)")
    obj = InputObject(name, elf)
    if groups is not None:
        obj.comdat_discarded = groups.discarded_sections(elf, name)
    for section in elf.sections:
        if _is_content(section) and section.index not in obj.comdat_discarded:
            align = section.addralign
            if align & (align - 1) or align > 1 << 32:
                _alignment_error(name, section)
            obj.sections[section.index] = InputSection(
                obj, section.index, section.name, section.type, section.flags,
                max(section.addralign, 1), section.size,
                b"" if section.type == C.SHT_NOBITS else section.data, section.entsize)
    for section in elf.sections:
        if section.type == C.SHT_RELA and section.info in obj.sections:
            _attach_relocations(obj, section)
    return obj


def _alignment_error(name: str, section) -> None:
    """ld.lld's limits: a power of two, at most 2**32."""
    if section.addralign & (section.addralign - 1):
        raise ElfFormatError(f"{name}:({section.name}): sh_addralign is not a power of 2")
    raise ElfFormatError(f"{name}:({section.name}): sh_addralign is too large")


def _is_content(section) -> bool:
    if section.type in _BOOKKEEPING_TYPES:
        return False
    if section.flags & C.SHF_EXCLUDE or section.name in _DROPPED_NAMES:
        return False
    return True


def _attach_relocations(obj: InputObject, rela) -> None:
    """Read a .rela section and check each entry against its target section."""
    target = obj.sections[rela.info]
    if rela.size % Elf64_Rela.size:
        raise ElfFormatError(f"{obj.name}: section '{rela.name}': size {rela.size} is not a "
                             f"multiple of {Elf64_Rela.size}")
    nsyms = len(obj.elf.symbols)
    relocations = target.relocations
    for number, (offset, info, addend) in enumerate(
            Elf64_Rela.iter_values(rela.data, 0, rela.size // Elf64_Rela.size)):
        rtype, sym = info & 0xFFFFFFFF, info >> 32
        recipe = C.RELOCATION_BY_VALUE.get(rtype)
        if recipe is None or rtype == C.R_AMDGPU_RELATIVE64:
            raise ElfFormatError(f"{obj.name}: relocation {number} in '{rela.name}' has "
                                 f"unknown or dynamic-only type {rtype}")
        if sym >= nsyms:
            raise ElfFormatError(f"{obj.name}: relocation {number} in '{rela.name}' refers "
                                 f"to symbol index {sym}, but the symbol table has "
                                 f"{nsyms} entries")
        if offset + recipe.size > target.size:
            raise ElfFormatError(f"{obj.name}: relocation {number} in '{rela.name}' patches "
                                 f"offset 0x{offset:x}, past the end of '{target.name}' "
                                 f"(0x{target.size:x} bytes)")
        relocations.append((offset, rtype, sym, addend))

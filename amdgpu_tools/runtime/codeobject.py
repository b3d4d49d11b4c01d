"""What the loader needs of a code object, read through the ELF layer.

The ELF layer (``elf.reader``, ``elf.metadata``) parses and bounds-checks
every structure; this module adds only the loading policy on top (the HSA
OS/ABI, a known code object version, a shared or relocatable object, at least
one PT_LOAD segment) and turns each ELF or metadata problem into one
``LoadError``, so a malformed file is reported the same way by every tool.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..elf import constants as C
from ..elf.metadata import KernelInfo as KernelMetadata
from ..elf.metadata import is_metadata_note, kernels_from_notes
from ..elf.reader import ElfFile, Segment, Symbol, read_elf
from ..errors import ElfFormatError, LoadError

#: how read_elf names the bytes in its messages ("code object: truncated file: ...")
SOURCE_NAME = "code object"


@dataclass
class CodeObject:
    """A checked code object: its ELF view plus the loader's look-ups."""

    elf: ElfFile
    #: name -> Symbol; a .dynsym entry wins over a .symtab one of the same name
    symbols: dict[str, Symbol]
    #: kernels of the metadata notes; None when the object has no metadata note
    metadata: list[KernelMetadata] | None
    #: the printf format strings of the metadata ("id:size:...:format")
    printf: list[str]
    #: (major, minor, stepping) of a v2 NT_AMD_HSA_ISA_VERSION note, or None
    isa_version: tuple[int, int, int] | None

    @property
    def segments(self) -> list[Segment]:
        """The PT_LOAD segments, the only ones mapped into device memory."""
        return [s for s in self.elf.segments if s.type == C.PT_LOAD]

    @property
    def relocations(self):
        return self.elf.dynamic_relocations

    def kernel_symbols(self) -> list[Symbol]:
        """v2 kernel symbols (type STT_AMDGPU_HSA_KERNEL), local or global, defined."""
        return [s for s in self.symbols.values()
                if s.type == C.STT_AMDGPU_HSA_KERNEL and s.is_defined]


def read_checked_elf(data: bytes) -> ElfFile:
    """``data`` parsed by the ELF layer; any format problem is a LoadError."""
    try:
        return read_elf(data, SOURCE_NAME)
    except ElfFormatError as bad:
        raise LoadError(str(bad)) from None


def parse_code_object(data: bytes) -> CodeObject:
    """Parse and check a code object (ET_DYN or ET_REL) for the AMDGPU HSA ABI."""
    return code_object_of(read_checked_elf(data))


def code_object_of(elf: ElfFile) -> CodeObject:
    """The loader's view of a parsed ELF file, after the loading policy checks."""
    _check_loadable(elf)
    symbols = {s.name: s for s in elf.symbols if s.name}
    symbols.update((s.name, s) for s in elf.dynamic_symbols if s.name)
    try:
        isa_version = elf.isa_version
    except ElfFormatError as bad:
        raise LoadError(f"malformed note: {bad}") from None
    try:
        kernels = kernels_from_notes(elf.notes)
    except ElfFormatError as bad:
        raise LoadError(f"malformed metadata: {bad}") from None
    has_metadata = any(is_metadata_note(n) for n in elf.notes)
    printf = next((k.printf for k in kernels if k.printf), [])
    return CodeObject(elf, symbols, kernels if has_metadata else None, list(printf),
                      isa_version)


def _check_loadable(elf: ElfFile) -> None:
    """What the HSA loader requires beyond a well-formed AMDGPU ELF file."""
    if elf.osabi != C.ELFOSABI_AMDGPU_HSA:
        raise LoadError(f"wrong OS/ABI {elf.osabi}: only the AMDGPU HSA ABI "
                        f"({C.ELFOSABI_AMDGPU_HSA}) is loadable")
    if elf.code_object_version is None:
        raise LoadError(f"unsupported ABI version {elf.abi_version} (code objects v2-v5 "
                        f"have {sorted(C.CODE_OBJECT_FOR_ABI_VERSION)})")
    if elf.type not in (C.ET_DYN, C.ET_REL):
        raise LoadError(f"e_type {elf.type} is neither a shared nor a relocatable object")

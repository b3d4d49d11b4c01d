"""ELF notes, and the AMDGPU note payloads of code object v2 and v3+.

Code object v2 (owner "AMD") carries a code object version note, an ISA
version note (vendor "AMD", architecture "AMDGPU"), optionally an ISA name
note, and YAML metadata; v3+ (owner "AMDGPU") carries one MessagePack
metadata note. ``encode_notes`` / ``decode_notes`` handle the ELF framing;
the ``*_desc`` helpers handle each payload.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..errors import ElfFormatError
from .constants import (NOTE_OWNER_AMD, NOTE_OWNER_AMDGPU, NOTE_TYPE_NAMES,
                        NT_AMD_HSA_CODE_OBJECT_VERSION, NT_AMD_HSA_ISA_NAME,
                        NT_AMD_HSA_ISA_VERSION, NT_AMD_HSA_METADATA,
                        NT_AMDGPU_METADATA)
from .structs import Elf_Nhdr, align_up


@dataclass(frozen=True)
class Note:
    """One note: owner name, type and raw descriptor bytes."""

    owner: str
    type: int
    desc: bytes

    @property
    def type_name(self) -> str:
        return NOTE_TYPE_NAMES.get((self.owner, self.type), f"NT_UNKNOWN_{self.type}")


def encode_notes(notes) -> bytes:
    """The bytes of a SHT_NOTE section holding ``notes`` (4-byte padding)."""
    out = bytearray()
    for note in notes:
        name = note.owner.encode() + b"\0"
        out += Elf_Nhdr.pack(n_namesz=len(name), n_descsz=len(note.desc), n_type=note.type)
        out += name.ljust(align_up(len(name), 4), b"\0")
        out += note.desc.ljust(align_up(len(note.desc), 4), b"\0")
    return bytes(out)


def decode_notes(data: bytes, where: str = "note section") -> list[Note]:
    """Every note in a SHT_NOTE section or PT_NOTE segment."""
    notes, offset = [], 0
    while offset < len(data):
        if len(data) - offset < Elf_Nhdr.size:
            raise ElfFormatError(f"{where}: truncated note header at offset 0x{offset:x}")
        header = Elf_Nhdr.unpack(data, offset, "note header")
        name_at = offset + Elf_Nhdr.size
        desc_at = name_at + align_up(header["n_namesz"], 4)
        end = desc_at + header["n_descsz"]
        if end > len(data):
            raise ElfFormatError(f"{where}: note at offset 0x{offset:x} extends past "
                                 f"the end of its section ({end} > {len(data)} bytes)")
        owner = data[name_at:name_at + header["n_namesz"]].rstrip(b"\0")
        notes.append(Note(owner.decode("latin-1"), header["n_type"], bytes(data[desc_at:end])))
        offset = align_up(end, 4)
    return notes


# --- code object v2 payloads ---------------------------------------------
def code_object_version_note(major: int = 2, minor: int = 1) -> Note:
    return Note(NOTE_OWNER_AMD, NT_AMD_HSA_CODE_OBJECT_VERSION, struct.pack("<II", major, minor))


def decode_code_object_version(desc: bytes) -> tuple[int, int]:
    _check_size(desc, 8, "NT_AMD_HSA_CODE_OBJECT_VERSION")
    return struct.unpack_from("<II", desc)


def isa_version_note(major: int, minor: int, stepping: int,
                     vendor: str = "AMD", arch: str = "AMDGPU") -> Note:
    """NT_AMD_HSA_ISA_VERSION: sizes of vendor/arch, major, minor, stepping, names."""
    vendor_b, arch_b = vendor.encode() + b"\0", arch.encode() + b"\0"
    desc = struct.pack("<HHIII", len(vendor_b), len(arch_b), major, minor, stepping)
    return Note(NOTE_OWNER_AMD, NT_AMD_HSA_ISA_VERSION, desc + vendor_b + arch_b)


def decode_isa_version(desc: bytes) -> dict:
    _check_size(desc, 16, "NT_AMD_HSA_ISA_VERSION")
    vendor_size, arch_size, major, minor, stepping = struct.unpack_from("<HHIII", desc)
    if 16 + vendor_size + arch_size > len(desc):
        raise ElfFormatError("NT_AMD_HSA_ISA_VERSION: vendor/architecture names "
                             "extend past the note")
    vendor = desc[16:16 + vendor_size].rstrip(b"\0").decode("latin-1")
    arch = desc[16 + vendor_size:16 + vendor_size + arch_size].rstrip(b"\0").decode("latin-1")
    return {"vendor": vendor, "arch": arch, "major": major, "minor": minor, "stepping": stepping}


def isa_name_note(isa_name: str) -> Note:
    """NT_AMD_HSA_ISA_NAME: the target id string, e.g. amdgcn-amd-amdhsa--gfx803."""
    return Note(NOTE_OWNER_AMD, NT_AMD_HSA_ISA_NAME, isa_name.encode())


def decode_isa_name(desc: bytes) -> str:
    return desc.rstrip(b"\0").decode("latin-1")


def hsa_metadata_note(yaml_text: str) -> Note:
    """NT_AMD_HSA_METADATA (v2): the YAML text, not NUL-terminated (as llvm-mc writes it)."""
    return Note(NOTE_OWNER_AMD, NT_AMD_HSA_METADATA, yaml_text.encode())


def decode_hsa_metadata_text(desc: bytes) -> str:
    return desc.rstrip(b"\0").decode("utf-8", errors="replace")


# --- code object v3+ payload ---------------------------------------------
def amdgpu_metadata_note(msgpack_bytes: bytes) -> Note:
    return Note(NOTE_OWNER_AMDGPU, NT_AMDGPU_METADATA, bytes(msgpack_bytes))


def describe_note(note: Note) -> str:
    """A readable rendering of a note's payload (used by amdgpu-objdump)."""
    from . import metadata_v3 as metadata  # YAML and MessagePack only when used
    try:
        if note.owner == NOTE_OWNER_AMD and note.type == NT_AMD_HSA_CODE_OBJECT_VERSION:
            major, minor = decode_code_object_version(note.desc)
            return f"code object version {major}.{minor}"
        if note.owner == NOTE_OWNER_AMD and note.type == NT_AMD_HSA_ISA_VERSION:
            isa = decode_isa_version(note.desc)
            return (f"vendor {isa['vendor']}, architecture {isa['arch']}, "
                    f"ISA {isa['major']}.{isa['minor']}.{isa['stepping']}")
        if note.owner == NOTE_OWNER_AMD and note.type == NT_AMD_HSA_ISA_NAME:
            return f"ISA name {decode_isa_name(note.desc)}"
        if note.owner == NOTE_OWNER_AMD and note.type == NT_AMD_HSA_METADATA:
            return decode_hsa_metadata_text(note.desc)
        if note.owner == NOTE_OWNER_AMDGPU and note.type == NT_AMDGPU_METADATA:
            return metadata.to_yaml(metadata.decode_msgpack(note.desc))
    except ElfFormatError as bad:
        return f"<malformed: {bad}>"
    return note.desc.hex()


def _check_size(desc: bytes, size: int, what: str) -> None:
    if len(desc) < size:
        raise ElfFormatError(f"{what}: descriptor has {len(desc)} bytes, expected {size}")

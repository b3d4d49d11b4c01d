"""Comparing two relocatable objects the way the acceptance tests define equal:
same header identity, same content-section bytes and attributes, same symbols,
same relocations, and notes whose decoded metadata is equal.

String-table layout and file offsets are not compared (they follow from the
rest); everything a linker or loader reads is.
"""

import msgpack
import yaml

from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf.reader import read_elf

_SKIPPED = {C.SHT_STRTAB, C.SHT_SYMTAB, C.SHT_RELA, C.SHT_NOTE}


def describe(data: bytes) -> dict:
    """A comparable summary of an ET_REL object."""
    elf = read_elf(data, "object")
    sections = []
    for section in elf.sections[1:]:
        if section.type in _SKIPPED:
            sections.append((section.name, section.type, section.flags, section.addralign))
        else:
            sections.append((section.name, section.type, section.flags, section.addralign,
                             section.entsize, section.size, bytes(section.data)))
    symbols = [(s.name or s.section, s.value, s.size, s.bind, s.type, s.visibility,
                s.section if 0 < s.shndx < C.SHN_LORESERVE else s.shndx)
               for s in elf.symbols[1:]]
    relocations = {name: [(r.offset, r.type, (r.symbol.name or r.symbol.section) if r.symbol else None,
                           r.addend) for r in rows]
                   for name, rows in elf.relocations.items()}
    return {
        "header": (elf.type, elf.machine, elf.flags, elf.osabi, elf.abi_version),
        "sections": sections,
        "symbols": symbols,
        "relocations": relocations,
        "notes": [_note(n) for n in elf.notes],
    }


def _note(note):
    if note.type == C.NT_AMDGPU_METADATA:
        return (note.owner, note.type, msgpack.unpackb(note.desc, strict_map_key=False))
    if note.owner == C.NOTE_OWNER_AMD and note.type == C.NT_AMD_HSA_METADATA:
        return (note.owner, note.type, yaml.safe_load(note.desc.rstrip(b"\0").decode()))
    return (note.owner, note.type, note.desc)


def assert_same_object(mine: bytes, reference: bytes):
    """Assert equality part by part so a failure names what differs."""
    a, b = describe(mine), describe(reference)
    for key in ("header", "sections", "symbols", "relocations", "notes"):
        assert a[key] == b[key], f"{key} differ:\n mine: {a[key]}\n  ref: {b[key]}"

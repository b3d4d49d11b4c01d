"""COMDAT section groups: one copy of each template / inline function.

Compilers put every out-of-line copy of a C++/HIP template or inline function
in an SHT_GROUP with the GRP_COMDAT flag, named by a signature symbol. Like
ld.lld, the first group of a signature seen in link order wins; every later
group of that signature is dropped whole: its member sections, their
relocations, and the symbols defined in them (a global defined there resolves
as a reference to the kept copy; a local one disappears).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..elf import constants as C
from ..errors import ElfFormatError

GRP_COMDAT = 0x1


class ComdatGroups:
    """The signatures seen so far in one link, each with the object that won it."""

    def __init__(self):
        self.winners: dict[str, str] = {}

    def discarded_sections(self, elf, name: str) -> dict[int, "DiscardedSection"]:
        """Section index -> what was dropped, for each member of a group of ``elf``
        that an earlier object already provided (its first group of a signature
        claims the signature for the rest of the link)."""
        discarded = {}
        for section in elf.sections:
            if section.type != C.SHT_GROUP:
                continue
            flags, members = _group_words(section, name, len(elf.sections))
            if not flags & GRP_COMDAT:
                continue
            signature = _signature(elf, section, name)
            if signature in self.winners:
                winner = self.winners[signature]
                discarded.update((index, DiscardedSection(elf.sections[index].name, signature,
                                                          winner)) for index in members)
            else:
                self.winners[signature] = name
        return discarded


@dataclass(frozen=True)
class DiscardedSection:
    """A section dropped with its COMDAT group (what ld.lld's error names when
    allocated code or data still refers to it)."""

    name: str
    signature: str
    winner: str


def _group_words(section, name: str, section_count: int) -> tuple[int, list[int]]:
    if section.size % 4 or section.size < 4:
        raise ElfFormatError(f"{name}: section group '{section.name}' has size "
                             f"{section.size}, not a non-zero multiple of 4")
    flags, *members = struct.unpack(f"<{section.size // 4}I", section.data)
    for member in members:
        if not 0 < member < section_count:
            raise ElfFormatError(f"{name}: section group '{section.name}' names section "
                                 f"index {member}, but the file has {section_count} sections")
    return flags, members


def _signature(elf, section, name: str) -> str:
    """The group's name: the symbol sh_info indexes in the symbol table."""
    if not 0 <= section.info < len(elf.symbols):
        raise ElfFormatError(f"{name}: section group '{section.name}' has signature symbol "
                             f"index {section.info}, but the symbol table has "
                             f"{len(elf.symbols)} entries")
    return elf.symbols[section.info].name

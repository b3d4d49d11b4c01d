"""SHF_MERGE sections: identical strings / constants stored once, as ld.lld
does at its default -O1 (its MergeNoTailSection).

Within one output section, mergeable input sections with the same flags and
entry size (and, for strings, the same alignment) become one synthetic
section placed where the first of them was. Each input is cut into pieces
(NUL-terminated strings, or entsize-byte records); a piece goes to one of 32
shards by the top five bits of the low 32 bits of its XXH3-64 hash (strings
hashed without their terminator); each shard keeps the first copy of each
piece in input order, every piece aligned to the section alignment; the
shards follow one another in shard order, each non-empty one aligned.
An offset into an input section then maps to the same offset within its
piece's kept copy.
"""

from __future__ import annotations

import bisect

from ..elf import constants as C
from ..elf.structs import align_up
from ..errors import LinkError
from .objects import InputSection
from .symbols import DEFINED, Symbol
from .xxh3 import xxh3_64

SHARDS = 32


def is_mergeable(section) -> bool:
    """ld.lld merges SHF_MERGE sections with a non-zero entry size; one
    carrying relocations is linked as ordinary data (its pieces would need
    them too)."""
    return (bool(section.flags & C.SHF_MERGE) and section.entsize > 0
            and section.type != C.SHT_NOBITS and not section.relocations)


def check_mergeable(section) -> None:
    """ld.lld's errors for SHF_MERGE sections it cannot split."""
    where = f"{section.obj.name}:({section.name})"
    if section.flags & C.SHF_WRITE:
        raise LinkError(f"{where}: writable SHF_MERGE section is not supported")
    if section.size % section.entsize:
        raise LinkError(f"{where}: SHF_MERGE section size ({section.size}) must be a "
                        f"multiple of sh_entsize ({section.entsize})")


def merge_key(section) -> tuple:
    """Sections with equal keys (in one output section) share a synthetic section."""
    strings = bool(section.flags & C.SHF_STRINGS)
    return (section.flags & ~C.SHF_GROUP, section.entsize, section.align if strings else None)


class MergedSection:
    """The synthetic section that replaces a run of mergeable input sections."""

    def __init__(self, first: InputSection):
        self.members: list[InputSection] = []
        self.section = InputSection(None, 0, first.name, first.type, first.flags & ~C.SHF_GROUP,
                                    first.align, 0, b"", first.entsize)
        #: member -> (sorted input offsets of its pieces, their output offsets)
        self._maps: dict = {}
        self._section_symbol = None

    def section_reference(self, member: InputSection, offset: int):
        """(symbol, addend) for "member's section symbol + offset": as in ld.lld,
        the addend chooses the piece, so it is mapped together with the value."""
        if self._section_symbol is None:
            self._section_symbol = Symbol(self.section.name, C.STB_LOCAL, C.STT_SECTION,
                                          C.STV_DEFAULT, 0, 0, self.section, DEFINED, None)
        return self._section_symbol, self.output_offset(member, offset)

    def add(self, member: InputSection) -> None:
        check_mergeable(member)
        member.merge = self
        self.members.append(member)
        self.section.align = max(self.section.align, member.align)

    def finalize(self) -> None:
        """Deduplicate into shards and lay them out; fills the synthetic data."""
        align = self.section.align
        shards = [{} for _ in range(SHARDS)]   # piece bytes -> offset within the shard
        sizes = [0] * SHARDS
        placed = []
        for member in self.members:
            starts, shard_of, where = [], [], []
            for start, piece, hashed in _pieces(member):
                shard = (xxh3_64(hashed) & 0xFFFFFFFF) >> 27
                offset = shards[shard].get(piece)
                if offset is None:
                    offset = align_up(sizes[shard], align)
                    shards[shard][piece] = offset
                    sizes[shard] = offset + len(piece)
                starts.append(start)
                shard_of.append(shard)
                where.append(offset)
            placed.append((member, starts, shard_of, where))
        bases, total = [], 0
        for size in sizes:
            if size:
                total = align_up(total, align)
            bases.append(total)
            total += size
        data = bytearray(total)
        for shard, pieces in enumerate(shards):
            for piece, offset in pieces.items():
                data[bases[shard] + offset:bases[shard] + offset + len(piece)] = piece
        for member, starts, shard_of, where in placed:
            self._maps[member] = (starts, [bases[s] + w for s, w in zip(shard_of, where)])
        self.section.data, self.section.size = bytes(data), total

    def output_offset(self, member: InputSection, offset: int) -> int:
        """Where ``offset`` of ``member`` ended up in the synthetic section."""
        starts, outputs = self._maps[member]
        index = bisect.bisect_right(starts, offset) - 1
        if index < 0 or offset > member.size:
            raise LinkError(f"{member.where(offset)}: offset is outside the SHF_MERGE section")
        return outputs[index] + offset - starts[index]


def _pieces(member: InputSection):
    """(input offset, piece bytes, bytes hashed) for each piece of ``member``."""
    data, size = member.data, member.entsize
    if not member.flags & C.SHF_STRINGS:
        for start in range(0, len(data), size):
            piece = data[start:start + size]
            yield start, piece, piece
        return
    if data and data[-size:] != bytes(size):
        raise LinkError(f"{member.obj.name}:({member.name}): string is not null terminated")
    start = 0
    while start < len(data):
        end = _string_end(data, start, size)
        yield start, data[start:end + size], data[start:end]
        start = end + size


def _string_end(data: bytes, start: int, size: int) -> int:
    """Offset of the all-zero character that ends the string at ``start``."""
    if size == 1:
        return data.index(0, start)
    zero = bytes(size)
    at = start
    while data[at:at + size] != zero:
        at += size
    return at

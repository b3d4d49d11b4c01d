"""The dynamic-linking tables of a shared object: .dynsym, .dynstr, .hash,
.gnu.hash, .dynamic and .rela.dyn, in the shapes ld.lld writes.

.dynsym lists undefined symbols first, then defined ones sorted by GNU hash
bucket (the GNU hash table requires each bucket's symbols to be adjacent);
.dynstr keeps the order in which names were added, before that sort. The
hash tables are the standard SysV and GNU ones (GNU: 12 bloom bits per
symbol, shift 26, four symbols per bucket).
"""

from __future__ import annotations

import struct

from ..elf import constants as C
from ..elf.structs import Elf64_Dyn, Elf64_Rela, Elf64_Sym, r_info, st_info

GNU_HASH_SHIFT2 = 26


class StringTable:
    """An ELF string table in insertion order, each distinct string once
    (``deduplicate=False``: every string appended, as ld.lld's .strtab does)."""

    def __init__(self, deduplicate: bool = True):
        self._offsets = {"": 0} if deduplicate else None
        self._parts = [b"\0"]
        self.size = 1

    def add(self, text: str) -> int:
        offsets = self._offsets
        offset = offsets.get(text) if offsets is not None else (0 if not text else None)
        if offset is None:
            encoded = text.encode() + b"\0"
            offset = self.size
            if offsets is not None:
                offsets[text] = offset
            self._parts.append(encoded)
            self.size += len(encoded)
        return offset

    def append(self, text: str) -> int:
        """Add ``text`` as a new entry even if it is already there (ld.lld
        writes .dynstr's symbol names without recording them)."""
        encoded = text.encode() + b"\0"
        offset = self.size
        self._parts.append(encoded)
        self.size += len(encoded)
        return offset

    def data(self) -> bytes:
        return b"".join(self._parts)


def signed64(value: int) -> int:
    """``value`` wrapped to a signed 64-bit field (addends wrap as in ld.lld)."""
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def unsigned64(value: int) -> int:
    """The 64-bit field holding ``value`` (a negative absolute symbol wraps)."""
    return value & 0xFFFFFFFFFFFFFFFF


def sysv_hash(name: str) -> int:
    """The System V ABI's ELF hash (top nibble folded into bits 4-7, then cleared)."""
    value = 0
    for byte in name.encode():
        value = ((value << 4) + byte) & 0xFFFFFFFF
        value = (value ^ ((value & 0xF0000000) >> 24)) & 0x0FFFFFFF
    return value


def gnu_hash(name: str) -> int:
    value = 5381
    for byte in name.encode():
        value = (value * 33 + byte) & 0xFFFFFFFF
    return value


def _next_power_of_two(value: int) -> int:
    """The smallest power of two strictly greater than ``value``."""
    return 1 << value.bit_length()


class DynamicSymbols:
    """Builds .dynsym order, .dynstr and both hash tables."""

    def __init__(self, symbols):
        self.strings = StringTable()
        entries = [(s, self.strings.add(s.name)) for s in symbols]
        undefined = [e for e in entries if not e[0].is_defined]
        defined = [e for e in entries if e[0].is_defined]
        self.buckets = max(len(defined) // 4, 1)
        self.hashes = {id(s): gnu_hash(s.name) for s, _ in defined}
        defined.sort(key=lambda e: (self.hashes[id(e[0])] % self.buckets, e[1]))
        self.first_hashed = 1 + len(undefined)
        self.entries = undefined + defined
        for index, (symbol, _) in enumerate(self.entries, start=1):
            symbol.dynsym_index = index

    def dynsym(self, section_index) -> bytes:
        """The .dynsym bytes; ``section_index(symbol)`` gives st_shndx."""
        rows, pack = [bytes(Elf64_Sym.size)], Elf64_Sym.pack_values
        for symbol, name in self.entries:  # fields: name, info, other, shndx, value, size
            rows.append(pack(name, st_info(symbol.output_binding, symbol.type),
                             symbol.visibility, section_index(symbol),
                             unsigned64(symbol.address), symbol.size))
        return b"".join(rows)

    def sysv_hash_table(self) -> bytes:
        count = len(self.entries) + 1
        buckets, chains = [0] * count, [0] * count
        for index, (symbol, _) in enumerate(self.entries, start=1):
            bucket = sysv_hash(symbol.name) % count
            chains[index] = buckets[bucket]
            buckets[bucket] = index
        return struct.pack(f"<II{count}I{count}I", count, count, *buckets, *chains)

    def gnu_hash_table(self) -> bytes:
        hashed = self.entries[self.first_hashed - 1:]
        mask_words = _next_power_of_two(len(hashed) * 12 // 64) if hashed else 1
        bloom = [0] * mask_words
        for symbol, _ in hashed:
            value = self.hashes[id(symbol)]
            word = (value // 64) & (mask_words - 1)
            bloom[word] |= (1 << (value % 64)) | (1 << ((value >> GNU_HASH_SHIFT2) % 64))
        buckets, values = [0] * self.buckets, []
        for position, (symbol, _) in enumerate(hashed):
            value = self.hashes[id(symbol)]
            bucket = value % self.buckets
            last = (position + 1 == len(hashed)
                    or self.hashes[id(hashed[position + 1][0])] % self.buckets != bucket)
            values.append(value | 1 if last else value & ~1)
            if not buckets[bucket]:
                buckets[bucket] = self.first_hashed + position
        header = struct.pack("<IIII", self.buckets, self.first_hashed, mask_words, GNU_HASH_SHIFT2)
        return (header + struct.pack(f"<{mask_words}Q", *bloom)
                + struct.pack(f"<{self.buckets}I{len(values)}I", *buckets, *values))

    @staticmethod
    def gnu_hash_size(count_defined: int) -> int:
        mask_words = _next_power_of_two(count_defined * 12 // 64) if count_defined else 1
        return 16 + 8 * mask_words + 4 * max(count_defined // 4, 1) + 4 * count_defined


class DynamicRelocation:
    """One .rela.dyn entry at ``offset`` in an input (or synthetic) section."""

    __slots__ = ("section", "offset", "type", "symbol", "addend")

    def __init__(self, section, offset, type_, symbol, addend):
        self.section = section
        self.offset = offset
        self.type = type_
        self.symbol = symbol
        self.addend = addend

    @property
    def address(self) -> int:
        return self.section.address + self.offset


def rela_dyn(relocations) -> bytes:
    """.rela.dyn bytes: RELATIVE entries first by address (DT_RELACOUNT counts
    them), then the symbolic ones by symbol and address, as ld.lld sorts them."""
    relative = sorted((r for r in relocations if r.type == C.R_AMDGPU_RELATIVE64),
                      key=lambda r: r.address)
    symbolic = sorted((r for r in relocations if r.type != C.R_AMDGPU_RELATIVE64),
                      key=lambda r: (r.symbol.dynsym_index, r.address))
    rows = []
    pack = Elf64_Rela.pack_values  # fields: offset, info, addend
    for r in relative:
        rows.append(pack(r.address, r_info(0, r.type), signed64(r.symbol.address + r.addend)))
    for r in symbolic:
        rows.append(pack(r.address, r_info(r.symbol.dynsym_index, r.type), r.addend))
    return b"".join(rows)


def dynamic_entries(tables: dict) -> list[tuple[int, int]]:
    """The .dynamic entries ld.lld writes for a shared object without DT_NEEDED
    (DT_SONAME first when the link names one)."""
    entries = []
    if tables.get("soname_offset"):
        entries.append((C.DT_SONAME, tables["soname_offset"]))
    if tables.get("rela_size"):
        entries += [(C.DT_RELA, tables["rela_addr"]), (C.DT_RELASZ, tables["rela_size"]),
                    (C.DT_RELAENT, Elf64_Rela.size)]
        if tables.get("relative_count"):
            entries.append((C.DT_RELACOUNT, tables["relative_count"]))
    entries += [(C.DT_SYMTAB, tables["dynsym_addr"]), (C.DT_SYMENT, Elf64_Sym.size),
                (C.DT_STRTAB, tables["dynstr_addr"]), (C.DT_STRSZ, tables["dynstr_size"]),
                (C.DT_GNU_HASH, tables["gnu_hash_addr"]), (C.DT_HASH, tables["hash_addr"]),
                (C.DT_NULL, 0)]
    return entries


def dynamic_bytes(entries) -> bytes:
    return b"".join(Elf64_Dyn.pack(d_tag=tag, d_val=value) for tag, value in entries)

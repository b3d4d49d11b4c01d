"""ELF64 little-endian structures, each described once as a field list.

The reader and the writer both use these descriptions: ``unpack`` turns
bytes into a dict of named fields (bounds-checked, so a truncated file is an
``ElfFormatError`` and never a ``struct.error``) and ``pack`` turns a dict
(missing fields are zero) back into bytes.
"""

from __future__ import annotations

import struct

from ..errors import ElfFormatError


class Struct:
    """A fixed-size little-endian record with named fields."""

    def __init__(self, name: str, fields: list[tuple[str, str]]):
        self.name = name
        self.fields = fields
        self.names = [field for field, _ in fields]
        self._struct = struct.Struct("<" + "".join(fmt for _, fmt in fields))
        self.size = self._struct.size

    def unpack(self, data: bytes, offset: int = 0, what: str | None = None) -> dict:
        """The fields at ``offset``; ``what`` names the record in errors."""
        if offset < 0 or offset + self.size > len(data):
            raise ElfFormatError(
                f"truncated file: {what or self.name} at offset 0x{offset:x} needs "
                f"{self.size} bytes but the file has {len(data)}")
        return dict(zip(self.names, self._struct.unpack_from(data, offset)))

    def rows(self, data: bytes, offset: int, count: int, what: str) -> list[tuple]:
        """``count`` consecutive records (a table) from ``offset`` as tuples of field
        values in declaration order; a table past the end is an ElfFormatError."""
        end = offset + count * self.size
        if offset < 0 or end > len(data):
            raise ElfFormatError(
                f"truncated file: {what} (0x{offset:x}..0x{end:x}) extends past "
                f"the end of the file (0x{len(data):x} bytes)")
        return list(self._struct.iter_unpack(data[offset:end]))

    def complete(self, values: dict) -> dict:
        """Every field, in declaration order: the given values, the others zero
        (so records built field by field always pack)."""
        unknown = set(values) - set(self.names)
        if unknown:
            raise ValueError(f"{self.name} has no field(s) {sorted(unknown)}")
        return {field: values.get(field, b"" if fmt.endswith("s") else 0)
                for field, fmt in self.fields}

    def pack(self, **values) -> bytes:
        """Bytes of one record; unnamed fields are zero."""
        return self._struct.pack(*self.complete(values).values())

    def iter_values(self, data: bytes, offset: int, count: int):
        """``count`` records from ``offset`` as tuples of field values, unchecked:
        the caller has verified the bounds (the fast path for large tables)."""
        return self._struct.iter_unpack(data[offset:offset + count * self.size])

    def pack_values(self, *values) -> bytes:
        """Bytes of one record from all field values in declaration order
        (the fast path for large tables, e.g. the linker's symbol tables)."""
        return self._struct.pack(*values)


Elf64_Ehdr = Struct("ELF header", [
    ("e_ident", "16s"), ("e_type", "H"), ("e_machine", "H"), ("e_version", "I"),
    ("e_entry", "Q"), ("e_phoff", "Q"), ("e_shoff", "Q"), ("e_flags", "I"),
    ("e_ehsize", "H"), ("e_phentsize", "H"), ("e_phnum", "H"),
    ("e_shentsize", "H"), ("e_shnum", "H"), ("e_shstrndx", "H"),
])

#: The 16 identification bytes at the start of e_ident.
Elf_Ident = Struct("e_ident", [
    ("ei_magic", "4s"), ("ei_class", "B"), ("ei_data", "B"), ("ei_version", "B"),
    ("ei_osabi", "B"), ("ei_abiversion", "B"), ("ei_pad", "7s"),
])

Elf64_Shdr = Struct("section header", [
    ("sh_name", "I"), ("sh_type", "I"), ("sh_flags", "Q"), ("sh_addr", "Q"),
    ("sh_offset", "Q"), ("sh_size", "Q"), ("sh_link", "I"), ("sh_info", "I"),
    ("sh_addralign", "Q"), ("sh_entsize", "Q"),
])

Elf64_Phdr = Struct("program header", [
    ("p_type", "I"), ("p_flags", "I"), ("p_offset", "Q"), ("p_vaddr", "Q"),
    ("p_paddr", "Q"), ("p_filesz", "Q"), ("p_memsz", "Q"), ("p_align", "Q"),
])

Elf64_Sym = Struct("symbol", [
    ("st_name", "I"), ("st_info", "B"), ("st_other", "B"), ("st_shndx", "H"),
    ("st_value", "Q"), ("st_size", "Q"),
])

Elf64_Rela = Struct("relocation", [
    ("r_offset", "Q"), ("r_info", "Q"), ("r_addend", "q"),
])

Elf64_Dyn = Struct("dynamic entry", [("d_tag", "q"), ("d_val", "Q")])

#: A note's header; name and descriptor follow, each padded to 4 bytes.
Elf_Nhdr = Struct("note header", [("n_namesz", "I"), ("n_descsz", "I"), ("n_type", "I")])


def st_info(bind: int, type_: int) -> int:
    """(bind << 4) | type; readers split it inline (``info >> 4``, ``info & 0xF``)."""
    return (bind << 4) | (type_ & 0xF)


def r_info(symbol: int, type_: int) -> int:
    """(symbol << 32) | type; readers split it inline (symbol ``info >> 32``,
    type ``info & 0xFFFFFFFF``) in their per-entry loops, the hot path of a link."""
    return (symbol << 32) | type_


def align_up(value: int, alignment: int) -> int:
    """``value`` rounded up to a multiple of ``alignment`` (0 and 1: unchanged)."""
    if alignment <= 1:
        return value
    return (value + alignment - 1) // alignment * alignment

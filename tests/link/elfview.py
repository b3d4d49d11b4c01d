"""Reading linked shared objects for comparison, with pyelftools (an ELF
reader independent of the project's own), so tests do not check our writer
with our reader."""

from __future__ import annotations

import io
import pathlib

import msgpack
import yaml
from elftools.elf.elffile import ELFFile

DATA = pathlib.Path(__file__).parent / "data"

#: Sections whose contents legitimately differ from ld.lld's: the linker
#: identification string in .comment (and so the offsets of what follows).
NON_ALLOC_TAIL = {".comment", ".symtab", ".shstrtab", ".strtab"}


def data_path(name: str) -> str:
    return str(DATA / name)


def read_data(name: str) -> bytes:
    return (DATA / name).read_bytes()


class View:
    """The parts of a shared object the tests compare."""

    def __init__(self, blob: bytes):
        self.blob = blob
        self.elf = ELFFile(io.BytesIO(blob))

    @property
    def header(self) -> dict:
        header = dict(self.elf.header)
        header["e_ident"] = dict(header["e_ident"])
        return header

    def sections(self) -> list[dict]:
        rows = []
        for section in self.elf.iter_sections():
            row = {k: section.header[k] for k in ("sh_type", "sh_flags", "sh_addr", "sh_size",
                                                  "sh_link", "sh_info", "sh_addralign",
                                                  "sh_entsize", "sh_offset")}
            row["name"] = section.name
            rows.append(row)
        return rows

    def segments(self) -> list[dict]:
        return [dict(segment.header) for segment in self.elf.iter_segments()]

    def section(self, name: str):
        return self.elf.get_section_by_name(name)

    def contents(self, name: str) -> bytes:
        return self.section(name).data()

    def symbols(self, table: str = ".symtab") -> list[tuple]:
        return [(s.name, s["st_value"], s["st_size"], s["st_info"]["bind"],
                 s["st_info"]["type"], s["st_other"]["visibility"], s["st_shndx"])
                for s in self.section(table).iter_symbols()]

    def symbol(self, name: str, table: str = ".symtab") -> dict:
        return self.section(table).get_symbol_by_name(name)[0]

    def address(self, name: str) -> int:
        return self.symbol(name)["st_value"]

    def dynamic_relocations(self) -> list[tuple]:
        section = self.section(".rela.dyn")
        if section is None:
            return []
        dynsym = self.section(".dynsym")
        rows = []
        for rel in section.iter_relocations():
            index = rel["r_info_sym"]
            name = dynsym.get_symbol(index).name if index else ""
            rows.append((rel["r_offset"], rel["r_info_type"], name, rel["r_addend"]))
        return rows

    def notes(self) -> list[tuple]:
        notes = []
        for section in self.elf.iter_sections():
            if section.header["sh_type"] == "SHT_NOTE":
                data = section.data()
                offset = 0
                while offset < len(data):
                    namesz, descsz, ntype = (int.from_bytes(data[offset + i:offset + i + 4],
                                                            "little") for i in (0, 4, 8))
                    name = data[offset + 12:offset + 12 + namesz].rstrip(b"\0").decode()
                    desc_at = offset + 12 + (namesz + 3) // 4 * 4
                    notes.append((name, ntype, data[desc_at:desc_at + descsz]))
                    offset = desc_at + (descsz + 3) // 4 * 4
        return notes

    def metadata_documents(self) -> list[dict]:
        """Every metadata note decoded (v3+ msgpack, v2 YAML)."""
        documents = []
        for owner, ntype, desc in self.notes():
            if (owner, ntype) == ("AMDGPU", 32):
                documents.append(msgpack.unpackb(desc, raw=False))
            elif (owner, ntype) == ("AMD", 10):
                documents.append(yaml.safe_load(desc.rstrip(b"\0").decode()))
        return documents

    def read(self, address: int, size: int) -> bytes:
        for section in self.elf.iter_sections():
            start = section["sh_addr"]
            if (section["sh_flags"] & 2 and section["sh_type"] != "SHT_NOBITS"
                    and start <= address < start + section["sh_size"]):
                data = section.data()
                return data[address - start:address - start + size]
        raise KeyError(hex(address))


def assert_section_headers_match(ours: View, lld: View) -> None:
    """Every section header equal, but the offsets of the non-allocated tail and
    the size of .comment (it names a different linker)."""
    for mine, theirs in zip(ours.sections(), lld.sections(), strict=True):
        if mine["name"] in NON_ALLOC_TAIL:
            mine.pop("sh_offset"), theirs.pop("sh_offset")
            if mine["name"] == ".comment":
                mine.pop("sh_size"), theirs.pop("sh_size")
        assert mine == theirs


def assert_matches_lld(ours: View, lld: View) -> None:
    """Everything but the named difference (.comment and the offsets after it)."""
    mine, theirs = ours.header, lld.header
    mine.pop("e_shoff"), theirs.pop("e_shoff")
    assert mine == theirs
    assert ours.segments() == lld.segments()
    assert_section_headers_match(ours, lld)
    for section in lld.elf.iter_sections():
        if section["sh_flags"] & 2 and section["sh_type"] != "SHT_NOBITS":
            assert ours.contents(section.name) == section.data(), section.name
    assert ours.symbols(".dynsym") == lld.symbols(".dynsym")
    assert ours.symbols(".symtab") == lld.symbols(".symtab")

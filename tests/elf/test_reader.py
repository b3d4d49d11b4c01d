"""The reader against llvm-readelf-19 on objects made by llvm-mc, clang and ld.lld."""

import pytest

from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf.reader import read_elf

from .helpers import OBJECTS, read_bytes, readelf_json


def _entries(report, key, inner):
    return [entry[inner] for entry in report.get(key, [])]


@pytest.mark.parametrize("name", OBJECTS)
def test_header_matches_readelf(name):
    elf = read_elf(read_bytes(name), name)
    header = readelf_json(name)["ElfHeader"]
    assert elf.machine == header["Machine"]["Value"] == C.EM_AMDGPU
    assert elf.osabi == header["Ident"]["OS/ABI"]["Value"] == C.ELFOSABI_AMDGPU_HSA
    assert elf.abi_version == header["Ident"]["ABIVersion"]
    assert elf.flags == header["Flags"]["Value"]
    assert elf.entry == header["Entry"]
    assert elf.type == (C.ET_REL if name.endswith(".o") else C.ET_DYN)


@pytest.mark.parametrize("name", OBJECTS)
def test_sections_match_readelf(name):
    elf = read_elf(read_bytes(name), name)
    expected = _entries(readelf_json(name), "Sections", "Section")
    assert len(elf.sections) == len(expected)
    for section, row in zip(elf.sections, expected):
        assert (section.index, section.name, section.type, section.flags, section.addr,
                section.offset, section.size, section.link, section.info, section.addralign,
                section.entsize) == (
            row["Index"], row["Name"]["Name"], row["Type"]["Value"], row["Flags"]["Value"],
            row["Address"], row["Offset"], row["Size"], row["Link"], row["Info"],
            row["AddressAlignment"], row["EntrySize"])


def _symbol_rows(rows):
    return [(row["Name"]["Name"] if row["Type"]["Value"] != C.STT_SECTION else None,
             row["Value"], row["Size"], row["Binding"]["Value"], row["Type"]["Value"],
             row["Other"]["Value"] & 3, row["Section"]["Value"]) for row in rows]


def _our_rows(symbols):
    return [(s.name if s.type != C.STT_SECTION else None, s.value, s.size, s.bind, s.type,
             s.visibility, s.shndx) for s in symbols]


@pytest.mark.parametrize("name", OBJECTS)
def test_symbols_match_readelf(name):
    elf = read_elf(read_bytes(name), name)
    report = readelf_json(name)
    assert _our_rows(elf.symbols) == _symbol_rows(_entries(report, "Symbols", "Symbol"))
    assert _our_rows(elf.dynamic_symbols) == _symbol_rows(
        _entries(report, "DynamicSymbols", "Symbol"))


@pytest.mark.parametrize("name", OBJECTS)
def test_relocations_match_readelf(name):
    elf = read_elf(read_bytes(name), name)
    expected = {}
    for group in readelf_json(name).get("Relocations", []):
        rows = [(r["Relocation"]["Offset"], r["Relocation"]["Type"]["Value"],
                 r["Relocation"]["Symbol"]["Name"], r["Relocation"].get("Addend", 0))
                for r in group["Relocs"]]
        expected[group["SectionIndex"]] = rows
    ours = {}
    for section in elf.sections:
        if section.type == C.SHT_RELA:
            target = elf.sections[section.info].name if section.info else section.name
            ours[section.index] = [(r.offset, r.type, r.symbol.name if r.symbol.index else "",
                                    r.addend) for r in elf.relocations[target]]
    assert {k: v for k, v in ours.items() if v} == {k: v for k, v in expected.items() if v}
    if name == "symbols_relocs.o":
        assert len(ours[3]) == 3 and len(ours[5]) == 3


@pytest.mark.parametrize("name", [n for n in OBJECTS if n.endswith(".hsaco")])
def test_segments_and_dynamic_match_readelf(name):
    elf = read_elf(read_bytes(name), name)
    report = readelf_json(name)
    phdrs = _entries(report, "ProgramHeaders", "ProgramHeader")
    assert [(s.type, s.offset, s.vaddr, s.filesz, s.memsz, s.flags, s.align) for s in elf.segments] == [
        (p["Type"]["Value"], p["Offset"], p["VirtualAddress"], p["FileSize"], p["MemSize"],
         p["Flags"]["Value"], p["Alignment"]) for p in phdrs]
    dynamic = [(d["Tag"], d["Value"]) for d in report["DynamicSection"]]
    assert elf.dynamic == dynamic


def test_processor_and_code_object_version():
    versions = {name: read_elf(read_bytes(name)).code_object_version for name in OBJECTS}
    assert versions["kernel_v2_gfx803.o"] == 2
    assert versions["kernel_v4_gfx803.o"] == 4
    assert versions["kernel_v5_gfx900.o"] == 5
    assert versions["vadd_gfx803_v4.hsaco"] == 4
    assert read_elf(read_bytes("kernel_v2_gfx700.o")).processor == "gfx700"
    assert read_elf(read_bytes("vadd_gfx900_v5.o")).processor == "gfx900"


def test_bytes_at_reads_loaded_addresses():
    elf = read_elf(read_bytes("vadd_gfx900_v5.hsaco"))
    kd = elf.symbol("vadd.kd", dynamic=True)
    section = elf.sections[kd.shndx]
    assert elf.bytes_at(kd.value, 64) == section.data[kd.value - section.addr:][:64]

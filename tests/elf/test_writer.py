"""The writer: llvm-mc's objects rebuilt byte for byte, and write -> read round trips."""

import pytest

from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf.notes import code_object_version_note, isa_version_note
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.elf.strtab import StringTable
from amdgpu_tools.elf.writer import RelocatableObject

from .helpers import read_bytes

MC_OBJECTS = ["symbols_relocs.o", "kernel_v5_gfx900.o", "kernel_v4_gfx803.o",
              "kernel_v2_gfx803.o", "kernel_v2_gfx700.o", "v2_metadata_full.o",
              "metadata_typing.o"]


def rebuild(elf):
    """A RelocatableObject holding what ``elf`` holds, added in file order."""
    obj = RelocatableObject(elf.flags, elf.osabi, elf.abi_version)
    for section in elf.sections:
        if section.type == C.SHT_NOTE:
            obj.add_notes([n for n in elf.notes], section.name)
        elif section.type in (C.SHT_PROGBITS, C.SHT_NOBITS):
            added = obj.add_section(section.name, section.type, section.flags, section.data,
                                    section.addralign, section.entsize)
            if section.type == C.SHT_NOBITS:
                added.nobits_size = section.size
    made = {}
    for symbol in elf.symbols[1:]:
        if symbol.type == C.STT_SECTION:
            made[symbol.index] = obj.add_section_symbol(symbol.section)
        else:
            made[symbol.index] = obj.add_symbol(
                symbol.name, symbol.section or None, symbol.value, symbol.size, symbol.bind,
                symbol.type, symbol.visibility)
    for target, relocations in elf.relocations.items():
        for r in relocations:
            obj.add_relocation(target, r.offset, r.type, made[r.symbol_index], r.addend)
    return obj


@pytest.mark.parametrize("name", MC_OBJECTS)
def test_llvm_mc_objects_are_rebuilt_byte_for_byte(name):
    original = read_bytes(name)
    assert rebuild(read_elf(original)).to_bytes() == original


def test_string_table_merges_suffixes_as_llvm():
    table = StringTable()
    for text in [".text", ".rodata", ".rela.rodata", "k", "k.kd", ".note"]:
        table.add(text)
    data = table.finalize()
    assert table.offset(".rodata") == table.offset(".rela.rodata") + len(".rela")
    assert data.count(b".rodata") == 1
    assert data[0] == 0 and table.offset("") == 0


def test_written_object_reads_back():
    obj = RelocatableObject(C.EF_AMDGPU_MACH_AMDGCN["gfx900"] | C.EF_AMDGPU_FEATURE_XNACK_ANY_V4,
                            abi_version=C.ABI_VERSION_FOR_CODE_OBJECT[4])
    text = obj.add_section(".text", flags=C.SHF_ALLOC | C.SHF_EXECINSTR, align=256)
    text.data += bytes.fromhex("000081bf")
    bss = obj.add_section(".bss", C.SHT_NOBITS, C.SHF_ALLOC | C.SHF_WRITE, align=16)
    bss.nobits_size = 64
    obj.add_section(".data", flags=C.SHF_ALLOC | C.SHF_WRITE, data=b"\0" * 16, align=8)
    local = obj.add_symbol("here", ".text", 0, 4, C.STB_LOCAL, C.STT_FUNC)
    obj.add_symbol("kernel", ".text", 0, 4, C.STB_GLOBAL, C.STT_FUNC, C.STV_PROTECTED)
    obj.add_symbol("buffer", ".bss", 0, 64, C.STB_WEAK, C.STT_OBJECT, C.STV_HIDDEN)
    obj.add_symbol("absolute", None, 0x1234, 0, C.STB_GLOBAL, shndx=C.SHN_ABS)
    obj.add_relocation(".data", 0, C.R_AMDGPU_ABS64, "external", 8)
    obj.add_relocation(".data", 8, C.R_AMDGPU_ABS32_LO, local, -4)
    obj.add_relocation(".data", 12, C.R_AMDGPU_REL32, obj.add_section_symbol(".text"), 16)
    obj.add_notes([code_object_version_note(), isa_version_note(9, 0, 0)])
    elf = read_elf(obj.to_bytes(), "built.o")

    assert elf.type == C.ET_REL and elf.code_object_version == 4 and elf.processor == "gfx900"
    assert [s.name for s in elf.sections] == ["", ".strtab", ".text", ".bss", ".data",
                                              ".rela.data", ".note", ".symtab"]
    assert elf.section(".text").data == bytes.fromhex("000081bf")
    assert elf.section(".text").addralign == 256 and elf.section(".text").offset % 256 == 0
    assert elf.section(".bss").size == 64 and elf.section(".bss").data == b""
    symbols = [(s.name, s.bind, s.type, s.visibility, s.section) for s in elf.symbols[1:]]
    assert symbols == [
        ("here", C.STB_LOCAL, C.STT_FUNC, C.STV_DEFAULT, ".text"),
        (".text", C.STB_LOCAL, C.STT_SECTION, C.STV_DEFAULT, ".text"),
        ("kernel", C.STB_GLOBAL, C.STT_FUNC, C.STV_PROTECTED, ".text"),
        ("buffer", C.STB_WEAK, C.STT_OBJECT, C.STV_HIDDEN, ".bss"),
        ("absolute", C.STB_GLOBAL, C.STT_NOTYPE, C.STV_DEFAULT, ""),
        ("external", C.STB_GLOBAL, C.STT_NOTYPE, C.STV_DEFAULT, ""),
    ]
    assert elf.symbol("absolute").shndx == C.SHN_ABS and elf.symbol("absolute").value == 0x1234
    symtab = elf.section(".symtab")
    assert symtab.info == 3 and symtab.link == 1       # first non-local symbol, .strtab
    rela = elf.section(".rela.data")
    assert rela.flags == C.SHF_INFO_LINK and rela.info == elf.section(".data").index
    relocs = [(r.offset, r.type, r.symbol.name, r.addend) for r in elf.relocations[".data"]]
    assert relocs == [(0, C.R_AMDGPU_ABS64, "external", 8), (8, C.R_AMDGPU_ABS32_LO, "here", -4),
                      (12, C.R_AMDGPU_REL32, ".text", 16)]
    assert [(n.owner, n.type) for n in elf.notes] == [("AMD", 1), ("AMD", 3)]


def test_written_object_is_accepted_by_llvm_readelf(tmp_path, llvm_readelf19):
    from tests.conftest import run_tool
    obj = RelocatableObject(C.EF_AMDGPU_MACH_AMDGCN["gfx803"])
    obj.add_section(".text", flags=C.SHF_ALLOC | C.SHF_EXECINSTR, data=b"\0\0\x81\xbf", align=4)
    obj.add_symbol("f", ".text", 0, 4, C.STB_GLOBAL, C.STT_FUNC)
    obj.add_relocation(".text", 0, C.R_AMDGPU_ABS32, "g", 0)
    path = tmp_path / "w.o"
    path.write_bytes(obj.to_bytes())
    result = run_tool([llvm_readelf19, "-a", str(path)])
    assert "warning" not in result.stderr.lower()
    assert "R_AMDGPU_ABS32" in result.stdout and "gfx803" in result.stdout


def test_writer_rejects_misuse():
    obj = RelocatableObject(0)
    obj.add_section(".text")
    with pytest.raises(ValueError):
        obj.add_section(".text")
    with pytest.raises(ValueError):
        obj.add_section(".symtab")
    with pytest.raises(ValueError):
        obj.add_symbol("x", ".nope")
    with pytest.raises(ValueError):
        obj.add_relocation(".nope", 0, C.R_AMDGPU_ABS64, "x")


def test_relocation_recipes():
    recipe = C.relocation_recipe
    assert recipe(C.R_AMDGPU_ABS32_LO).compute(S=0x1_2345_6789, A=1) == 0x2345_678A
    assert recipe(C.R_AMDGPU_ABS32_HI).compute(S=0x1_2345_6789, A=1) == 1
    assert recipe(C.R_AMDGPU_REL32_LO).compute(S=0x100, A=4, P=0x200) == (0x104 - 0x200) & 0xFFFFFFFF
    assert recipe(C.R_AMDGPU_REL32_HI).compute(S=0x100, A=4, P=0x200) == 0xFFFFFFFF
    assert recipe(C.R_AMDGPU_REL64).compute(S=0x1000, A=0x10, P=0x40) == 0xFD0
    assert recipe(C.R_AMDGPU_ABS64).compute(S=1 << 40, A=-1) == (1 << 40) - 1
    assert recipe(C.R_AMDGPU_RELATIVE64).compute(B=0x10000, A=0x20) == 0x10020
    assert recipe(C.R_AMDGPU_GOTPCREL32_LO).compute(G=8, GOT=0x2000, A=4, P=0x1000) == 0x100C
    assert recipe(C.R_AMDGPU_REL16).compute(S=0x40, A=0, P=0x10) == 11
    assert recipe(C.R_AMDGPU_REL16).compute(S=0x10, A=0, P=0x40) == 0x10000 - 13
    assert {r.size for r in C.RELOCATIONS} == {0, 2, 4, 8}
    with pytest.raises(Exception, match="unknown AMDGPU relocation type 12"):
        recipe(12)


def test_fresh_llvm_mc_object_is_rebuilt_byte_for_byte(tmp_path, llvm_mc19):
    from tests.conftest import run_tool
    from .helpers import SRC
    obj = tmp_path / "k.o"
    run_tool([llvm_mc19, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj", "--amdhsa-code-object-version=4",
              f"{SRC}/symbols_relocs.s", "-o", str(obj)])
    original = obj.read_bytes()
    assert rebuild(read_elf(original)).to_bytes() == original

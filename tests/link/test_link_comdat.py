"""COMDAT groups against ld.lld-19: the first group of a signature wins.

Recorded inputs (data/regen.py): llvm-mc objects with hand-written groups
(comdat_a.s / comdat_b.s, both orders) and clang-19 -fgpu-rdc HIP objects that
each instantiate one template. Every allocated byte, header and symbol must be
ld.lld's (only the .comment string differs, see test_link_lld).
"""

import pytest

from amdgpu_tools.errors import ElfFormatError
from amdgpu_tools.link import link

from .elfview import View, assert_matches_lld, data_path, read_data

CASES = {
    "comdat.lld.so": ["comdat_a.o", "comdat_b.o"],
    "comdat_reversed.lld.so": ["comdat_b.o", "comdat_a.o"],
    "hip_comdat.lld.so": ["hip_comdat_a.o", "hip_comdat_b.o"],
}


@pytest.mark.parametrize("reference", sorted(CASES))
def test_matches_lld(reference):
    ours = View(link([data_path(n) for n in CASES[reference]], merge_notes=False))
    assert_matches_lld(ours, View(read_data(reference)))


def test_first_group_wins_with_its_symbols():
    """comdat_a's tmpl is `s_mov_b32 s0, 1` (4+4 bytes); comdat_b's local and its
    .data.tmpl section (with a relocation) vanish with the losing group."""
    view = View(link([data_path("comdat_a.o"), data_path("comdat_b.o")]))
    names = [row[0] for row in view.symbols(".symtab")]
    assert "tmpl_local" in names and "tmpl_local2" not in names
    assert names.count("tmpl") == 1
    tmpl = view.symbol("tmpl")
    assert view.read(tmpl["st_value"], 4) == bytes.fromhex("810080be")  # s_mov_b32 s0, 1
    assert view.section(".data") is None and view.dynamic_relocations() == []


def test_losing_group_alone_is_kept_in_the_other_order():
    view = View(link([data_path("comdat_b.o"), data_path("comdat_a.o")]))
    names = [row[0] for row in view.symbols(".symtab")]
    assert "tmpl_local2" in names and "tmpl_local" not in names
    assert view.section(".data") is not None and view.section(".rodata") is None


def test_hip_template_instantiated_once():
    alone = View(link([data_path("hip_comdat_a.o")]))
    both = View(link([data_path("hip_comdat_a.o"), data_path("hip_comdat_b.o")]))
    name = "_Z5twiceIfET_S0_"
    assert [r[0] for r in both.symbols(".symtab")].count(name) == 1
    assert both.symbol(name)["st_size"] == alone.symbol(name)["st_size"] > 0


def _with_group_word(blob: bytes, word_index: int, value: int) -> bytes:
    from amdgpu_tools.elf.reader import read_elf
    group = next(s for s in read_elf(blob).sections if s.name == ".group")
    at = group.offset + 4 * word_index
    return blob[:at] + value.to_bytes(4, "little") + blob[at + 4:]


def test_group_naming_a_missing_section_is_an_error():
    blob = _with_group_word(read_data("comdat_a.o"), 1, 999)
    with pytest.raises(ElfFormatError, match=r"bad\.o: section group '\.group' names section "
                                             r"index 999"):
        link([data_path("comdat_a.o"), ("bad.o", blob)])


def test_non_comdat_group_is_always_kept():
    """Flag word 0 (no GRP_COMDAT): ld.lld keeps every copy; two strong copies
    of a global would clash, the weak hidden tmpl keeps the first definition."""
    plain = _with_group_word(read_data("comdat_b.o"), 0, 0)
    view = View(link([data_path("comdat_a.o"), ("plain.o", plain)]))
    names = [row[0] for row in view.symbols(".symtab")]
    assert "tmpl_local" in names and "tmpl_local2" in names


def test_reference_into_a_discarded_group_is_reported_as_lld_does(tmp_path, capsys):
    """ld.lld-19's message, word for word (comdat_stale.s says how it arises)."""
    from amdgpu_tools.cli.ld import main
    from amdgpu_tools.errors import LinkError
    first, stale = data_path("comdat_a.o"), data_path("comdat_stale.o")
    expected = (f"relocation refers to a discarded section: .rodata.tmpl\n"
                f">>> defined in {stale}\n"
                f">>> section group signature: tmpl\n"
                f">>> prevailing definition is in {first}\n"
                f">>> referenced by {stale}:(.text+0x8)\n"
                f">>> referenced by {stale}:(.text+0x10)")
    with pytest.raises(LinkError) as failure:
        link([first, stale])
    assert str(failure.value) == expected
    out = tmp_path / "k.so"
    assert main(["-shared", "-o", str(out), first, stale]) == 1
    assert capsys.readouterr().err == "amdgpu-ld: error: " + expected + "\n"
    assert not out.exists()


def test_group_alone_keeps_its_references():
    view = View(link([data_path("comdat_stale.o")]))
    assert "tmpl_local3" in [row[0] for row in view.symbols(".symtab")]


@pytest.mark.llvm
def test_fresh_hip_objects_match_lld(tmp_path):
    """The HIP sources compiled now (clang-19 -fgpu-rdc) link as ld.lld-19 links them."""
    import pathlib
    import subprocess

    from reftools import require_tool

    clang, lld = require_tool("clang-19"), require_tool("ld.lld-19")
    source_dir = pathlib.Path(data_path("src"))
    objects = []
    for name in ("hip_comdat_a", "hip_comdat_b"):
        bitcode, obj = tmp_path / f"{name}.bc", tmp_path / f"{name}.o"
        subprocess.run([clang, "-x", "hip", "--cuda-device-only", "-fgpu-rdc", "-nogpuinc",
                        "-nogpulib", "--offload-arch=gfx900", "-O2", "-c", "-emit-llvm",
                        str(source_dir / f"{name}.hip"), "-o", str(bitcode)], check=True)
        subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx900", "-nogpulib",
                        "-O2", "-c", str(bitcode), "-o", str(obj)], check=True)
        objects.append(str(obj))
    subprocess.run([lld, "-shared", *objects, "-o", str(tmp_path / "ref.so")], check=True)
    assert_matches_lld(View(link(objects, merge_notes=False)),
                       View((tmp_path / "ref.so").read_bytes()))

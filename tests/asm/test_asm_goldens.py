"""amdgpu-as produces the same objects as llvm-mc on every golden source.

References were recorded with llvm-mc (``record_goldens.py``), so these tests
run without LLVM; ``test_goldens_are_current`` re-checks the recordings
against the installed llvm-mc when it is there.
"""

import subprocess

import pytest

import asm_goldens as goldens
from asm_objcompare import assert_same_object, describe
from reftools import find_tool
from amdgpu_tools.asm import assemble_object

CASES = goldens.cases()


@pytest.mark.parametrize("source", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_same_object_as_llvm_mc(source):
    data, _ = assemble_object(source.read_text(), filename=str(source),
                              **goldens.our_arguments(source))
    assert_same_object(data, goldens.reference_path(source).read_bytes())


@pytest.mark.llvm
@pytest.mark.parametrize("source", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_goldens_are_current(source, tmp_path):
    tool = find_tool(goldens.MC[goldens.options(source).get("mc", "19")])
    if tool is None:
        pytest.skip("llvm-mc is not installed")
    output = tmp_path / "ref.o"
    subprocess.run(goldens.llvm_mc_argv(tool, source, output), check=True, capture_output=True)
    assert describe(output.read_bytes()) == describe(goldens.reference_path(source).read_bytes())


CLANG_CASES = sorted(goldens.HERE.joinpath("clang").glob("*.s"))


@pytest.mark.parametrize("source", CLANG_CASES, ids=lambda p: p.name)
def test_clang_assembly_gives_clang_object_bytes(source):
    """Assembling ``clang -S`` output gives the section bytes of ``clang -c``."""
    data, _ = assemble_object(source.read_text(), filename=str(source),
                              **goldens.our_arguments(source))
    ours = {s[0]: s for s in describe(data)["sections"]}
    theirs = describe(source.with_suffix(".clang.o").read_bytes())
    for section in theirs["sections"]:
        if len(section) > 4 and len(ours[section[0]]) > 4:  # sections with contents
            assert ours[section[0]][4:] == section[4:], f"section {section[0]} differs"
    assert describe(data)["relocations"] == theirs["relocations"]
    assert describe(data)["notes"] == theirs["notes"]


ENCODING_CASES = [s for s in CASES if goldens.reference_path(s).with_suffix(".enc").exists()]


@pytest.mark.parametrize("source", ENCODING_CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_show_encoding_matches_llvm_mc(source):
    """--show-encoding prints what llvm-mc prints for every instruction and fixup."""
    _, asm = assemble_object(source.read_text(), filename=str(source), show_encoding=True,
                             **goldens.our_arguments(source))
    expected = goldens.reference_path(source).with_suffix(".enc").read_text().splitlines()
    assert asm.listing == expected

""".include and .incbin: lookup as llvm-mc does it (the name as given, relative
to the working directory, then each -I directory), bytes and diagnostics.

Expected bytes are written out here (GCN encodings of s_nop/s_endpgm and the
file's own bytes); the live tests compare whole objects with llvm-mc-19.
"""

import subprocess
import sys

import pytest

from amdgpu_tools.asm import AsmError, assemble
from amdgpu_tools.elf.reader import read_elf

from asm_objcompare import assert_same_object
from reftools import run_tool

S_NOP_0 = bytes.fromhex("000080bf")
S_ENDPGM = bytes.fromhex("000081bf")


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """main.s includes sub/part.s (found through -I sub), which .incbin's sub/data.bin."""
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "data.bin").write_bytes(b"ABCDEFGH")
    (sub / "part.s").write_text('s_nop 0\n.incbin "data.bin", 1, 2\n')
    (tmp_path / "main.s").write_text('.text\n.include "part.s"\ns_endpgm\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _text(data):
    return bytes(next(s for s in read_elf(data, "object").sections if s.name == ".text").data)


def test_include_and_incbin_bytes(tree):
    data = assemble((tree / "main.s").read_text(), filename="main.s", include_dirs=["sub"])
    assert _text(data) == S_NOP_0 + b"BC" + S_ENDPGM


@pytest.mark.parametrize("args, expected", [
    ("", b"ABCDEFGH"), (", 0", b"ABCDEFGH"), (", 6", b"GH"), (", 2, 3", b"CDE"),
    (", 7, 10", b"H"), (", 8", b""), (", 20", b""), (", 1, 0", b""),
])
def test_incbin_skip_and_count(tree, args, expected):
    data = assemble(f'.data\n.incbin "sub/data.bin"{args}\n')
    section = next(s for s in read_elf(data, "object").sections if s.name == ".data")
    assert bytes(section.data) == expected


def test_name_as_given_comes_before_include_dirs(tree):
    (tree / "part.s").write_text("s_endpgm\n")          # shadows sub/part.s
    data = assemble('.include "part.s"\n', include_dirs=["sub"])
    assert _text(data) == S_ENDPGM


def test_include_dirs_are_tried_in_order(tree):
    other = tree / "other"
    other.mkdir()
    (other / "part.s").write_text("s_endpgm\n")
    data = assemble('.include "part.s"\n', include_dirs=["other", "sub"])
    assert _text(data) == S_ENDPGM


def test_the_including_files_folder_is_not_searched(tree, monkeypatch):
    monkeypatch.chdir(tree / "sub")
    with pytest.raises(AsmError) as failure:
        assemble('.include "main.s"\n', filename="../x.s")
    assert "Could not find include file 'main.s'" in str(failure.value)


def test_errors_in_included_file_name_it_and_the_include_site(tree):
    (tree / "sub" / "bad.s").write_text("s_nop 0\nv_bogus v0\n")
    with pytest.raises(AsmError) as failure:
        assemble('s_nop 0\n.include "sub/bad.s"\ns_bogus\n', filename="top.s")
    lines = str(failure.value).splitlines()
    assert lines[0] == "Included from top.s:2:"
    assert lines[1].startswith("sub/bad.s:2:1: error: invalid instruction")
    assert lines[4].startswith("top.s:3:1: error: invalid instruction")


def test_macros_defined_in_included_file_and_conditionals(tree):
    (tree / "sub" / "macros.s").write_text(".macro twice op\n\\op\n\\op\n.endm\n")
    source = '.include "macros.s"\n.if 0\n.include "missing.s"\n.endif\ntwice s_endpgm\n'
    assert _text(assemble(source, include_dirs=["sub"])) == S_ENDPGM * 2


@pytest.mark.parametrize("line, message, column", [
    (".include sub/part.s", "expected string in '.include' directive", 10),
    ('.include "nope.s"', "Could not find include file 'nope.s'", 10),
    ('.incbin "nope.bin"', "Could not find incbin file 'nope.bin'", 9),
    (".incbin data.bin", "expected string in '.incbin' directive", 9),
    ('.incbin "sub/data.bin", -1', "skip is negative", 25),
])
def test_errors(tree, line, message, column):
    with pytest.raises(AsmError) as failure:
        assemble(line + "\n", filename="e.s")
    assert str(failure.value).splitlines()[0] == f"e.s:1:{column}: error: {message}"


def test_negative_count_warns_and_emits_nothing(tree):
    from amdgpu_tools.asm import assemble_object
    data, asm = assemble_object('.data\n.incbin "sub/data.bin", 1, -2\n', filename="w.s")
    assert [d.format().splitlines()[0] for d in asm.diagnostics] == [
        "w.s:2:28: warning: negative count has no effect"]


def test_self_inclusion_is_an_error_not_a_hang(tree):
    (tree / "loop.s").write_text('.include "loop.s"\n')
    with pytest.raises(AsmError) as failure:
        assemble('.include "loop.s"\n')
    assert "nested more than 64 files deep" in str(failure.value)


def test_cli_include_option(tree):
    result = subprocess.run([sys.executable, "-m", "amdgpu_tools.cli.asm", "-I", "sub",
                             "main.s", "-o", "out.o"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert _text((tree / "out.o").read_bytes()) == S_NOP_0 + b"BC" + S_ENDPGM


def test_same_object_as_llvm_mc(tree, llvm_mc19):
    run_tool([llvm_mc19, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj",
              "-I", "sub", "main.s", "-o", "ref.o"])
    mine = assemble((tree / "main.s").read_text(), filename="main.s", include_dirs=["sub"])
    assert_same_object(mine, (tree / "ref.o").read_bytes())

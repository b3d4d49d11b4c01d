"""The amdgpu-as command line: contract spellings, llvm-mc spellings, errors."""

import io
import sys

import pytest

import asm_goldens as goldens
from asm_objcompare import assert_same_object
from amdgpu_tools.cli.asm import main
from amdgpu_tools.elf.reader import read_elf

SAMPLES = goldens.HERE.parents[1] / "samples"


def test_contract_spelling_writes_the_llvm_mc_object(tmp_path):
    out = tmp_path / "v.o"
    assert main(["--mcpu=gfx900", "-o", str(out), str(SAMPLES / "vector_add.s")]) == 0
    assert_same_object(out.read_bytes(),
                       goldens.reference_path(SAMPLES / "vector_add.s").read_bytes())


def test_llvm_mc_spellings(tmp_path):
    out = tmp_path / "s.o"
    argv = ["-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj", "-arch=amdgcn",
            str(SAMPLES / "saxpy.s"), "-o", str(out)]
    assert main(argv) == 0
    assert_same_object(out.read_bytes(), goldens.reference_path(SAMPLES / "saxpy.s").read_bytes())


@pytest.mark.parametrize("flag", ["--code-object-version=4", "--amdhsa-code-object-version=4"])
def test_code_object_version_option(tmp_path, flag):
    source = tmp_path / "k.s"
    source.write_text("s_endpgm\n")
    out = tmp_path / "k.o"
    assert main(["--mcpu=gfx906", flag, str(source), "-o", str(out)]) == 0
    elf = read_elf(out.read_bytes())
    assert (elf.osabi, elf.abi_version, elf.flags) == (64, 2, 0x52F)  # gfx906 | xnack any 0x100 | sramecc any 0x400


def test_default_version_is_llvm_mc_19s(tmp_path):
    source = tmp_path / "k.s"
    source.write_text("s_endpgm\n")
    assert main(["--mcpu=gfx900", str(source)]) == 0
    elf = read_elf((tmp_path / "k.o").read_bytes())
    assert (elf.abi_version, elf.flags) == (3, 0x12C)


def test_errors_all_reported_and_no_output(tmp_path, capsys):
    source = tmp_path / "bad.s"
    source.write_text("s_endpgm\n  s_bogus v0\n.long 1 +\n\ts_endpgm\n.bogus\n")
    out = tmp_path / "bad.o"
    out.write_bytes(b"stale")
    assert main([str(source), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{source}:2:3: error: " in err
    assert "  s_bogus v0\n  ^" in err
    assert f"{source}:3:10: error: unexpected end of statement" in err
    assert f"{source}:5:1: error: unknown directive" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_stdin_and_show_encoding(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("s_endpgm\ns_waitcnt lgkmcnt(0)\n"))
    assert main(["-show-encoding", "-mcpu=gfx900", "-"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["\ts_endpgm                                ; encoding: [0x00,0x00,0x81,0xbf]",
                   "\ts_waitcnt lgkmcnt(0)                    ; encoding: [0x7f,0xc0,0x8c,0xbf]"]


def test_unknown_processor_is_one_clean_line(tmp_path, capsys):
    source = tmp_path / "k.s"
    source.write_text("s_endpgm\n")
    assert main(["--mcpu=gfx1234", str(source)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("amdgpu-as: error: unknown processor 'gfx1234'")
    assert "Traceback" not in err


def test_missing_input_file(tmp_path, capsys):
    assert main([str(tmp_path / "nope.s")]) != 0
    assert "Traceback" not in capsys.readouterr().err


def test_non_utf8_bytes_in_strings_are_kept(tmp_path):
    source = tmp_path / "bin.s"
    source.write_bytes(b'.data\n.ascii "\xff\xfe"\n.byte 1\n')
    out = tmp_path / "bin.o"
    assert main([str(source), "-o", str(out)]) == 0
    assert read_elf(out.read_bytes()).section(".data").data == b"\xff\xfe\x01"

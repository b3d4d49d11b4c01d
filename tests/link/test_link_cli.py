"""amdgpu-ld's command line: ld.lld's spellings, the link map, exit codes."""

import pytest

from amdgpu_tools.cli.ld import main, translate_args
from amdgpu_tools.link import link

from .elfview import data_path

CALL = [data_path("v5_kernel_call.o"), data_path("v5_func.o")]


@pytest.mark.parametrize("spelling", [
    ["-shared", "-o", "{out}"],
    ["--shared", "--output", "{out}"],
    ["-shared", "-o{out}"],
    ["-Bshareable", "--no-undefined", "-o", "{out}"],
    ["-shared", "-z", "defs", "-o", "{out}"],
    ["-shared", "-zdefs", "-o", "{out}"],
])
def test_lld_spellings_produce_the_api_result(tmp_path, spelling):
    out = tmp_path / "k.hsaco"
    args = [a.format(out=out) for a in spelling]
    assert main(args + CALL) == 0
    assert out.read_bytes() == link(CALL)


def test_default_output_is_a_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["-shared", *CALL]) == 0
    assert (tmp_path / "a.out").read_bytes() == link(CALL)


def test_concatenated_notes_option(tmp_path):
    out = tmp_path / "k.so"
    assert main(["-shared", "--concatenate-notes", "-o", str(out), *CALL]) == 0
    assert out.read_bytes() == link(CALL, merge_notes=False)


def test_print_map_lists_sections_inputs_and_symbols(tmp_path, capsys):
    assert main(["-shared", "--print-map", "-o", str(tmp_path / "k.so"), *CALL]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["VMA", "LMA", "Size", "Align", "Out", "In", "Symbol"]
    text_row = next(line.split() for line in lines if line.split()[4:] == [".text"])
    assert text_row[0] == "1700" and text_row[2] == "208" and text_row[3] == "256"
    assert any(line.split()[-1].endswith("v5_func.o:(.text)") for line in lines)
    helper = next(line.split() for line in lines if line.split()[-1] == "helper")
    assert helper[0] == "1800"


@pytest.mark.parametrize("spelling", [["-Map", "{map}"], ["-Map={map}"], ["--Map={map}"]])
def test_map_file(tmp_path, spelling, capsys):
    map_path = tmp_path / "k.map"
    args = [a.format(map=map_path) for a in spelling]
    assert main(["-shared", "-o", str(tmp_path / "k.so"), *args, *CALL]) == 0
    assert capsys.readouterr().out == ""
    assert "caller.kd" in map_path.read_text()


def test_unknown_z_keyword_is_an_error(capsys):
    assert main(["-shared", "-z", "execstack", *CALL]) == 1
    assert "amdgpu-ld: error: unsupported option: -z execstack" in capsys.readouterr().err


def test_unknown_option_is_a_usage_error(capsys, tmp_path):
    assert main(["-shared", "--frobnicate", "-o", str(tmp_path / "x"), *CALL]) != 0
    assert "frobnicate" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_translate_args_keeps_inputs_in_order():
    assert translate_args(["-shared", "a.o", "-Map", "m", "b.o", "-M"]) == [
        "--shared", "a.o", "--map", "m", "b.o", "--print-map"]


@pytest.mark.parametrize("spelling", [["--entry", "caller"], ["--entry=caller"], ["-e", "caller"]])
def test_entry_symbol_sets_e_entry(tmp_path, spelling):
    from .elfview import View
    out = tmp_path / "k.so"
    assert main(["-shared", *spelling, "-o", str(out), *CALL]) == 0
    view = View(out.read_bytes())
    assert view.header["e_entry"] == view.address("caller") == 0x1700


def test_missing_entry_symbol(tmp_path, capsys):
    out = tmp_path / "k.so"
    assert main(["-shared", "--entry", "nowhere", "-o", str(out), *CALL]) == 1
    assert "cannot find entry symbol nowhere" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("flag", ["--version", "-v"])
def test_version(flag, capsys):
    assert main([flag]) == 0
    assert capsys.readouterr().out.startswith("amdgpu-ld (amdgpu-tools ")


def test_response_file(tmp_path):
    out = tmp_path / "k.so"
    response = tmp_path / "args.rsp"
    response.write_text(f"-shared\n-o '{out}'\n" + "\n".join(CALL) + "\n")
    assert main([f"@{response}"]) == 0
    assert out.read_bytes() == link(CALL)


def test_missing_response_file(tmp_path, capsys):
    assert main([f"@{tmp_path / 'none.rsp'}"]) == 1
    assert "cannot open response file" in capsys.readouterr().err


def test_output_to_standard_output(capfdbinary):
    assert main(["-shared", "-o", "-", *CALL]) == 0
    assert capfdbinary.readouterr().out == link(CALL)


def test_special_output_file_is_written_in_place(tmp_path):
    import os
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    import threading
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    assert main(["-shared", "-o", str(fifo), *CALL]) == 0
    reader.join(timeout=30)
    assert received == [link(CALL)]
    assert fifo.is_fifo()  # not replaced by a regular file

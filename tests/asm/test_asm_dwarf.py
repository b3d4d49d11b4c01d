"""Debug sections from the assembler: .file/.loc -> .debug_line, .cfi_* -> frames.

Recorded pairs in ``dwarf/`` (hand-written cases and ``clang -g -S`` output of
``dwarf/small.cl``, with llvm-mc's objects from ``dwarf/record.py``) run
without LLVM. With the tools installed, the e2e OpenCL kernels are compiled
with ``clang -g -S`` on the e2e matrix and must assemble to llvm-mc-19's
object, and to ``clang -g -c``'s frame and line-table header.
"""

import pathlib
import subprocess
import sys

import pytest

import asm_goldens
from asm_objcompare import assert_same_object, describe
from reftools import ROCM_BITCODE, find_tool
from amdgpu_tools.asm import Assembler, AsmError, assemble_object
from amdgpu_tools.asm.dwarf_line import encode_advance

HERE = pathlib.Path(__file__).parent / "dwarf"
sys.path.insert(0, str(HERE))
import record  # noqa: E402

CASES = sorted(HERE.glob("*.s"))
KERNELS = pathlib.Path(__file__).parents[1] / "e2e" / "kernels"


def _ours(source: pathlib.Path, text=None):
    options = asm_goldens.options(source)
    arguments = asm_goldens.our_arguments(source)
    return assemble_object(text if text is not None else source.read_text(), filename=str(source),
                           dwarf_version=int(options["dwarf"]) if "dwarf" in options else None,
                           compilation_dir=record.COMPILATION_DIR, **arguments)[0]


@pytest.mark.parametrize("source", CASES, ids=lambda p: p.name)
def test_same_object_as_llvm_mc(source):
    assert_same_object(_ours(source), source.with_suffix(".o").read_bytes())


@pytest.mark.llvm
@pytest.mark.parametrize("source", CASES, ids=lambda p: p.name)
def test_recordings_are_current(source, tmp_path):
    tool = find_tool(asm_goldens.MC[asm_goldens.options(source).get("mc", "19")])
    if tool is None:
        pytest.skip("llvm-mc is not installed")
    output = tmp_path / "ref.o"
    subprocess.run(record.mc_argv(tool, source, output), check=True, capture_output=True)
    assert describe(output.read_bytes()) == describe(source.with_suffix(".o").read_bytes())


def _section(data: bytes, name: str) -> bytes:
    return next(s[6] for s in describe(data)["sections"] if s[0] == name)


def test_recorded_objects_have_the_debug_sections():
    """The recordings are worth comparing: they hold the tables under test."""
    data = (HERE / "clang19_gfx900-O0_v5.o").read_bytes()
    names = [s[0] for s in describe(data)["sections"]]
    assert {".debug_line", ".debug_line_str", ".debug_frame"} <= set(names)
    assert not any(name == ".eh_frame" for name in names)
    assert ".eh_frame" in [s[0] for s in describe((HERE / "cfi_eh.o").read_bytes())["sections"]]


def test_no_debug_sections_without_debug_directives():
    data, _ = assemble_object("s_nop 0\ns_endpgm\n")
    assert not any(s[0].startswith((".debug", ".eh_frame")) for s in describe(data)["sections"])


# ---- line program encoding (DWARF 5 section 6.2.5.1, line_base -5, line_range 14,
#      opcode_base 13, addresses in 4-byte units) -------------------------------------

@pytest.mark.parametrize("line, address, expected", [
    (1, 0, bytes([13 + 6])),                       # special opcode, no address step
    (0, 4, bytes([13 + 5 + 14])),                  # one instruction on
    (0, 0, bytes([1])),                            # DW_LNS_copy
    (-5, 8, bytes([13 + 0 + 28])),                 # lowest line step a special opcode takes
    (9, 0, bytes([3, 9, 1])),                      # advance_line then copy
    (-6, 4, bytes([3, 0x7A, 13 + 5 + 14])),        # advance_line, then a special opcode
    (0, 4 * 16, bytes([13 + 5 + 14 * 16])),        # the largest step at line +0
    (0, 4 * 17, bytes([8, 13 + 5])),               # const_add_pc (17 units) + special
    (2, 4 * 20, bytes([8, 13 + 7 + 14 * 3])),      # const_add_pc (17 units) + special
    (0, 4 * 300, bytes([2, 0xAC, 0x02, 18])),      # advance_pc uleb 300, then special
    (100, 4 * 300, bytes([3, 0xE4, 0x00, 2, 0xAC, 0x02, 1])),
    (None, 0, bytes([0, 1, 1])),                   # end_sequence
    (None, 4 * 17, bytes([8, 0, 1, 1])),
    (None, 4 * 3, bytes([2, 3, 0, 1, 1])),
])
def test_encode_advance(line, address, expected):
    assert encode_advance(line, address) == expected


# ---- .debug_frame advances of every width, against the DWARF encodings ---------------

@pytest.mark.parametrize("words, advance", [
    (1, bytes([0x41])), (63, bytes([0x7F])), (64, bytes([0x02, 64])),
    (256, bytes([0x03, 0x00, 0x01])), (65536, bytes([0x04, 0x00, 0x00, 0x01, 0x00])),
])
def test_frame_advance_widths(words, advance):
    source = (".cfi_sections .debug_frame\nf:\n.cfi_startproc\n"
              f".fill {words}, 4, 0xbf800000\n.cfi_undefined 16\ns_endpgm\n.cfi_endproc\n")
    frame = _section(assemble_object(source)[0], ".debug_frame")
    fde = frame[16:]
    assert fde[:4] == (len(fde) - 4).to_bytes(4, "little")
    assert int.from_bytes(fde[16:24], "little") == words * 4 + 4  # PC range
    assert fde[24:24 + len(advance) + 2] == advance + bytes([0x07, 16])


# ---- diagnostics, worded as llvm-mc-19 words them ------------------------------------

ERRORS = [
    (".loc 1 1 1\n", 1, 6, "unassigned file number in '.loc' directive"),
    ('.file 1 "a.c"\n.loc 0 1 1\n', 2, 6, "file number less than one in '.loc' directive"),
    ('.file 1 "a.c"\n.loc 1 1 1 wrong\n', 2, 12, "unknown sub-directive in '.loc' directive"),
    ('.file 1 "a.c"\n.loc 1 1 1 is_stmt 2\n', 2, 20, "is_stmt value not 0 or 1"),
    ('.file 1 "a.c"\n.loc 1 1 1 isa -1\n', 2, 16, "isa number less than zero"),
    ('.file 1 "a.c"\n.file 1 "b.c"\n', 2, 1, "file number already allocated"),
    ('.file "a" "b.c"\n', 1, 11, "explicit path specified, but no file number"),
    ('.file 1 "a.c" wrong\n', 1, 20, "unexpected token in '.file' directive"),
    ('.file 1 "a.c" , \n', 1, 15, "unexpected token in '.file' directive"),
    (".cfi_undefined 16\n", 1, 1,
     "this directive must appear between .cfi_startproc and .cfi_endproc directives"),
    (".cfi_endproc\n", 1, 1,
     "this directive must appear between .cfi_startproc and .cfi_endproc directives"),
    (".cfi_startproc\n.cfi_startproc\n", 3, 1,
     "starting new .cfi frame before finishing the previous one"),
    (".cfi_startproc\ns_nop 0\n", 3, 1, "Unfinished frame!"),
    (".cfi_startproc\n.cfi_undefined x\n.cfi_endproc\n", 2, 16, "invalid register name"),
    (".cfi_startproc\n.cfi_offset 1\n.cfi_endproc\n", 2, 14, "expected comma"),
    (".cfi_startproc\n.cfi_undefined 1, 2\n.cfi_endproc\n", 2, 17, "expected newline"),
    (".cfi_startproc simplex\n.cfi_endproc\n", 1, 23, "unexpected token"),
    ('.file 1 "a.c"\n.loc 1 -1\n', 2, 8, "unexpected token in '.loc' directive"),
    ('.file 1 "a" "b" md5 zz\n', 1, 21, "unknown token in expression"),
    ('.file -1 "a.c"\n', 1, 7, "expected string"),
    ('.file 1 "a.c"\n.loc 1 1 1 discriminator x\n', 2, 26, "expected absolute expression"),
    ('.file 1 "a.c"\n.loc 1 1 1 isa x\n', 2, 16, "isa number not a constant value"),
    ('.file 1 "a.c"\n.loc 1 1 1 is_stmt y\n', 2, 20,
     "is_stmt value not the constant value of 0 or 1"),
]


@pytest.mark.parametrize("source, line, column, message", ERRORS, ids=lambda v: str(v)[:20])
def test_errors(source, line, column, message):
    with pytest.raises(AsmError) as caught:
        assemble_object(source, filename="t.s")
    assert f"t.s:{line}:{column}: error: {message}" in str(caught.value)


@pytest.mark.llvm
@pytest.mark.parametrize("source, line, column, message", ERRORS, ids=lambda v: str(v)[:20])
def test_errors_match_llvm_mc(source, line, column, message, tmp_path, llvm_mc19):
    path = tmp_path / "t.s"
    path.write_text(source)
    result = subprocess.run([llvm_mc19, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900",
                             "-filetype=obj", "t.s", "-o", "/dev/null"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert f"t.s:{line}:{column}: error: {message}" in result.stderr


def test_inconsistent_md5_is_a_warning():
    asm = Assembler("gfx900", "t.s")
    asm.assemble('.file 1 "a.c" md5 0x0123456789abcdef0123456789abcdef\n.file 2 "b.c"\n')
    assert [d.format().splitlines()[0] for d in asm.diagnostics] == \
        ["t.s:2:1: warning: inconsistent use of MD5 checksums"]


# ---- live: the e2e kernels through clang -g -S, on the e2e matrix ----------------------

LIVE = [("clang-19", cpu, opt, 5) for cpu in ("gfx900", "gfx803") for opt in ("-O0", "-O2")] + \
    [("clang-14", "gfx803", "-O2", 4), ("clang-14", "gfx900", "-O0", 4), ("clang-14", "gfx803", "-O0", 2)]
LIVE_KERNELS = sorted(p.name for p in KERNELS.glob("*.cl"))


@pytest.mark.llvm
@pytest.mark.slow
@pytest.mark.parametrize("config", LIVE, ids=lambda c: f"{c[0]}-{c[1]}{c[2]}-v{c[3]}")
def test_clang_kernels_assemble_like_llvm_mc(config, tmp_path):
    compiler, mcpu, opt, version = config
    tools = {name: find_tool(name) for name in (compiler, "llvm-mc-14" if version == 2 else "llvm-mc-19")}
    if None in tools.values() or (compiler == "clang-19" and not pathlib.Path(ROCM_BITCODE).is_dir()):
        pytest.skip(f"{compiler}, llvm-mc and the device libraries are needed")
    for kernel in LIVE_KERNELS:
        header = record.header(compiler, mcpu, version)
        argv = record.clang_argv(compiler, mcpu, opt, version, KERNELS / kernel, "-S")
        text = subprocess.run(argv + ["-I", str(KERNELS), "-o", "-"], check=True,
                              capture_output=True, text=True).stdout
        source = tmp_path / kernel.replace(".cl", ".s")
        source.write_text(header + text)
        reference = tmp_path / "ref.o"
        subprocess.run(record.mc_argv(list(tools.values())[1], source, reference), check=True,
                       capture_output=True)
        mine = _ours(source)
        assert_same_object(mine, reference.read_bytes())
        if version != 2:
            _same_tables_as_clang_c(mine, argv, tmp_path)


def _same_tables_as_clang_c(mine: bytes, argv_s: list, tmp_path):
    """clang -g -c writes the same frames and line-table header; its line program
    differs from any assembler's only where a sequence ends (clang ends it after
    the last function with debug info, an assembler at the section's end)."""
    obj = tmp_path / "clang.o"
    argv = [a if a != "-S" else "-c" for a in argv_s]
    subprocess.run(argv + ["-I", str(KERNELS), "-o", str(obj)], check=True, capture_output=True)
    theirs = obj.read_bytes()
    for name in (".debug_frame", ".debug_line_str"):
        assert _section(mine, name) == _section(theirs, name), name
    ours_line, their_line = _section(mine, ".debug_line"), _section(theirs, ".debug_line")
    header_end = 12 + int.from_bytes(ours_line[8:12], "little")
    assert ours_line[:4] != b"" and ours_line[4:header_end] == their_line[4:header_end]


def test_cli_dwarf_options(tmp_path):
    """amdgpu-as --dwarf-version/--fdebug-compilation-dir reach the line table."""
    from amdgpu_tools.cli.asm import main
    source = HERE / "loc_v5_nofile0.s"
    output = tmp_path / "out.o"
    assert main([str(source), "--mcpu=gfx900", "--dwarf-version=5",
                 f"--fdebug-compilation-dir={record.COMPILATION_DIR}", "-o", str(output)]) == 0
    assert_same_object(output.read_bytes(), source.with_suffix(".o").read_bytes())
    assert main([str(source), "--mcpu=gfx900", "-o", str(output)]) == 0
    assert _section(output.read_bytes(), ".debug_line")[4:6] == (4).to_bytes(2, "little")

"""amdgpu-objdump against llvm-objdump-19 output recorded in tests/elf/data.

Instruction text is compared address by address. Words the ISA tables do
not decode yet come out as ``.long`` data: they are counted and reported
with a warning (never silently skipped); every instruction that is decoded
must match llvm-objdump exactly, encodings included.
"""

import os
import re
import warnings

import pytest

from amdgpu_tools.cli.objdump import disassembly, main, parse_raw_hex
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.isa.targets import target_by_mach

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "elf", "data")
RECORDED = sorted(n[:-len(".objdump.txt")] for n in os.listdir(DATA) if n.endswith(".objdump.txt"))
INSTRUCTION = re.compile(r"^\t(.*?)\s*// ([0-9A-F]{12}): ([0-9A-F ]+?)( <.*>)?$")
LABEL = re.compile(r"^([0-9a-f]{16}) <(.*)>:$")


def instructions(text):
    found = {}
    for line in text.splitlines():
        match = INSTRUCTION.match(line)
        if match:
            found[int(match.group(2), 16)] = (match.group(1).strip(),
                                              match.group(3).strip() + (match.group(4) or ""))
    return found


def labels(text):
    return [m.groups() for m in map(LABEL.match, text.splitlines()) if m]


def ours(name):
    elf = read_elf(open(os.path.join(DATA, name), "rb").read(), name)
    return disassembly(elf, target_by_mach(elf.flags & 0xFF))


def theirs(name):
    with open(os.path.join(DATA, name + ".objdump.txt")) as handle:
        return handle.read()


@pytest.mark.parametrize("name", RECORDED)
def test_disassembly_matches_llvm_objdump(name):
    mine, reference = instructions(ours(name)), instructions(theirs(name))
    assert sorted(mine) == sorted(reference), "instruction boundaries differ"
    undecoded = [a for a, (text, _) in mine.items() if text.startswith(".long")]
    for address, (text, words) in reference.items():
        assert mine[address][1] == words, f"encoding (and branch target) at 0x{address:x}"
        if address not in undecoded:
            assert mine[address][0] == text, f"text at 0x{address:x}"
    if undecoded:
        missing = sorted({reference[a][0] for a in undecoded})
        warnings.warn(f"{name}: {len(undecoded)}/{len(reference)} instructions not decoded by "
                      f"the ISA tables yet: {missing}")


@pytest.mark.parametrize("name", RECORDED)
def test_symbol_labels_match_llvm_objdump(name):
    assert labels(ours(name)) == labels(theirs(name))


def test_v2_kernel_header_is_skipped_not_decoded():
    text = ours("kernel_v2_gfx803.o")
    assert "; amd_kernel_code_t (256 bytes" in text
    assert min(instructions(text)) == 0x100


def test_notes_option(capsys):
    assert main(["--notes", os.path.join(DATA, "kernel_v2_gfx803.o"),
                 os.path.join(DATA, "vadd_gfx900_v5.hsaco")]) == 0
    out = capsys.readouterr().out
    assert "NT_AMD_HSA_CODE_OBJECT_VERSION" in out and "code object version 2.1" in out
    assert "vendor AMD, architecture AMDGPU, ISA 8.0.3" in out
    assert "NT_AMDGPU_METADATA" in out and "amdhsa.kernels" in out and "vadd.kd" in out


def test_kernels_option(capsys):
    assert main(["--kernels", os.path.join(DATA, "vadd_gfx803_v4.hsaco"),
                 os.path.join(DATA, "kernel_v2_gfx803.o")]) == 0
    out = capsys.readouterr().out
    assert "kernel descriptor of vadd.kd" in out and "kernel descriptor of scale.kd" in out
    assert "  enable_sgpr_kernarg_segment_ptr = 1" in out
    assert "amd_kernel_code_t of k at 0x0" in out
    assert "  wavefront_sgpr_count = 0xa" in out and "  workitem_vgpr_count = 5" in out
    assert "call_convention = -1" in out
    assert "vadd (symbol vadd.kd): kernarg" in out
    assert "  (entry) = 0x100" in out                  # v2: code right after the header


def test_kernel_entry_points(capsys):
    assert main(["--kernels", os.path.join(DATA, "vadd_gfx900_v5.o"),
                 os.path.join(DATA, "vadd_gfx900_v5.hsaco")]) == 0
    out = capsys.readouterr().out
    assert "  (entry) = vadd (by R_AMDGPU_REL64)" in out      # ET_REL: the relocation says
    linked = read_elf(open(os.path.join(DATA, "vadd_gfx900_v5.hsaco"), "rb").read())
    assert f"  (entry) = 0x{linked.symbol('vadd', dynamic=False).value:x}" in out


def test_tables(capsys):
    assert main(["-t", "-r", "-h", os.path.join(DATA, "symbols_relocs.o")]) == 0
    out = capsys.readouterr().out
    assert "R_AMDGPU_REL32_LO" in out and "ext+0x4" in out
    assert "GLOBAL" in out and "HIDDEN" in out and "WEAK" in out
    assert ".rela.text" in out


def test_raw_bytes(capsys):
    assert main(["--raw", "C0060002 00000000 BF810000", "--mcpu", "gfx900"]) == 0
    out = capsys.readouterr().out
    assert instructions(out) == {0: ("s_load_dwordx2 s[0:1], s[4:5], 0x0", "C0060002 00000000"),
                                 8: ("s_endpgm", "BF810000")}
    assert parse_raw_hex("0x7e0002f2,0xbf810000") == bytes.fromhex("f202007e000081bf")
    assert parse_raw_hex("f202007e") == bytes.fromhex("f202007e")


@pytest.mark.parametrize("argv, message", [
    (["-d", "/nonexistent/file.o"], "cannot read"),
    (["--raw", "xyz"], "hexadecimal"),
    (["--raw", "BF810000", "--mcpu", "gfx999"], "unknown processor"),
])
def test_errors_are_one_line(argv, message, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("amdgpu-objdump: error: ") and message in err
    assert "Traceback" not in err


def test_usage_errors(capsys, tmp_path):
    assert main([]) == 2
    assert main([os.path.join(DATA, "symbols_relocs.o")]) == 2
    garbage = tmp_path / "g.o"
    garbage.write_bytes(b"not an elf at all, just text" * 3)
    assert main(["-d", str(garbage)]) == 1
    assert "bad magic" in capsys.readouterr().err


def test_fresh_llvm_mc_objects_match(tmp_path, llvm_mc19, llvm_objdump19):
    """A source assembled now (when LLVM is installed) disassembles like llvm-objdump."""
    from tests.conftest import run_tool
    source = tmp_path / "k.s"
    source.write_text("s_load_dwordx4 s[4:7], s[0:1], 0x10\nv_add_f32 v1, v2, v3\n"
                      "s_waitcnt lgkmcnt(0)\nv_mul_lo_u32 v4, v5, s6\nglobal_store_dword v[0:1], v2, off\n"
                      "s_endpgm\n")
    obj = tmp_path / "k.o"
    run_tool([llvm_mc19, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj",
              str(source), "-o", str(obj)])
    reference = instructions(run_tool([llvm_objdump19, "-d", str(obj)]).stdout)
    elf = read_elf(obj.read_bytes())
    mine = instructions(disassembly(elf, "gfx900"))
    assert {a: w for a, (_, w) in mine.items()} == {a: w for a, (_, w) in reference.items()}
    decoded = {a: t for a, (t, _) in mine.items() if not t.startswith(".long")}
    assert decoded == {a: reference[a][0] for a in decoded}


SHOWN = sorted(n[:-len(".show-encoding.json")] for n in os.listdir(DATA)
               if n.endswith(".show-encoding.json"))


@pytest.mark.parametrize("name", SHOWN)
def test_gfx7_disassembly_matches_llvm_mc_14_printer(name):
    """GFX7 has no LLVM disassembler; llvm-mc 14 -show-encoding of the source is the oracle.

    Rows are laid out from the kernel's code (after amd_kernel_code_t); every row we
    decode must print as llvm-mc prints it; undecoded rows are counted and warned about.
    """
    import json
    with open(os.path.join(DATA, name + ".show-encoding.json")) as handle:
        recorded = json.load(handle)
    mine = instructions(ours(name))
    address, undecoded = 0x100, []
    for their_text, their_bytes in recorded["rows"]:
        expected = their_bytes.strip("[]").split(",")
        text, words = mine.get(address, (".long", ""))
        if text.startswith(".long"):
            undecoded.append(their_text)
        else:
            hex_words = [w for w in words.split() if not w.startswith("<")][:2]  # not <k+0x..>
            got = b"".join(int(w, 16).to_bytes(4, "little") for w in hex_words)
            assert len(got) == len(expected), f"size of {their_text} at 0x{address:x}"
            for byte, want in zip(got, expected):
                if want != "A":                       # 'A': a fixup llvm-mc leaves open
                    assert byte == int(want, 16), f"{their_text} at 0x{address:x}"
            if ".L" not in their_text:
                assert text == their_text
        address += len(expected)
    if undecoded:
        warnings.warn(f"{name}: {len(undecoded)}/{len(recorded['rows'])} GFX7 instructions not "
                      f"decoded by the ISA tables yet: {undecoded}")

"""Bad lines are rejected where llvm-mc rejects them, all in one run.

Each ``errors/NAME.s`` has ``NAME.lines``: the lines llvm-mc reported errors
on (0 = an error llvm-mc gives without a location, found at the end).
"""


import pytest

from amdgpu_tools.asm import assemble_object
from amdgpu_tools.errors import AsmError
import asm_goldens as goldens

ERROR_CASES = sorted(goldens.ERROR_DIR.glob("*.s"))


def _error_lines(source):
    try:
        assemble_object(source.read_text(), filename=str(source), **goldens.our_arguments(source))
    except AsmError as failure:
        return [d.where.line for d in failure.diagnostics if d.severity == "error"]
    return []


@pytest.mark.parametrize("source", ERROR_CASES, ids=lambda p: p.name)
def test_errors_on_the_lines_llvm_mc_rejects(source):
    expected = [int(x) for x in source.with_suffix(".lines").read_text().split()]
    found = _error_lines(source)
    if 0 in expected:
        assert found, "expected an error found at the end of assembly"
        assert set(expected) - {0} <= set(found)
        assert len(set(found) - set(expected)) >= 1
    else:
        assert sorted(set(found)) == expected


def test_every_error_is_reported_with_line_column_and_caret():
    source = ".data\n.long 1 +\n  .bogus\n.long 2\n.byte (\n"
    with pytest.raises(AsmError) as failure:
        assemble_object(source, filename="x.s")
    text = str(failure.value)
    assert text.splitlines()[0] == "x.s:2:10: error: unexpected end of statement"
    assert "x.s:3:3: error: unknown directive\n  .bogus\n  ^" in text
    assert "x.s:5:" in text
    assert len(failure.value.diagnostics) == 3


def test_late_error_names_the_symbol():
    with pytest.raises(AsmError, match=r"Undefined temporary symbol \.Lmissing"):
        assemble_object(".data\n.long .Lmissing\n")


def test_branch_to_undefined_label_and_bad_difference():
    with pytest.raises(AsmError, match="difference across sections"):
        assemble_object(".text\na:\n.data\nb:\n.section .other\nc:\n.long a - b\n")


def test_values_out_of_range():
    with pytest.raises(AsmError, match="out of range"):
        assemble_object(".data\n.byte x\n.set x, 300\n")


def test_warnings_do_not_fail():
    data, asm = assemble_object(".data\n.fill -1, 1, 0\n.long 1\n")
    assert [d.severity for d in asm.diagnostics] == ["warning"]
    assert data.startswith(b"\x7fELF")


def test_branch_to_undefined_label():
    with pytest.raises(AsmError, match="undefined label 'nowhere'"):
        assemble_object("s_branch nowhere\ns_endpgm\n")


def test_branch_out_of_range():
    source = "s_branch .Lfar\n.fill 40000, 4, 0\n.Lfar:\ns_endpgm\n"
    with pytest.raises(AsmError, match="branch offset out of range"):
        assemble_object(source)


def test_v2_only_directive_in_v3_source():
    with pytest.raises(AsmError, match="not supported with code object version 5"):
        assemble_object(".amd_kernel_code_t\n.end_amd_kernel_code_t\n", code_object_version=5)


def test_size_that_is_not_a_constant_is_reported_at_its_directive():
    with pytest.raises(AsmError) as failure:
        assemble_object(".text\nf:\n.long 0\n.size f, g - f\n.data\ng:\n", filename="s.s")
    (diagnostic,) = failure.value.diagnostics
    assert (diagnostic.where.line, diagnostic.where.column) == (4, 7)
    assert "expected absolute expression" in diagnostic.message

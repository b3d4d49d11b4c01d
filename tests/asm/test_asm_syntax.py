"""The front end: comments, numbers, strings, statements and operand nodes."""

import pytest

from amdgpu_tools.asm.expr import Binary, Const, Sym, Unary
from amdgpu_tools.asm.source import strip_comments, split_arguments
from amdgpu_tools.asm.syntax import (AbsBars, Call, Directive, FloatLit, Indexed, Instruction,
                                     Label, LocalRef, ModifierNode, NumericLabel, RegList,
                                     SyntaxErrorAt, parse_arguments, parse_line, unescape)


def test_comments_of_every_kind_with_line_numbers_kept():
    source = ('s_nop 0 ; trailing\n# whole line\n  // another\n.ascii "a;b//c"  // real\n'
              's_nop /* inline */ 1\n/* spans\nlines */ s_endpgm\n')
    texts = [(line.number, line.text.strip()) for line in strip_comments(source, "f.s")]
    assert texts == [(1, "s_nop 0"), (2, ""), (3, ""), (4, '.ascii "a;b//c"'),
                     (5, "s_nop   1"), (6, ""), (7, "s_endpgm")]


def test_statements_of_a_line():
    statements = parse_line("a: 1: b: v_add_f32 v0, v1, s[2:3] glc offset:16")
    assert isinstance(statements[0], Label) and statements[0].name == "a"
    assert isinstance(statements[1], NumericLabel) and statements[1].number == 1
    instruction = statements[3]
    assert isinstance(instruction, Instruction) and instruction.mnemonic == "v_add_f32"
    assert instruction.operands == [Sym("v0"), Sym("v1"), Indexed("s", Const(2), Const(3)),
                                    Sym("glc"), ModifierNode("offset", Const(16))]
    assert instruction.operand_columns[:3] == [20, 24, 28]


def test_directive_keeps_its_raw_arguments():
    (directive,) = parse_line('  .section .text.k,"ax",@progbits')
    assert isinstance(directive, Directive)
    assert (directive.name, directive.rest, directive.rest_column) == \
        (".section", '.text.k,"ax",@progbits', 12)


@pytest.mark.parametrize("text, value", [
    ("0x1F", 31), ("0b101", 5), ("017", 15), ("42", 42), ("'A'", 65),
])
def test_integer_spellings(text, value):
    assert parse_arguments(text) == [Const(value)]


def test_operand_shapes():
    (instruction,) = parse_line("v_x v0, -v1, |v2|, -|v3|, abs(v4), [s0,s1], 1.5, -2.0, "
                                "sym@rel32@lo+4, 1f, vmcnt(0) & lgkmcnt(1)")
    ops = instruction.operands
    assert ops[1] == Unary("-", Sym("v1"))
    assert ops[2] == AbsBars(Sym("v2"))
    assert ops[3] == Unary("-", AbsBars(Sym("v3")))
    assert ops[4] == Call("abs", (Sym("v4"),))
    assert ops[5] == RegList((Sym("s0"), Sym("s1")))
    assert ops[6:8] == [FloatLit(1.5), FloatLit(-2.0)]
    assert ops[8] == Binary("+", Sym("sym", "rel32@lo"), Const(4))
    assert ops[9] == LocalRef(1, True)
    assert ops[10] == Binary("&", Call("vmcnt", (Const(0),)), Call("lgkmcnt", (Const(1),)))


def test_precedence_is_llvm_mc_gnu_mode():
    (expr,) = parse_arguments("1 + 2 & 3 << 1 || 0")
    assert expr == Binary("||", Binary("+", Const(1), Binary("&", Const(2),
                                                               Binary("<<", Const(3), Const(1)))),
                          Const(0))


def test_string_escapes():
    assert unescape(r"a\n\t\\\"\x41\101") == b'a\n\t\\"AA'


def test_split_arguments_respects_quotes_and_brackets():
    assert split_arguments('a, "b,c", f(1,2), [3,4]') == ["a", '"b,c"', "f(1,2)", "[3,4]"]


@pytest.mark.parametrize("line, column", [("v_add v0,, v1", 10), ("s_nop 1 +", 10),
                                          (".long 1 2 3 @", 9)])
def test_syntax_errors_point_at_the_problem(line, column):
    with pytest.raises(SyntaxErrorAt) as failure:
        parse_line(line) if not line.startswith(".") else parse_arguments(line[6:], 6)
    assert failure.value.column == column


def test_fast_path_agrees_with_the_grammar_on_every_golden_line():
    """The regular-expression fast path for plain instruction lines must give
    exactly the grammar's statements; it is an optimisation, not a second syntax."""
    import pathlib
    from amdgpu_tools.asm import syntax
    root = pathlib.Path(__file__).parents[2]
    files = sorted((root / "samples").glob("*.s")) + sorted((root / "tests/asm/golden").glob("*.s")) \
        + sorted((root / "tests/asm/clang").glob("*.s"))
    texts = [line.text for path in files for line in strip_comments(path.read_text(), path.name)]
    texts += ["s_nop 0   ", "v_mov_b32 v0 -1", "s_waitcnt vmcnt(0) lgkmcnt(1)", "x_y v[2:3], s7,-2.5",
              "global_store_dword v1, v2, s[4:5] offset:-16 glc", "v_add v0, 0x10, 017 clamp"]
    fast_lines = 0
    for text in texts:
        fast = syntax._fast_instruction(text)
        if fast is None:
            continue
        fast_lines += 1
        tree = syntax._parser().parse(text, start="line")
        assert (fast,) == tuple(syntax._statement(c) for c in tree.children), text
    assert fast_lines > 1000

"""``--show-encoding`` lines as llvm-mc prints them.

``<text>  ; encoding: [0x..,...]`` with the comment at column 40; bytes still
to be fixed up print as ``A`` and each fixup gets a second comment line naming
its offset, expression and kind, e.g.
``;   fixup A - offset: 4, value: sym@rel32@lo+4, kind: FK_PCRel_4``.
"""

from __future__ import annotations

from ..isa.asm_operands import Modifier, SymbolRef
from .expr import Binary, Const, llvm_text

_COMMENT_COLUMN = 40


def encoding_lines(encoded, operands, symbols) -> list:
    data = [f"0x{b:02x}" for b in encoded.data]
    notes = []
    text = encoded.text
    symbolic = [(i, op) for i, op in enumerate(o for o in operands if not isinstance(o, Modifier))
                if isinstance(op, SymbolRef)]
    for fixup, (index, operand) in zip(encoded.fixups, symbolic):
        for offset in range(fixup.offset, fixup.offset + fixup.size):
            data[offset] = "A"
        value = llvm_text(symbols.freeze(operand.expr))
        text = _replace_operand(text, index, value)
        notes.append(f"{' ' * _COMMENT_COLUMN};   fixup A - offset: {fixup.offset}, "
                     f"value: {value}, kind: {_kind(fixup, operand)}")
    line = f"\t{text}{' ' * max(1, _COMMENT_COLUMN - len(text))}; encoding: [{','.join(data)}]"
    return [line] + notes


def _kind(fixup, operand) -> str:
    if fixup.kind == "branch16":
        return "fixup_si_sopp_br"
    expr = operand.expr
    if getattr(expr, "specifier", None) in ("abs32@lo", "abs32@hi", "abs64"):
        return "FK_Data_4"
    if isinstance(expr, Binary) and expr.op == "-" and not _is_constant(expr.right):
        return "FK_Data_4"
    return "FK_PCRel_4"


def _is_constant(expr) -> bool:
    return isinstance(expr, Const)


def _replace_operand(text: str, index: int, value: str) -> str:
    """Put the expression where the encoder printed the placeholder literal."""
    mnemonic, _, rest = text.partition(" ")
    parts = rest.split(", ") if rest else []
    if 0 <= index < len(parts):
        head, _, tail = parts[index].partition(" ")
        parts[index] = value + (" " + tail if tail else "")
        return f"{mnemonic} {', '.join(parts)}"
    return text

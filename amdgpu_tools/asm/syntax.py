"""Parsing one line of assembly into statements, with the Lark grammar.

The grammar (``grammars/asm.lark``, LALR with a contextual lexer) gives the
shape of a line; this module turns its tree into small statement objects:
labels, directives (name + raw argument text), assignments and instructions
whose operands are syntax nodes (expressions from ``expr.py`` plus a few
operand-only shapes below). Deciding what a name means (register, modifier,
symbol) is left to ``operands.py``, which knows the symbol table.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from dataclasses import dataclass, field

import lark

from ..errors import ToolchainError
from .expr import Binary, Const, Sym, Unary


class SyntaxErrorAt(ToolchainError):
    """A line that does not parse; ``column`` is 1-based."""

    def __init__(self, message, column=1):
        super().__init__(message)
        self.column = column


# ---- operand-only syntax nodes -------------------------------------------------

@dataclass(frozen=True)
class FloatLit:
    value: float

    def __str__(self):
        return repr(self.value)


@dataclass(frozen=True)
class Indexed:
    """``s[0:1]``, ``v[4]``, ``ttmp[2:3]``: a register range by index expressions."""

    name: str
    low: object
    high: object


@dataclass(frozen=True)
class Call:
    """``name(args)``: hwreg/sendmsg/swizzle, waitcnt terms, abs/neg/sext."""

    name: str
    args: tuple


@dataclass(frozen=True)
class AbsBars:
    inner: object


@dataclass(frozen=True)
class RegList:
    """``[s0, s1, s2]``: consecutive registers written one by one."""

    items: tuple


@dataclass(frozen=True)
class ModifierNode:
    name: str
    value: object


@dataclass(frozen=True)
class ListNode:
    items: tuple


@dataclass(frozen=True)
class LocalRef:
    """``1b`` / ``1f``: the previous/next numeric local label ``1:``."""

    number: int
    forward: bool


# ---- statements ------------------------------------------------------------------

@dataclass
class Label:
    name: str
    column: int


@dataclass
class NumericLabel:
    number: int
    column: int


@dataclass
class Directive:
    name: str
    rest: str
    column: int
    rest_column: int


@dataclass
class Assignment:
    name: str
    expr: object
    column: int


@dataclass
class Instruction:
    mnemonic: str
    operands: list
    column: int
    operand_columns: list = field(default_factory=list)


# ---- the parser ------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _parser() -> lark.Lark:
    text = importlib.resources.files("amdgpu_tools.grammars").joinpath("asm.lark").read_text()
    return lark.Lark(text, parser="lalr", lexer="contextual",
                     start=["line", "arglist"], maybe_placeholders=False)


def _describe_unexpected(error: lark.exceptions.LarkError, text: str) -> SyntaxErrorAt:
    column = getattr(error, "column", 1) or 1
    if isinstance(error, lark.exceptions.UnexpectedToken):
        token = error.token
        if token.type == "$END":
            return SyntaxErrorAt("unexpected end of statement", len(text.rstrip()) + 1)
        return SyntaxErrorAt(f"unexpected token '{token}'", column)
    if isinstance(error, lark.exceptions.UnexpectedCharacters):
        return SyntaxErrorAt(f"invalid character '{error.char}'", column)
    return SyntaxErrorAt("invalid syntax", column)


def parse_line(text: str) -> list:
    """Statements of one comment-free line, in order (labels first).

    Results are cached by text: generated code repeats lines a lot, and the
    statements are never modified after parsing.
    """
    return _parse_line_cached(text)


@functools.lru_cache(maxsize=1 << 16)
def _parse_line_cached(text: str) -> tuple:
    fast = _fast_instruction(text)
    if fast is not None:
        return (fast,)
    try:
        tree = _parser().parse(text, start="line")
    except lark.exceptions.LarkError as error:
        raise _describe_unexpected(error, text) from None
    return tuple(_statement(child) for child in tree.children)


# ---- a fast path for the commonest instruction lines ------------------------------
#
# Most instruction lines are a mnemonic and plain operands: registers, numbers,
# name:value modifiers, waitcnt terms. Those lines are recognised by one regular
# expression and produce exactly the nodes the grammar would (a test checks the
# two agree on every line of the golden sources); anything else goes to Lark.

_NUMBER = r"(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?)(?![\w.])"
_WORD = r"[A-Za-z_][A-Za-z0-9_]*(?![\w.$@])"
_FAST_OPERAND = (rf"(?P<range>(?P<file>[vs]|ttmp)\[(?P<low>\d+):(?P<high>\d+)\])"
                 rf"|(?P<call>{_WORD})\((?P<arg>\d+)\)"
                 rf"|(?P<mod>{_WORD}):(?P<value>-?{_NUMBER}|{_WORD})"
                 rf"|(?P<sign>-?)(?P<number>{_NUMBER})"
                 rf"|(?P<name>{_WORD})")
_FAST_OPERAND_RE = re.compile(_FAST_OPERAND)
_UNNAMED_OPERAND = re.sub(r"\?P<\w+>", "", _FAST_OPERAND)
_FAST_LINE = re.compile(rf"\s*(?P<mnemonic>{_WORD})(?:\s+(?:{_UNNAMED_OPERAND})"
                        rf"(?:(?:\s*,\s*|\s+(?!-))(?:{_UNNAMED_OPERAND}))*)?\s*$")
_SEPARATOR = re.compile(r"\s*,\s*|\s+")


#: Nodes of operand spellings seen before (nodes are immutable, and the same
#: spelling always gives the same node): most operands of a file repeat.
_FAST_NODES: dict = {}
_MAX_FAST_NODES = 1 << 16


def _fast_instruction(text: str):
    """The Instruction of a plain line, or None to let the grammar parse it."""
    line = _FAST_LINE.match(text)
    if line is None:
        return None
    mnemonic = line.group("mnemonic")
    position = line.end("mnemonic")
    found = _split_operands(text, position)
    if found is not None:
        return Instruction(mnemonic.lower(), found[0], line.start("mnemonic") + 1, found[1])
    operands, columns = [], []
    end = len(text.rstrip())
    while True:
        separator = _SEPARATOR.match(text, position)
        if separator is None or separator.end() >= end:
            break
        match = _FAST_OPERAND_RE.match(text, separator.end())
        if match is None:
            return None
        spelled = match.group()
        found = _FAST_NODES.get(spelled)
        if found is None:
            found = _fast_node(match)
            if len(_FAST_NODES) < _MAX_FAST_NODES:
                _FAST_NODES[spelled] = found
        operands.append(found)
        columns.append(match.start() + 1)
        position = match.end()
    return Instruction(mnemonic.lower(), operands, line.start("mnemonic") + 1, columns)


_SEPARATORS = re.compile(r"\s*,\s*|\s+")


def _split_operands(text: str, position: int):
    """``(nodes, columns)`` of a validated line's operands from ``position``, or None.

    ``_FAST_LINE`` has checked the line is operands joined by separators, and
    no operand holds a space or comma, so splitting on separators finds the
    spellings the match-by-match loop of ``_fast_instruction`` finds; each
    spelling must be one whole operand (else None: the loop decides), and a
    spelling seen before reuses its node without any regex.
    """
    rest = text[position:].strip()
    if not rest:
        return [], []
    operands, columns = [], []
    for spelled in _SEPARATORS.split(rest):
        position = text.find(spelled, position)
        found = _FAST_NODES.get(spelled)
        if found is None:
            match = _FAST_OPERAND_RE.match(spelled)
            if match is None or match.end() != len(spelled):
                return None
            found = _fast_node(match)
            if len(_FAST_NODES) < _MAX_FAST_NODES:
                _FAST_NODES[spelled] = found
        operands.append(found)
        columns.append(position + 1)
        position += len(spelled)
    return operands, columns


def _fast_number(sign: str, text: str):
    if "." in text:
        value = float(text)
        return FloatLit(-value if sign else value)
    value = _int(text)
    return Const(-value if sign else value)


def _fast_node(match):
    if match.group("range"):
        return Indexed(match.group("file"), Const(int(match.group("low"))),
                       Const(int(match.group("high"))))
    if match.group("call"):
        return Call(match.group("call").lower(), (Const(_int(match.group("arg"))),))
    if match.group("mod"):
        value = match.group("value")
        if value[0].isdigit() or value[0] == "-":
            node_value = _fast_number("-" if value[0] == "-" else "", value.lstrip("-"))
        else:
            node_value = Sym(value)
        return ModifierNode(match.group("mod").lower(), node_value)
    if match.group("number"):
        return _fast_number(match.group("sign"), match.group("number"))
    return Sym(match.group("name"))


def parse_arguments(text: str, column_offset: int = 0) -> list:
    """A directive's comma-separated arguments as syntax nodes."""
    try:
        tree = _parser().parse(text, start="arglist")
    except lark.exceptions.LarkError as error:
        described = _describe_unexpected(error, text)
        described.column += column_offset
        raise described from None
    return [node(child) for child in tree.children]


def _column(item) -> int:
    """Column of a subtree's first token (tokens keep positions; trees are not
    given any, which keeps parsing fast)."""
    while not isinstance(item, lark.Token):
        if not item.children:
            return 1
        item = item.children[0]
    return item.column or 1


def _statement(tree):
    kind = tree.data
    children = tree.children
    if kind == "label":
        return Label(str(children[0]), _column(tree))
    if kind == "numeric_label":
        return NumericLabel(int(children[0]), _column(tree))
    if kind == "directive":
        rest = children[1] if len(children) > 1 else None
        return Directive(str(children[0]).lower(), str(rest).rstrip() if rest else "",
                         _column(tree), rest.column if rest else 0)
    if kind == "assignment":
        return Assignment(str(children[0]), node(children[1]), _column(tree))
    if kind == "instruction":
        operands, columns = [], []
        if len(children) > 1:
            for child in children[1].children:
                operands.append(node(child))
                columns.append(_column(child))
        return Instruction(str(children[0]).lower(), operands, _column(tree), columns)
    raise SyntaxErrorAt(f"unsupported statement {kind}", _column(tree))


def _name(token) -> Sym:
    name, _, specifier = str(token).partition("@")
    return Sym(name, specifier or None)


def _int(text: str) -> int:
    lowered = text.lower()
    if lowered.startswith("0x"):
        return int(lowered, 16)
    if lowered.startswith("0b"):
        return int(lowered[2:], 2)
    if len(lowered) > 1 and lowered.startswith("0"):
        return int(lowered, 8)
    return int(lowered)


def node(item):
    """The syntax node of one grammar subtree."""
    if isinstance(item, lark.Token):
        if item.type == "STRING":
            return StringLit(item)
        if item.type == "AT_TYPE":
            return AtType(str(item)[1:])
        return _name(item)
    kind, children = item.data, item.children
    handler = _NODE_BUILDERS.get(kind)
    if handler is None:
        raise SyntaxErrorAt(f"unexpected '{kind}'", _column(item))
    return handler(children)


@dataclass(frozen=True)
class StringLit:
    raw: str

    @property
    def value(self) -> bytes:
        return unescape(self.raw[1:-1])


@dataclass(frozen=True)
class AtType:
    name: str


def unescape(body: str) -> bytes:
    """Decode a GNU-as string body: \\n, \\t, octal \\NNN, hex \\xHH, \\\\, \\"."""
    out = bytearray()
    i = 0
    simple = {"n": 10, "t": 9, "r": 13, "b": 8, "f": 12, "v": 11, "a": 7, "\\": 92, '"': 34, "'": 39}
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 >= len(body):
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif nxt in "xX":
            j = i + 2
            while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[i + 2:j] or "0", 16) & 0xFF)
            i = j
        elif nxt in "01234567":
            j = i + 1
            while j < len(body) and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(int(body[i + 1:j], 8) & 0xFF)
            i = j
        else:
            out += nxt.encode("utf-8", "surrogateescape")
            i += 2
    return bytes(out)


#: Binary operator precedence of llvm-mc's GNU mode (higher binds tighter).
PRECEDENCE = {
    "||": 1, "&&": 2,
    "==": 3, "!=": 3, "<>": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
    "+": 4, "-": 4,
    "|": 5, "^": 5, "&": 5, "!": 5,
    "*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6,
}
_PREFIX = frozenset("+-~!")


def _chain(children):
    """``a op b op c ...`` -> a tree, by precedence climbing (left-associative)."""
    operands = [node(c) for c in children[0::2]]
    operators = [str(c) for c in children[1::2]]
    for op in operators:
        if op not in PRECEDENCE:
            raise SyntaxErrorAt(f"unexpected token '{op}'", 1)
    position = 0

    def climb(left, minimum):
        nonlocal position
        while position < len(operators) and PRECEDENCE[operators[position]] >= minimum:
            op = operators[position]
            right = operands[position + 1]
            position += 1
            while position < len(operators) and \
                    PRECEDENCE[operators[position]] > PRECEDENCE[op]:
                right = climb(right, PRECEDENCE[op] + 1)
            left = Binary(op, left, right)
        return left

    return climb(operands[0], 1)


def _prefix(children):
    op, operand = str(children[0]), children[1]
    if op not in _PREFIX:
        raise SyntaxErrorAt(f"unexpected token '{op}'", children[0].column or 1)
    inner = node(operand)
    if op == "+":
        return inner
    if op == "-":
        if isinstance(inner, Const):
            return Const(-inner.value)
        if isinstance(inner, FloatLit):
            return FloatLit(-inner.value)
    return Unary(op, inner)


def _indexed(children):
    low = node(children[1])
    high = node(children[2]) if len(children) > 2 else low
    return Indexed(str(children[0]).lower(), low, high)


def _localref(children):
    text = str(children[0])
    return LocalRef(int(text[:-1]), text[-1] == "f")


_NODE_BUILDERS = {
    "int": lambda c: Const(_int(str(c[0]))),
    "float": lambda c: FloatLit(float(str(c[0]))),
    "char": lambda c: Const(unescape(str(c[0])[1:-1])[0]),
    "localref": _localref,
    "name": lambda c: _name(c[0]),
    "indexed": _indexed,
    "call": lambda c: Call(str(c[0]).lower(), tuple(node(a) for a in c[1:])),
    "chain": _chain,
    "prefix": _prefix,
    "abs_bars": lambda c: AbsBars(node(c[1])),
    "reglist": lambda c: RegList(tuple(node(a) for a in c)),
    "modifier": lambda c: ModifierNode(str(c[0]).lower(), node(c[1])),
    "list": lambda c: ListNode(tuple(node(a) for a in c)),
    "attype": lambda c: AtType(str(c[0])[1:]),
    "string": lambda c: StringLit(str(c[0])),
}

"""Assembly-time expressions: trees over integers and symbols, and their values.

An expression evaluates to a ``Value``: an integer constant, optionally plus
one symbol (``sym + 4``) and minus another (``end - start``), which is what a
relocation can carry. llvm-mc folds ``a - b`` when both are defined in the same
section, and so does ``Value``. Operators follow llvm-mc's GNU-mode semantics:
comparisons yield -1 for true, ``&&``/``||`` yield 1, ``/`` and ``%`` truncate.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ToolchainError


class ExprError(ToolchainError):
    """An expression that cannot be evaluated where it is used."""


MASK64 = (1 << 64) - 1


def wrap64(value: int) -> int:
    """Reduce to a signed 64-bit integer, as MCExpr arithmetic does."""
    value &= MASK64
    return value - (1 << 64) if value >> 63 else value


@dataclass(frozen=True)
class Const:
    value: int

    def __str__(self):
        return str(self.value)


@dataclass(frozen=True)
class Sym:
    """A symbol reference; ``specifier`` is a relocation specifier ('rel32@lo')."""

    name: str
    specifier: str | None = None

    def __str__(self):
        return f"{self.name}@{self.specifier}" if self.specifier else self.name


@dataclass(frozen=True)
class Unary:
    op: str
    operand: object

    def __str__(self):
        return f"{self.op}{self.operand}"


@dataclass(frozen=True)
class Binary:
    op: str
    left: object
    right: object

    def __str__(self):
        return f"({self.left} {self.op} {self.right})"


@dataclass(frozen=True)
class Value:
    """``constant + add_symbol - sub_symbol``; symbols are Symbol objects or None."""

    constant: int = 0
    add: object = None
    sub: object = None
    specifier: str | None = None

    @property
    def is_absolute(self):
        return self.add is None and self.sub is None


def llvm_text(expr) -> str:
    """An expression as llvm-mc prints it (``lab-gdef``, ``sym@rel32@lo+4``)."""
    if isinstance(expr, Const):
        return str(expr.value)
    if isinstance(expr, Sym):
        return str(expr)
    if isinstance(expr, Unary):
        inner = llvm_text(expr.operand)
        return f"{expr.op}({inner})" if isinstance(expr.operand, Binary) else f"{expr.op}{inner}"
    if isinstance(expr, Binary):
        if expr.op in "+-" and isinstance(expr.right, Const) and expr.right.value < 0:
            flipped = "-" if expr.op == "+" else "+"
            return f"{_operand_text(expr.left)}{flipped}{-expr.right.value}"
        return f"{_operand_text(expr.left)}{expr.op}{_operand_text(expr.right)}"
    return str(expr)


def _operand_text(expr) -> str:
    text = llvm_text(expr)
    return f"({text})" if isinstance(expr, Binary) and expr.op not in "+-" else text


def symbols_in(expr):
    """Every symbol name an expression mentions (for dependency checks)."""
    if isinstance(expr, Sym):
        yield expr.name
    elif isinstance(expr, Unary):
        yield from symbols_in(expr.operand)
    elif isinstance(expr, Binary):
        yield from symbols_in(expr.left)
        yield from symbols_in(expr.right)


def has_specifier(expr):
    """True if a relocation specifier appears anywhere in the expression."""
    if isinstance(expr, Sym):
        return expr.specifier is not None
    if isinstance(expr, Unary):
        return has_specifier(expr.operand)
    if isinstance(expr, Binary):
        return has_specifier(expr.left) or has_specifier(expr.right)
    return False


_COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _int_div(a, b, op):
    if b == 0:
        raise ExprError("division by zero")
    quotient = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        quotient = -quotient
    return quotient if op == "/" else a - quotient * b


def apply_binary(op: str, a: int, b: int) -> int:
    """Combine two absolute values with one of llvm-mc's binary operators."""
    if op in _COMPARE:
        return -1 if _COMPARE[op](a, b) else 0
    if op == "&&":
        return int(bool(a) and bool(b))
    if op == "||":
        return int(bool(a) or bool(b))
    if op in ("/", "%"):
        return wrap64(_int_div(a, b, op))
    if op == "<<":
        return wrap64(a << (b & 63)) if 0 <= b < 64 else 0
    if op == ">>":  # logical, on 64 bits, as llvm-mc shifts
        return wrap64((a & MASK64) >> b) if 0 <= b < 64 else 0
    result = {
        "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
        "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b,
        "!": lambda: a | ~b,
    }[op]()
    return wrap64(result)


def apply_unary(op: str, a: int) -> int:
    if op == "-":
        return wrap64(-a)
    if op == "~":
        return wrap64(~a)
    if op == "!":
        return int(a == 0)
    return a


class Evaluator:
    """Evaluates expressions against a symbol resolver.

    ``resolve(name)`` returns a ``Value`` for a defined symbol (absolute, or
    symbol-relative for labels) or None when it is still undefined; then the
    symbol stays symbolic (``lookup(name)`` gives its Symbol object).
    ``same_section(a, b)`` decides whether ``a - b`` folds to a constant,
    returning the difference or None.
    """

    def __init__(self, resolve, lookup, difference):
        self.resolve = resolve
        self.lookup = lookup
        self.difference = difference

    def value(self, expr) -> Value:
        if isinstance(expr, Const):
            return Value(expr.value)
        if isinstance(expr, Sym):
            if expr.specifier is None:
                resolved = self.resolve(expr.name)
                if resolved is not None:
                    return resolved
            return Value(0, self.lookup(expr.name), None, expr.specifier)
        if isinstance(expr, Unary):
            inner = self.value(expr.operand)
            if not inner.is_absolute:
                if expr.op == "+":
                    return inner
                raise ExprError(f"cannot apply unary '{expr.op}' to a relocatable value")
            return Value(apply_unary(expr.op, inner.constant))
        if isinstance(expr, Binary):
            return self._binary(expr)
        raise ExprError(f"bad expression {expr!r}")

    def _binary(self, expr) -> Value:
        left, right = self.value(expr.left), self.value(expr.right)
        if left.is_absolute and right.is_absolute:
            return Value(apply_binary(expr.op, left.constant, right.constant))
        if expr.op == "+" and right.is_absolute:
            return Value(wrap64(left.constant + right.constant), left.add, left.sub, left.specifier)
        if expr.op == "+" and left.is_absolute:
            return Value(wrap64(left.constant + right.constant), right.add, right.sub, right.specifier)
        if expr.op == "-" and right.is_absolute:
            return Value(wrap64(left.constant - right.constant), left.add, left.sub, left.specifier)
        if expr.op == "-" and right.sub is None and right.specifier is None:
            return self._subtract(left, right)
        if expr.op in _COMPARE:
            return self._compare_symbols(expr.op, left, right)
        raise ExprError("expression is not a constant or a symbol plus a constant")

    def _subtract(self, left: Value, right: Value) -> Value:
        constant = wrap64(left.constant - right.constant)
        if left.add is not None and left.sub is None:
            delta = self.difference(left.add, right.add)
            if delta is not None:
                return Value(wrap64(constant + delta))
            if left.specifier is None:
                return Value(constant, left.add, right.add)
        raise ExprError("cannot represent the difference of these symbols")

    def _compare_symbols(self, op, left, right):
        diff = self._subtract(left, right)
        if not diff.is_absolute:
            raise ExprError("comparison of symbols in different sections")
        return Value(apply_binary(op, diff.constant, 0))

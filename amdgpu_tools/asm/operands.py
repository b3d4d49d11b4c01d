"""Syntax nodes of an instruction's operands -> the ISA package's neutral operands.

This is where a name gets its meaning: ``v3``/``s[0:1]``/``ttmp2`` are
registers, ``vcc``/``exec``/``m0``... are special registers, a bare ``glc``
after the first operand is a modifier flag, ``hwreg(...)`` and waitcnt terms
are functions, and anything else is an expression: a constant (``Imm``) when
it evaluates now, else a ``SymbolRef`` the encoder turns into a fixup.
"""

from __future__ import annotations

import re

from ..errors import ToolchainError
from ..isa.asm_operands import Func, Imm, Modifier, Reg, SpecialReg, SymbolRef
from .expr import Binary, Const, Sym, Unary, has_specifier, symbols_in
from .syntax import AbsBars, Call, FloatLit, Indexed, ListNode, LocalRef, ModifierNode, RegList


class OperandError(ToolchainError):
    """An operand that is malformed before the ISA table even looks at it."""


_REGISTER = re.compile(r"^(v|s|ttmp|a)(\d+)$")

#: Named registers as llvm-mc spells them (aliases map to the canonical name).
SPECIAL_REGISTERS = {
    name: name for name in (
        "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0",
        "flat_scratch", "flat_scratch_lo", "flat_scratch_hi",
        "xnack_mask", "xnack_mask_lo", "xnack_mask_hi",
        "tba", "tba_lo", "tba_hi", "tma", "tma_lo", "tma_hi",
        "scc", "vccz", "execz", "lds_direct", "off", "null",
        "src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit",
        "src_pops_exiting_wave_id", "src_vccz", "src_execz", "src_scc", "src_lds_direct",
    )
}
SPECIAL_REGISTERS.update({
    "shared_base": "src_shared_base", "shared_limit": "src_shared_limit",
    "private_base": "src_private_base", "private_limit": "src_private_limit",
    "pops_exiting_wave_id": "src_pops_exiting_wave_id",
})

#: Modifiers written as a bare word after the operands.
FLAG_MODIFIERS = frozenset((
    "glc", "slc", "tfe", "lds", "gds", "offen", "idxen", "addr64", "clamp",
    "unorm", "da", "r128", "a16", "d16", "lwe", "high", "done", "compr", "vm",
    "nv", "dlc", "row_mirror", "row_half_mirror",
))

#: Bound on symbol-free nodes remembered by identity.
MAX_REMEMBERED_NODES = 1 << 16

#: Calls that are source-operand modifiers rather than operands.
_WRAPPERS = ("abs", "neg", "sext")


class OperandBuilder:
    """Lowers syntax nodes; ``evaluate(expr)`` returns an expr.Value."""

    def __init__(self, evaluate, freeze, is_constant_symbol, peek):
        self.peek = peek  # a symbol's value if defined, without creating the symbol
        self.evaluate = evaluate
        self.freeze = freeze
        self.is_constant_symbol = is_constant_symbol
        self._pure = {}  # _pure_key(node) -> its operands (see _pure_key)
        self._pure_by_identity = {}  # (id(node), not first) -> (node, its operands)
        self.last_pure = False  # whether the last build() depended on no symbol

    def build(self, nodes) -> list:
        operands = []
        pure = self._pure
        by_identity = self._pure_by_identity
        all_pure = True
        for index, item in enumerate(nodes):
            # the parser hands back one node object per spelling: look it up by
            # identity first (hashing a node dataclass runs Python code)
            known = by_identity.get((id(item), index > 0))
            if known is not None and known[0] is item:
                operands.extend(known[1])
                continue
            key = _pure_key(item, index)
            if key is None:
                operands.extend(self._lower(item, index))
                all_pure = False
                continue
            found = pure.get(key)
            if found is None:
                found = tuple(self._lower(item, index))
                if _is_pure_result(item, found):
                    pure[key] = found
                else:
                    all_pure = False
                    operands.extend(found)
                    continue
            if len(by_identity) < MAX_REMEMBERED_NODES:
                by_identity[(id(item), index > 0)] = (item, found)  # keeps ``item`` alive
            operands.extend(found)
        self.last_pure = all_pure
        return operands

    def _lower(self, item, index):
        if isinstance(item, ModifierNode):
            return [Modifier(item.name, self._modifier_value(item.value))]
        if isinstance(item, Sym) and item.specifier is None:
            if index > 0 and item.name.lower() in FLAG_MODIFIERS:
                return [Modifier(item.name.lower(), True)]
        if isinstance(item, Binary) and item.op == "&" and _is_call_chain(item):
            return [self.operand(call) for call in _flatten_calls(item)]
        return [self.operand(item)]

    def operand(self, item, neg=False, abs_=False, sext=False):
        """One operand with its source modifiers."""
        if isinstance(item, Unary) and item.op == "-" and _is_register_like(item.operand):
            return self.operand(item.operand, not neg, abs_, sext)
        if isinstance(item, AbsBars):
            return self.operand(item.inner, neg, True, sext)
        if isinstance(item, Call) and item.name in _WRAPPERS:
            if len(item.args) != 1:
                raise OperandError(f"{item.name}() takes one operand")
            return self.operand(item.args[0], neg or item.name == "neg",
                                abs_ or item.name == "abs", sext or item.name == "sext")
        flags = {"neg": neg, "abs": abs_, "sext": sext}
        register = self._register(item, flags)
        if register is not None:
            return register
        if isinstance(item, Call):
            return Func(item.name, tuple(self._func_arg(a) for a in item.args), **flags)
        if isinstance(item, FloatLit):
            return Imm(item.value, True, **flags)
        if isinstance(item, (ListNode, RegList, Indexed, ModifierNode)):
            raise OperandError("invalid operand")
        return self._expression(item, flags)

    def _register(self, item, flags):
        if isinstance(item, Sym) and item.specifier is None:
            lowered = item.name.lower()
            match = _REGISTER.match(lowered)
            if match:
                return Reg(match.group(1), int(match.group(2)), 1, **flags)
            if lowered in SPECIAL_REGISTERS:
                return SpecialReg(SPECIAL_REGISTERS[lowered], **flags)
            return None
        if isinstance(item, Indexed):
            if item.name not in ("v", "s", "ttmp", "a"):
                raise OperandError(f"unknown register file '{item.name}'")
            low, high = self._constant(item.low), self._constant(item.high)
            if high < low:
                raise OperandError("invalid register range: last register before first")
            return Reg(item.name, low, high - low + 1, **flags)
        if isinstance(item, RegList):
            return self._register_list(item, flags)
        return None

    def _register_list(self, item, flags):
        regs = [self._register(x, {}) for x in item.items]
        if any(not isinstance(r, Reg) for r in regs):
            raise OperandError("a register list holds registers only")
        first = regs[0]
        expected = first.index
        for reg in regs:
            if reg.file != first.file or reg.index != expected:
                raise OperandError("registers in a list must be consecutive and of one kind")
            expected += reg.count
        return Reg(first.file, first.index, expected - first.index, **flags)

    def _expression(self, item, flags):
        expr = self._resolve_locals(item)
        value = self.evaluate(expr)
        # llvm-mc folds constants (and .set symbols defined so far) while parsing,
        # but anything mentioning a label waits for the fixup, even a difference.
        if value.is_absolute and not has_specifier(expr) and \
                all(self.is_constant_symbol(name) for name in symbols_in(expr)):
            return Imm(value.constant, False, **flags)
        return SymbolRef(expr, value.specifier, **flags)

    def _resolve_locals(self, item):
        if isinstance(item, (LocalRef, Sym)):
            return self.freeze(item)
        if isinstance(item, Unary):
            return Unary(item.op, self._resolve_locals(item.operand))
        if isinstance(item, Binary):
            return Binary(item.op, self._resolve_locals(item.left), self._resolve_locals(item.right))
        if isinstance(item, (FloatLit, Call, AbsBars, Indexed, RegList, ListNode)):
            raise OperandError("invalid operand in expression")
        return item

    def _constant(self, item) -> int:
        value = self.evaluate(self._resolve_locals(item))
        if not value.is_absolute:
            raise OperandError("expected an absolute expression")
        return value.constant

    def _func_arg(self, item):
        if isinstance(item, Sym) and item.specifier is None:
            value = self.peek(item.name)
            return value.constant if value is not None and value.is_absolute else item.name
        return self._constant(item)

    def _modifier_value(self, value):
        if isinstance(value, ListNode):
            return tuple(self._modifier_value(v) for v in value.items)
        if isinstance(value, Sym) and value.specifier is None:
            resolved = self.peek(value.name)
            if resolved is not None and resolved.is_absolute:
                return resolved.constant
            return value.name.upper()
        if isinstance(value, FloatLit):
            raise OperandError("a modifier value must be an integer")
        if isinstance(value, Call):  # offset:swizzle(QUAD_PERM, 0, 1, 2, 3)
            return Func(value.name, tuple(self._func_arg(a) for a in value.args))
        return self._constant(value)


def _pure_key(item, index):
    """A cache key for a node whose operands cannot depend on symbols, else None.

    Registers, plain numbers, ``name:number`` modifiers and calls of numbers
    (waitcnt terms) mean the same on every line; the key keeps the float's
    spelling (``0.0 == -0.0``) and whether a bare word may be a modifier flag.
    """
    kind = type(item)
    if kind is Sym:
        return (Sym, item.name, item.specifier, index > 0)
    if kind is Const:
        return item if type(item.value) is int else None
    if kind is FloatLit:
        return (FloatLit, repr(item.value))
    if kind is Indexed:
        return item if type(item.low) is Const and type(item.high) is Const else None
    if kind is ModifierNode:
        value = item.value
        return item if type(value) is Const and type(value.value) is int else None
    if kind is Call:
        if all(type(arg) is Const and type(arg.value) is int for arg in item.args):
            return item
    return None


def _is_pure_result(item, operands) -> bool:
    """A bare word is pure only when it named a register or a flag, never a symbol."""
    if type(item) is Sym:
        return all(type(o) in (Reg, SpecialReg, Modifier) for o in operands)
    return True


def _is_register_like(item) -> bool:
    if isinstance(item, Sym):
        lowered = item.name.lower()
        return bool(_REGISTER.match(lowered)) or lowered in SPECIAL_REGISTERS
    if isinstance(item, Call):
        return item.name in _WRAPPERS
    return isinstance(item, (Indexed, AbsBars, RegList, FloatLit))


def _is_call_chain(item) -> bool:
    if isinstance(item, Call):
        return True
    return isinstance(item, Binary) and item.op == "&" and \
        _is_call_chain(item.left) and _is_call_chain(item.right)


def _flatten_calls(item):
    if isinstance(item, Call):
        yield item
    else:
        yield from _flatten_calls(item.left)
        yield from _flatten_calls(item.right)


__all__ = ["OperandBuilder", "OperandError", "SPECIAL_REGISTERS", "FLAG_MODIFIERS"]

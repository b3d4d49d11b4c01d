"""Neutral operand objects shared by the assembler's parser and the ISA encoder.

The parser turns the text after a mnemonic into a list of these objects; the
encoder (``isa.encoder.encode_instruction``) checks them against the table row
and produces bytes.  Keeping them here, free of any parsing or encoding logic,
lets both sides evolve independently.

Source-operand modifiers (``-v1``, ``|v1|``, ``abs(v1)``, ``neg(v1)``,
``sext(v1)``) are flags on the operand itself (``neg``, ``abs``, ``sext``), so
any operand kind may carry them; the encoder rejects them where the format has
no room for them.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Operand:
    """Base of every parsed operand; ``neg``/``abs``/``sext`` are source modifiers."""


@dataclass(frozen=True)
class Reg(Operand):
    """A register range: ``file`` is 'v', 's' or 'ttmp'; ``count`` in dwords.

    ``v[4:7]`` is ``Reg('v', 4, 4)``; ``s3`` is ``Reg('s', 3, 1)``.
    """

    file: str
    index: int
    count: int = 1
    neg: bool = False
    abs: bool = False
    sext: bool = False

    def __str__(self):
        if self.count == 1:
            return f"{self.file}{self.index}"
        return f"{self.file}[{self.index}:{self.index + self.count - 1}]"


@dataclass(frozen=True)
class SpecialReg(Operand):
    """A named register: vcc, vcc_lo, exec, exec_hi, m0, flat_scratch, scc, ...

    ``name`` is lower case as llvm-mc spells it (``src_shared_base``,
    ``xnack_mask_lo``, ``lds_direct``, ...).
    """

    name: str
    neg: bool = False
    abs: bool = False
    sext: bool = False

    def __str__(self):
        return self.name


@dataclass(frozen=True)
class Imm(Operand):
    """A resolved integer or floating-point constant.

    ``is_float`` is True when the source spelled a floating-point number
    (``1.0``, ``-2.5e3``); integers (``-1``, ``0x3f800000``) keep it False.
    The encoder decides inline constant vs literal from the value and the
    operand's value type.
    """

    value: object
    is_float: bool = False
    neg: bool = False
    abs: bool = False
    sext: bool = False

    def __str__(self):
        return repr(self.value)


@dataclass(frozen=True)
class SymbolRef(Operand):
    """An expression the assembler cannot resolve yet (a label, ``sym@rel32@lo+4``).

    ``expr`` is the assembler's own expression object (opaque to the ISA
    package, which copies it into the resulting ``Fixup``); ``specifier`` is
    the relocation specifier such as 'rel32@lo', 'abs32@hi', 'gotpcrel', or
    None for a plain reference.
    """

    expr: object
    specifier: str = None
    neg: bool = False
    abs: bool = False
    sext: bool = False

    def __str__(self):
        return f"{self.expr}@{self.specifier}" if self.specifier else str(self.expr)


@dataclass(frozen=True)
class Func(Operand):
    """A function-like operand: ``hwreg(HW_REG_MODE, 0, 4)``, ``sendmsg(...)``,
    ``swizzle(...)``, and waitcnt terms ``vmcnt(0)``/``expcnt(1)``/``lgkmcnt(0)``.

    ``args`` holds ints (already evaluated) or strings (symbolic names such as
    'HW_REG_MODE', 'MSG_GS', 'GS_OP_EMIT', 'QUAD_PERM').  Several waitcnt terms
    joined by ``&``, ``,`` or spaces are passed as several ``Func`` operands.
    """

    name: str
    args: tuple = ()
    neg: bool = False
    abs: bool = False
    sext: bool = False

    def __str__(self):
        return f"{self.name}({', '.join(str(a) for a in self.args)})"


@dataclass(frozen=True)
class Modifier(Operand):
    """A named modifier after the operands: ``offset:16`` -> ('offset', 16),
    ``glc`` -> ('glc', True), ``quad_perm:[0,1,2,3]`` -> ('quad_perm', (0,1,2,3)),
    ``row_shl:1`` -> ('row_shl', 1), ``dst_sel:WORD_1`` -> ('dst_sel', 'WORD_1'),
    ``op_sel:[0,1]`` -> ('op_sel', (0, 1)), ``mul:2`` -> ('mul', 2),
    ``format:[BUF_FMT_32_FLOAT]`` -> ('format', ('BUF_FMT_32_FLOAT',)).

    Bare flags carry ``value=True``; list values are tuples; symbolic values
    are upper-case strings as written.
    """

    name: str
    value: object = True

    def __str__(self):
        return self.name if self.value is True else f"{self.name}:{self.value}"


@dataclass
class Fixup:
    """A field of encoded bytes to patch when ``expr`` is resolved.

    ``offset`` is the byte offset in ``Encoded.data``; ``size`` in bytes;
    ``kind`` is 'literal32' (a 32-bit literal dword), 'branch16' (the SOPP
    simm16 of a branch: (target - (pc + 4)) / 4) or 'smem_offset20'/'imm32'.
    """

    offset: int
    size: int
    kind: str
    expr: object
    specifier: str = None


@dataclass
class Encoded:
    """The result of encoding one instruction."""

    data: bytes
    text: str
    fixups: list = field(default_factory=list)

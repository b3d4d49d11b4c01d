"""Encode one table row from the assembler's operands (the inverse of the printer).

``encode_row`` walks the row's operand syntax, turning each parsed operand
into field values through the shared operand codec, collects literals and
fixups, applies modifiers through the family, checks the constant-bus limit,
and packs the bytes.  Failures raise ``RowMismatch`` (the family then tries
the next form of the mnemonic, as llvm-mc does) carrying the message and the
operand index for the user.
"""

from ...errors import ToolchainError
from .. import operands as codec
from .. import spelling
from ..asm_operands import Func, Imm, Modifier, Reg, SpecialReg, SymbolRef, Fixup
from ..fields import int_to_words
from .operand_types import is_float_type, type_size


#: read-only scalar sources that use the constant bus like an SGPR
SCALAR_SOURCES = (235, 236, 237, 238, 239, 251, 252, 253)


class RowMismatch(ToolchainError):
    """This form of the mnemonic cannot take these operands."""

    def __init__(self, message, operand_index=None, rank=0):
        super().__init__(message)
        self.operand_index = operand_index
        self.rank = rank


class EncodeContext:
    """What encoding one row accumulates: fields, literal, fixups, bus reads."""

    def __init__(self, row, target, layout):
        self.row = row
        self.target = target
        self.gen = target.generation
        self.layout = layout
        self.fields = {}
        self.literal = None
        self.literal_fixup = None
        self.fixups = []
        self.scalar_reads = set()
        self.symbols = {}
        self.index = None

    def fail(self, message, rank=1):
        raise RowMismatch(message, self.index, rank)

    def set_literal(self, value, fixup=None):
        value &= 0xFFFFFFFF
        if self.literal is not None and (self.literal != value or fixup or self.literal_fixup):
            self.fail("only one literal operand is allowed", rank=3)
        self.literal = value
        if fixup is not None:
            self.literal_fixup = fixup


def split(operands):
    positional, modifiers = [], []
    for index, operand in enumerate(operands):
        if isinstance(operand, Modifier):
            modifiers.append((index, operand))
        else:
            positional.append((index, operand))
    return positional, modifiers


def same_special(operand, name):
    return isinstance(operand, SpecialReg) and operand.name == name


def has_source_modifiers(operand):
    return getattr(operand, "neg", False) or getattr(operand, "abs", False) or \
        getattr(operand, "sext", False)


def encode_row(family, row, operands, target):
    """``(data, literal, fixups)`` for ``row``; raises RowMismatch."""
    gen = target.generation
    layout = family.layouts[(row.format, gen)]
    ctx = EncodeContext(row, target, layout)
    positional, modifiers = split(operands)
    specs = list(row.operands)
    position = 0
    for spec_index, spec in enumerate(specs):
        if position >= len(positional):
            if spec.get("optional"):
                continue
            ctx.index = None
            ctx.fail(f"too few operands for instruction", rank=0)
        index, operand = positional[position]
        ctx.index = index
        if spec.get("kind") == "waitcnt" and isinstance(operand, Func):
            funcs = []
            while position < len(positional) and isinstance(positional[position][1], Func):
                funcs.append(positional[position])
                position += 1
            encode_waitcnt(ctx, spec, funcs)
            continue
        position += 1
        if "fixed" in spec:
            if not (same_special(operand, spec["fixed"]) or _fixed_matches(spec["fixed"], operand)):
                family.encode_fixed(ctx, spec, spec_index, operand)
            continue
        if has_source_modifiers(operand) and not family.accepts_source_modifiers(ctx, spec,
                                                                                  operand):
            ctx.fail("invalid operand for instruction (source modifier not allowed)", rank=1)
        family.encode_operand(ctx, spec, operand)
    if position < len(positional):
        ctx.index = positional[position][0]
        ctx.fail("invalid operand for instruction (too many operands)", rank=0)
    family.encode_modifiers(ctx, modifiers)
    family.check_encoding(ctx)
    fields = dict(ctx.fields)
    fields["op"] = row.opcodes[gen]
    value = layout.pack({k: v for k, v in fields.items() if k in layout.fields})
    words = list(int_to_words(value, layout.words))
    fixups = list(ctx.fixups)
    if ctx.literal is not None:
        if ctx.literal_fixup is not None:
            operand = ctx.literal_fixup
            fixups.append(Fixup(4 * len(words), 4, "literal32", operand.expr, operand.specifier))
        words.append(ctx.literal)
    data = b"".join(w.to_bytes(4, "little") for w in words)
    return data, fixups, ctx.symbols


def symbol_text(operand):
    """An unresolved expression as llvm-mc echoes it (``sym@rel32@lo+4``)."""
    text = str(operand.expr)
    if operand.specifier and "@" not in text:
        text = f"{text}@{operand.specifier}"
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text.replace(" + ", "+").replace(" - ", "-")


def _fixed_matches(text, operand):
    if isinstance(operand, Reg):
        return str(operand) == text
    return False


# ---- operand kinds ----------------------------------------------------------------
def encode_vgpr(ctx, spec, operand):
    width = spec.get("width", 1)
    if not isinstance(operand, Reg) or operand.file != "v":
        ctx.fail("invalid operand for instruction (expected a VGPR)")
    if operand.count != width:
        ctx.fail(f"invalid operand for instruction (expected {width} VGPR(s))")
    if operand.index + width > 256:
        ctx.fail("register index is out of range", rank=2)
    return operand.index


def scalar_register_code(ctx, operand, width, allow_vgpr=False):
    """Code of an SGPR/TTMP/named register operand of ``width`` dwords."""
    gen = ctx.gen
    if isinstance(operand, Reg):
        if operand.file == "v" and not allow_vgpr:
            ctx.fail("invalid operand for instruction (expected a scalar register)")
        if operand.count != width:
            ctx.fail(f"invalid operand for instruction (expected {width} dword(s))")
        if operand.file in ("s", "ttmp") and width > 1:
            align = 2 if width == 2 else 4
            if operand.index % align:
                ctx.fail("invalid register alignment", rank=2)
        code = codec.encode_register(operand.file, operand.index, operand.count, gen)
        if code is None:
            ctx.fail("register index is out of range" if operand.file != "ttmp" else
                     "invalid trap temporary register", rank=2)
        return code
    if isinstance(operand, SpecialReg):
        found = codec.encode_named(operand.name, gen)
        if found is None:
            ctx.fail(f"register {operand.name} is not supported on this GPU", rank=2)
        code, count = found
        if code < 128 and count != width:
            ctx.fail(f"invalid operand for instruction ({operand.name} is {count} dword(s))")
        return code
    return None


def encode_sdst(ctx, spec, operand):
    code = scalar_register_code(ctx, operand, spec.get("width", 1))
    if code is None or code > 127:
        ctx.fail("invalid operand for instruction (expected a scalar destination)")
    return code


def encode_source(ctx, spec, operand, allow_vgpr, allow_literal):
    """Code of a source operand (register, inline constant, literal, symbol)."""
    width = spec.get("width", 1)
    size = type_size(spec)
    gen = ctx.gen
    if isinstance(operand, (Reg, SpecialReg)):
        if isinstance(operand, Reg) and operand.file == "v":
            if not allow_vgpr or spec.get("file") == "s":
                ctx.fail("invalid operand for instruction (VGPR not allowed here)")
            if operand.count != width:
                ctx.fail(f"invalid operand for instruction (expected {width} VGPR(s))")
            if operand.index + width > 256:
                ctx.fail("register index is out of range", rank=2)
            return codec.VGPR_BASE + operand.index
        if spec.get("file") == "v" or spec.get("no_sgpr"):
            ctx.fail("invalid operand for instruction (a scalar register is not allowed here)")
        code = scalar_register_code(ctx, operand, width)
        if code == 254 and (not allow_vgpr or spec["field"] != "src0"):
            ctx.fail("lds_direct cannot be used with this instruction (only as a VALU src0)")
        if code < 128 or code in SCALAR_SOURCES:
            ctx.scalar_reads.add((code, width))
        return code
    if spec.get("file") == "v":
        ctx.fail("invalid operand for instruction (expected a VGPR)")
    if spec.get("no_const"):
        ctx.fail("invalid operand for instruction (expected a scalar register)")
    if isinstance(operand, Imm):
        code = inline_code(operand, size, is_float_type(spec), gen)
        if code is not None:
            return code
        if not allow_literal:
            ctx.fail("literal operands are not supported", rank=2)
        ctx.set_literal(literal_bits(ctx, operand, size, is_float_type(spec)))
        ctx.scalar_reads.add(("literal", ctx.literal))
        return codec.LITERAL
    if isinstance(operand, SymbolRef):
        if not allow_literal:
            ctx.fail("literal operands are not supported", rank=2)
        ctx.set_literal(0, fixup=operand)
        ctx.symbols[spec["field"]] = symbol_text(operand)
        ctx.scalar_reads.add(("literal", "symbol"))
        return codec.LITERAL
    ctx.fail("invalid operand for instruction")


def inline_code(operand, size, is_float, gen):
    value = operand.value
    if operand.is_float:
        return codec.inline_code_for_float(float(value), size, gen)
    value = int(value)
    code = codec.inline_code_for_int(value, gen)
    if code is not None:
        return code
    if size == 16 and not is_float:
        return None
    if size == 64:
        return codec.inline_code_for_bits(value, 64, gen) if value >> 32 else None
    if -(1 << (size - 1)) <= value < (1 << size):
        return codec.inline_code_for_bits(value, size, gen)
    return None


def literal_bits(ctx, operand, size, is_float):
    """The literal dword for a non-inline constant at this operand size/type."""
    value = operand.value
    if operand.is_float:
        value = float(value)
        if size == 64:
            if not is_float:
                ctx.fail("invalid operand for instruction", rank=2)
            return codec.float_bits(value, 64) >> 32
        if size == 16 and is_float:
            return codec.float_bits(value, 16)
        return codec.float_bits(value, 32)
    value = int(value)
    if size == 16:
        if not -0x8000 <= value <= 0xFFFF:
            ctx.fail("invalid operand for instruction (literal does not fit 16 bits)", rank=2)
        return value & 0xFFFF
    if not -(1 << 31) <= value <= 0xFFFFFFFF:
        ctx.fail("invalid operand for instruction (literal does not fit 32 bits)", rank=2)
    return value & 0xFFFFFFFF


def encode_immediate(ctx, operand, bits, signed=True):
    if not isinstance(operand, Imm) or operand.is_float:
        ctx.fail("invalid operand for instruction (expected an integer)")
    value = int(operand.value)
    low = -(1 << (bits - 1)) if signed else 0
    if not low <= value < (1 << bits):
        ctx.fail(f"invalid operand for instruction (immediate does not fit {bits} bits)", rank=2)
    return value & ((1 << bits) - 1)


def encode_waitcnt(ctx, spec, funcs):
    counts = {}
    limits = spelling.waitcnt_max(ctx.gen)
    for index, func in funcs:
        ctx.index = index
        name = func.name.lower()
        if name.endswith("_sat"):
            name = name[:-4]
        if name not in limits or len(func.args) != 1:
            ctx.fail(f"invalid counter name {func.name}", rank=3)
        value = _int_arg(ctx, func.args[0])
        if not 0 <= value <= limits[name]:
            if func.name.lower().endswith("_sat"):
                value = limits[name]
            else:
                ctx.fail(f"too large value for {name}", rank=3)
        counts[name] = value
    ctx.fields[spec["field"]] = spelling.waitcnt_encode(counts, ctx.gen)


def _int_arg(ctx, arg):
    if isinstance(arg, Imm):
        arg = arg.value
    if isinstance(arg, bool) or not isinstance(arg, int):
        ctx.fail(f"expected an integer, got {arg}", rank=3)
    return arg


def encode_hwreg(ctx, operand):
    if isinstance(operand, Imm):
        return encode_immediate(ctx, operand, 16, signed=False)
    if not isinstance(operand, Func) or operand.name.lower() != "hwreg":
        ctx.fail("invalid operand for instruction (expected hwreg(...))", rank=1)
    args = list(operand.args)
    if not 1 <= len(args) <= 3 or len(args) == 2:
        ctx.fail("expected hwreg(name) or hwreg(name, offset, size)", rank=3)
    reg = args[0]
    if isinstance(reg, str):
        found = spelling.hwreg_id(reg.upper(), ctx.gen)
        if found is None:
            ctx.fail(f"invalid hardware register: {reg}", rank=3)
        reg = found
    else:
        reg = _int_arg(ctx, reg)
    offset, size = (0, 32) if len(args) == 1 else (_int_arg(ctx, args[1]), _int_arg(ctx, args[2]))
    if not 0 <= reg <= 63 or not 0 <= offset <= 31 or not 1 <= size <= 32:
        ctx.fail("invalid hwreg(...) field value", rank=3)
    return spelling.hwreg_encode(reg, offset, size)


def encode_sendmsg(ctx, operand):
    if isinstance(operand, Imm):
        return encode_immediate(ctx, operand, 16, signed=False)
    if not isinstance(operand, Func) or operand.name.lower() != "sendmsg":
        ctx.fail("invalid operand for instruction (expected sendmsg(...))", rank=1)
    args = [a.value if isinstance(a, Imm) else a for a in operand.args]
    value = spelling.sendmsg_value(args, ctx.gen)
    if value is None and len(args) == 2:
        value = spelling.sendmsg_value(args + [0], ctx.gen)
    if value is None:
        ctx.fail(f"invalid message: {operand}", rank=3)
    return value


def encode_gpr_idx(ctx, operand):
    if isinstance(operand, Imm):
        return encode_immediate(ctx, operand, 4, signed=False)
    if not isinstance(operand, Func) or operand.name.lower() != "gpr_idx":
        ctx.fail("invalid operand for instruction (expected gpr_idx(...))", rank=1)
    try:
        return spelling.gpr_idx_value(operand.args)
    except ValueError:
        ctx.fail(f"invalid gpr_idx mode in {operand}", rank=3)

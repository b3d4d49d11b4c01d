"""How a table family chooses among a mnemonic's forms and encodes operands by kind.

llvm-mc's choice, mirrored: the 32-bit form (VOP1/VOP2/VOPC) is tried before
VOP3, then DPP and SDWA; the first form whose operand checks pass wins.  When
none does, the error of the form that got furthest is reported.
"""

from ...errors import InstructionError
from ..asm_operands import Encoded, Fixup, Imm, SymbolRef
from ..decoder import decode
from . import table_encoder as enc
from .operand_types import is_float_type, type_size
from .table_encoder import RowMismatch, encode_row, symbol_text

_FORM_ORDER = {"VOP1": 0, "VOP2": 0, "VOPC": 0, "SOP1": 0, "SOP2": 0, "SOPK": 0, "SOPC": 0,
               "SOPP": 0, "SMEM": 0, "SMRD": 0, "VOP3": 1, "VOP3P": 1, "DPP": 2, "SDWA": 3}


class LazyText(Encoded):
    """An ``Encoded`` whose canonical text is printed only when asked for (listings)."""

    def __init__(self, data, fixups, target, symbols):  # pylint: disable=super-init-not-called
        self.data = data
        self.fixups = fixups
        self._target = target
        self._symbols = symbols
        self._text = None

    @property
    def text(self):
        if self._text is None:
            inst = decode(self.data, 0, self._target)
            inst.symbols = self._symbols or None
            self._text = inst.text()
        return self._text


class EncodingMixin:
    """Choose among a mnemonic's forms and encode operands by kind."""

    def candidates(self, mnemonic, target):
        cache = self.__dict__.setdefault("_candidate_cache", {})
        key = (mnemonic, target.name)
        if key not in cache:
            cache[key] = self._candidates(mnemonic, target)
        return cache[key]

    def _candidates(self, mnemonic, target):
        rows = [row for row in self.rows_named(mnemonic) if row.available_on(target)]
        if any(row.asm == mnemonic for row in rows) and mnemonic != rows[0].name:
            rows = [row for row in rows if row.asm == mnemonic]
        rows.sort(key=lambda row: _FORM_ORDER.get(row.encoding, 0))
        return rows

    def encode_instruction(self, mnemonic, operands, target):
        rows = self.candidates(mnemonic, target)
        if not rows:
            return None
        best = None
        for row in rows:
            try:
                data, fixups, symbols = encode_row(self, row, operands, target)
            except RowMismatch as error:
                if best is None or error.rank > best.rank:
                    best = error
                continue
            return LazyText(data, fixups, target, symbols)
        raise InstructionError(str(best), best.operand_index)

    # hooks --------------------------------------------------------------------
    def accepts_source_modifiers(self, ctx, spec, operand):
        return False

    def encode_fixed(self, ctx, spec, spec_index, operand):
        ctx.fail(f"invalid operand for instruction (expected {spec['fixed']})")

    def encode_operand(self, ctx, spec, operand):
        kind = spec["kind"]
        field = spec["field"]
        gen = ctx.gen
        if kind == "vgpr":
            ctx.fields[field] = enc.encode_vgpr(ctx, spec, operand)
        elif kind == "sdst":
            ctx.fields[field] = enc.encode_sdst(ctx, spec, operand)
        elif kind == "ssrc":  # an 8-bit scalar source (SOP*, SI's v_readlane lane select)
            ctx.fields[field] = enc.encode_source(ctx, spec, operand, False, field != "vsrc1")
        elif kind == "src":
            ctx.fields[field] = enc.encode_source(ctx, spec, operand, True,
                                                  self.literal_allowed(ctx))
        elif kind == "sbase":
            code = enc.scalar_register_code(ctx, operand, spec.get("width", 2))
            if code is None or code >= 128 or code % 2:
                ctx.fail("invalid operand for instruction (expected an aligned SGPR pair)")
            ctx.fields[field] = code // 2
        elif kind == "simm16":
            ctx.fields[field] = self.encode_simm16(ctx, operand)
        elif kind in ("imm", "imm_hex"):
            bits = self.layout_bits(ctx, field)
            ctx.fields[field] = enc.encode_immediate(ctx, operand, bits, signed=False)
        elif kind == "label":
            ctx.fields[field] = self.encode_label(ctx, field, operand)
        elif kind == "hwreg":
            ctx.fields[field] = enc.encode_hwreg(ctx, operand)
        elif kind == "sendmsg":
            ctx.fields[field] = enc.encode_sendmsg(ctx, operand)
        elif kind == "gpr_idx":
            ctx.fields[field] = enc.encode_gpr_idx(ctx, operand)
        elif kind == "waitcnt":
            ctx.fields[field] = enc.encode_immediate(ctx, operand, 16, signed=False)
        elif kind == "literal":
            self.encode_k_literal(ctx, spec, operand)
        else:
            ctx.fail(f"operand kind {kind} cannot be encoded")

    def layout_bits(self, ctx, field):
        return ctx.layout.fields[field].width

    def literal_allowed(self, ctx):
        return ctx.row.encoding in ("VOP1", "VOP2", "VOPC", "SOP1", "SOP2", "SOPC")

    def encode_simm16(self, ctx, operand):
        if isinstance(operand, SymbolRef):
            ctx.fail("symbolic 16-bit immediates are not supported", rank=2)
        if not isinstance(operand, Imm) or operand.is_float:
            ctx.fail("invalid operand for instruction (expected an integer)")
        if not -0x8000 <= int(operand.value) <= 0xFFFF:
            ctx.fail("invalid operand for instruction (immediate does not fit 16 bits)", rank=2)
        return int(operand.value) & 0xFFFF

    def encode_label(self, ctx, field, operand):
        if isinstance(operand, SymbolRef):
            ctx.fixups.append(Fixup(0, 2, "branch16", operand.expr, operand.specifier))
            ctx.symbols[field] = symbol_text(operand)
            return 0
        return enc.encode_immediate(ctx, operand, 16, signed=True)

    def encode_k_literal(self, ctx, spec, operand):
        if isinstance(operand, SymbolRef):
            ctx.set_literal(0, fixup=operand)
            ctx.scalar_reads.add(("literal", "symbol"))
            ctx.symbols[spec["field"]] = symbol_text(operand)
            return
        if not isinstance(operand, Imm):
            ctx.fail("invalid operand for instruction (expected a constant)")
        ctx.set_literal(enc.literal_bits(ctx, operand, type_size(spec), is_float_type(spec)))
        ctx.scalar_reads.add(("literal", ctx.literal))

    def encode_modifiers(self, ctx, modifiers):
        for index, modifier in modifiers:
            ctx.index = index
            self.apply_modifier(ctx, modifier)

    def apply_modifier(self, ctx, modifier):
        ctx.fail(f"invalid modifier {modifier.name} for {ctx.row.asm}", rank=1)

    def check_encoding(self, ctx):
        """Constant bus: at most one distinct scalar value (SGPR or literal) per VALU op."""
        if ctx.row.encoding in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "SDWA", "DPP"):
            reads = set(ctx.scalar_reads) | set(self.implicit_scalar_reads(ctx))
            if len(reads) > ctx.row.get("bus_limit", 1):
                ctx.index = None
                ctx.fail("invalid operand (violates constant bus restrictions)", rank=2)

    def implicit_scalar_reads(self, ctx):
        return ()


"""Scalar memory: SMRD (GFX6/7) and SMEM (GFX8/9), incl. scalar stores and s_memtime."""

from .. import operands as codec
from ..asm_operands import Imm, SymbolRef
from .formats_core import SMEM_FORMATS
from .table_encoder import scalar_register_code, symbol_text
from .table_family import TableFamily, scalar_text


#: m0, exec_lo, exec_hi: not allowed as scalar memory data (llvm's register classes)
_NOT_SMEM_DATA = (124, 126, 127)


class ScalarMemoryFamily(TableFamily):
    """SMRD/SMEM: the offset operand is an immediate, an SGPR or (CI) a literal."""

    def literal_rule(self, row):
        if row.format == "SMRD" and any(spec.get("kind") == "smem_offset"
                                        for spec in row.operands):
            return lambda fields: (not fields.get("imm")
                                   and fields.get("offset") == codec.LITERAL)
        return None

    def operand_printer(self, row, spec, generation):
        if spec.get("kind") == "smem_offset":
            return lambda inst: self.offset_text(inst, generation)
        if spec.get("kind") == "imm":
            field = spec["field"]
            return lambda inst: self.operand_text_imm(inst.fields[field])
        return super().operand_printer(row, spec, generation)

    def offset_text(self, inst, gen):
        """The offset operand: a fixup's symbol, SGPR (plus immediate), immediate or literal."""
        if inst.symbols and "offset" in inst.symbols:
            return inst.symbols["offset"]
        fields = inst.fields
        if fields.get("soe"):  # GFX9: SGPR offset from soffset, plus the immediate
            text = scalar_text(fields["soffset"], gen, 1)
            if fields.get("imm"):
                text += " offset:" + self.immediate_offset_text(fields["offset"], gen)
            return text
        if fields.get("imm"):
            return self.immediate_offset_text(fields["offset"], gen)
        if inst.literal is not None:
            return f"0x{inst.literal:x}"
        return scalar_text(fields["offset"] & 0x7F, gen, 1)

    def encode_operand(self, ctx, spec, operand):
        if spec.get("kind") == "sdst" and spec.get("field") in ("sdata", "sdst"):
            super().encode_operand(ctx, spec, operand)
            if ctx.fields[spec["field"]] in _NOT_SMEM_DATA:
                ctx.fail("invalid operand for instruction (m0/exec cannot hold scalar"
                         " memory data)", rank=2)
            return None
        if spec.get("kind") != "smem_offset":
            return super().encode_operand(ctx, spec, operand)
        fields = ctx.fields
        if isinstance(operand, Imm) and not operand.is_float:
            value = int(operand.value)
            if ctx.row.format == "SMRD":
                if 0 <= value <= 0xFF:
                    fields["imm"], fields["offset"] = 1, value
                elif ctx.gen == 7 and 0 <= value <= 0xFFFFFFFF:
                    fields["imm"], fields["offset"] = 0, codec.LITERAL
                    ctx.set_literal(value)
                else:
                    ctx.fail("invalid operand for instruction (offset out of range)", rank=2)
            elif ctx.gen >= 9:
                if not -0x100000 <= value <= 0xFFFFF:
                    ctx.fail("expected a 21-bit signed offset", rank=2)
                fields["imm"], fields["offset"] = 1, value & 0x1FFFFF
            else:
                if not 0 <= value <= 0xFFFFF:
                    ctx.fail("expected a 20-bit unsigned offset", rank=2)
                fields["imm"], fields["offset"] = 1, value
            return None
        if isinstance(operand, SymbolRef) and ctx.row.format == "SMRD" and ctx.gen == 7:
            fields["imm"], fields["offset"] = 0, codec.LITERAL
            ctx.set_literal(0, fixup=operand)
            ctx.symbols["offset"] = symbol_text(operand)
            return None
        code = scalar_register_code(ctx, operand, 1)
        if code is None or code >= 128:
            ctx.fail("invalid operand for instruction (expected an offset or SGPR)")
        fields["imm"], fields["offset"] = 0, code
        return None

    def apply_modifier(self, ctx, modifier):
        if modifier.name == "glc" and "glc" in ctx.row.modifiers:
            ctx.fields["glc"] = 1
        else:
            super().apply_modifier(ctx, modifier)

    @staticmethod
    def immediate_offset_text(offset, generation):
        """GFX9's offset is 21-bit signed (printed -0x..), GFX8's 20-bit unsigned."""
        if generation >= 9 and offset & 0x100000:
            return f"-0x{0x200000 - offset:x}"
        return f"0x{offset:x}"

    def operand_text_imm(self, value):
        return str(value) if value <= 64 else f"0x{value:x}"

    def modifier_printer(self, row):
        return self.modifier_texts if "glc" in row.modifiers else None

    def modifier_texts(self, inst):
        return ["glc"] if inst.fields.get("glc") and "glc" in inst.info.modifiers else []


FAMILY = ScalarMemoryFamily("smem", SMEM_FORMATS, (), "smem.json")
FORMATS = FAMILY.FORMATS

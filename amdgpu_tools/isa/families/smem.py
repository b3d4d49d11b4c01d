"""Scalar memory: SMRD (GFX6/7) and SMEM (GFX8/9), incl. scalar stores and s_memtime."""

from .. import operands as codec
from .formats_core import SMEM_FORMATS
from .table_family import TableFamily, scalar_text


class ScalarMemoryFamily(TableFamily):
    """SMRD/SMEM: the offset operand is an immediate, an SGPR or (CI) a literal."""

    def needs_literal(self, row, fields):
        return (row.format == "SMRD" and not fields.get("imm")
                and fields.get("offset") == codec.LITERAL
                and any(spec.get("kind") == "smem_offset" for spec in row.operands))

    def operand_text(self, inst, spec):
        if spec.get("kind") == "smem_offset":
            fields = inst.fields
            if fields.get("imm"):
                return f"0x{fields['offset']:x}"
            if inst.literal is not None:
                return f"0x{inst.literal:x}"
            return scalar_text(fields["offset"] & 0x7F, inst.target.generation, 1)
        return super().operand_text(inst, spec)

    def modifier_texts(self, inst):
        return ["glc"] if inst.fields.get("glc") and "glc" in inst.info.modifiers else []


FAMILY = ScalarMemoryFamily("smem", SMEM_FORMATS, (), "smem.json")
FORMATS = FAMILY.FORMATS

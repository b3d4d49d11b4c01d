"""Encoding hooks of the vector-ALU family: source modifiers, VOP3/VOP3P/DPP/SDWA modifiers.

The inverse of vop.py's printing; mixed into ``VectorFamily``.
"""

from ..asm_operands import Reg
from .table_encoder import encode_source, scalar_register_code

SDWA_SEL = ("BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD")
SDWA_UNUSED = ("UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE")
_SEL = {name: i for i, name in enumerate(SDWA_SEL)}
_UNUSED = {name: i for i, name in enumerate(SDWA_UNUSED)}
_OMOD_VALUE = {("mul", 2): 1, ("mul", 4): 2, ("div", 2): 3}
_DPP_NAMED = {"row_mirror": 0x140, "row_half_mirror": 0x141}
_DPP_ONE = {"wave_shl": 0x130, "wave_rol": 0x134, "wave_shr": 0x138, "wave_ror": 0x13C}
_DPP_ROW = {"row_shl": 0x100, "row_shr": 0x110, "row_ror": 0x120}


def _bits(ctx, modifier, count):
    value = modifier.value
    if not isinstance(value, (tuple, list)) or len(value) != count or \
            any(v not in (0, 1) for v in value):
        ctx.fail(f"invalid {modifier.name} value: expected {count} bits in [..]", rank=3)
    return sum(bit << i for i, bit in enumerate(value))


def _int_value(ctx, modifier, low, high):
    value = modifier.value
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        ctx.fail(f"invalid {modifier.name} value", rank=3)
    return value


class VectorEncoding:
    """Encoding hooks of the vector family (mixed into VectorFamily)."""

    def twin_mods(self, name, field):
        """Source modifiers the op's VOP3 form allows on ``field`` ('neg,abs' or 'sext')."""
        cache = self.__dict__.setdefault("_twin_cache", {})
        if not cache:
            for row in self.rows:
                if row.encoding == "VOP3":
                    for spec in row.operands:
                        if spec.get("field") in ("src0", "src1"):
                            cache[(row.name, spec["field"])] = spec.get("mods", "")
        return cache.get((name, "src1" if field == "vsrc1" else field), "")

    def accepts_source_modifiers(self, ctx, spec, operand):
        row = ctx.row
        field = spec.get("field")
        if field not in ("src0", "src1", "src2", "vsrc1"):
            return False
        if row.encoding == "VOP3":
            mods = spec.get("mods", "")
            if row.format == "VOP3B" and "neg" in mods:
                mods += ",abs"  # llvm-mc accepts |x| here and drops it (no abs field)
        elif row.encoding == "VOP3P":
            return bool(row.get("mix")) and not operand.sext
        elif row.encoding in ("DPP", "SDWA"):
            mods = self.twin_mods(row.name, field)
            if row.encoding == "SDWA" and "neg" not in mods:
                mods += ",sext"
        else:
            return False
        return ((not operand.neg or "neg" in mods or (operand.sext is False and False))
                and (not operand.abs or "abs" in mods)
                and (not operand.sext or "sext" in mods))

    def encode_operand(self, ctx, spec, operand):
        kind = spec.get("kind")
        if kind == "sdwa_src":
            ctx.fields[spec["field"]] = self.encode_sdwa_source(ctx, spec, operand)
        else:
            super().encode_operand(ctx, spec, operand)
        self.set_source_modifiers(ctx, spec, operand)

    def encode_sdwa_source(self, ctx, spec, operand):
        if isinstance(operand, Reg) and operand.file == "v":
            if operand.count != spec.get("width", 1):
                ctx.fail("invalid operand for instruction")
            return operand.index
        if ctx.gen < 9:
            ctx.fail("invalid operand for instruction (SDWA sources are VGPRs on GFX8)")
        code = encode_source(ctx, spec, operand, False, False)
        if code == 248 and spec.get("type") == "i16":
            ctx.fail("invalid operand for instruction (1/(2*pi) is no 16-bit integer"
                     " constant in SDWA)", rank=2)
        ctx.fields["s0" if spec["field"] == "src0" else "s1"] = 1
        return code

    def set_source_modifiers(self, ctx, spec, operand):
        field = spec.get("field")
        index = {"src0": 0, "src1": 1, "src2": 2, "vsrc1": 1}.get(field)
        if index is None:
            return
        encoding = ctx.row.encoding
        fields = ctx.fields
        if encoding == "VOP3":
            if operand.neg or operand.sext:
                fields["neg"] = fields.get("neg", 0) | 1 << index
            if operand.abs and "abs" in ctx.layout.fields:
                fields["abs"] = fields.get("abs", 0) | 1 << index
        elif encoding == "VOP3P":
            if operand.neg:
                fields["neg_lo"] = fields.get("neg_lo", 0) | 1 << index
            if operand.abs:
                fields["neg_hi"] = fields.get("neg_hi", 0) | 1 << index
        elif encoding in ("DPP", "SDWA"):
            prefix = "src0" if index == 0 else "src1"
            if operand.neg:
                fields[prefix + "_neg"] = 1
            if operand.abs:
                fields[prefix + "_abs"] = 1
            if operand.sext:
                fields[prefix + "_sext"] = 1

    def encode_fixed(self, ctx, spec, spec_index, operand):
        if ctx.row.encoding == "SDWA" and spec_index == 0 and "sd" in ctx.layout.fields:
            code = scalar_register_code(ctx, operand, 2)
            if code is None or code >= 128:
                ctx.fail("invalid operand for instruction (expected an SGPR pair or vcc)")
            ctx.fields["sd"] = 1
            ctx.fields["sdst"] = code
            return
        super().encode_fixed(ctx, spec, spec_index, operand)

    def implicit_scalar_reads(self, ctx):
        operands = ctx.row.operands
        reads = [tuple(r) for r in ctx.row.get("implicit_reads", ())]
        if len(operands) >= 4 and operands[-1].get("fixed") == "vcc":
            reads.append((106, 2))
        return reads

    def encode_modifiers(self, ctx, modifiers):
        row = ctx.row
        fields = ctx.fields
        if row.encoding == "VOP3P":
            count = self.row_source_count(row)
            if row.get("op_sel_hi_default", 1):
                fields["op_sel_hi"], fields["op_sel_hi2"] = 3, 1
        elif row.encoding == "DPP":
            fields.setdefault("row_mask", 0xF)
            fields.setdefault("bank_mask", 0xF)
        elif row.encoding == "SDWA":
            has_src1 = any(s.get("field") == "vsrc1" for s in row.operands)
            compare = row.get("base_encoding") == "VOPC"
            names = (() if compare else ("dst_sel",)) + ("src0_sel",) + \
                (("src1_sel",) if has_src1 else ())
            for name in names:
                if name in ctx.layout.fields:
                    fields.setdefault(name, 6)
            if "dst_unused" in ctx.layout.fields and not compare:
                fields.setdefault("dst_unused", 2)
        super().encode_modifiers(ctx, modifiers)
        if row.encoding == "DPP" and "dpp_ctrl" not in fields:
            ctx.index = None
            ctx.fail("too few operands for instruction (missing DPP control)", rank=1)

    def row_source_count(self, row):
        return sum(1 for spec in row.operands
                   if spec.get("field") in ("src0", "src1", "src2", "vsrc1"))

    def apply_modifier(self, ctx, modifier):
        row = ctx.row
        name = modifier.name
        fields = ctx.fields
        mods = row.modifiers
        encoding = row.encoding
        if name == "clamp" and ctx.gen < 8 and encoding == "VOP3" and "omod" not in mods:
            ctx.fail("integer clamping is not supported on this GPU", rank=3)
        elif name == "clamp" and (encoding == "VOP3P" or "clamp" in mods or
                                  (encoding == "SDWA" and "clamp" in ctx.layout.fields)):
            if "clamp" in ctx.layout.fields:
                fields["clamp"] = 1
        elif name in ("mul", "div") and (encoding == "VOP3" and "omod" in mods or
                                         encoding == "SDWA" and "omod" in ctx.layout.fields
                                         and not row.get("no_omod")):
            omod = _OMOD_VALUE.get((name, modifier.value))
            if omod is None:
                ctx.fail(f"invalid {name} value", rank=3)
            fields["omod"] = omod
        elif name == "op_sel" and encoding == "VOP3" and "op_sel" in mods:
            count = self.row_source_count(row)
            bits = _bits(ctx, modifier, count + 1)
            fields["op_sel"] = (bits & ((1 << count) - 1)) | (bits >> count & 1) << 3
        elif name in ("op_sel", "neg_lo", "neg_hi") and encoding == "VOP3P" and \
                not (name != "op_sel" and row.get("mix")):
            fields[name] = _bits(ctx, modifier, self.row_source_count(row))
        elif name == "op_sel_hi" and encoding == "VOP3P":
            count = self.row_source_count(row)
            bits = _bits(ctx, modifier, count)
            fields["op_sel_hi"] = bits & 3
            if count == 3:
                fields["op_sel_hi2"] = bits >> 2 & 1
        elif encoding == "DPP" and self.apply_dpp(ctx, modifier):
            pass
        elif encoding == "SDWA" and self.apply_sdwa(ctx, modifier):
            pass
        else:
            super().apply_modifier(ctx, modifier)

    def apply_dpp(self, ctx, modifier):
        name, value, fields = modifier.name, modifier.value, ctx.fields
        if name == "quad_perm":
            if not isinstance(value, (tuple, list)) or len(value) != 4 or \
                    any(not isinstance(v, int) or not 0 <= v <= 3 for v in value):
                ctx.fail("invalid quad_perm value", rank=3)
            fields["dpp_ctrl"] = sum(v << (2 * i) for i, v in enumerate(value))
        elif name in _DPP_ROW:
            fields["dpp_ctrl"] = _DPP_ROW[name] + _int_value(ctx, modifier, 1, 15)
        elif name in _DPP_ONE:
            _int_value(ctx, modifier, 1, 1)
            fields["dpp_ctrl"] = _DPP_ONE[name]
        elif name in _DPP_NAMED:
            fields["dpp_ctrl"] = _DPP_NAMED[name]
        elif name == "row_bcast":
            if value not in (15, 31):
                ctx.fail("invalid row_bcast value", rank=3)
            fields["dpp_ctrl"] = 0x142 if value == 15 else 0x143
        elif name in ("row_mask", "bank_mask"):
            fields[name] = _int_value(ctx, modifier, 0, 15)
        elif name == "bound_ctrl":
            _int_value(ctx, modifier, 0, 1)
            fields["bound_ctrl"] = 1
        else:
            return False
        return True

    def apply_sdwa(self, ctx, modifier):
        name, value, fields = modifier.name, modifier.value, ctx.fields
        compare = ctx.row.get("base_encoding") == "VOPC"
        if compare and name in ("dst_sel", "dst_unused"):
            return False
        if name in ("dst_sel", "src0_sel", "src1_sel") and name in ctx.layout.fields:
            if name == "src1_sel" and not any(s.get("field") == "vsrc1"
                                              for s in ctx.row.operands):
                return False
            key = str(value).upper()
            if key not in _SEL:
                ctx.fail(f"invalid {name} value {value}", rank=3)
            fields[name] = _SEL[key]
        elif name == "dst_unused" and name in ctx.layout.fields:
            key = str(value).upper()
            if key not in _UNUSED:
                ctx.fail(f"invalid dst_unused value {value}", rank=3)
            fields[name] = _UNUSED[key]
        else:
            return False
        return True


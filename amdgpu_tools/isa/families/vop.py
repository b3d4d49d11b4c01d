"""Vector ALU: VOP1, VOP2, VOPC, VOP3 (a and b), VOP3P, and their DPP/SDWA forms."""

from ...errors import DecodeError
from .. import operands as codec
from .formats_core import VALU_FORMATS, VOP3B_SI, VOP3B_VI
from .table_family import TableFamily, scalar_text
from .vop_encoding import SDWA_SEL, SDWA_UNUSED, VectorEncoding

_SRC_INDEX = {"src0": 0, "src1": 1, "src2": 2, "vsrc1": 1}
_OMOD = {1: "mul:2", 2: "mul:4", 3: "div:2"}
#: per encoding, the fields that hold source modifiers (all zero: no source is wrapped)
_SOURCE_MODIFIER_FIELDS = {
    "VOP3": ("neg", "abs"), "VOP3P": ("neg_lo", "neg_hi"),
    "DPP": ("src0_neg", "src0_abs", "src1_neg", "src1_abs"),
    "SDWA": ("src0_neg", "src0_abs", "src0_sext", "src1_neg", "src1_abs", "src1_sext"),
}


def dpp_ctrl_text(ctrl):
    """The DPP control spelled as llvm prints it (GFX8/9 values)."""
    if ctrl <= 0xFF:
        return "quad_perm:[" + ",".join(str((ctrl >> (2 * i)) & 3) for i in range(4)) + "]"
    for base, name in ((0x100, "row_shl"), (0x110, "row_shr"), (0x120, "row_ror")):
        if base < ctrl <= base + 0xF:
            return f"{name}:{ctrl - base}"
    named = {0x130: "wave_shl:1", 0x134: "wave_rol:1", 0x138: "wave_shr:1", 0x13C: "wave_ror:1",
             0x140: "row_mirror", 0x141: "row_half_mirror", 0x142: "row_bcast:15",
             0x143: "row_bcast:31"}
    return named.get(ctrl)


def _is_constant(code):
    return code is not None and (128 <= code <= 208 or 240 <= code <= 248)


def invalid_dpp_text(ctrl):
    """llvm's comment for a DPP control GFX8/9 do not have (newer ASICs' controls named)."""
    if 0x150 <= ctrl <= 0x15F:  # llvm prints this one after an extra space
        return " /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */"
    if 0x160 <= ctrl <= 0x16F:
        return "/* row_xmask is not supported on ASICs earlier than GFX10 */"
    return "/* Invalid dpp_ctrl value */"


def _bits_list(value, count):
    return "[" + ",".join(str((value >> i) & 1) for i in range(count)) + "]"


class VectorFamily(VectorEncoding, TableFamily):
    """Source modifiers and the trailing modifiers of VOP3/VOP3P/DPP/SDWA."""

    def literal_rule(self, row):
        if row.encoding in ("VOP3", "VOP3P"):
            return None  # GFX6-9 VOP3 has no literal dword (a rule rejects the marker)
        return super().literal_rule(row)

    def decode_rules(self, row, target):
        rules = super().decode_rules(row, target)
        if row.encoding == "SDWA":
            used = {spec.get("field") for spec in row.operands}
            sels = ("src0_sel",) + (("src1_sel",) if "vsrc1" in used else ()) + \
                (("dst_sel",) if row.get("base_encoding") != "VOPC" else ())

            def valid_selectors(fields):
                if any(fields.get(sel, 0) > 6 for sel in sels):
                    raise DecodeError(f"{row.asm}: invalid SDWA selector")
            rules.append(valid_selectors)
        if row.encoding in ("VOP3", "VOP3P"):
            sources = tuple(spec.get("field") for spec in row.operands
                            if spec.get("kind") == "src")

            def no_literal(fields):
                for name in sources:
                    if fields.get(name) == codec.LITERAL:
                        raise DecodeError(f"{row.asm}: VOP3 cannot take a literal on"
                                          f" {target.name}")
            if sources:
                rules.append(no_literal)
        return rules

    def source_count(self, inst):
        return sum(1 for spec in inst.info.operands
                   if spec.get("field") in ("src0", "src1", "src2", "vsrc1"))

    def operand_printer(self, row, spec, generation):
        encoding = row.encoding
        if encoding == "SDWA":
            if spec.get("fixed") == "vcc" and spec is row.operands[0]:
                return lambda inst: self.sdwa_carry_text(inst, generation)
            if spec.get("kind") == "sdwa_src":
                return lambda inst: self.wrap_source(inst, spec, self.sdwa_source_text(inst, spec))
        base = super().operand_printer(row, spec, generation)
        if encoding == "DPP" and spec.get("field") in ("src0", "vsrc1"):
            return lambda inst: self.wrap_source(inst, spec, base(inst))
        return base

    @staticmethod
    def sdwa_carry_text(inst, generation):
        """GFX9 SDWA VOPC writes vcc or (sd=1) the SGPR pair in sdst."""
        if "sd" in inst.fields and inst.fields["sd"]:
            return scalar_text(inst.fields["sdst"], generation, 2)
        return "vcc"

    def sdwa_source_text(self, inst, spec):
        field = spec["field"]
        value = inst.fields[field]
        scalar_bit = "s0" if field == "src0" else "s1"
        width = spec.get("width", 1)
        if inst.fields.get(scalar_bit):
            return codec.operand_text(value, inst.target.generation, width, 32, None,
                                      False, spec.get("type") == "i16")
        return codec.register_text("v", value, width)

    def wraps_source(self, row, spec):
        if _SRC_INDEX.get(spec["field"]) is None:
            return False
        if row.encoding == "VOP3P":
            return bool(row.get("mix"))
        return row.encoding in ("VOP3", "DPP", "SDWA")

    def wrap_source(self, inst, spec, text):
        fields = inst.fields
        index = _SRC_INDEX.get(spec["field"])
        if index is None:
            return text
        encoding = inst.encoding
        for name in _SOURCE_MODIFIER_FIELDS.get(encoding, ()):
            if fields.get(name):
                break
        else:
            return text  # the common case: no source of this instruction has a modifier
        if encoding == "VOP3":
            mods = spec.get("mods", "")
            neg = (fields.get("neg", 0) >> index) & 1
            absolute = (fields.get("abs", 0) >> index) & 1 and "abs" in mods
            if neg and "sext" in mods:
                return f"sext({text})"
            neg = neg and "neg" in mods
        elif encoding == "VOP3P":
            if not inst.info.get("mix"):
                return text
            neg = (fields.get("neg_lo", 0) >> index) & 1
            absolute = (fields.get("neg_hi", 0) >> index) & 1
        elif encoding in ("DPP", "SDWA"):
            prefix = "src0" if index == 0 else "src1"
            neg = fields.get(prefix + "_neg", 0)
            absolute = fields.get(prefix + "_abs", 0)
            mods = self.twin_mods(inst.info.name, spec["field"])
            if encoding == "DPP" and "sext" in mods and "neg" not in mods:
                return f"sext({text})" if neg else text  # an integer source: neg means sext
            if encoding == "SDWA" and fields.get(prefix + "_sext", 0):
                text = f"sext({text})"
        else:
            return text
        if absolute:
            text = f"|{text}|"
        if neg:  # llvm spells a negated bare constant neg(c): "-1.0" is another constant
            scalar = encoding in ("VOP3", "VOP3P") or (
                encoding == "SDWA" and fields.get("s0" if index == 0 else "s1"))
            constant = scalar and not absolute and _is_constant(fields.get(spec["field"]))
            text = f"neg({text})" if constant else "-" + text
        return text

    def modifier_printer(self, row):
        if row.encoding in ("VOP3", "VOP3P", "DPP", "SDWA"):
            return self.modifier_texts
        return None

    def modifier_texts(self, inst):
        encoding = inst.encoding
        fields = inst.fields
        mods = inst.info.modifiers
        out = []
        if encoding == "VOP3":
            if "op_sel" in mods and fields.get("op_sel"):
                out.append("op_sel:" + _bits_list(fields["op_sel"] & 7, self.source_count(inst))
                           [:-1] + f",{fields['op_sel'] >> 3 & 1}]")
            if "clamp" in mods and fields.get("clamp"):
                out.append("clamp")
            if "omod" in mods and fields.get("omod"):
                out.append(_OMOD[fields["omod"]])
        elif encoding == "VOP3P":
            count = self.source_count(inst)
            full = (1 << count) - 1
            if fields.get("op_sel", 0) & full:
                out.append("op_sel:" + _bits_list(fields["op_sel"], count))
            hi = (fields.get("op_sel_hi", 0) | fields.get("op_sel_hi2", 0) << 2) & full
            default = full if inst.info.get("op_sel_hi_default", 1) else 0
            if hi != default:
                out.append("op_sel_hi:" + _bits_list(hi, count))
            if not inst.info.get("mix"):
                if fields.get("neg_lo", 0) & full:
                    out.append("neg_lo:" + _bits_list(fields["neg_lo"], count))
                if fields.get("neg_hi", 0) & full:
                    out.append("neg_hi:" + _bits_list(fields["neg_hi"], count))
            if fields.get("clamp"):
                out.append("clamp")
        elif encoding == "DPP":
            out.append(dpp_ctrl_text(fields["dpp_ctrl"]) or invalid_dpp_text(fields["dpp_ctrl"]))
            out.append(f"row_mask:0x{fields['row_mask']:x}")
            out.append(f"bank_mask:0x{fields['bank_mask']:x}")
            if fields["bound_ctrl"]:
                out.append("bound_ctrl:1")
        elif encoding == "SDWA":
            if fields.get("clamp"):
                out.append("clamp")
            if fields.get("omod"):
                out.append(_OMOD[fields["omod"]])
            if inst.base_encoding != "VOPC":
                out.append(f"dst_sel:{SDWA_SEL[fields['dst_sel']]}")
                # the reserved value 3 reads as UNUSED_PAD in llvm
                out.append(f"dst_unused:{SDWA_UNUSED[fields['dst_unused'] % 3]}")
            out.append(f"src0_sel:{SDWA_SEL[fields['src0_sel']]}")
            if any(spec.get("field") == "vsrc1" for spec in inst.info.operands):
                out.append(f"src1_sel:{SDWA_SEL[fields['src1_sel']]}")
        return out


FAMILY = VectorFamily("vop", VALU_FORMATS, (VOP3B_SI, VOP3B_VI), "vop.json")
FORMATS = FAMILY.FORMATS


"""Parameter interpolation (graphics): VINTRP, and GFX8/9's VOP3 interpolation.

VINTRP is printed as ``<asm> vdst, vsrc|param, attrN.c``: GFX8/9 print the
mnemonic with ``_e32`` (their VOP3 forms are ``_e64``), GFX6/7 without; the
mov form takes an interpolation parameter (p10, p20, p0) instead of a VGPR.
The assembler accepts the mnemonic with or without ``_e32``.

The VOP3 forms (v_interp_*_e64, v_interp_p1ll_f16, v_interp_p1lv_f16,
v_interp_p2[_legacy]_f16) keep the attribute in src0 (attr[5:0], channel
[7:6], ``high`` [8]), the source in src1 (and src2), with neg/abs on src1/src2,
clamp and omod: ``<asm> vdst, [-|]src1[|], attrN.c[, src2] [high] [clamp] [mul:2]``.
"""

import re

from .formats_mem import VINTRP_SI, VINTRP_VI, VOP3_INTERP
from .mem_common import (MemOpInfo, OperandError, OperandSpec, check_modifier_order,
                         check_plain, decode_error,
                         expect_count, expect_vgpr, load_table, modifier_flag, operand_specs,
                         reject_unknown, rows_for, split_operands, table_key, vreg_text)
from ...errors import InstructionError
from ..asm_operands import Encoded, Modifier, Reg

FORMATS = (VINTRP_SI, VINTRP_VI, VOP3_INTERP)
_TABLE = "vintrp.json"
_CACHE = {}
_CHANNELS = "xyzw"
#: llvm-mc refuses attributes above 32 although the 6-bit field decodes up to 63
_MAX_ASM_ATTR = 32
_ATTR = re.compile(r"^attr(\d+)\.([xyzw])$")


def _tables(target):
    document = load_table(_TABLE)
    key = table_key(document, target)
    if key not in _CACHE:
        by_name, by_code = {}, {}
        for row, opcode in rows_for(_TABLE, "vintrp", target)[1]:
            info = MemOpInfo(row.name, row.encoding, opcode, operand_specs(row.operands),
                             {"asm": row.asm})
            by_name[info.name] = by_name[row.asm] = info
            by_code[info.opcode] = info
        for asm, row in document["vop3"].get(key, {}).items():
            info = _vop3_info(asm, row)
            by_name[asm] = info
            by_code[("VOP3", info.opcode)] = info
        _CACHE[key] = (by_name, by_code)
    return _CACHE[key]


def _vop3_info(asm, row):
    """A VOP3 interpolation op; its canonical name drops the _e64 of VINTRP twins."""
    name = asm.removesuffix("_e64")
    twin = "VINTRP" if asm.endswith("_e64") else "VOP3"
    source_kind = "vgpr" if row["source"] == "vgpr" else "param"
    operands = (OperandSpec("vdst", "vgpr", 1, "f32" if "f32" in name else "f16"),
                OperandSpec("src1", source_kind, 1, "f32"),
                OperandSpec("src0", "attr", 1, "f32"))
    if row["src2"]:
        operands += (OperandSpec("src2", "vgpr", 1, "f32"),)
    return _Vop3Info(name, "VOP3", row["opcode"], operands,
                     {"asm": asm, "high": row["high"], "base_encoding": twin},
                     format="VOP3_INTERP")


class _Vop3Info(MemOpInfo):
    """VOP3 interpolation info: its base encoding is VINTRP for the _e64 twins."""

    @property
    def base_encoding(self):
        return self.props["base_encoding"]


def instructions(target):
    return list(_tables(target)[1].values())


def lookup(name, target):
    return _tables(target)[0].get(name)


def _params(target):
    document = load_table(_TABLE)
    names = document["param_names"]
    return names.get(table_key(document, target), names["gfx803"])


def decode_fields(fields, target, value):
    if "src0" in fields:
        return _decode_vop3(fields, target, value)
    info = _tables(target)[1].get(fields["op"])
    if info is None:
        raise decode_error("VINTRP", value, 1, target, f"no VINTRP opcode {fields['op']}")
    return info


def _decode_vop3(fields, target, value):
    info = _tables(target)[1].get(("VOP3", fields["op"]))
    if info is None:
        raise decode_error("VOP3", value, 2, target, f"no interpolation opcode {fields['op']}")
    if fields["src2"] and not info.operand("src2"):
        raise decode_error("VOP3", value, 2, target, f"{info.name} takes no src2")
    if fields["src0"] >> 8 and not info.props["high"]:
        raise decode_error("VOP3", value, 2, target, f"{info.name} has no high half")
    if fields["omod"] and not _takes_omod(info):
        raise decode_error("VOP3", value, 2, target, f"{info.name} takes no output modifier")
    used = 0b110 if info.operand("src2") else 0b010
    if info.operands[1].kind == "param":
        used = 0
    if (fields["neg"] | fields["abs"]) & ~used:
        raise decode_error("VOP3", value, 2, target, f"{info.name}: neg/abs on a missing source")
    for slot in ("src1", "src2"):
        if info.operand(slot) and info.operand(slot).kind == "vgpr" and \
                _source_text(fields[slot], target) is None:
            raise decode_error("VOP3", value, 2, target, f"{info.name}: invalid {slot}")
    return info


def _takes_omod(info):
    """The f16-result ops (v_interp_p2[_legacy]_f16) have no output modifier."""
    return not (info.name.startswith("v_interp_p2") and info.name.endswith("f16"))


def _source_text(code, target):
    """A 9-bit source as llvm-objdump spells it where a VGPR is expected."""
    if code >= 256:
        return f"v{code - 256}"
    document = load_table(_TABLE)
    spellings = document["vop3_source_spellings"]
    return spellings.get(table_key(document, target), spellings["gfx803"])[code]


def _with_modifiers(text_, fields, position):
    if fields["abs"] >> position & 1:
        text_ = f"|{text_}|"
    if fields["neg"] >> position & 1:
        numeric = text_[0].isdigit() or text_[0] == "-"
        text_ = f"neg({text_})" if numeric else f"-{text_}"  # as llvm spells -constant
    return text_


_OMOD = {1: "mul:2", 2: "mul:4", 3: "div:2"}


def _vop3_text(info, fields, target):
    attr = fields["src0"]
    if info.operands[1].kind == "param":
        params = _params(target)
        source = params[fields["src1"]] if fields["src1"] < len(params) else \
            f"invalid_param_{fields['src1']}"
    else:
        source = _source_text(fields["src1"], target)
    parts = [vreg_text(fields["vdst"], 1), _with_modifiers(source, fields, 1),
             f"attr{attr & 0x3F}.{_CHANNELS[attr >> 6 & 3]}"]
    if info.operand("src2"):
        parts.append(_with_modifiers(_source_text(fields["src2"], target), fields, 2))
    out = f"{info.props['asm']} " + ", ".join(parts)
    if attr >> 8 & 1 and info.props["high"]:
        out += " high"
    if fields["clamp"]:
        out += " clamp"
    if fields["omod"]:
        out += " " + _OMOD[fields["omod"]]
    return out


def text(info, fields, target):
    if info.encoding == "VOP3":
        return _vop3_text(info, fields, target)
    if info.operands[1].kind == "param":
        source = _params(target)[fields["vsrc"]]
    else:
        source = vreg_text(fields["vsrc"], 1)
    attr = f"attr{fields['attr']}.{_CHANNELS[fields['attrchan']]}"
    return f"{info.props['asm']} {vreg_text(fields['vdst'], 1)}, {source}, {attr}"


def encode(info, operands, target):
    if info.encoding == "VOP3":
        return _encode_vop3(info, operands, target)
    positional, modifiers = split_operands(operands)
    if set(modifiers) & {"clamp", "mul", "div", "high"}:
        raise OperandError(f"{info.name}: clamp, output modifiers and high need the VOP3"
                           f" form ({info.name}_e64)", min(i for i, _ in modifiers.values()))
    reject_unknown(modifiers, set(), info.name)
    expect_count(positional, 3, info.name, operands)
    (i0, vdst), (i1, source), (i2, attr) = positional
    fields = {"op": info.opcode, "vdst": expect_vgpr(vdst, i0, 1, "vdst")}
    if info.operands[1].kind == "param":
        fields["vsrc"] = _encode_param(source, i1, target)
    else:
        fields["vsrc"] = expect_vgpr(source, i1, 1, "vsrc")
    code = _encode_attr(attr, i2)
    fields["attr"], fields["attrchan"] = code & 0x3F, code >> 6
    return fields


def encode_instruction(mnemonic, operands, target):
    """The encoder's entry point for this family (None: not an interpolation op).

    Like llvm-mc, a VINTRP mnemonic written with VOP3-only features (clamp,
    omod, high, neg/abs) is encoded in its VOP3 (_e64) form.
    """
    info = lookup(mnemonic, target)
    if info is None:
        return None
    if info.encoding == "VINTRP" and not mnemonic.endswith("_e32"):
        vop3_only = [index for index, o in enumerate(operands)
                     if isinstance(o, Modifier) and o.name in ("clamp", "mul", "div", "high")
                     or getattr(o, "neg", False) or getattr(o, "abs", False)]
        info = lookup(f"{info.name}_e64", target) if vop3_only else info
        if info is None:
            raise InstructionError(f"{mnemonic} has no VOP3 form on {target.name}: clamp,"
                                   " output modifiers and neg/abs are not available",
                                   vop3_only[0])
    try:
        fields = encode(info, operands, target)
    except OperandError as error:
        raise InstructionError(str(error), error.operand_index) from None
    fmt = next(f for f in FORMATS if target.generation in f.generations and
               f.name == info.format)
    value = fmt.pack({k: v for k, v in fields.items() if k in fmt.fields})
    data = value.to_bytes(4 * fmt.words, "little")
    return Encoded(data=data, text=text(info, fmt.unpack(value), target), fixups=[])


def _encode_vop3(info, operands, target):
    positional, modifiers = split_operands(operands)
    allowed = {"clamp"} | ({"high"} if info.props["high"] else set())
    allowed |= {"mul", "div"} if _takes_omod(info) else set()
    reject_unknown(modifiers, allowed, info.props["asm"])
    check_modifier_order(modifiers, (("high",), ("clamp",), ("mul", "div")), info.props["asm"])
    expect_count(positional, len(info.operands), info.props["asm"], operands)
    fields = {"op": info.opcode, "neg": 0, "abs": 0, "omod": _encode_omod(modifiers),
              "clamp": int(modifier_flag(modifiers, "clamp"))}
    for spec, (index, operand) in zip(info.operands, positional):
        if spec.slot == "src0":
            fields["src0"] = _encode_attr(operand, index) | \
                int(modifier_flag(modifiers, "high")) << 8
        elif spec.kind == "param":
            fields["src1"] = _encode_param(operand, index, target)
        else:
            position = {"vdst": None, "src1": 1, "src2": 2}[spec.slot]
            if position is None:
                fields["vdst"] = expect_vgpr(operand, index, 1, "vdst")
                continue
            fields["neg"] |= int(getattr(operand, "neg", False)) << position
            fields["abs"] |= int(getattr(operand, "abs", False)) << position
            plain = Reg(operand.file, operand.index, operand.count) if isinstance(operand, Reg) \
                else operand
            fields[spec.slot] = 256 + expect_vgpr(plain, index, 1, spec.slot)
    return fields


_OMOD_CODES = {("mul", 2): 1, ("mul", 4): 2, ("div", 2): 3}


def _encode_omod(modifiers):
    present = [(name, modifiers[name]) for name in ("mul", "div") if name in modifiers]
    if not present:
        return 0
    if len(present) > 1:
        raise OperandError("only one output modifier (mul:2, mul:4, div:2) is allowed",
                           present[1][1][0])
    name, (index, value) = present[0]
    code = _OMOD_CODES.get((name, value))
    if code is None:
        raise OperandError(f"invalid output modifier {name}:{value}", index)
    return code


def _encode_attr(operand, index):
    match = _ATTR.match(_spelled(operand))
    if not match or int(match.group(1)) > _MAX_ASM_ATTR:
        raise OperandError(f"expected an attribute attrN.x|y|z|w (N <= {_MAX_ASM_ATTR}), got"
                           f" '{_spelled(operand)}'", index)
    return int(match.group(1)) | _CHANNELS.index(match.group(2)) << 6


def _encode_param(operand, index, target):
    check_plain(operand, index)
    spelled = _spelled(operand)
    params = _params(target)
    if spelled not in params or spelled.startswith("invalid"):
        raise OperandError(f"expected an interpolation parameter (p10, p20, p0), got"
                           f" '{spelled}'", index)
    return params.index(spelled)


def _spelled(operand):
    """The source text of a name-like operand (the parser hands these over as symbols)."""
    return str(getattr(operand, "expr", getattr(operand, "name", operand))).lower()

"""VINTRP: v_interp_p1_f32, v_interp_p2_f32, v_interp_mov_f32 (graphics).

Printed as ``<asm> vdst, vsrc|param, attrN.c``: GFX8/9 print the mnemonic
with ``_e32`` (their VOP3 forms are ``_e64``), GFX6/7 without; the mov form
takes an interpolation parameter (p10, p20, p0) instead of a VGPR.  The
assembler accepts the mnemonic with or without ``_e32``.
"""

import re

from .formats_mem import VINTRP_SI, VINTRP_VI
from .mem_common import (MemOpInfo, OperandError, OperandSpec, check_plain, decode_error,
                         expect_count, expect_vgpr, load_table, reject_unknown, split_operands,
                         table_key, vreg_text)

FORMATS = (VINTRP_SI, VINTRP_VI)
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
        for entry in document["instructions"]:
            row = entry["targets"].get(key)
            if row is None:
                continue
            source = OperandSpec("vsrc", "vgpr" if row["source"] == "vgpr" else "param", 1, "f32")
            info = MemOpInfo(entry["name"], "VINTRP", row["opcode"],
                             (OperandSpec("vdst", "vgpr", 1, "f32"), source,
                              OperandSpec("attr", "attr", 1, "f32")), {"asm": row["asm"]})
            by_name[info.name] = by_name[row["asm"]] = info
            by_code[info.opcode] = info
        _CACHE[key] = (by_name, by_code)
    return _CACHE[key]


def instructions(target):
    return list(_tables(target)[1].values())


def lookup(name, target):
    return _tables(target)[0].get(name)


def _params(target):
    document = load_table(_TABLE)
    names = document["param_names"]
    return names.get(table_key(document, target), names["gfx803"])


def decode_fields(fields, target, value):
    info = _tables(target)[1].get(fields["op"])
    if info is None:
        raise decode_error("VINTRP", value, 1, target, f"no VINTRP opcode {fields['op']}")
    return info


def text(info, fields, target):
    if info.operands[1].kind == "param":
        source = _params(target)[fields["vsrc"]]
    else:
        source = vreg_text(fields["vsrc"], 1)
    attr = f"attr{fields['attr']}.{_CHANNELS[fields['attrchan']]}"
    return f"{info.props['asm']} {vreg_text(fields['vdst'], 1)}, {source}, {attr}"


def encode(info, operands, target):
    positional, modifiers = split_operands(operands)
    reject_unknown(modifiers, set(), info.name)
    expect_count(positional, 3, info.name, operands)
    (i0, vdst), (i1, source), (i2, attr) = positional
    fields = {"op": info.opcode, "vdst": expect_vgpr(vdst, i0, 1, "vdst")}
    if info.operands[1].kind == "param":
        check_plain(source, i1)
        spelled = _spelled(source)
        params = _params(target)
        if spelled not in params or spelled.startswith("invalid"):
            raise OperandError(f"expected an interpolation parameter (p10, p20, p0),"
                               f" got '{spelled}'", i1)
        fields["vsrc"] = params.index(spelled)
    else:
        fields["vsrc"] = expect_vgpr(source, i1, 1, "vsrc")
    match = _ATTR.match(_spelled(attr))
    if not match or int(match.group(1)) > _MAX_ASM_ATTR:
        raise OperandError(f"expected an attribute attrN.x|y|z|w (N <= {_MAX_ASM_ATTR}), got"
                           f" '{_spelled(attr)}'", i2)
    fields["attr"] = int(match.group(1))
    fields["attrchan"] = _CHANNELS.index(match.group(2))
    return fields


def _spelled(operand):
    """The source text of a name-like operand (the parser hands these over as symbols)."""
    return str(getattr(operand, "expr", getattr(operand, "name", operand))).lower()

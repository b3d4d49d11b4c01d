"""FLAT (GFX7+) and GFX9's GLOBAL and SCRATCH instructions.

One format per generation range; on GFX9 the seg field picks FLAT (0),
SCRATCH (1) or GLOBAL (2) and an instruction is looked up by (seg, opcode).
Syntax facts from llvm-objdump-19:
- FLAT: ``vdst, v[addr:addr+1]`` / ``v[addr:addr+1], data``; GFX9 adds an
  unsigned ``offset:`` (printed from all 13 bits).
- GLOBAL: a 64-bit vaddr with saddr ``off``, or a 32-bit vaddr offset plus an
  SGPR-pair saddr; signed 13-bit ``offset:``.
- SCRATCH: a VGPR address with saddr ``off``, or ``off`` plus an SGPR saddr.
- atomics return the old value in vdst only with glc; nv (and GFX7/8 tfe)
  do not print.
"""

from .formats_mem import FLAT_CI, FLAT_GFX9
from .mem_common import (MemOpInfo, OperandError, OperandSpec, check_modifier_order,
                         indexed_rows,
                         check_plain, decode_error,
                         expect_count, expect_vgpr, modifier_flag, modifier_int, operand_specs,
                         reject_unknown, scalar_source_code, split_operands, vreg_text)
from ..asm_operands import SpecialReg
from ..operands import operand_text

FORMATS = (FLAT_CI, FLAT_GFX9)
_TABLE = "flat.json"
_SADDR_OFF = 0x7F
_SEGMENT = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}
_CACHE = {}


def _info(row, opcode):
    """The row's typed operands without and (atomics) with glc, and its seg."""
    props = {"seg": row.get("seg")}
    if row.get("operands_glc") is not None:
        props["operands_glc"] = operand_specs(row.get("operands_glc"))
    return MemOpInfo(row.name, row.encoding, opcode, operand_specs(row.operands), props,
                     format=row.format)


def _tables(target):
    """({name: info}, {decode key: info}) for ``target``."""
    return indexed_rows(_TABLE, "flat", target, _info, lambda info: (info.props["seg"], info.opcode),
                        _CACHE)


def instructions(target):
    return list(_tables(target)[0].values()) if target.generation >= 7 else []


def lookup(name, target):
    return _tables(target)[0].get(name) if target.generation >= 7 else None


def operands_of(info, fields):
    """The printed register operands for these field values (glc and saddr matter)."""
    specs = info.props.get("operands_glc", info.operands) if fields.get("glc") else info.operands
    if fields.get("lds"):
        specs = tuple(s for s in specs if s.slot != "vdst")
    if info.encoding == "GLOBAL" and fields["saddr"] != _SADDR_OFF:
        specs = tuple(OperandSpec(s.slot, s.kind, 1, "b32") if s.slot == "addr" else s
                      for s in specs)
    return specs


def decode_fields(fields, target, value):
    if target.generation < 7:
        raise decode_error("FLAT", value, 2, target, "no FLAT instructions before GFX7")
    seg = fields.get("seg", 0)
    info = _tables(target)[1].get((seg, fields["op"]))
    if info is None:
        raise decode_error("FLAT", value, 2, target, f"no opcode {fields['op']} in segment {seg}")
    if target.generation >= 9:
        _check_gfx9(info, fields, target, value)
    for spec in operands_of(info, fields):
        if fields[spec.slot] + spec.width > 256:
            raise decode_error(info.encoding, value, 2, target, f"{spec.slot} beyond v255")
    return info


def _check_gfx9(info, fields, target, value):
    if fields["lds"] and (fields["nv"] or not takes_lds(info)):
        raise decode_error(info.encoding, value, 2, target, f"{info.name}: invalid lds form")
    if info.encoding == "FLAT" and fields["saddr"]:
        raise decode_error(info.encoding, value, 2, target, "FLAT has no saddr")
    saddr = fields["saddr"]
    if info.encoding == "GLOBAL" and (saddr == 124 or saddr & 1 and saddr not in (125, 127)):
        raise decode_error(info.encoding, value, 2, target, "saddr is not an SGPR pair")


_LDS_LOADS = ("load_ubyte", "load_sbyte", "load_ushort", "load_sshort", "load_dword")


def takes_lds(info):
    """GLOBAL/SCRATCH loads of up to a dword can write LDS instead of vdst."""
    return info.encoding != "FLAT" and info.name.endswith(_LDS_LOADS)


def text(info, fields, target):
    specs = operands_of(info, fields)
    parts = [vreg_text(fields[s.slot], s.width) for s in specs]
    if info.encoding == "SCRATCH" and fields["saddr"] != _SADDR_OFF:
        parts = ["off" if s.slot == "addr" else p for s, p in zip(specs, parts)]
    if info.encoding in ("GLOBAL", "SCRATCH"):
        parts.append(_saddr_text(info, fields["saddr"], target))
    out = info.name + (" " + ", ".join(parts) if parts else "")
    if target.generation >= 9 and fields["offset"]:
        offset = fields["offset"]
        if info.encoding != "FLAT" and offset & 0x1000:
            offset -= 0x2000
        out += f" offset:{offset}"
    if fields["glc"]:
        out += " glc"
    if fields["slc"]:
        out += " slc"
    if fields.get("lds"):
        out += " lds"
    return out


def _saddr_text(info, code, target):
    if code == _SADDR_OFF:
        return "off"
    if code == 125:
        return "null"
    return operand_text(code, target.generation, 2 if info.encoding == "GLOBAL" else 1)


def encode(info, operands, target):
    """Field values from the assembler's operands (llvm-mc's checks)."""
    positional, modifiers = split_operands(operands)
    fields = {"op": info.opcode}
    glc = modifier_flag(modifiers, "glc")
    lds = target.generation >= 9 and takes_lds(info) and modifier_flag(modifiers, "lds")
    specs = info.props.get("operands_glc", info.operands) if glc else info.operands
    if lds:
        specs = tuple(s for s in specs if s.slot != "vdst")
    saddr_present = info.encoding in ("GLOBAL", "SCRATCH")
    expect_count(positional, len(specs) + int(saddr_present), info.name, operands)
    if saddr_present:
        saddr_index, saddr_operand = positional[-1]
        fields["saddr"] = _encode_saddr(info, saddr_operand, saddr_index, target)
        positional = positional[:-1]
    for spec, (index, operand) in zip(specs, positional):
        fields[spec.slot] = _encode_vgpr_operand(info, spec, operand, index, fields, target)
    allowed = {"glc", "slc"} | ({"offset"} if target.generation >= 9 else set())
    allowed |= {"lds"} if lds else set()
    reject_unknown(modifiers, allowed, info.name)
    check_modifier_order(modifiers, (("offset",), ("glc", "slc"), ("lds",)), info.name)
    fields["glc"] = int(glc)
    fields["slc"] = int(modifier_flag(modifiers, "slc"))
    if target.generation >= 9:
        fields["seg"] = info.props["seg"]
        fields["offset"] = _encode_offset(info, modifiers)
        fields["lds"] = int(lds)
        fields.setdefault("saddr", 0)
    return fields


def _encode_vgpr_operand(info, spec, operand, index, fields, target):
    width = spec.width
    if spec.slot == "addr" and info.encoding == "GLOBAL" and fields["saddr"] != _SADDR_OFF:
        width = 1
    if spec.slot == "addr" and info.encoding == "SCRATCH":
        off = isinstance(operand, SpecialReg) and operand.name == "off"
        if fields["saddr"] != _SADDR_OFF:
            if not off:
                raise OperandError(f"{info.name} with an SGPR saddr takes 'off' as its"
                                   " address", index)
            return 0
        if off:
            raise OperandError(f"{info.name} needs a VGPR address or an SGPR saddr", index)
    return expect_vgpr(operand, index, width, spec.slot)


def _encode_saddr(info, operand, index, target):
    check_plain(operand, index)
    if isinstance(operand, SpecialReg) and operand.name == "off":
        return _SADDR_OFF
    width = 2 if info.encoding == "GLOBAL" else 1
    code = scalar_source_code(operand, target, width)
    if code is None or code > 127 or (width == 2 and code == 124):
        kind = "an SGPR pair s[2n:2n+1]" if width == 2 else "an SGPR"
        raise OperandError(f"saddr of {info.name} must be 'off' or {kind}, got '{operand}'",
                           index)
    return code


def _encode_offset(info, modifiers):
    offset = modifier_int(modifiers, "offset")
    if info.encoding == "FLAT":
        if not 0 <= offset <= 4095:
            raise OperandError(f"{info.name}: expected a 12-bit unsigned offset, got {offset}",
                               modifiers["offset"][0])
        return offset
    if not -4096 <= offset <= 4095:
        raise OperandError(f"{info.name}: expected a 13-bit signed offset, got {offset}",
                           modifiers["offset"][0])
    return offset & 0x1FFF

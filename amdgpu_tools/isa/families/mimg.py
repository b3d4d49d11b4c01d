"""MIMG: image loads, stores, samples, gathers and atomics (graphics).

Printed as ``vdata, vaddr, srsrc[, ssamp] dmask:0xN unorm glc slc r128|a16 tfe
lwe da d16``.  The vdata width llvm-objdump prints follows dmask, d16
packing (per processor) and tfe; the table (``data/mimg.json``, rows of
isa/table.py's ``ops`` schema) records it per dmask value, and the vaddr
width per op.  Encode, decode and print only: no execution.
"""

from .formats_mem import MIMG
from .mem_common import (MemOpInfo, OperandError, check_modifier_order, indexed_rows,
                         decode_error, expect_count,
                         expect_sgpr_range, expect_vgpr, load_table, modifier_flag,
                         modifier_int, operand_specs, reject_unknown, split_operands, table_key,
                         vreg_text)
from ..operands import layout, operand_text

FORMATS = (MIMG,)
_TABLE = "mimg.json"
_CACHE = {}
_FLAGS = ("unorm", "glc", "slc", "r128", "tfe", "lwe", "da", "d16")


def _info(row, opcode):
    """vdata's width in the row is 0 (dmask, d16 and tfe decide it: props
    "vdata"); vaddr's is the printed one (props "vaddr_widths": all accepted)."""
    operands = operand_specs(row.operands)
    vaddr = next(spec.width for spec in operands if spec.slot == "vaddr")
    return MemOpInfo(row.name, row.encoding, opcode, operands,
                     {"vdata": row.get("vdata"), "sampler": row.get("sampler"),
                      "vaddr_widths": tuple(row.get("vaddr_widths", (vaddr,)))})


def _tables(target):
    """({name: info}, {decode key: info}) for ``target``."""
    return indexed_rows(_TABLE, "mimg", target, _info, lambda info: info.opcode, _CACHE)


def instructions(target):
    return list(_tables(target)[0].values())


def lookup(name, target):
    return _tables(target)[0].get(name)


def _a16_name(target):
    return "a16" if target.generation >= 9 else "r128"


def vdata_width(info, dmask, d16, tfe, vdata=0):
    """The printed vdata width, or None when llvm refuses this dmask/d16/tfe.

    llvm-objdump first decodes vdata with the op's base width (that of dmask
    0x1 without d16 and tfe): if that runs past v255 the word is refused; if
    only the widened range would, the base width is printed.
    """
    width = info.props["vdata"][d16 * 32 + tfe * 16 + dmask]
    base = info.props["vdata"][1] or width  # GFX6/7 tables (from llvm-mc) may lack dmask 0x1
    if width is None or vdata + base > 256:
        return None
    return base if vdata + width > 256 else width


def _encode_vaddr(info, operand, index):
    """vaddr: any address width llvm-mc accepts for the op (the bits hold only the start)."""
    widths = info.props["vaddr_widths"]
    count = getattr(operand, "count", None)
    width = count if count in widths else widths[0]
    if count not in widths:
        allowed = ", ".join(str(w) for w in widths)
        raise OperandError(f"vaddr of {info.name} must be {allowed} VGPRs wide, got '{operand}'",
                           index)
    return expect_vgpr(operand, index, width, "vaddr")


def _assembler_vdata_width(info, dmask, d16, tfe, target, index):
    """The vdata width llvm-mc requires: it checks dmask, d16 packing and tfe
    itself (the disassembler's widths for odd dmasks differ)."""
    count = bin(dmask).count("1")
    if info.name.startswith("image_atomic"):
        if dmask not in (0x1, 0x3, 0xF):
            raise OperandError("invalid atomic image dmask", index)
    elif info.name.startswith("image_gather4"):
        if count != 1:
            raise OperandError("invalid image_gather dmask: only one bit must be set", index)
        count = 4
    count = max(count, 1)
    if d16 and _packs_d16(target):
        count = (count + 1) // 2
    return count + tfe


def _packs_d16(target):
    """Whether D16 image data is packed two halves per VGPR (GFX9, gfx810)."""
    load = lookup("image_load", target)
    return load is not None and load.props["vdata"][32 + 15] == 2


def _spelling(target, kind, code):
    """llvm-objdump's spelling of an srsrc/ssamp code (GFX6/7: the core codec)."""
    document = load_table(_TABLE)
    key = table_key(document, target)
    if key in document["operand_spellings"]:
        return document["operand_spellings"][key][kind][code]
    text = operand_text(code * 4, target.generation, 8 if kind == "srsrc" else 4)
    return None if "invalid" in text else text


def decode_fields(fields, target, value):
    info = _tables(target)[1].get(fields["op"])
    if info is None:
        raise decode_error("MIMG", value, 2, target, f"no MIMG opcode {fields['op']}")
    if target.generation < 8 and fields["d16"]:
        raise decode_error("MIMG", value, 2, target, "no d16 before GFX8")
    width = vdata_width(info, fields["dmask"], fields["d16"], fields["tfe"], fields["vdata"])
    if width is None:
        raise decode_error("MIMG", value, 2, target, f"{info.name}: invalid dmask/d16/vdata")
    if fields["vaddr"] + info.operands[1].width > 256:
        raise decode_error("MIMG", value, 2, target, "register range beyond v255")
    if not info.props["sampler"] and fields["ssamp"]:
        raise decode_error("MIMG", value, 2, target, f"{info.name} takes no sampler")
    if _spelling(target, "srsrc", fields["srsrc"]) is None or (
            info.props["sampler"] and _spelling(target, "ssamp", fields["ssamp"]) is None):
        raise decode_error("MIMG", value, 2, target, "invalid resource or sampler registers")
    return info


def text(info, fields, target):
    width = vdata_width(info, fields["dmask"], fields["d16"], fields["tfe"], fields["vdata"])
    parts = [vreg_text(fields["vdata"], width), vreg_text(fields["vaddr"], info.operands[1].width),
             _spelling(target, "srsrc", fields["srsrc"])]
    if info.props["sampler"]:
        parts.append(_spelling(target, "ssamp", fields["ssamp"]))
    out = info.name + " " + ", ".join(parts)
    if fields["dmask"]:
        out += f" dmask:0x{fields['dmask']:x}"
    for flag in _FLAGS:
        if fields.get(flag):
            out += " " + (_a16_name(target) if flag == "r128" else flag)
    return out


def encoded_text(info, fields, target):
    """llvm-mc echoes the vaddr range as written (any accepted width); the rest is canonical."""
    canonical = text(info, {name: fields.get(name, 0) for name in MIMG.fields}, target)
    printed = vreg_text(fields["vaddr"], info.operands[1].width)
    written = vreg_text(fields["vaddr"], fields["vaddr_width"])
    return canonical.replace(f", {printed}, ", f", {written}, ", 1)


def encode(info, operands, target):
    positional, modifiers = split_operands(operands)
    allowed = {"dmask", "unorm", "glc", "slc", "tfe", "lwe", "da", _a16_name(target)}
    allowed |= {"d16"} if target.generation >= 8 else set()
    reject_unknown(modifiers, allowed, info.name)
    check_modifier_order(modifiers, (("dmask",), ("unorm",), ("glc", "slc"), ("r128", "a16"),
                                     ("tfe",), ("lwe",), ("da",), ("d16",)), info.name)
    fields = {"op": info.opcode}
    for flag in _FLAGS:
        name = _a16_name(target) if flag == "r128" else flag
        fields[flag] = int(modifier_flag(modifiers, name)) if name in allowed else 0
    dmask = modifier_int(modifiers, "dmask")
    if not 0 <= dmask <= 15:
        raise OperandError("dmask must be in 0..15", modifiers["dmask"][0])
    fields["dmask"] = dmask
    width = _assembler_vdata_width(info, dmask, fields["d16"], fields["tfe"], target,
                                   modifiers.get("dmask", (None,))[0])
    expect_count(positional, len(info.operands), info.name, operands)
    regs = layout(target.generation)
    for spec, (index, operand) in zip(info.operands, positional):
        if spec.slot == "vdata":
            fields["vdata"] = expect_vgpr(operand, index, width, "vdata")
        elif spec.slot == "vaddr":
            fields["vaddr"] = _encode_vaddr(info, operand, index)
            fields["vaddr_width"] = operand.count
        else:
            code = expect_sgpr_range(operand, index, spec.width, spec.slot, regs.ttmp_base,
                                     regs.sgpr_count, regs.ttmp_count)
            fields[spec.slot] = code // 4
    return fields

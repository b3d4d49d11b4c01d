"""MUBUF and MTBUF: buffer loads, stores and atomics through a V# resource.

Operands as llvm-objdump-19 prints them: ``vdata, vaddr, srsrc, soffset``
followed (MTBUF) by ``format:[...]`` and the modifiers ``idxen offen addr64
offset:N glc slc lds tfe``.  vaddr is ``off`` without offen/idxen/addr64 and
two VGPRs with both idxen and offen or with addr64 (GFX6/7 only); tfe adds a
status dword to vdata; with lds the loaded data goes to LDS and vdata is not
printed.  The table (``data/buffer.json``, rows of isa/table.py's ``ops``
schema) holds opcodes per generation, the typed register operands (vdata
widths: D16 packing differs per processor, hence ``targets``) and which of
lds/tfe each op accepts.
"""

from .formats_mem import MTBUF_SI, MTBUF_VI, MUBUF_SI, MUBUF_VI
from .mem_common import (MemOpInfo, OperandError, check_modifier_order, indexed_rows,
                         check_plain, decode_error,
                         expect_count, expect_sgpr_range, expect_vgpr, load_table,
                         modifier_flag, modifier_int, operand_specs, reject_unknown,
                         scalar_source_code, split_operands, table_key, vreg_text)
from ..asm_operands import SpecialReg
from ..operands import layout, operand_text

FORMATS = (MUBUF_SI, MUBUF_VI, MTBUF_SI, MTBUF_VI)
_TABLE = "buffer.json"
_CACHE = {}
_ADDRESS_FLAGS = ("idxen", "offen", "addr64")
_MODIFIER_ORDER = (("format", "dfmt", "nfmt"), ("idxen",), ("offen",), ("addr64",), ("offset",),
                   ("glc", "slc"), ("lds",), ("tfe",))
_LDS_ONLY_ORDER = (("offset",), ("lds",), ("glc", "slc"))


def _info(row, opcode):
    """The row lists every register operand: [vdata,] vaddr, srsrc, soffset
    (vaddr's width shown is the one-VGPR form; idxen+offen and addr64 take two);
    none for the cache controls."""
    props = {"kind": "none" if not row.operands else
             "lds_only" if row.get("lds_only") else "data",
             "lds": bool(row.get("lds")), "tfe": bool(row.get("tfe"))}
    return MemOpInfo(row.name, row.encoding, opcode, operand_specs(row.operands), props)


def _tables(target):
    """({name: info}, {decode key: info}) for ``target``."""
    return indexed_rows(_TABLE, "buffer", target, _info, lambda info: (info.encoding, info.opcode),
                        _CACHE)


def instructions(target):
    return list(_tables(target)[0].values())


def lookup(name, target):
    return _tables(target)[0].get(name)


def _encoding_of(fields):
    return "MTBUF" if "dfmt" in fields else "MUBUF"


def decode_fields(fields, target, value):
    encoding = _encoding_of(fields)
    info = _tables(target)[1].get((encoding, fields["op"]))
    if info is None:
        raise decode_error(encoding, value, 2, target, f"no {encoding} opcode {fields['op']}")
    why = _invalid_reason(info, fields, target)
    if why:
        raise decode_error(encoding, value, 2, target, f"{info.name}: {why}")
    return info


def _invalid_reason(info, fields, target):
    """What llvm-objdump refuses in otherwise well-formed words."""
    if info.props["kind"] == "none":
        busy = [name for name in ("offen", "idxen", "glc", "lds", "tfe", "addr64")
                if fields.get(name)]  # llvm ignores offset and slc here
        return f"{busy[0]} must be clear" if busy else None
    if info.props["kind"] == "lds_only" and (not fields["lds"] or fields["idxen"] or fields["offen"]):
        return "needs lds and no vaddr"
    if fields.get("lds") and not info.props["lds"]:
        return "no lds form"
    if fields.get("tfe") and (not info.props["tfe"] or fields.get("lds")):
        return "no tfe form"
    if info.operand("vdata") and not fields.get("lds"):
        if fields["vdata"] + vdata_width(info, fields) > 256:
            return "vdata beyond v255"
    if fields["vaddr"] + vaddr_width(fields) > 256:
        return "vaddr beyond v255"
    if _spelling(target, "srsrc", fields["srsrc"]) is None:
        return "invalid srsrc"
    if _spelling(target, "soffset", fields["soffset"]) is None:
        return "invalid soffset"
    return None


def _spelling(target, kind, code):
    """llvm-objdump's spelling of an srsrc/soffset code (None when it refuses it).

    GFX8/9 spellings were recorded from llvm-objdump; GFX6/7 (which it cannot
    disassemble) use the core operand codec.
    """
    document = load_table(_TABLE)
    spellings = document["operand_spellings"]
    key = table_key(document, target)
    if key in spellings:
        return spellings[key][kind][code]
    text = operand_text(code * 4, target.generation, 4) if kind == "srsrc" else \
        operand_text(code, target.generation, 1)
    return None if "invalid" in text else text


def vdata_width(info, fields):
    return info.operand("vdata").width + fields.get("tfe", 0)


def vaddr_width(fields):
    if fields.get("addr64") or (fields["idxen"] and fields["offen"]):
        return 2
    return 1 if fields["idxen"] or fields["offen"] else 0


def text(info, fields, target):
    """The instruction as llvm-objdump-19 prints it."""
    if info.props["kind"] == "none":
        return info.name
    parts = []
    if info.operand("vdata") and not fields.get("lds"):
        parts.append(vreg_text(fields["vdata"], vdata_width(info, fields)))
    if info.props["kind"] != "lds_only":
        width = vaddr_width(fields)
        parts.append(vreg_text(fields["vaddr"], width) if width else "off")
    parts.append(_spelling(target, "srsrc", fields["srsrc"]))
    parts.append(_spelling(target, "soffset", fields["soffset"]))
    out = info.name + " " + ", ".join(parts)
    if info.encoding == "MTBUF":
        out += format_text(fields["dfmt"], fields["nfmt"])
    for flag in _ADDRESS_FLAGS:
        if fields.get(flag):
            out += " " + flag
    if fields["offset"]:
        out += f" offset:{fields['offset']}"
    order = ("lds", "glc", "slc") if info.props["kind"] == "lds_only" else ("glc", "slc", "lds", "tfe")
    for flag in order:
        if fields.get(flag):
            out += " " + flag
    return out


def format_text(dfmt, nfmt):
    """`` format:[...]`` as llvm prints it; the default (8, UNORM) prints nothing."""
    document = load_table(_TABLE)
    parts = []
    if dfmt != 1:
        parts.append(document["dfmt_names"][dfmt])
    if nfmt != 0:
        parts.append(document["nfmt_names"][nfmt])
    return f" format:[{','.join(parts)}]" if parts else ""


# --- encoding ------------------------------------------------------------------------

def encode(info, operands, target):
    """Field values for ``info`` from the assembler's operands."""
    positional, modifiers = split_operands(operands)
    fields = {"op": info.opcode}
    allowed = {"offset", "glc", "slc"}
    if info.props["kind"] == "none":
        expect_count(positional, 0, info.name, operands)
        reject_unknown(modifiers, set(), info.name)
        return fields
    lds = modifier_flag(modifiers, "lds")
    tfe = modifier_flag(modifiers, "tfe")
    _check_lds_tfe(info, lds, tfe, modifiers)
    allowed |= {"lds"} if info.props["lds"] else set()
    allowed |= {"tfe"} if info.props["tfe"] else set()
    if info.props["kind"] != "lds_only":
        allowed |= {"idxen", "offen"} | ({"addr64"} if target.generation <= 7 else set())
    if info.encoding == "MTBUF":
        allowed |= {"format", "dfmt", "nfmt"}
    reject_unknown(modifiers, allowed, info.name)
    check_modifier_order(modifiers, _LDS_ONLY_ORDER if info.props["kind"] == "lds_only"
                         else _MODIFIER_ORDER, info.name)
    address = {flag: modifier_flag(modifiers, flag) for flag in _ADDRESS_FLAGS}
    if address["addr64"] and (address["idxen"] or address["offen"]):
        raise OperandError("addr64 cannot be combined with idxen or offen", modifiers["addr64"][0])
    fields.update({flag: int(value) for flag, value in address.items() if flag != "addr64"})
    if target.generation <= 7:
        fields["addr64"] = int(address["addr64"])
    expected = _expected_operands(info, lds)
    expect_count(positional, len(expected), info.name, operands)
    for slot, (index, operand) in zip(expected, positional):
        if slot == "vdata":
            width = info.operand("vdata").width + int(tfe)
            fields["vdata"] = expect_vgpr(operand, index, width, "vdata")
        elif slot == "vaddr":
            fields["vaddr"] = _encode_vaddr(operand, index, fields)
        elif slot == "srsrc":
            regs = layout(target.generation)
            fields["srsrc"] = expect_sgpr_range(operand, index, 4, "srsrc", regs.ttmp_base,
                                                regs.sgpr_count, regs.ttmp_count) // 4
        else:
            fields["soffset"] = encode_soffset(operand, index, target)
    offset = modifier_int(modifiers, "offset")
    if not 0 <= offset <= 4095:
        raise OperandError(f"{info.name}: expected a 12-bit unsigned offset, got {offset}",
                           modifiers["offset"][0])
    fields["offset"] = offset
    fields["glc"] = int(modifier_flag(modifiers, "glc"))
    fields["slc"] = int(modifier_flag(modifiers, "slc"))
    fields["tfe"] = int(tfe)
    if info.encoding == "MUBUF":
        fields["lds"] = int(lds)
    else:
        fields["dfmt"], fields["nfmt"] = _encode_format(modifiers, target.generation)
    return fields


def _check_lds_tfe(info, lds, tfe, modifiers):
    if tfe and "store" in info.name:
        raise OperandError("TFE modifier has no meaning for store instructions",
                           modifiers["tfe"][0])
    if lds and tfe:
        raise OperandError("lds and tfe cannot be combined", modifiers["tfe"][0])
    if info.props["kind"] == "lds_only" and not lds:
        raise OperandError(f"{info.name} requires the lds modifier", None)


def _expected_operands(info, lds):
    if info.props["kind"] == "lds_only":
        return ("srsrc", "soffset")
    slots = ("vaddr", "srsrc", "soffset")
    return slots if lds or not info.operand("vdata") else ("vdata",) + slots


def _encode_vaddr(operand, index, fields):
    check_plain(operand, index)
    width = vaddr_width(fields)
    if width == 0:
        if isinstance(operand, SpecialReg) and operand.name == "off":
            return 0
        raise OperandError("vaddr must be 'off' without idxen, offen or addr64", index)
    if isinstance(operand, SpecialReg) and operand.name == "off":
        raise OperandError("vaddr cannot be 'off' with idxen, offen or addr64", index)
    return expect_vgpr(operand, index, width, "vaddr")


def encode_soffset(operand, index, target):
    """soffset: an SGPR, a named 32-bit register or an inline constant."""
    check_plain(operand, index)
    code = scalar_source_code(operand, target)
    spelling = None if code is None else _spelling(target, "soffset", code)
    if spelling is None or "/*" in spelling or spelling == "src_lds_direct":
        raise OperandError(f"soffset must be an SGPR, a 32-bit special register or an inline"
                           f" constant, got '{operand}'", index)
    return code


def _encode_format(modifiers, generation):
    """(dfmt, nfmt) from format:[...] / format:N / dfmt:N nfmt:N (default 8, UNORM)."""
    document = load_table(_TABLE)
    dfmt, nfmt = 1, 0
    if "format" in modifiers:
        index, value = modifiers["format"]
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= 127:
                raise OperandError("format must be in 0..127", index)
            return value & 15, value >> 4
        names = value if isinstance(value, tuple) else (value,)
        for name in names:
            name = str(name).upper()
            if name == "BUF_NUM_FORMAT_RESERVED_6" and generation <= 7:
                raise OperandError(f"unsupported format '{name}' on GFX{generation}", index)
            if name in document["dfmt_names"]:
                dfmt = document["dfmt_names"].index(name)
            elif name in document["nfmt_names"]:
                nfmt = document["nfmt_names"].index(name)
            else:
                raise OperandError(f"unknown buffer format '{name}'", index)
        return dfmt, nfmt
    if "dfmt" in modifiers:
        dfmt = modifier_int(modifiers, "dfmt")
        if not 0 <= dfmt <= 15:
            raise OperandError("dfmt must be in 0..15", modifiers["dfmt"][0])
    if "nfmt" in modifiers:
        nfmt = modifier_int(modifiers, "nfmt")
        if not 0 <= nfmt <= 7:
            raise OperandError("nfmt must be in 0..7", modifiers["nfmt"][0])
    return dfmt, nfmt

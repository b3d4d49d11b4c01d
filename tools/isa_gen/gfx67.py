"""GFX6/GFX7 opcodes: assemble mnemonics with llvm-mc-14 and read the opcode back.

LLVM cannot disassemble GFX6/7, so the facts come from its assembler: every
GFX8 row's text (written with the sweep's register conventions: vdst v10,
src0 v20, src1 v30, src2 v40, sdst s10, ssrc0 s20, ssrc1 s30) is assembled for
tahiti (GFX6) and hawaii (GFX7); when accepted, the format and opcode come
from the produced bytes and the operand syntax from llvm's canonical text.
Ops that only exist on GFX6/7 are listed in SI_CI_ONLY with a donor row whose
syntax they share.  Matching rows gain opcodes "6"/"7"; the rest become new
GFX6/7-only rows.
"""

import json

from amdgpu_tools.isa.decoder import find_format
from amdgpu_tools.isa.families import formats_core as F
from amdgpu_tools.isa.fields import words_to_int

from .analyze import canonical_name, split_operands, trace_fields
from .llvm_batch import LLVM_MC_14, assemble_lines

CPUS = {6: "tahiti", 7: "hawaii"}

#: (mnemonic, donor asm[, operand text]): SI/CI spellings and ops that GFX8 renamed, moved
#: to VOP3 or dropped; the donor lends its syntax (or only its annotations, when the
#: operand text is given)
SI_CI_ONLY = [
    ("v_add_i32_e32", "v_add_u32_e32"), ("v_sub_i32_e32", "v_sub_u32_e32"),
    ("v_subrev_i32_e32", "v_subrev_u32_e32"), ("v_add_i32_e64", "v_add_u32_e64"),
    ("v_sub_i32_e64", "v_sub_u32_e64"), ("v_subrev_i32_e64", "v_subrev_u32_e64"),
    ("v_min_legacy_f32_e32", "v_min_f32_e32"), ("v_max_legacy_f32_e32", "v_max_f32_e32"),
    ("v_min_legacy_f32_e64", "v_min_f32_e64"), ("v_max_legacy_f32_e64", "v_max_f32_e64"),
    ("v_lshr_b32_e32", "v_lshrrev_b32_e32"), ("v_ashr_i32_e32", "v_ashrrev_i32_e32"),
    ("v_lshl_b32_e32", "v_lshlrev_b32_e32"), ("v_lshr_b32_e64", "v_lshrrev_b32_e64"),
    ("v_ashr_i32_e64", "v_ashrrev_i32_e64"), ("v_lshl_b32_e64", "v_lshlrev_b32_e64"),
    ("v_mac_legacy_f32_e32", "v_mac_f32_e32"), ("v_mac_legacy_f32_e64", "v_mac_f32_e64"),
    ("v_readlane_b32", "v_readlane_b32"), ("v_writelane_b32", "v_writelane_b32", "v10, s20, s20"),
    ("v_lshl_b64", "v_lshlrev_b64", "v[10:11], v[20:21], v30"),
    ("v_lshr_b64", "v_lshrrev_b64", "v[10:11], v[20:21], v30"),
    ("v_ashr_i64", "v_ashrrev_i64", "v[10:11], v[20:21], v30"),
    ("v_mul_lo_i32", "v_mul_lo_u32"), ("v_mullit_f32", "v_mad_f32"),
    ("v_log_clamp_f32_e32", "v_log_f32_e32"), ("v_rcp_clamp_f32_e32", "v_rcp_f32_e32"),
    ("v_rcp_legacy_f32_e32", "v_rcp_f32_e32"), ("v_rsq_clamp_f32_e32", "v_rsq_f32_e32"),
    ("v_rsq_legacy_f32_e32", "v_rsq_f32_e32"), ("v_rcp_clamp_f64_e32", "v_rcp_f64_e32"),
    ("v_rsq_clamp_f64_e32", "v_rsq_f64_e32"), ("v_log_clamp_f32_e64", "v_log_f32_e64"),
    ("v_rcp_clamp_f32_e64", "v_rcp_f32_e64"), ("v_rcp_legacy_f32_e64", "v_rcp_f32_e64"),
    ("v_rsq_clamp_f32_e64", "v_rsq_f32_e64"), ("v_rsq_legacy_f32_e64", "v_rsq_f32_e64"),
    ("v_rcp_clamp_f64_e64", "v_rcp_f64_e64"), ("v_rsq_clamp_f64_e64", "v_rsq_f64_e64"),
    ("s_dcache_inv_vol", "s_dcache_inv"), ("s_buffer_load_dwordx16", "s_buffer_load_dwordx16"),
]
#: GFX8 VOP3-only ops that are VOP2 (with an _e32 form) on GFX6/7
VOP2_ON_SI = ["v_bfm_b32", "v_bcnt_u32_b32", "v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32",
              "v_ldexp_f32", "v_cvt_pkaccum_u8_f32", "v_cvt_pknorm_i16_f32",
              "v_cvt_pknorm_u16_f32", "v_cvt_pkrtz_f16_f32", "v_cvt_pk_u16_u32",
              "v_cvt_pk_i16_i32"]
_CMPS = ["f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq",
         "nlt", "tru"]
for _kind in ("v_cmps_", "v_cmpsx_"):
    for _cond in _CMPS:
        for _type in ("f32", "f64"):
            for _suffix in ("_e32", "_e64"):
                SI_CI_ONLY.append((f"{_kind}{_cond}_{_type}{_suffix}",
                                   f"v_cmp{'x' if 'x' in _kind else ''}_{_cond}_{_type}{_suffix}"))

_FIELD_TEXT = {"vdst": 10, "src0": 20, "src1": 30, "vsrc1": 30, "src2": 40, "sdst": 10,
               "sdata": 10, "ssrc0": 20, "ssrc1": 30}


def _reg(file, index, width):
    return f"{file}{index}" if width == 1 else f"{file}[{index}:{index + width - 1}]"


def convention_text(row, asm=None):
    """The row's syntax written with the sweep's register numbers (None if unsupported)."""
    parts = []
    for spec in row["operands"]:
        if "fixed" in spec:
            parts.append(spec["fixed"])
            continue
        field, kind, width = spec["field"], spec["kind"], spec.get("width", 1)
        if kind in ("vgpr", "src") and not (kind == "src" and spec.get("file") == "s"):
            parts.append(_reg("v", _FIELD_TEXT[field], width))
        elif kind in ("sdst", "ssrc", "src"):
            index = 0 if (row["format"] == "VOP3B" and field == "sdst") else _FIELD_TEXT[field]
            if width >= 4:
                index -= index % 4
            parts.append(_reg("s", index, width))
        elif kind == "sbase":
            parts.append(_reg("s", 20, width))
        elif kind == "smem_offset":
            parts.append("0x24")
        elif kind == "simm16":
            parts.append("0x1234")
        elif kind in ("label", "imm"):
            parts.append("3")
        elif kind == "imm_hex":
            parts.append("0x3")
        elif kind == "hwreg":
            parts.append("hwreg(HW_REG_MODE, 2, 3)")
        elif kind == "sendmsg":
            parts.append("sendmsg(MSG_GS, GS_OP_EMIT, 1)")
        elif kind == "waitcnt":
            parts.append("vmcnt(1) expcnt(2) lgkmcnt(3)")
        elif kind == "literal":
            parts.append("0x41200000")
        else:
            return None
    name = asm or row["asm"]
    return name + (" " + ", ".join(parts) if parts else "")


def _si_format(words, generation):
    found = find_format(words[0], generation)
    return found[0] if found else None


def _trace(text, fields, fmt_name):
    from .gen_tables import _operand
    mnemonic, tokens, _ = split_operands(text)
    # destinations first (VOP3b's sdst s[0:1] before an unused src2 of 0), src0 before vsrc1
    order = ["vdst", "sdst", "sdata", "src0", "ssrc0", "src1", "vsrc1", "ssrc1", "src2", "sbase"]
    shape = {k: fields[k] for k in order if k in fields}
    extra = []
    if fmt_name == "VOP3B":
        extra = [("sdst", ("s", fields.get("sdst", 0)))]
    traced = trace_fields(tokens, shape, extra)
    encoding = "SMRD" if fmt_name == "SMRD" else fmt_name.replace("VOP3B", "VOP3")
    operands = []
    for token, field, reg in traced:
        if field == "vsrc1" and reg and reg[0] == "s":
            operands.append({"field": "vsrc1", "kind": "ssrc", "width": reg[2]})
            continue
        if field is None and token == "0x41200000":
            operands.append({"field": "literal", "kind": "literal"})
            continue
        if encoding == "SMRD" and field is None and token in ("0x24",):
            operands.append({"field": "offset", "kind": "smem_offset"})
            continue
        operands.append(_operand(encoding, encoding, token, field, reg, shape))
    return mnemonic, operands


def _strip(operands):
    keep = ("field", "kind", "width", "fixed")
    return [{k: v for k, v in spec.items() if k in keep} for spec in operands]


def add_gfx67_opcodes(rows):
    """Add opcodes '6'/'7' to matching rows and append GFX6/7-only rows."""
    gfx8 = [row for row in rows if "8" in row["opcodes"]
            and row["encoding"] in ("SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "VOP1", "VOP2",
                                    "VOPC", "VOP3", "SMEM")]
    by_asm = {}
    for row in gfx8:
        by_asm.setdefault(row["asm"], row)
    candidates = []
    for row in gfx8:
        text = convention_text(row)
        if text:
            candidates.append((row, text))
    for asm, donor_asm, *text in SI_CI_ONLY:
        donor = by_asm.get(donor_asm)
        if donor is not None:
            candidates.append((donor, f"{asm} {text[0]}" if text else
                               convention_text(donor, asm)))
    for name in VOP2_ON_SI:
        donor = by_asm.get(name)
        if donor is None:
            continue
        e32 = dict(donor, operands=[dict(s, field="vsrc1", kind="vgpr") if s.get("field") ==
                                    "src1" else s for s in donor["operands"]])
        candidates.append((e32, convention_text(e32, name + "_e32")))
        candidates.append((donor, convention_text(donor, name + "_e64")))
    new_rows = {}
    for generation, cpu in CPUS.items():
        results = assemble_lines([text for _, text in candidates], cpu, mc=LLVM_MC_14)
        for (donor, _), (data, text) in zip(candidates, results):
            if data is None:
                continue
            words = tuple(int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4))
            fmt = _si_format(words, generation)
            if fmt is None:
                continue
            fmt_name = fmt.name
            if fmt_name == "VOP3" and donor["format"] == "VOP3B":
                fmt_name = "VOP3B"
                fields = F.VOP3B_SI.unpack(words_to_int(words[:2]))
            else:
                fields = fmt.unpack(words_to_int(words[:fmt.words]))
            mnemonic, operands = _trace(text, fields, fmt_name)
            _copy_annotations(donor, operands)
            encoding = "SMRD" if fmt_name == "SMRD" else fmt.encoding
            key = (mnemonic, fmt_name, json.dumps(_strip(operands)))
            same = [row for row in rows if row["asm"] == mnemonic and row["format"] == fmt_name
                    and json.dumps(_strip(row["operands"])) == key[2]]
            if same and encoding != "SMRD":
                same[0]["opcodes"][str(generation)] = fields["op"]
                continue
            row = new_rows.get(key)
            if row is None:
                row = new_rows[key] = {
                    "name": canonical_name(mnemonic), "asm": mnemonic, "encoding": encoding,
                    "format": fmt_name, "opcodes": {}, "operands": operands}
                for extra in ("modifiers", "neg_mask", "abs_mask", "implicit_reads"):
                    if extra in donor and encoding == donor["encoding"]:
                        row[extra] = donor[extra]
                if encoding == "SMRD" and "glc" in row.get("modifiers", []):
                    row.pop("modifiers")
            row["opcodes"][str(generation)] = fields["op"]
    rows.extend(new_rows.values())
    return rows


def _copy_annotations(donor, operands):
    """Types and source restrictions of the donor's operands, field by field."""
    by_field = {spec.get("field"): spec for spec in donor["operands"] if spec.get("field")}
    for spec in operands:
        field = spec.get("field")
        other = by_field.get(field) or (by_field.get("src1") if field == "vsrc1" else None)
        if not other:
            continue
        if field in ("simm16", "sdata", "ssrc1") and "kind" in other and "kind" in spec:
            spec["kind"] = other["kind"]
        for key in ("type", "mods", "file", "no_sgpr", "no_const", "optional"):
            if key in other and key not in spec:
                spec[key] = other[key]

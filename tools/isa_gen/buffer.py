"""Generate amdgpu_tools/isa/data/buffer.json: MUBUF and MTBUF instructions.

Per processor each row gives the opcode and the register operands in printed
order (vdata width; vaddr, srsrc and soffset are implied by the format), and
which of lds / tfe / glc the instruction accepts.  Also recorded: the
spellings of the MTBUF data and numeric formats (format:[...]) and of the
8-bit soffset operand, as llvm-objdump-19 prints them.
Run from the repository root:  python tools/isa_gen/buffer.py
"""

import re

import mem_sweep as sw
from amdgpu_tools.isa.families.formats_mem import MTBUF_SI, MTBUF_VI, MUBUF_SI, MUBUF_VI

FIELDS = {"vaddr": 10, "vdata": 20, "srsrc": 3, "soffset": 30}
SI_TEMPLATES = [f"{v}, v10, s[12:15], s30 offen" for v in
                ("v20", "v[20:21]", "v[20:22]", "v[20:23]")] + [""]


def _row(encoding, opcode, text, accepts):
    name, operands, _ = sw.split_text(text)
    row = {"opcode": opcode, "encoding": encoding}
    if operands and operands[0].startswith("v"):
        row["vdata"] = sw.parse_register(operands[0])[2]
    elif operands:
        row["vdata"] = 0
    else:
        row["operands"] = "none"
    row.update({flag: True for flag in accepts})
    return name, row


def ops_fields(name, row):
    """A swept sub-row as ``ops``-schema fields: the register operands typed
    ([vdata,] vaddr, srsrc, soffset; none for the cache controls; no vaddr for
    the lds-only store; vaddr shown in its one-VGPR form) and the lds, tfe and
    lds_only flags where set."""
    operands = []
    if row.get("operands") != "none":
        if row.get("vdata"):
            operands.append(sw.typed_operand("vdata", row["vdata"], name=name))
        if not row.get("lds_only"):
            operands.append(sw.typed_operand("vaddr", 1, type_="u32"))
        operands += [sw.typed_operand("srsrc", 4, "sgpr", "b128"),
                     sw.typed_operand("soffset", 1, "ssrc", "u32")]
    fields = {"encoding": row["encoding"], "format": row["encoding"], "operands": operands}
    fields.update((flag, True) for flag in ("lds", "tfe", "lds_only") if row.get(flag))
    return fields


def sweep_target(mcpu):
    rows = {}
    for encoding, fmt, opbits, extra in (("MUBUF", MUBUF_VI, 7, {}),
                                         ("MTBUF", MTBUF_VI, 4, {"dfmt": 1})):
        variants = {"plain": {"offen": 1}, "tfe": {"offen": 1, "tfe": 1},
                    "bare": {"vaddr": 0, "vdata": 0}}
        if "lds" in fmt.fields:
            variants["lds"] = {"offen": 1, "lds": 1}
            variants["lds_bare"] = {"vaddr": 0, "vdata": 0, "lds": 1}
        sets = [dict(dict(FIELDS, op=op, **extra), **v) for op in range(1 << opbits)
                for v in variants.values()]
        texts = sw.disassemble_fields(fmt, mcpu, sets)
        for op in range(1 << opbits):
            got = dict(zip(variants, texts[len(variants) * op:len(variants) * (op + 1)]))
            text = got["plain"] or got.get("lds") or got["bare"] or got.get("lds_bare")
            if text is None:
                continue
            accepts = [flag for flag in ("lds", "tfe") if got.get(flag)]
            if got.get("lds_bare") and not got.get("lds"):
                accepts.append("lds")
            if not got["plain"] and not got["bare"] and (got.get("lds") or got.get("lds_bare")):
                accepts.append("lds_only")
            name, row = _row(encoding, op, text, accepts)
            rows[name] = row
    return rows


def probe_si(mcpu, known, known_flags):
    """GFX6/7: assemble each mnemonic with its GFX8 syntax (or generic templates)."""
    rows = {}
    names = sorted(set(sw.candidate_names(["buffer_", "tbuffer_"])) | set(known))
    for name in names:
        encoding = "MTBUF" if name.startswith("tbuffer") else "MUBUF"
        fmt = MTBUF_SI if encoding == "MTBUF" else MUBUF_SI
        templates = ([known[name]] if name in known else []) + SI_TEMPLATES
        found = sw.probe_by_assembly([name], templates, mcpu, fmt)
        if name not in found:
            continue
        text, fields = found[name]
        accepts = []
        operands = sw.split_text(text)[1]
        width = sw.parse_register(operands[0])[2] if operands and operands[0].startswith("v") else 0
        if width:
            tfe = f"{name} {sw.vreg_text(20, width + 1)}, v10, s[12:15], s30 offen tfe"
            # llvm-mc refuses tfe on stores although the hardware bit decodes
            if sw.mem_oracle.assemble([tfe], mcpu)[0][0] or "tfe" in known_flags.get(name, ()):
                accepts.append("tfe")
            lds = f"{name} v10, s[12:15], s30 offen lds"
            if sw.mem_oracle.assemble([lds], mcpu)[0][0]:
                accepts.append("lds")
        rows[name] = _row(encoding, fields["op"], text, accepts)[1]
    return rows


def _known_text(name, row):
    if row.get("operands") == "none":
        return ""
    if row.get("lds_only"):
        return "s[12:15], s30 lds"
    fmt = " format:[BUF_DATA_FORMAT_32]" if row["encoding"] == "MTBUF" else ""
    return f"{sw.vreg_text(20, row['vdata'])}, v10, s[12:15], s30{fmt} offen"


def format_names():
    """dfmt/nfmt spellings, read from tbuffer disassembly on gfx900."""
    sets = [dict(FIELDS, op=0, dfmt=d, nfmt=n) for d in range(16) for n in range(8)]
    texts = sw.disassemble_fields(MTBUF_VI, "gfx900", sets)
    dfmt, nfmt = {}, {}
    for values, text in zip(sets, texts):
        inner = text.split("format:[")[1].rstrip("]") if "format:[" in text else ""
        parts = inner.split(",") if inner else []
        for part in parts:
            if part.startswith("BUF_DATA_FORMAT_"):
                dfmt[values["dfmt"]] = part
            elif part.startswith("BUF_NUM_FORMAT_"):
                nfmt[values["nfmt"]] = part
    dfmt.setdefault(1, "BUF_DATA_FORMAT_8")
    nfmt.setdefault(0, "BUF_NUM_FORMAT_UNORM")
    return [dfmt[i] for i in range(16)], [nfmt[i] for i in range(8)]


def _operands(text):
    """Split printed operands at commas outside llvm's /*...*/ remarks."""
    return re.split(r", (?![^/]*\*/)", text.partition(" ")[2])


def operand_spellings(mcpu):
    """How llvm-objdump prints every soffset code and every srsrc code (None: invalid)."""
    sets = [dict(FIELDS, op=20, soffset=code) for code in range(256)]
    soffset = [_operands(t)[-1] if t else None for t in sw.disassemble_fields(MUBUF_VI, mcpu, sets)]
    sets = [dict(FIELDS, op=20, srsrc=code) for code in range(32)]
    srsrc = [_operands(t)[2] if t else None for t in sw.disassemble_fields(MUBUF_VI, mcpu, sets)]
    return {"soffset": soffset, "srsrc": srsrc}


def main():
    tables = {mcpu: sweep_target(mcpu) for mcpu in sw.DISASSEMBLY_TARGETS}
    known = {name: _known_text(name, row) for name, row in tables["gfx803"].items()}
    known_flags = {name: [f for f in ("tfe", "lds") if row.get(f)] for name, row in tables["gfx803"].items()
                   if "store" in name}
    for mcpu in sw.ASSEMBLY_TARGETS:
        tables[mcpu] = probe_si(mcpu, known, known_flags)
    dfmt, nfmt = format_names()
    sw.write_ops_table("buffer.json", "tools/isa_gen/buffer.py", "buffer", tables, ops_fields,
                       extra={"dfmt_names": dfmt, "nfmt_names": nfmt,
                              "operand_spellings": {mcpu: operand_spellings(mcpu)
                                                    for mcpu in sw.DISASSEMBLY_TARGETS}})


if __name__ == "__main__":
    main()

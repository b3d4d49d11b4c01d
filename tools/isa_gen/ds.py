"""Generate amdgpu_tools/isa/data/ds.json: every DS instruction per processor.

Run from the repository root with the LLVM tools installed:
    python tools/isa_gen/ds.py
"""

import mem_sweep as sw
from amdgpu_tools.isa.families.formats_mem import DS_SI, DS_VI

OPERAND_FIELDS = {"addr": 10, "data0": 20, "data1": 30, "vdst": 40}
TEMPLATES = ["v40, v10, v20, v30", "v[40:41], v10, v20, v30", "v[40:41], v10, v[20:21], v[30:31]",
             "v[40:43], v10, v[20:21], v[30:31]", "v40, v10, v20", "v[40:41], v10, v[20:21]",
             "v10, v20, v30", "v10, v[20:21], v[30:31]", "v10, v20", "v10, v[20:21]",
             "v10, v[20:22]", "v10, v[20:23]", "v40, v10", "v[40:41], v10", "v[40:42], v10",
             "v[40:43], v10", "v10", "v40", ""]


def signature(operands):
    """Operand texts -> [[field, width], ...] using the distinctive register numbers."""
    by_number = {number: name for name, number in OPERAND_FIELDS.items()}
    result = []
    for text in operands:
        file, index, count = sw.parse_register(text)
        result.append([by_number[index], count])
    return result


def ops_fields(name, row):
    """A swept sub-row as ``ops``-schema fields: typed operands (addr a b32
    address, data and vdst as the mnemonic's values), the gds and offset styles."""
    return {"encoding": "DS", "format": "DS",
            "operands": [sw.typed_operand(field, width, name=name,
                                          type_="b32" if field == "addr" else None)
                         for field, width in row["operands"]],
            "gds": row["gds"], "offset": row["offset"]}


def offset_style(modifiers):
    words = " ".join(modifiers)
    if "swizzle" in words:
        return "swizzle"
    if "offset0" in words:
        return "pair"
    if "offset:" in words:
        return "single"
    return "none"


def sweep_vi(mcpu):
    plain = sw.sweep(DS_VI, mcpu, {}, OPERAND_FIELDS, range(256))
    with_gds = sw.sweep(DS_VI, mcpu, {"gds": 1}, OPERAND_FIELDS, range(256))
    rows = {}
    for opcode in sorted(set(plain) | set(with_gds)):
        used, text, _ = (plain.get(opcode) or with_gds[opcode])
        name, operands, _ = sw.split_text(text)
        gds = "required" if opcode not in plain else ("optional" if opcode in with_gds else "never")
        probe = {"op": opcode, "offset0": 1, "offset1": 2, "gds": int(gds == "required")}
        probe.update({field: OPERAND_FIELDS[field] for field in used})
        shown = sw.disassemble_fields(DS_VI, mcpu, [probe])[0]
        style = offset_style(sw.split_text(shown)[2]) if shown else "none"
        rows[name] = {"opcode": opcode, "operands": signature(operands), "gds": gds,
                      "offset": style}
    return rows


def probe_si(mcpu, names, known):
    """GFX6/7: assemble each mnemonic to learn its opcode and operands."""
    rows = {}
    templates = {}
    for name in names:
        templates[name] = ([known[name]] if name in known else []) + TEMPLATES
    for gds_suffix, gds in (("", "optional"), (" gds", "required")):
        pending = [n for n in names if n not in rows]
        lines = {n: [t + gds_suffix for t in templates[n]] for n in pending}
        for name in pending:
            found = sw.probe_by_assembly([name], lines[name], mcpu, DS_SI)
            if name not in found:
                continue
            text, fields = found[name]
            _, operands, _ = sw.split_text(text)
            rows[name] = {"opcode": fields["op"], "operands": signature(operands), "gds": gds}
    for name, row in rows.items():
        base = " ".join(p for p in [name, ", ".join(_operand_texts(row))] if p)
        gds_suffix = " gds" if row["gds"] == "required" else ""
        accepts_gds = sw.mem_oracle.assemble([base + " gds"], mcpu)[0][0] is not None
        accepts_plain = sw.mem_oracle.assemble([base], mcpu)[0][0] is not None
        row["gds"] = ("optional" if accepts_gds and accepts_plain else
                      "required" if accepts_gds else "never")
        pair = sw.mem_oracle.assemble([base + " offset0:1 offset1:2" + gds_suffix], mcpu)[0][0]
        single = sw.mem_oracle.assemble([base + " offset:513" + gds_suffix], mcpu)[0][0]
        row["offset"] = ("pair" if pair else "single" if single else "none")
        if name == "ds_swizzle_b32":
            row["offset"] = "swizzle"
    return rows


def _operand_texts(row):
    texts = []
    for field, width in row["operands"]:
        number = OPERAND_FIELDS[field]
        texts.append(f"v{number}" if width == 1 else f"v[{number}:{number + width - 1}]")
    return texts


def main():
    tables = {}
    for mcpu in sw.DISASSEMBLY_TARGETS:
        tables[mcpu] = sweep_vi(mcpu)
    known = {}
    for rows in tables.values():
        for name, row in rows.items():
            known[name] = ", ".join(_operand_texts(row))
    names = sorted(set(sw.candidate_names(["ds_"])) | set(known))
    for mcpu in sw.ASSEMBLY_TARGETS:
        tables[mcpu] = probe_si(mcpu, names, known)
    sw.write_ops_table("ds.json", "tools/isa_gen/ds.py", "ds", tables, ops_fields)

if __name__ == "__main__":
    main()

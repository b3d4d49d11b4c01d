"""Generate amdgpu_tools/isa/data/flat.json: FLAT, and GFX9's GLOBAL and SCRATCH.

GFX9 selects the instruction set with the seg field (0 FLAT, 1 SCRATCH,
2 GLOBAL).  Per processor each row gives the opcode, seg, the register
operands in printed order without and with glc (atomics return the old value
into vdst only with glc).  GLOBAL/SCRATCH operands are recorded with saddr
'off' (the vaddr width then is 2 for GLOBAL, 1 for SCRATCH).
Run from the repository root:  python tools/isa_gen/flat.py
"""

import mem_sweep as sw
from amdgpu_tools.isa.families.formats_mem import FLAT_CI, FLAT_GFX9

FIELDS = {"addr": 10, "data": 20, "vdst": 40}
SEGMENTS = {0: "FLAT", 1: "SCRATCH", 2: "GLOBAL"}
TEMPLATES = ["v40, v[10:11]", "v[40:41], v[10:11]", "v[40:42], v[10:11]", "v[40:43], v[10:11]",
             "v[10:11], v20", "v[10:11], v[20:21]", "v[10:11], v[20:22]", "v[10:11], v[20:23]"]


def signature(operands):
    by_number = {number: name for name, number in FIELDS.items()}
    result = []
    for text in operands:
        if text == "off":
            continue
        _, index, count = sw.parse_register(text)
        result.append([by_number[index], count])
    return result


def _typed(name, operands):
    return [sw.typed_operand(field, width, name=name,
                             type_=("b64" if width == 2 else "b32") if field == "addr" else None)
            for field, width in operands]


def ops_fields(name, row):
    """A swept sub-row as ``ops``-schema fields: typed operands without and with
    glc (addr a 64-bit address, or 32-bit for SCRATCH), the encoding, and seg
    (0 on the GFX7/8 FLAT format, which has no seg field)."""
    fields = {"encoding": row["encoding"], "format": "FLAT", "operands": _typed(name, row["operands"])}
    if "operands_glc" in row:
        fields["operands_glc"] = _typed(name, row["operands_glc"])
    fields["seg"] = row.get("seg", 0)
    return fields


def sweep_target(mcpu):
    fmt = FLAT_GFX9 if mcpu.startswith("gfx9") else FLAT_CI
    segments = (0, 1, 2) if fmt is FLAT_GFX9 else (0,)
    rows = {}
    for seg in segments:
        base = dict(FIELDS)
        if fmt is FLAT_GFX9:
            base.update(seg=seg, saddr=0x7F if seg else 0)
        sets = [dict(base, op=op, glc=glc) for op in range(128) for glc in (0, 1)]
        texts = sw.disassemble_fields(fmt, mcpu, sets)
        for op in range(128):
            plain, with_glc = texts[2 * op], texts[2 * op + 1]
            if plain is None:
                continue
            name, operands, _ = sw.split_text(plain)
            row = {"opcode": op, "encoding": SEGMENTS[seg], "operands": signature(operands)}
            glc_operands = signature(sw.split_text(with_glc)[1]) if with_glc else row["operands"]
            if glc_operands != row["operands"]:
                row["operands_glc"] = glc_operands
            if fmt is FLAT_GFX9:
                row["seg"] = seg
            rows[name] = row
    return rows


def _texts(operands):
    return ", ".join(sw.vreg_text(FIELDS[slot], width) for slot, width in operands)


def probe_ci(mcpu, known):
    """GFX7 (no disassembler): assemble each GFX8 mnemonic to learn its opcode."""
    rows = {}
    names = sorted(set(sw.candidate_names(["flat_"])) | set(known))
    for name in names:
        generic = [t for t in TEMPLATES if "atomic" not in name or t.startswith("v[10:11]")]
        templates = ([known[name]] if name in known else []) + generic
        found = sw.probe_by_assembly([name], templates, mcpu, FLAT_CI)
        if name not in found:
            continue
        text, fields = found[name]
        row = {"opcode": fields["op"], "encoding": "FLAT",
               "operands": signature(sw.split_text(text)[1])}
        tries = [f"{name} {vdst}, {_texts(row['operands'])} glc" for vdst in ("v40", "v[40:41]")]
        for glc, _ in sw.mem_oracle.assemble(tries, mcpu):
            if glc and signature(sw.split_text(glc)[1]) != row["operands"]:
                row["operands_glc"] = signature(sw.split_text(glc)[1])
        rows[name] = row
    return rows


def main():
    tables = {mcpu: sweep_target(mcpu) for mcpu in sw.DISASSEMBLY_TARGETS}
    known = {name: _texts(row["operands"]) for name, row in tables["gfx803"].items()}
    tables["gfx700"] = probe_ci("gfx700", known)
    sw.write_ops_table("flat.json", "tools/isa_gen/flat.py", "flat", tables, ops_fields)


if __name__ == "__main__":
    main()

"""Generate amdgpu_tools/isa/data/mimg.json: MIMG (image) instructions.

Per processor each row gives the opcode, the vaddr width, whether a sampler
(ssamp) is used, and the printed vdata width for each combination of dmask,
d16 and tfe (index d16 * 32 + tfe * 16 + dmask; llvm derives it with quirks).
Also recorded: how llvm-objdump spells each srsrc and ssamp code, and which
vaddr widths llvm-mc accepts per op (it prints the smallest).
GFX6/7 rows come from assembling the GFX8 syntax with llvm-mc.
Run from the repository root:  python tools/isa_gen/mimg.py
"""

import re

import mem_sweep as sw
from amdgpu_tools.isa.families.formats_mem import MIMG

BASE = {"vaddr": 10, "vdata": 20, "srsrc": 3}


def ops_fields(name, row):
    """A swept sub-row as ``ops``-schema fields: the typed register operands
    (vdata's width 0: it follows dmask, d16 and tfe; ssamp only with a sampler),
    the sampler flag, the vdata widths and the accepted vaddr widths."""
    operands = [sw.typed_operand("vdata", 0, type_="b32"),
                sw.typed_operand("vaddr", row["vaddr"], type_="b32"),
                sw.typed_operand("srsrc", 8, "sgpr", "b32")]
    if row["sampler"]:
        operands.append(sw.typed_operand("ssamp", 4, "sgpr", "b32"))
    fields = {"encoding": "MIMG", "format": "MIMG", "operands": operands,
              "sampler": row["sampler"], "vdata": row["vdata"]}
    if "vaddr_widths" in row:
        fields["vaddr_widths"] = row["vaddr_widths"]
    return fields


def sweep_target(mcpu):
    probes = []
    for op in range(128):
        for ssamp in (0, 5):
            for d16 in (0, 1):
                for tfe in (0, 1):
                    for dmask in range(16):
                        probes.append(dict(BASE, op=op, ssamp=ssamp, d16=d16, tfe=tfe,
                                           dmask=dmask))
    texts = sw.disassemble_fields(MIMG, mcpu, probes)
    rows = {}
    for probe, text in zip(probes, texts):
        if text is None or (probe["ssamp"] == 0 and _uses_sampler(text)):
            continue
        name, operands, _ = sw.split_text(text)
        row = rows.setdefault(name, {"opcode": probe["op"], "vaddr": 0, "sampler": False,
                                     "vdata": [None] * 64})
        row["vaddr"] = sw.parse_register(operands[1])[2]
        row["sampler"] = len(operands) == 4
        index = probe["d16"] * 32 + probe["tfe"] * 16 + probe["dmask"]
        row["vdata"][index] = sw.parse_register(operands[0])[2]
    return rows


def operand_spellings(mcpu):
    """llvm-objdump's spelling of every srsrc and ssamp code (None: refused)."""
    def spell(field, position):
        probes = [dict(dict(BASE, op=32, ssamp=0, dmask=1), **{field: code}) for code in range(32)]
        texts = sw.disassemble_fields(MIMG, mcpu, probes)
        return [re.split(r", (?![^/]*\*/)", t.replace(" dmask:0x1", "").partition(" ")[2])[position]
                if t else None for t in texts]
    return {"srsrc": spell("srsrc", 2), "ssamp": spell("ssamp", 3)}


def _uses_sampler(text):
    return len(sw.split_text(text)[1]) == 4


def probe_si(mcpu, known):
    rows = {}
    for name, row in known.items():
        ssamp = ", s[20:23]" if row["sampler"] else ""
        lines = [f"{name} {sw.vreg_text(20, row['vdata'][dmask] or 1)}, "
                 f"{sw.vreg_text(10, row['vaddr'])}, s[12:19]{ssamp} dmask:0x{dmask:x}"
                 for dmask in range(16)]
        results = sw.mem_oracle.assemble(lines, mcpu)
        for dmask, (text, data) in enumerate(results):
            if text is None:
                continue
            value = int.from_bytes(data, "little")
            entry = rows.setdefault(name, dict(row, opcode=MIMG.unpack(value)["op"],
                                               vdata=[None] * 64))
            entry.pop("vaddr_widths", None)
            width = sw.parse_register(sw.split_text(text)[1][0])[2]
            entry["vdata"][dmask] = width
            entry["vdata"][16 + dmask] = width + 1  # tfe: assumed as on GFX8 (no disassembler)
    return rows


VADDR_WIDTHS = (1, 2, 3, 4, 5, 8, 16)


def accepted_vaddr_widths(mcpu, rows):
    """Which vaddr widths llvm-mc accepts per op (the printed width is the smallest)."""
    lines, keys = [], []
    for name, row in rows.items():
        dmask = next(d for d in (1, 3, 15) if row["vdata"][d] is not None)
        vdata = sw.vreg_text(20, max(1, bin(dmask).count("1")) if "gather4" not in name else 4)
        ssamp = ", s[20:23]" if row["sampler"] else ""
        for width in VADDR_WIDTHS:
            lines.append(f"{name} {vdata}, {sw.vreg_text(40, width)}, s[12:19]{ssamp}"
                         f" dmask:0x{dmask:x}")
            keys.append((name, width))
    for (name, width), (text, _) in zip(keys, sw.mem_oracle.assemble(lines, mcpu)):
        if text is not None:
            rows[name].setdefault("vaddr_widths", []).append(width)


def main():
    tables = {mcpu: sweep_target(mcpu) for mcpu in sw.DISASSEMBLY_TARGETS}
    for mcpu in sw.ASSEMBLY_TARGETS:
        tables[mcpu] = probe_si(mcpu, tables["gfx803"])
    for mcpu, rows in tables.items():
        accepted_vaddr_widths(mcpu, rows)
    spellings = {mcpu: operand_spellings(mcpu) for mcpu in sw.DISASSEMBLY_TARGETS}
    sw.write_ops_table("mimg.json", "tools/isa_gen/mimg.py", "mimg", tables, ops_fields,
                       extra={"operand_spellings": spellings})


if __name__ == "__main__":
    main()

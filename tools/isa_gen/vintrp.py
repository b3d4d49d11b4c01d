"""Generate amdgpu_tools/isa/data/vintrp.json: VINTRP (parameter interpolation).

Per processor: the mnemonic llvm prints for each opcode (GFX8/9 print an
``_e32`` suffix because VOP3 forms exist) and whether its second operand is a
VGPR or an interpolation parameter (p10, p20, p0).
Run from the repository root:  python tools/isa_gen/vintrp.py
"""

import mem_sweep as sw
from amdgpu_tools.isa.families.formats_mem import VINTRP_SI, VINTRP_VI


def sweep_target(mcpu):
    probes = [dict(op=op, vdst=1, vsrc=2, attr=3, attrchan=1) for op in range(4)]
    rows = {}
    for probe, text in zip(probes, sw.disassemble_fields(VINTRP_VI, mcpu, probes)):
        if text:
            name, operands, _ = sw.split_text(text)
            rows[name.removesuffix("_e32")] = {"opcode": probe["op"], "asm": name,
                                               "source": "vgpr" if operands[1] == "v2" else "param"}
    params = [dict(op=2, vdst=1, vsrc=v, attr=3, attrchan=1) for v in range(256)]
    names = [sw.split_text(t)[1][1] if t else None
             for t in sw.disassemble_fields(VINTRP_VI, mcpu, params)]
    return rows, names


def probe_si(mcpu, vi_rows):
    rows = {}
    for name, row in vi_rows.items():
        base = name
        source = "v2" if row["source"] == "vgpr" else "p20"
        text, data = sw.mem_oracle.assemble([f"{base} v1, {source}, attr3.y"], mcpu)[0]
        if text:
            fields = VINTRP_SI.unpack(int.from_bytes(data, "little"))
            rows[base] = dict(row, opcode=fields["op"], asm=text.split()[0])
    return rows


def main():
    tables, params = {}, {}
    for mcpu in sw.DISASSEMBLY_TARGETS:
        tables[mcpu], params[mcpu] = sweep_target(mcpu)
    for mcpu in sw.ASSEMBLY_TARGETS:
        tables[mcpu] = probe_si(mcpu, tables["gfx803"])
    sw.write_table("vintrp.json", "tools/isa_gen/vintrp.py", "VINTRP", tables,
                   extra={"param_names": params})


if __name__ == "__main__":
    main()

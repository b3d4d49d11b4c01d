"""Generate amdgpu_tools/isa/data/vintrp.json: VINTRP (parameter interpolation).

Per processor: the mnemonic llvm prints for each opcode (GFX8/9 print an
``_e32`` suffix because VOP3 forms exist) and whether its second operand is a
VGPR or an interpolation parameter (p10, p20, p0).  GFX8/9 also have VOP3
interpolation ops (``vop3`` rows: opcode, whether src2 is used and whether
``high`` applies), whose 9-bit sources llvm-objdump spells with remarks when
they are not VGPRs (``vop3_source_spellings``).
Run from the repository root:  python tools/isa_gen/vintrp.py
"""

import re

import mem_sweep as sw
from amdgpu_tools.isa.families.formats_mem import VINTRP_SI, VINTRP_VI
from amdgpu_tools.isa.fields import Format


def ops_fields(name, row):
    """A swept sub-row as ``ops``-schema fields: the mnemonic llvm prints and the
    typed operands (the source a VGPR or an interpolation parameter)."""
    source = "vgpr" if row["source"] == "vgpr" else "param"
    return {"asm": row["asm"], "encoding": "VINTRP", "format": "VINTRP",
            "operands": [sw.typed_operand("vdst", 1, type_="f32"),
                         sw.typed_operand("vsrc", 1, source, "f32"),
                         sw.typed_operand("attr", 1, "attr", "f32")]}


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


VOP3 = Format("VOP3", (8, 9), 2, "encoding[31:26]=0b110100 op[25:16] clamp[15] op_sel[14:11]"
              " abs[10:8] vdst[7:0] neg[63:61] omod[60:59] src2[58:50] src1[49:41] src0[40:32]")


def sweep_vop3(mcpu):
    """VOP3 interpolation ops (opcodes 0x270-0x27f) and their source spellings."""
    rows = {}
    probes = [dict(op=op, vdst=1, src0=0x45 | high << 8, src1=0x102, src2=src2)
              for op in range(0x270, 0x280) for src2 in (0, 0x103) for high in (0, 1)]
    for probe, text in zip(probes, sw.disassemble_fields(VOP3, mcpu, probes)):
        if not text or "/*" in text:
            continue
        name, operands, modifiers = sw.split_text(text)
        row = rows.setdefault(name, {"opcode": probe["op"], "src2": False, "high": False,
                                     "source": "vgpr" if operands[1] == "v2" else "param"})
        row["src2"] |= len(operands) == 4
        row["high"] |= "high" in modifiers
    sources = [dict(op=0x270, vdst=1, src0=0x45, src1=code) for code in range(256)]
    spellings = [re.split(r", (?![^/]*\*/)", t.partition(" ")[2])[1] if t else None
                 for t in sw.disassemble_fields(VOP3, mcpu, sources)]
    return rows, spellings


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
    vop3, spellings = {}, {}
    for mcpu in sw.DISASSEMBLY_TARGETS:
        vop3[mcpu], spellings[mcpu] = sweep_vop3(mcpu)
    sw.write_ops_table("vintrp.json", "tools/isa_gen/vintrp.py", "vintrp", tables, ops_fields,
                       extra={"param_names": params, "vop3": vop3,
                              "vop3_source_spellings": spellings})


if __name__ == "__main__":
    main()

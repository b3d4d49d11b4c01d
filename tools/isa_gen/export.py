"""Generate amdgpu_tools/isa/data/export.json: the EXP instruction's targets.

llvm-objdump-19 spells each 6-bit target (mrt0..7, mrtz, null, pos0..3,
param0..31, invalid_target_N); GFX6/7 spellings are checked by assembling
each name with llvm-mc and reading the target back from the bytes.
Run from the repository root:  python tools/isa_gen/export.py
"""

import mem_sweep as sw
from amdgpu_tools.isa.families.formats_mem import EXP_SI, EXP_VI


def target_names(mcpu):
    probes = [dict(en=1, tgt=tgt, vsrc0=7) for tgt in range(64)]
    texts = sw.disassemble_fields(EXP_VI, mcpu, probes)
    return [text.split()[1] if text else None for text in texts]


def probe_si(mcpu, names):
    lines = [f"exp {name} v7, off, off, off" for name in names]
    found = [None] * 64
    for name, (text, data) in zip(names, sw.mem_oracle.assemble(lines, mcpu)):
        if text is not None:
            found[EXP_SI.unpack(int.from_bytes(data, "little"))["tgt"]] = text.split()[1]
    return found


def main():
    names = {mcpu: target_names(mcpu) for mcpu in sw.DISASSEMBLY_TARGETS}
    valid = [n for n in names["gfx803"] if n and not n.startswith("invalid")]
    for mcpu in sw.ASSEMBLY_TARGETS:
        names[mcpu] = probe_si(mcpu, valid)
    sw.write_json(f"{sw.DATA_DIR}/export.json", "tools/isa_gen/export.py",
                  {"format": "EXP", "sweep_targets": list(names), "target_names": names})


if __name__ == "__main__":
    main()

"""Generate the differential corpus tests/isa/data/corpus_<cpu>.txt with llvm-mc.

For every scalar/VALU row available on a processor, operand variants are
written in LLVM syntax (registers at range ends, inline and literal
constants, special registers, modifiers, DPP/SDWA controls, op_sel) plus
suffix-less spellings that make llvm-mc choose the form.  Each line is
assembled by llvm-mc-19; accepted ones are disassembled again.  A line of the
corpus is ``input<TAB>hex bytes<TAB>disassembly`` or ``input<TAB>ERROR<TAB>message``.
The tests replay it without LLVM.
"""

import argparse
import os

from amdgpu_tools.isa.families import families
from amdgpu_tools.isa.targets import get_target

from .llvm_batch import assemble_lines, disassemble_words

HERE = os.path.dirname(__file__)
OUT_DIR = os.path.join(HERE, "..", "..", "tests", "isa", "data")
CORE = ("sop", "smem", "vop")
SRC_VALUES = ["s7", "-16", "64", "0.5", "-4.0", "0.15915494", "0x12345678", "3.14159", "-1.5",
              "vcc_lo", "m0", "exec_hi", "ttmp3", "0x3c00", "src_scc"]
SRC64_VALUES = ["s[6:7]", "-1", "1.0", "0x12345678", "vcc", "exec", "ttmp[4:5]", "3.0",
                "0.15915494309189532"]


def reg(file, index, width):
    return f"{file}{index}" if width == 1 else f"{file}[{index}:{index + width - 1}]"


def default_text(spec, slot, high=False):
    kind = spec.get("kind")
    width = spec.get("width", 1)
    if "fixed" in spec:
        return spec["fixed"]
    if kind in ("vgpr", "sdwa_src") or (kind == "src" and spec.get("file") != "s"):
        return reg("v", 256 - width if high else 1 + 3 * slot, width)
    if kind in ("sdst", "ssrc", "src"):
        if high:
            return reg("s", 102 - width - (102 - width) % min(width, 4), width)
        return reg("s", 4 * (slot + 1) if width > 1 else 1 + 3 * slot, width)
    if kind == "sbase":
        return reg("s", 100 - width if high else 2, width)
    if kind == "smem_offset":
        return "0xfffff" if high else "0x10"
    if kind == "simm16":
        return "0xffff" if high else "0x1234"
    if kind in ("label", "imm"):
        return "65535" if high else "3"
    if kind == "imm_hex":
        return "0xf" if high else "0x3"
    if kind == "hwreg":
        return "hwreg(HW_REG_GPR_ALLOC, 6, 4)" if high else "hwreg(HW_REG_MODE)"
    if kind == "sendmsg":
        return "sendmsg(MSG_GS_DONE, GS_OP_NOP)" if high else "sendmsg(MSG_GS, GS_OP_EMIT, 1)"
    if kind == "waitcnt":
        return "vmcnt(1) expcnt(2) lgkmcnt(3)" if high else "lgkmcnt(0)"
    if kind == "gpr_idx":
        return "gpr_idx(SRC0,DST)" if high else "gpr_idx(SRC1)"
    if kind == "literal":
        return "0x41200000" if high else "1.5"
    return None


def variants(row):
    specs = list(row.operands)
    base = [default_text(s, i) for i, s in enumerate(specs)]
    high = [default_text(s, i, high=True) for i, s in enumerate(specs)]
    out = []
    if None in base:
        return out
    join = lambda ops, mods="": (row.asm + (" " + ", ".join(ops) if ops else "") +
                                 (" " + mods if mods else ""))
    out.append(join(base))
    out.append(join(high))
    for i, spec in enumerate(specs):
        if spec.get("kind") in ("src", "ssrc", "sdwa_src"):
            values = SRC64_VALUES if spec.get("width", 1) == 2 else SRC_VALUES
            for value in values:
                ops = list(base)
                ops[i] = value
                out.append(join(ops))
        if spec.get("kind") == "sdst":
            for value in (["vcc", "exec", "ttmp[2:3]", "s[100:101]"] if spec.get("width") == 2
                          else ["vcc_lo", "m0", "exec_lo", "ttmp5", "s101"]):
                ops = list(base)
                ops[i] = value
                out.append(join(ops))
    enc = row.encoding
    srcs = [i for i, s in enumerate(specs) if s.get("field") in ("src0", "src1", "src2", "vsrc1")]
    if enc == "VOP3":
        for mods in ("clamp", "mul:2", "mul:4", "div:2", "clamp div:2"):
            out.append(join(base, mods))
        if "op_sel" in row.modifiers:
            out.append(join(base, "op_sel:[" + ",".join("1" for _ in srcs) + ",1]"))
            out.append(join(base, "op_sel:[0," + ",".join("1" for _ in srcs[1:]) + ",0]"))
        for i in srcs:
            for wrap in ("-{}", "|{}|", "-|{}|", "sext({})"):
                ops = list(base)
                ops[i] = wrap.format(ops[i])
                out.append(join(ops))
    if enc == "VOP3P":
        n = len(srcs)
        ones, mixed = ",".join("1" for _ in srcs), ",".join(str(k % 2) for k in range(n))
        for mods in (f"op_sel:[{ones}]", f"op_sel_hi:[{mixed}]", f"neg_lo:[{ones}]",
                     f"neg_hi:[{mixed}]", "clamp", f"op_sel:[{mixed}] op_sel_hi:[{ones}]"):
            out.append(join(base, mods))
        for i in srcs:
            for wrap in ("-{}", "|{}|"):
                ops = list(base)
                ops[i] = wrap.format(ops[i])
                out.append(join(ops))
    if enc == "DPP":
        for mods in ("quad_perm:[3,2,1,0] row_mask:0x1 bank_mask:0x2", "row_shl:1",
                     "row_shr:15 bound_ctrl:0", "row_ror:7", "wave_shl:1", "wave_rol:1",
                     "wave_shr:1", "wave_ror:1", "row_mirror", "row_half_mirror",
                     "row_bcast:15", "row_bcast:31 row_mask:0xa"):
            out.append(join(base, mods))
        for i in srcs:
            for wrap in ("-{}", "|{}|"):
                ops = list(base)
                ops[i] = wrap.format(ops[i])
                out.append(join(ops, "quad_perm:[0,1,2,3]"))
    if enc == "SDWA":
        has1 = any(s.get("field") == "vsrc1" for s in specs)
        sels = ["dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:WORD_1",
                "dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_3", "clamp",
                "src0_sel:BYTE_2", "mul:2"]
        if has1:
            sels += ["src1_sel:WORD_0", "dst_sel:DWORD src0_sel:BYTE_0 src1_sel:BYTE_1"]
        if row.base_format == "VOPC":
            sels = [s for s in sels if "dst" not in s]
        for mods in sels:
            out.append(join(base, mods))
        for i in srcs:
            for wrap in ("-{}", "|{}|", "sext({})"):
                ops = list(base)
                ops[i] = wrap.format(ops[i])
                out.append(join(ops))
    if enc in ("SMEM", "SMRD"):
        out.append(join(base, "glc"))
        offset = [i for i, s in enumerate(specs) if s.get("kind") == "smem_offset"]
        for i in offset:
            for value in ("s9", "m0", "0x0", "0xff", "0x100", "-0x100", "0x12345"):
                ops = list(base)
                ops[i] = value
                out.append(join(ops))
    if enc in ("VOP1", "VOP2", "VOPC") and row.asm != row.name:
        out.append(row.name + (" " + ", ".join(base) if base else ""))
        if srcs:
            ops = list(base)
            ops[srcs[0]] = "-" + ops[srcs[0]]
            out.append(row.name + " " + ", ".join(ops))
    return out


class _RowView:
    def __init__(self, row):
        self.row = row
        self.asm, self.name, self.encoding = row.asm, row.name, row.encoding
        self.operands, self.modifiers = row.operands, row.modifiers
        self.base_format = row.format.split("_")[-1]


def corpus_for(cpu):
    target = get_target(cpu)
    lines = []
    for family in families():
        if getattr(family, "name", None) not in CORE:
            continue
        for row in family.instructions(target):
            lines.extend(variants(_RowView(row)))
    lines = list(dict.fromkeys(lines))
    return record(lines, cpu)


def spellings_for(cpu):
    """Hand-written spellings (aliases, waitcnt/hwreg/sendmsg forms, literals, modifiers)
    from tests/isa/data/spellings*.s, recorded with llvm-mc's answers."""
    target = get_target(cpu)
    lines = []
    for name in ["spellings.s"] + (["spellings_gfx9.s"] if target.generation == 9 else []):
        with open(os.path.join(OUT_DIR, name)) as fh:
            lines += [ln.strip() for ln in fh if ln.strip() and not ln.startswith("#")]
    return record(lines, cpu)


def record(lines, cpu):
    target = get_target(cpu)
    mc = "/usr/lib/llvm-14/bin/llvm-mc" if target.generation < 8 else None
    results = assemble_lines(lines, cpu, **({"mc": mc} if mc else {}))
    ok = [(line, data) for line, (data, _) in zip(lines, results) if data is not None]
    words = [tuple(int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4))
             for _, data in ok]
    if target.generation >= 8:
        disasm = disassemble_words(words, cpu)
    else:
        printed = {line: text for line, (data, text) in zip(lines, results) if data is not None}
        disasm = [printed[line] for line, _ in ok]
    dis_of = {line: text for (line, _), text in zip(ok, disasm)}
    out = []
    for line, (data, message) in zip(lines, results):
        if data is None:
            out.append(f"{line}\tERROR\t{message}")
        else:
            out.append(f"{line}\t{data.hex()}\t{dis_of.get(line) or '-'}")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spellings-only", action="store_true")
    parser.add_argument("cpus", nargs="*", default=["gfx600", "gfx700", "gfx803", "gfx900",
                                                    "gfx906"])
    args = parser.parse_args(argv)
    for cpu in args.cpus:
        write(os.path.join(OUT_DIR, f"spellings_{cpu}.txt"), spellings_for(cpu), cpu)
        if not args.spellings_only:
            write(os.path.join(OUT_DIR, f"corpus_{cpu}.txt"), corpus_for(cpu), cpu)
    return 0


def write(path, lines, cpu):
    with open(path, "w") as fh:
        fh.write(f"# generated by tools/isa_gen/gen_corpus.py with llvm-mc ({cpu}), do not edit\n")
        fh.write("\n".join(lines) + "\n")
    print(os.path.basename(path), len(lines), "lines,",
          sum("\tERROR\t" in ln for ln in lines), "errors")


if __name__ == "__main__":
    raise SystemExit(main())

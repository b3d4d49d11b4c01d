"""Sweep opcode fields of the scalar/VALU formats through ``llvm-mc -disassemble``.

For every format, every opcode value is encoded with distinct, recognisable
operand values (vdst=v10, src0=v20, src1=v30, src2=v40, sdst=s10, ssrc0=s20,
ssrc1=s30) so the printed text tells which field feeds which printed operand
and how wide it is.  Variants with modifiers set reveal which modifiers an op
accepts.  The result (``{(target, variant): {opcode: text}}``) feeds
``gen_tables.py``.
"""

from amdgpu_tools.isa.families import formats_core as F

from .llvm_batch import disassemble_words


def _v(n):
    return 256 + n


def _pack(fmt, **fields):
    value = fmt.pack(fields)
    return tuple((value >> (32 * i)) & 0xFFFFFFFF for i in range(fmt.words))


ALL = F.SCALAR_FORMATS + F.SMEM_FORMATS + F.VALU_FORMATS


#: stands for "one bit per source operand the shape uses" in modifier variants
SRC_MASK = 1 << 40


def _with_mask(shape, extra):
    count = sum(1 for name in ("src0", "src1", "src2") if name in shape)
    mask = (1 << count) - 1
    out = dict(shape)
    for name, value in extra.items():
        out[name] = (value & ~SRC_MASK) | mask if value & SRC_MASK else value
    return out


def _src_shapes(count_max, names=("src0", "src1", "src2"), vregs=(20, 30, 40)):
    """Operand shapes to try, most operands first, VGPRs before SGPRs."""
    import itertools
    shapes = []
    for count in range(count_max, -1, -1):
        for files in itertools.product("vs", repeat=count):
            shapes.append({names[i]: (_v(vregs[i]) if f == "v" else vregs[i])
                           for i, f in enumerate(files)})
    return shapes


#: format name -> (format, opcode count, [shapes to try in order], {modifier variant: fields})
def variants(generation):
    vi = generation >= 8
    vop3 = F.VOP3_VI if vi else F.VOP3_SI
    vop3_mods = dict(neg=dict(neg=SRC_MASK), abs=dict(abs=SRC_MASK), clamp=dict(clamp=1),
                     omod=dict(omod=1), neg0=dict(neg=1), abs0=dict(abs=1), neg1=dict(neg=2),
                     abs1=dict(abs=2),
                     sdst=dict(abs=2, **(dict(op_sel=6) if vi else {})))
    if generation == 9:
        vop3_mods["op_sel"] = dict(op_sel=SRC_MASK | 8)
    v = {
        "SOP2": (F.SOP2, 128, [dict(sdst=10, ssrc0=20, ssrc1=30)], {}),
        "SOPK": (F.SOPK, 32, [dict(sdst=10, simm16=0x1234)], dict(ones=dict(sdst=10, simm16=0xFFFF))),
        "SOP1": (F.SOP1, 256, [dict(sdst=10, ssrc0=20), dict(sdst=10), dict(ssrc0=20), {}], {}),
        "SOPC": (F.SOPC, 128, [dict(ssrc0=20, ssrc1=30)], dict(zero=dict(ssrc0=20, ssrc1=0))),
        "SOPP": (F.SOPP, 128, [dict(simm16=0x1234), {}],
                 dict(zero=dict(simm16=0), ones=dict(simm16=0xFFFF))),
        "VOP1": (F.VOP1, 256, [dict(vdst=10, src0=_v(20)), dict(vdst=10, src0=20), {}], {}),
        "VOP2": (F.VOP2, 64, [dict(vdst=10, src0=_v(20), vsrc1=30)], {}),
        "VOPC": (F.VOPC, 256, [dict(src0=_v(20), vsrc1=30)], {}),
        "VOP3": (vop3, 1024 if vi else 512,
                 [dict(vdst=10, **s) for s in _src_shapes(3)] + [{}], vop3_mods),
    }
    if vi:
        smem = F.SMEM_GFX9 if generation == 9 else F.SMEM_GFX8
        v["SMEM"] = (smem, 256, [dict(sdata=10, sbase=10, imm=1, offset=0x24),
                                 dict(sbase=10, imm=1, offset=0x24), dict(sdata=10), {}],
                     dict(glc=dict(glc=1), soffset=dict(imm=0, offset=36)))
        dpp = dict(vdst=10, vsrc1=30, src0=20, dpp_ctrl=0xE4, row_mask=0xF, bank_mask=0xF)
        v["DPP_VOP1"] = (F.DPP_VOP1, 256, [{k: x for k, x in dpp.items() if k != "vsrc1"}], {})
        v["DPP_VOP2"] = (F.DPP_VOP2, 64, [dpp], {})
        v["DPP_VOPC"] = (F.DPP_VOPC, 256, [{k: x for k, x in dpp.items() if k != "vdst"}], {})
        sdwa = dict(vdst=10, vsrc1=30, src0=20, dst_sel=6, src0_sel=6, src1_sel=6)
        g9 = generation == 9
        v["SDWA_VOP1"] = ((F.SDWA_VOP1_GFX9 if g9 else F.SDWA_VOP1_VI), 256,
                          [{k: x for k, x in sdwa.items() if k not in ("vsrc1", "src1_sel")}], {})
        v["SDWA_VOP2"] = ((F.SDWA_VOP2_GFX9 if g9 else F.SDWA_VOP2_VI), 64, [sdwa], {})
        vopc = {k: x for k, x in sdwa.items() if k not in ("vdst", "dst_sel")}
        v["SDWA_VOPC"] = ((F.SDWA_VOPC_GFX9 if g9 else F.SDWA_VOPC_VI), 256, [vopc], {})
    else:
        v["SMRD"] = (F.SMRD, 32, [dict(sdst=10, sbase=10, imm=1, offset=0x24),
                                  dict(sbase=10, imm=1, offset=0x24), dict(sdst=10), {}],
                     dict(soffset=dict(imm=0, offset=36)))
    if generation == 9:
        v["VOP3P"] = (F.VOP3P, 128, [dict(vdst=10, op_sel_hi=3, op_sel_hi2=1, **s)
                                     for s in _src_shapes(3)],
                      dict(op_sel=dict(op_sel=SRC_MASK), op_sel_hi=dict(op_sel_hi=0, op_sel_hi2=0),
                           neg_lo=dict(neg_lo=SRC_MASK), neg_hi=dict(neg_hi=SRC_MASK),
                           clamp=dict(clamp=1)))
    return v


def _base_sweep(mcpu, fmt, count, shapes):
    """``{opcode: {"base": text, "shape": fields}}``: the first shape llvm accepts per opcode."""
    inner = [f for f in ALL if fmt.name in f.refines and fmt.generations & f.generations]
    valid = [op for op in range(count) if not any(f.matches(_pack(fmt, op=op)[0]) for f in inner)]
    rows = {}
    for shape in shapes:
        todo = [op for op in valid if op not in rows]
        for op, text in zip(todo, disassemble_words([_pack(fmt, op=op, **shape) for op in todo],
                                                    mcpu)):
            if text and "/*Invalid" not in text:
                rows[op] = {"base": text, "shape": shape}
    return rows


def sweep_format(mcpu, generation, name):
    """``{opcode: base text}`` of one format's sweep (used by the live table test)."""
    fmt, count, shapes, _ = variants(generation)[name]
    return {op: row["base"] for op, row in _base_sweep(mcpu, fmt, count, shapes).items()}


def sweep(mcpu, generation):
    """``{format: {opcode: {"base": text, "shape": fields, <modifier>: text}}}`` (LLVM 19)."""
    found = {}
    for name, (fmt, count, shapes, mods) in variants(generation).items():
        rows = _base_sweep(mcpu, fmt, count, shapes)
        for mod, extra in mods.items():
            ops = sorted(rows)
            words = [_pack(fmt, op=op, **_with_mask(rows[op]["shape"], extra)) for op in ops]
            for op, text in zip(ops, disassemble_words(words, mcpu)):
                if text and "/*Invalid" not in text:
                    rows[op][mod] = text
        found[name] = rows
    return found


if __name__ == "__main__":
    import json
    import sys
    out = {cpu: sweep(cpu, int(cpu[3])) for cpu in sys.argv[1:]}
    json.dump(out, sys.stdout, indent=1)

"""What each decoded instruction reads, writes and counts: the registers of its
operands (from the ISA table row and the decoded fields) and its implicit ones.

The hazard checker, the live-register view and anything else that reasons about
data flow ask ``effects_of(inst)`` rather than knowing instructions themselves.
Registers are numbered in the operand space of ``isa.operands``: SGPRs, TTMPs,
VCC, M0 and EXEC by their scalar codes (0-127), ``SCC`` as its source code 253,
VGPR n as 256 + n. So a source field's value is already its register number.

An ``Effects`` separates three kinds of write, because the hardware does:

* ``writes``: done when the instruction completes, in program order (ALU,
  SALU, branches);
* ``returns``: written later, when a memory operation returns its data; the
  operation is tracked by the ``counters`` it increments (``vm``, ``lgkm``,
  ``exp``) until an ``s_waitcnt`` waits for it;
* ``partial``: registers written only in part (one lane of ``v_writelane``,
  half a register for SDWA/op_sel/d16 results, a conditional move): the old value
  lives on in the rest, so they are also in ``reads``.

``store_data`` are the VGPRs a store or atomic sends to memory; on GFX6 the
hardware reads them after issue (tracked by EXP_CNT, the manuals' reason for
its "memory write" use). ``indexed`` marks ``s_movrel*``/``v_movrel*``: the
register they really access is the operand plus M0, so ``reads``/``writes`` hold
only the base register and a data-flow user must treat any register from there
on as possibly accessed; it also marks fork and join, whose stack lives in SGPRs
the stack pointer picks.

Which instructions touch SCC, VCC, EXEC and M0 without naming them is stated
once, here, in the implicit-operand sets below (the SALU, branch, VOPC and
memory facts of the GCN3/Vega ISA manuals' instruction descriptions); the
explicit operands come from the table rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import operands as codec
from .families import buffer as buffer_family
from .families import flat as flat_family

SCC = 253
VCC = (106, 107)
M0 = (124,)
EXEC = (126, 127)
VGPR_BASE = codec.VGPR_BASE

#: encodings by the unit that runs them (DPP and SDWA are VALU encodings)
SALU_ENCODINGS = frozenset({"SOP1", "SOP2", "SOPC", "SOPK", "SOPP"})
VALU_ENCODINGS = frozenset({"VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "DPP", "SDWA"})
SMEM_ENCODINGS = frozenset({"SMEM", "SMRD"})
VMEM_ENCODINGS = frozenset({"MUBUF", "MTBUF", "MIMG", "FLAT", "GLOBAL", "SCRATCH"})


def is_valu(inst) -> bool:
    return inst.encoding in VALU_ENCODINGS


def is_vmem(inst) -> bool:
    return inst.encoding in VMEM_ENCODINGS


VM_CNT = "vm"
LGKM_CNT = "lgkm"
EXP_CNT = "exp"


@dataclass(frozen=True)
class Effects:
    """The registers one instruction reads and writes (see the module docstring)."""

    reads: frozenset = frozenset()
    writes: frozenset = frozenset()
    returns: frozenset = frozenset()
    partial: frozenset = frozenset()
    store_data: frozenset = frozenset()
    counters: frozenset = frozenset()
    indexed: bool = False

    @property
    def all_writes(self) -> frozenset:
        """Every register the instruction writes, now or when its data returns."""
        return self.writes | self.returns


def is_vgpr(register: int) -> bool:
    return register >= VGPR_BASE


def register_name(register: int, generation: int = 9) -> str:
    """``v7``, ``s3``, ``vcc_lo``, ``scc``: one register as llvm prints it."""
    if register == SCC:
        return "scc"
    if is_vgpr(register):
        return f"v{register - VGPR_BASE}"
    return codec.operand_text(register, generation, 1)


# --- implicit operands: the one statement of these facts ---------------------
def _names(text):
    return frozenset(text.split())


#: SALU ops that set SCC from their result (all SOPC compares and bit tests too)
SCC_WRITERS = _names("""
    s_add_u32 s_sub_u32 s_add_i32 s_sub_i32 s_addc_u32 s_subb_u32 s_absdiff_i32 s_abs_i32
    s_min_i32 s_min_u32 s_max_i32 s_max_u32
    s_and_b32 s_and_b64 s_or_b32 s_or_b64 s_xor_b32 s_xor_b64 s_andn2_b32 s_andn2_b64
    s_orn2_b32 s_orn2_b64 s_nand_b32 s_nand_b64 s_nor_b32 s_nor_b64 s_xnor_b32 s_xnor_b64
    s_lshl_b32 s_lshl_b64 s_lshr_b32 s_lshr_b64 s_ashr_i32 s_ashr_i64
    s_lshl1_add_u32 s_lshl2_add_u32 s_lshl3_add_u32 s_lshl4_add_u32
    s_bfe_u32 s_bfe_i32 s_bfe_u64 s_bfe_i64
    s_not_b32 s_not_b64 s_wqm_b32 s_wqm_b64 s_quadmask_b32 s_quadmask_b64
    s_bcnt0_i32_b32 s_bcnt0_i32_b64 s_bcnt1_i32_b32 s_bcnt1_i32_b64
    s_and_saveexec_b64 s_or_saveexec_b64 s_xor_saveexec_b64 s_andn2_saveexec_b64
    s_orn2_saveexec_b64 s_nand_saveexec_b64 s_nor_saveexec_b64 s_xnor_saveexec_b64
    s_andn1_saveexec_b64 s_orn1_saveexec_b64 s_andn1_wrexec_b64 s_andn2_wrexec_b64
    s_addk_i32
    s_cmpk_eq_i32 s_cmpk_lg_i32 s_cmpk_gt_i32 s_cmpk_ge_i32 s_cmpk_lt_i32 s_cmpk_le_i32
    s_cmpk_eq_u32 s_cmpk_lg_u32 s_cmpk_gt_u32 s_cmpk_ge_u32 s_cmpk_lt_u32 s_cmpk_le_u32
    s_cmp_eq_i32 s_cmp_lg_i32 s_cmp_gt_i32 s_cmp_ge_i32 s_cmp_lt_i32 s_cmp_le_i32
    s_cmp_eq_u32 s_cmp_lg_u32 s_cmp_gt_u32 s_cmp_ge_u32 s_cmp_lt_u32 s_cmp_le_u32
    s_cmp_eq_u64 s_cmp_lg_u64
    s_bitcmp0_b32 s_bitcmp1_b32 s_bitcmp0_b64 s_bitcmp1_b64
""")

#: ops that read SCC (carry in, select, conditional move, branch)
SCC_READERS = _names("""
    s_addc_u32 s_subb_u32 s_cselect_b32 s_cselect_b64 s_cmov_b32 s_cmov_b64 s_cmovk_i32
    s_cbranch_scc0 s_cbranch_scc1
""")

#: ops that read EXEC besides every vector instruction (which all do)
EXEC_READERS = _names("""
    s_and_saveexec_b64 s_or_saveexec_b64 s_xor_saveexec_b64 s_andn2_saveexec_b64
    s_orn2_saveexec_b64 s_nand_saveexec_b64 s_nor_saveexec_b64 s_xnor_saveexec_b64
    s_andn1_saveexec_b64 s_orn1_saveexec_b64
    s_cbranch_execz s_cbranch_execnz s_cbranch_g_fork s_cbranch_i_fork s_cbranch_join
""")

#: ops that write EXEC without naming it (v_cmpx_* are found by name)
EXEC_WRITERS = _names("""
    s_and_saveexec_b64 s_or_saveexec_b64 s_xor_saveexec_b64 s_andn2_saveexec_b64
    s_orn2_saveexec_b64 s_nand_saveexec_b64 s_nor_saveexec_b64 s_xnor_saveexec_b64
    s_andn1_saveexec_b64 s_orn1_saveexec_b64 s_andn1_wrexec_b64 s_andn2_wrexec_b64
    s_cbranch_g_fork s_cbranch_i_fork s_cbranch_join
""")

#: ops that read VCC without naming it (besides the rows' implicit_reads)
VCC_READERS = _names("s_cbranch_vccz s_cbranch_vccnz")

#: ops that read M0 without naming it (DS ops are decided by generation below)
M0_READERS = _names("""
    s_movrels_b32 s_movrels_b64 s_movreld_b32 s_movreld_b64 s_sendmsg s_sendmsghalt
    s_ttracedata s_set_gpr_idx_idx s_set_gpr_idx_mode
    v_interp_p1_f32 v_interp_p2_f32 v_interp_mov_f32 v_interp_p1ll_f16 v_interp_p1lv_f16
    v_interp_p2_f16 v_interp_p2_legacy_f16
""")

#: ops that write M0 without naming it
M0_WRITERS = _names("s_set_gpr_idx_on s_set_gpr_idx_idx s_set_gpr_idx_mode")

#: scalar ops whose destination field is (also) a source
SDST_READ_ONLY = _names("""
    s_cmpk_eq_i32 s_cmpk_lg_i32 s_cmpk_gt_i32 s_cmpk_ge_i32 s_cmpk_lt_i32 s_cmpk_le_i32
    s_cmpk_eq_u32 s_cmpk_lg_u32 s_cmpk_gt_u32 s_cmpk_ge_u32 s_cmpk_lt_u32 s_cmpk_le_u32
    s_setreg_b32
""")
SDST_READ_WRITE = _names("""
    s_addk_i32 s_mulk_i32 s_cmovk_i32 s_cmov_b32 s_cmov_b64
    s_bitset0_b32 s_bitset0_b64 s_bitset1_b32 s_bitset1_b64
""")

#: indexed register moves (the operand plus M0 is the register accessed)
INDEXED = _names("""
    s_movrels_b32 s_movrels_b64 s_movreld_b32 s_movreld_b64
    v_movrels_b32 v_movreld_b32 v_movrelsd_b32
""")

#: fork and join keep their stack of pending paths in SGPRs chosen by the
#: stack pointer (CSP): which ones is known only while running
SGPR_STACK = _names("s_cbranch_g_fork s_cbranch_i_fork s_cbranch_join")

#: VALU ops whose destination is also their third source (multiply-accumulate)
VDST_ACCUMULATES = _names("""
    v_mac_f32 v_mac_f16 v_mac_legacy_f32 v_fmac_f32 v_fmac_f16 v_dot2c_f32_f16
    v_dot4c_i32_i8
""")

#: scalar messages: LGKM_CNT counts them until the message is sent
LGKM_MESSAGES = _names("s_sendmsg s_sendmsghalt")


# --- operand registers -------------------------------------------------------
def _span(code, width):
    """The registers of an operand code ``width`` dwords wide (none for constants)."""
    width = width or 1
    if code == SCC:
        return (SCC,)
    if code in (251,):            # src_vccz
        return VCC
    if code in (252,):            # src_execz
        return EXEC
    if code == 254:               # src_lds_direct reads LDS at M0
        return M0
    if code >= VGPR_BASE:
        return tuple(range(code, code + width))
    if code < 128:
        return tuple(range(code, min(code + width, 128)))
    return ()


def _vgprs(first, width):
    return tuple(range(VGPR_BASE + first, VGPR_BASE + first + max(width, 1)))


class _Builder:
    """Collects one instruction's effects."""

    def __init__(self):
        self.reads, self.writes, self.returns = set(), set(), set()
        self.partial, self.store_data, self.counters = set(), set(), set()
        self.indexed = False

    def effects(self) -> Effects:
        self.reads |= self.partial
        return Effects(frozenset(self.reads), frozenset(self.writes), frozenset(self.returns),
                       frozenset(self.partial), frozenset(self.store_data),
                       frozenset(self.counters), self.indexed)


def effects_of(inst) -> Effects:
    """The ``Effects`` of a decoded ``isa.instruction.Instruction``."""
    encoding = inst.base_encoding or inst.encoding
    handler = _BY_ENCODING.get(inst.encoding) or _BY_ENCODING.get(encoding)
    b = _Builder()
    if handler is not None:
        handler(inst, b)
    return b.effects()


# --- scalar ALU and program control ------------------------------------------
def _scalar(inst, b):
    name = inst.op
    for spec in inst.info.operands:
        field = spec.get("field")
        kind = spec.get("kind")
        if kind not in ("sdst", "ssrc") or field not in inst.fields:
            continue
        registers = _span(inst.fields[field], spec.get("width"))
        if kind == "ssrc":
            b.reads.update(registers)
        elif name in SDST_READ_ONLY:
            b.reads.update(registers)
        elif name in SDST_READ_WRITE:
            b.writes.update(registers)
            b.partial.update(registers)
        else:
            b.writes.update(registers)
    _implicit(name, b)
    if name in LGKM_MESSAGES:
        b.counters.add(LGKM_CNT)


#: the implicit operands above as (ops, side of the effects, registers)
_IMPLICIT = ((SCC_WRITERS, "writes", (SCC,)), (SCC_READERS, "reads", (SCC,)),
             (EXEC_READERS, "reads", EXEC), (EXEC_WRITERS, "writes", EXEC),
             (VCC_READERS, "reads", VCC), (M0_READERS, "reads", M0),
             (M0_WRITERS, "writes", M0), (INDEXED, "reads", M0))


def _implicit(name, b):
    for names, side, registers in _IMPLICIT:
        if name in names:
            getattr(b, side).update(registers)
    if name in INDEXED or name in SGPR_STACK:
        b.indexed = True


# --- vector ALU ----------------------------------------------------------------
_SOURCE_FIELDS = ("src0", "src1", "src2", "vsrc1")


def _vector(inst, b):
    name, fields, info = inst.op, inst.fields, inst.info
    seen_source = False
    for spec in info.operands:
        field = spec.get("field")
        if spec.get("fixed") == "vcc":
            _fixed_vcc(inst, b, seen_source)
            continue
        if field is None or field not in fields:
            continue
        kind = spec.get("kind")
        width = spec.get("width", 1)
        if field in _SOURCE_FIELDS or kind in ("src", "ssrc", "sdwa_src"):
            seen_source = True
            b.reads.update(_source_registers(inst, spec, kind, fields[field], width))
        elif kind == "vgpr":
            b.writes.update(_vgprs(fields[field], width))
        elif kind == "sdst":
            b.writes.update(_span(fields[field], width))
    b.reads.update(EXEC)
    for code, count in info.get("implicit_reads", ()) or ():
        b.reads.update(range(code, code + count))
    if name.startswith("v_cmpx_"):
        b.writes.update(EXEC)
    if name in VDST_ACCUMULATES or _writes_part_of_vdst(inst):
        b.partial.update(r for r in b.writes if is_vgpr(r))
    if name == "v_writelane_b32":
        b.partial.update(b.writes)
    _implicit(name, b)


def _fixed_vcc(inst, b, seen_source):
    """The ``vcc`` written in the text: a carry/compare result before the sources,
    a carry in after them (GFX9 SDWA compares may name another SGPR pair)."""
    if not seen_source:
        fields = inst.fields
        if inst.encoding == "SDWA" and fields.get("sd"):
            b.writes.update(_span(fields["sdst"], 2))
        else:
            b.writes.update(VCC)
    else:
        b.reads.update(VCC)


def _source_registers(inst, spec, kind, value, width):
    if kind == "vgpr":
        return _vgprs(value, width)
    if kind == "sdwa_src":
        scalar_bit = "s0" if spec["field"] == "src0" else "s1"
        if inst.fields.get(scalar_bit):
            return _span(value, width)
        return _vgprs(value, width)
    return _span(value, width)


def _dpp_leaves_lanes(fields):
    """DPP controls whose source lane can be out of range (row/wave shifts, row
    broadcasts): without BOUND_CTRL those lanes keep the destination's old value."""
    control = fields.get("dpp_ctrl", 0)
    return 0x101 <= control <= 0x11F or control in (0x130, 0x138, 0x142, 0x143)


def _writes_part_of_vdst(inst):
    """SDWA with a sub-dword dst_sel kept by dst_unused=PRESERVE, DPP rows or banks
    masked off or a shift without BOUND_CTRL (the old value stays in those lanes),
    GFX9 op_sel[3] writing the high half: the rest of the destination lives on."""
    fields = inst.fields
    if inst.encoding == "SDWA":
        return fields.get("dst_sel", 6) != 6 and fields.get("dst_unused", 0) == 2
    if inst.encoding == "DPP":
        masked = fields.get("row_mask", 0xF) != 0xF or fields.get("bank_mask", 0xF) != 0xF
        return masked or (not fields.get("bound_ctrl") and _dpp_leaves_lanes(fields))
    if inst.encoding == "VOP3" and (fields.get("op_sel", 0) >> 3) & 1:
        return True
    return False


# --- scalar memory ---------------------------------------------------------------
_SMEM_RETURNING = ("s_load_", "s_buffer_load_", "s_scratch_load_", "s_memtime",
                   "s_memrealtime")


def _scalar_memory(inst, b):
    name, fields = inst.op, inst.fields
    b.counters.add(LGKM_CNT)
    for spec in inst.info.operands:
        field, kind = spec.get("field"), spec.get("kind")
        if kind == "sbase":
            b.reads.update(_span(fields[field] * 2, spec.get("width", 2)))
        elif kind == "smem_offset":
            b.reads.update(_smem_offset_registers(inst))
        elif kind == "sdst":
            registers = _span(fields[field], spec.get("width", 1))
            if name.startswith(_SMEM_RETURNING) or (_is_atomic(name) and fields.get("glc")):
                b.returns.update(registers)
            if not name.startswith(_SMEM_RETURNING):
                b.reads.update(registers)


def _smem_offset_registers(inst):
    fields = inst.fields
    if fields.get("soe"):
        return _span(fields["soffset"], 1)
    if fields.get("imm") or inst.literal is not None:
        return ()
    return _span(fields["offset"] & 0x7F, 1)


def _is_atomic(name):
    return "_atomic_" in name or name.startswith(("s_atomic", "buffer_atomic", "flat_atomic",
                                                  "global_atomic"))


# --- vector memory -----------------------------------------------------------------
def _is_store(name):
    return "_store" in name or "_write" in name


def _buffer(inst, b):
    info, fields, name = inst.info, inst.fields, inst.op
    b.counters.add(VM_CNT)
    if info.props["kind"] == "none":       # cache invalidations and write-backs
        return
    b.reads.update(EXEC)
    b.reads.update(_span(fields["srsrc"] * 4, 4))
    b.reads.update(_span(fields["soffset"], 1))
    width = buffer_family.vaddr_width(fields)
    if info.props["kind"] != "lds_only" and width:
        b.reads.update(_vgprs(fields["vaddr"], width))
    if fields.get("lds"):
        b.reads.update(M0)            # LDS DMA: the LDS address is in M0
        return
    if info.operand("vdata") is None:
        return
    data = _vgprs(fields["vdata"], buffer_family.vdata_width(info, fields))
    _vector_memory_data(inst, b, name, data, fields.get("glc"))


def _vector_memory_data(inst, b, name, data, glc):
    """Loads return into ``data``; stores and atomics read it (an atomic with glc
    also returns into its first registers: the old value)."""
    if _is_store(name) or _is_atomic(name):
        b.reads.update(data)
        b.store_data.update(data)
        if inst.target.generation == 6:
            b.counters.add(EXP_CNT)
        if _is_atomic(name) and glc:
            returned = len(data) // 2 if "cmpswap" in name else len(data)
            b.returns.update(sorted(data)[:returned])
    else:
        b.returns.update(data)
        if _writes_half(name):
            b.partial.update(data)


def _writes_half(name):
    return name.endswith(("_d16_hi", "_d16_hi_x")) or "_short_d16" in name or \
        "_byte_d16" in name or name.endswith("_d16")


def _flat(inst, b):
    info, fields, name = inst.info, inst.fields, inst.op
    b.counters.add(VM_CNT)
    if info.encoding == "FLAT":
        b.counters.add(LGKM_CNT)      # a flat access may go to LDS
    b.reads.update(EXEC)
    specs = flat_family.operands_of(info, fields)
    for spec in specs:
        registers = _vgprs(fields[spec.slot], spec.width)
        if spec.slot == "addr":
            if not (info.encoding == "SCRATCH" and fields.get("saddr", 0x7F) != 0x7F):
                b.reads.update(registers)
        elif spec.slot == "data":
            b.reads.update(registers)
            b.store_data.update(registers)
        elif spec.slot == "vdst":
            b.returns.update(registers)
            if _writes_half(name):
                b.partial.update(registers)
    if info.encoding in ("GLOBAL", "SCRATCH") and fields.get("saddr", 0x7F) not in (0x7F, 125):
        b.reads.update(_span(fields["saddr"], 2 if info.encoding == "GLOBAL" else 1))
    if fields.get("lds"):
        b.reads.update(M0)
    if inst.target.generation == 6 and b.store_data:
        b.counters.add(EXP_CNT)


def _ds(inst, b):
    info, fields, name = inst.info, inst.fields, inst.op
    b.counters.add(LGKM_CNT)
    b.reads.update(EXEC)
    if inst.target.generation < 9 or fields.get("gds") or _ds_reads_m0_on_gfx9(name):
        b.reads.update(M0)
    for spec in info.operands:
        registers = _vgprs(fields[spec.slot], spec.width)
        if spec.slot == "vdst":
            b.returns.update(registers)
            if _writes_half(name):
                b.partial.update(registers)
        else:
            b.reads.update(registers)


def _ds_reads_m0_on_gfx9(name):
    """GFX9 DS ops that still take M0: GWS/GDS-only ops, append/consume and the
    thread-id addressed ones."""
    return name.startswith(("ds_gws_", "ds_append", "ds_consume", "ds_ordered_count")) or \
        "addtid" in name


def _mimg(inst, b):
    info, fields = inst.info, inst.fields
    b.counters.add(VM_CNT)
    b.reads.update(EXEC)
    dmask = fields.get("dmask", 0xF)
    width = max(bin(dmask).count("1"), 1) + fields.get("tfe", 0)
    b.reads.update(_vgprs(fields["vaddr"], info.operands[1].width))
    b.reads.update(_span(fields["srsrc"] * 4, 8 if not fields.get("r128") else 4))
    if any(spec.slot == "ssamp" for spec in info.operands):
        b.reads.update(_span(fields["ssamp"] * 4, 4))
    _vector_memory_data(inst, b, info.name, _vgprs(fields["vdata"], width), fields.get("glc"))


def _export(inst, b):
    fields = inst.fields
    b.counters.add(EXP_CNT)
    b.reads.update(EXEC)
    enabled = fields.get("en", 0xF)
    sources = ("vsrc0", "vsrc1", "vsrc2", "vsrc3")
    for index, field in enumerate(sources):
        if enabled >> index & 1 and field in fields:
            b.reads.update(_vgprs(fields[field], 1))
            b.store_data.update(_vgprs(fields[field], 1))


def _interpolation(inst, b):
    fields = inst.fields
    b.reads.update(EXEC)
    b.reads.update(M0)
    if "vdst" in fields:
        b.writes.update(_vgprs(fields["vdst"], 1))
    if "vsrc" in fields and not inst.op.startswith("v_interp_mov"):
        b.reads.update(_vgprs(fields["vsrc"], 1))


_BY_ENCODING = {
    **dict.fromkeys(SALU_ENCODINGS, _scalar), **dict.fromkeys(VALU_ENCODINGS, _vector),
    **dict.fromkeys(SMEM_ENCODINGS, _scalar_memory),
    "MUBUF": _buffer, "MTBUF": _buffer, "FLAT": _flat, "GLOBAL": _flat, "SCRATCH": _flat,
    "DS": _ds, "MIMG": _mimg, "EXP": _export, "VINTRP": _interpolation,
}

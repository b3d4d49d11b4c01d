"""Program control and special scalar ops: SOPP, PC moves, EXEC save ops,
hardware registers (s_getreg/s_setreg), relative moves, messages and traps.

These are raw semantics (``fn(ctx) -> outcome``) because they touch the PC,
EXEC or hardware state rather than computing a value from operands.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import gpr_index
from ..core.context import BARRIER, END, Branch, Jump
from ..core.formats import by_wave_count, field, int_reader, row_pair, write_scalar
from ..core.operands import scalar_getter
from ..core.registry import builder, instruction, unsupported
from ..core.state import EXEC_HI, EXEC_LO, FLOAT_MODE_BITS, M0, VCC_LO
from . import salu

_M64 = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


def branch_target(ctx):
    """PC + 4 + simm16 * 4 (simm16 signed), as SOPP branches compute it."""
    return ctx.record.pc + branch_offset(ctx.inst)


def branch_offset(inst):
    """Target minus PC of a SOPP branch: 4 + simm16 * 4 (simm16 signed); worked
    out once at pre-decode (a bound closure must not depend on its PC)."""
    simm = field(inst, "simm16")
    simm = simm - 0x10000 if simm & 0x8000 else simm
    return 4 + simm * 4


# ------------------------------------------------------------------ SOPP
def _no_op(ctx):
    return None


# (cache maintenance, s_icache_inv and the SMEM clocks live with the memory
# semantics in semantics/smem.py; ``no_effect`` lets compiled blocks run these)
for _name in ("s_nop", "s_waitcnt", "s_sleep", "s_setprio", "s_incperflevel",
              "s_decperflevel", "s_ttracedata", "s_wakeup", "s_sethalt"):
    instruction(_name, no_effect=True)(_no_op)


@instruction("s_endpgm")
def s_endpgm(ctx):
    return END


@instruction("s_endpgm_saved")
def s_endpgm_saved(ctx):
    return END


@instruction("s_endpgm_ordered_ps_done")
def s_endpgm_ordered_ps_done(ctx):
    return END


@instruction("s_barrier", work_group_barrier=True)
def s_barrier(ctx):
    return BARRIER


# A branch's facts tell compiled blocks (exec/compiled) what it tests:
# ``tests`` None (always taken), "scc", "vcc" or "exec" (an SGPR pair as any
# bit set), and ``taken`` the predicate on that value.
@builder("s_branch", tests=None)
def s_branch(inst, program):
    offset = branch_offset(inst)

    def run(ctx):
        return Branch(True, ctx.record.pc + offset)
    return run


class Reads(NamedTuple):
    """What a conditional branch tests, read for a group of waves (``group(state,
    sel)``: NumPy rows) and for a wave running alone (``alone(state, wave)``: a
    Python int, no arrays); ``name`` says which for compiled blocks."""

    group: object
    alone: object
    name: str


def _pair_bits(low, name):
    """An SGPR pair as "any bit set"."""
    return Reads(lambda state, sel: state.sgpr[low, sel] | state.sgpr[low + 1, sel],
                 lambda state, wave: state.sgpr.item(low, wave) | state.sgpr.item(low + 1, wave),
                 name)


SCC = Reads(lambda state, sel: state.scc[sel], lambda state, wave: state.scc.item(wave), "scc")
VCC = _pair_bits(VCC_LO, "vcc")
EXEC = _pair_bits(EXEC_LO, "exec")


def _conditional_branch(name, reads, taken):
    """Register a conditional branch on what ``reads`` (SCC, VCC, EXEC) gives:
    ``taken(value)``, one predicate for the NumPy rows of a group and the
    Python int of a wave running alone (falling through returns None)."""
    group, alone = reads.group, reads.alone

    @builder(name, tests=reads.name, taken=taken)
    def build(inst, program):
        offset = branch_offset(inst)

        def run(ctx):
            sel = ctx.sel
            if ctx.n == 1 and type(sel) is slice:
                if taken(alone(ctx.state, sel.start)):
                    return Branch(True, ctx.record.pc + offset)
                return None
            return Branch(taken(group(ctx.state, sel)), ctx.record.pc + offset)
        return run
    build.__name__ = name


def _zero(value):
    return value == 0


def _nonzero(value):
    return value != 0


def _never(value):
    return False


_conditional_branch("s_cbranch_scc0", SCC, _zero)
_conditional_branch("s_cbranch_scc1", SCC, _nonzero)
_conditional_branch("s_cbranch_vccz", VCC, _zero)
_conditional_branch("s_cbranch_vccnz", VCC, _nonzero)
_conditional_branch("s_cbranch_execz", EXEC, _zero)
_conditional_branch("s_cbranch_execnz", EXEC, _nonzero)
# No debugger is attached: the cdbg branches never branch.
_conditional_branch("s_cbranch_cdbgsys", SCC, _never)
_conditional_branch("s_cbranch_cdbguser", SCC, _never)
_conditional_branch("s_cbranch_cdbgsys_or_user", SCC, _never)
_conditional_branch("s_cbranch_cdbgsys_and_user", SCC, _never)

#: s_sendmsg message ids that matter to compute waves.
MSG_INTERRUPT, MSG_GS, MSG_GS_DONE, MSG_SAVEWAVE, MSG_STALL_WAVE_GEN, MSG_SYSMSG = 1, 2, 3, 4, 5, 15


@instruction("s_sendmsg")
def s_sendmsg(ctx):
    """Compute kernels send interrupts (device-side signals: M0 holds the
    event id) and save-wave hints; an interrupt goes to the request's
    interrupt handler when the runtime has one, the rest is nothing to
    emulate. GS messages belong to graphics pipelines and are rejected.
    """
    message = field(ctx.inst, "simm16") & 0xF
    if message in (MSG_GS, MSG_GS_DONE):
        raise ctx.fault("s_sendmsg GS messages are graphics-only")
    if message == MSG_INTERRUPT:
        state = ctx.state
        interrupt = getattr(state.request, "interrupt", None)
        if interrupt is not None:
            for m0 in np.atleast_1d(state.sgpr[M0, ctx.sel]):
                interrupt(int(m0))
    return None


@instruction("s_sendmsghalt")
def s_sendmsghalt(ctx):
    return s_sendmsg(ctx)


#: Trap ids of the AMDGPU trap handler ABI (AMDGPUUsage "Trap Handler ABI").
TRAP_LLVM_TRAP, TRAP_DEBUG_TRAP = 2, 3


@instruction("s_trap")
def s_trap(ctx):
    """The AMDHSA trap handler ABI without a debugger attached: llvm.trap
    (0x02) ends the dispatch and the runtime puts the queue in the error
    state; llvm.debugtrap (0x03) returns at once (a no-op); every other id is
    reserved and ends the dispatch too."""
    trap_id = field(ctx.inst, "simm16") & 0xFF
    if trap_id == TRAP_DEBUG_TRAP:
        return None
    if trap_id == TRAP_LLVM_TRAP:
        raise ctx.fault("s_trap 2: the kernel executed llvm.trap (queue error)")
    raise ctx.fault(f"s_trap {trap_id}: reserved trap id (no debugger attached)")


@instruction("s_setkill")
def s_setkill(ctx):
    return None


# ------------------------------------------------- VGPR indexing (GFX8/9)
@builder("s_set_gpr_idx_on")
def s_set_gpr_idx_on(inst, program):
    """M0[7:0] = S0[7:0], M0[15:12] = the imm4 enables, MODE.GPR_IDX_EN = 1.

    Ends the run loop's stretch (a Jump to the next instruction): waves with
    the mode on are stepped by the scheduler's indexed path (exec/core/gpr_index.py).
    """
    index = scalar_getter(field(inst, "ssrc0"), "u32", inst.literal)
    enables = field(inst, "ssrc1") & 0xF

    def run(ctx):
        gpr_index.enable_mode(ctx.state, ctx.sel, index(ctx.state, ctx.sel), enables)
        return Jump(np.full(ctx.n, ctx.record.next_pc, dtype=np.int64))
    return run


@instruction("s_set_gpr_idx_off")
def s_set_gpr_idx_off(ctx):
    """MODE.GPR_IDX_EN = 0 (M0 keeps the index and enables)."""
    ctx.state.mode[ctx.sel] &= ~gpr_index.MODE_GPR_IDX_EN
    return None


@instruction("s_set_gpr_idx_mode")
def s_set_gpr_idx_mode(ctx):
    """M0[15:12] = simm16[3:0]; the index and MODE.GPR_IDX_EN are unchanged."""
    enables = np.uint32((field(ctx.inst, "simm16") & 0xF) << 12)
    state, sel = ctx.state, ctx.sel
    state.sgpr[M0, sel] = (state.sgpr[M0, sel] & np.uint32(0xFFFF0FFF)) | enables
    return None


@builder("s_set_gpr_idx_idx")
def s_set_gpr_idx_idx(inst, program):
    """M0[7:0] = S0[7:0]; the enables and MODE.GPR_IDX_EN are unchanged."""
    index = scalar_getter(field(inst, "ssrc0"), "u32", inst.literal)

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        low = np.asarray(index(state, sel), np.uint32) & np.uint32(0xFF)
        state.sgpr[M0, sel] = (state.sgpr[M0, sel] & np.uint32(0xFFFFFF00)) | low
        return None
    return run


unsupported("v_screen_partition_4se_b32", "screen partitioning is graphics-only")
for _name in ("v_interp_p1_f32", "v_interp_p2_f32", "v_interp_mov_f32", "v_interp_p1ll_f16",
              "v_interp_p1lv_f16", "v_interp_p2_f16", "v_interp_p2_legacy_f16"):
    unsupported(_name, "parameter interpolation is a graphics-only instruction")


@builder("s_setvskip")
def s_setvskip(inst, program):
    """MODE.VSKIP = S0[S1[4:0]]: while set, the wave skips vector instructions.

    Setting it ends the run loop's stretch (a Jump to the next instruction)
    so the scheduler steps the wave through exec/core/gpr_index.py.
    """
    value = scalar_getter(field(inst, "ssrc0"), "u32", inst.literal)
    bit = scalar_getter(field(inst, "ssrc1"), "u32", inst.literal)

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        shift = np.asarray(bit(state, sel), np.uint32) & np.uint32(31)
        skip = (np.asarray(value(state, sel), np.uint32) >> shift) & np.uint32(1)
        gpr_index.set_vskip(state, sel, np.broadcast_to(skip != 0, (ctx.n,)))
        return Jump(np.full(ctx.n, ctx.record.next_pc, dtype=np.int64))
    return run


# ------------------------------------------------- fork/join (GFX6-GFX8)
#: MODE.CSP (bits 31:29): depth of the fork/join stack kept in SGPRs
_CSP_SHIFT = 29
_SGPR_LIMIT = 102


def _fork(ctx, masks, targets):
    """The manual's fork: split EXEC by ``masks``; run the larger half now,
    push {PC, EXEC} of the other half at SGPR[CSP * 4] (EXEC in the low pair,
    the PC in the high pair: the {PC, mask} concatenation) and bump CSP."""
    state = ctx.state
    fall_through = ctx.record.next_pc
    pcs = np.empty(ctx.n, np.int64)
    for position, wave in enumerate(ctx.waves()):
        exec_ = int(state.read_sgpr64(slice(wave, wave + 1), EXEC_LO)[0])
        passed, failed = int(masks[position]) & exec_, ~int(masks[position]) & exec_
        target = int(targets[position])
        if passed == exec_:
            pcs[position] = target
            continue
        if failed == exec_:
            pcs[position] = fall_through
            continue
        if failed.bit_count() < passed.bit_count():
            run_now, run_pc, later, later_pc = failed, fall_through, passed, target
        else:
            run_now, run_pc, later, later_pc = passed, target, failed, fall_through
        mode = int(state.mode[wave])
        csp = mode >> _CSP_SHIFT
        if csp == 7 or csp * 4 + 4 > _SGPR_LIMIT:
            raise ctx.fault(f"fork/join stack overflow (CSP={csp})", wave_index=position)
        one = slice(wave, wave + 1)
        state.write_sgpr64(one, csp * 4, [later])
        state.write_sgpr64(one, csp * 4 + 2, [later_pc])
        state.write_sgpr64(one, EXEC_LO, [run_now])
        state.mode[wave] = (mode & 0x1FFFFFFF) | ((csp + 1) << _CSP_SHIFT)
        pcs[position] = run_pc
    return Jump(pcs)


@builder("s_cbranch_g_fork")
def s_cbranch_g_fork(inst, program):
    """Fork on the mask S0 to the 64-bit byte address S1."""
    mask = scalar_getter(field(inst, "ssrc0"), "b64", inst.literal)
    target = scalar_getter(field(inst, "ssrc1"), "b64", inst.literal)

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        return _fork(ctx, np.broadcast_to(mask(state, sel), (ctx.n,)),
                     np.broadcast_to(target(state, sel), (ctx.n,)))
    return run


@builder("s_cbranch_i_fork")
def s_cbranch_i_fork(inst, program):
    """Fork on the mask S0 to PC + 4 + simm16 * 4."""
    mask = scalar_getter(field(inst, "sdst"), "b64", inst.literal)

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        targets = np.full(ctx.n, branch_target(ctx), dtype=np.int64)
        return _fork(ctx, np.broadcast_to(mask(state, sel), (ctx.n,)), targets)
    return run


@builder("s_cbranch_join")
def s_cbranch_join(inst, program):
    """If CSP equals the saved CSP in S0, go on; else pop {PC, EXEC} from SGPR[--CSP * 4]."""
    saved = scalar_getter(field(inst, "ssrc0"), "u32", inst.literal)

    def run(ctx):
        state = ctx.state
        saved_csp = np.broadcast_to(saved(state, ctx.sel), (ctx.n,))
        pcs = np.full(ctx.n, ctx.record.next_pc, dtype=np.int64)
        for position, wave in enumerate(ctx.waves()):
            mode = int(state.mode[wave])
            csp = mode >> _CSP_SHIFT
            if csp == int(saved_csp[position]) & 7:
                continue
            csp = (csp - 1) & 7
            one = slice(wave, wave + 1)
            state.write_sgpr64(one, EXEC_LO, state.read_sgpr64(one, csp * 4))
            pcs[position] = int(state.read_sgpr64(one, csp * 4 + 2)[0])
            state.mode[wave] = (mode & 0x1FFFFFFF) | (csp << _CSP_SHIFT)
        return Jump(pcs)
    return run


# --------------------------------------------------- return from exception
#: STATUS.PRIV (bit 5: trap handler / privileged mode) and STATUS.INST_ATC (bit 23)
STATUS_PRIV = np.uint32(1 << 5)
STATUS_INST_ATC = np.uint32(1 << 23)


def _pc_getter(inst):
    return scalar_getter(field(inst, "ssrc0"), "b64", inst.literal)


@builder("s_rfe_b64")
def s_rfe_b64(inst, program):
    """Return from a trap handler: STATUS.PRIV = 0, PC = S0[63:0].

    The executor runs no trap handler of its own, but a kernel may use it as
    the manual defines it: a jump that also leaves privileged mode.
    """
    target = _pc_getter(inst)

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        pcs = np.broadcast_to(target(state, sel), (ctx.n,)).astype(np.int64)
        state.status[sel] &= ~STATUS_PRIV
        return Jump(pcs)
    return run


@builder("s_rfe_restore_b64")
def s_rfe_restore_b64(inst, program):
    """GFX8/GFX9 (the context-restore trap handler's return): as s_rfe_b64,
    and STATUS.INST_ATC = S1[0]."""
    target = _pc_getter(inst)
    inst_atc = scalar_getter(field(inst, "ssrc1"), "u32", inst.literal)

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        pcs = np.broadcast_to(target(state, sel), (ctx.n,)).astype(np.int64)
        atc = np.broadcast_to(np.asarray(inst_atc(state, sel), np.uint32) & np.uint32(1), (ctx.n,))
        status = state.status[sel] & ~(STATUS_PRIV | STATUS_INST_ATC)
        state.status[sel] = status | (atc * STATUS_INST_ATC)
        return Jump(pcs)
    return run


# ----------------------------------------------------------- PC (SOP1/SOPK)
def _dst(inst):
    return field(inst, "sdst", "sdata")


@builder("s_getpc_b64", program_counter="get")
def s_getpc_b64(inst, program):
    dst = _dst(inst)

    def run(ctx):
        write_scalar(ctx.state, ctx.sel, dst, np.uint64(ctx.record.next_pc), True)
    return run


def _go_to(targets):
    """The outcome of a move to per-wave ``targets``: a Branch the run loop
    follows without a trip through the scheduler when every wave goes to the
    same place (calls and returns), else a Jump. (A Jump always goes back to
    the scheduler, which some ops rely on to look at the wave modes again.)"""
    first = int(targets[0])
    if targets.size == 1 or (targets == first).all():
        return Branch(True, first)
    return Jump(targets)


@builder("s_setpc_b64", program_counter="set")
def s_setpc_b64(inst, program):
    source = scalar_getter(field(inst, "ssrc0"), "b64", inst.literal)

    def run(ctx):
        return _go_to(np.broadcast_to(source(ctx.state, ctx.sel), (ctx.n,)).astype(np.int64))
    return run


@builder("s_swappc_b64", program_counter="swap")
def s_swappc_b64(inst, program):
    source = scalar_getter(field(inst, "ssrc0"), "b64", inst.literal)
    dst = _dst(inst)

    def run(ctx):
        target = np.broadcast_to(source(ctx.state, ctx.sel), (ctx.n,)).astype(np.int64).copy()
        write_scalar(ctx.state, ctx.sel, dst, np.uint64(ctx.record.next_pc), True)
        return _go_to(target)
    return run


@builder("s_call_b64")
def s_call_b64(inst, program):
    dst = _dst(inst)

    def run(ctx):
        write_scalar(ctx.state, ctx.sel, dst, np.uint64(ctx.record.next_pc), True)
        return Branch(True, branch_target(ctx))
    return run


# ------------------------------------------------------------ saveexec
def _exec64(state, sel):
    return state.sgpr[EXEC_LO, sel].astype(np.uint64) | \
        (state.sgpr[EXEC_HI, sel].astype(np.uint64) << np.uint64(32))


def _andn1(a, b):
    return ~a & b


def _orn1(a, b):
    return ~a | b


#: The new EXEC from (source, old EXEC): the SALU's bitwise functions (which
#: work on ints as on arrays), plus the saveexec-only andn1/orn1.
_SAVEEXEC = {
    "s_and_saveexec_b64": salu._and, "s_or_saveexec_b64": salu._or,
    "s_xor_saveexec_b64": salu._xor, "s_andn2_saveexec_b64": salu._andn2,
    "s_orn2_saveexec_b64": salu._orn2, "s_nand_saveexec_b64": salu._nand,
    "s_nor_saveexec_b64": salu._nor, "s_xnor_saveexec_b64": salu._xnor,
    "s_andn1_saveexec_b64": _andn1, "s_orn1_saveexec_b64": _orn1,
}
_WREXEC = {"s_andn1_wrexec_b64": _andn1, "s_andn2_wrexec_b64": salu._andn2}


def _saveexec(name, op, write_dst_old_exec):
    # the facts say what the builder does for compiled blocks (exec/compiled):
    # new EXEC = combine(source, old EXEC); the destination gets the old EXEC
    # (saveexec) or the new (wrexec); SCC = new EXEC != 0
    @builder(name, combine=op, saves_old_exec=write_dst_old_exec)
    def build(inst, program):
        source = scalar_getter(field(inst, "ssrc0"), "b64", inst.literal)
        dst = _dst(inst)

        def run(ctx):
            state, sel = ctx.state, ctx.sel
            value = np.asarray(source(state, sel), np.uint64)
            old = _exec64(state, sel)
            new = op(value, old) & _M64
            write_scalar(state, sel, dst, old if write_dst_old_exec else new, True)
            write_scalar(state, sel, EXEC_LO, new, True)
            state.scc[sel] = new != 0
            ctx.exec_changed()
        rows = row_pair(field(inst, "ssrc0"), inst.literal)
        if rows is not None and dst + 2 <= 128:
            run = _saveexec_by_halves(op, rows, dst, write_dst_old_exec)
        read = int_reader(field(inst, "ssrc0"), "b64", inst.literal)
        if read is None:
            return run
        return by_wave_count(_saveexec_one_wave(op, read, dst, write_dst_old_exec), run)
    build.__name__ = name


def _saveexec_by_halves(op, rows, dst, write_dst_old_exec):
    """The saveexec steps on (2, n) low/high dword rows: the ops are bitwise,
    so each half of the result comes from the same half of the operands."""
    def run(ctx):
        state, sel = ctx.state, ctx.sel
        sgpr = state.sgpr
        value = rows(state, sel)
        old = sgpr[EXEC_LO:EXEC_HI + 1, sel].copy()
        new = op(value, old)
        sgpr[dst:dst + 2, sel] = old if write_dst_old_exec else new
        sgpr[EXEC_LO:EXEC_HI + 1, sel] = new
        state.scc[sel] = (new[0] | new[1]) != 0
        ctx.exec_changed()
    return run


def _saveexec_one_wave(op, read, dst, write_dst_old_exec):
    """The saveexec steps for a wave running alone, on Python ints (the ops
    above work on ints as on arrays once masked to 64 bits)."""
    def run(ctx, state, wave):
        sgpr = state.sgpr
        value = read(state, wave)
        old = sgpr.item(EXEC_LO, wave) | sgpr.item(EXEC_HI, wave) << 32
        new = op(value, old) & 0xFFFF_FFFF_FFFF_FFFF
        saved = old if write_dst_old_exec else new
        sgpr[dst, wave] = saved & 0xFFFFFFFF
        sgpr[dst + 1, wave] = saved >> 32
        sgpr[EXEC_LO, wave] = new & 0xFFFFFFFF
        sgpr[EXEC_HI, wave] = new >> 32
        state.scc[wave] = new != 0
        ctx.exec_changed()
    return run


for _name, _op in _SAVEEXEC.items():
    _saveexec(_name, _op, True)
for _name, _op in _WREXEC.items():
    _saveexec(_name, _op, False)


# --------------------------------------------------------- relative moves
@builder("s_movrels_b32")
def s_movrels_b32(inst, program):
    return _movrel(inst, 1, source_relative=True)


@builder("s_movrels_b64")
def s_movrels_b64(inst, program):
    return _movrel(inst, 2, source_relative=True)


@builder("s_movreld_b32")
def s_movreld_b32(inst, program):
    return _movrel(inst, 1, source_relative=False)


@builder("s_movreld_b64")
def s_movreld_b64(inst, program):
    return _movrel(inst, 2, source_relative=False)


def _movrel(inst, count, source_relative):
    """SGPR[base + M0] moves: the index differs per wave, so go wave by wave."""
    src, dst = field(inst, "ssrc0"), _dst(inst)

    def run(ctx):
        state = ctx.state
        for wave in ctx.waves():
            offset = int(state.sgpr[M0, wave])
            s = src + offset if source_relative else src
            d = dst if source_relative else dst + offset
            if max(s, d) + count > 102 and not (s >= 102 and d >= 102):
                raise ctx.fault(f"relative SGPR index out of range (m0={offset})")
            state.sgpr[d:d + count, wave] = state.sgpr[s:s + count, wave].copy()
    return run


# ---------------------------------------------------- hardware registers
HW_REG_MODE, HW_REG_STATUS, HW_REG_TRAPSTS, HW_REG_HW_ID = 1, 2, 3, 4
HW_REG_GPR_ALLOC, HW_REG_LDS_ALLOC, HW_REG_IB_STS, HW_REG_SH_MEM_BASES = 5, 6, 7, 15


def hwreg_fields(simm16):
    """(register id, bit offset, bit count) of a hwreg(...) operand."""
    return simm16 & 0x3F, (simm16 >> 6) & 0x1F, ((simm16 >> 11) & 0x1F) + 1


def read_hwreg(state, sel, reg_id, ctx):
    """The full 32-bit value of hardware register ``reg_id`` for each wave."""
    n = ctx.n
    if reg_id == HW_REG_MODE:
        return state.mode[sel].copy()
    if reg_id == HW_REG_STATUS:
        status = state.status[sel] & np.uint32(~0x601 & 0xFFFFFFFF)
        status |= state.scc[sel].astype(np.uint32)
        status |= (EXEC.group(state, sel) == 0).astype(np.uint32) << np.uint32(9)
        status |= (VCC.group(state, sel) == 0).astype(np.uint32) << np.uint32(10)
        return status
    if reg_id == HW_REG_TRAPSTS:
        return state.trapsts[sel].copy()
    if reg_id == HW_REG_HW_ID:
        waves = ctx.waves()
        wave_id = (state.wave_in_group[waves] & 15).astype(np.uint32)
        cu_id = (state.wave_group[waves] & 15).astype(np.uint32)
        return wave_id | (cu_id << np.uint32(8))
    if reg_id == HW_REG_GPR_ALLOC:
        vgprs = max(state.vgpr_count, 1)
        sgprs = int(getattr(state.request.setup, "sgpr_count", 16)) if state.request else 16
        value = (((-(-vgprs // 4)) - 1) << 8) | (((-(-sgprs // 16)) - 1) << 24)
        return np.full(n, value & 0xFFFFFFFF, np.uint32)
    if reg_id == HW_REG_LDS_ALLOC:
        size = int(getattr(state.request, "group_segment_size", 0) or 0) if state.request else 0
        return np.full(n, ((-(-size // 256)) & 0x1FF) << 12, np.uint32)
    if reg_id == HW_REG_IB_STS:
        return np.zeros(n, np.uint32)
    if reg_id == HW_REG_SH_MEM_BASES:
        request = state.request
        private = (getattr(request, "private_aperture_base", 0) or 0) >> 48
        shared = (getattr(request, "shared_aperture_base", 0) or 0) >> 48
        return np.full(n, (private & 0xFFFF) | ((shared & 0xFFFF) << 16), np.uint32)
    raise ctx.fault(f"s_getreg of hardware register {reg_id} is not supported")


def write_hwreg(ctx, reg_id, offset, size, value):
    """Write the field; True when the run loop must hand the group to the
    scheduler: MODE.GPR_IDX_EN or MODE.VSKIP turned on for some wave, or the
    group's waves now have different float modes (MODE[9:0])."""
    state, sel = ctx.state, ctx.sel
    mask = np.uint32(((1 << size) - 1) << offset) if size < 32 else np.uint32(0xFFFFFFFF)
    placed = (np.asarray(value, np.uint32) << np.uint32(offset)) & mask
    if reg_id == HW_REG_MODE:
        mode = state.mode[sel] = (state.mode[sel] & ~mask) | placed
        to_scheduler = False
        if mask & FLOAT_MODE_BITS:
            to_scheduler = _apply_float_mode(state, np.asarray(mode).reshape(-1))
        if mask & gpr_index.WAVE_MODES and (state.mode[sel] & gpr_index.WAVE_MODES).any():
            state.wave_modes_used = True
            return True
        return to_scheduler
    elif reg_id == HW_REG_TRAPSTS:
        state.trapsts[sel] = (state.trapsts[sel] & ~mask) | placed
    elif reg_id == HW_REG_STATUS:
        state.status[sel] = (state.status[sel] & ~mask) | placed
    else:
        raise ctx.fault(f"s_setreg of hardware register {reg_id} is not supported")


def _apply_float_mode(state, modes):
    """MODE is per wave: the flags follow the writing group when its waves
    agree; True (go through the scheduler, which runs one part per MODE)
    when they do not. Either way the scheduler compares MODE from now on."""
    state.float_modes_written = True
    bits = modes & np.uint32(FLOAT_MODE_BITS)
    first = int(bits[0])
    if (bits == first).all():
        state.apply_float_mode(first)
        return False
    return True


@builder("s_getreg_b32")
def s_getreg_b32(inst, program):
    reg_id, offset, size = hwreg_fields(field(inst, "simm16"))
    dst = _dst(inst)
    mask = np.uint32((1 << size) - 1 if size < 32 else 0xFFFFFFFF)

    def run(ctx):
        value = read_hwreg(ctx.state, ctx.sel, reg_id, ctx)
        ctx.state.sgpr[dst, ctx.sel] = (value >> np.uint32(offset)) & mask
    return run


@builder("s_setreg_b32")
def s_setreg_b32(inst, program):
    reg_id, offset, size = hwreg_fields(field(inst, "simm16"))
    src = _dst(inst)

    def run(ctx):
        if write_hwreg(ctx, reg_id, offset, size, ctx.state.sgpr[src, ctx.sel]):
            return _to_scheduler(ctx)
        return None
    return run


def _to_scheduler(ctx):
    """Continue at the next instruction through the scheduler (wave modes changed)."""
    return Jump(np.full(ctx.n, ctx.record.next_pc, dtype=np.int64))


@builder("s_setreg_imm32_b32")
def s_setreg_imm32_b32(inst, program):
    reg_id, offset, size = hwreg_fields(field(inst, "simm16"))
    value = np.uint32(inst.literal or 0)

    def run(ctx):
        if write_hwreg(ctx, reg_id, offset, size, np.full(ctx.n, value, np.uint32)):
            return _to_scheduler(ctx)
        return None
    return run

"""Required wait states: the "manually inserted wait states" tables of the
Southern Islands, Sea Islands, GCN3 and Vega ISA manuals as data.

A ``WaitStateRule`` says that ``states`` wait states must pass between an
instruction its ``produces`` matches and one its ``consumes`` matches, on the
generations it names. ``s_nop N`` counts as N+1 wait states, any other
instruction as one (``wait_states``). ``hits`` applies the rules to one
instruction and the instructions before it on one path, so the static checker
(every path of the control-flow graph) and the dynamic one (each wave's real
history) judge alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..isa.effects import EXEC, M0, SALU_ENCODINGS, VCC, is_valu, is_vgpr, is_vmem


@dataclass(frozen=True, eq=False)
class WaitStateRule:
    """``states`` wait states are needed between an instruction ``produces``
    matches and one ``consumes`` matches, on ``generations``. ``produces(inst,
    effects)`` gives the registers (or marker) it makes hazardous; ``consumes(inst,
    effects, registers)`` the subset the consumer touches."""

    name: str
    states: int
    generations: tuple
    produces: object
    consumes: object
    missing: str = field(default="")


def _is_salu(inst):
    return inst.encoding in SALU_ENCODINGS


def _sgprs(registers):
    return frozenset(r for r in registers if r < 128)


def _valu_sgpr_writes(inst, effects):
    return _sgprs(effects.writes) - frozenset(EXEC) if is_valu(inst) else frozenset()


def _vmem_sgpr_reads(inst, effects, registers):
    return _sgprs(effects.reads) & registers if is_vmem(inst) else frozenset()


def _smrd_sgpr_reads(inst, effects, registers):
    return _sgprs(effects.reads) & registers if inst.encoding == "SMRD" else frozenset()


def _lane_select(inst, effects, registers):
    if inst.op not in ("v_readlane_b32", "v_writelane_b32"):
        return frozenset()
    select = inst.fields.get("src1", inst.fields.get("vsrc1"))   # VOP3 (GFX8+), VOP2 (SI/CI)
    return frozenset({select}) & registers if select is not None else frozenset()


def _valu_vcc_writes(inst, effects):
    return frozenset(VCC) & effects.writes if is_valu(inst) else frozenset()


def _div_fmas(inst, effects, registers):
    return frozenset(VCC) & registers if inst.op.startswith("v_div_fmas") else frozenset()


def _valu_vgpr_writes(inst, effects):
    return frozenset(r for r in effects.writes if is_vgpr(r)) if is_valu(inst) else frozenset()


def _dpp_reads(inst, effects, registers):
    if inst.encoding != "DPP":
        return frozenset()
    return frozenset(r for r in effects.reads if is_vgpr(r)) & registers


def _valu_exec_writes(inst, effects):
    return frozenset(EXEC) & effects.writes if is_valu(inst) else frozenset()


def _dpp_any(inst, effects, registers):
    return registers if inst.encoding == "DPP" else frozenset()


def _valu_vcc_exec_writes(inst, effects):
    return frozenset(VCC + EXEC) & effects.writes if is_valu(inst) else frozenset()


def _reads_vccz_execz(inst, effects, registers):
    if not is_valu(inst):
        return frozenset()
    codes = {inst.fields.get(f) for f in ("src0", "src1", "src2")}
    touched = frozenset()
    if 251 in codes:
        touched |= frozenset(VCC)
    if 252 in codes:
        touched |= frozenset(EXEC)
    return touched & registers


def _salu_m0_writes(inst, effects):
    return frozenset(M0) & effects.writes if _is_salu(inst) else frozenset()


def _m0_gds_message(inst, effects, registers):
    uses = inst.op in ("s_sendmsg", "s_sendmsghalt", "s_ttracedata") or (
        inst.encoding == "DS" and inst.fields.get("gds"))
    return registers if uses else frozenset()


def _m0_movrel(inst, effects, registers):
    return registers if inst.op.startswith(("s_movrel", "v_movrel")) else frozenset()


def _m0_lds_dma(inst, effects, registers):
    uses = ("addtid" in inst.op or (is_vmem(inst) and inst.fields.get("lds"))
            or inst.encoding == "VINTRP" or 254 in {inst.fields.get("src0")})
    return registers if uses else frozenset()


_WIDE_STORES = ("_dwordx3", "_dwordx4", "_format_xyz", "_format_xyzw", "cmpswap_x2")


def _wide_store_data(inst, effects):
    if not is_vmem(inst) or not effects.store_data:
        return frozenset()
    if len(effects.store_data) > 2 and (inst.op.endswith(_WIDE_STORES) or "store" in inst.op
                                         or "cmpswap" in inst.op):
        return effects.store_data
    return frozenset()


def _any_write(inst, effects, registers):
    return effects.all_writes & registers


def _hwreg_id(inst):
    return inst.fields.get("simm16", 0) & 0x3F


def _setreg(inst, effects):
    if inst.op in ("s_setreg_b32", "s_setreg_imm32_b32"):
        return frozenset({("hwreg", _hwreg_id(inst))})
    return frozenset()


def _getreg(inst, effects, registers):
    if inst.op == "s_getreg_b32":
        return registers & frozenset({("hwreg", _hwreg_id(inst))})
    return frozenset()


_HW_REG_TRAPSTS = 3
_HW_REG_MODE = 1
_MODE_VSKIP = 28


def _setreg_vskip(inst, effects):
    """S_SETREG writing MODE.VSKIP (the vector-skip bit, MODE[28])."""
    if inst.op not in ("s_setreg_b32", "s_setreg_imm32_b32") or _hwreg_id(inst) != _HW_REG_MODE:
        return frozenset()
    simm16 = inst.fields.get("simm16", 0)
    offset, size = (simm16 >> 6) & 31, ((simm16 >> 11) & 31) + 1
    return frozenset({("hwreg", "mode.vskip")}) if offset <= _MODE_VSKIP < offset + size \
        else frozenset()


def _vector_op(inst, effects, registers):
    vector = is_valu(inst) or is_vmem(inst) or inst.encoding in ("DS", "EXP", "VINTRP")
    return registers if vector else frozenset()


def _rfe(inst, effects, registers):
    if inst.op in ("s_rfe_b64", "s_rfe_restore_b64"):
        return registers & frozenset({("hwreg", _HW_REG_TRAPSTS)})
    return frozenset()


ALL = (6, 7, 8, 9)

#: the manuals' tables of required wait states (SI, CI, GCN3, Vega)
WAIT_STATE_RULES = (
    WaitStateRule("setreg-getreg", 2, ALL, _setreg, _getreg,
                  "S_GETREG of a hardware register needs 2 wait states after S_SETREG of it"),
    WaitStateRule("setreg-vskip", 2, ALL, _setreg_vskip, _vector_op,
                  "a vector instruction needs 2 wait states after S_SETREG of MODE.VSKIP"),
    WaitStateRule("setreg-rfe", 1, ALL, _setreg, _rfe,
                  "S_RFE needs 1 wait state after S_SETREG of TRAPSTS"),
    WaitStateRule("valu-sgpr-vmem", 5, ALL, _valu_sgpr_writes, _vmem_sgpr_reads,
                  "a VMEM read of an SGPR needs 5 wait states after a VALU writes it"),
    WaitStateRule("valu-sgpr-smrd", 4, (6,), _valu_sgpr_writes, _smrd_sgpr_reads,
                  "an SMRD read of an SGPR needs 4 wait states after a VALU writes it (SI)"),
    WaitStateRule("valu-sgpr-lane-select", 4, ALL, _valu_sgpr_writes, _lane_select,
                  "V_READLANE/V_WRITELANE's lane select needs 4 wait states after a VALU "
                  "writes the SGPR"),
    WaitStateRule("valu-vcc-div-fmas", 4, ALL, _valu_vcc_writes, _div_fmas,
                  "V_DIV_FMAS needs 4 wait states after a VALU writes VCC"),
    WaitStateRule("valu-vgpr-dpp", 2, (8, 9), _valu_vgpr_writes, _dpp_reads,
                  "a DPP read of a VGPR needs 2 wait states after a VALU writes it"),
    WaitStateRule("valu-exec-dpp", 5, (8, 9), _valu_exec_writes, _dpp_any,
                  "a DPP instruction needs 5 wait states after a VALU writes EXEC"),
    WaitStateRule("valu-vccz-execz", 5, ALL, _valu_vcc_exec_writes, _reads_vccz_execz,
                  "a VALU reading VCCZ/EXECZ as data needs 5 wait states after a VALU writes "
                  "VCC/EXEC"),
    WaitStateRule("salu-m0-gds-sendmsg", 1, (8, 9), _salu_m0_writes, _m0_gds_message,
                  "GDS, S_SENDMSG and S_TTRACEDATA need 1 wait state after an SALU writes M0"),
    WaitStateRule("salu-m0-movrel", 1, (8, 9), _salu_m0_writes, _m0_movrel,
                  "S_MOVREL/V_MOVREL need 1 wait state after an SALU writes M0"),
    WaitStateRule("salu-m0-lds-dma", 1, (9,), _salu_m0_writes, _m0_lds_dma,
                  "LDS DMA, add-TID, VINTRP and LDS_DIRECT need 1 wait state after an SALU "
                  "writes M0"),
    WaitStateRule("wide-store-data", 1, (7, 8, 9), _wide_store_data, _any_write,
                  "a store of more than 64 bits needs 1 wait state before its data VGPRs "
                  "are written"),
)


def wait_states(inst):
    """How many wait states ``inst`` provides."""
    if inst.op == "s_nop":
        return (inst.fields.get("simm16", 0) & 0xF) + 1
    return 1




def rules_for(generation):
    """The rules that hold on ``generation``."""
    return tuple(rule for rule in WAIT_STATE_RULES if generation in rule.generations)


def longest(rules):
    """The most wait states any of ``rules`` needs."""
    return max((rule.states for rule in rules), default=0)


class _Everything:
    """Every register: ``consumes(inst, effects, EVERYTHING)`` gives what ``inst``
    would touch of any producer's registers (itself when it touches all of them)."""

    def __and__(self, other):
        return other

    __rand__ = __and__

    def __bool__(self):
        return True


EVERYTHING = _Everything()


class RuleIndex:
    """``rules`` applied fast: what each instruction produces and consumes is
    worked out once per decoded instruction (most do neither), so checking an
    instruction against the ones before it costs a few set operations."""

    def __init__(self, rules):
        self.rules = tuple(rules)
        self.longest = longest(self.rules)
        self._produced: dict = {}
        self._consumed: dict = {}
        self._pairs: dict = {}

    def produced(self, inst, effects):
        """``((rule, registers), ...)`` that ``inst`` makes hazardous."""
        key = id(inst)
        found = self._produced.get(key)
        if found is None:
            found = self._produced[key] = tuple(
                (rule, produced) for rule in self.rules
                if (produced := rule.produces(inst, effects)))
        return found

    def consumed(self, inst, effects):
        """``{rule: registers or EVERYTHING}`` that ``inst`` would suffer from."""
        key = id(inst)
        found = self._consumed.get(key)
        if found is None:
            found = self._consumed[key] = {
                rule: touched for rule in self.rules
                if (touched := rule.consumes(inst, effects, EVERYTHING))}
        return found

    def pair(self, source, source_effects, inst, effects):
        """``((rule, touched), ...)`` of the rules ``source`` followed by ``inst``
        would break if too few wait states passed (remembered per pair)."""
        key = (id(source), id(inst))
        found = self._pairs.get(key)
        if found is None:
            consumed = self.consumed(inst, effects)
            found = []
            for rule, produced in self.produced(source, source_effects):
                wanted = consumed.get(rule)
                if wanted is not None:
                    touched = produced if wanted is EVERYTHING else wanted & produced
                    if touched:
                        found.append((rule, touched))
            found = self._pairs[key] = tuple(found)
        return found

    def hits(self, inst, effects, earlier):
        """``(rule, source_address, source, passed, touched)`` for every rule broken by
        ``inst`` (with ``effects``): ``earlier`` yields ``(address, instruction,
        effects, wait states passed since)`` for the instructions before it."""
        if not self.consumed(inst, effects):
            return
        for source_address, source, source_effects, passed in earlier:
            for rule, touched in self.pair(source, source_effects, inst, effects):
                if passed < rule.states:
                    yield rule, source_address, source, passed, touched

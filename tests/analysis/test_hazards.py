"""The static hazard checker (amdgpu_tools.analysis.hazards), amdgpu-objdump
--check and amdgpu-as --check.

(a) Wait counters on hand-written code: a read, an overwrite and (GFX6) a
    store's data overwritten before the s_waitcnt that covers them; in-order
    VM_CNT (vmcnt(1) covers the older of two loads), out-of-order scalar loads
    (lgkmcnt(1) covers neither), FLAT counted by both counters, paths joined
    after an if/else and around a loop.
(b) Every wait-state rule at its exact boundary: N-1 wait states reported,
    N not (s_nop k counts k+1).
(c) clang's kernels: no report at all (LLVM's waits and nops are right), and
    mutants with one s_waitcnt replaced by s_nop 0: every mutant in which a
    later instruction of the same block reads a register the wait covered
    is reported.
(d) The CLIs: lines, exit status, the assembler's file:line:col.
"""

import pathlib
import subprocess
import sys

import pytest

from amdgpu_tools.analysis.cfg import build_cfg, control_flow_graphs
from amdgpu_tools.analysis.hazards import check_elf, check_graph
from amdgpu_tools.analysis.wait_states import WAIT_STATE_RULES
from amdgpu_tools.asm import assemble
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.isa import disassemble
from amdgpu_tools.isa.effects import effects_of

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import test_opencl as opencl  # noqa: E402  (its build() and cache)


def hazards_of(body, target="gfx900", rule=None):
    code = read_elf(assemble(".text\n" + body, target)).section(".text").data
    found = check_graph(build_cfg(disassemble(code, target)))
    return [h for h in found if rule is None or h.rule == rule]


def summary(hazards):
    return sorted((h.rule, h.pc, h.source_pc, h.register) for h in hazards)


# --- (a) wait counters ------------------------------------------------------------------
def test_read_before_the_wait():
    found = hazards_of("""
    global_load_dword v2, v[4:5], off
    v_add_f32 v1, v2, v3
    s_waitcnt vmcnt(0)
    v_add_f32 v1, v2, v3
    s_endpgm""")
    assert summary(found) == [("raw", 0x8, 0x0, "v2")]
    assert "no s_waitcnt vmcnt(0) between" in found[0].describe()
    assert "reads v2, loaded by 'global_load_dword v2, v[4:5], off' at pc 0x0" in \
        found[0].describe()


def test_vm_counter_is_in_order():
    body = """
    global_load_dword v1, v[4:5], off
    global_load_dword v2, v[4:5], off offset:4
    s_waitcnt vmcnt(1)
    v_mov_b32 v6, v1
    v_mov_b32 v7, v2
    s_endpgm"""
    assert summary(hazards_of(body)) == [("raw", 0x18, 0x8, "v2")]
    assert "no s_waitcnt vmcnt(0) between" in hazards_of(body)[0].describe()


def test_scalar_loads_return_out_of_order():
    body = """
    s_load_dword s4, s[0:1], 0x0
    s_load_dword s5, s[0:1], 0x4
    s_waitcnt lgkmcnt(1)
    s_mov_b32 s6, s4
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s7, s5
    s_endpgm"""
    found = hazards_of(body)
    assert summary(found) == [("raw", 0x14, 0x0, "s4")]
    assert "lgkmcnt(0)" in found[0].describe()


def test_lds_loads_are_in_order():
    assert hazards_of("""
    ds_read_b32 v1, v0
    ds_read_b32 v2, v0 offset:4
    s_waitcnt lgkmcnt(1)
    v_mov_b32 v6, v1
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v7, v2
    s_endpgm""") == []


def test_flat_is_done_by_either_counter():
    assert hazards_of("""
    flat_load_dword v1, v[4:5]
    s_waitcnt vmcnt(0)
    v_mov_b32 v6, v1
    s_endpgm""") == []
    assert summary(hazards_of("""
    flat_load_dword v1, v[4:5]
    v_mov_b32 v6, v1
    s_endpgm""")) == [("raw", 0x8, 0x0, "v1")]


def test_overwrite_before_the_load_returns():
    assert summary(hazards_of("""
    global_load_dword v1, v[4:5], off
    v_mov_b32 v1, 0
    s_endpgm""")) == [("waw", 0x8, 0x0, "v1")]
    # two loads into one register return in order: no wait needed between them
    assert hazards_of("""
    global_load_dword v1, v[4:5], off
    global_load_dword v1, v[4:5], off offset:4
    s_waitcnt vmcnt(0)
    v_mov_b32 v2, v1
    s_endpgm""") == []


def test_gfx6_store_data_read_after_issue():
    body = """
    buffer_store_dword v1, v2, s[8:11], 0 offen
    v_mov_b32 v1, 0
    s_endpgm"""
    assert summary(hazards_of(body, "gfx600")) == [("war", 0x8, 0x0, "v1")]
    assert hazards_of(body, "gfx700") == []
    assert hazards_of(body.replace("v_mov_b32", "s_waitcnt expcnt(0)\n    v_mov_b32"),
                      "gfx600") == []


def test_join_keeps_the_worst_path():
    body = """
    s_cmp_eq_u32 s0, 0
    s_cbranch_scc1 SKIP
    global_load_dword v1, v[4:5], off
    SKIP:
    v_mov_b32 v2, v1
    s_endpgm"""
    found = hazards_of(body)
    assert summary(found) == [("raw", 0x10, 0x8, "v1")]
    assert "(path: 0x8 -> 0x10)" in found[0].describe()


def test_loop_carries_the_load_to_the_next_iteration():
    body = """
    LOOP:
    v_add_f32 v2, v1, v2
    global_load_dword v1, v[4:5], off
    s_sub_u32 s0, s0, 1
    s_cbranch_scc1 LOOP
    s_waitcnt vmcnt(0)
    s_endpgm"""
    assert summary(hazards_of(body)) == [("raw", 0x0, 0x4, "v1")]


def test_barrier_with_memory_in_flight():
    found = hazards_of("""
    ds_write_b32 v1, v3
    s_barrier
    s_waitcnt lgkmcnt(0)
    s_barrier
    global_store_dword v[4:5], v3, off
    s_barrier
    s_endpgm""")
    assert summary(found) == [("barrier", 0x8, 0x0, ""), ("barrier", 0x1c, 0x14, "")]
    assert found[0].describe() == (
        "function, pc 0x8 's_barrier' lets other waves on while 'ds_write_b32 v1, v3' at "
        "pc 0x0 is still in flight; no s_waitcnt lgkmcnt(0) between")


def test_call_returns_with_counters_drained():
    assert hazards_of("""
    global_load_dword v1, v[4:5], off
    s_swappc_b64 s[30:31], s[8:9]
    v_mov_b32 v2, v1
    s_endpgm""") == []


# --- (b) wait-state rules at their boundary ------------------------------------------------
RULES = [
    ("setreg-getreg", "gfx900", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3",
     "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 4)", 2),
    ("setreg-getreg", "gfx600", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3",
     "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 4)", 2),
    ("setreg-vskip", "gfx900", "s_setreg_b32 hwreg(HW_REG_MODE, 28, 1), s3",
     "v_mov_b32 v0, v1", 2),
    ("setreg-vskip", "gfx700", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 32), s3",
     "ds_read_b32 v0, v1", 2),
    ("setreg-rfe", "gfx803", "s_setreg_b32 hwreg(HW_REG_TRAPSTS, 0, 4), s3",
     "s_rfe_b64 s[4:5]", 1),
    ("valu-sgpr-vmem", "gfx900", "v_readfirstlane_b32 s8, v1",
     "buffer_load_dword v2, off, s[8:11], 0", 5),
    ("valu-sgpr-vmem", "gfx700", "v_readfirstlane_b32 s12, v1",
     "buffer_load_dword v2, off, s[8:11], s12", 5),
    ("valu-sgpr-vmem", "gfx900", "v_cmp_eq_u32_e64 s[4:5], v1, v2",
     "global_load_dword v2, v3, s[4:5]", 5),
    ("valu-sgpr-smrd", "gfx600", "v_readfirstlane_b32 s4, v1", "s_load_dword s0, s[4:5], 0x0", 4),
    ("valu-sgpr-lane-select", "gfx900", "v_readfirstlane_b32 s4, v1",
     "v_readlane_b32 s0, v2, s4", 4),
    ("valu-sgpr-lane-select", "gfx803", "v_readfirstlane_b32 s4, v1",
     "v_writelane_b32 v2, 7, s4", 4),
    ("valu-vcc-div-fmas", "gfx900", "v_cmp_eq_u32 vcc, v1, v2", "v_div_fmas_f32 v0, v1, v2, v3", 4),
    ("valu-vcc-div-fmas", "gfx700", "v_div_scale_f32 v4, vcc, v1, v2, v1",
     "v_div_fmas_f32 v0, v1, v2, v3", 4),
    ("valu-vgpr-dpp", "gfx900", "v_add_f32 v1, v2, v3",
     "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", 2),
    ("valu-vgpr-dpp", "gfx803", "v_add_f32 v1, v2, v3",
     "v_add_f32_dpp v0, v1, v4 row_shr:1 row_mask:0xf bank_mask:0xf", 2),
    ("valu-exec-dpp", "gfx900", "v_cmpx_eq_u32 vcc, v1, v2",
     "v_mov_b32_dpp v0, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", 5),
    ("valu-vccz-execz", "gfx900", "v_cmp_eq_u32 vcc, v1, v2", "v_mov_b32 v0, src_vccz", 5),
    ("salu-m0-gds-sendmsg", "gfx900", "s_mov_b32 m0, s0", "s_sendmsg sendmsg(MSG_INTERRUPT)", 1),
    ("salu-m0-gds-sendmsg", "gfx803", "s_mov_b32 m0, s0", "ds_add_u32 v1, v2 gds", 1),
    ("salu-m0-movrel", "gfx803", "s_mov_b32 m0, s0", "s_movrels_b32 s1, s2", 1),
    ("salu-m0-movrel", "gfx900", "s_mov_b32 m0, s0", "s_movrels_b32 s1, s2", 1),
    ("salu-m0-lds-dma", "gfx900", "s_mov_b32 m0, s0", "buffer_load_dword off, s[8:11], 0 lds", 1),
    ("wide-store-data", "gfx900", "buffer_store_dwordx4 v[0:3], off, s[8:11], 0",
     "v_mov_b32 v1, 0", 1),
    ("wide-store-data", "gfx803", "flat_store_dwordx3 v[4:5], v[0:2]", "v_mov_b32 v2, 0", 1),
    ("wide-store-data", "gfx700", "buffer_store_dwordx4 v[0:3], off, s[8:11], 0",
     "v_mov_b32 v3, 0", 1),
]


def with_wait_states(producer, consumer, states):
    nop = f"\n    s_nop {states - 1}" if states else ""
    return f"    {producer}{nop}\n    {consumer}\n    s_endpgm"


@pytest.mark.parametrize("rule,target,producer,consumer,states", RULES,
                         ids=[f"{r[0]}-{r[1]}" for r in RULES])
def test_wait_state_boundary(rule, target, producer, consumer, states):
    short = hazards_of(with_wait_states(producer, consumer, states - 1), target, rule)
    assert len(short) == 1, short
    assert f"{states - 1} wait states between, {states} needed" in short[0].describe()
    assert hazards_of(with_wait_states(producer, consumer, states), target, rule) == []
    # any instruction counts as one wait state, s_nop k as k + 1
    filler = "\n    ".join(["s_mov_b32 s90, 0"] * states)
    assert hazards_of(f"    {producer}\n    {filler}\n    {consumer}\n    s_endpgm", target,
                      rule) == []


GENERATION_TARGETS = {6: "gfx600", 7: "gfx700", 8: "gfx803", 9: "gfx900"}
#: one producer/consumer pair per rule that assembles on every generation
EXAMPLES = {
    "setreg-getreg": ("s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3",
                      "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 4)"),
    "setreg-vskip": ("s_setreg_b32 hwreg(HW_REG_MODE, 28, 1), s3", "v_mov_b32 v0, v1"),
    "setreg-rfe": ("s_setreg_b32 hwreg(HW_REG_TRAPSTS, 0, 4), s3", "s_rfe_b64 s[4:5]"),
    "valu-sgpr-vmem": ("v_readfirstlane_b32 s8, v1", "buffer_load_dword v2, off, s[8:11], 0"),
    "valu-sgpr-smrd": ("v_readfirstlane_b32 s4, v1", "s_load_dword s0, s[4:5], 0x0"),
    "valu-sgpr-lane-select": ("v_readfirstlane_b32 s4, v1", "v_readlane_b32 s0, v2, s4"),
    "valu-vcc-div-fmas": ("v_cmp_eq_u32 vcc, v1, v2", "v_div_fmas_f32 v0, v1, v2, v3"),
    "valu-vgpr-dpp": ("v_add_f32 v1, v2, v3",
                      "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"),
    "valu-exec-dpp": ("v_cmpx_eq_u32 vcc, v1, v2",
                      "v_mov_b32_dpp v0, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"),
    "valu-vccz-execz": ("v_cmp_eq_u32 vcc, v1, v2", "v_mov_b32 v0, src_vccz"),
    "salu-m0-gds-sendmsg": ("s_mov_b32 m0, s0", "s_sendmsg sendmsg(MSG_INTERRUPT)"),
    "salu-m0-movrel": ("s_mov_b32 m0, s0", "s_movrels_b32 s1, s2"),
    "salu-m0-lds-dma": ("s_mov_b32 m0, s0", "buffer_load_dword off, s[8:11], 0 lds"),
    "wide-store-data": ("buffer_store_dwordx4 v[0:3], off, s[8:11], 0", "v_mov_b32 v1, 0"),
}
EVERY_RULE = [(rule.name, generation) for rule in WAIT_STATE_RULES
              for generation in rule.generations]


def test_every_rule_has_an_example():
    assert {rule.name for rule in WAIT_STATE_RULES} == set(EXAMPLES)


@pytest.mark.parametrize("name,generation", EVERY_RULE, ids=[f"{n}-gfx{g}" for n, g in EVERY_RULE])
def test_every_rule_on_every_generation(name, generation):
    """Each rule at its exact boundary on each generation it holds for."""
    rule = next(r for r in WAIT_STATE_RULES if r.name == name)
    producer, consumer = EXAMPLES[name]
    target = GENERATION_TARGETS[generation]
    assert len(hazards_of(with_wait_states(producer, consumer, rule.states - 1), target,
                          name)) == 1
    assert hazards_of(with_wait_states(producer, consumer, rule.states), target, name) == []


def test_rules_stay_in_their_generations():
    dpp = with_wait_states("v_add_f32 v1, v2, v3",
                           "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
                           0)
    assert hazards_of(dpp, "gfx900", "valu-vgpr-dpp")
    smrd = with_wait_states("v_readfirstlane_b32 s4, v1", "s_load_dword s0, s[4:5], 0x0", 0)
    assert hazards_of(smrd, "gfx600", "valu-sgpr-smrd")
    assert not hazards_of(smrd, "gfx700", "valu-sgpr-smrd")


@pytest.mark.parametrize("target", ["gfx803", "gfx900"])
def test_vcc_read_as_a_constant_right_after_a_valu_writes_it_is_fine(target):
    """The GCN3/Vega tables' "mixed use of VCC: alias vs SGPR#" row (1 wait state
    before a VALU reads VCC as a constant) is about naming VCC's physical SGPRs
    by number, which no encoding can do: every VCC operand is the alias. Read
    literally it would flag clang's own code, which puts these pairs (from
    wave_ops.cl at -O2) back to back with no s_nop."""
    for consumer in ("v_cmp_ne_u64_e64 s[0:1], vcc, 0", "v_cmp_eq_u64_e32 vcc, vcc, v[10:11]",
                     "v_cndmask_b32_e64 v1, 0, 1, vcc", "v_mov_b32 v1, vcc_lo"):
        assert hazards_of(with_wait_states("v_cmp_ne_u32_e32 vcc, 0, v4", consumer, 0),
                          target) == [], consumer


def test_wait_states_are_counted_along_every_path():
    body = """
    v_readfirstlane_b32 s8, v1
    s_cbranch_scc1 LONG
    s_branch USE
    LONG:
    s_nop 4
    USE:
    buffer_load_dword v2, off, s[8:11], 0
    s_endpgm"""
    found = hazards_of(body, "gfx900", "valu-sgpr-vmem")
    assert len(found) == 1 and "2 wait states between" in found[0].describe()


# --- (c) clang's kernels and their mutants -------------------------------------------------
CLANG_CONFIGS = [("clang-19", "gfx900", "-O2", 5), ("clang-19", "gfx900", "-O0", 5),
                 ("clang-19", "gfx803", "-O2", 4), ("clang-19", "gfx700", "-O2", 5),
                 ("clang-14", "gfx803", "-O2", 2), ("clang-14", "gfx700", "-O2", 2)]
SOURCES = ["structured.cl", "parallel.cl", "integer.cl", "floating.cl", "wave_ops.cl"]


@pytest.mark.parametrize("config", CLANG_CONFIGS, ids=opencl.config_id)
@pytest.mark.parametrize("source", SOURCES)
def test_clang_kernels_have_no_hazards(config, source):
    if source == "wave_ops.cl" and config[0] == "clang-14":
        pytest.skip("wave_ops.cl needs the device libraries clang-14 builds go without")
    hsaco = opencl.build(config, source)
    elf = read_elf(hsaco.read_bytes(), str(hsaco))
    assert [h.describe() for h in check_elf(elf)] == []


def _s_nop_0():
    return (0xBF800000).to_bytes(4, "little")


def _protected_read(block, index):
    """Whether an instruction after the wait at ``index`` in ``block``, before the
    next s_waitcnt, reads or overwrites a register a load issued earlier in the
    block (after the previous s_waitcnt) returns: then the wait protected it."""
    start = index
    while start > 0 and block.instructions[start - 1][1].op != "s_waitcnt":
        start -= 1
    returned = set()
    for _, inst in block.instructions[start:index]:
        if getattr(inst, "info", None) is not None:
            returned |= effects_of(inst).returns
    for _, inst in block.instructions[index + 1:]:
        if inst.op == "s_waitcnt" or getattr(inst, "info", None) is None:
            break
        e = effects_of(inst)
        if (e.reads | e.writes) & returned:
            return True
    return False


@pytest.mark.parametrize("config", [("clang-19", "gfx900", "-O2", 5),
                                    ("clang-14", "gfx803", "-O2", 2)], ids=opencl.config_id)
def test_deleted_waits_are_reported(config):
    hsaco = opencl.build(config, "parallel.cl")
    data = hsaco.read_bytes()
    elf = read_elf(data, str(hsaco))
    text = elf.section(".text")
    mutants = reported = must = 0
    for graph in control_flow_graphs(elf):
        for block in graph.blocks:
            for index, (address, inst) in enumerate(block.instructions):
                if inst.op != "s_waitcnt":
                    continue
                offset = text.offset + address - text.addr
                mutant = data[:offset] + _s_nop_0() + data[offset + 4:]
                found = [h for h in check_elf(read_elf(mutant, "mutant"))
                         if h.rule in ("raw", "waw")]
                mutants += 1
                reported += bool(found)
                if _protected_read(block, index):
                    must += 1
                    assert found, (graph.name, hex(address))
    assert mutants > 20 and must > 10 and reported >= must


# --- (d) the CLIs -------------------------------------------------------------------------------
BAD = """.text
global_load_dword v2, v[4:5], off
v_add_f32 v1, v2, v3
s_endpgm
"""


def test_assembler_check_warns_at_the_line(tmp_path):
    source = tmp_path / "bad.s"
    source.write_text(BAD)
    done = subprocess.run([sys.executable, "-m", "amdgpu_tools.cli.asm", "--mcpu=gfx900",
                           "--check", str(source), "-o", str(tmp_path / "bad.o")],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert f"{source}:3:1: warning: hazard: section .text, pc 0x8 " \
           "'v_add_f32_e32 v1, v2, v3' reads v2" in done.stderr
    assert (tmp_path / "bad.o").exists()
    source.write_text(BAD.replace("v_add", "s_waitcnt vmcnt(0)\nv_add"))
    done = subprocess.run([sys.executable, "-m", "amdgpu_tools.cli.asm", "--mcpu=gfx900",
                           "--check", str(source), "-o", str(tmp_path / "good.o")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""


def test_objdump_check(tmp_path, capsys):
    from amdgpu_tools.cli.objdump import main
    path = tmp_path / "bad.o"
    path.write_bytes(assemble(BAD, "gfx900"))
    assert main(["--check", str(path)]) == 1
    assert capsys.readouterr().out == (
        f"{path}: hazard: section .text, pc 0x8 'v_add_f32_e32 v1, v2, v3' reads v2, loaded by "
        "'global_load_dword v2, v[4:5], off' at pc 0x0; no s_waitcnt vmcnt(0) between\n")
    good = tmp_path / "good.o"
    good.write_bytes(assemble((ROOT / "samples" / "vector_add.s").read_text(), "gfx900"))
    assert main(["--check", str(good)]) == 0

"""Live registers (amdgpu_tools.analysis.liveness) and amdgpu-objdump --live-registers.

(a) Hand-written code whose live sets are written out here line by line: a
    straight line, an if/else, a loop carrying values around its back edge,
    partial writes, loads whose results return later.
(b) clang's kernels: the dataflow's live-in sets equal an independent
    computation (per register, a backwards search over the instruction graph
    from every read, stopped by full writes), and the peak live VGPRs/SGPRs
    never exceed what the compiler allocated.
(c) The CLI text and JSON.
"""

import json
import pathlib
import sys

import pytest

from amdgpu_tools.analysis.cfg import build_cfg, control_flow_graphs
from amdgpu_tools.analysis.liveness import live_registers, liveness_of_elf
from amdgpu_tools.analysis.resources import resource_usage_of_elf
from amdgpu_tools.asm import assemble
from amdgpu_tools.cli.objdump import main as objdump_main
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.isa import disassemble
from amdgpu_tools.isa.effects import effects_of, register_name

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import test_opencl as opencl  # noqa: E402  (its build() and cache)


def graph_of(body, target="gfx900"):
    code = read_elf(assemble(".text\n" + body, target)).section(".text").data
    return build_cfg(disassemble(code, target))


def names(registers):
    return " ".join(register_name(r) for r in sorted(registers))


def live_in_lines(body):
    return [names(line.live_in) for line in live_registers(graph_of(body)).lines]


def test_straight_line():
    body = """
    v_add_f32 v0, v1, v2
    v_mul_f32 v3, v0, v0
    v_mov_b32 v1, 0
    global_store_dword v[4:5], v3, off
    s_endpgm
    """
    assert live_in_lines(body) == [
        "exec_lo exec_hi v1 v2 v4 v5",
        "exec_lo exec_hi v0 v4 v5",
        "exec_lo exec_hi v3 v4 v5",       # v1's new value is never read
        "exec_lo exec_hi v3 v4 v5",
        "",
    ]
    liveness = live_registers(graph_of(body))
    # pressure: live in, live out and written; v_mov_b32 v1 needs a register too
    assert [line.vgprs for line in liveness.lines] == [5, 4, 4, 3, 0]
    assert liveness.peak_vgprs == 5 and len(liveness.peak_vgpr_lines()) == 1


def test_if_else_joins_both_paths():
    body = """
    s_cmp_eq_u32 s0, 0
    s_cbranch_scc1 ELSE
    v_mov_b32 v0, v1
    s_branch END
    ELSE:
    v_mov_b32 v0, v2
    END:
    v_mov_b32 v3, v0
    s_endpgm
    """
    assert live_in_lines(body) == [
        "s0 exec_lo exec_hi v1 v2",
        "exec_lo exec_hi scc v1 v2",
        "exec_lo exec_hi v1",
        "exec_lo exec_hi v0",
        "exec_lo exec_hi v2",
        "exec_lo exec_hi v0",
        "",
    ]


def test_loop_carries_values_around_the_back_edge():
    body = """
    s_mov_b32 s2, 0
    LOOP:
    v_add_f32 v0, v0, v1
    s_add_u32 s2, s2, 1
    s_cmp_lt_u32 s2, s3
    s_cbranch_scc1 LOOP
    global_store_dword v[4:5], v0, off
    s_endpgm
    """
    lines = live_in_lines(body)
    # v1 and s3 are read in every iteration: live throughout the loop
    for text in lines[1:5]:
        assert "v1" in text.split() and "s3" in text.split()
    assert lines[0] == "s3 exec_lo exec_hi v0 v1 v4 v5"
    assert lines[4] == "s2 s3 exec_lo exec_hi scc v0 v1 v4 v5"


def test_partial_write_keeps_the_old_value_live():
    body = """
    v_mov_b32 v0, 1
    v_writelane_b32 v0, s1, 3
    v_mov_b32_sdwa v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0
    global_store_dwordx2 v[4:5], v[0:1], off
    s_endpgm
    """
    lines = live_in_lines(body)
    assert "v0" not in lines[0].split()          # fully written by v_mov_b32
    assert "v0" in lines[1].split()              # one lane written: the rest lives on
    assert "v2" in lines[2].split()              # the low half stays


def test_loads_write_when_they_return():
    body = """
    global_load_dword v0, v[2:3], off
    s_waitcnt vmcnt(0)
    v_add_f32 v1, v0, v0
    global_store_dword v[2:3], v1, off
    s_endpgm
    """
    lines = live_in_lines(body)
    assert "v0" not in lines[0].split() and "v0" in lines[1].split()


def test_indirect_jump_assumes_nothing_live():
    body = """
    v_mov_b32 v0, v1
    s_setpc_b64 s[30:31]
    """
    assert live_in_lines(body) == ["s30 s31 exec_lo exec_hi v1", "s30 s31"]


# --- (b) clang's kernels -------------------------------------------------------------
def reference_live_in(graph):
    """Per instruction address, the registers live into it: for each register, a
    backwards search over the instruction graph from the instructions that read
    it, never passing an instruction that fully overwrites it."""
    code = list(graph.instructions())
    index = {address: i for i, (address, _) in enumerate(code)}
    predecessors = [[] for _ in code]
    for block in graph.blocks:
        for (a, _), (b, _) in zip(block.instructions, block.instructions[1:]):
            predecessors[index[b]].append(index[a])
        last = index[block.instructions[-1][0]]
        for edge in block.successors:
            if edge.target is not None and edge.kind != "call" and edge.target in index:
                predecessors[index[edge.target]].append(last)
    effects = [effects_of(inst) if getattr(inst, "info", None) else None for _, inst in code]
    readers, killers = {}, {}
    for i, e in enumerate(effects):
        if e is None:
            continue
        for r in e.reads:
            readers.setdefault(r, []).append(i)
        if not e.indexed:
            for r in e.all_writes - e.partial:
                killers.setdefault(r, set()).add(i)
    live = [set() for _ in code]
    for register, reading in readers.items():
        kills = killers.get(register, set())
        seen = set(reading)
        stack = list(reading)
        while stack:
            i = stack.pop()
            live[i].add(register)
            for p in predecessors[i]:
                if p not in seen and p not in kills:
                    seen.add(p)
                    stack.append(p)
    return {code[i][0]: frozenset(s) for i, s in enumerate(live)}


CLANG_CONFIGS = [("clang-19", "gfx900", "-O2", 5), ("clang-19", "gfx900", "-O0", 5),
                 ("clang-19", "gfx803", "-O2", 4), ("clang-14", "gfx803", "-O2", 2),
                 ("clang-19", "gfx700", "-O2", 5)]


@pytest.mark.parametrize("config", CLANG_CONFIGS, ids=opencl.config_id)
@pytest.mark.parametrize("source", ["structured.cl", "parallel.cl", "integer.cl",
                                    "floating.cl"])
def test_clang_kernels_match_the_reference(config, source):
    hsaco = opencl.build(config, source)
    elf = read_elf(hsaco.read_bytes(), str(hsaco))
    graphs = control_flow_graphs(elf)
    allocated = {k.kernel: k for k in resource_usage_of_elf(elf)}
    checked = 0
    for graph in graphs:
        liveness = live_registers(graph)
        reference = reference_live_in(graph)
        for line in liveness.lines:
            assert line.live_in == reference[line.address], (graph.name, hex(line.address))
        kernel = allocated.get(graph.name)
        if kernel is not None:         # distinct registers live at once: all allocated
            assert liveness.peak_vgprs <= kernel.vgprs_granulated, graph.name
            assert liveness.peak_sgprs <= kernel.sgprs_granulated, graph.name
            checked += 1
    assert checked > 0


# --- (c) the CLI ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def vector_add(tmp_path_factory):
    path = tmp_path_factory.mktemp("live") / "vector_add.o"
    path.write_bytes(assemble((ROOT / "samples" / "vector_add.s").read_text(), "gfx900"))
    return path


def test_cli_text(vector_add, capsys):
    assert objdump_main(["--live-registers", str(vector_add)]) == 0
    out = capsys.readouterr().out
    assert "kernel vector_add: peak 3 live VGPRs" in out
    starred = [line for line in out.splitlines() if line[6:7] == "*"]
    assert starred and all("global_load_dword v3" in line or "s_waitcnt vmcnt(0)" in line
                           or "v_add_f32" in line for line in starred)


def test_cli_json(vector_add, capsys):
    assert objdump_main(["--live-registers", "--json", str(vector_add)]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (liveness,) = liveness_of_elf(read_elf(vector_add.read_bytes()))
    assert record["peak_vgprs"] == liveness.peak_vgprs == 3
    assert [line["vgprs"] for line in record["lines"]] == [l.vgprs for l in liveness.lines]


def test_cli_usage(vector_add, capsys):
    assert objdump_main(["-d", "--json", str(vector_add)]) == 2
    assert "--json goes with --resource-usage or --live-registers" in capsys.readouterr().err

"""Control-flow graphs (amdgpu_tools.analysis.cfg) and amdgpu-objdump --cfg.

(a) Hand-written assembly whose blocks, edges and back edges are written out
    here: a loop, an if/else, a conditional branch to the end, a call through
    registers, a s_getpc/s_add/s_setpc jump and a return (unknown targets), in
    the relocatable object and in the linked shared object.
(b) Every kernel of the e2e OpenCL suite compiled by clang (v5 at -O0/-O2,
    clang-14's v2 with its amd_kernel_code_t): every instruction in exactly
    one block, every branch target inside the code starts a block, edges agree
    with the instructions.
(c) The CLI: one SVG per kernel/function that parses as XML and shows every
    instruction; a one-line error without Graphviz's dot.
"""

import os
import pathlib
import shutil
import sys
import xml.etree.ElementTree as ET

import pytest

from amdgpu_tools.analysis.cfg import (CALL, FALL_THROUGH, TAKEN, UNKNOWN, build_cfg,
                                       code_ranges, control_flow, control_flow_graphs)
from amdgpu_tools.asm import assemble
from amdgpu_tools.cli.objdump import main as objdump_main
from amdgpu_tools.elf.listing import branch_target
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.isa import disassemble
from amdgpu_tools.link import link

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import test_opencl as opencl  # noqa: E402  (its build() and cache)

SOURCE = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5
.text
.globl cfg_kernel
.p2align 8
.type cfg_kernel,@function
cfg_kernel:
  s_mov_b32 s0, 0                   // 0x00
  s_mov_b32 s1, 4                   // 0x04
.Lloop:
  s_add_u32 s0, s0, 1               // 0x08
  s_cmp_lt_u32 s0, s1               // 0x0c
  s_cbranch_scc1 .Lloop             // 0x10  loop: back edge to 0x08
  s_cmp_eq_u32 s0, 4                // 0x14
  s_cbranch_scc0 .Lelse             // 0x18  if/else
  v_mov_b32_e32 v0, 1               // 0x1c  then
  s_branch .Ljoin                   // 0x20
.Lelse:
  v_mov_b32_e32 v0, 2               // 0x24  else
.Ljoin:
  v_cmp_eq_u32_e32 vcc, 0, v0       // 0x28
  s_cbranch_vccnz .Lend             // 0x2c  to the end
  v_mov_b32_e32 v1, 3               // 0x30
.Lend:
  s_endpgm                          // 0x34
.Lcfg_kernel_end:
  .size cfg_kernel, .Lcfg_kernel_end-cfg_kernel

.globl helper
.p2align 2
.type helper,@function
helper:
  s_cmp_eq_u32 s2, 0                // +0x00
  s_cbranch_scc1 .Lret              // +0x04
  s_swappc_b64 s[30:31], s[4:5]     // +0x08  call through registers
  s_getpc_b64 s[6:7]                // +0x0c
  s_add_u32 s6, s6, 16              // +0x10
  s_addc_u32 s7, s7, 0              // +0x14
  s_setpc_b64 s[6:7]                // +0x18  computed jump: unknown
.Lret:
  s_setpc_b64 s[30:31]              // +0x1c  return: unknown
.Lhelper_end:
  .size helper, .Lhelper_end-helper

.rodata
.p2align 6
.amdhsa_kernel cfg_kernel
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: cfg_kernel
    .symbol: cfg_kernel.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata
"""

#: block start -> [(kind, target or None, back)], offsets from the function's start
KERNEL_BLOCKS = {
    0x00: (0x08, [(FALL_THROUGH, 0x08, False)]),
    0x08: (0x14, [(TAKEN, 0x08, True), (FALL_THROUGH, 0x14, False)]),
    0x14: (0x1c, [(TAKEN, 0x24, False), (FALL_THROUGH, 0x1c, False)]),
    0x1c: (0x24, [(TAKEN, 0x28, False)]),
    0x24: (0x28, [(FALL_THROUGH, 0x28, False)]),
    0x28: (0x30, [(TAKEN, 0x34, False), (FALL_THROUGH, 0x30, False)]),
    0x30: (0x34, [(FALL_THROUGH, 0x34, False)]),
    0x34: (0x38, []),
}
HELPER_BLOCKS = {
    0x00: (0x08, [(TAKEN, 0x1c, False), (FALL_THROUGH, 0x08, False)]),
    0x08: (0x0c, [(UNKNOWN, None, False), (FALL_THROUGH, 0x0c, False)]),
    0x0c: (0x1c, [(UNKNOWN, None, False)]),
    0x1c: (0x20, [(UNKNOWN, None, False)]),
}


@pytest.fixture(scope="module")
def objects():
    relocatable = assemble(SOURCE, "gfx900")
    return {"ET_REL": relocatable, "ET_DYN": link([relocatable])}


def written_out(graph):
    base = graph.entry
    return {block.start - base: (block.end - base,
                                 [(e.kind, None if e.target is None else e.target - base, e.back)
                                  for e in block.successors])
            for block in graph.blocks}


@pytest.mark.parametrize("kind", ["ET_REL", "ET_DYN"])
def test_hand_written_blocks_and_edges(objects, kind):
    elf = read_elf(objects[kind], kind)
    graphs = {g.name: g for g in control_flow_graphs(elf)}
    assert sorted(graphs) == ["cfg_kernel", "helper"]
    kernel, helper = graphs["cfg_kernel"], graphs["helper"]
    assert kernel.kind == "kernel" and helper.kind == "function"
    symbols = {s.name: s.value for s in (elf.symbols or elf.dynamic_symbols)}
    assert kernel.entry == symbols["cfg_kernel"] and helper.entry == symbols["helper"]
    assert helper.entry == kernel.entry + 0x38
    assert written_out(kernel) == KERNEL_BLOCKS
    assert written_out(helper) == HELPER_BLOCKS
    back = kernel.back_edges()
    assert [(e.source - kernel.entry, e.target - kernel.entry) for e in back] == [(0x08, 0x08)]
    assert helper.back_edges() == []
    assert all(block.reachable for block in kernel.blocks + helper.blocks)
    # predecessors mirror successors
    join = kernel.block_at(kernel.entry + 0x28)
    assert sorted(e.source - kernel.entry for e in join.predecessors) == [0x1c, 0x24]
    loop = kernel.block_at(kernel.entry + 0x08)
    assert sorted(e.source - kernel.entry for e in loop.predecessors) == [0x00, 0x08]
    assert [i.text() for _, i in kernel.block_at(kernel.entry + 0x1c).instructions] == [
        "v_mov_b32_e32 v0, 1", "s_branch 1"]


def test_classification_by_op():
    """Branches are told by the decoded op, with their targets from the label operand."""
    code = list(disassemble(assemble_words("""
        s_cbranch_execz 1
        s_nop 0
        s_trap 2
        s_endpgm_saved
        s_cbranch_g_fork s[0:1], s[2:3]
        s_cbranch_join s4
        s_call_b64 s[30:31], 1
        s_nop 0
        s_rfe_b64 s[0:1]
    """), "gfx900"))
    ops = [inst.op for _, inst in code]
    flows = [control_flow(inst) for _, inst in code]
    assert flows[1] is None and flows[2] is None        # s_nop, s_trap continue
    assert (flows[0].target, flows[0].falls_through) == ("label", True)
    assert (flows[3].target, flows[3].falls_through) == (None, False)
    assert branch_target(*code[0]) == 8
    graph = build_cfg(code, name="t")
    got = [(b.start, [(e.kind, e.target, e.back) for e in b.successors]) for b in graph.blocks]
    assert got == [
        (0x00, [(TAKEN, 0x08, False), (FALL_THROUGH, 0x04, False)]),
        (0x04, [(FALL_THROUGH, 0x08, False)]),
        (0x08, []),                                      # s_trap, s_endpgm_saved
        (0x10, [(UNKNOWN, None, False), (FALL_THROUGH, 0x14, False)]),   # g_fork
        (0x14, [(UNKNOWN, None, False), (FALL_THROUGH, 0x18, False)]),   # join
        (0x18, [(CALL, 0x20, False), (FALL_THROUGH, 0x1c, False)]),      # s_call_b64
        (0x1c, [(UNKNOWN, None, False)]),                # s_nop, s_rfe_b64 (a callee
    ], ops                                               # does not start a block)
    # 0x10.. are reached only through s_endpgm_saved's block: not at all
    assert [b.start for b in graph.blocks if not b.reachable] == [0x10, 0x14, 0x18, 0x1c]


def test_nested_loops_and_tail_jump():
    """Two back edges (inner and outer loop); a branch out of the code keeps its address."""
    code = list(disassemble(assemble_words("""
        s_nop 0
        s_nop 0
        s_cbranch_scc0 -2
        s_cbranch_vccz -4
        s_branch 10
    """), "gfx900"))
    graph = build_cfg(code, name="t")
    assert [(e.source, e.target) for e in graph.back_edges()] == [(0x04, 0x04), (0x0c, 0x00)]
    last = graph.blocks[-1]
    assert [(e.kind, e.target) for e in last.successors] == [(TAKEN, 0x10 + 4 + 40)]
    assert graph.block_at(0x10 + 4 + 40) is None


def assemble_words(body):
    """The .text bytes of a bare instruction list."""
    elf = read_elf(assemble(".text\n" + body, "gfx900"), "t")
    return next(s for s in elf.sections if s.name == ".text").data


# --- (b) clang's kernels ------------------------------------------------------
CLANG_CONFIGS = [("clang-19", "gfx900", "-O2", 5), ("clang-19", "gfx900", "-O0", 5),
                 ("clang-19", "gfx803", "-O2", 4), ("clang-14", "gfx803", "-O2", 2)]


@pytest.mark.parametrize("config", CLANG_CONFIGS, ids=opencl.config_id)
@pytest.mark.parametrize("source", ["structured.cl", "parallel.cl", "integer.cl"])
def test_clang_kernels_partition(config, source):
    hsaco = opencl.build(config, source)
    elf = read_elf(hsaco.read_bytes(), str(hsaco))
    graphs = control_flow_graphs(elf)
    ranges = code_ranges(elf)
    assert len(graphs) == len(ranges) and any(g.kind == "kernel" for g in graphs)
    loops = 0
    for graph, r in zip(graphs, ranges):
        base = r.section.addr
        expected = list(disassemble(r.section.data[r.start - base:r.end - base],
                                    config[1], r.start))
        seen = [(a, inst.words) for b in graph.blocks for a, inst in b.instructions]
        assert seen == [(a, inst.words) for a, inst in expected]      # each exactly once
        starts = {b.start for b in graph.blocks}
        for block in graph.blocks:
            assert block.instructions and block.start == block.instructions[0][0]
            assert all(control_flow(i) is None for _, i in block.instructions[:-1])
            for address, inst in block.instructions:
                target = branch_target(address, inst) if control_flow(inst) else None
                if target is not None and r.start <= target < r.end:
                    assert target in starts, (graph.name, hex(address), inst.text())
            for edge in block.successors:
                assert edge.source == block.start
                if edge.kind == FALL_THROUGH:
                    assert edge.target == block.end
                    assert edge.target in starts or edge.target == r.end
                if edge.kind == TAKEN:
                    assert edge.target == branch_target(*block.instructions[-1])
        assert graph.entry_block.start == r.start
        loops += len(graph.back_edges())
        check_back_edges(graph)
    if source == "parallel.cl" and config == ("clang-19", "gfx900", "-O2", 5):
        assert loops > 0


def forward_successors(graph, block):
    return [e.target for e in block.successors if not e.back and e.kind != CALL
            and e.target is not None and graph.block_at(e.target) is not None]


def check_back_edges(graph):
    """Without its back edges the reachable graph has no cycle, and each back
    edge closes one (its target reaches its source by forward edges)."""
    state = {}

    def visit(start):                       # iterative DFS: grey on the path, black done
        stack = [(start, iter(forward_successors(graph, graph.block_at(start))))]
        state[start] = "grey"
        while stack:
            node, successors = stack[-1]
            for nxt in successors:
                assert state.get(nxt) != "grey", f"{graph.name}: cycle without back edge"
                if nxt not in state:
                    state[nxt] = "grey"
                    stack.append((nxt, iter(forward_successors(graph, graph.block_at(nxt)))))
                    break
            else:
                state[node] = "black"
                stack.pop()
    visit(graph.entry)
    assert {b.start for b in graph.blocks if b.reachable} == set(state)
    for edge in graph.back_edges():
        seen, todo = set(), [edge.target]
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo.extend(forward_successors(graph, graph.block_at(node)))
        assert edge.source in seen


# --- (c) the command line -----------------------------------------------------
def svg_texts(path):
    root = ET.parse(path).getroot()
    return [(el.text or "").replace("\xa0", " ") for el in root.iter()
            if el.tag.endswith("}text") or el.tag == "text"]


@pytest.fixture
def needs_dot():
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (apt-get install graphviz)")
    pytest.importorskip("graphviz")


def test_cli_writes_svgs(objects, tmp_path, needs_dot, capsys):
    obj = tmp_path / "k.hsaco"
    obj.write_bytes(objects["ET_DYN"])
    out = tmp_path / "cfg"
    assert objdump_main(["--cfg", str(obj), "-o", str(out)]) == 0
    assert sorted(os.listdir(out)) == ["cfg_kernel.svg", "helper.svg"]
    graphs = {g.name: g for g in control_flow_graphs(read_elf(objects["ET_DYN"], "k"))}
    for name, graph in graphs.items():
        texts = svg_texts(out / f"{name}.svg")
        joined = "\n".join(texts)
        for address, inst in graph.instructions():
            assert f"{address:x}: {inst.text()}" in texts, (name, inst.text())
        assert ("unknown target" in joined) == (name == "helper")
        assert ("loop" in joined) == (name == "cfg_kernel")
        assert "taken" in joined


def test_cli_with_listing_and_bundle_names(objects, tmp_path, needs_dot, capsys):
    """--cfg goes with the listings (-d still prints); the same name twice gets .2."""
    a, b = tmp_path / "a.o", tmp_path / "b.o"
    a.write_bytes(objects["ET_REL"])
    b.write_bytes(objects["ET_REL"])
    out = tmp_path / "cfg"
    assert objdump_main(["-d", "--cfg", "-o", str(out), str(a), str(b)]) == 0
    assert "s_cbranch_scc1" in capsys.readouterr().out
    assert sorted(os.listdir(out)) == ["cfg_kernel.2.svg", "cfg_kernel.svg",
                                       "helper.2.svg", "helper.svg"]


def test_cli_without_dot(objects, tmp_path, monkeypatch, capsys):
    obj = tmp_path / "k.o"
    obj.write_bytes(objects["ET_REL"])
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert objdump_main(["--cfg", str(obj), "-o", str(tmp_path / "cfg")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "dot" in err[0] and "apt-get install graphviz" in err[0], err
    assert "Traceback" not in err[0]


def test_cli_usage(objects, tmp_path, capsys):
    obj = tmp_path / "k.o"
    obj.write_bytes(objects["ET_REL"])
    assert objdump_main(["--cfg", str(obj)]) == 2
    assert "-o DIR" in capsys.readouterr().err
    assert objdump_main(["-d", "-o", str(tmp_path), str(obj)]) == 2
    # --resource-usage still works beside the new option
    assert objdump_main(["--resource-usage", str(obj)]) == 0
    assert "cfg_kernel" in capsys.readouterr().out

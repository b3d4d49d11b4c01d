"""Calls the static checker follows (analysis.calls, hazards.Callees): a call
whose block computes its target from the PC (s_getpc_b64 + s_add_u32/
s_addc_u32 of the resolved rel32 literals) returns with what the callee leaves
outstanding, so a caller that reads a register the callee's load still owns
is reported; so is a tail jump's target. Assembled and linked here."""

import pytest

from amdgpu_tools.analysis.calls import direct_targets
from amdgpu_tools.analysis.cfg import control_flow_graphs
from amdgpu_tools.analysis.hazards import check_elf
from amdgpu_tools.asm import assemble
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.link import link

SOURCE = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5
.text
.globl caller
.p2align 8
.type caller,@function
caller:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, {callee}@rel32@lo+4
  {between}
  s_addc_u32 s5, s5, {callee}@rel32@hi+12
  s_mov_b32 s6, 0
  s_swappc_b64 s[30:31], s[4:5]
  v_mov_b32_e32 v2, v1
  s_endpgm
.Lcaller_end:
  .size caller, .Lcaller_end-caller

.hidden loader
.globl loader
.p2align 2
.type loader,@function
loader:
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  global_load_dword v1, v[4:5], off
  {wait}
  s_setpc_b64 s[30:31]
.Lloader_end:
  .size loader, .Lloader_end-loader

.hidden jumper
.globl jumper
.p2align 2
.type jumper,@function
jumper:
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, loader@rel32@lo+4
  s_addc_u32 s17, s17, loader@rel32@hi+12
  s_setpc_b64 s[16:17]
.Ljumper_end:
  .size jumper, .Ljumper_end-jumper

.rodata
.p2align 6
.amdhsa_kernel caller
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 32
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: caller
    .symbol: caller.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 32
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata
"""


def code_object(callee="loader", wait="", between="", linked=True):
    relocatable = assemble(SOURCE.format(callee=callee, wait=wait, between=between), "gfx900")
    return read_elf(link([relocatable]) if linked else relocatable)


def raw_hazards(elf):
    return [h for h in check_elf(elf) if h.rule == "raw"]


def entries(elf):
    return {graph.name: graph.entry for graph in control_flow_graphs(elf)}


def test_direct_targets_are_the_callees():
    elf = code_object()
    graphs = {graph.name: graph for graph in control_flow_graphs(elf)}
    where = entries(elf)
    (call,) = direct_targets(graphs["caller"]).items()
    assert call == (where["caller"] + 0x18, where["loader"])
    (jump,) = direct_targets(graphs["jumper"]).items()
    assert jump == (where["jumper"] + 0x18, where["loader"])


@pytest.mark.parametrize("callee", ["loader", "jumper"])
def test_a_load_the_callee_leaves_outstanding_is_reported_in_the_caller(callee):
    elf = code_object(callee)
    (hazard,) = raw_hazards(elf)
    assert hazard.function == "kernel caller" and hazard.register == "v1"
    assert hazard.text == "v_mov_b32_e32 v2, v1"
    assert hazard.source_text == "global_load_dword v1, v[4:5], off"
    assert hazard.source_pc == entries(elf)["loader"] + 4
    assert "no s_waitcnt vmcnt(0) between" in hazard.describe()


@pytest.mark.parametrize("callee", ["loader", "jumper"])
def test_a_callee_that_waits_before_returning_is_clean(callee):
    assert raw_hazards(code_object(callee, wait="s_waitcnt vmcnt(0)")) == []


def test_calls_stay_unknown_where_the_target_is_not_exact():
    # an SCC writer between the add and the addc: the carry is not the add's
    assert raw_hazards(code_object(between="s_cmp_eq_u32 s6, 0")) == []
    # another write of the pair
    assert raw_hazards(code_object(between="s_mov_b32 s4, 0")) == []
    # an object: the literals are relocated only when it is linked
    assert raw_hazards(code_object(linked=False)) == []

"""Launches that reuse what an earlier launch set up (the kept initial batch
state, the lent kernarg segment and completion signal) give the results a
fresh device gives: across a different geometry, a different dynamic LDS
size, code rewritten in device memory, and per-dispatch values (dispatch id,
dispatch and kernarg pointers) that change with every launch."""

from __future__ import annotations

import numpy as np

from amdgpu_tools import Device
from amdgpu_tools.asm import assemble
from amdgpu_tools.exec.core import prototype
from amdgpu_tools.runtime.layouts import AMD_SIGNAL, AMD_SIGNAL_KIND_USER

KERNEL = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
{body}
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 24
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - {{ .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }}
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata
"""

# user SGPRs: s[0:1] dispatch ptr, s[2:3] kernarg ptr, s[4:5] dispatch id; s6 work-group id

#: out[global id] = work-group id << 16 | work-item id (global id = wg * block + lid)
IDS = """
  s_load_dwordx2 s[10:11], s[2:3], 0x0
  s_load_dword s12, s[0:1], 0x4          // workgroup_size_x (low half) from the packet
  s_waitcnt lgkmcnt(0)
  s_and_b32 s12, s12, 0xffff
  s_mul_i32 s13, s6, s12
  v_add_u32 v1, s13, v0
  v_lshlrev_b32 v1, 2, v1
  s_lshl_b32 s14, s6, 16
  v_or_b32 v2, s14, v0
  global_store_dword v1, v2, s[10:11]"""

#: out[0..5] = dispatch ptr, kernarg ptr, dispatch id (lo, hi each), from lane 0
DISPATCH = """
  s_load_dwordx2 s[10:11], s[2:3], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0
  v_mov_b32 v2, s0
  v_mov_b32 v3, s1
  global_store_dwordx2 v1, v[2:3], s[10:11]
  v_mov_b32 v2, s2
  v_mov_b32 v3, s3
  global_store_dwordx2 v1, v[2:3], s[10:11] offset:8
  v_mov_b32 v2, s4
  v_mov_b32 v3, s5
  global_store_dwordx2 v1, v[2:3], s[10:11] offset:16"""

#: LDS word 256 + lane written then read back: zero unless the launch's dynamic
#: LDS reaches that far (out-of-range DS reads return zero, writes do nothing)
LDS = """
  s_load_dwordx2 s[10:11], s[2:3], 0x0
  v_lshlrev_b32 v1, 2, v0
  v_add_u32 v2, 0x400, v1
  v_add_u32 v3, 0x1234, v0
  ds_write_b32 v2, v3
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v4, v2
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v4, s[10:11]"""

#: out[lane] = a 32-bit literal (rewritten in device memory by the test)
LITERAL = """
  s_load_dwordx2 s[10:11], s[2:3], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 2, v0
  v_mov_b32 v2, 0x5eed1234
  global_store_dword v1, v2, s[10:11]"""


def _program(body, device=None):
    device = device or Device("gfx900")
    return device, device.load(assemble(KERNEL.format(body=body), "gfx900"))


def _ids(grid, block):
    gid = np.arange(grid)
    return ((gid // block) << 16 | gid % block).astype(np.uint32)


def test_other_geometries_between_launches_of_the_same_kernel():
    device, program = _program(IDS)
    shapes = [(64, 64), (256, 128), (100, 64), (128, 64), (100, 64), (64, 64), (1024, 256)]
    for grid, block in shapes:
        out = device.zeros(grid, np.uint32)
        program["k"](out, grid=(grid,), block=(block,))
        assert np.array_equal(out.numpy(), _ids(grid, block)), (grid, block)
        out.free()


def test_dispatch_registers_follow_each_launch():
    device, program = _program(DISPATCH)
    out = device.zeros(6, np.uint32)
    seen = set()
    for _ in range(4):
        index = device.queue.load_write_index()
        program["k"](out, grid=(64,), block=(64,))
        words = out.numpy().view(np.uint64)
        packet = device.queue.packet_address(index)
        assert words[0] == packet and words[2] == index
        seen.add(int(words[1]))
        # the kernarg segment holds the buffer's address where the kernel read it
        assert device.memory.read_u64(int(words[1])) == out.address
    assert len(seen) == 1          # the same lent kernarg segment every time


def test_dynamic_lds_size_between_launches():
    device, program = _program(LDS)
    out = device.zeros(64, np.uint32)
    expected = 0x1234 + np.arange(64, dtype=np.uint32)
    for shared in (0, 2048, 0, 1024 + 4 * 32, 2048):
        out.write(np.full(64, 7, np.uint32))
        program["k"](out, grid=(64,), block=(64,), shared=shared)
        reach = (shared - 1024) // 4          # lanes whose word lies inside the LDS
        want = np.where(np.arange(64) < reach, expected, 0).astype(np.uint32)
        assert np.array_equal(out.numpy(), want), shared


def test_code_rewritten_in_device_memory_runs_as_rewritten():
    device, program = _program(LITERAL)
    out = device.zeros(64, np.uint32)
    program["k"](out, grid=(64,), block=(64,))
    assert (out.numpy() == 0x5EED1234).all()
    code = program.symbol_address("k")
    text = device.memory.read(code, 64)
    at = text.index((0x5EED1234).to_bytes(4, "little"))
    device.memory.write(code + at, (0x0BADF00D).to_bytes(4, "little"))
    program["k"](out, grid=(64,), block=(64,))
    assert (out.numpy() == 0x0BADF00D).all()


def test_a_fresh_device_and_a_reused_one_agree():
    """The same launches on a device whose kept states are forgotten before each
    one, and on one that reuses them: bit-identical buffers."""
    results = []
    for reuse in (False, True):
        device, program = _program(IDS)
        outs = []
        for grid, block in [(128, 64), (192, 64), (128, 64)]:
            if not reuse:
                prototype.clear()
            out = device.zeros(grid, np.uint32)
            program["k"](out, grid=(grid,), block=(block,))
            outs.append(out.numpy())
        results.append(outs)
    for fresh, reused in zip(*results):
        assert np.array_equal(fresh, reused)


def test_lent_signal_and_kernarg_leave_no_trace_of_the_last_launch():
    device, program = _program(DISPATCH)
    out = device.zeros(6, np.uint32)
    before = len(device.memory.allocations())
    program["k"](out, grid=(64,), block=(64,))
    kernarg = int(out.numpy().view(np.uint64)[1])
    device.memory.write(kernarg + 8, b"\xff" * 8)      # past the argument: must be zero again
    program["k"](out, grid=(64,), block=(64,))
    assert device.memory.read(kernarg + 8, 8) == bytes(8)
    assert len(device.memory.allocations()) == before
    lent = device.launch_resources._signal.item
    assert AMD_SIGNAL.read(device.memory, lent.handle, "kind") == AMD_SIGNAL_KIND_USER
    assert lent.load() == 0              # decremented by the last dispatch


def test_concurrent_launches_fall_back_to_their_own_segment():
    """While the lent items are out (taken by a launch still in flight), a launch
    maps its own and unmaps it afterwards."""
    device, program = _program(DISPATCH)
    out = device.zeros(6, np.uint32)
    resources = device.launch_resources
    kernarg = resources.kernarg(b"", resources.kernarg_size, 16)
    signal = resources.signal(1)
    before = len(device.memory.allocations())
    program["k"](out, grid=(64,), block=(64,))
    assert int(out.numpy().view(np.uint64)[1]) != kernarg.item
    assert len(device.memory.allocations()) == before
    kernarg.destroy()
    signal.destroy()
    program["k"](out, grid=(64,), block=(64,))
    assert int(out.numpy().view(np.uint64)[1]) == kernarg.item

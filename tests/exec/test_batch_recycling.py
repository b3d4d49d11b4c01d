"""A batch takes the register and LDS arrays of the batch before it (mapped
and warm) and still starts from zeros: what one batch leaves in VGPRs, SGPRs
and LDS is never seen by the next."""

from __future__ import annotations

import numpy as np
import pytest

from amdgpu_tools.exec.core import dispatch, prototype

from .kernel_util import Kernel

# out[gid] = v5 + s10 + LDS[tid] as the wave finds them; then all three are
# dirtied, so a batch that inherited them unzeroed would store non-zeros
READ_THEN_DIRTY = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v2, 2, v0
v_mov_b32 v3, 0x100
v_mad_u32_u24 v3, s2, v3, v2
ds_read_b32 v4, v2
s_waitcnt lgkmcnt(0)
v_add_u32 v4, v4, v5
v_add_u32 v4, s10, v4
global_store_dword v3, v4, s[4:5]
v_mov_b32 v5, 0x55
s_mov_b32 s10, 0x77
v_mov_b32 v6, 0x99
ds_write_b32 v2, v6
s_waitcnt vmcnt(0) lgkmcnt(0)
"""


@pytest.fixture
def small_batches(monkeypatch):
    """Batches of two waves, each built (no prototypes), the arrays each
    batch's scheduler got listed."""
    monkeypatch.setattr(dispatch, "MAX_BATCH_WAVES", 2)
    monkeypatch.setattr(prototype, "PROTOTYPE_MAX_BYTES", 0)
    seen = []
    original = dispatch.Scheduler.__init__

    def spy(self, state, *args):
        seen.append((state.vgpr, state.sgpr, state.lds))
        original(self, state, *args)
    monkeypatch.setattr(dispatch.Scheduler, "__init__", spy)
    return seen


def test_recycled_batches_start_from_zeros(small_batches):
    kernel = Kernel(READ_THEN_DIRTY, lds=256)
    out = kernel.buffer(np.full(8 * 64, 0xDEAD, np.uint32))
    kernel.run([out], grid=8 * 64, block=64)
    assert (kernel.read(out, np.uint32, 8 * 64) == 0).all()
    assert len(small_batches) == 4
    first = small_batches[0]
    for later in small_batches[1:]:      # the same arrays, passed on
        assert all(a is b for a, b in zip(later, first))


def test_an_initializer_gets_arrays_of_its_own(small_batches):
    """A test's initializer may keep the state it saw: no later batch takes it."""
    kernel = Kernel(READ_THEN_DIRTY, lds=256)
    out = kernel.buffer(np.zeros(4 * 64, np.uint32))
    kept = []

    def initializer(state, request, layout, group_ids):
        kept.append(state)
    from amdgpu_tools.exec import run_dispatch
    from amdgpu_tools.exec.launch import DispatchRequest
    blob = int(out).to_bytes(8, "little")
    kernarg = kernel.memory.allocate(64)
    kernel.memory.write(kernarg, blob)
    run_dispatch(DispatchRequest(memory=kernel.memory, target=kernel.target, kernel_name="k",
                                 setup=kernel.setup, grid_size=(4 * 64, 1, 1),
                                 workgroup_size=(64, 1, 1), packet_address=0, queue_address=0,
                                 kernarg_address=kernarg, group_segment_size=256),
                 initializer=initializer)
    assert len(kept) == 2 and kept[0].vgpr is not kept[1].vgpr
    assert (kept[0].vgpr[5] == 0x55).all()          # as the first batch left them

"""ds_ordered_count: the offset fields as LLVM encodes llvm.amdgcn.ds.ordered.add/
swap, waves served in creation order (a wave waits until every earlier wave
released its turn or ended), the counters kept by the device."""

from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from amdgpu_tools.exec.core import dispatch
from amdgpu_tools.exec.core.context import Retry
from amdgpu_tools.exec.semantics.gds import UnmodelledEncoding, gds_storage, ordered_count_fields

from .test_mem_ds import ds
from .test_mem_support import make_state, run
from .test_scheduler_kernels import build, device  # noqa: F401  (fixture)

RELEASE_DONE = 0x03
SWAP = 0x10


def test_fields_of_llvm_encodings():
    # llvm.amdgcn.ds.ordered.add(..., index 1, wave_release 1, wave_done 1) -> offset:772
    assert ordered_count_fields(772 & 0xFF, 772 >> 8) == (1, True, True, False)
    # the swap form sets offset1 bit 4 (offset:4868)
    assert ordered_count_fields(4868 & 0xFF, 4868 >> 8) == (1, True, True, True)
    assert ordered_count_fields(12, 0) == (3, False, False, False)


@pytest.mark.parametrize("offset0,offset1,message", [
    (0, 0x04, "shader type 1"), (0, 0x20, "GFX10 dword count"), (16, 0, "counter index 4"),
    (2, 0, "bits \\[1:0\\]")])
def test_unmodelled_fields_are_refused(offset0, offset1, message):
    with pytest.raises(UnmodelledEncoding, match=message):
        ordered_count_fields(offset0, offset1)
    state = make_state(waves=1)
    with pytest.raises(KernelError, match="not supported"):
        run(state, "ds_ordered_count", "DS",
            ds(addr=1, vdst=2, offset0=offset0, offset1=offset1, gds=1))


def ordered(state, waves, offset1, offset0=0):
    sel = np.asarray(waves, np.int64)
    outcome = run(state, "ds_ordered_count", "DS",
                  ds(addr=1, vdst=2, offset0=offset0, offset1=offset1, gds=1), sel=sel)
    if outcome is None:
        return [False] * len(waves)
    assert isinstance(outcome, Retry)
    return np.broadcast_to(np.asarray(outcome.blocked), (len(waves),)).tolist()


def test_a_wave_keeps_its_turn_until_it_releases():
    state = make_state(waves=2)
    state.vgpr[1] = np.array([[5], [7]])
    state.vgpr[2] = 99
    assert ordered(state, [1], RELEASE_DONE) == [True]          # wave 0 has not gone yet
    assert state.vgpr[2, 1, 0] == 99                              # nothing written
    assert ordered(state, [0], 0) == [False]                     # add, keeps the turn
    assert ordered(state, [1], RELEASE_DONE) == [True]
    assert ordered(state, [0], RELEASE_DONE) == [False]
    assert ordered(state, [1], RELEASE_DONE) == [False]
    assert state.vgpr[2, :, 0].tolist() == [5, 10]
    assert gds_storage(state).ordered[0] == 17


def test_swap_and_counter_index():
    state = make_state(waves=2)
    state.vgpr[1] = np.array([[5], [7]])
    assert ordered(state, [0, 1], RELEASE_DONE | SWAP, offset0=8) == [False, False]
    assert state.vgpr[2, :, 0].tolist() == [0, 5]
    assert gds_storage(state).ordered == [0, 0, 7, 0]


def test_one_group_is_served_in_wave_order():
    state = make_state(waves=3)
    state.wave_number[:] = [2, 0, 1]                             # creation order differs
    state.vgpr[1] = np.array([[1], [10], [100]])
    assert ordered(state, [0, 1, 2], RELEASE_DONE) == [False] * 3
    assert state.vgpr[2, :, 0].tolist() == [110, 0, 10]


# Waves 0 and 1 (one per work-group) loop at the highest PCs first, so waves
# 2 and 3 reach ds_ordered_count (counter 1, release + done) before them; each
# adds w + 1 and stores the value it got to out[w].
ORDERED = """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 m0, 0
  s_cmp_lt_u32 s2, {slow}
  s_cbranch_scc1 SLOW
COUNT:
  s_add_u32 s9, s2, 1
  v_mov_b32 v1, s9
  ds_ordered_count v2, v1 offset:772 gds
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s10, s2, 2
  v_mov_b32 v3, s10
  global_store_dword v3, v2, s[4:5]
  s_endpgm
SLOW:
  s_mov_b32 s8, 30
LOOP:
  s_sub_u32 s8, s8, 1
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc0 LOOP
  s_cmp_eq_u32 s2, {skip}
  s_cbranch_scc1 EXIT
  s_branch COUNT
EXIT:
"""


def run_ordered(device, out, slow=2, skip=99):
    kernel = build(device, ORDERED.format(slow=slow, skip=skip), name=f"ordered{skip}")
    kernel(out, grid=(4,), block=(1,))
    device.synchronize()
    return out.numpy().tolist()


def test_waves_are_served_in_creation_order_and_counters_persist(device):
    out = device.zeros(4, np.uint32)
    assert run_ordered(device, out) == [0, 1, 3, 6]
    assert run_ordered(device, out) == [10, 11, 13, 16]
    assert device.agent.processor.gds.ordered[1] == 20


def test_order_holds_across_batches(device, monkeypatch):
    monkeypatch.setattr(dispatch, "MAX_BATCH_WAVES", 2)
    out = device.zeros(4, np.uint32)
    assert run_ordered(device, out, slow=4) == [0, 1, 3, 6]


def test_a_wave_that_ends_without_an_ordered_count_frees_its_turn(device):
    out = device.array(np.full(4, 0xFFFFFFFF, np.uint32))
    # wave 0 loops, then ends without counting; waves 2 and 3 must still wait for wave 1
    assert run_ordered(device, out, skip=0) == [0xFFFFFFFF, 0, 2, 5]


COMPILED = Path(__file__).parent / "data" / "gds_kernels_gfx900.o"     # see gds_kernels.ll


@pytest.mark.parametrize("batch_waves", [1024, 3])
def test_llvm_ordered_add_gives_prefix_sums_in_group_order(device, monkeypatch, batch_waves):
    # llvm.amdgcn.ds.ordered.add(null, group + 1, index 1, release, done):
    # ds_ordered_count v0, v0 offset:772 gds with M0 = 0
    monkeypatch.setattr(dispatch, "MAX_BATCH_WAVES", batch_waves)
    kernel = device.load(COMPILED.read_bytes())["ordered_add"]
    out = device.zeros(8, np.uint32)
    kernel(out, grid=(8 * 64,), block=(64,))
    device.synchronize()
    values = np.arange(8) + 1
    assert out.numpy().tolist() == (np.cumsum(values) - values).tolist()

"""DS instructions with the gds bit: the M0 window rule (base M0[31:16], size
M0[15:0]), out-of-range behaviour, atomics in lane-then-wave order, and GDS
living as long as the device (two dispatches through the Device API)."""

from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.exec.launch import GDS_BYTES, GlobalDataShare
from amdgpu_tools.exec.semantics.gds import gds_storage

from .test_mem_ds import LANE, ds
from .test_mem_support import make_state, run, set_exec
from .test_scheduler_kernels import build

M0 = 124


def gds_state(waves=1, m0=0xFFFF, seed=None):
    state = make_state(waves=waves, groups=waves, lds_bytes=256)
    state.sgpr[M0] = m0
    if seed is not None:
        memory = gds_storage(state).memory
        memory[:] = np.random.default_rng(seed).integers(0, 256, memory.shape, np.uint8)
    return state


def gds_words(state):
    return gds_storage(state).memory.view(np.uint32)


def test_window_base_and_size_from_m0():
    state = gds_state(m0=(0x100 << 16) | 0x80)        # base 0x100, 128 bytes
    state.vgpr[0] = LANE * 4
    state.vgpr[1] = LANE + 500
    run(state, "ds_write_b32", "DS", ds(addr=0, data0=1, offset=8, gds=1))
    words = gds_words(state)
    # window bytes 8..127 -> lanes 0..29 land at 0x108.., lane 30 on would end past 128
    assert words[0x108 // 4:0x108 // 4 + 30].tolist() == (LANE[:30] + 500).tolist()
    assert not words[:0x108 // 4].any() and not words[0x180 // 4:].any()
    assert not state.lds.any()
    state.vgpr[2] = 0xDEAD
    run(state, "ds_read_b32", "DS", ds(addr=0, vdst=2, offset=8, gds=1))
    expected = np.where(LANE < 30, LANE + 500, 0)             # out of range reads zero
    assert state.vgpr[2, 0].tolist() == expected.tolist()


def test_window_end_at_the_64k_limit():
    state = gds_state(m0=(0xFFF0 << 16) | 0xFFFF)      # window runs past GDS's end
    state.vgpr[0] = LANE * 4
    state.vgpr[1] = 9
    run(state, "ds_write_b32", "DS", ds(addr=0, data0=1, gds=1))
    words = gds_words(state)
    assert words[0xFFF0 // 4:].tolist() == [9] * 4
    assert int(words.sum()) == 36


def test_atomics_apply_in_lane_then_wave_order():
    state = gds_state(waves=2)
    state.vgpr[0] = (LANE % 4) * 4                   # 16 lanes per counter, per wave
    state.vgpr[1] = np.arange(128).reshape(2, 64) + 1
    run(state, "ds_add_rtn_u32", "DS", ds(addr=0, data0=1, vdst=2, gds=1))
    data = (np.arange(128) + 1).reshape(2, 64)
    counter = np.tile(LANE % 4, (2, 1))
    expected = np.zeros((2, 64), np.int64)
    totals = np.zeros(4, np.int64)
    for wave in range(2):
        for lane in range(64):
            expected[wave, lane] = totals[counter[wave, lane]]
            totals[counter[wave, lane]] += data[wave, lane]
    assert state.vgpr[2].tolist() == expected.tolist()
    assert gds_words(state)[:4].tolist() == totals.tolist()


def test_64_bit_compare_store_and_read2():
    state = gds_state(seed=4)
    before = gds_storage(state).memory.view(np.uint64).copy()
    state.vgpr[0] = LANE * 8
    state.vgpr[1] = before[:64] & 0xFFFFFFFF          # compare = memory on even lanes
    state.vgpr[2] = np.where(LANE % 2 == 0, before[:64] >> 32, 0)
    state.vgpr[3] = LANE
    state.vgpr[4] = 0
    run(state, "ds_cmpst_b64", "DS", ds(addr=0, data0=1, data1=3, gds=1))
    after = gds_storage(state).memory.view(np.uint64)
    assert after[:64].tolist() == np.where(LANE % 2 == 0, LANE.astype(np.uint64), before[:64]).tolist()
    run(state, "ds_read2_b32", "DS", ds(addr=0, vdst=6, offset0=0, offset1=1, gds=1))
    assert state.vgpr[6, 0].tolist() == (after[:64] & 0xFFFFFFFF).tolist()
    assert state.vgpr[7, 0].tolist() == (after[:64] >> 32).tolist()


def test_append_counts_active_lanes_at_the_window_offset():
    state = gds_state(waves=2, m0=(0x40 << 16) | 0x100)
    active = np.zeros((2, 64), bool)
    active[0, :10] = True
    active[1, ::2] = True
    set_exec(state, active)
    run(state, "ds_append", "DS", ds(vdst=3, offset=12, gds=1))
    assert gds_words(state)[(0x40 + 12) // 4] == 10 + 32
    assert state.vgpr[3, 0, :10].tolist() == [0] * 10
    assert state.vgpr[3, 1, ::2].tolist() == [10] * 32


def test_src2_on_gds():
    state = gds_state(seed=2)
    before = gds_words(state).astype(np.int64).copy()
    state.vgpr[0] = LANE * 8
    run(state, "ds_max_src2_u32", "DS", ds(addr=0, offset=1, gds=1))
    expected = before.copy()
    expected[0:128:2] = np.maximum(before[0:128:2], before[1:128:2])
    assert gds_words(state).tolist() == expected.tolist()


def test_addtid_with_gds_is_refused():
    state = gds_state()
    from amdgpu_tools.errors import KernelError
    with pytest.raises(KernelError, match="addtid.*gds bit is not supported"):
        run(state, "ds_read_addtid_b32", "DS", ds(vdst=1, gds=1))


def test_a_request_without_gds_gets_one_for_all_its_batches():
    state = gds_state()
    assert state.request.gds is None or isinstance(state.request.gds, GlobalDataShare)
    storage = gds_storage(state)
    assert state.request.gds is storage and storage.memory.size == GDS_BYTES
    assert gds_storage(state) is storage


ADD = """
  s_mov_b32 m0, 0xffff
  v_lshlrev_b32 v1, 2, v0
  v_add_u32 v2, 1, v0
  ds_add_u32 v1, v2 gds
  s_waitcnt lgkmcnt(0)
"""
READ = """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_mov_b32 m0, 0xffff
  v_lshlrev_b32 v1, 2, v0
  ds_read_b32 v2, v1 gds
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[4:5]
"""


def test_gds_persists_across_dispatches_of_a_device():
    device = Device("gfx900")
    add, read = build(device, ADD, name="add"), build(device, READ, name="read")
    out = device.zeros(64, np.uint32)
    add(out, grid=(128,), block=(64,))               # two work-groups, each adds
    add(out, grid=(64,), block=(64,))
    read(out, grid=(64,), block=(64,))
    device.synchronize()
    # GDS word w got w + 1 from each of the three work-groups
    assert out.numpy().tolist() == (3 * (np.arange(64) + 1)).tolist()
    other = Device("gfx900")                         # another device: its own zeroed GDS
    fresh = other.zeros(64, np.uint32)
    build(other, READ, name="read")(fresh, grid=(64,), block=(64,))
    other.synchronize()
    assert not fresh.numpy().any()


COMPILED = Path(__file__).parent / "data" / "gds_kernels_gfx900.o"     # see gds_kernels.ll


def test_llvm_compiled_gds_atomics_use_m0_as_the_window_size():
    # llc sets M0 = 16 (the kernel's GDS bytes) around ds_add_rtn_u32 ... gds
    device = Device("gfx900")
    kernel = device.load(COMPILED.read_bytes())["gds_add"]
    out = device.zeros(64, np.uint32)
    lanes = np.arange(64)
    for dispatch in range(2):
        kernel(out, grid=(64,), block=(64,))
        device.synchronize()
        # 16 lanes per counter, in lane order; the counters carry over
        assert out.numpy().tolist() == (16 * dispatch + lanes // 4).tolist()
    assert device.agent.processor.gds.memory[:16].view(np.uint32).tolist() == [32] * 4


def test_a_request_may_bring_its_own_gds():
    storage = GlobalDataShare()
    storage.memory[:256] = np.arange(256, dtype=np.uint8)
    state = gds_state()
    state.request.gds = storage
    state.vgpr[0] = LANE * 4
    run(state, "ds_read_b32", "DS", ds(addr=0, vdst=1, gds=1))
    assert state.vgpr[1, 0].tolist() == storage.memory[:256].view(np.uint32).tolist()

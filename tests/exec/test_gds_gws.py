"""Global wave sync: ds_gws_init/barrier/sema_v/sema_br/sema_p/sema_release_all.

The state machine is checked step by step on hand-made batches (which waves
are blocked, counters, resource ids), then in kernels through the Device API
where waves of different work-groups really wait for each other, and where a
barrier that needs waves of a later batch ends in the deadlock error."""

from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from amdgpu_tools.exec.core import dispatch
from amdgpu_tools.exec.core.context import Retry
from amdgpu_tools.exec.semantics.gds import gds_storage

from .test_mem_ds import ds
from .test_mem_support import make_state, run, set_exec
from .test_scheduler_kernels import build, device  # noqa: F401  (fixture)

M0 = 124


def gws_state(waves):
    state = make_state(waves=waves, groups=waves)
    state.sgpr[M0] = 0
    return state


def blocked(outcome, n):
    """The blocked flags of an outcome (None: nobody waits)."""
    if outcome is None:
        return [False] * n
    assert isinstance(outcome, Retry)
    return np.broadcast_to(np.asarray(outcome.blocked), (n,)).tolist()


def gws(state, op, waves, value=None, offset=0):
    if value is not None:
        state.vgpr[1] = value
    sel = np.asarray(waves, np.int64)
    sel = slice(int(sel[0]), int(sel[-1]) + 1) if len(sel) == sel[-1] - sel[0] + 1 else sel
    return blocked(run(state, op, "DS", ds(addr=1, offset=offset, gds=1), sel=sel), len(waves))


def test_barrier_releases_when_the_last_of_n_waves_arrives():
    state = gws_state(3)
    gws(state, "ds_gws_init", [0], value=2)                  # 3 waves: count - 1
    resource = gds_storage(state).resource(0)
    assert (resource.counter, resource.kind) == (2, "barrier")
    assert gws(state, "ds_gws_barrier", [0], value=2) == [True]
    assert gws(state, "ds_gws_barrier", [1], value=2) == [True]
    assert resource.counter == 0
    assert gws(state, "ds_gws_barrier", [0, 1], value=2) == [True, True]   # retried, not recounted
    assert resource.counter == 0
    assert gws(state, "ds_gws_barrier", [2], value=2) == [False]
    assert resource.counter == 2                               # reset to the last wave's value
    assert gws(state, "ds_gws_barrier", [0, 1], value=2) == [False, False]
    # the barrier can be used again at once
    assert gws(state, "ds_gws_barrier", [2, 0], value=2) == [True, True]
    assert gws(state, "ds_gws_barrier", [1], value=2) == [False]
    assert gws(state, "ds_gws_barrier", [0, 2], value=2) == [False, False]


def test_all_waves_arriving_together_pass_in_one_step():
    state = gws_state(4)
    gws(state, "ds_gws_init", [0], value=3)
    assert gws(state, "ds_gws_barrier", [0, 1, 2, 3], value=3) == [False] * 4


def test_value_comes_from_the_first_active_lane_and_resource_id_from_m0():
    state = gws_state(1)
    state.sgpr[M0] = 62 << 16                                 # M0[21:16] = 62
    lanes = np.zeros((1, 64), bool)
    lanes[0, 5:] = True
    set_exec(state, lanes)
    state.vgpr[1] = np.arange(64) + 100
    run(state, "ds_gws_init", "DS", ds(addr=1, offset=3, gds=1))
    storage = gds_storage(state)
    assert list(storage.gws) == [(62 + 3) % 64]
    assert storage.resource(1).counter == 105


def test_semaphore_p_waits_for_v_and_br_in_wave_order():
    state = gws_state(3)
    assert gws(state, "ds_gws_sema_p", [0, 1, 2], offset=7) == [True, True, True]
    gws(state, "ds_gws_sema_v", [2], offset=7)
    assert gws(state, "ds_gws_sema_p", [0, 1, 2], offset=7) == [False, True, True]
    gws(state, "ds_gws_sema_br", [0], value=5, offset=7)
    assert gws(state, "ds_gws_sema_p", [1, 2], offset=7) == [False, False]
    resource = gds_storage(state).resource(7)
    assert (resource.counter, resource.kind) == (3, "semaphore")


def test_release_all_lets_every_waiting_wave_go_without_a_count():
    state = gws_state(3)
    assert gws(state, "ds_gws_sema_p", [0, 1]) == [True, True]
    gws(state, "ds_gws_sema_release_all", [2])
    assert gws(state, "ds_gws_sema_p", [0, 1]) == [False, False]
    assert gds_storage(state).resource(0).counter == 0
    # a wave arriving after the release waits for a count as usual
    assert gws(state, "ds_gws_sema_p", [2]) == [True]


def test_gws_without_the_gds_bit_is_refused():
    state = gws_state(1)
    with pytest.raises(KernelError, match="GDS-only"):
        run(state, "ds_gws_barrier", "DS", ds(addr=1))


# Wave w (one per work-group) loops w * 20 times at the highest PCs, stores
# w + 1 into flags[w], waits at the GWS barrier (resource 5), then copies
# flags[(w + 1) % 4] into out[w] right below it: a wave that passed the
# barrier early would run that copy (lowest PC first) before the slower
# waves' stores, so the values are correct only if the barrier held it.
STAGGERED = """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 m0, 0
  s_branch START
DONE:
  s_add_u32 s9, s2, 1
  v_mov_b32 v1, s9
  s_lshl_b32 s10, s2, 2
  v_mov_b32 v2, s10
  global_store_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v5, 3
  ds_gws_barrier v5 offset:5 gds
  s_waitcnt lgkmcnt(0)
  s_and_b32 s11, s9, 3
  s_lshl_b32 s11, s11, 2
  v_mov_b32 v3, s11
  global_load_dword v4, v3, s[4:5]
  s_waitcnt vmcnt(0)
  global_store_dword v2, v4, s[6:7]
  s_endpgm
START:
  s_mul_i32 s8, s2, 20
LOOP:
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 DONE
  s_sub_u32 s8, s8, 1
  s_branch LOOP
"""
INIT = """
  s_mov_b32 m0, 0
  v_mov_b32 v5, {count}
  ds_gws_init v5 offset:5 gds
  s_waitcnt lgkmcnt(0)
"""


def test_barrier_kernel_waits_for_every_wave_and_is_reusable(device):
    build(device, INIT.format(count=3), name="init")(device.zeros(1, np.uint32),
                                                      grid=(1,), block=(1,))
    kernel = build(device, STAGGERED, buffers=2)
    for _ in range(2):                      # the resource is re-armed by its last wave
        flags, out = device.zeros(4, np.uint32), device.zeros(4, np.uint32)
        kernel(flags, out, grid=(4,), block=(1,))
        device.synchronize()
        assert flags.numpy().tolist() == [1, 2, 3, 4]
        assert out.numpy().tolist() == [2, 3, 4, 1]


def test_barrier_waiting_for_a_later_batch_is_a_deadlock(device, monkeypatch):
    monkeypatch.setattr(dispatch, "MAX_BATCH_WAVES", 2)   # waves 2, 3 are not resident
    build(device, INIT.format(count=3), name="init")(device.zeros(1, np.uint32),
                                                      grid=(1,), block=(1,))
    kernel = build(device, STAGGERED, buffers=2)
    flags, out = device.zeros(4, np.uint32), device.zeros(4, np.uint32)
    with pytest.raises(KernelError) as caught:
        kernel(flags, out, grid=(4,), block=(1,))
        device.synchronize()
    text = str(caught.value)
    assert "deadlock" in text and "ds_gws_barrier" in text


# Waves 1-3 take a count from semaphore 9 before reading flags[0]; wave 0
# (at a higher PC, after a loop) stores flags[0] = 7 and then releases three.
SEMAPHORE = """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 m0, 0
  s_lshl_b32 s10, s2, 2
  v_mov_b32 v2, s10
  v_mov_b32 v3, 0
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc1 PRODUCER
  ds_gws_sema_p offset:9 gds
  s_waitcnt lgkmcnt(0)
  global_load_dword v4, v3, s[4:5]
  s_waitcnt vmcnt(0)
  global_store_dword v2, v4, s[6:7]
  s_branch END
PRODUCER:
  s_mov_b32 s8, 50
LOOP:
  s_sub_u32 s8, s8, 1
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc0 LOOP
  v_mov_b32 v1, 7
  global_store_dword v3, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v5, 3
  ds_gws_sema_br v5 offset:9 gds
  s_waitcnt lgkmcnt(0)
END:
"""


def test_semaphore_kernel_consumers_wait_for_the_producer(device):
    kernel = build(device, SEMAPHORE, buffers=2)
    flags, out = device.zeros(4, np.uint32), device.zeros(4, np.uint32)
    kernel(flags, out, grid=(4,), block=(1,))
    device.synchronize()
    assert out.numpy().tolist() == [0, 7, 7, 7]
    assert device.agent.processor.gds.resource(9).counter == 0


COMPILED = Path(__file__).parent / "data" / "gds_kernels_gfx900.o"     # see gds_kernels.ll


def test_llvm_gws_intrinsics_with_a_run_time_resource_id(device):
    # llc: M0 = rid << 16, the count in the ADDR VGPR of ds_gws_init/barrier
    program = device.load(COMPILED.read_bytes())
    init, barrier = program["gws_init"], program["gws_barrier"]
    init(np.uint32(3), np.uint32(40), grid=(1,), block=(1,))
    out = device.zeros(4, np.uint32)
    barrier(out, np.uint32(3), np.uint32(40), grid=(4 * 64,), block=(64,))
    device.synchronize()
    assert out.numpy().tolist() == [1] * 4
    resource = device.agent.processor.gds.resource(40)
    assert (resource.counter, resource.flag, resource.kind) == (3, 1, "barrier")
    init(np.uint32(4), np.uint32(40), grid=(1,), block=(1,))     # now 5 waves are needed
    with pytest.raises(KernelError, match="deadlock"):
        barrier(out, np.uint32(4), np.uint32(40), grid=(4 * 64,), block=(64,))
        device.synchronize()

"""Fair scheduling: spin locks and flag waits between waves of one batch
finish (a group that spins for a long slice lets every waiting group take a
turn), while a spin that can never succeed still ends with the watchdog.

Each wave's lane 0 takes the lock, increments a shared counter with a plain
(non-atomic) load/add/store inside the critical section, and releases the
lock: the final count equals the number of waves only if the lock excluded
the others and every wave got through.
"""

import numpy as np
import pytest

from amdgpu_tools.errors import WatchdogTimeout
from amdgpu_tools.exec.core import dispatch
from amdgpu_tools.exec.launch import ExecutionLimits

from .test_scheduler_kernels import build, new_device

# p0: [0] lock word, [1] counter; a delay loop of s3 passes in the critical
# section makes the holder stay while the others spin.
MUTEX = """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b64 exec, 1
  v_mov_b32 v1, 0
  v_mov_b32 v2, 1
  v_mov_b32 v3, 0
ACQUIRE:
  global_atomic_cmpswap v4, v1, v[2:3], s[4:5] glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s6, v4
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 ACQUIRE
  global_load_dword v5, v1, s[4:5] offset:4 glc
  s_waitcnt vmcnt(0)
  s_mov_b32 s3, 30
DELAY:
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 DELAY
  v_add_u32 v5, 1, v5
  global_store_dword v1, v5, s[4:5] offset:4
  s_waitcnt vmcnt(0)
  global_store_dword v1, v3, s[4:5]
  s_waitcnt vmcnt(0)
"""

# p0: [0] next ticket, [1] now serving, [2] counter; p1[wave] = the ticket
# order in which waves entered (the counter value they saw)
TICKET = """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b64 exec, 1
  v_mov_b32 v1, 0
  v_mov_b32 v2, 1
  global_atomic_add v3, v1, v2, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s8, v3
WAIT:
  global_load_dword v4, v1, s[4:5] offset:4 glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s9, v4
  s_cmp_lg_u32 s9, s8
  s_cbranch_scc1 WAIT
  global_load_dword v5, v1, s[4:5] offset:8 glc
  s_waitcnt vmcnt(0)
  v_add_u32 v6, 1, v5
  global_store_dword v1, v6, s[4:5] offset:8
  s_lshl_b32 s10, s8, 2
  v_mov_b32 v7, s10
  global_store_dword v7, v5, s[6:7]
  s_waitcnt vmcnt(0)
  s_add_u32 s9, s9, 1
  v_mov_b32 v8, s9
  global_store_dword v1, v8, s[4:5] offset:4
  s_waitcnt vmcnt(0)
"""


@pytest.fixture
def device():
    return new_device(limits=ExecutionLimits(max_wave_instructions=5_000_000))


@pytest.mark.parametrize("grid,block", [((256,), (256,)),      # 4 waves, one work-group
                                        ((256,), (64,)),       # 4 work-groups of one wave
                                        ((384,), (128,))])     # 3 work-groups of 2 waves
def test_global_mutex_between_waves_of_one_batch(device, grid, block):
    kernel = build(device, MUTEX)
    words = device.zeros(2, np.uint32)
    kernel(words, grid=grid, block=block)
    device.synchronize()
    assert words.numpy().tolist() == [0, grid[0] // 64]


def test_spinning_waves_that_split_and_merge_every_pass_still_yield(device):
    # the spin loop branches on the work-group's parity, so the spinning
    # group splits and merges again on every pass (each split ends the run
    # loop's stretch): the lock holder must still get its turn
    body = MUTEX.replace("""  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 ACQUIRE""", """  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 ODD
  s_nop 0
ODD:
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 ACQUIRE""")
    kernel = build(device, body)
    words = device.zeros(2, np.uint32)
    kernel(words, grid=(192,), block=(64,))
    device.synchronize()
    assert words.numpy().tolist() == [0, 3]


@pytest.mark.parametrize("grid,block", [((320,), (320,)), ((384,), (64,))])
def test_global_ticket_lock_serves_waves_in_ticket_order(device, grid, block):
    kernel = build(device, TICKET, buffers=2)
    waves = grid[0] // 64
    words, order = device.zeros(3, np.uint32), device.zeros(waves, np.uint32)
    kernel(words, order, grid=grid, block=block)
    device.synchronize()
    assert words.numpy().tolist() == [waves, waves, waves]
    # the wave holding ticket t saw the counter at t
    assert order.numpy().tolist() == list(range(waves))


def test_lds_lock_between_the_waves_of_each_work_group(device):
    # LDS [0] lock, [4] counter; after a barrier wave 0 of each work-group
    # writes its counter to out[work-group]
    kernel = build(device, """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_readfirstlane_b32 s12, v0
  s_mov_b64 exec, 1
  v_mov_b32 v1, 0
  v_mov_b32 v2, 1
  v_mov_b32 v3, 0
ACQUIRE:
  ds_cmpst_rtn_b32 v4, v1, v3, v2
  s_waitcnt lgkmcnt(0)
  v_readfirstlane_b32 s6, v4
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 ACQUIRE
  ds_read_b32 v5, v1 offset:4
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s3, 20
DELAY:
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 DELAY
  v_add_u32 v5, 1, v5
  ds_write_b32 v1, v5 offset:4
  s_waitcnt lgkmcnt(0)
  ds_write_b32 v1, v3
  s_waitcnt lgkmcnt(0)
  s_barrier
  s_cmp_lg_u32 s12, 0
  s_cbranch_scc1 END
  ds_read_b32 v5, v1 offset:4
  s_lshl_b32 s7, s2, 2
  v_mov_b32 v6, s7
  s_waitcnt lgkmcnt(0)
  global_store_dword v6, v5, s[4:5]
END:
""", lds=64)
    out = device.zeros(3, np.uint32)
    kernel(out, grid=(3 * 256,), block=(256,))
    device.synchronize()
    assert out.numpy().tolist() == [4, 4, 4]


def test_consumers_spinning_on_a_flag_see_the_producers_data(device):
    # wave 0 (work-group 0) computes data[0:64] = 3 * lane in a long loop
    # and then sets the flag; the consumers spin on the flag (at lower PCs,
    # so lowest-PC-first alone would run them forever) and copy the data
    kernel = build(device, """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v9, 2, v0
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc1 PRODUCER
  v_mov_b32 v1, 0
SPIN:
  global_load_dword v2, v1, s[4:5] offset:256 glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s8, v2
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 SPIN
  global_load_dword v3, v9, s[4:5] glc
  s_waitcnt vmcnt(0)
  s_lshl_b32 s9, s2, 8
  v_add_u32 v4, s9, v9
  global_store_dword v4, v3, s[6:7]
  s_branch END
PRODUCER:
  v_mov_b32 v5, 0
  s_mov_b32 s3, 2000
WORK:
  v_add_u32 v5, 3, v5
  v_sub_u32 v5, v5, 3
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 WORK
  v_mul_u32_u24 v6, 3, v0
  v_add_u32 v6, v5, v6
  global_store_dword v9, v6, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v7, 0
  v_mov_b32 v8, 1
  global_store_dword v7, v8, s[4:5] offset:256
  s_waitcnt vmcnt(0)
END:
""", buffers=2)
    shared, out = device.zeros(65, np.uint32), device.zeros((5, 64), np.uint32)
    kernel(shared, out, grid=(5 * 64,), block=(64,))
    device.synchronize()
    expected = 3 * np.arange(64)
    assert shared.numpy()[:64].tolist() == expected.tolist()
    assert out.numpy()[1:].tolist() == [expected.tolist()] * 4


def test_a_lane_level_spin_lock_in_one_wave_still_hits_the_watchdog():
    # every lane of the wave wants the lock; the wave loops while any lane
    # failed, so the winner never gets to release it: a hang on hardware too
    device = new_device(limits=ExecutionLimits(max_wave_instructions=5_000))
    kernel = build(device, """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b64 exec, 0xff
  v_mov_b32 v1, 0
  v_mov_b32 v2, 1
  v_mov_b32 v3, 0
ACQUIRE:
  global_atomic_cmpswap v4, v1, v[2:3], s[4:5] glc
  s_waitcnt vmcnt(0)
  v_cmp_ne_u32 vcc, 0, v4
  s_cbranch_vccnz ACQUIRE
  global_store_dword v1, v3, s[4:5]
""")
    words = device.zeros(1, np.uint32)
    with pytest.raises(WatchdogTimeout, match="instruction budget"):
        kernel(words, grid=(128,), block=(64,))
        device.synchronize()


def test_long_divergent_loops_are_still_right_and_deterministic(device):
    # lane-divergent trip counts far beyond one fair slice: out[i] = 2 * (i * 20)
    kernel = build(device, """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s6, s2, 6
  v_add_u32 v1, s6, v0
  v_mul_u32_u24 v2, 20, v1
  v_mov_b32 v3, 0
  v_lshlrev_b32 v9, 2, v1
  s_mov_b64 s[10:11], exec
LOOP:
  v_cmp_ne_u32 vcc, 0, v2
  s_and_b64 exec, exec, vcc
  s_cbranch_execz DONE
  v_add_u32 v3, 2, v3
  v_subrev_u32 v2, 1, v2
  s_branch LOOP
DONE:
  s_mov_b64 exec, s[10:11]
  global_store_dword v9, v3, s[4:5]
""")
    results = []
    for _ in range(2):
        out = device.zeros(128, np.uint32)
        kernel(out, grid=(128,), block=(64,))
        device.synchronize()
        results.append(device.last_result.wave_instructions)
        assert out.numpy().tolist() == (2 * 20 * np.arange(128)).tolist()
    assert results[0] == results[1]
    assert 20 * 127 * 6 > 2 * dispatch.FAIR_SLICE_STEPS      # the loop outlasts slices


def test_after_a_fair_round_the_resumed_group_gets_a_whole_slice(device, monkeypatch):
    # three one-wave work-groups loop independently in three code regions;
    # wave 0 (lowest PC) has ~20000 steps of work, waves 1 and 2 ~30000 each.
    # Slices alternate (wave 0, then waves 1 and 2 in a round), so wave 0
    # ends first; if the group resuming after a round were cut short (the
    # others already waited during the round) it would end last
    ended = []
    original = dispatch.Scheduler._end

    def spy(self, sel):
        ended.extend(int(self.state.workgroup_id[w, 0]) for w in np.atleast_1d(
            np.arange(sel.start, sel.stop) if isinstance(sel, slice) else sel))
        return original(self, sel)
    monkeypatch.setattr(dispatch.Scheduler, "_end", spy)
    kernel = build(device, """
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 NOT0
  s_mov_b32 s3, 6667
L0:
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 L0
  s_endpgm
NOT0:
  s_cmp_eq_u32 s2, 1
  s_cbranch_scc0 NOT1
  s_mov_b32 s3, 10000
L1:
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 L1
  s_endpgm
NOT1:
  s_mov_b32 s3, 10000
L2:
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 L2
""", buffers=0)
    kernel(grid=(192,), block=(64,))
    device.synchronize()
    assert ended[0] == 0 and sorted(ended) == [0, 1, 2]
    assert 3 * 6667 > 4 * dispatch.FAIR_SLICE_STEPS


def test_a_wave_waiting_for_a_flag_nobody_sets_ends_in_the_watchdog():
    # fair turns do not hide a real hang: wave 1 spins on a flag that
    # wave 0 (which has ended) never sets
    device = new_device(limits=ExecutionLimits(max_wave_instructions=20_000))
    kernel = build(device, """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc1 END
  v_mov_b32 v1, 0
SPIN:
  global_load_dword v2, v1, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s6, v2
  s_cmp_eq_u32 s6, 0
  s_cbranch_scc1 SPIN
END:
""")
    flag = device.zeros(1, np.uint32)
    with pytest.raises(WatchdogTimeout, match="instruction budget of 20000") as caught:
        kernel(flag, grid=(128,), block=(64,))
        device.synchronize()
    assert caught.value.workgroup == (1, 0, 0)


def test_the_slice_shrinks_while_a_lock_is_handed_around_and_comes_back(device, monkeypatch):
    # eight waves of one work-group take the mutex in turn (a fair round per
    # hand-over: the slice halves down to the minimum), then meet at a
    # barrier and run a long uniform loop as one group: the slice is restored
    slices, final = [], []
    preempt, run = dispatch.Scheduler._preempt, dispatch.Scheduler.run

    def spy_preempt(self, pc, sel):
        preempt(self, pc, sel)
        slices.append(self.slice_steps)

    def spy_run(self):
        run(self)
        final.append(self.slice_steps)
    monkeypatch.setattr(dispatch.Scheduler, "_preempt", spy_preempt)
    monkeypatch.setattr(dispatch.Scheduler, "run", spy_run)
    kernel = build(device, MUTEX + """
  s_barrier
  s_mov_b32 s3, 3000
AGAIN:
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 AGAIN
""")
    words = device.zeros(2, np.uint32)
    kernel(words, grid=(512,), block=(512,))
    device.synchronize()
    assert words.numpy().tolist() == [0, 8]
    halving = [dispatch.FAIR_SLICE_STEPS >> k for k in range(1, 7)]
    assert halving[-1] == dispatch.MIN_FAIR_SLICE_STEPS
    assert slices[:6] == halving
    assert min(slices) == dispatch.MIN_FAIR_SLICE_STEPS
    assert final == [dispatch.FAIR_SLICE_STEPS]
    assert 3 * 3000 > dispatch.FAIR_SLICE_STEPS + dispatch.CHECK_STEPS

"""The Retry outcome: blocked waves are deferred and try the instruction
again after the other groups had a turn; a round in which nothing but
blocked waves ran is a deadlock, reported like any kernel error.

A test-only semantic (a gate that opens once ``need`` waves have reached it,
as a GWS barrier does) replaces ``s_ttracedata`` for the duration of a test.
"""

import importlib

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError, WatchdogTimeout
from amdgpu_tools.exec.core.context import Retry
from amdgpu_tools.exec.launch import ExecutionLimits
from amdgpu_tools.exec.core.registry import SEMANTICS, Semantic

from .test_scheduler_kernels import build, new_device


@pytest.fixture
def device():
    return new_device()


GATE_OP = "s_ttracedata"
# register every real semantic first, so the gate replaces s_ttracedata's
importlib.import_module("amdgpu_tools.exec.semantics")


def install_gate(monkeypatch, need, whole_group_bool=False):
    """``s_ttracedata`` becomes a gate: a wave is blocked until ``need`` distinct
    waves have arrived. Returns the log of (attempting waves, blocked waves)."""
    log = []

    def gate(ctx):
        arrived = ctx.state.extra.setdefault("gate_arrived", set())
        waves = [int(w) for w in ctx.waves()]
        arrived.update(waves)
        is_open = len(arrived) >= need
        log.append((tuple(waves), () if is_open else tuple(waves)))
        if whole_group_bool:
            return Retry(not is_open)
        return Retry(np.full(ctx.n, not is_open))

    monkeypatch.setitem(SEMANTICS, GATE_OP, Semantic(GATE_OP, "raw", gate))
    return log


# Wave w (one wave per work-group) loops w * 20 times, then jumps back to
# DONE (below the loop: the lowest PC, so it runs at once, alone), stores
# w + 1 into flags[w], passes the gate and copies flags[(w + 1) % 4] to out[w]
# (also below the loop: a wave the gate did not hold would read 0 there).
STAGGERED = """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_branch START
DONE:
  s_add_u32 s9, s2, 1
  v_mov_b32 v1, s9
  s_lshl_b32 s10, s2, 2
  v_mov_b32 v2, s10
  global_store_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_ttracedata
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


@pytest.mark.parametrize("as_bool", [False, True])
def test_blocked_waves_wait_for_the_others_then_pass(device, monkeypatch, as_bool):
    log = install_gate(monkeypatch, need=4, whole_group_bool=as_bool)
    kernel = build(device, STAGGERED, buffers=2)
    flags, out = device.zeros(4, np.uint32), device.zeros(4, np.uint32)
    kernel(flags, out, grid=(4,), block=(1,))
    device.synchronize()
    assert flags.numpy().tolist() == [1, 2, 3, 4]
    # without the gate wave 0 would read flags[1] before wave 1 stored it
    assert out.numpy().tolist() == [2, 3, 4, 1]
    # waves 0-2 were blocked (each reached the gate before wave 3), wave 3 opened it
    blocked = sorted({w for _, stopped in log for w in stopped})
    assert blocked == [0, 1, 2]
    assert log[-1][1] == ()
    passed = [w for waves, stopped in log if not stopped for w in waves]
    assert sorted(passed) == [0, 1, 2, 3]


def test_retried_executions_count_in_the_instruction_budget(device, monkeypatch):
    install_gate(monkeypatch, need=4)
    kernel = build(device, STAGGERED, buffers=2)
    flags, out = device.zeros(4, np.uint32), device.zeros(4, np.uint32)
    from amdgpu_tools.exec.core import dispatch
    results = []
    original = dispatch.Scheduler.run

    def spy(self):
        original(self)
        results.append((self.executed, self.retried))
    monkeypatch.setattr(dispatch.Scheduler, "run", spy)
    kernel(flags, out, grid=(4,), block=(1,))
    device.synchronize()
    executed, retried = results[0]
    # per wave: 3 + s_mul + the loop (4 a pass, 2 to leave) + 6 + the gate +
    # 6 + s_endpgm; waves 0-2 were each blocked once
    plain = sum(3 + 1 + 4 * 20 * w + 2 + 6 + 1 + 6 + 1 for w in range(4))
    assert retried == 3
    assert executed == plain + retried


def test_a_gate_that_never_opens_is_a_deadlock_naming_the_instruction(device, monkeypatch):
    install_gate(monkeypatch, need=5)          # only four waves exist
    kernel = build(device, STAGGERED, buffers=2)
    flags, out = device.zeros(4, np.uint32), device.zeros(4, np.uint32)
    with pytest.raises(KernelError) as caught:
        kernel(flags, out, grid=(4,), block=(1,))
        device.synchronize()
    error = caught.value
    assert not isinstance(error, WatchdogTimeout)
    text = str(error)
    assert "deadlock" in text and "never arrive" in text
    assert "s_ttracedata" in text
    assert error.pc is not None and error.instruction == "s_ttracedata"


def test_deadlock_with_waves_parked_at_a_barrier(device, monkeypatch):
    # two waves of one work-group: wave 0 waits at the gate (needs both waves),
    # wave 1 waits at s_barrier for wave 0: neither can go on
    install_gate(monkeypatch, need=2)
    kernel = build(device, """
  v_readfirstlane_b32 s4, v0
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc0 OTHER
  s_ttracedata
  s_branch END
OTHER:
  s_barrier
END:
""", buffers=0)
    with pytest.raises(KernelError, match="deadlock"):
        kernel(grid=(128,), block=(128,))
        device.synchronize()


def test_a_deferred_wave_gets_its_turn_while_another_group_spins(monkeypatch):
    # wave 1 spins on a flag that wave 0 sets only after passing the gate;
    # the gate opens on wave 0's second attempt: the spinning group must let
    # the deferred wave retry (fair slice) instead of spinning until the watchdog
    device = new_device(limits=ExecutionLimits(max_wave_instructions=2_000_000))
    attempts = []

    def gate(ctx):
        attempts.append(ctx.n)
        return Retry(len(attempts) < 2)
    monkeypatch.setitem(SEMANTICS, GATE_OP, Semantic(GATE_OP, "raw", gate))
    kernel = build(device, """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 SPIN
  s_ttracedata
  v_mov_b32 v2, 7
  global_store_dword v1, v2, s[4:5]
  s_branch END
SPIN:
  global_load_dword v2, v1, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s6, v2
  s_cmp_eq_u32 s6, 7
  s_cbranch_scc0 SPIN
  v_mov_b32 v3, 9
  global_store_dword v1, v3, s[4:5] offset:4
END:
""", buffers=1)
    out = device.zeros(2, np.uint32)
    kernel(out, grid=(2,), block=(1,))
    device.synchronize()
    assert out.numpy().tolist() == [7, 9]
    assert attempts == [1, 1]


def test_a_real_gws_barrier_holds_waves_arriving_one_by_one(device):
    # the STAGGERED kernel with ds_gws_barrier (resource 0, initialised by
    # all four waves together to 4 - 1) as the gate: waves 0-2 wait in it
    # (Retry) until wave 3 arrives; the waves also start at different PCs
    body = STAGGERED.replace("  s_branch START\n", """  s_mov_b32 m0, 0
  v_mov_b32 v9, 3
  ds_gws_init v9 gds
  s_waitcnt lgkmcnt(0)
  s_branch START
""", 1).replace("  s_ttracedata\n", "  ds_gws_barrier v9 gds\n  s_waitcnt lgkmcnt(0)\n")
    kernel = build(device, body, buffers=2)
    flags, out = device.zeros(4, np.uint32), device.zeros(4, np.uint32)
    kernel(flags, out, grid=(4,), block=(1,))
    device.synchronize()
    assert flags.numpy().tolist() == [1, 2, 3, 4]
    assert out.numpy().tolist() == [2, 3, 4, 1]

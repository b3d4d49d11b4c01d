"""Work-groups in several worker processes (``Device(jobs=N)``, ``--jobs``).

Small grids are cut into many small batches (``MAX_BATCH_WAVES`` and
``MIN_PARALLEL_WAVES`` lowered), so that the worker path runs in a fraction
of a second; ``forks`` records every ``run_forked`` call, so a test knows
that its dispatch really ran in workers. Kernels: the assembly samples, the
scheduler tests' global mutex and ticket lock (assembled by amdgpu-as), and
small kernels of this file.
"""

import os
import time
from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools.asm import assemble
from amdgpu_tools.cli.run import main
from amdgpu_tools.errors import KernelError, LaunchError, WatchdogTimeout
from amdgpu_tools.exec.core import dispatch, parallel, workers
from amdgpu_tools.exec.launch import ExecutionLimits, TraceOptions
from amdgpu_tools.runtime import shared_bytes

from .test_scheduler_fair import MUTEX, TICKET
from .test_scheduler_kernels import build, new_device

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.fixture
def forks(forked_workers):
    """Batches of 4 waves, parallel from 2 waves on; the worker counts forked."""
    return forked_workers(4)


def _children():
    """Process ids of this process's live (or unreaped) children, but the
    background block compiler (exec/compiled/server.py), which lives as
    long as the process that started it."""
    from amdgpu_tools.exec.compiled.server import compiler_pid
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(pid) for pid in text]
    return [pid for pid in found if pid != compiler_pid()]


def _sample(device, name):
    return device.load(assemble((SAMPLES / f"{name}.s").read_text(), target="gfx900"))[name]


def _run_sample(jobs, name, make_args, grid, block):
    """(output arrays as bytes, (wave, lane instructions, waves)) of one launch."""
    device = new_device(jobs=jobs)
    kernel = _sample(device, name)
    args = make_args(device)
    kernel(*args, grid=grid, block=block)
    device.synchronize()
    result = device.last_result
    outputs = [a.numpy().tobytes() for a in args if hasattr(a, "numpy")]
    return outputs, (result.wave_instructions, result.lane_instructions, result.waves)


def _vector_add_args(device):
    rng = np.random.default_rng(5)
    n = 64 * 40 - 17
    return [device.array(rng.random(n, dtype=np.float32)),
            device.array(rng.random(n, dtype=np.float32)), device.zeros(n, np.float32),
            np.int32(n)]


def _saxpy_args(device):
    rng = np.random.default_rng(6)
    return [np.int32(3000), np.float32(2.5), device.array(rng.random(3000, dtype=np.float32)),
            device.array(rng.random(3000, dtype=np.float32))]


def _lds_reduce_args(device):
    rng = np.random.default_rng(7)
    return [device.array(rng.random(256 * 12, dtype=np.float32)), device.zeros(12, np.float32)]


def _matmul_args(device):
    rng = np.random.default_rng(8)
    n = 64
    return [device.array(rng.random((n, n), dtype=np.float32)),
            device.array(rng.random((n, n), dtype=np.float32)),
            device.zeros((n, n), np.float32), np.int32(n)]


SAMPLE_LAUNCHES = {
    "vector_add": (_vector_add_args, (64 * 40 - 17,), (64,)),
    "saxpy": (_saxpy_args, (3072,), (256,)),
    "lds_reduce": (_lds_reduce_args, (256 * 12,), (256,)),
    "matmul_tiled": (_matmul_args, (64, 64), (16, 16)),
}


@pytest.mark.parametrize("name", sorted(SAMPLE_LAUNCHES))
def test_samples_are_bit_identical_with_two_and_three_jobs(forks, name):
    make_args, grid, block = SAMPLE_LAUNCHES[name]
    one, one_counts = _run_sample(1, name, make_args, grid, block)
    assert forks == []
    for jobs in (2, 3):
        outputs, counts = _run_sample(jobs, name, make_args, grid, block)
        assert outputs == one
        assert counts == one_counts            # the workers' statistics add up exactly
    assert forks == [2, 3]


def _vector_add_in_workers(jobs, **options):
    """(the sum's bytes, the DispatchResult) of the vector add sample."""
    device = new_device(jobs=jobs, **options)
    args = _vector_add_args(device)
    _sample(device, "vector_add")(*args, grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    assert np.array_equal(args[2].numpy(), args[0].numpy() + args[1].numpy())
    return args[2].numpy().tobytes(), device.last_result


def test_workers_run_the_blocks_their_host_compiled_before_the_fork(forks, monkeypatch,
                                                                    tmp_path):
    """A forked worker runs natively only the blocks loaded in its host: the
    host forms and compiles (eager) the blocks of every instruction the
    kernel can reach before it forks, so the workers run them natively."""
    pytest.importorskip("numba")
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tmp_path))
    one, interpreted = _vector_add_in_workers(1, compile="off")
    two, native = _vector_add_in_workers(2, compile="eager")
    assert forks == [2] and two == one
    assert interpreted.compiled_instructions == 0
    assert native.wave_instructions == interpreted.wave_instructions
    # all but each wave's s_endpgm, which no block holds
    assert native.compiled_instructions == native.wave_instructions - native.waves


def test_auto_mode_compiles_what_ran_hot_in_the_workers(own_compiler, forks, monkeypatch,
                                                       tmp_path):
    """In ``auto`` mode the workers count the steps they interpreted; their
    host adds them up, hands the hot blocks to the background compiler, and
    a later dispatch loads them before its workers are forked."""
    pytest.importorskip("numba")
    from amdgpu_tools.exec.compiled import tier
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tmp_path))
    monkeypatch.setattr(tier, "STEPS_BEFORE_COMPILING", 20)
    reference, _ = _vector_add_in_workers(1, compile="off")
    first, cold = _vector_add_in_workers(2, compile="auto")
    assert cold.compiled_instructions == 0 and first == reference
    modules = list(tmp_path.glob("b*.py"))
    assert modules                                   # handed to the compiler after the dispatch
    deadline = time.monotonic() + 300
    while any(own_compiler.status(m) is None for m in modules) and \
            time.monotonic() < deadline:
        time.sleep(0.2)
    assert all(own_compiler.status(m) == "ok" for m in modules)
    second, hot = _vector_add_in_workers(2, compile="auto")
    assert second == reference and forks == [2, 2]
    assert hot.compiled_instructions == hot.wave_instructions - hot.waves


def test_vector_add_sample_is_right_in_workers(forks):
    device = new_device(jobs=2)
    args = _vector_add_args(device)
    _sample(device, "vector_add")(*args, grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    assert forks == [2]
    assert np.array_equal(args[2].numpy(), args[0].numpy() + args[1].numpy())


def test_workers_are_given_only_where_they_finish_sooner(monkeypatch):
    monkeypatch.setattr(parallel, "_SECONDS_PER_WAVE", {})
    monkeypatch.setattr(parallel, "WORKER_SECONDS", 0.008)
    monkeypatch.setattr(parallel, "KEPT_WORKER_SECONDS", 0.0005)
    short, medium, long = "short", "medium", "long"      # stand-ins for KernelSetups
    before, now = ("memory", 1), ("memory", 2)          # memory reaches (memory, epoch)
    # one process took 17 ms, 273 ms and 2.1 s for 16,384 waves (bench figures)
    parallel.remember_cost(short, 0.017, 16384, before)
    parallel.remember_cost(medium, 0.273, 16384, before)
    parallel.remember_cost(long, 2.1, 16384, before)
    # memory out of the workers' reach since the last launch: the forks count in full.
    # 2 workers: 8.5 + 2 * 8.5 ms > 17 ms alone
    assert parallel.affordable_jobs(short, 16, 16384, reach=now) == 1
    # sqrt(273 / 8.5) = 5.7: 6 workers take 45.5 + 51 ms
    assert parallel.affordable_jobs(medium, 16, 16384, reach=now) == 6
    assert parallel.affordable_jobs(medium, 4, 16384, reach=now) == 4
    # twice the waves: sqrt(546 / 8.5) = 8.0
    assert parallel.affordable_jobs(medium, 16, 32768, reach=now) == 8
    assert parallel.affordable_jobs(long, 16, 16384, reach=now) == 16
    # the same buffers again: the forks are shared among the launches that
    # reused them so far. Once: as before; three in a row: 2 workers take
    # 8.5 + 2 * (0.5 + 2.7) ms; sixteen: sqrt(17 / 1) = 4 take 4.25 + 4 ms
    assert parallel.affordable_jobs(short, 16, 16384, reach=before) == 1
    parallel.remember_cost(short, 0.017, 16384, before)
    parallel.remember_cost(short, 0.017, 16384, before)
    assert parallel.affordable_jobs(short, 16, 16384, reach=before) == 2
    for _ in range(13):
        parallel.remember_cost(short, 0.017, 16384, before)
    assert parallel.affordable_jobs(short, 16, 16384, reach=before) == 4
    # a pool of 4 kept stays (4.25 + 2 ms); so does one of 16 (1.1 + 8 ms):
    # 4 new workers (4.25 + 4 ms, their forks shared among 16 launches) would
    # gain less than SWITCH_GAIN asks
    assert parallel.affordable_jobs(short, 16, 16384, kept=4, reach=before) == 4
    assert parallel.affordable_jobs(short, 16, 16384, kept=16, reach=before) == 16
    # kept workers on new buffers: 2 of them take 8.5 + 1 ms
    assert parallel.affordable_jobs(short, 16, 16384, kept=2, reach=now) == 2
    assert parallel.affordable_jobs(short, 1, 16384, kept=2, reach=now) == 1
    # ... but 6 new ones beat 2 kept ones on the medium kernel (96.5 < 137.5 ms)
    assert parallel.affordable_jobs(medium, 16, 16384, kept=2, reach=now) == 6
    assert parallel.affordable_jobs(medium, 16, 16384, kept=16, reach=now) == 16
    # a pool of 6 on the medium kernel (45.5 + 3 ms) stays against 11 new
    # workers whose forks 5 launches share (24.8 + 23.1 ms), and gives way to
    # 16 once 17 share them (17.1 + 15.5 ms)
    for _ in range(4):
        parallel.remember_cost(medium, 0.273, 16384, before)
    assert parallel.affordable_jobs(medium, 16, 16384, kept=6, reach=before) == 6
    for _ in range(12):
        parallel.remember_cost(medium, 0.273, 16384, before)
    assert parallel.affordable_jobs(medium, 16, 16384, kept=6, reach=before) == 16
    # no dispatch of the kernel yet: what was asked
    assert parallel.affordable_jobs("unknown", 16, 64) == 16
    parallel.remember_cost(short, 0.0, 16384, now)       # nothing learnt from nothing
    assert parallel.affordable_jobs(short, 16, 16384, reach=before) == 4


def test_a_kernel_known_to_be_short_runs_in_one_process_next_time(forks, monkeypatch):
    monkeypatch.setattr(parallel, "_SECONDS_PER_WAVE", {})
    device = new_device(jobs=2)
    args = _vector_add_args(device)
    kernel = _sample(device, "vector_add")
    kernel(*args, grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    first = device.last_result
    assert forks == [2]                   # nothing known of it: the workers it asked for
    # a worker costing far more than the whole dispatch: one process from now on
    monkeypatch.setattr(parallel, "WORKER_SECONDS", 1e3)
    monkeypatch.setattr(parallel, "KEPT_WORKER_SECONDS", 1e3)
    out = device.zeros(64 * 40 - 17, np.float32)
    kernel(args[0], args[1], out, args[3], grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    assert forks == [2]
    assert out.numpy().tobytes() == args[2].numpy().tobytes()
    assert device.last_result.wave_instructions == first.wave_instructions
    # and workers again where they pay: the kept ones, which see ``out`` too
    monkeypatch.setattr(parallel, "WORKER_SECONDS", 1e-12)
    monkeypatch.setattr(parallel, "KEPT_WORKER_SECONDS", 1e-12)
    kernel(*args, grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    assert forks == [2] and device.last_result.processes == 2


def test_kept_workers_take_later_dispatches_on_buffers_mapped_or_unmapped_since(forks):
    # (interpreted: a block the host loaded meanwhile would end the pool too)
    device = new_device(jobs=2, compile="off")
    args = _vector_add_args(device)
    kernel = _sample(device, "vector_add")
    expected = args[0].numpy() + args[1].numpy()
    for _ in range(3):
        args[2].numpy()[:] = -1                       # written here, seen there
        kernel(*args, grid=(64 * 40 - 17,), block=(64,))
        device.synchronize()
        assert np.array_equal(args[2].numpy(), expected)
        assert device.last_result.processes == 2
    assert forks == [2]                               # forked once
    assert len(_children()) == 2                      # kept between dispatches
    # buffers mapped after the fork (small, carved together, and large), the
    # old output unmapped: the kept workers are told, and take the launches
    inputs = [device.array(a.numpy()) for a in args[:2]]
    for out in (device.zeros(64 * 40 - 17, np.float32),
                device.zeros(shared_bytes.SMALL_BYTES, np.float32)):
        args[2].free()
        kernel(*inputs, out, args[3], grid=(64 * 40 - 17,), block=(64,))
        device.synchronize()
        assert np.array_equal(out.numpy()[:64 * 40 - 17], expected)
        assert not out.numpy()[64 * 40 - 17:].any()
        assert device.last_result.processes == 2
        args[2] = out
    assert forks == [2] and len(_children()) == 2
    # the output unmapped in the workers too: a launch on it faults as in one process
    args[2].free()
    with pytest.raises(KernelError, match="unmapped|not mapped|fault"):
        kernel(*inputs, args[2], args[3], grid=(64 * 40 - 17,), block=(64,))
        device.synchronize()


def test_memory_out_of_the_kept_workers_reach_forks_new_ones(forks, monkeypatch):
    # reserves of 64 MiB: an 80 MiB buffer is mapped alone, where the workers
    # forked before cannot see it (a new epoch)
    monkeypatch.setattr(shared_bytes, "RESERVE_BYTES", 64 << 20)
    device = new_device(jobs=2, compile="off")
    args = _vector_add_args(device)
    kernel = _sample(device, "vector_add")
    kernel(*args, grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    epoch = device.memory.epoch
    out = device.zeros(20 << 20, np.float32)
    assert device.memory.epoch == epoch + 1
    kernel(args[0], args[1], out, args[3], grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    assert np.array_equal(out.numpy()[:64 * 40 - 17], args[0].numpy() + args[1].numpy())
    assert forks == [2, 2] and len(_children()) == 2


def test_a_process_forked_by_the_program_does_not_use_its_parents_workers(forks):
    device = new_device(jobs=2, compile="off")      # (no block loaded meanwhile)
    args = _vector_add_args(device)
    kernel = _sample(device, "vector_add")
    kernel(*args, grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    assert forks == [2]
    # a child of the program (multiprocessing's fork, say) forks workers of its own
    [(child_forks, right)] = workers.run_forked(1, lambda index: _launch_again(
        device, kernel, args, forks))
    assert child_forks == [2, 2] and right
    kernel(*args, grid=(64 * 40 - 17,), block=(64,))     # the parent's are still there
    device.synchronize()
    assert forks == [2] and len(_children()) == 2


def _launch_again(device, kernel, args, forks):
    args[2].numpy()[:] = 0
    kernel(*args, grid=(64 * 40 - 17,), block=(64,))
    device.synchronize()
    right = np.array_equal(args[2].numpy(), args[0].numpy() + args[1].numpy())
    workers.close_pool()
    return list(forks), right


def test_a_fault_in_a_kept_worker_ends_the_pool_with_the_one_process_error(forks):
    one = _fault_text(1)
    device = new_device(jobs=2, compile="off")      # (see the test above)
    kernel = build(device, FAULT_IN_GROUP_5)
    out = device.zeros(4, np.uint32)
    words = device.zeros(1, np.uint32)
    build(device, "  s_nop 0\n", name="fine")(words, grid=(64 * 12,), block=(64,))
    device.synchronize()
    assert forks == [2] and len(_children()) == 2
    # the kept workers take the first (the kernel was loaded before they were
    # forked), new ones the second
    for expected_forks in ([2], [2, 2]):
        with pytest.raises(KernelError) as info:
            kernel(out, grid=(64 * 12,), block=(64,))
            device.synchronize()
        assert str(info.value) == one
        assert forks == expected_forks and _children() == []


# p0: [0] count of lanes, [1] sum of global ids; p1[gid] = the ticket (pre-op
# count) of the lane: every lane gets its own
ATOMIC_TICKETS = """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s8, s2, 6
  v_add_u32 v1, s8, v0
  v_mov_b32 v2, 1
  v_mov_b32 v3, 0
  global_atomic_add v4, v3, v2, s[4:5] glc
  global_atomic_add v3, v1, s[4:5] offset:4
  v_lshlrev_b32 v5, 2, v1
  s_waitcnt vmcnt(0)
  global_store_dword v5, v4, s[6:7]
  s_waitcnt vmcnt(0)
"""


@pytest.mark.parametrize("jobs", [2, 3])
def test_global_atomics_from_every_work_group_add_up_across_processes(forks, jobs):
    device = new_device(jobs=jobs)
    kernel = build(device, ATOMIC_TICKETS, buffers=2)
    groups = 48
    n = 64 * groups
    words, tickets = device.zeros(2, np.uint32), device.zeros(n, np.uint32)
    kernel(words, tickets, grid=(n,), block=(64,))
    device.synchronize()
    assert forks == [jobs]
    assert words.numpy().tolist() == [n, n * (n - 1) // 2]
    assert sorted(tickets.numpy().tolist()) == list(range(n))


def test_global_mutex_between_work_groups_in_different_processes(forks):
    # a cmpswap lock released by a plain store: a failed cmpswap in one
    # process must not write the taken value back over another's release
    device = new_device(jobs=2, limits=ExecutionLimits(max_wave_instructions=5_000_000))
    kernel = build(device, MUTEX)
    words = device.zeros(2, np.uint32)
    kernel(words, grid=(64 * 12,), block=(64,))
    device.synchronize()
    assert forks == [2]
    assert words.numpy().tolist() == [0, 12]


def test_ticket_lock_serves_every_wave_in_ticket_order_across_processes(forks):
    device = new_device(jobs=2, limits=ExecutionLimits(max_wave_instructions=5_000_000))
    kernel = build(device, TICKET, buffers=2)
    waves = 16
    words, order = device.zeros(3, np.uint32), device.zeros(waves, np.uint32)
    kernel(words, order, grid=(64 * waves,), block=(64,))
    device.synchronize()
    assert forks == [2]
    assert words.numpy().tolist() == [waves, waves, waves]
    assert order.numpy().tolist() == list(range(waves))


# work-group 0 waits for a flag that the last work-group sets: p0[1] = flag + 1
WAIT_FOR_LAST = """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b64 exec, 1
  v_mov_b32 v1, 0
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 NOT_FIRST
SPIN:
  global_load_dword v2, v1, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s8, v2
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 SPIN
  v_add_u32 v3, 1, v2
  global_store_dword v1, v3, s[4:5] offset:4
  s_branch END
NOT_FIRST:
  s_cmp_eq_u32 s2, 7
  s_cbranch_scc0 END
  v_mov_b32 v2, 7
  global_store_dword v1, v2, s[4:5]
END:
  s_waitcnt vmcnt(0)
"""


def test_a_work_group_waiting_for_one_in_a_concurrent_batch_makes_progress(forks):
    # 8 one-wave work-groups in two batches of 4: work-group 0 (batch 0) waits
    # for work-group 7 (batch 1). One process runs batch 0 to its end first
    # and spins until the watchdog; two workers run both batches at once.
    device = new_device(jobs=1, limits=ExecutionLimits(max_wave_instructions=30_000))
    words = device.zeros(2, np.uint32)
    with pytest.raises(WatchdogTimeout):
        build(device, WAIT_FOR_LAST)(words, grid=(512,), block=(64,))
        device.synchronize()
    device = new_device(jobs=2, limits=ExecutionLimits(max_wave_instructions=50_000_000))
    words = device.zeros(2, np.uint32)
    build(device, WAIT_FOR_LAST)(words, grid=(512,), block=(64,))
    device.synchronize()
    assert forks == [2]
    assert words.numpy().tolist() == [7, 8]


# work-group 5 loads from an unmapped address
FAULT_IN_GROUP_5 = """
  s_cmp_eq_u32 s2, 5
  s_cbranch_scc0 END
  s_mov_b64 s[8:9], 0x10
  v_mov_b32 v1, 0
  global_load_dword v2, v1, s[8:9]
  s_waitcnt vmcnt(0)
END:
"""


def _fault_text(jobs):
    device = new_device(jobs=jobs)
    kernel = build(device, FAULT_IN_GROUP_5)
    out = device.zeros(4, np.uint32)
    with pytest.raises(KernelError) as info:
        kernel(out, grid=(64 * 12,), block=(64,))
        device.synchronize()
    return str(info.value)


def test_a_fault_in_one_worker_is_the_one_process_error_and_leaves_no_process(forks):
    one = _fault_text(1)
    assert "work-group (5, 0, 0)" in one and "0x10" in one
    for jobs in (2, 3):
        assert _fault_text(jobs) == one
    assert forks == [2, 3]
    assert _children() == []


def test_a_worker_waiting_for_a_faulting_worker_gets_its_error_not_the_watchdog(forks):
    # work-group 0 (batch 0, worker 0) spins on a flag that work-group 7
    # (batch 1, worker 1) never sets, because it faults first
    body = WAIT_FOR_LAST.replace("""  v_mov_b32 v2, 7
  global_store_dword v1, v2, s[4:5]""", """  s_mov_b64 s[8:9], 0x10
  global_load_dword v2, v1, s[8:9]""")
    device = new_device(jobs=2, limits=ExecutionLimits(max_wave_instructions=10**9))
    with pytest.raises(KernelError) as info:
        build(device, body)(device.zeros(2, np.uint32), grid=(512,), block=(64,))
        device.synchronize()
    assert not isinstance(info.value, WatchdogTimeout)
    assert "work-group (7, 0, 0)" in str(info.value) and "memory fault" in str(info.value)
    assert forks == [2]
    assert _children() == []


def test_the_watchdog_of_a_worker_is_the_one_process_error(forks):
    endless = "LOOP:\n  s_branch LOOP\n"
    device = new_device(jobs=2, limits=ExecutionLimits(max_wave_instructions=50_000))
    with pytest.raises(WatchdogTimeout, match="instruction budget of 50000"):
        build(device, endless)(device.zeros(1, np.uint32), grid=(64 * 8,), block=(64,))
        device.synchronize()
    assert forks == [2]
    assert _children() == []


def test_a_worker_that_cannot_start_is_one_kernel_error(forks, monkeypatch):
    real_fork, started = os.fork, []

    def second_fails():
        if started:
            raise OSError(11, "Resource temporarily unavailable")
        started.append(1)
        return real_fork()
    monkeypatch.setattr(os, "fork", second_fails)
    device = new_device(jobs=2)
    kernel = build(device, ATOMIC_TICKETS, buffers=2)
    with pytest.raises(KernelError, match="worker process 1 cannot start: .*unavailable"):
        kernel(device.zeros(2, np.uint32), device.zeros(64 * 8, np.uint32), grid=(64 * 8,),
               block=(64,))
        device.synchronize()
    assert _children() == []


def test_the_device_works_on_after_a_worker_fault(forks):
    device = new_device(jobs=2)
    with pytest.raises(KernelError):
        build(device, FAULT_IN_GROUP_5)(device.zeros(4, np.uint32), grid=(64 * 12,),
                                        block=(64,))
        device.synchronize()
    device = new_device(jobs=2)
    kernel = build(device, ATOMIC_TICKETS, buffers=2)
    words, tickets = device.zeros(2, np.uint32), device.zeros(64 * 8, np.uint32)
    kernel(words, tickets, grid=(64 * 8,), block=(64,))
    device.synchronize()
    assert words.numpy().tolist()[0] == 64 * 8


def test_traced_dispatches_and_small_ones_stay_in_one_process(forks, monkeypatch):
    lines = []
    device = new_device(jobs=2, trace=TraceOptions(waves=(0,), sink=lines.append))
    kernel = build(device, ATOMIC_TICKETS, buffers=2)
    words, tickets = device.zeros(2, np.uint32), device.zeros(64 * 8, np.uint32)
    kernel(words, tickets, grid=(64 * 8,), block=(64,))
    device.synchronize()
    assert forks == [] and lines
    assert words.numpy().tolist()[0] == 64 * 8
    monkeypatch.setattr(parallel, "MIN_PARALLEL_WAVES", 9)
    device = new_device(jobs=2)
    kernel = build(device, ATOMIC_TICKETS, buffers=2)
    kernel(device.zeros(2, np.uint32), device.zeros(64 * 8, np.uint32), grid=(64 * 8,),
           block=(64,))
    device.synchronize()
    assert forks == []


def test_checked_blocks_run_in_one_process(forks):
    # the check compares whole allocations around a block's native run: the
    # stores of other workers would show as differences (lds_reduce's did)
    name = "lds_reduce"
    make_args, grid, block = SAMPLE_LAUNCHES[name]
    expected, counts = _run_sample(1, name, make_args, grid, block)
    device = new_device(jobs=2, compile="check")
    args = make_args(device)
    _sample(device, name)(*args, grid=grid, block=block)
    device.synchronize()
    assert forks == [] and device.last_result.processes == 1
    assert [a.numpy().tobytes() for a in args if hasattr(a, "numpy")] == expected


def test_the_scan_finds_what_needs_the_host():
    device = new_device()
    gds = build(device, "  s_mov_b32 m0, -1\n  v_mov_b32 v1, 0\n"
                        "  ds_add_u32 v1, v1 gds\n  s_waitcnt lgkmcnt(0)\n", name="gds")
    pointer = build(device, "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n  s_waitcnt lgkmcnt(0)\n"
                            "  s_setpc_b64 s[4:5]\n", name="pointer")
    # a jump built as compilers build call targets, to GDS code reached no other way
    direct = build(device, """
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, 12
  s_addc_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
  s_mov_b32 m0, -1
  ds_append v1 gds
""", name="direct")
    plain = build(device, ATOMIC_TICKETS, buffers=2, name="plain")
    program = dispatch.Program(device.memory, device.agent.target)

    def reason(kernel):
        setup = device.agent.processor.kernel_objects[kernel.info.kernel_object].setup
        return parallel.host_bound(program, setup.entry_address, interrupts=False)
    assert "global data share access (ds_add_u32)" in reason(gds)
    assert "indirect branch or call (s_setpc_b64)" in reason(pointer)
    assert "global data share access (ds_append)" in reason(direct)
    assert reason(plain) is None


def test_jobs_must_be_a_positive_count():
    with pytest.raises(LaunchError, match="jobs=0"):
        new_device(jobs=0)
    assert new_device().agent.processor.jobs == len(os.sched_getaffinity(0))


def test_cli_jobs_option_gives_the_one_process_result(forks, tmp_path, capsys):
    n = 64 * 20
    rng = np.random.default_rng(9)
    np.save(tmp_path / "a.npy", rng.random(n, dtype=np.float32))
    np.save(tmp_path / "b.npy", rng.random(n, dtype=np.float32))
    saved = []
    for jobs in ("1", "2"):
        out = tmp_path / f"c{jobs}.npy"
        assert main([str(SAMPLES / "vector_add.s"), "--grid", str(n), "--block", "64",
                     "--arg", f"buf:{tmp_path / 'a.npy'}", "--arg", f"buf:{tmp_path / 'b.npy'}",
                     "--arg", f"buf:float32[{n}]", "--arg", f"i32:{n}",
                     "--save", f"2={out}", "--jobs", jobs]) == 0
        saved.append(np.load(out))
    assert forks == [2]
    assert saved[0].tobytes() == saved[1].tobytes()
    assert np.array_equal(saved[1], np.load(tmp_path / "a.npy") + np.load(tmp_path / "b.npy"))
    assert main([str(SAMPLES / "vector_add.s"), "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err


class _RecordingMemory:
    """A flat byte array that records the atomics' guard calls and its scatters."""

    def __init__(self, words):
        from amdgpu_tools.exec.semantics.memory import ByteArrayMemory
        self.bytes = ByteArrayMemory(np.asarray(words, np.uint32).view(np.uint8).copy())
        self.guarded, self.scattered = [], []

    def atomic_guard(self, addresses):
        import contextlib
        self.guarded.append(np.asarray(addresses).tolist())
        return contextlib.nullcontext()

    def gather(self, addresses, nbytes):
        return self.bytes.gather(addresses, nbytes)

    def scatter(self, addresses, data):
        self.scattered.append(np.asarray(addresses).tolist())
        self.bytes.scatter(addresses, data)


@pytest.mark.parametrize("op,data,data2", [("cmpswap", [5, 6], [9, 9]),   # compares fail
                                           ("add", [0, 0], None),
                                           ("umax", [1, 2], None),
                                           ("and", [0xFF, 0xFFFF], None)])
def test_atomics_that_change_nothing_write_nothing_and_hold_the_guard(op, data, data2):
    # another process's plain store between this read and write must survive
    from amdgpu_tools.exec.semantics.memory import atomic_serial
    memory = _RecordingMemory([7, 7])
    addresses = np.array([0, 4], np.uint64)
    second = None if data2 is None else np.array(data2, np.uint32)
    old = atomic_serial(memory, addresses, op, 4, np.array(data, np.uint32), second)
    assert old.tolist() == [7, 7]
    assert memory.guarded == [[0, 4]]
    assert memory.scattered == []


def test_an_atomic_writes_only_the_words_it_changes():
    from amdgpu_tools.exec.semantics.memory import atomic_serial
    memory = _RecordingMemory([7, 3, 9])
    old = atomic_serial(memory, np.array([0, 4, 8, 4], np.uint64), "cmpswap", 4,
                        np.array([1, 2, 5, 4], np.uint32), np.array([7, 3, 8, 2], np.uint32))
    assert old.tolist() == [7, 3, 9, 2]
    assert memory.scattered == [[0, 4]]
    assert memory.bytes.data.view(np.uint32).tolist() == [1, 4, 9]


def test_atomic_stripes_lock_each_line_once_in_order():
    stripes = workers.AtomicStripes()

    def taken():
        """Stripes someone holds (each free one is taken and given back)."""
        found = []
        for number, lock in enumerate(stripes._locks):
            if lock.acquire(block=False):
                lock.release()
            else:
                found.append(number)
        return found
    # lines 0x1000 and 0x2000 share stripe 0; 0x1040/0x1044 are line 0x41: stripe 1
    with stripes(np.array([0x1040, 0x1000, 0x1044, 0x2000], np.uint64)):
        assert taken() == [0, 1]
    assert taken() == []

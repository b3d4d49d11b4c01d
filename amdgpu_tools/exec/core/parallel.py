"""Whether a dispatch runs its work-groups in several processes, and how they
are cut into batches.

``DispatchRequest.jobs`` asks for up to that many worker processes
(``exec.core.workers`` forks them; ``exec.core.dispatch`` gives each its
batches). A dispatch stays in the calling process when any of these holds:

- ``jobs`` is 1, or the device memory is not ``shared`` (MAP_SHARED pages
  are what lets forked workers write the host's bytes; the virtual GPU's
  process memory is the host program's own and is never shared), or the
  system cannot fork;
- it is small: fewer than ``MIN_PARALLEL_WAVES`` waves (workers cost
  milliseconds) or a single work-group;
- something needs this process while the kernel runs: tracing or profiling
  (``request.trace``), hazard checking (``request.checker``), a hostcall
  server (``request.host_service``), a test's ``initializer`` or ``decode``;
- its compiled blocks are checked against the interpreter (compile mode
  ``check``): the check compares whole allocations around a block's native
  run, which the stores of other workers would change under it;
- its code, scanned statically from the entry along every branch, uses the
  global data share (a DS op with the gds bit, ds_gws_*, ds_ordered_count:
  their state and their waits are the host's), sends interrupts to a runtime
  that listens (s_sendmsg MSG_INTERRUPT), or leaves through an indirect
  branch or call whose target it cannot compute (a function pointer, a
  computed s_setpc: the code beyond cannot be scanned; direct calls, as
  compilers emit them, are followed).

The scan decodes through the dispatch's ``Program``, so the workers forked
afterwards inherit every record already bound (and later dispatches of the
kernel find them in the decode cache).

Workers cost time of their own (``WORKER_SECONDS`` each to fork, far less
to reuse: ``KEPT_WORKER_SECONDS``), so a kernel whose dispatches are known
to be short gets fewer of them than it asks for, or none:
``affordable_jobs`` weighs what one process took for a wave of the kernel's
last dispatch (``remember_cost``) against that cost. A kernel's first
dispatch has no such figure and gets the workers the rules above give.
"""

from __future__ import annotations

import math
import os

from ...analysis.calls import computed_target
from ...analysis.cfg import control_flow
from ...elf.listing import branch_target
from ...errors import KernelError
from ..semantics.control import MSG_INTERRUPT

#: Fewest waves for which a dispatch is spread over processes. Workers cost
#: ~10-15 ms a dispatch (forks, copied-on-write pages, cold caches): the 1M
#: vector add of bench_exec (~7 us a wave in one process) breaks even near
#: 4096 waves with two workers on the 2-core reference machine; kernels
#: doing more per wave gain below it, smaller dispatches would only lose.
MIN_PARALLEL_WAVES = 4096
#: What each worker process adds to a dispatch's wall time, measured on a
#: 16-core Xeon and on the 2-core reference machine alike: 5-10 ms (the host
#: copies its page tables at each fork, ~3 ms with Numba loaded, one fork
#: after the other; a child's first writes copy pages and its caches start
#: cold; its exit unmaps what it copied). A compiled 1M vector add (~17 ms in
#: one process) took 27/33/52/71 ms with 2/4/8/16 workers.
WORKER_SECONDS = 0.008
#: What each worker of a kept pool adds to a dispatch it takes (the command
#: and report through pipes, its share's batch states): ~0.3-0.5 ms on the
#: 2-core machine (an 8-wave dispatch in 2 kept workers: ~3 ms, in one
#: process 2-3.7 ms).
KEPT_WORKER_SECONDS = 0.0005
#: Most launches a fork's cost is shared among (``affordable_jobs``).
REUSE_HORIZON = 32
#: A pool is replaced by new workers only where they are predicted to take
#: at most this share of its time.
SWITCH_GAIN = 0.9
#: Known kernels (their ``KernelSetup``) -> seconds one process takes per
#: wave, from their last dispatch; bounded (cleared when full).
_SECONDS_PER_WAVE = {}
_COST_LIMIT = 1024
#: Most instructions the scan looks at before giving up (the kernel then
#: runs in one process).
SCAN_LIMIT = 1 << 16
#: Ops that always reach the global data share.
_GDS_ONLY = ("ds_gws_", "ds_ordered_count")


def worker_count(request, program, total_groups, total_waves, initializer=None,
                 decode=None, kept=0, checking=False) -> int:
    """How many processes run ``request``'s work-groups (1: this one);
    ``kept``: the size of the pool of workers that could take the dispatch
    without forking (``workers.WorkerPool``), 0 where there is none;
    ``checking``: its compiled blocks are checked (compile mode ``check``)."""
    jobs = min(int(getattr(request, "jobs", 1) or 1), total_groups)
    if jobs <= 1 or total_waves < MIN_PARALLEL_WAVES:
        return 1
    if not getattr(request.memory, "shared", False) or not hasattr(os, "fork"):
        return 1
    if request.trace is not None or request.checker is not None or \
            request.host_service is not None or initializer is not None or decode is not None \
            or checking:
        return 1
    jobs = affordable_jobs(request.setup, jobs, total_waves, kept, memory_reach(request.memory))
    if jobs <= 1:
        return 1
    if host_bound(program, int(request.setup.entry_address),
                  request.interrupt is not None) is not None:
        return 1
    return jobs


def memory_reach(memory) -> tuple:
    """What workers forked now would share with ``memory`` until it changes:
    the memory and its epoch (``DeviceMemory.epoch``; allocations within it
    are sent to kept workers, so only a new epoch makes them fork again)."""
    return id(memory), memory.epoch


def remember_cost(setup, seconds, waves, reach) -> None:
    """Keep what a dispatch of the kernel ``setup`` cost: ``seconds`` of one
    process's time (compiling left out) for ``waves`` waves, with the device
    memory's ``reach`` (``memory_reach``) as it left it, and how many of the
    kernel's dispatches in a row left that same reach."""
    if waves <= 0 or seconds <= 0:
        return
    known = _SECONDS_PER_WAVE.get(setup)
    streak = known[2] + 1 if known is not None and known[1] == reach else 1
    if len(_SECONDS_PER_WAVE) >= _COST_LIMIT:
        _SECONDS_PER_WAVE.clear()
    _SECONDS_PER_WAVE[setup] = (seconds / waves, reach, streak)


def affordable_jobs(setup, jobs, waves, kept=0, reach=None) -> int:
    """The worker count, at most ``jobs``, that should finish a dispatch of
    ``waves`` waves of the kernel ``setup`` soonest, ``alone`` being what one
    process would take (from the kernel's last dispatch).

    The ``kept`` workers of a pool take ``alone / kept + kept *
    KEPT_WORKER_SECONDS``. ``n`` workers forked now take ``alone / n + n *
    KEPT_WORKER_SECONDS`` plus their forks, ``n * WORKER_SECONDS``, shared
    among the launches expected to reuse them: where the device memory's
    ``reach`` is the one the kernel's last dispatches left, as many as have
    done so in a row (the program is taken to go on launching on memory the
    workers can see; at most ``REUSE_HORIZON``), else this one alone. So a
    short kernel launched again and again gets its workers after a few
    launches, and a pool is replaced only by a count
    that pays for its forks with a margin (``SWITCH_GAIN``): the choice does
    not swing from one count to another, forking each time. 1 where nothing
    is sooner than ``alone``; ``jobs`` when the kernel has not run yet."""
    known = _SECONDS_PER_WAVE.get(setup)
    if known is None or WORKER_SECONDS <= 0 or jobs <= 1:
        return jobs
    per_wave, last_reach, streak = known
    alone = per_wave * waves
    launches = min(streak, REUSE_HORIZON) if reach is not None and reach == last_reach else 1
    cost = KEPT_WORKER_SECONDS + WORKER_SECONDS / launches
    count = min(jobs, max(1, round(math.sqrt(alone / cost))))
    options = [(alone, 1), (alone / count + count * cost, count)]
    if 1 < kept <= jobs:
        keep = alone / kept + kept * KEPT_WORKER_SECONDS
        if options[-1][0] >= SWITCH_GAIN * keep:     # the estimates vary from launch
            options.pop()                            # to launch: replace only for a
        options.append((keep, kept))                 # clear gain
    return min(options)[1]


def batch_groups(groups_per_batch, total_groups, jobs, waves_per_group, scratch_wave_bytes,
                 scratch_budget) -> int:
    """Work-groups per batch when ``jobs`` processes run batches at once: no
    more than an even share, so that every worker has work, and few enough
    that the scratch of ``jobs`` concurrent batches (each has its own wave
    slots) stays within ``scratch_budget``."""
    share = -(-total_groups // jobs)
    groups = min(groups_per_batch, share)
    if scratch_wave_bytes:
        groups = min(groups, scratch_budget // (jobs * waves_per_group * scratch_wave_bytes))
    return max(1, groups)


class CodeScan:
    """What ``scan_code`` saw: why the code must run in the host (None:
    nothing) and the PCs of the instructions it reached (all of them where
    ``reason`` is None: the workers' blocks are formed from them before the
    fork, ``exec.compiled.tier.BlockTier.prepare_for_workers``)."""

    __slots__ = ("reason", "pcs")

    def __init__(self, reason, pcs):
        self.reason = reason
        self.pcs = pcs


def host_bound(program, entry, interrupts) -> str | None:
    """Why the code reachable from ``entry`` must run in this process, or None
    (``scan_code``)."""
    return scan_code(program, entry, interrupts).reason


def scan_code(program, entry, interrupts) -> CodeScan:
    """The code reachable from ``entry``, scanned once per program.

    Follows every direct branch, and the calls and tail jumps whose target
    the block computes from the PC as compilers do for a direct call
    (``analysis.calls.computed_target``). Once a call was followed, any
    other ``s_setpc_b64`` is taken for a return (clang emits it for nothing
    else); before that, and for every other register target (a call through
    a function pointer), the code cannot be seen. An instruction that does
    not decode ends its path (a wave reaching it faults in a worker as it
    would here).
    """
    memo = program.__dict__.setdefault("code_scans", {})
    key = (entry, bool(interrupts))
    if key not in memo:
        seen = set()
        memo[key] = CodeScan(_scan(program, entry, interrupts, seen), frozenset(seen))
    return memo[key]


def _scan(program, entry, interrupts, seen) -> str | None:
    """``scan_code``'s walk: adds each PC reached to ``seen``; the reason it
    stopped early, or None."""
    pending = [entry]
    calls = 0
    while pending:
        pc = pending.pop()
        block = []                 # (address, instruction) since the block began
        while pc not in seen:
            if len(seen) >= SCAN_LIMIT:
                return f"more than {SCAN_LIMIT} instructions to scan"
            seen.add(pc)
            try:
                record = program.at(pc)
            except KernelError:
                break
            inst = record.inst
            reason = _host_use(inst, interrupts)
            if reason is not None:
                return f"{reason} at 0x{pc:x}"
            block.append((pc, inst))
            flow = control_flow(inst)
            if flow is None:
                pc = record.next_pc
                continue
            if flow.target == "register":
                target = computed_target(block, len(block) - 1)
                if target is None and not (record.op == "s_setpc_b64" and calls):
                    return f"an indirect branch or call ({record.op}) at 0x{pc:x}"
                if target is not None:
                    pending.append(target)
                    calls += flow.call
            elif flow.target == "label":
                target = branch_target(pc, inst)
                if target is not None:
                    pending.append(target)
            if not flow.falls_through:
                break
            block = []
            pc = record.next_pc
    return None


def _host_use(inst, interrupts) -> str | None:
    """What about ``inst`` needs the host's process (None: nothing)."""
    op = inst.op or ""
    if op.startswith("ds_"):
        if op.startswith(_GDS_ONLY) or int(inst.fields.get("gds", 0) or 0):
            return f"global data share access ({op})"
    elif interrupts and op in ("s_sendmsg", "s_sendmsghalt") and \
            int(inst.fields.get("simm16", 0)) & 0xF == MSG_INTERRUPT:
        return f"an interrupt to the runtime ({op})"
    return None

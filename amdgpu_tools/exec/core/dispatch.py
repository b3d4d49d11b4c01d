"""``run_dispatch``: work-groups -> batches of waves -> the run loop.

The grid is cut into batches of whole work-groups (as many as fit a memory
budget); each batch's waves share one ``WaveState`` and run together. The
scheduler keeps *groups*: sets of waves at the same PC. It always runs the
group with the lowest PC, which makes diverged waves meet again at join
points and lets whole batches run an instruction as one NumPy operation.
Branches split groups, equal PCs merge them, ``s_barrier`` parks waves until
every live wave of their work-group has arrived.

Fairness: lowest-PC-first alone starves spin loops between waves (the waiter
loops back to a low PC and runs forever while the lock holder waits at a
higher one). So once some group has waited a slice of scheduler steps, the
running group is put back and every other group gets a turn (one slice
each, in PC order) before lowest-PC-first resumes. The slice starts at
``FAIR_SLICE_STEPS`` and halves with every fair round down to
``MIN_FAIR_SLICE_STEPS``: a batch that needs rounds again and again is
handing a lock around, and each hand-over costs one slice of spinning. A
group that then runs alone for a whole ``FAIR_SLICE_STEPS`` (the waves met
again) restores the long slice, which keeps reconvergence in later loops.
Divergent stretches shorter than a slice keep their reconvergence; the
policy counts steps, not time, so runs stay deterministic.

Waves that must wait for other waves (``Retry`` outcome) are *deferred*: they
run the instruction again at the next turn round or once no other group can
run. A whole round in which nothing but deferred waves ran is a deadlock.

MODE is per wave but the float flags the ALU semantics read are per batch:
once some wave wrote MODE[9:0], each group runs with its own MODE applied,
and a group whose waves disagree runs one part per MODE value.

Several processes (``request.jobs``; ``parallel`` says when): the batches
are made no larger than an even share, and worker ``w`` of ``n`` runs
batches ``w, w + n, w + 2n...`` in order (``workers`` forks them). So the
first ``n`` batches run at the same time, and a work-group waiting for
another (a spin lock, decoupled look-back) makes progress when the other is
in the same batch, an earlier one, or one running at the same time in
another worker: those are the work-groups "resident" with it, as on a GPU.
A wave's number (in messages) is the one it has in one process; each worker
has its own scratch wave slots. The instruction budget of the watchdog
applies to each worker's share; the clock's deadline is the dispatch's.
"""

from __future__ import annotations

import functools
import statistics
import time
import weakref
from typing import NamedTuple

import numpy as np

from ...errors import KernelError, MemoryFault, WatchdogTimeout
from . import gpr_index, parallel, prototype, workers
from ..compiled import tier as compiled
from ..compiled.server import read_only
from .. import setup as setup_mod
from .context import BARRIER, END, Branch, Context, Jump, Retry
from ..launch import DispatchResult
from .operands import OperandError
from .program import Program
from .state import EXEC_HI, EXEC_LO, FLOAT_MODE_BITS, WaveState
from .trace import Tracer

#: Bytes of VGPR state, LDS and scratch a batch may hold (bounds the host
#: memory huge grids need; a batch always holds at least one work-group).
VGPR_BUDGET_BYTES = 256 << 20
LDS_BUDGET_BYTES = 256 << 20
SCRATCH_BUDGET_BYTES = 512 << 20
#: Most waves in one batch. Vectorisation gains flatten out well before
#: this, and 1024 waves keep one register (64K lanes, 256 KiB) and the
#: temporaries of an instruction in the CPU caches: a 1M-element vector add
#: runs ~40% faster than as one 16K-wave batch.
MAX_BATCH_WAVES = 1 << 10
#: How often (in scheduler steps) the wall clock is checked.
CLOCK_CHECK_STEPS = 256
#: How often (in scheduler steps) the request's host service is called.
HOST_SERVICE_STEPS = 64
#: Granularity of the periodic checks: a power of two dividing both periods.
CHECK_STEPS = 64
#: Steps a group may run while other groups wait before each of them gets a
#: turn (a multiple of CHECK_STEPS: the slice is looked at with the periodic
#: checks, so the run loop pays nothing per step for it).
FAIR_SLICE_STEPS = 4096
#: The shortest slice (after repeated fair rounds; a multiple of CHECK_STEPS).
MIN_FAIR_SLICE_STEPS = 64
#: Most steps a compiled block runs in one call for a group running alone
#: (the clock is looked at after each call).
ALONE_NATIVE_STEPS = 1 << 14
#: What ``_run_native`` answers when the check step it made first hands the
#: turn to other groups.
_PREEMPTED = object()


def run_dispatch(request, initializer=None, decode=None) -> DispatchResult:
    """Run every wave of ``request`` to completion.

    ``initializer(state, request, layout, group_ids)`` is called after the
    initial register set-up of each batch and may adjust it (tests use it);
    ``decode`` replaces the ISA decoder.
    """
    started = time.monotonic()
    result = DispatchResult()
    setup = request.setup
    vgprs = max(int(setup.vgpr_count), 1)
    groups_per_batch = _groups_per_batch(request, vgprs)
    waves_per_group = -(-_product(request.workgroup_size) // 64)
    kept_key = _kept_key(request, decode)
    program = _program_for(request, decode, kept_key)
    compiled_before = program.block_tier.compile_seconds if program.block_tier else 0.0
    jobs = 1
    # a wave holds at least one work-item: a small grid is ruled out at once
    if getattr(request, "jobs", 1) > 1 and \
            _product(request.grid_size) >= parallel.MIN_PARALLEL_WAVES:
        groups_per_batch, jobs = _parallel_plan(request, program, groups_per_batch,
                                                waves_per_group, initializer, decode)
    layout = setup_mod.prepare_dispatch(
        request, resident_waves=jobs * groups_per_batch * waves_per_group)
    tracer = Tracer(request.trace, request.checker)
    budget = _Budget(request.limits, started)
    try:
        group_ids = setup_mod.shared_workgroup_ids(layout)
        if jobs > 1:
            tier = block_tier(program, request, tracer)
            prepared = None if tier is None else _prepare_worker_blocks(
                tier, request, layout, program, group_ids, budget)
            steps = _run_in_workers(request, layout, program, group_ids, groups_per_batch,
                                    waves_per_group, jobs, budget, result)
            if prepared:
                tier.add_worker_steps(prepared, steps)
        else:
            first_wave = 0
            for start in range(0, len(group_ids), groups_per_batch):
                chunk = group_ids[start:start + groups_per_batch]
                state = _make_state(request, layout, start, chunk, first_wave,
                                    initializer)
                Scheduler(state, program, request, result, tracer, budget).run()
                first_wave += state.num_waves
                result.waves += state.num_waves
                # freed before the next batch's state is made, whose registers then
                # take these pages, in the cache and mapped, instead of fresh ones
                # (the 1M vector add: ~0.1 ms a batch of 1,024 waves; handing the
                # arrays on, zeroed, measured no faster)
                del state
    finally:
        setup_mod.release_dispatch(layout)
    result.seconds = time.monotonic() - started
    result.processes = jobs
    tier = program.block_tier
    if jobs == 1 and getattr(request, "jobs", 1) > 1:
        compile_seconds = tier.compile_seconds - compiled_before if tier else 0.0
        parallel.remember_cost(request.setup, result.seconds - compile_seconds,
                               result.waves, parallel.memory_reach(request.memory))
    _keep_program(request, program, kept_key)
    result.profile = tracer.profile
    result.lane_profile = tracer.lane_profile
    return result


#: memory -> {kept-program key: Program}: what earlier dispatches decoded
#: (``Program.keep``), for the next dispatch of the same kernel
_KEPT_PROGRAMS = weakref.WeakKeyDictionary()
#: Kept programs per memory (the dict is emptied when full).
KEPT_PROGRAMS = 64


def _kept_key(request, decode):
    """A kernel's kept-program key: its entry, what binding reads
    (``Program.key_for``), and the compile mode and block cache its
    compiled-block tier was made for."""
    return (int(request.setup.entry_address),
            Program.key_for(request.target, request, decode),
            compiled.resolve_mode(getattr(request, "compile", None)), compiled.cache_directory())


def _program_for(request, decode, key):
    """The Program of a dispatch: the one the kernel's last dispatch kept,
    when the code it decoded is unchanged, else a new one. A program is
    taken out while it runs a dispatch (another thread's gets its own)."""
    memory = request.memory
    kept = _KEPT_PROGRAMS.get(memory)
    program = kept.pop(key, None) if kept else None
    if program is not None and program.unchanged(memory):
        program.rebind(memory, request)
        if program.block_tier:
            program.block_tier.next_dispatch()
        return program
    return Program(memory, request.target, request, decode=decode)


def _keep_program(request, program, key):
    """Keep a dispatch's Program for the kernel's next dispatch (after it
    ran to completion: a failed one's is dropped)."""
    if not program.keep():
        return
    kept = _KEPT_PROGRAMS.setdefault(request.memory, {})
    if len(kept) >= KEPT_PROGRAMS:
        kept.clear()
    kept[key] = program


def _parallel_plan(request, program, groups_per_batch, waves_per_group, initializer, decode):
    """(work-groups per batch, worker processes) of a dispatch that asks for jobs."""
    counts = [-(-int(g) // int(b)) for g, b in zip(request.grid_size, request.workgroup_size)]
    total_groups = counts[0] * counts[1] * counts[2]
    key = _pool_key(request)
    pool = workers.pool_for(key)
    jobs = parallel.worker_count(request, program, total_groups, total_groups * waves_per_group,
                                 initializer, decode, kept=pool.size if pool else 0,
                                 checking=key.mode == "check")
    if jobs <= 1:
        return groups_per_batch, 1
    private = max(int(request.private_segment_size or 0),
                  int(request.setup.private_segment_fixed_size or 0))
    wave_bytes = -(-private * 64 // setup_mod.SCRATCH_WAVE_ALIGNMENT) * \
        setup_mod.SCRATCH_WAVE_ALIGNMENT
    groups = parallel.batch_groups(groups_per_batch, total_groups, jobs, waves_per_group,
                                   wave_bytes, SCRATCH_BUDGET_BYTES)
    return groups, min(jobs, -(-total_groups // groups))


def _prepare_worker_blocks(tier, request, layout, program, group_ids, budget):
    """Form and ready the compiled blocks of every instruction the workers
    can reach, here, before they are forked (``BlockTier.prepare_for_workers``);
    the modes come from a state of the first work-group. Compiling or
    loading is not the kernel's time: the watchdog's clock waits."""
    state = _make_state(request, layout, 0, group_ids[:1], 0, None)
    scan = parallel.scan_code(program, int(request.setup.entry_address),
                              request.interrupt is not None)
    spent = tier.compile_seconds
    prepared = tier.prepare_for_workers(scan.pcs, state)
    budget.deadline += tier.compile_seconds - spent
    return prepared


def _run_in_workers(request, layout, program, group_ids, groups_per_batch, waves_per_group,
                    jobs, budget, result):
    """Run the batches in ``jobs`` worker processes (batch ``b`` in worker
    ``b % jobs``) and add up what they report; returns each worker's
    interpreted steps of the compiled-block tier's blocks (``worker_steps``).

    The workers of the last parallel dispatch are kept (``workers.start_pool``)
    and take this one when nothing they inherited has changed since they
    were forked (``_pool_key``): the device memory's reach (its epoch), the
    blocks loaded here, the compile mode and block cache. Allocations made
    since the fork (this dispatch's scratch, buffers of the launch) are sent
    as a mapping update (``DeviceMemory.mapping_update``)."""
    starts, first_waves = _batch_starts(layout, group_ids, groups_per_batch)
    plan = _SharePlan(starts, first_waves, groups_per_batch, jobs,
                      groups_per_batch * waves_per_group, workers.atomic_stripes())
    # (the key is looked at again: this dispatch's scratch is mapped now)
    key = _pool_key(request)
    memory = request.memory
    reports = None
    pool = workers.pool_for(key)
    if pool is not None and pool.size == jobs:
        mapping = memory.mapping()
        told = pool.notes.get("mapping")
        update = None if told is mapping else memory.mapping_update(told)
        try:
            if told is not mapping and update is None:
                raise workers.CannotSend("an allocation is out of the workers' reach")
            reports = pool.run(_pooled_share, (request, layout, plan, budget, update),
                               budget.deadline)
            pool.notes["mapping"] = mapping
        except workers.CannotSend:
            pass                        # (start_pool ends it)
        except BaseException:
            workers.close_pool(busy=True)
            raise
    if reports is None:
        reports = workers.start_pool(
            jobs, functools.partial(_share, request=request, layout=layout, program=program,
                                    plan=plan, budget=budget),
            key=key, known=(memory, plan.stripes, request.target, request.gds,
                            request.interrupt,
                            # (the kernel's, the same object at each launch: pickled,
                            # most of the ~0.16 ms a later dispatch's command took)
                            request.setup, request.limits),
            notes={"mapping": memory.mapping()},
            deadline=budget.deadline, describe=f"kernel '{request.kernel_name}': worker")
    rates = []
    for wave_instructions, lane_instructions, wave_count, compiled_count, batch_rates, _ \
            in reports:
        result.wave_instructions += wave_instructions
        result.lane_instructions += lane_instructions
        result.waves += wave_count
        result.compiled_instructions += compiled_count
        rates += batch_rates
    # the median batch: a worker's first batch is slowed by its cold start
    # (copied pages, caches), which one process would not pay again
    # (statistics.median: np.median of a few numbers cost ~50 us)
    parallel.remember_cost(request.setup, statistics.median(rates) * result.waves,
                           result.waves, parallel.memory_reach(memory))
    return [report[-1] for report in reports]


#: (grid, work-group size, work-groups per batch) -> (first work-group, first
#: wave) of each batch: the same for every dispatch of a grid
_BATCH_STARTS: dict = {}
_BATCH_STARTS_ENTRIES = 16


def _batch_starts(layout, group_ids, groups_per_batch) -> tuple:
    """(first work-group index, first wave number) of each batch of
    ``groups_per_batch`` work-groups, as lists; kept per grid."""
    key = (layout.grid_size, layout.workgroup_size, groups_per_batch)
    known = _BATCH_STARTS.get(key)
    if known is None:
        starts = list(range(0, len(group_ids), groups_per_batch))
        waves = -(-setup_mod.workgroup_extent(layout, group_ids).prod(axis=1) // 64)
        first_waves = np.concatenate(([0], np.cumsum(waves)))[starts].tolist()
        if len(_BATCH_STARTS) >= _BATCH_STARTS_ENTRIES:
            _BATCH_STARTS.clear()
        known = _BATCH_STARTS[key] = (starts, first_waves)
    return known


class _SharePlan(NamedTuple):
    """How a parallel dispatch's batches are dealt to its workers (the
    work-group ids are not sent: each worker lays them out, or has them
    from its last dispatch of the grid: ``setup.shared_workgroup_ids``)."""
    #: first work-group (index into the grid's ids) and first wave of each batch
    starts: list
    first_waves: list
    groups_per_batch: int
    jobs: int
    #: scratch wave slots of one worker's batch
    slot_stride: int
    #: the cross-process locks of global atomics
    stripes: object


class _PoolKey(NamedTuple):
    """What the kept workers must have inherited to take a dispatch: the
    same device memory with the same epoch (every allocation made since
    their fork lies in shared pages they see: ``DeviceMemory.epoch``), the
    blocks loaded here then (a worker runs only those natively), the
    compile mode and block cache. (The pool holds the memory: its id stays
    its own.)"""
    memory: int
    epoch: int
    loaded_blocks: int
    mode: str
    cache: object


def _pool_key(request) -> _PoolKey:
    memory = request.memory
    return _PoolKey(id(memory), memory.epoch, compiled.loaded_blocks(),
                    compiled.resolve_mode(request.compile), compiled.cache_directory())


def _pooled_share(worker, request, layout, plan, budget, update):
    """A kept worker's share of a later dispatch: the mapping brought up to
    date (``update``, None when unchanged), its own Program (the code is in
    the shared memory; its decode caches are warm from earlier ones)."""
    if update is not None:
        request.memory.adopt(update)
    program = Program(request.memory, request.target, request)
    return _share(worker, request=request, layout=layout, program=program, plan=plan,
                  budget=budget)


def _share(worker, *, request, layout, program, plan, budget):
    """Worker ``worker``'s batches, in its own process: what it adds to the
    result, each batch's seconds per wave, its interpreted block steps."""
    request.memory.atomic_guard = plan.stripes
    mine = DispatchResult()
    tracer = Tracer(None, None)
    rates = []                      # seconds per wave of each batch
    group_ids = setup_mod.shared_workgroup_ids(layout)
    for batch in range(worker, len(plan.starts), plan.jobs):
        started = time.perf_counter()
        first = plan.starts[batch]
        chunk = group_ids[first:first + plan.groups_per_batch]
        state = _make_state(request, layout, first, chunk, plan.first_waves[batch], None,
                            slot=worker * plan.slot_stride)
        Scheduler(state, program, request, mine, tracer, budget).run()
        mine.waves += state.num_waves
        rates.append((time.perf_counter() - started) / state.num_waves)
        del state                   # (before the next one is made: see run_dispatch)
    tier = program.block_tier
    return (mine.wave_instructions, mine.lane_instructions, mine.waves,
            mine.compiled_instructions, rates, tier.worker_steps() if tier else {})


def _product(sizes) -> int:
    """The product of a 3-tuple of sizes, as a Python int."""
    x, y, z = sizes
    return int(x) * int(y) * int(z)


def _groups_per_batch(request, vgprs):
    """How many work-groups one batch runs at once, within the memory budgets."""
    waves_per_group = -(-_product(request.workgroup_size) // 64)
    lds = max(int(request.group_segment_size or 0),
              int(request.setup.group_segment_fixed_size or 0), 1)
    private = max(int(request.private_segment_size or 0),
                  int(request.setup.private_segment_fixed_size or 0), 1)
    waves = min(MAX_BATCH_WAVES, VGPR_BUDGET_BYTES // (vgprs * 256),
                SCRATCH_BUDGET_BYTES // (private * 64))
    return max(1, min(waves // waves_per_group, LDS_BUDGET_BYTES // lds))


def _make_state(request, layout, first_group, group_ids, first_wave, initializer,
                slot=None):
    """A WaveState for the work-groups ``group_ids`` (from the ``first_group``-th
    of the grid on) with their initial registers; its waves are numbered from
    ``first_wave`` and take scratch wave slots from ``slot`` (default:
    ``first_wave``). A small batch starts from a copy of its prototype
    (``prototype.py``), unless ``initializer`` adjusts it."""
    slot = first_wave if slot is None else slot
    if initializer is not None:
        state = _build_state(request, layout, group_ids, first_wave, slot)
        initializer(state, request, layout, group_ids)
        return state
    return prototype.batch_state(
        request, layout, (first_group, first_wave, slot), group_ids,
        lambda: _build_state(request, layout, group_ids, first_wave, slot))


def _build_state(request, layout, group_ids, first_wave, slot):
    """A WaveState built from the initial execution state ``setup`` lays out."""
    init = setup_mod.initial_wave_state(layout, group_ids, first_wave_slot=slot)
    waves = init.exec_mask.shape[0]
    state = WaveState(target=request.target, num_waves=waves,
                      vgpr_count=int(request.setup.vgpr_count), num_groups=len(group_ids),
                      lds_bytes=0, request=request,
                      workitem_id=init.workitem_ids.transpose(1, 0, 2),     # views, no copies
                      lane_valid=init.exec_mask)
    state.lds = setup_mod.make_lds(layout, len(group_ids))
    state.layout = layout
    if request.checker is not None:
        state.memory_watch = request.checker.memory
    count = min(init.sgprs.shape[1], prototype.FIRST_SPECIAL_SGPR)
    state.sgpr[:count] = init.sgprs[:, :count].T
    for dim in range(min(init.vgpr_count_used, state.vgpr.shape[0])):
        state.vgpr[dim] = init.workitem_ids[:, dim]
    state.set_exec_lanes(slice(None), init.exec_mask)
    state.sgpr[124] = init.m0
    state.write_sgpr64(slice(None), prototype.flat_scratch_row(request.target), init.flat_scratch)
    state.workgroup_id[:] = init.workgroup_id
    if getattr(init, "workgroup_size", None) is not None:
        state.workgroup_size = init.workgroup_size
    state.wave_group[:] = init.group_slot
    state.wave_in_group[:] = init.wave_in_group
    state.wave_number[:] = first_wave + np.arange(waves)
    state.extra.update(init.extra)
    state.private_wave_offset = init.private_wave_offset
    mode = int(request.setup.float_mode) | (int(request.setup.dx10_clamp) << 8) | \
        (int(request.setup.ieee_mode) << 9)
    state.mode[:] = mode
    state.apply_float_mode(mode)
    return state


class _Budget:
    """The watchdog: an instruction budget and a wall-clock deadline."""

    def __init__(self, limits, started):
        self.max_instructions = limits.max_wave_instructions
        self.deadline = started + limits.max_seconds
        self.max_seconds = limits.max_seconds


def _as_sel(indices):
    """Sorted wave indices -> a slice when contiguous (views instead of copies)."""
    if indices.size and int(indices[-1]) - int(indices[0]) + 1 == indices.size:
        return slice(int(indices[0]), int(indices[-1]) + 1)
    return indices


def _indices(sel):
    if isinstance(sel, slice):
        return np.arange(sel.start, sel.stop, dtype=np.int64)
    return sel


def _merge(groups, pc, sel):
    """Put waves ``sel`` into ``groups`` at ``pc``, merging with waves already there."""
    existing = groups.get(pc)
    if existing is None:
        groups[pc] = sel
        return
    groups[pc] = _as_sel(np.union1d(_indices(existing), _indices(sel)))


def _count(sel):
    return sel.stop - sel.start if isinstance(sel, slice) else int(sel.size)


def _lane_counter(state, sel, n):
    """A function giving the active lanes of the group (EXEC popcount) before a step.

    A single wave reads its two EXEC words as Python ints (far cheaper than
    NumPy scalars); the count also tells the context whether every lane is on.
    """
    if n == 1 and type(sel) is slice:
        wave = sel.start
        item = state.sgpr.item

        def count_one(ctx):
            lo, hi = item(EXEC_LO, wave), item(EXEC_HI, wave)
            if lo & hi == 0xFFFFFFFF:
                ctx.all_active = True
                return 64
            ctx.all_active = False
            return lo.bit_count() + hi.bit_count()
        return count_one
    return Context.active_lane_count


class Scheduler:
    """Runs one batch of waves until all have executed s_endpgm."""

    def __init__(self, state, program, request, result, tracer, budget):
        self.state = state
        self.program = program
        self.request = request
        self.result = result
        self.tracer = tracer
        self.budget = budget
        #: pc -> pre-decoded record: the program's own dict (``Program.at``
        #: fills it where it has none)
        self.records = program.records
        #: (pc, (index, enables, vskip)) -> record for waves in those modes
        self.indexed_records = {}
        waves = state.num_waves
        self.groups = {}
        #: pc -> waves that got a Retry there and wait for the next round
        self.deferred = {}
        #: PCs of the groups still owed a turn in the current fair round
        self.turns = []
        #: pc -> scheduler step since which the waves there have waited
        self.waiting_since = {}
        #: step of the first deferral not yet retried (None: nothing deferred)
        self.deferred_since = None
        #: True while a group runs its turn of a fair round
        self.in_turn = False
        #: the current slice: halved by every fair round, down to the minimum
        self.slice_steps = FAIR_SLICE_STEPS
        #: step since which the running group has been alone (None: others wait)
        self.alone_since = None
        #: wave-executions that were blocked (Retry): not progress
        self.retried = 0
        #: progress mark (executed - retried) when deferred waves last came back
        self.round_mark = None
        self.alive = np.empty(waves, dtype=np.bool_)
        self.alive.fill(True)               # (np.ones: 3x the cost, for one wave)
        state.alive = self.alive     # read by ds_ordered_count (wave order)
        #: barrier bookkeeping (waves parked, where they resume, live and arrived
        #: waves per work-group): made at the first s_barrier (``_barrier_state``),
        #: which many short kernels never reach
        self.at_barrier = self.resume_pc = self.live_per_group = self.arrived_per_group = None
        #: how many waves are parked at s_barrier (``at_barrier`` counted)
        self.parked = 0
        #: (device memory mapping, its layout for compiled blocks that move
        #: global memory), made at the first such block
        self.block_memory = None
        #: the check step whose checks ``_run_native`` made before a block
        #: that then ran nothing (the interpreter takes the step, not its checks)
        self.checked_step = -1
        #: the read-only view of ``state.wave_group`` compiled blocks take
        self.block_wave_group = None
        if waves:
            self.groups[int(request.setup.entry_address)] = slice(0, waves)

    # ----------------------------------------------------------- grouping
    def _add(self, pc, sel):
        if pc not in self.groups:
            self.waiting_since[pc] = self.steps
        _merge(self.groups, pc, sel)

    def _take(self, pc):
        """Remove the group at ``pc`` to run it."""
        self.waiting_since.pop(pc, None)
        return self.groups.pop(pc)

    def _add_many(self, pcs, indices):
        """Waves ``indices`` continue at per-wave ``pcs``."""
        for pc in np.unique(pcs):
            self._add(int(pc), _as_sel(indices[pcs == pc]))

    # ------------------------------------------------------------ the loop
    def run(self):
        groups = self.groups
        self.executed = self.result.wave_instructions
        self.lanes_executed = self.result.lane_instructions
        self.steps = 0
        with np.errstate(all="ignore"):
            while True:
                if not groups:
                    if not self.deferred:
                        break
                    self._reinstate(check_progress=True)
                if self.turns:
                    pc, limit = self._next_turn()
                    if pc is None:
                        continue
                    self.in_turn = True
                    sel = self._take(pc)
                else:
                    if self.in_turn:
                        self._restart_waiting()      # a fair round just ended
                    self.in_turn = False
                    pc = min(groups)
                    sel = self._take(pc)
                    limit = min(groups) if groups else None
                self._run_group(pc, sel, limit)
        self.result.wave_instructions = self.executed
        self.result.lane_instructions = self.lanes_executed
        if self.parked:
            raise KernelError("waves wait at s_barrier but their work-group cannot arrive",
                              kernel=self.request.kernel_name)

    # ------------------------------------------------- fairness and retry
    def _next_turn(self):
        """The next group owed a turn in this fair round and its limit PC
        (the next group above it, where it stops to merge); (None, None)
        when that group has since merged into another or finished."""
        pc = self.turns.pop(0)
        if pc not in self.groups:
            return None, None
        above = [other for other in self.groups if other > pc]
        return pc, (min(above) if above else None)

    def _should_yield(self, steps, slice_end):
        """Whether the running group must give the others a turn: in a fair
        round, when its slice is over; otherwise when some group (or a
        deferred wave) has waited a whole slice."""
        if not (self.groups or self.deferred):
            if self.alone_since is None:
                self.alone_since = steps
            elif steps - self.alone_since >= FAIR_SLICE_STEPS:
                self.slice_steps = FAIR_SLICE_STEPS
            return False
        self.alone_since = None
        if self.in_turn:
            return steps >= slice_end
        oldest = min(self.waiting_since.values(), default=steps)
        if self.deferred_since is not None:
            oldest = min(oldest, self.deferred_since)
        return steps - oldest >= self.slice_steps

    def _preempt(self, pc, sel):
        """Put the running group back and, unless a fair round is under way,
        start one in which every other group (deferred waves included) gets
        one slice; their waiting starts over."""
        self._add(pc, sel)
        if self.in_turn:
            return
        if self.deferred:
            self._reinstate(check_progress=False)
        self.turns = sorted(other for other in self.groups if other != pc)
        self.slice_steps = max(MIN_FAIR_SLICE_STEPS, self.slice_steps // 2)
        self._restart_waiting()

    def _restart_waiting(self):
        """Every waiting group counts as served from now on (at the start
        of a fair round, and at its end, so the group that resumes gets a
        whole slice before the next round)."""
        for other in self.waiting_since:
            self.waiting_since[other] = self.steps
        if self.deferred_since is not None:
            self.deferred_since = self.steps

    def _reinstate(self, check_progress):
        """Deferred waves try their instruction again.

        With ``check_progress`` (no other group could run): if nothing but
        blocked retries happened since they last came back, no wave can ever
        unblock them: a deadlock, reported at the lowest blocked PC.
        """
        mark = self.executed - self.retried
        if check_progress and mark == self.round_mark:
            pc = min(self.deferred)
            sel = self.deferred[pc]
            ctx = Context(self.state, sel, _count(sel), self.records[pc])
            blocked = sum(_count(waves) for waves in self.deferred.values())
            raise ctx.fault(f"deadlock: {blocked} blocked wave(s) at this instruction "
                            "wait for waves that never arrive (every other live wave "
                            "has ended, is parked at s_barrier or is blocked too)")
        self.round_mark = mark
        deferred, self.deferred, self.deferred_since = self.deferred, {}, None
        for pc in sorted(deferred):
            self._add(pc, deferred[pc])

    def _retry(self, ctx, blocked):
        """Blocked waves wait (deferred at this PC); the others go on."""
        record, sel = ctx.record, ctx.sel
        if isinstance(blocked, (bool, np.bool_)):
            blocked = np.full(ctx.n, bool(blocked))
        blocked = np.broadcast_to(np.asarray(blocked, dtype=np.bool_), (ctx.n,))
        indices = _indices(sel)
        waiting = indices[blocked]
        if waiting.size:
            if self.deferred_since is None:
                self.deferred_since = self.steps
            _merge(self.deferred, record.pc, _as_sel(waiting))
            self.retried += int(waiting.size)
        going = indices[~blocked]
        if going.size:
            self._add(record.next_pc, _as_sel(going))

    # ------------------------------------------------------- running groups
    def _run_group(self, pc, sel, limit):
        """Run one group from ``pc`` for as long as it stays the lowest-PC group.

        ``limit`` is the PC of the next group: reaching it (or passing it)
        hands control back so that the groups can merge or take turns.
        This is the innermost loop of the executor: counters live in locals
        (written back on the way out) and the per-step bookkeeping is kept
        to a few Python operations.
        """
        state = self.state
        if state.float_modes_written and self._run_by_float_mode(pc, sel):
            return
        if state.wave_modes_used and gpr_index.any_enabled(state, sel):
            self._run_indexed_step(pc, sel)
            return
        self.executed, self.lanes_executed, self.steps = self._run_steps(pc, sel, limit)

    def _run_by_float_mode(self, pc, sel):
        """MODE is per wave, the float flags the semantics read are per batch:
        apply the group's MODE[9:0] when it differs from the one applied.

        When the group's waves disagree, each part with one MODE runs one
        instruction with its own flags (True: done; the parts meet again at
        the next PC and are looked at again). Only after some wave wrote
        MODE (``state.float_modes_written``); otherwise this costs nothing.
        """
        state = self.state
        bits = state.mode[sel] & FLOAT_MODE_BITS
        first = int(bits[0])
        if (bits == first).all():
            if first != state.float_mode_bits:
                state.apply_float_mode(first)
            return False
        indices = _indices(sel)
        for value in np.unique(bits):
            state.apply_float_mode(int(value))
            part = _as_sel(indices[bits == value])
            if state.wave_modes_used and gpr_index.any_enabled(state, part):
                self._run_indexed_step(pc, part)
            else:
                self.executed, self.lanes_executed, self.steps = self._run_steps(pc, part, 0)
        return True

    def _run_indexed_step(self, pc, sel):
        """One instruction for waves of which some are in VGPR indexing or vector skip mode.

        The index differs between waves, so the group is split by (index,
        enables, vskip) and each part runs a record pre-decoded for its
        registers, or skipped (``limit`` 0: exactly one step, then back to the
        scheduler, which looks at the modes again before the next one).
        """
        record = self.records.get(pc)
        if record is None:
            try:
                record = self.records[pc] = self.program.at(pc)
            except KernelError as error:
                raise self._fetch_error(sel, pc, error) from error
        for part, modes in gpr_index.partition(self.state, _indices(sel)):
            key = (pc, modes)
            variant = self.indexed_records.get(key)
            if variant is None:
                variant = self.indexed_records[key] = self.program.variant(record, modes)
            self.executed, self.lanes_executed, self.steps = self._run_steps(
                pc, _as_sel(part), 0, {pc: variant})

    def _run_steps(self, pc, sel, limit, records=None):
        state, program, tracer, budget = self.state, self.program, self.tracer, self.budget
        host_service = self.request.host_service
        if records is None:
            records = self.records
        n = _count(sel)
        ctx = Context(state, sel, n, None)
        count_lanes = _lane_counter(state, sel, n)
        tracing = tracer.active
        max_instructions = budget.max_instructions
        executed, lanes_executed, steps = self.executed, self.lanes_executed, self.steps
        # the host service, the clock and the fair slice are looked at every
        # CHECK_STEPS steps
        check_mask = CHECK_STEPS - 1
        slice_end = steps + self.slice_steps
        tier = self._tier() if records is self.records and \
            n <= compiled.MAX_NATIVE_WAVES else None
        while True:
            if tier is not None:
                slot = tier.slots.get(pc, False)
                if slot is False:
                    slot = tier.slot(pc, state)
                if slot is not None:
                    block = slot.block
                    fn = block.fn if block.modes_key == state.float_mode_bits else None
                    if fn is None:
                        spent = tier.compile_seconds
                        fn = tier.ready(block, state, n)
                        # compiling is not the kernel's time: the watchdog's clock waits
                        budget.deadline += tier.compile_seconds - spent
                    if fn is not None:
                        ran = self._run_native(fn, block, slot.index, ctx, steps, executed,
                                               limit, count_lanes, host_service, slice_end)
                        if ran is _PREEMPTED:
                            # as the interpreter at a check step: the step is
                            # spent, its instruction did not run
                            self.executed, self.steps = executed, steps + 1
                            self._preempt(pc, sel)
                            return executed, lanes_executed, steps + 1
                        if ran is not None:
                            done, lanes, next_pc = ran
                            executed += n * done
                            lanes_executed += lanes
                            steps += done
                            if limit is not None and next_pc >= limit:
                                self.steps = steps
                                self._add(next_pc, sel)
                                return executed, lanes_executed, steps
                            pc = next_pc
                            continue
            record = records.get(pc)
            if record is None:
                try:
                    record = records[pc] = program.at(pc)
                except KernelError as error:
                    raise self._fetch_error(sel, pc, error) from error
            ctx.record = record
            ctx._exec = None
            ctx.all_active = None
            executed += n
            if executed > max_instructions:
                raise self._watchdog(ctx, f"instruction budget of {max_instructions}"
                                     " wave-instructions exceeded")
            steps += 1
            if not steps & check_mask and steps != self.checked_step and \
                    self._periodic(ctx, steps, host_service, slice_end):
                # this instruction did not run: the group waits at pc
                self.executed, self.steps = executed - n, steps
                self._preempt(pc, sel)
                return executed - n, lanes_executed, steps
            if tracing:
                tracer.before(ctx)
            try:
                if record.is_vector:
                    lanes_executed += count_lanes(ctx)
                else:
                    lanes_executed += n
                outcome = record.run(ctx)
            except MemoryFault as fault:
                raise ctx.fault(str(fault), address=fault.address) from fault
            except OperandError as error:
                raise ctx.fault(str(error)) from error
            except IndexError as error:
                raise ctx.fault(f"register out of range: the kernel declares "
                                f"{state.vgpr_count} VGPRs ({error})") from error
            except (ValueError, TypeError, ArithmeticError) as error:
                # a gap in the executor itself: still name the instruction
                raise ctx.fault(f"internal executor error: {type(error).__name__}: "
                                f"{error}") from error
            if tracing:
                tracer.after(ctx)
            if outcome is None:
                next_pc = record.next_pc
            else:
                next_pc = self._uniform_next(record, outcome)
                if next_pc is None:
                    self.executed, self.steps = executed, steps
                    self._resolve(ctx, outcome)
                    return executed, lanes_executed, steps
            if limit is not None and next_pc >= limit:
                self.steps = steps
                self._add(next_pc, sel)
                return executed, lanes_executed, steps
            pc = next_pc

    def _run_native(self, fn, block, start, ctx, steps, executed, limit, count_lanes,
                    host_service, slice_end):
        """Run a compiled block from its instruction ``start``: (steps, lanes,
        next PC), or None when it ran nothing (the interpreter takes the step).

        It runs no step the interpreter's loop would treat differently: none
        past the instruction budget or at or past ``limit``, and, while other
        groups wait, none on a periodic check step (which may hand the turn
        to them). A group running alone goes on through check steps, whose
        checks then run afterwards, in order: alone, no check can stop it,
        and serving the host later changes nothing the block reads, unless
        it reads global memory (which the host may write): such a block
        stops before a check step when there is a host to serve.
        """
        n = ctx.n
        others_wait = bool(self.groups or self.deferred)
        alone = not others_wait and not (block.uses_memory and host_service is not None)
        room = ALONE_NATIVE_STEPS if alone else CHECK_STEPS - 1 - (steps & (CHECK_STEPS - 1))
        checked = room == 0 and (executed + n) <= self.budget.max_instructions
        if checked:
            # the next step is a check step: its checks first, as the
            # interpreter makes them before its instruction, then the block
            # from that instruction up to the next check step (interpreting
            # every 64th step cost -O0 code, whose blocks move memory while
            # a host is served, half its time)
            if self._periodic(ctx, steps + 1, host_service, slice_end):
                return _PREEMPTED
            self.checked_step = steps + 1
            room = CHECK_STEPS
        max_steps = min(room, (self.budget.max_instructions - executed) // n)
        if max_steps <= 0:
            return None
        sel = ctx.sel
        state = self.state
        if not compiled.gathers(sel, block, start, state.vgpr.shape[0]):
            return None
        ctx.record = block.records[start]
        limit = compiled.NO_LIMIT if limit is None else limit
        # alone and none parked: the group holds every live wave of its work-groups
        barrier_ok = not others_wait and not self.parked
        memory = self._block_memory() if block.uses_memory else None
        wave_group = self.block_wave_group
        if wave_group is None:
            wave_group = self.block_wave_group = read_only(state.wave_group)
        try:
            if self.program.block_tier.mode == "check":
                checking = time.monotonic()
                ran = compiled.check_run(fn, block, ctx, wave_group, start, max_steps, limit,
                                         barrier_ok, memory, count_lanes, self._uniform_next)
                # checking is not the kernel's time (copies of every allocation, the
                # replay): the watchdog's clock waits; the instruction budget still counts
                self.budget.deadline += time.monotonic() - checking
            else:
                ran = compiled.run_block(fn, state, sel, wave_group, start, max_steps, limit,
                                         barrier_ok, block.pcs[0], memory)
        except (MemoryFault, OperandError, IndexError, ValueError, TypeError,
                ArithmeticError) as error:
            raise ctx.fault(f"internal executor error in a compiled block: "
                            f"{type(error).__name__}: {error}") from error
        done = ran[0]
        if done == 0:
            return None
        self.result.compiled_instructions += n * done
        first_check = (steps | (CHECK_STEPS - 1)) + 1 + (CHECK_STEPS if checked else 0)
        for check in range(first_check, steps + done + 1, CHECK_STEPS):
            self._periodic(ctx, check, host_service, slice_end)
        return ran

    def _block_memory(self):
        """The device memory laid out for compiled blocks (``compiled.memory_view``),
        made again when something was mapped or unmapped since."""
        mapping = self.state.memory.mapping()
        if self.block_memory is None or self.block_memory[0] is not mapping:
            self.block_memory = (mapping, compiled.memory_view(self.state, mapping))
        return self.block_memory[1]

    def _tier(self):
        return block_tier(self.program, self.request, self.tracer)

    def _periodic(self, ctx, steps, host_service, slice_end):
        """Every CHECK_STEPS steps: serve the host, now and then check the
        clock; True when the running group's slice is over and others wait."""
        if host_service is not None and steps % HOST_SERVICE_STEPS == 0:
            host_service()
        if steps % CLOCK_CHECK_STEPS == 0 and time.monotonic() > self.budget.deadline:
            raise self._watchdog(ctx, f"wall-clock limit of {self.budget.max_seconds} s exceeded")
        return self._should_yield(steps, slice_end)

    @staticmethod
    def _uniform_next(record, outcome):
        """The next PC when every wave of the group goes to the same place."""
        if outcome is None:
            return record.next_pc
        if type(outcome) is Branch:
            taken = outcome.taken
            if not isinstance(taken, (bool, np.bool_)):
                if taken.size == 1:             # one wave: a Python bool, no reduction
                    taken = taken.item()
                elif taken.all():
                    taken = True
                elif not taken.any():
                    taken = False
                else:
                    return None
            return outcome.target if taken else record.next_pc
        return None

    def _resolve(self, ctx, outcome):
        record, sel = ctx.record, ctx.sel
        if isinstance(outcome, Branch):
            taken = outcome.taken
            if isinstance(taken, (bool, np.bool_)):
                self._add(outcome.target if taken else record.next_pc, sel)
                return
            taken = np.asarray(taken, dtype=np.bool_)
            if taken.all():
                self._add(outcome.target, sel)
            elif not taken.any():
                self._add(record.next_pc, sel)
            else:
                indices = _indices(sel)
                self._add(outcome.target, _as_sel(indices[taken]))
                self._add(record.next_pc, _as_sel(indices[~taken]))
        elif isinstance(outcome, Jump):
            pcs = np.broadcast_to(np.asarray(outcome.pcs, dtype=np.int64), (ctx.n,))
            self._add_many(pcs, _indices(sel))
        elif outcome is END:
            self._end(sel)
        elif outcome is BARRIER:
            self._barrier(sel, record.next_pc)
        elif type(outcome) is Retry:
            self._retry(ctx, outcome.blocked)
        else:
            raise ctx.fault(f"internal error: unknown outcome {outcome!r}")

    # ---------------------------------------------------- end and barrier
    def _end(self, sel):
        self.alive[sel] = False
        if self.live_per_group is None:     # no barrier yet: nothing counts live waves
            return
        groups = self.state.wave_group[sel]
        if groups.size == 1:
            self.live_per_group[groups[0]] -= 1
        else:
            np.subtract.at(self.live_per_group, groups, 1)
        if self.parked:         # the ended waves may have been all some barrier waited for
            self._release(np.unique(groups))

    def _barrier_state(self):
        """Make the barrier bookkeeping at the first s_barrier; the live waves of
        each work-group are the ones that have not ended."""
        if self.at_barrier is not None:
            return
        waves, wave_group = self.state.num_waves, self.state.wave_group
        self.at_barrier = np.zeros(waves, dtype=np.bool_)
        self.resume_pc = np.zeros(waves, dtype=np.int64)
        groups = np.bincount(wave_group).size
        self.live_per_group = np.bincount(wave_group[self.alive], minlength=groups)
        self.arrived_per_group = np.zeros(groups, dtype=np.int64)

    def _barrier(self, sel, resume_pc):
        self._barrier_state()
        indices = _indices(sel)
        self.at_barrier[indices] = True
        self.parked += indices.size
        self.resume_pc[indices] = resume_pc
        groups = self.state.wave_group[indices]
        np.add.at(self.arrived_per_group, groups, 1)
        self._release(np.unique(groups))

    def _release(self, groups):
        """Let the work-groups ``groups`` go on if all their live waves arrived."""
        arrived = self.arrived_per_group[groups]
        ready = groups[(arrived > 0) & (arrived >= self.live_per_group[groups])]
        if ready.size == 0:
            return
        self.arrived_per_group[ready] = 0
        is_ready = np.zeros(self.arrived_per_group.size, np.bool_)
        is_ready[ready] = True
        waiting = self.at_barrier & is_ready[self.state.wave_group]
        indices = np.flatnonzero(waiting)
        self.at_barrier[indices] = False
        self.parked -= indices.size
        self._add_many(self.resume_pc[indices], indices)

    def _fetch_error(self, sel, pc, error):
        """A decode/fetch failure, reported with the first wave that reached it."""
        wave = int(_indices(sel)[0])
        state = self.state
        return KernelError(error.cause, kernel=self.request.kernel_name,
                           workgroup=tuple(int(v) for v in state.workgroup_id[wave]),
                           wave=int(state.wave_number[wave]), pc=pc, address=error.address)

    def _watchdog(self, ctx, cause):
        error = ctx.fault(cause, error=WatchdogTimeout)
        return error


def block_tier(program, request, tracer):
    """The program's compiled-block tier, or None where blocks must not run
    natively: compilation off, or a tracer/profiler/hazard checker that
    must see every instruction."""
    if tracer.active or request.checker is not None:
        return None
    tier = getattr(program, "block_tier", None)
    if tier is None:
        mode = compiled.resolve_mode(getattr(request, "compile", None))
        tier = program.block_tier = compiled.BlockTier(program, mode) \
            if mode != "off" else False
    return tier or None


__all__ = ["run_dispatch", "Scheduler"]

"""Hazard checking while kernels run: each wave's real instruction stream is
judged by the same rules as the static checker (``analysis.hazards``).

The executor runs instructions in order, so every result it computes is the
one a kernel without hazards would get; the monitor only watches. Before each
instruction a group of waves executes, it checks the instruction against each
wave's outstanding memory operations (``analysis.waitcnt``) and recent
instructions (``analysis.wait_states``), then counts the instruction in.

Waves that have run the same instructions share one state, so a group of
waves at one PC costs one check; when some waves of a shared state go another
way, they get a copy (copy on write). A report names the kernel, the first
wave that hit it and how many wave-executions did; reports are deduplicated by
rule, PCs and registers.

Unlike the static checker the monitor follows calls into their callees and
back (the callee's own waits and instructions count), and knows nothing of
paths a wave did not take.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ..errors import KernelError
from ..isa.effects import effects_of
from . import wait_states
from .race_monitor import RaceMonitor
from .hazards import Hazard, step_counters, wait_state_hazard, waitcnt_hazards
from .waitcnt import Counters


class HazardError(KernelError):
    """The first hazard of a dispatch checked with ``stop_at_first``: the kernel
    stops there, as it would on a fault."""

    def __init__(self, hazard):
        super().__init__(f"hazard: {hazard.describe()}")
        self.hazard = hazard


class _WaveCheck:
    """What the rules need to know of one wave (or of waves with one history):
    its counters, its wait-state clock (wait states issued so far) and its last
    instructions as ``(clock after it, pc, instruction, effects)``."""

    __slots__ = ("counters", "clock", "history")

    def __init__(self, counters, history, clock=0):
        self.counters = counters
        self.history = history
        self.clock = clock

    def copy(self):
        return _WaveCheck(self.counters.copy(), deque(self.history, self.history.maxlen),
                          self.clock)


class HazardMonitor:
    """Watches the waves of one dispatch (one kernel) instruction by instruction."""

    def __init__(self, kernel_name, generation, entry=0, stop_at_first=False):
        self.function = f"kernel {kernel_name}"
        #: PCs are reported relative to the kernel's entry, as a disassembly of it shows them
        self.entry = entry
        self.generation = generation
        self.stop_at_first = stop_at_first
        self.rules = wait_states.RuleIndex(wait_states.rules_for(generation))
        self.limit = self.rules.longest
        self.reports: dict = {}
        self._effects: dict = {}
        self._batch = None
        self._all = 0
        self._slot_of_wave = None
        self._slots: list = []
        self._members: list = []

    @property
    def hazards(self) -> list[Hazard]:
        """The reports so far, in PC order."""
        return sorted(self.reports.values(), key=lambda h: (h.pc, h.rule, h.source_pc))

    # --- the executor's hook ---------------------------------------------------------
    def before(self, ctx):
        """Check the instruction ``ctx.record`` the waves of ``ctx`` are about to run."""
        state = ctx.state
        if state is not self._batch:
            self._new_batch(state)
        record = ctx.record
        inst = record.inst
        effects = self._effects.get(id(inst))
        if effects is None:
            if getattr(inst, "info", None) is None:
                return
            effects = self._effects[id(inst)] = effects_of(inst)
        if ctx.n == self._all and len(self._slots) == 1:      # every wave, one history
            self._step(self._slots[0], record.pc - self.entry, inst, effects,
                       int(state.wave_number[0]), ctx.n)
            return
        waves = ctx.waves()
        slots = self._slot_of_wave[waves]
        first = int(slots[0])
        if (slots == first).all():
            groups = [(first, waves)]
        else:
            groups = [(int(slot), waves[slots == slot]) for slot in np.unique(slots)]
        for slot, members in groups:
            slot = self._own(slot, members)
            self._step(self._slots[slot], record.pc - self.entry, inst, effects,
                       int(state.wave_number[members[0]]), len(members))

    def _new_batch(self, state):
        self._batch = state
        self._slot_of_wave = np.zeros(state.num_waves, dtype=np.int64)
        self._slots = [_WaveCheck(Counters(self.generation), deque(maxlen=max(self.limit, 1)))]
        self._members = [state.num_waves]
        self._all = state.num_waves

    def _own(self, slot, members):
        """The slot of ``members`` alone: a copy when other waves share theirs."""
        if self._members[slot] == len(members):
            return slot
        self._members[slot] -= len(members)
        self._slots.append(self._slots[slot].copy())
        self._members.append(len(members))
        new = len(self._slots) - 1
        self._slot_of_wave[members] = new
        return new

    def _step(self, check, pc, inst, effects, wave, count):
        found = []
        step_counters(check.counters, pc, inst, effects, lambda *report: found.append(report),
                      drain_on_call=False)
        if found:
            for hazard in waitcnt_hazards(self.function, pc, inst, found, self.generation, wave):
                self._add(hazard, count)
        if not self.limit:
            return
        clock = check.clock
        if self.rules.consumed(inst, effects):
            for end, source_pc, source, source_effects in reversed(check.history):
                passed = clock - end
                if passed >= self.limit:
                    break
                for rule, touched in self.rules.pair(source, source_effects, inst, effects):
                    if passed < rule.states:
                        self._add(wait_state_hazard(rule, self.function, pc, inst, source_pc,
                                                    source, passed, touched, self.generation,
                                                    wave=wave), count)
        check.clock = clock + wait_states.wait_states(inst)
        check.history.append((check.clock, pc, inst, effects))

    def _add(self, hazard, count):
        key = hazard.key()
        known = self.reports.get(key)
        if known is None:
            self.reports[key] = hazard if count == 1 else hazard.counted(count)
            if self.stop_at_first:
                raise HazardError(hazard)
        else:
            self.reports[key] = known.counted(known.count + count)




class DispatchChecker:
    """Everything checked while one dispatch runs: each wave's waits and wait
    states (``HazardMonitor``) and the data races between its waves and
    work-groups (``analysis.race_monitor``). The executor calls ``before(ctx)``
    before each instruction and ``memory(ctx, piece, write, atomic)`` for each
    access; ``finish()`` gives every report once the dispatch is over."""

    def __init__(self, kernel_name, generation, entry=0, private=None, stop_at_first=False):
        self.hazards = HazardMonitor(kernel_name, generation, entry, stop_at_first)
        self.races = RaceMonitor(kernel_name, entry, private)

    def before(self, ctx):
        self.hazards.before(ctx)
        if ctx.record.inst.op == "s_barrier":
            self.races.barrier(ctx)

    def memory(self, ctx, piece, write, atomic):
        self.races.access(ctx, piece, write, atomic, lds=_is_lds(ctx, piece))

    def finish(self) -> list[Hazard]:
        return self.hazards.hazards + self.races.races()


def _is_lds(ctx, piece):
    """Whether ``piece`` goes to the batch's LDS (``WaveState.lds_view``: the
    array and the backend made of it)."""
    view = ctx.state.lds_view
    return view is not None and piece.backend is view[1]

"""The wait counters of one wave: which memory operations are still in flight
and which registers they will still write (or still read), as the GCN ISA
manuals define VM_CNT, LGKM_CNT and EXP_CNT.

``Counters`` is the state; ``issue`` adds an instruction's operations,
``wait`` applies an ``s_waitcnt``, ``join`` merges the states of two paths
(the static checker's control-flow merge: the worst of both). The same state
serves the static checker (over the control-flow graph) and the dynamic one
(per wave while kernels run).

The model, per counter:

* an operation is counted from issue until its data has returned (loads,
  atomics with return: the registers in ``Effects.returns``) or, for EXP_CNT,
  until its data has been read out of the VGPRs (exports, and on GFX6 vector
  memory stores: ``Effects.store_data``);
* within a counter operations complete in issue order, so ``s_waitcnt
  vmcnt(N)`` guarantees every operation but the newest N; except where the
  manuals say they may not: scalar memory operations return out of order, so
  while one is outstanding on LGKM_CNT only a wait for 0 guarantees anything
  there. A FLAT access is counted by both VM_CNT and LGKM_CNT and is done once
  either wait covers it; it is taken to complete in order with the other
  vector memory operations, as it does when it reaches global memory (the
  assumption LLVM makes for flat pointers it knows are not LDS). A FLAT access
  that really reaches LDS may complete out of that order; after a wait for a
  count above 0 the model can then miss a hazard, never report a false one;
* a counter never holds more operations than its field can count (the
  hardware stalls issue instead), so the older ones are complete.

State is kept relative to the newest operation: a register's *distance* is
how many operations of its counter were issued after the one that will write
it, so that states of different paths compare and merge directly and a loop's
state reaches a fixed point.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..isa.effects import EXP_CNT, LGKM_CNT, SMEM_ENCODINGS, VM_CNT
from ..isa.spelling import waitcnt_decode, waitcnt_max

COUNTERS = (VM_CNT, LGKM_CNT, EXP_CNT)
_FIELD = {VM_CNT: "vmcnt", LGKM_CNT: "lgkmcnt", EXP_CNT: "expcnt"}


@dataclass(frozen=True)
class Pending:
    """An operation still in flight that will write (or still reads) a register:
    ``distance`` operations of its counter were issued after it; ``pc`` and
    ``text`` name the instruction that issued it."""

    distance: int
    pc: int
    text: str
    #: counted by VM_CNT and LGKM_CNT both (FLAT): done once either counter says so
    both: bool = False


@dataclass
class CounterState:
    """One counter: ``outstanding`` operations at most; ``registers`` the pending
    writes (or, for EXP_CNT, reads) by register; ``unordered`` when an operation
    that may complete out of order is outstanding."""

    outstanding: int = 0
    registers: dict = field(default_factory=dict)
    unordered: bool = False
    #: the newest operation while any is outstanding (stores too: they own no register)
    newest: Pending | None = None

    def copy(self):
        return CounterState(self.outstanding, dict(self.registers), self.unordered, self.newest)

    def __eq__(self, other):
        return (self.outstanding == other.outstanding and self.unordered == other.unordered
                and self.registers == other.registers and self.newest == other.newest)


class Counters:
    """The three counters of one wave (``generation`` sets the field widths)."""

    __slots__ = ("generation", "limits", "state")

    def __init__(self, generation, state=None):
        self.generation = generation
        limits = waitcnt_max(generation)
        self.limits = {counter: limits[_FIELD[counter]] for counter in COUNTERS}
        self.state = state or {counter: CounterState() for counter in COUNTERS}

    def copy(self):
        return Counters(self.generation, {c: s.copy() for c, s in self.state.items()})

    def __eq__(self, other):
        return self.state == other.state

    # --- queries ---------------------------------------------------------------------
    def any_pending(self):
        """Whether any outstanding operation still writes or reads a register."""
        state = self.state
        return bool(state[VM_CNT].registers or state[LGKM_CNT].registers
                    or state[EXP_CNT].registers)

    def pending_write(self, register):
        """``(counter, Pending)`` of an outstanding operation that will write
        ``register``, or None."""
        vm = self.state[VM_CNT].registers.get(register)
        lgkm = self.state[LGKM_CNT].registers.get(register)
        if vm is not None and not vm.both:
            return VM_CNT, vm
        if lgkm is not None and not lgkm.both:
            return LGKM_CNT, lgkm
        if vm is not None and lgkm is not None:     # a FLAT load neither wait covers yet
            return VM_CNT, vm
        return None

    def in_flight(self):
        """``(counter, Pending)`` of the newest operation still outstanding on any
        counter, or None: an ``s_barrier`` needs none (the GCN manuals' rule
        for data other waves read after it; LLVM waits for all before one)."""
        for counter in COUNTERS:
            state = self.state[counter]
            if state.outstanding and state.newest is not None:
                return counter, state.newest
        return None

    def pending_read(self, register):
        """The outstanding EXP_CNT operation that still reads ``register``, or None."""
        return self.state[EXP_CNT].registers.get(register)

    def needed_wait(self, counter, pending):
        """The largest count of ``counter`` whose wait covers ``pending``."""
        if self.state[counter].unordered:
            return 0
        return pending.distance

    # --- transitions -----------------------------------------------------------------
    def issue(self, effects, pc, inst):
        """Count the memory operations of ``inst`` (with ``effects``), issued at ``pc``;
        scalar memory operations may complete out of issue order."""
        if not effects.counters:
            return
        text = inst.text()
        unordered = inst.encoding in SMEM_ENCODINGS
        both = VM_CNT in effects.counters and LGKM_CNT in effects.counters
        for counter in effects.counters:
            state = self.state[counter]
            limit = self.limits[counter]
            state.outstanding = min(state.outstanding + 1, limit)
            state.newest = Pending(0, pc, text, both)
            state.registers = {r: Pending(p.distance + 1, p.pc, p.text, p.both)
                               for r, p in state.registers.items() if p.distance + 1 < limit}
            if unordered:
                state.unordered = True
            tracked = effects.store_data if counter == EXP_CNT else effects.returns
            for register in tracked:
                state.registers[register] = Pending(0, pc, text, both)

    def wait(self, simm16):
        """Apply ``s_waitcnt simm16``."""
        counts = waitcnt_decode(simm16, self.generation)
        for counter in COUNTERS:
            count = counts[_FIELD[counter]]
            if count >= self.limits[counter]:
                continue
            self.wait_for(counter, count)

    def wait_for(self, counter, count):
        """Wait until at most ``count`` operations of ``counter`` are outstanding."""
        state = self.state[counter]
        if state.unordered and count > 0:
            state.outstanding = min(state.outstanding, count)
            return                      # nothing in particular is known to be done
        state.outstanding = min(state.outstanding, count)
        state.registers = {r: p for r, p in state.registers.items() if p.distance < count}
        if count == 0:
            state.unordered = False
            state.newest = None

    def any_outstanding(self):
        """Whether any operation is outstanding on any counter."""
        return any(state.outstanding for state in self.state.values())

    def assign(self, other):
        """Become a copy of ``other`` (what a callee leaves outstanding)."""
        self.state = {counter: state.copy() for counter, state in other.state.items()}

    def drain(self):
        """Every operation complete (after a call returns, at a function's entry)."""
        for counter in COUNTERS:
            self.state[counter] = CounterState()

    def join(self, other):
        """The worst of two paths' states: more outstanding, every pending register
        at its nearest distance."""
        merged = {}
        for counter in COUNTERS:
            a, b = self.state[counter], other.state[counter]
            registers = dict(a.registers)
            for register, pending in b.registers.items():
                mine = registers.get(register)
                if mine is None or pending.distance < mine.distance or (
                        pending.distance == mine.distance and pending.pc < mine.pc):
                    registers[register] = pending
            newest = a.newest if b.newest is None or (
                a.newest is not None and a.newest.pc <= b.newest.pc) else b.newest
            merged[counter] = CounterState(max(a.outstanding, b.outstanding), registers,
                                           a.unordered or b.unordered,
                                           newest if max(a.outstanding, b.outstanding) else None)
        return Counters(self.generation, merged)

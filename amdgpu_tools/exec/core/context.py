"""What a semantic function sees when a group of waves executes one instruction.

A ``Context`` is rebuilt for every step: ``state`` (the batch's WaveState),
``sel`` (the waves: a ``slice`` when they are contiguous, else a sorted int64
index array; use it to index axis "W" of every state array), ``n`` (how many
waves), ``record`` (the pre-decoded instruction: ``pc``, ``size``, ``inst``,
``text``) and lazily the EXEC lanes.

Semantic functions return an *outcome* telling the scheduler where the waves
go next: ``None`` (fall through to pc + size), ``Branch(taken, target)``
(taken: (n,) bool or a Python bool), ``Jump(pcs)`` ((n,) int64 new PCs),
``END`` (s_endpgm), ``BARRIER`` (s_barrier: park until the work-group
arrives) or ``Retry(blocked)`` (the blocked waves have not executed the
instruction and try it again after every other group has had a turn; the
others go on to pc + size).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import KernelError


class Branch:
    """Go to ``target`` where ``taken`` ((n,) bool array or a Python bool).

    A plain slotted class, not a dataclass: one is made at every taken
    branch, and the frozen dataclass constructor costs several times more."""

    __slots__ = ("taken", "target")

    def __init__(self, taken, target):
        self.taken = taken
        self.target = target

    def __repr__(self):
        return f"Branch(taken={self.taken!r}, target={self.target!r})"


@dataclass(frozen=True)
class Jump:
    pcs: np.ndarray          # (n,) int64


@dataclass(frozen=True)
class Retry:
    """Waves that must wait for other waves (GWS, ordered count, ...).

    ``blocked`` is an (n,) bool array or a Python bool: those waves did not
    execute the instruction (no state changed for them) and run it again
    once every other group of the batch has had a turn. When every live
    wave is blocked and none can make progress, the dispatch ends with a
    deadlock error naming the instruction.
    """
    blocked: object          # (n,) bool array or bool


class _Marker:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


END = _Marker("END")
BARRIER = _Marker("BARRIER")


class Context:
    """One instruction executed by a group of waves at the same PC."""

    __slots__ = ("state", "sel", "n", "record", "_exec", "all_active")

    def __init__(self, state, sel, n, record):
        self.state = state
        self.sel = sel
        self.n = n
        self.record = record
        self._exec = None
        self.all_active = None

    @property
    def inst(self):
        """The decoded ``amdgpu_tools.isa`` Instruction."""
        return self.record.inst

    @property
    def fields(self):
        return self.record.inst.fields

    def exec_lanes(self) -> np.ndarray:
        """EXEC of the group as (n, 64) bool (computed once per step)."""
        if self._exec is None:
            self._exec = self.state.exec_lanes(self.sel)
        return self._exec

    def exec_changed(self):
        """Forget the cached EXEC lanes after an instruction rewrote EXEC."""
        self._exec = None
        self.all_active = None

    def every_lane_active(self) -> bool:
        """True when EXEC is all ones in every wave of the group (cheap check)."""
        if self.all_active is None:
            sgpr, sel = self.state.sgpr, self.sel
            if self.n == 1 and type(sel) is slice:
                wave = sel.start
                self.all_active = bool(sgpr[126, wave] == 0xFFFFFFFF and
                                       sgpr[127, wave] == 0xFFFFFFFF)
            else:
                self.all_active = bool(np.bitwise_and(sgpr[126, sel], sgpr[127, sel]).min()
                                       == 0xFFFFFFFF)
        return self.all_active

    def active_lane_count(self) -> int:
        if self.every_lane_active():
            return self.n * 64
        return int(np.count_nonzero(self.exec_lanes()))

    def write_lanes(self):
        """EXEC lanes for a masked write, or None when every lane is on."""
        if self.every_lane_active():
            return None
        return self.exec_lanes()

    def waves(self) -> np.ndarray:
        """Batch-local indices of the waves in the group as an int64 array."""
        if isinstance(self.sel, slice):
            return np.arange(self.sel.start, self.sel.stop, dtype=np.int64)
        return self.sel

    def fault(self, cause, *, address=None, wave_index=0, error=KernelError):
        """A KernelError naming the kernel, work-group, wave, PC and instruction.

        ``wave_index`` is the position within the group of the offending wave.
        """
        state = self.state
        wave = int(self.waves()[wave_index])
        request = state.request
        return error(cause, kernel=getattr(request, "kernel_name", None),
                     workgroup=tuple(int(v) for v in state.workgroup_id[wave]),
                     wave=int(state.wave_number[wave]), pc=self.record.pc,
                     instruction=self.record.text, address=address)

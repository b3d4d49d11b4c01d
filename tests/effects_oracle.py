"""The executor as an oracle for ``isa.effects``: while kernels run, every
register an instruction changes must be one its effects say it writes.

``EffectsOracle`` replaces the dispatch's tracer (it keeps tracing and
profiling working) and snapshots the registers of the running waves around
each instruction. Installed for a whole pytest run by
``AMDGPU_TOOLS_CHECK_EFFECTS=1`` (tests/conftest.py), or for one block by
``checking_effects()``.
"""

from __future__ import annotations

import contextlib

import numpy as np

from amdgpu_tools.exec.core import dispatch
from amdgpu_tools.exec.core.trace import Tracer
from amdgpu_tools.isa.effects import SCC, VGPR_BASE, effects_of, register_name

#: every violation seen since the last ``checking_effects`` began
VIOLATIONS: list[str] = []
#: instructions checked (by op name)
CHECKED: dict[str, int] = {}


class EffectsOracle(Tracer):
    """A tracer that also compares each instruction's register changes with its effects."""

    def __init__(self, options, checker=None):
        super().__init__(options, checker)
        self.real_active = self.active
        self.active = True
        self._before = None
        self._effects = {}

    def before(self, ctx):
        if self.real_active:
            super().before(ctx)
        waves = ctx.waves()
        state = ctx.state
        self._before = (waves, state.sgpr[:, waves].copy(), state.scc[waves].copy(),
                        state.vgpr[:, waves].copy())

    def after(self, ctx):
        if self.real_active:
            super().after(ctx)
        waves, sgpr, scc, vgpr = self._before
        state = ctx.state
        changed = set(int(code) for code in np.flatnonzero(
            (state.sgpr[:, waves] != sgpr).any(axis=1)))
        if (state.scc[waves] != scc).any():
            changed.add(SCC)
        changed.update(VGPR_BASE + int(reg) for reg in np.flatnonzero(
            (state.vgpr[:, waves] != vgpr).any(axis=(1, 2))))
        inst = ctx.record.inst
        key = id(inst)
        effects = self._effects.get(key)
        if effects is None:
            effects = self._effects[key] = effects_of(inst)
        CHECKED[inst.op] = CHECKED.get(inst.op, 0) + 1
        unexpected = changed - effects.all_writes
        if effects.indexed:        # the register moved is the operand plus M0
            unexpected = {r for r in unexpected if (r >= VGPR_BASE) != _moves_vgprs(inst)}
        if unexpected:
            generation = inst.target.generation
            names = " ".join(register_name(r, generation) for r in sorted(unexpected))
            VIOLATIONS.append(f"pc 0x{ctx.record.pc:x} '{inst.text()}' changed {names}")


def _moves_vgprs(inst):
    return inst.op.startswith("v_")


@contextlib.contextmanager
def checking_effects(monkeypatch=None):
    """Run the block with every dispatch checked; yields the violation list."""
    VIOLATIONS.clear()
    original = dispatch.Tracer
    dispatch.Tracer = EffectsOracle
    try:
        yield VIOLATIONS
    finally:
        dispatch.Tracer = original

"""Instruction trace and per-PC profile of a dispatch (``DispatchRequest.trace``).

A traced wave gets one line per executed instruction: wave number, PC,
instruction text, then every register it changed (SGPRs by name, SCC, and
VGPRs with the lanes that changed), so a kernel can be followed step by step.
"""

from __future__ import annotations

import numpy as np

_SPECIAL_NAMES = {102: "flat_scratch_lo", 103: "flat_scratch_hi", 104: "xnack_mask_lo",
                  105: "xnack_mask_hi", 106: "vcc_lo", 107: "vcc_hi", 124: "m0",
                  126: "exec_lo", 127: "exec_hi"}
#: Lanes shown per changed VGPR before the line is shortened.
MAX_LANES_SHOWN = 4


def sgpr_name(code):
    if code <= 101:
        return f"s{code}"
    if 112 <= code <= 123:
        return f"ttmp{code - 112}"
    return _SPECIAL_NAMES.get(code, f"sreg{code}")


class Tracer:
    """Collects the profile and writes trace lines for the chosen waves."""

    def __init__(self, options, checker=None):
        self.options = options
        #: the request's hazard checker: told of every instruction before it runs
        self.checker = checker
        self.profile = {}
        #: PC -> EXEC lanes active when it ran, summed over the waves (profiling only)
        self.lane_profile = {}
        self.waves = None if options is None or options.waves is None else \
            np.asarray(sorted(options.waves), dtype=np.int64)
        self.sink = (getattr(options, "sink", None) or print) if options else None
        self.tracing = options is not None and (options.waves is None or len(options.waves) > 0)
        self.profiling = bool(options is not None and options.profile)
        self.active = self.tracing or self.profiling or checker is not None
        self._snapshot = None

    def _traced(self, ctx):
        numbers = ctx.state.wave_number[ctx.sel]
        if self.waves is None:
            return ctx.waves()
        return ctx.waves()[np.isin(numbers, self.waves)]

    def before(self, ctx):
        if self.checker is not None:
            self.checker.before(ctx)
        if self.profiling:
            pc = ctx.record.pc
            self.profile[pc] = self.profile.get(pc, 0) + ctx.n
            self.lane_profile[pc] = self.lane_profile.get(pc, 0) + ctx.active_lane_count()
        if not self.tracing:
            return
        waves = self._traced(ctx)
        state = ctx.state
        self._snapshot = (waves, state.sgpr[:, waves].copy(), state.scc[waves].copy(),
                          state.vgpr[:, waves].copy())

    def after(self, ctx):
        if not self.tracing or self._snapshot is None:
            return
        waves, sgpr, scc, vgpr = self._snapshot
        self._snapshot = None
        state = ctx.state
        for column, wave in enumerate(waves):
            changes = self._changes(state, wave, sgpr[:, column], bool(scc[column]),
                                    vgpr[:, column])
            number = int(state.wave_number[wave])
            text = f"wave {number} pc 0x{ctx.record.pc:x}: {ctx.record.text}"
            self.sink(text + ("  | " + ", ".join(changes) if changes else ""))

    @staticmethod
    def _changes(state, wave, old_sgpr, old_scc, old_vgpr):
        changes = []
        new_sgpr = state.sgpr[:, wave]
        for code in np.flatnonzero(new_sgpr != old_sgpr):
            changes.append(f"{sgpr_name(int(code))}=0x{int(new_sgpr[code]):08x}")
        if bool(state.scc[wave]) != old_scc:
            changes.append(f"scc={int(state.scc[wave])}")
        new_vgpr = state.vgpr[:, wave]
        for reg in np.flatnonzero((new_vgpr != old_vgpr).any(axis=1)):
            lanes = np.flatnonzero(new_vgpr[reg] != old_vgpr[reg])
            shown = ", ".join(f"[{lane}]=0x{int(new_vgpr[reg, lane]):08x}"
                              for lane in lanes[:MAX_LANES_SHOWN])
            hidden = lanes.size - MAX_LANES_SHOWN
            more = f" (+{hidden} lanes)" if hidden > 0 else ""
            changes.append(f"v{int(reg)}{{{shown}{more}}}")
        return changes

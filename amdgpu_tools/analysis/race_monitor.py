"""Data races found while a dispatch runs.

Two kinds, as GCN's memory model has them for one dispatch:

* ``lds-race``: two waves of one work-group touch the same LDS bytes, at least
  one writing, with no ``s_barrier`` between them. A wave's *epoch* is the
  number of barriers it has passed; every wave of the group passes barrier k
  before any passes k+1, so accesses of different epochs are ordered and only
  accesses of one epoch by different waves can race.
* ``global-race``: two work-groups touch the same global bytes, at least one
  writing, neither access atomic (work-groups of a dispatch have no order:
  only atomics make such sharing safe; data guarded by a lock built from
  atomics is reported too, as the issue's rule says).

Atomic accesses are never reported against each other. Scratch (private)
memory is per lane and never shared. The monitor records every access as
byte addresses with the wave, work-group, epoch and PC (NumPy arrays, one
append per memory instruction) and finds the races once, when the dispatch
ends, by sorting them by address.
"""

from __future__ import annotations

import numpy as np

from .hazards import Hazard

#: LDS offsets are keyed below this per work-group (LDS is at most 64 KiB)
_LDS_SPAN = 1 << 16
#: epochs are keyed below this per LDS byte
_EPOCHS = 1 << 12
#: most distinct races reported per kind (the rest are counted)
MAX_REPORTS = 50


class RaceMonitor:
    """Collects one dispatch's LDS and global accesses; ``races()`` judges them."""

    def __init__(self, kernel_name, entry=0, private=None):
        self.function = f"kernel {kernel_name}"
        self.entry = entry
        #: ``private(address) -> bool``: scratch addresses, never shared
        self.private = private
        self._global: list = []
        self._lds: list = []
        self._texts: dict = {}
        self._batch = None               # the WaveState of the batch being recorded
        self._epoch = None               # barriers each wave of the batch has passed
        self._batches = -1               # batches seen (LDS keys: batch, group slot)

    # --- what the executor reports --------------------------------------------------
    def _follow(self, state):
        if state is not self._batch:
            self._batch = state
            self._epoch = np.zeros(state.num_waves, np.int64)
            self._groups = int(state.wave_group.max()) + 1 if state.num_waves else 1
            self._batches += 1

    def barrier(self, ctx):
        """The waves of ``ctx`` pass an ``s_barrier``."""
        self._follow(ctx.state)
        self._epoch[ctx.waves()] += 1

    def access(self, ctx, piece, write, atomic, lds):
        """One memory instruction's ``piece`` (``exec.semantics.memory.Piece``) of the
        waves in ``ctx``: ``write``/``atomic`` as the instruction does, ``lds`` when
        the backend is the group's LDS."""
        if not piece.lanes.any():
            return
        state = ctx.state
        self._follow(state)
        rows = np.nonzero(piece.lanes)[0]                 # group-relative wave per lane
        waves = ctx.waves()[rows]
        valid = piece.valid
        chunks = piece.addresses.shape[1]
        addresses = piece.addresses.astype(np.int64)
        spread = np.arange(piece.chunk_bytes, dtype=np.int64)
        byte_addresses = (addresses[..., None] + spread)[valid]          # (m, chunk_bytes)
        owner = np.repeat(waves, chunks).reshape(-1, chunks)[valid]
        number = state.wave_number[owner]
        pc = ctx.record.pc - self.entry
        self._texts[pc] = ctx.record.text
        count = byte_addresses.shape[1]
        flat = byte_addresses.reshape(-1)
        if lds:
            size = state.lds.shape[1]
            slot = self._batches * self._groups + state.wave_group[owner]
            flat = np.repeat(slot, count) * _LDS_SPAN + flat % size
            self._lds.append((flat, np.repeat(number, count),
                              np.repeat(self._epoch[owner], count), write, atomic, pc))
        else:
            if self.private is not None and flat.size and self.private(int(flat[0])):
                return
            group = _group_key(state.workgroup_id[owner])
            self._global.append((flat, np.repeat(group, count), np.repeat(number, count),
                                 write, atomic, pc))

    # --- judging ---------------------------------------------------------------------
    def races(self) -> list[Hazard]:
        """Every race found, deduplicated by the two PCs (with a count of bytes)."""
        return self._lds_races() + self._global_races()

    def _lds_races(self):
        parts = [p for p in self._lds if not p[4]]
        if not parts:
            return []
        address = np.concatenate([p[0] for p in parts])
        wave = np.concatenate([p[1] for p in parts])
        epoch = np.concatenate([p[2] for p in parts])
        write = np.concatenate([np.full(p[0].size, p[3]) for p in parts])
        pc = np.concatenate([np.full(p[0].size, p[5]) for p in parts])
        # one key per (LDS byte of a group, epoch): more than one wave and a write race
        key = address * _EPOCHS + epoch % _EPOCHS
        return self._conflicts("lds-race", key, wave, write, pc, wave,
                               "no s_barrier between them", lds=True)

    def _global_races(self):
        parts = [p for p in self._global if not p[4]]
        if not parts:
            return []
        address = np.concatenate([p[0] for p in parts])
        group = np.concatenate([p[1] for p in parts])
        wave = np.concatenate([p[2] for p in parts])
        write = np.concatenate([np.full(p[0].size, p[3]) for p in parts])
        pc = np.concatenate([np.full(p[0].size, p[5]) for p in parts])
        return self._conflicts("global-race", address, group, write, pc, wave,
                               "different work-groups, neither access atomic")

    def _conflicts(self, rule, key, actor, write, pc, wave, why, lds=False):
        order = np.lexsort((~write, key))
        key, actor, write, pc, wave = key[order], actor[order], write[order], pc[order], \
            wave[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        low = np.minimum.reduceat(actor, starts)
        high = np.maximum.reduceat(actor, starts)
        written = np.logical_or.reduceat(write, starts)
        racing = np.flatnonzero((low != high) & written)
        found: dict = {}
        for index in racing.tolist():
            start = starts[index]
            end = starts[index + 1] if index + 1 < starts.size else key.size
            first = start                                   # a write (writes sort first)
            other = start + int(np.flatnonzero(actor[start:end] != actor[first])[0])
            pair = (int(pc[first]), int(pc[other]))
            if pair in found:
                found[pair][1] += 1
                continue
            if len(found) >= MAX_REPORTS:
                continue
            address = int(key[start] // _EPOCHS % _LDS_SPAN) if lds else int(key[start])
            found[pair] = [(address, int(wave[first]), int(wave[other]), bool(write[other])),
                           1]
        return [self._hazard(rule, pair, info, count, why, lds)
                for pair, (info, count) in found.items()]

    def _hazard(self, rule, pair, info, count, why, lds):
        (pc, other_pc), (address, wave, other_wave, other_writes) = pair, info
        space = "LDS" if lds else "global"
        verb = "writes" if other_writes else "reads"
        return Hazard(rule, self.function, other_pc, self._texts.get(other_pc, "?"), pc,
                      self._texts.get(pc, "?"),
                      f"{space} 0x{address:x}",
                      f"wave {other_wave} {verb} what wave {wave} writes; {why}",
                      wave=other_wave, count=count)


def _group_key(ids):
    """One integer per work-group id (x, y, z)."""
    ids = np.asarray(ids, np.int64)
    return ids[..., 0] + (ids[..., 1] << 21) + (ids[..., 2] << 42)

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
  atomics is reported too, as that rule says).

Atomic accesses are never reported. Scratch (private) memory is per lane and
never shared.

LDS is watched through a shadow of each batch's LDS (``analysis.lds_shadow``):
the last wave that wrote each byte and the last two different waves that read
it, in which epoch and at which PC, checked and updated at every access.
Global accesses are kept as the instructions' address arrays and judged when
the dispatch ends: arrays whose address ranges overlap no other array's (and
whose own addresses never repeat) cannot race, so only the rest are expanded
to bytes and compared.
"""

from __future__ import annotations

import numpy as np

from .hazards import Hazard
from .lds_shadow import WAVE, LdsShadow

#: most distinct races reported per dispatch (the rest are counted)
MAX_REPORTS = 50


class RaceMonitor:
    """Watches one dispatch's LDS and global accesses; ``races()`` gives the reports."""

    def __init__(self, kernel_name, entry=0, private=None):
        self.function = f"kernel {kernel_name}"
        self.entry = entry
        #: ``private(address) -> bool``: scratch addresses, never shared
        self.private = private
        self._global: list = []
        self._texts: dict = {}
        self._found: dict = {}             # (rule, pc, other pc) -> [Hazard, count]
        self._batch = None
        self._epoch = None
        self._shadow = None

    # --- what the executor reports --------------------------------------------------
    def _follow(self, state):
        if state is not self._batch:
            self._batch = state
            self._epoch = np.zeros(state.num_waves, np.int64)
            self._shadow = None

    def barrier(self, ctx):
        """The waves of ``ctx`` pass an ``s_barrier``."""
        self._follow(ctx.state)
        self._epoch[ctx.waves()] += 1

    def access(self, ctx, piece, write, atomic, lds):
        """One memory instruction's ``piece`` (``exec.semantics.memory.Piece``) of
        the waves in ``ctx``: ``write``/``atomic`` as the instruction does, ``lds``
        when the backend is the group's LDS."""
        if atomic or not piece.lanes.any():
            return
        state = ctx.state
        self._follow(state)
        rows = np.nonzero(piece.lanes)[0]                 # group-relative wave per lane
        chunks = piece.addresses.shape[1]
        owner = np.repeat(ctx.waves()[rows], chunks).reshape(-1, chunks)[piece.valid]
        addresses = piece.addresses[piece.valid].astype(np.int64)
        if not addresses.size:
            return
        pc = ctx.record.pc - self.entry
        self._texts[pc] = ctx.record.text
        if lds:
            self._lds_access(state, addresses, piece.chunk_bytes, owner, write, pc)
        elif self.private is None or not self.private(int(addresses[0])):
            groups = _group_key(state.workgroup_id[owner])
            self._global.append((addresses, piece.chunk_bytes, groups,
                                 state.wave_number[owner], write, pc))

    # --- LDS: the shadow -------------------------------------------------------------
    def _lds_access(self, state, addresses, chunk_bytes, owner, write, pc):
        if self._shadow is None:
            self._shadow = LdsShadow(state.lds.size)
        key = (self._epoch[owner] << 32) | owner
        size = state.lds.shape[1]
        for found in self._shadow.access(addresses, chunk_bytes, key, write, pc):
            self._report("lds-race", found.source_pc, found.source_writes,
                         int(state.wave_number[found.source_key & WAVE]), pc, write,
                         int(state.wave_number[found.key & WAVE]),
                         f"LDS 0x{found.byte % size:x}", found.count,
                         "no s_barrier between them")

    # --- global: judged at the end ---------------------------------------------------
    def _global_races(self):
        records = self._global
        if not any(record[4] for record in records):
            return
        spans = [(int(a.min()), int(a.max()) + size, i) for i, (a, size, *_rest)
                 in enumerate(records)]
        suspects = set()
        for i, record in enumerate(records):
            if record[4] and not _distinct(record[0], record[1]):
                suspects.add(i)
        spans.sort()
        for i, (start, end, a) in enumerate(spans):      # overlapping ranges, a write among them
            for later in spans[i + 1:]:
                if later[0] >= end:
                    break
                if records[a][4] or records[later[2]][4]:
                    suspects.update((a, later[2]))
        if suspects:
            self._compare([records[i] for i in sorted(suspects)])

    def _compare(self, records):
        """Byte by byte: bytes two work-groups touch, one of them writing."""
        byte, group, wave, write, pc = [], [], [], [], []
        for addresses, size, groups, numbers, writes, at in records:
            spread = (addresses[:, None] + np.arange(size, dtype=np.int64)).reshape(-1)
            byte.append(spread)
            group.append(np.repeat(groups, size))
            wave.append(np.repeat(numbers, size))
            write.append(np.full(spread.size, writes))
            pc.append(np.full(spread.size, at))
        byte, group, wave = np.concatenate(byte), np.concatenate(group), np.concatenate(wave)
        write, pc = np.concatenate(write), np.concatenate(pc)
        order = np.lexsort((~write, byte))                # writes first within a byte
        byte, group, wave, write, pc = (x[order] for x in (byte, group, wave, write, pc))
        starts = np.flatnonzero(np.r_[True, byte[1:] != byte[:-1]])
        mixed = np.minimum.reduceat(group, starts) != np.maximum.reduceat(group, starts)
        racing = np.flatnonzero(mixed & np.logical_or.reduceat(write, starts))
        ends = np.r_[starts[1:], byte.size]
        for index in racing.tolist():
            first = starts[index]
            other = first + int(np.flatnonzero(group[first:ends[index]] != group[first])[0])
            self._report("global-race", int(pc[first]), bool(write[first]), int(wave[first]),
                         int(pc[other]), bool(write[other]), int(wave[other]),
                         f"global 0x{int(byte[first]):x}", 1,
                         "different work-groups, neither access atomic")

    # --- reports -----------------------------------------------------------------------
    def _report(self, rule, source_pc, source_writes, source_wave, pc, writes, wave, where,
                count, why):
        """One race: the access at ``pc`` of ``wave`` and the earlier one at
        ``source_pc`` of ``source_wave`` touch ``where`` (``count`` bytes)."""
        key = (rule, source_pc, pc)
        known = self._found.get(key)
        if known is not None:
            known[1] += count
            return
        if len(self._found) >= MAX_REPORTS:
            return
        action = (f"wave {wave} {'writes' if writes else 'reads'} what wave {source_wave} "
                  f"{'wrote' if source_writes else 'read'}")
        hazard = Hazard(rule, self.function, pc, self._texts.get(pc, "?"), source_pc,
                        self._texts.get(source_pc, "?"), where, f"{action}; {why}", wave=wave)
        self._found[key] = [hazard, count]

    def races(self) -> list[Hazard]:
        """Every race found, deduplicated by the two PCs (``count``: bytes involved)."""
        self._global_races()
        self._global = []
        out = []
        for hazard, count in self._found.values():
            out.append(hazard if count == 1 else hazard.counted(count))
        return out




def _distinct(addresses, size):
    """Whether no two of ``addresses`` (chunks of ``size`` bytes) overlap: true at
    once for the common increasing, non-overlapping lanes."""
    if addresses.size < 2:
        return True
    step = np.diff(addresses)
    if (step >= size).all():
        return True
    ordered = np.sort(addresses)
    return bool((np.diff(ordered) >= size).all())


def _group_key(ids):
    """One integer per work-group id (x, y, z)."""
    ids = np.asarray(ids, np.int64)
    return ids[..., 0] + (ids[..., 1] << 21) + (ids[..., 2] << 42)

"""The LDS shadow of the race checker: who last wrote and read each LDS byte.

Every LDS access of a batch is checked against the shadow and recorded in it,
with NumPy over all lanes at once. A *key* is ``epoch << 32 | wave``: the
batch wave and the number of barriers it has passed. Two accesses race when
their keys have one epoch and different waves and one of them writes.

Per slot the shadow keeps the last write, the last read and the read before
it by another wave (``prior``). Two readers are enough: whenever two or more
waves read a slot in one epoch, the last two different ones are two of them,
so a write by any wave finds one that is not itself. Every byte on which two
waves race is reported (an access that finds nothing new, because the race on
its bytes was reported when it happened, reports nothing).

Slots are dwords while every access to them is whole aligned dwords (nearly
all LDS traffic), which keeps the work per access at a quarter of per-byte
bookkeeping; the first access that touches part of a dword splits it into
four byte slots for the rest of the batch, copied from the dword's entry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: the wave part of a key
WAVE = (1 << 32) - 1
_FIELDS = ("write", "write_pc", "read", "read_pc", "prior", "prior_pc")


@dataclass(frozen=True, eq=False)
class Conflict:
    """An access racing with earlier ones the shadow holds on ``bytes`` (sorted
    LDS byte offsets); ``source_*`` and ``key`` describe the pair at the first."""

    bytes: np.ndarray
    source_pc: int
    source_writes: bool
    source_key: int
    key: int

    @property
    def byte(self) -> int:
        return int(self.bytes[0])

    @property
    def count(self) -> int:
        return int(self.bytes.size)


class _Slots:
    """The shadow at one granularity: ``unit`` bytes per slot."""

    def __init__(self, count, unit):
        self.unit = unit
        self.write = np.full(count, -1, np.int64)
        self.write_pc = np.zeros(count, np.int32)
        self.read = np.full(count, -1, np.int64)
        self.read_pc = np.zeros(count, np.int32)
        self.prior = np.full(count, -1, np.int64)
        self.prior_pc = np.zeros(count, np.int32)
        self._first = np.zeros(count, np.int64)

    def visit(self, index, key, write, pc, found):
        """Check the access of slots ``index`` by ``key`` and record it."""
        self._conflicts(self.write, self.write_pc, True, index, key, found)
        if write:
            self._conflicts(self.read, self.read_pc, False, index, key, found)
            self._conflicts(self.prior, self.prior_pc, False, index, key, found)
            self._same_access(index, key, pc, found)
            self.write[index] = key
            self.write_pc[index] = pc
        else:
            self._record_read(index, key, pc)

    def _conflicts(self, last, last_pc, last_writes, index, key, found):
        other = last[index]
        clash = ((other ^ key) >> 32 == 0) & (other != key) & (other >= 0)
        if clash.any():
            slots = index[clash]
            at = int(np.argmin(slots))
            slot = int(slots[at])
            found.append(Conflict(self._bytes_of(np.unique(slots)), int(last_pc[slot]),
                                  last_writes, int(other[clash][at]), int(key[clash][at])))

    def _same_access(self, index, key, pc, found):
        """Two waves of one instruction's group writing one slot."""
        wave = key & WAVE
        if wave.size < 2 or wave.min() == wave.max():
            return
        order = np.argsort(index, kind="stable")
        ordered, keys = index[order], key[order]
        clash = (ordered[1:] == ordered[:-1]) & ((keys[1:] & WAVE) != (keys[:-1] & WAVE))
        if clash.any():
            at = int(np.flatnonzero(clash)[0])
            found.append(Conflict(self._bytes_of(np.unique(ordered[1:][clash])), pc, True,
                                  int(keys[at]), int(keys[at + 1])))

    def _bytes_of(self, slots):
        return slots if self.unit == 1 else _spread(slots * self.unit, self.unit)

    def _record_read(self, index, key, pc):
        """Readers ``key`` of slots ``index`` (lanes in wave order, so a slot's
        occurrences run from its lowest wave to its highest). NumPy's indexed
        assignment keeps the last of repeated indices, which is what makes
        ``read`` the last occurrence and ``_first`` (assigned reversed) the first."""
        last = self.read[index]
        moved = (last & WAVE) != (key & WAVE)
        if moved.any():
            slots = index[moved]
            self.prior[slots] = last[moved]
            self.prior_pc[slots] = self.read_pc[slots]
        self.read[index] = key
        self.read_pc[index] = pc
        first = self._first
        first[index[::-1]] = key[::-1]
        first = first[index]
        several = (first & WAVE) != (key & WAVE)      # two waves of this access
        if several.any():
            self.prior[index[several]] = first[several]
            self.prior_pc[index[several]] = pc

    def copy_to_bytes(self, dwords, target):
        """Give the byte slots of ``dwords`` in ``target`` this dword shadow's entries."""
        spread = ((dwords * 4)[:, None] + np.arange(4)).reshape(-1)
        for name in _FIELDS:
            getattr(target, name)[spread] = np.repeat(getattr(self, name)[dwords], 4)


class LdsShadow:
    """The shadow of one batch's LDS (``size`` bytes, every work-group's)."""

    def __init__(self, size):
        self._count = -(-size // 4)
        self._dwords = _Slots(self._count, 4)
        self._bytes = None
        self._split = np.zeros(self._count, bool)

    def access(self, addresses, chunk_bytes, key, write, pc) -> list[Conflict]:
        """Check and record one access: ``chunk_bytes`` at each of ``addresses``
        (batch LDS byte offsets, int64) by ``key`` (one per address)."""
        found = []
        if chunk_bytes % 4 == 0 and not int(np.bitwise_or.reduce(addresses)) & 3:
            words = chunk_bytes // 4
            index = ((addresses >> 2)[:, None] + np.arange(words)).reshape(-1)
            keys = np.repeat(key, words)
            split = self._split[index]
            if split.any():
                whole = ~split
                self._bytes.visit(_spread(index[split] * 4, 4), np.repeat(keys[split], 4),
                                  write, pc, found)
                index, keys = index[whole], keys[whole]
            self._dwords.visit(index, keys, write, pc, found)
        else:
            index = _spread(addresses, chunk_bytes)
            self._split_dwords(np.unique(index >> 2))
            self._bytes.visit(index, np.repeat(key, chunk_bytes), write, pc, found)
        return found

    def _split_dwords(self, dwords):
        new = dwords[~self._split[dwords]]
        if new.size:
            if self._bytes is None:
                self._bytes = _Slots(self._count * 4, 1)
            self._dwords.copy_to_bytes(new, self._bytes)
            self._split[new] = True


def _spread(starts, count):
    """Every byte of ``count`` bytes from each of ``starts``."""
    return (starts[:, None] + np.arange(count, dtype=np.int64)).reshape(-1)

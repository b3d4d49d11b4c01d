"""Zeroed byte arrays in ``MAP_SHARED`` memory: the backing of device memory.

A dispatch may run its work-groups in worker processes (``exec.core.workers``).
Those processes must read and write the very bytes the host sees, so every
allocation of a shared ``DeviceMemory`` lives in an anonymous shared mapping:
after ``fork`` parent and children map the same pages, with no copying and
nothing to send back.

Workers are kept from one dispatch to the next, and a program maps new
buffers between its launches (every launch that passes NumPy arrays does).
A mapping made after the fork would not exist in the workers, so arrays are
carved from a *reserve*: one large mapping made up front with
``MAP_NORESERVE`` (address space only: a page takes memory when first
touched). Every process forked after the reserve was made sees whatever is
carved from it later, at the same address; the host tells a kept worker an
allocation's place (``locate``) and the worker maps nothing. ``epoch``
counts the arrays placed where earlier forks cannot see them (a new reserve,
or an array too large for one, mapped alone): kept workers can take a
dispatch while it is unchanged.

Every array starts zeroed. A released large array's pages are kept for the
next request of the same page count (up to ``RECYCLE_BYTES`` in all; not a
dispatch's scratch, of which a kernel may touch little), and zeroed when
handed out again: a fresh page costs a fault in every process
that touches it (~2.7 ms for 4 MiB in the host alone, on the 2-core
machine), its reuse a memset (~0.1 ms), and a program that makes its
buffers for each launch asks for the same sizes again and again. Pages not
kept go back to the system (``MADV_REMOVE``), and their range serves the next
array of its page count (zeros already), so a dispatch's scratch, mapped
again for each launch, does not use up the reserve. Small arrays (carved together
from 1 MiB chunks, ``CARVE_ALIGN``-aligned, so typed word views stay
aligned) give back their chunk when the last of them is released; no small
array is handed out twice. One ``mmap`` + ``munmap`` costs ~20 us, a
hundred times ``np.zeros`` of a few hundred bytes, which is why small ones
are carved: a launch makes several (kernarg segment, signal).
"""

from __future__ import annotations

import mmap
import sys

import numpy as np

#: Size of one chunk small arrays are carved from.
ARENA_BYTES = 1 << 20
#: Requests up to this size are carved from a chunk; larger ones get their own pages.
SMALL_BYTES = 64 << 10
#: Alignment of carved arrays within their chunk.
CARVE_ALIGN = 256
#: Address space a reserve asks for first, halved while the system refuses
#: (a limit on address space, strict overcommit), down to ``MIN_RESERVE_BYTES``.
RESERVE_BYTES = 64 << 30
MIN_RESERVE_BYTES = 64 << 20
#: Most bytes of released large arrays kept for reuse.
RECYCLE_BYTES = 256 << 20
PAGE_BYTES = mmap.PAGESIZE
_SHARED = mmap.MAP_SHARED | mmap.MAP_ANONYMOUS
#: (Python's mmap names it from 3.13; its value on Linux, every architecture)
_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)
_REMOVE = getattr(mmap, "MADV_REMOVE", None)


def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def shared_zeros(size: int) -> np.ndarray:
    """A fresh ``uint8`` array of ``size`` zero bytes in its own shared mapping.

    A mapping the host cannot provide is a MemoryError, as for ``np.zeros``.
    """
    if size == 0:
        return np.zeros(0, np.uint8)
    return np.frombuffer(_shared_mapping(size), np.uint8)


def _shared_mapping(size: int) -> mmap.mmap:
    """A new shared mapping of ``size`` bytes; a MemoryError where the host refuses."""
    try:
        return mmap.mmap(-1, size, flags=_SHARED)
    except (OSError, OverflowError, ValueError) as error:
        raise MemoryError(f"cannot map {size} shared bytes: {error}") from None


class _Reserve:
    """One large shared mapping carved from front to back."""

    def __init__(self, mapping: mmap.mmap):
        self.mapping = mapping
        self.array = np.frombuffer(mapping, np.uint8)
        self.start = _address(self.array)
        self.used = 0

    @classmethod
    def make(cls, size: int):
        """A reserve of ``size`` bytes, or smaller where the system refuses;
        None when it refuses every size."""
        while True:
            try:
                return cls(mmap.mmap(-1, size, flags=_SHARED | _NORESERVE))
            except (OSError, OverflowError, ValueError):
                size //= 2
            if size < MIN_RESERVE_BYTES:
                return None

    def take(self, size: int, alignment: int):
        """``size`` bytes at the next ``alignment`` boundary, or None when full."""
        offset = _align(self.used, alignment)
        if offset + size > self.array.size:
            return None
        self.used = offset + size
        return offset

    def punch(self, offset: int, size: int) -> None:
        """Give the whole pages of ``[offset, offset + size)`` back (they read
        as zeros); where the system cannot, they stay until the reserve goes."""
        first, end = _align(offset, PAGE_BYTES), (offset + size) // PAGE_BYTES * PAGE_BYTES
        if end > first and _REMOVE is not None:
            try:
                self.mapping.madvise(_REMOVE, first, end - first)
            except OSError:
                pass


class SharedBytes:
    """Hands out zeroed shared arrays; not thread-safe (the caller locks)."""

    def __init__(self, reserve_bytes: int | None = None):
        self._reserve_bytes = RESERVE_BYTES if reserve_bytes is None else reserve_bytes
        self._reserves: list[_Reserve] = []
        #: arrays placed where processes forked earlier cannot see them
        self.epoch = 0
        #: the chunk small arrays are carved from: (reserve, offset, end) or None
        self._chunk = None
        #: (reserve index, chunk offset) -> arrays carved there not yet released
        self._live: dict = {}
        #: page-rounded size -> [(reserve index, offset)] of released large arrays
        self._kept: dict = {}
        self._kept_bytes = 0
        #: page-rounded size -> [(reserve index, offset)] of ranges whose pages
        #: went back: their address space serves the next array of that size
        #: (a dispatch's scratch, mapped again at each launch, takes the same range)
        self._given_back: dict = {}

    def zeros(self, size: int, reuse: bool = True) -> np.ndarray:
        """``size`` zero bytes in shared memory; ``reuse``: a large one may be
        pages released before, zeroed now (False: fresh pages, for an array
        of which little may be touched, where zeroing all would cost more
        than the faults of what is: a dispatch's scratch)."""
        if size == 0:
            return np.zeros(0, np.uint8)
        if size > SMALL_BYTES:
            return self._large(size, reuse)
        chunk = self._chunk
        if chunk is None or _align(chunk[1], CARVE_ALIGN) + size > chunk[2]:
            chunk = self._new_chunk()
        index, offset, end = chunk
        offset = _align(offset, CARVE_ALIGN)
        self._chunk = (index, offset + size, end)
        key = (index, end - ARENA_BYTES)
        self._live[key] = self._live.get(key, 0) + 1
        return self._reserves[index].array[offset:offset + size]

    def _large(self, size: int, reuse: bool) -> np.ndarray:
        pages = _align(size, PAGE_BYTES)
        kept = self._kept.get(pages) if reuse else None
        if kept:
            index, offset = kept.pop()
            self._kept_bytes -= pages
            array = self._reserves[index].array[offset:offset + pages]
            array.fill(0)
            return array[:size]
        given_back = self._given_back.get(pages)
        if given_back:              # (zeros already: the address space is reused)
            index, offset = given_back.pop()
            return self._reserves[index].array[offset:offset + size]
        placed = self._place(pages, PAGE_BYTES)
        if placed is None:
            self.epoch += 1
            return shared_zeros(size)
        index, offset = placed
        return self._reserves[index].array[offset:offset + size]

    def _new_chunk(self):
        placed = self._place(ARENA_BYTES, ARENA_BYTES)
        if placed is None:          # no reserve at all: a chunk of its own
            self.epoch += 1
            self._reserves.append(_Reserve(_shared_mapping(ARENA_BYTES)))
            placed = (len(self._reserves) - 1, self._reserves[-1].take(ARENA_BYTES, 1))
        old = self._chunk
        self._chunk = (placed[0], placed[1], placed[1] + ARENA_BYTES)
        if old is not None:
            self._settle((old[0], old[2] - ARENA_BYTES))
        return self._chunk

    def _place(self, size: int, alignment: int):
        """(reserve index, offset) of ``size`` new bytes, in the current
        reserve or a new one (the epoch moves); None where no reserve can hold them."""
        if self._reserves:
            offset = self._reserves[-1].take(size, alignment)
            if offset is not None:
                return len(self._reserves) - 1, offset
        if size > self._reserve_bytes // 2:
            return None
        reserve = _Reserve.make(self._reserve_bytes)
        if reserve is None:
            self._reserve_bytes = 0         # (refused: not asked again)
            return None
        if reserve.take(size, alignment) is None:
            return None
        self.epoch += 1
        self._reserves.append(reserve)
        return len(self._reserves) - 1, 0

    def locate(self, array: np.ndarray):
        """(reserve index, offset) of an array this object handed out, None
        for one mapped alone (or empty)."""
        address = _address(array)
        for index, reserve in enumerate(self._reserves):
            if reserve.start <= address < reserve.start + reserve.array.size:
                return index, address - reserve.start
        return None

    def view(self, index: int, offset: int, size: int) -> np.ndarray:
        """The array ``locate`` placed at (``index``, ``offset``): in a process
        forked after that reserve was made, the same bytes."""
        return self._reserves[index].array[offset:offset + size]

    def release(self, array: np.ndarray, reuse: bool = True) -> None:
        """``array`` is no longer used: a large one's pages are kept for reuse
        (unless ``reuse`` is False) or go back at once, a small one's once
        nothing else carved with it is in use (pages given back read as zeros)."""
        place = self.locate(array) if array.size else None
        if place is None:
            return                  # mapped alone: unmapped when the last view goes
        index, offset = place
        if array.size > SMALL_BYTES:
            pages = _align(array.size, PAGE_BYTES)
            if reuse and self._kept_bytes + pages <= RECYCLE_BYTES:
                self._kept.setdefault(pages, []).append(place)
                self._kept_bytes += pages
            else:
                self._reserves[index].punch(offset, pages)
                self._given_back.setdefault(pages, []).append(place)
            return
        key = (index, offset // ARENA_BYTES * ARENA_BYTES)
        self._live[key] -= 1
        self._settle(key)

    def _settle(self, key) -> None:
        """Give a chunk's pages back when it is left behind and holds nothing live."""
        chunk = self._chunk
        if self._live.get(key, 0) == 0 and \
                (chunk is None or (chunk[0], chunk[2] - ARENA_BYTES) != key):
            self._live.pop(key, None)
            self._reserves[key[0]].punch(key[1], ARENA_BYTES)

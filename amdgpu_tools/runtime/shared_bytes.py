"""Zeroed byte arrays in ``MAP_SHARED`` memory: the backing of device memory.

A dispatch may run its work-groups in worker processes forked for it
(``exec.core.workers``). Those processes must read and write the very bytes
the host sees, so every allocation of a shared ``DeviceMemory`` lives in an
anonymous shared mapping: after ``fork`` parent and children map the same
pages, with no copying and nothing to send back.

One ``mmap`` + ``munmap`` costs ~20 us, a hundred times ``np.zeros`` of a
few hundred bytes, and a launch makes several small allocations (kernarg
segment, completion signal). Small requests are therefore carved from
1 MiB arenas by a bump pointer; a carved array keeps its arena's mapping
alive (NumPy's base reference), so the mapping is unmapped once the arena
has been left behind and every array carved from it is gone. Nothing is
ever reused, so every array starts zeroed as a fresh mapping does. Carved
arrays start ``CARVE_ALIGN``-aligned, so typed word views of them stay
aligned.
"""

from __future__ import annotations

import mmap

import numpy as np

#: Size of one arena small arrays are carved from.
ARENA_BYTES = 1 << 20
#: Requests up to this size are carved from an arena; larger ones are mapped alone.
SMALL_BYTES = 64 << 10
#: Alignment of carved arrays within their arena.
CARVE_ALIGN = 256


def shared_zeros(size: int) -> np.ndarray:
    """A fresh ``uint8`` array of ``size`` zero bytes in its own shared mapping.

    A mapping the host cannot provide is a MemoryError, as for ``np.zeros``.
    """
    if size == 0:
        return np.zeros(0, np.uint8)
    try:
        mapping = mmap.mmap(-1, size, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
    except (OSError, OverflowError, ValueError) as error:
        raise MemoryError(f"cannot map {size} shared bytes: {error}") from None
    return np.frombuffer(mapping, np.uint8)


class SharedBytes:
    """Hands out zeroed shared arrays; not thread-safe (the caller locks)."""

    def __init__(self):
        self._arena = None
        self._used = 0

    def zeros(self, size: int) -> np.ndarray:
        """``size`` zero bytes in shared memory (carved from an arena when small)."""
        if size > SMALL_BYTES:
            return shared_zeros(size)
        if self._arena is None or self._used + size > ARENA_BYTES:
            self._arena, self._used = shared_zeros(ARENA_BYTES), 0
        start = self._used
        self._used = -(-(start + size) // CARVE_ALIGN) * CARVE_ALIGN
        return self._arena[start:start + size]

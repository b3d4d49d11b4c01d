"""Device memory: a sparse 64-bit address space made of allocations.

Every byte the device can reach (code objects, kernarg segments, queues,
signals, user buffers, scratch backing) lives in one ``DeviceMemory``. Each
allocation is a NumPy ``uint8`` array placed at an address; allocations are
separated by unmapped guard gaps so that small overruns fault instead of
silently reading a neighbour.

The executor accesses memory for a whole batch of lanes at once through
``gather`` and ``scatter``: address arrays in, byte matrices out. The common
case, every address inside one allocation, costs one range check and one
fancy-indexing operation.

Thread safety: the map of allocations is one (bases, allocations) pair that
``allocate``/``free`` replace as a whole under a lock (copy on write), so a
lookup from any thread sees a consistent map without locking.

Processes: a ``shared`` memory backs every allocation with ``MAP_SHARED``
pages (``shared_bytes``), so worker processes forked while a dispatch runs
(``exec.core.workers``) work on the same bytes. Such workers are kept for
later dispatches: allocations made since their fork are in pages they
already share, and ``mapping_update`` / ``adopt`` tell them where (while
``epoch`` is unchanged). In such a worker
``atomic_guard`` is set: the atomics of ``exec.semantics.memory`` hold it
around each read-modify-write, which makes them atomic with respect to the
other workers. It is None otherwise (one process: nothing to pay).
"""

from __future__ import annotations

import bisect
import struct
import threading
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import numpy as np

from ..elf.structs import align_up
from ..errors import MemoryFault, ResourceLimitError
from .shared_bytes import SharedBytes

#: First address handed out: keeps null and small integers unmapped.
BASE_ADDRESS = 0x1_0000_0000
#: Unmapped bytes left after every allocation.
GUARD_BYTES = 0x1000

_BYTE_OFFSETS = {n: np.arange(n, dtype=np.int64) for n in (1, 2, 4, 8, 12, 16)}
#: Access sizes moved as whole words when every address is aligned to them.
_WORD_TYPES = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_WORD_SHIFTS = {2: 1, 4: 2, 8: 3}


def _word_view(data: np.ndarray, offsets: np.ndarray, nbytes: int):
    """(words, indices) when every offset is ``nbytes``-aligned, else None.

    Aligned 2/4/8-byte accesses (nearly every vector load and store) then
    index a typed view once instead of building an (n, nbytes) index array.
    """
    kind = _WORD_TYPES.get(nbytes)
    if kind is None or offsets.size < 16 or \
            int(np.bitwise_or.reduce(offsets, axis=None)) & (nbytes - 1):
        return None
    usable = data.size // nbytes * nbytes
    return data[:usable].view(kind), offsets >> _WORD_SHIFTS[nbytes]


@dataclass(eq=False)
class Allocation:
    """One contiguous mapped range of device memory."""

    address: int
    data: np.ndarray
    kind: str = "global"
    name: str = ""
    writable: bool = True
    attrs: dict = field(default_factory=dict)

    @property
    def size(self) -> int:
        return self.data.size

    @property
    def end(self) -> int:
        return self.address + self.data.size

    def contains(self, address: int, size: int = 1) -> bool:
        return self.address <= address and address + size <= self.end

    @cached_property
    def buffer(self) -> memoryview:
        """``data`` as a memoryview: the host's small reads and writes (queue
        indices, signal values, packets) slice it for a fraction of what a NumPy
        slice and ``tobytes`` cost."""
        return memoryview(self.data).cast("B")


class MappingUpdate(NamedTuple):
    """How a process forked earlier maps the memory as it is now (``adopt``)."""
    #: every allocation's address, sorted
    bases: tuple
    #: address -> (reserve, offset, size, kind, name, writable, attrs) of each
    #: allocation made since (``shared_bytes.SharedBytes.locate``; reserve -1: empty)
    new: dict
    #: ``DeviceMemory.unmaps`` now
    unmaps: int


def _reusable(kind: str) -> bool:
    """Whether an allocation of ``kind`` takes and leaves pages kept for reuse
    (``SharedBytes``): not scratch, of whose large backing a kernel may touch
    little, where faulting that part costs less than zeroing all of it."""
    return kind != "scratch"


def check_allocation_request(size: int, align: int) -> None:
    """A ValueError for a negative size or an alignment that is not a power of two."""
    if size < 0:
        raise ValueError("allocation size must be non-negative")
    if align <= 0 or align & (align - 1):
        raise ValueError("alignment must be a power of two")


class DeviceMemory:
    """The device's address space: allocate, free, read, write, gather, scatter."""

    def __init__(self, capacity: int | None = None, *, shared: bool = False):
        #: (bases, allocations), sorted by base; replaced, never changed in place
        self._table: tuple[list[int], list[Allocation]] = ([], [])
        self._lock = threading.RLock()
        self._next_address = BASE_ADDRESS
        #: bytes the device has (None: no limit); ``allocate`` keeps ``in_use`` within it
        self.capacity = capacity
        self.in_use = 0
        #: whether allocations live in MAP_SHARED memory (forked workers see them)
        self.shared = shared
        self._shared_bytes = SharedBytes() if shared else None
        #: ``guard(addresses)``: a context manager a worker process's atomics hold
        self.atomic_guard = None
        #: allocations unmapped so far: a location looked up earlier is still
        #: mapped while this is unchanged (``Pinned``)
        self.unmaps = 0

    # ----------------------------------------------------------------- mapping
    def allocate(self, size: int, *, align: int = 256, kind: str = "global",
                 name: str = "", writable: bool = True) -> int:
        """Map ``size`` zero bytes and return their address."""
        check_allocation_request(size, align)
        size = int(size)
        with self._lock:
            if self.capacity is not None and self.in_use + size > self.capacity:
                raise ResourceLimitError(
                    "device memory", size, self.capacity,
                    detail=f"{self.in_use} bytes in use, {self.capacity - self.in_use} free")
            try:
                data = self._shared_bytes.zeros(size, reuse=_reusable(kind)) \
                    if self.shared else np.zeros(size, np.uint8)
            except MemoryError:
                raise ResourceLimitError("device memory", size, self.capacity or size,
                                         detail="the host cannot back an allocation this "
                                         "large") from None
            address = align_up(self._next_address, max(align, 256))
            self._insert(Allocation(address, data, kind, name, writable))
            self._next_address = address + max(size, 1) + GUARD_BYTES
            self.in_use += size
            return address

    @property
    def _bases(self) -> list[int]:
        return self._table[0]

    @property
    def _allocations(self) -> list[Allocation]:
        return self._table[1]

    def _insert(self, allocation: Allocation) -> None:
        """Map ``allocation`` at its address (the ranges must not overlap)."""
        with self._lock:
            bases, allocations = list(self._table[0]), list(self._table[1])
            index = bisect.bisect(bases, allocation.address)
            bases.insert(index, allocation.address)
            allocations.insert(index, allocation)
            self._table = (bases, allocations)

    def free(self, address: int) -> None:
        """Unmap the allocation that starts at ``address``."""
        with self._lock:
            bases, allocations = list(self._table[0]), list(self._table[1])
            index = bisect.bisect_left(bases, address)
            if index >= len(bases) or bases[index] != address:
                raise MemoryFault(address, reason="free of an address that is not an allocation")
            del bases[index]
            freed = allocations.pop(index)
            self._table = (bases, allocations)
            self.unmaps += 1
            self.in_use = max(0, self.in_use - freed.size)
            if self.shared:
                self._shared_bytes.release(freed.data, reuse=_reusable(freed.kind))

    def allocation_at(self, address: int, size: int = 1) -> Allocation:
        """The allocation holding ``[address, address + size)``, or a fault."""
        bases, allocations = self._table
        index = bisect.bisect_right(bases, address) - 1
        if index >= 0:
            allocation = allocations[index]
            # Allocation.contains, inlined: this runs for every host access
            base = allocation.address
            if base <= address and address + size <= base + allocation.data.size:
                return allocation
        raise MemoryFault(address, size)

    def allocations(self) -> list[Allocation]:
        return list(self._table[1])

    def mapping(self) -> tuple[list[int], list[Allocation]]:
        """(bases, allocations) as mapped now, sorted by base. Every map and
        unmap replaces the pair, so its identity tells a cached copy of the
        address space (compiled blocks keep one) whether it is still right.
        Read-only: map and unmap through ``allocate`` and ``free``."""
        return self._table

    @property
    def epoch(self) -> int:
        """Changes when an allocation is placed where processes forked before
        cannot see it: while it is unchanged, ``mapping_update`` can bring
        such a process up to date. (A private memory: always 0, its
        allocations are never seen by another process.)"""
        return self._shared_bytes.epoch if self.shared else 0

    def mapping_update(self, since) -> MappingUpdate | None:
        """What a process forked when the mapping was ``since`` (an earlier
        ``mapping()``, still referenced) needs to ``adopt`` the mapping as it
        is now; None where an allocation made since is out of its reach."""
        bases, allocations = self._table
        known = {id(allocation) for allocation in since[1]}
        new = {}
        for allocation in allocations:
            if id(allocation) in known:
                continue
            data = allocation.data
            place = (-1, 0) if data.size == 0 else \
                self._shared_bytes.locate(data) if self.shared else None
            if place is None:
                return None
            new[allocation.address] = (*place, data.size, allocation.kind, allocation.name,
                                       allocation.writable, allocation.attrs)
        return MappingUpdate(tuple(bases), new, self.unmaps)

    def adopt(self, update: MappingUpdate) -> None:
        """Map as ``update`` says (in a process forked from the one that made
        it, from this memory): allocations made since are views of the
        shared pages this process inherited."""
        with self._lock:
            current = dict(zip(*self._table))
            allocations = []
            for base in update.bases:
                made = update.new.get(base)
                if made is None:
                    allocations.append(current[base])
                    continue
                reserve, offset, size, kind, name, writable, attrs = made
                data = np.zeros(0, np.uint8) if reserve < 0 else \
                    self._shared_bytes.view(reserve, offset, size)
                allocations.append(Allocation(base, data, kind, name, writable, attrs))
            self._table = (list(update.bases), allocations)
            self.unmaps = update.unmaps

    # ------------------------------------------------------------- host access
    def view(self, address: int, size: int) -> np.ndarray:
        """A writable ``uint8`` view of ``size`` mapped bytes at ``address``."""
        allocation = self.allocation_at(address, size)
        start = address - allocation.address
        return allocation.data[start:start + size]

    def read(self, address: int, size: int) -> bytes:
        allocation = self.allocation_at(address, size)
        start = address - allocation.address
        return bytes(allocation.buffer[start:start + size])

    def write(self, address: int, data) -> None:
        if not isinstance(data, np.ndarray):
            if type(data) is not bytes:
                data = bytes(data)
            allocation = self.allocation_at(address, len(data))
            start = address - allocation.address
            allocation.buffer[start:start + len(data)] = data
            return
        raw = data.reshape(-1).view(np.uint8)
        self.view(address, raw.size)[:] = raw

    def unpack_from(self, layout: struct.Struct, address: int) -> tuple:
        """The values of the C struct ``layout`` stored at ``address``."""
        allocation = self.allocation_at(address, layout.size)
        return layout.unpack_from(allocation.buffer, address - allocation.address)

    def pack_into(self, layout: struct.Struct, address: int, *values) -> None:
        """Store ``values`` as the C struct ``layout`` at ``address``."""
        allocation = self.allocation_at(address, layout.size)
        layout.pack_into(allocation.buffer, address - allocation.address, *values)

    def read_u32(self, address: int) -> int:
        return int.from_bytes(self.read(address, 4), "little")

    def read_u64(self, address: int) -> int:
        return int.from_bytes(self.read(address, 8), "little")

    def write_u32(self, address: int, value: int) -> None:
        self.write(address, (value & 0xFFFFFFFF).to_bytes(4, "little"))

    def write_u64(self, address: int, value: int) -> None:
        self.write(address, (value & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little"))

    # ------------------------------------------------------ vectorised access
    def _locate(self, addresses: np.ndarray, nbytes: int, write: bool):
        """Map each address to (allocation index, byte offset); fault on a miss."""
        addresses = np.asarray(addresses, dtype=np.uint64)
        if addresses.size == 0:
            return [], addresses.astype(np.int64)
        table = self._table
        first = bisect.bisect_right(table[0], int(addresses.flat[0])) - 1
        if first >= 0:
            # Guess the allocation of the first address; an address below its
            # base wraps to a huge offset, so one max() checks every bound.
            allocation = table[1][first]
            offsets = addresses - np.uint64(allocation.address)
            if int(offsets.max()) + nbytes <= allocation.size:
                if write and not allocation.writable:
                    self._check_writable(allocation, int(addresses.min()), nbytes, write)
                # offsets < 2**63: reinterpreting them is exact (no copy)
                return [allocation], offsets.view(np.int64)
        return self._locate_slow(addresses, nbytes, write, table)

    def _locate_slow(self, addresses, nbytes, write, table):
        """(allocations, which, offsets): row i is in ``allocations[which[i]]``."""
        bases = np.asarray(table[0], dtype=np.uint64)
        index = np.searchsorted(bases, addresses, side="right").astype(np.int64) - 1
        ends = np.asarray([a.end for a in table[1]], dtype=np.uint64)
        bad = index < 0
        safe = np.where(bad, 0, index)
        if ends.size:
            # compared as address > end - nbytes: address + nbytes wraps near 2**64
            bad |= addresses > ends[safe] - np.uint64(nbytes)
        else:
            bad[:] = True
        if bad.any():
            raise MemoryFault(int(addresses[np.argmax(bad)]), nbytes, write=write)
        allocations = []
        used, which = np.unique(safe, return_inverse=True)
        for i in used:
            allocation = table[1][int(i)]
            self._check_writable(allocation, int(addresses[np.argmax(safe == i)]), nbytes, write)
            allocations.append(allocation)
        return (allocations, which.reshape(safe.shape), addresses - bases[safe])

    @staticmethod
    def _check_writable(allocation, address, nbytes, write):
        if write and not allocation.writable:
            raise MemoryFault(address, nbytes, reason=MemoryFault.READ_ONLY, write=True)

    def gather(self, addresses: np.ndarray, nbytes: int) -> np.ndarray:
        """Read ``nbytes`` at each address: a ``uint8`` array of shape (n, nbytes)."""
        located = self._locate(addresses, nbytes, write=False)
        byte_offsets = _BYTE_OFFSETS.get(nbytes)
        if byte_offsets is None:
            byte_offsets = np.arange(nbytes, dtype=np.int64)
        if len(located) == 2:
            allocations, offsets = located
            if not allocations:
                return np.zeros((0, nbytes), np.uint8)
            words = _word_view(allocations[0].data, offsets, nbytes)
            if words is not None:
                return np.take(words[0], words[1]).view(np.uint8).reshape(-1, nbytes)
            return allocations[0].data[offsets[:, None] + byte_offsets]
        allocations, which, offsets = located
        out = np.empty((len(offsets), nbytes), np.uint8)
        offsets = offsets.astype(np.int64)
        for number, allocation in enumerate(allocations):
            rows = which == number
            out[rows] = allocation.data[offsets[rows, None] + byte_offsets]
        return out

    def scatter(self, addresses: np.ndarray, data: np.ndarray) -> None:
        """Write row ``i`` of ``data`` (uint8, shape (n, nbytes)) at ``addresses[i]``.

        Rows are written in order, so when two lanes store to the same address
        the higher-numbered row wins, as it does for lanes of a wave.
        """
        data = np.asarray(data, dtype=np.uint8)
        nbytes = data.shape[1]
        located = self._locate(addresses, nbytes, write=True)
        byte_offsets = np.arange(nbytes, dtype=np.int64)
        if len(located) == 2:
            allocations, offsets = located
            if allocations:
                words = _word_view(allocations[0].data, offsets, nbytes)
                if words is not None:
                    words[0][words[1]] = np.ascontiguousarray(data).view(words[0].dtype)[:, 0]
                else:
                    allocations[0].data[offsets[:, None] + byte_offsets] = data
            return
        allocations, which, offsets = located
        offsets = offsets.astype(np.int64)
        for number, allocation in enumerate(allocations):
            rows = which == number
            allocation.data[offsets[rows, None] + byte_offsets] = data[rows]


class Pinned:
    """A runtime structure in device memory (an amd_queue_t, a ring, a signal)
    read and written many times: its allocation is looked up once, and again
    only after something was unmapped (``DeviceMemory.unmaps``), so an access
    costs a struct call while faulting exactly as a lookup would. Offers
    ``unpack_from``/``pack_into``/``read``/``write`` with absolute addresses,
    like ``DeviceMemory``; an access outside the structure goes to the memory."""

    __slots__ = ("memory", "address", "end", "_unmaps", "_buffer", "_start")

    def __init__(self, memory: DeviceMemory, address: int, size: int):
        self.memory = memory
        self.address = address
        self.end = address + size
        self._unmaps = None

    def _locate(self, address: int, size: int):
        """(buffer, offset of ``address`` in it), or None outside the structure."""
        if not (self.address <= address and address + size <= self.end):
            return None
        memory = self.memory
        if self._unmaps != memory.unmaps:
            unmaps = memory.unmaps
            allocation = memory.allocation_at(self.address, self.end - self.address)
            self._buffer, self._start = allocation.buffer, self.address - allocation.address
            self._unmaps = unmaps
        return self._buffer, self._start + address - self.address

    def unpack_from(self, layout: struct.Struct, address: int) -> tuple:
        found = self._locate(address, layout.size)
        if found is None:
            return self.memory.unpack_from(layout, address)
        return layout.unpack_from(*found)

    def pack_into(self, layout: struct.Struct, address: int, *values) -> None:
        found = self._locate(address, layout.size)
        if found is None:
            self.memory.pack_into(layout, address, *values)
        else:
            layout.pack_into(found[0], found[1], *values)

    def read(self, address: int, size: int) -> bytes:
        found = self._locate(address, size)
        if found is None:
            return self.memory.read(address, size)
        buffer, start = found
        return bytes(buffer[start:start + size])

    def write(self, address: int, data: bytes) -> None:
        found = self._locate(address, len(data))
        if found is None:
            self.memory.write(address, data)
        else:
            buffer, start = found
            buffer[start:start + len(data)] = data

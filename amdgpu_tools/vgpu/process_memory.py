"""Device memory that is the host program's own memory.

Under the virtual GPU the GPU virtual address of an allocation is its host
address (the thunk maps device memory with mmap and the runtime registers
host buffers in place). ``ProcessMemory`` is the executor's ``DeviceMemory``
over those bytes: each mapping the driver reports becomes an ``Allocation``
whose NumPy array views the process memory at that address, so gathers and
scatters read and write exactly what the program sees, and an address outside
every mapping is still a clean ``MemoryFault``.

Memory the executor allocates for itself (scratch backing, hostcall buffers)
is NumPy memory of this process too, registered at its real address.
"""

from __future__ import annotations

import bisect
import ctypes

import numpy as np

from ..errors import MemoryFault
from ..runtime.memory import Allocation, DeviceMemory, check_allocation_request


def host_bytes(address: int, size: int) -> np.ndarray:
    """A writable ``uint8`` view of ``size`` bytes of this process at ``address``."""
    return np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(address))


class ProcessMemory(DeviceMemory):
    """The program's mappings as device memory.

    ``lookup(address)`` (optional) returns ``(base, size, host address)`` of
    the mapping the driver knows at ``address``, or None: a range mapped while
    a kernel runs is then found on the first access instead of faulting.
    """

    def __init__(self, lookup=None):
        super().__init__()
        self._lookup = lookup
        #: NumPy buffers behind the executor's own allocations, by address
        self._owned: dict[int, np.ndarray] = {}

    # ------------------------------------------------------------ mappings
    def map(self, address: int, size: int, *, host_address: int | None = None,
            kind: str = "host", name: str = "") -> None:
        """Make ``[address, address + size)`` device memory: the process's own
        bytes there, or at ``host_address`` (a GPU alias of registered memory)."""
        if size <= 0 or self._mapped(address, size):
            return
        data = host_bytes(host_address or address, size)
        self._insert(Allocation(address, data, kind, name))

    def unmap(self, address: int) -> None:
        """Forget the mapping that starts at ``address`` (no error if unknown)."""
        try:
            DeviceMemory.free(self, address)
        except MemoryFault:
            pass

    def _mapped(self, address: int, size: int) -> bool:
        try:
            DeviceMemory.allocation_at(self, address, size)
            return True
        except MemoryFault:
            return False

    def _map_on_demand(self, address: int) -> bool:
        """Map the driver's range holding ``address``; True if there was one."""
        found = self._lookup(address) if self._lookup is not None else None
        if found is None:
            return False
        base, size, host = found
        if base == host:      # the process's own range: leave out what is mapped already
            base, size = self._unmapped_span(address, base, base + size)
            host = base
        if size <= 0 or self._mapped(base, size):
            return False
        self.map(base, size, host_address=host)
        return True

    def _unmapped_span(self, address: int, low: int, high: int) -> tuple[int, int]:
        """(start, size) of the part of ``[low, high)`` around ``address`` that no
        allocation covers (a whole heap region may hold the executor's own buffers)."""
        bases, allocations = self._bases, self._allocations
        index = bisect.bisect_right(bases, address)
        if index > 0:
            low = max(low, allocations[index - 1].end)
        if index < len(bases):
            high = min(high, bases[index])
        return low, (high - low if low <= address < high else 0)

    # ------------------------------------------- the executor's allocations
    def allocate(self, size: int, *, align: int = 256, kind: str = "global",
                 name: str = "", writable: bool = True) -> int:
        """Zeroed memory of this process, aligned to ``align``."""
        check_allocation_request(size, align)
        buffer = np.zeros(max(size, 1) + align, np.uint8)
        offset = -buffer.ctypes.data % align
        data = buffer[offset:offset + size]
        address = buffer.ctypes.data + offset
        self._owned[address] = buffer
        self._insert(Allocation(address, data, kind, name, writable))
        return address

    def free(self, address: int) -> None:
        DeviceMemory.free(self, address)
        self._owned.pop(address, None)

    # ------------------------------------------------ lookups that may map
    def allocation_at(self, address: int, size: int = 1) -> Allocation:
        try:
            return DeviceMemory.allocation_at(self, address, size)
        except MemoryFault:
            if not self._map_on_demand(address):
                raise
        return DeviceMemory.allocation_at(self, address, size)

    def _locate(self, addresses, nbytes: int, write: bool):
        try:
            return DeviceMemory._locate(self, addresses, nbytes, write)
        except MemoryFault as fault:
            if not self._map_on_demand(fault.address):
                raise
        return self._locate(addresses, nbytes, write)

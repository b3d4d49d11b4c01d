"""Device memory faults: every out-of-range access is a MemoryFault."""

import numpy as np
import pytest

from amdgpu_tools.errors import MemoryFault
from amdgpu_tools.runtime.memory import DeviceMemory


@pytest.mark.parametrize("lanes", [1, 2, 20])
def test_addresses_near_the_top_of_the_address_space_fault(lanes):
    """address + size wraps past 2**64 there; the check must not (was an IndexError)."""
    memory = DeviceMemory()
    base = memory.allocate(64)
    addresses = np.array([base, 0xFFFF_FFFF_FFFF_FFFE] * lanes, dtype=np.uint64)[-lanes:]
    with pytest.raises(MemoryFault) as fault:
        memory.gather(addresses, 4)
    assert fault.value.address == 0xFFFF_FFFF_FFFF_FFFE
    with pytest.raises(MemoryFault):
        memory.scatter(addresses, np.zeros((lanes, 4), np.uint8))


def test_accesses_inside_two_allocations_still_work():
    memory = DeviceMemory()
    first, second = memory.allocate(64), memory.allocate(64)
    memory.write(second + 60, b"\1\2\3\4")
    rows = memory.gather(np.array([first, second + 60], dtype=np.uint64), 4)
    assert rows.tolist() == [[0, 0, 0, 0], [1, 2, 3, 4]]

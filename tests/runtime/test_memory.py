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


def test_host_reads_and_writes_fault_outside_an_allocation():
    memory = DeviceMemory()
    base = memory.allocate(16)
    memory.write(base + 12, b"\1\2\3\4")
    memory.write(base, np.arange(2, dtype=np.uint32))
    assert memory.read(base, 16) == bytes([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4])
    with pytest.raises(MemoryFault):
        memory.write(base + 13, b"\1\2\3\4")
    with pytest.raises(MemoryFault):
        memory.read(base + 8, 9)
    assert memory.read(base + 12, 4) == b"\1\2\3\4"      # the failed write changed nothing


def test_pinned_structure_reads_what_memory_holds_and_faults_once_unmapped():
    import struct
    from amdgpu_tools.runtime.memory import Pinned
    memory = DeviceMemory()
    other = memory.allocate(64)
    base = memory.allocate(64)
    pinned = Pinned(memory, base + 8, 16)
    word = struct.Struct("<Q")
    pinned.pack_into(word, base + 16, 0x1122334455667788)
    assert memory.read_u64(base + 16) == 0x1122334455667788
    memory.write_u64(base + 8, 7)
    assert pinned.unpack_from(word, base + 8) == (7,)
    assert pinned.read(base + 16, 2) == b"\x88\x77"
    # outside the pinned range: the memory's own access (and its faults)
    pinned.write(base, b"\5")
    assert memory.read(base, 1) == b"\5"
    with pytest.raises(MemoryFault):
        pinned.read(base + 60, 8)
    memory.free(other)                       # another unmap: still reads its own bytes
    assert pinned.unpack_from(word, base + 8) == (7,)
    memory.free(base)
    with pytest.raises(MemoryFault):
        pinned.unpack_from(word, base + 8)
    with pytest.raises(MemoryFault):
        pinned.pack_into(word, base + 8, 1)

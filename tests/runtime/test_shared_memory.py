"""Shared device memory: what a forked worker writes, the host reads."""

import os

import numpy as np

from amdgpu_tools.exec.core import workers
from amdgpu_tools.runtime import shared_bytes
from amdgpu_tools.runtime.memory import DeviceMemory


def test_writes_of_a_forked_process_reach_the_host_in_small_and_large_allocations():
    memory = DeviceMemory(shared=True)
    small = memory.allocate(100)
    large = memory.allocate(shared_bytes.SMALL_BYTES + 4096)
    memory.write(small, bytes(range(100)))

    def work(index):
        memory.write_u32(small + 96, 0xDEADBEEF)
        memory.write(large + 4096, np.arange(16, dtype=np.uint8))
        return os.getpid(), memory.read(small, 4)
    [(child, first)] = workers.run_forked(1, work)
    assert child != os.getpid()
    assert first == bytes(range(4))
    assert memory.read_u32(small + 96) == 0xDEADBEEF
    assert memory.read(large + 4096, 16) == bytes(range(16))


def test_a_private_memory_stays_private():
    memory = DeviceMemory()
    address = memory.allocate(64)
    workers.run_forked(1, lambda index: memory.write_u32(address, 7))
    assert memory.read_u32(address) == 0


def test_small_arrays_are_zeroed_aligned_and_carved_from_one_arena():
    source = shared_bytes.SharedBytes()
    first, second = source.zeros(10), source.zeros(300)
    assert not first.any() and not second.any() and second.size == 300
    assert second.__array_interface__["data"][0] - first.__array_interface__["data"][0] == \
        shared_bytes.CARVE_ALIGN
    first[:] = 1
    assert not second.any()
    big = source.zeros(shared_bytes.SMALL_BYTES + 1)
    assert big.size == shared_bytes.SMALL_BYTES + 1 and not big.any()
    assert source.zeros(0).size == 0

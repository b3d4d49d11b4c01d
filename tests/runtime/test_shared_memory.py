"""Shared device memory: what a forked worker writes, the host reads."""

import os

import numpy as np

from amdgpu_tools.exec.core import workers
from amdgpu_tools.runtime import shared_bytes
from amdgpu_tools.runtime.memory import DeviceMemory
from amdgpu_tools.errors import MemoryFault


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


def _shmem_kib():
    """This process's resident shared-memory pages (KiB)."""
    for line in open(f"/proc/{os.getpid()}/status"):
        if line.startswith("RssShmem:"):
            return int(line.split()[1])
    raise AssertionError("no RssShmem line")


def test_a_freed_allocation_gives_its_pages_back(monkeypatch):
    monkeypatch.setattr(shared_bytes, "RECYCLE_BYTES", 32 << 20)   # (64 MiB: not kept)
    memory = DeviceMemory(shared=True)
    address = memory.allocate(64 << 20)
    memory.view(address, 64 << 20)[:] = 7               # every page touched
    before = _shmem_kib()
    memory.free(address)
    assert before - _shmem_kib() >= 60 << 10
    # small ones give back their chunk with the last of them, once left behind
    source = shared_bytes.SharedBytes()
    small = [source.zeros(shared_bytes.SMALL_BYTES) for _ in range(15)]
    for array in small:
        array[:] = 1
    rest = source.zeros(shared_bytes.SMALL_BYTES)       # the 16th fills the chunk
    rest[:] = 1
    for array in small:
        source.release(array)
    assert rest.all() and small[0].all()               # the chunk is still in use
    source.release(rest)
    assert rest.all()                                   # still the chunk being carved
    source.zeros(shared_bytes.SMALL_BYTES)              # a new chunk: the old one goes
    assert not rest.any() and not small[0].any()


def test_arrays_come_from_one_reserve_until_one_does_not_fit_there():
    source = shared_bytes.SharedBytes(reserve_bytes=64 << 20)
    first = source.zeros(100)
    assert source.epoch == 1 and source.locate(first) == (0, 0)
    large = source.zeros(20 << 20)
    index, offset = source.locate(large)
    assert index == 0 and offset % shared_bytes.PAGE_BYTES == 0
    assert source.view(index, offset, large.size).ctypes.data == large.ctypes.data
    source.zeros(30 << 20)
    assert source.epoch == 1
    source.zeros(20 << 20)                              # past the reserve: a new one
    assert source.epoch == 2
    alone = source.zeros(50 << 20)                      # more than half a reserve: alone
    assert source.epoch == 3 and source.locate(alone) is None
    assert not alone.any() and alone.size == 50 << 20


def test_a_kept_worker_adopts_allocations_made_after_its_fork():
    memory = DeviceMemory(shared=True)
    before = memory.allocate(256)
    pool_key = object()
    workers.start_pool(1, lambda index: memory.read(before, 4), key=pool_key,
                       known=(memory,))
    try:
        since = memory.mapping()
        small, large = memory.allocate(100), memory.allocate(shared_bytes.SMALL_BYTES * 2)
        empty = memory.allocate(0)
        memory.write(small, b"host")
        memory.free(before)
        update = memory.mapping_update(since)
        assert sorted(update.new) == sorted([small, large, empty])
        [report] = workers.pool_for(pool_key).run(_in_worker, (memory, update, small, large,
                                                               before), None)
        assert report == (b"host", "fault")
        assert memory.read(large + 8, 6) == b"worker"
        assert memory.mapping_update(memory.mapping()).new == {}
    finally:
        workers.close_pool()


def _in_worker(index, memory, update, small, large, freed):
    memory.adopt(update)
    memory.write(large + 8, b"worker")
    try:
        memory.read(freed, 4)
        freed_read = "mapped"
    except MemoryFault:
        freed_read = "fault"
    return memory.read(small, 4), freed_read


def test_released_large_arrays_are_handed_out_again_zeroed_for_the_same_page_count():
    source = shared_bytes.SharedBytes()
    first = source.zeros(4 << 20)
    first[:] = 9
    place = source.locate(first)
    source.release(first)
    other = source.zeros(5 << 20)                        # another size: new pages
    assert source.locate(other) != place
    again = source.zeros((4 << 20) - 100)                # the same page count
    assert source.locate(again) == place and not again.any()
    assert not first.any()                               # (the same bytes: zeroed)
    assert source.zeros(4 << 20).ctypes.data != again.ctypes.data   # one user at a time


def test_without_a_reserve_every_chunk_and_large_array_is_mapped_alone(monkeypatch):
    # (a system refusing the address space: every mapping is a new epoch)
    monkeypatch.setattr(shared_bytes._Reserve, "make", classmethod(lambda cls, size: None))
    source = shared_bytes.SharedBytes()
    small, other = source.zeros(100), source.zeros(200)
    assert source.epoch == 1 and source.locate(small) == (0, 0)
    large = source.zeros(shared_bytes.SMALL_BYTES + 1)
    assert source.epoch == 2 and source.locate(large) is None and not large.any()
    source.release(large)
    fillers = [source.zeros(shared_bytes.SMALL_BYTES) for _ in range(15)]
    for array in [small, other] + fillers:
        array[:] = 1
        source.release(array)
    assert source.epoch == 2 and small.all()            # (still the chunk being carved)
    source.zeros(shared_bytes.SMALL_BYTES)              # past the chunk: a new one, and
    assert source.epoch == 3 and not small.any()        # the old one goes


def test_scratch_is_neither_kept_nor_given_kept_pages():
    memory = DeviceMemory(shared=True)
    source = memory._shared_bytes

    def place(address):
        return source.locate(memory.allocation_at(address).data)
    buffer = memory.allocate(4 << 20)
    memory.view(buffer, 4 << 20)[:] = 1
    kept = place(buffer)
    memory.free(buffer)
    scratch = memory.allocate(4 << 20, kind="scratch")        # fresh pages, not those kept
    scratch_place = place(scratch)
    assert scratch_place != kept
    memory.view(scratch, 4 << 20)[:] = 2
    before = _shmem_kib()
    memory.free(scratch)                                       # given back at once
    assert before - _shmem_kib() >= 4 << 10
    again = memory.allocate(4 << 20)                           # the kept buffer's pages
    assert place(again) == kept and not memory.view(again, 4 << 20).any()
    # scratch mapped again takes the address space it had (zeros: its pages went back)
    scratch = memory.allocate(4 << 20, kind="scratch")
    assert place(scratch) == scratch_place and not memory.view(scratch, 4 << 20).any()

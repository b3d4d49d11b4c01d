"""Queues and the packet processor, driven through the low-level HSA-style API."""

import struct
import time

import numpy as np
import pytest

from amdgpu_tools.exec.launch import PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE
from amdgpu_tools.runtime.hsa import Agent
from amdgpu_tools.runtime.layouts import (AMD_QUEUE, AMD_SIGNAL, KERNEL_DISPATCH_PACKET,
                                          PACKET_TYPE_INVALID, PACKET_TYPE_KERNEL_DISPATCH,
                                          packet_header)
from amdgpu_tools.runtime.packets import (agent_dispatch_packet, barrier_packet,
                                          kernel_dispatch_packet)
from amdgpu_tools.runtime.queues import (HSA_STATUS_ERROR_EXCEPTION,
                                         HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, Queue,
                                         QueueError)

from .conftest import FakeExecutor, read_data


@pytest.fixture
def setup():
    executor = FakeExecutor()
    agent = Agent(None, executor)
    hello = agent.load(read_data("hello_world_v2.hsaco")).kernels["hello_world"]
    trap = agent.load(read_data("trap_v2.hsaco")).kernels["trap"]
    return agent, executor, hello, trap


def _kernarg_with_buffer(agent):
    buffer = agent.allocate(16, "coarse grained")
    kernarg = agent.allocate(8, "kernarg")
    agent.memory.write_u64(kernarg, buffer)
    return buffer, kernarg


def _dispatch(agent, queue, kernel, completion=0, barrier=False):
    buffer, kernarg = _kernarg_with_buffer(agent)
    kernel_dispatch_packet(queue, kernel.kernel_object, kernarg, (64, 1, 1), (64, 1, 1),
                           completion_signal=completion, barrier=barrier)
    return buffer


def test_queue_is_a_real_amd_queue_t(setup):
    agent, *_ = setup
    queue = agent.queue_create(64)
    fields = AMD_QUEUE.unpack(agent.memory.read(queue.address, 256))
    assert fields["base_address"] == queue.ring_address
    assert fields["size"] == 64
    assert fields["doorbell_signal"] == queue.doorbell.handle
    assert fields["group_segment_aperture_base_hi"] << 32 == SHARED_APERTURE_BASE
    assert fields["private_segment_aperture_base_hi"] << 32 == PRIVATE_APERTURE_BASE
    assert fields["features"] & 1                      # KERNEL_DISPATCH
    assert queue.load_write_index() == queue.load_read_index() == 0
    # every slot starts INVALID
    headers = [agent.memory.read_u32(queue.packet_address(i)) & 0xFF for i in range(64)]
    assert set(headers) == {PACKET_TYPE_INVALID}
    assert queue.packet_address(64) == queue.packet_address(0)


@pytest.mark.parametrize("size", [0, 3, 100, 1 << 20])
def test_queue_size_must_be_a_power_of_two(setup, size):
    agent, *_ = setup
    with pytest.raises(QueueError, match="power of two"):
        agent.queue_create(size)


def test_dispatch_by_hand_through_the_low_level_api(setup):
    """Kernarg segment, 64-byte packet with header last, doorbell, completion signal."""
    agent, executor, hello, _ = setup
    queue = agent.queue_create(64)
    done = agent.signal_create(1)
    buffer = agent.allocate(16, "coarse grained")
    kernarg = agent.allocate(8, "kernarg")
    agent.memory.write_u64(kernarg, buffer)
    index = queue.add_write_index(1)
    address = queue.packet_address(index)
    body = KERNEL_DISPATCH_PACKET.pack(
        setup=1, workgroup_size_x=64, workgroup_size_y=1, workgroup_size_z=1,
        grid_size_x=128, grid_size_y=1, grid_size_z=1, kernel_object=hello.kernel_object,
        kernarg_address=kernarg, completion_signal=done.handle)
    agent.memory.write(address + 2, body[2:])
    assert executor.requests == []
    agent.memory.write(address, packet_header(PACKET_TYPE_KERNEL_DISPATCH).to_bytes(2, "little"))
    queue.ring_doorbell(index)
    assert agent.signal_wait(done, "eq", 0, timeout=1) == 0
    assert struct.unpack("<f", agent.memory.read(buffer, 4))[0] == pytest.approx(3.14159)
    request = executor.requests[0]
    assert request.packet_address == address
    assert request.queue_address == queue.address
    assert request.kernarg_address == kernarg
    assert request.grid_size == (128, 1, 1) and request.workgroup_size == (64, 1, 1)
    assert request.setup.entry_address == hello.kernel_object + 256
    assert queue.load_read_index() == 1
    # the consumed slot is INVALID again
    assert agent.memory.read(address, 1)[0] == PACKET_TYPE_INVALID


def test_an_unpublished_packet_blocks_its_queue(setup):
    agent, executor, hello, _ = setup
    queue = agent.queue_create(64)
    done = agent.signal_create(2)
    _dispatch(agent, queue, hello, done)
    buffer, kernarg = _kernarg_with_buffer(agent)
    kernel_dispatch_packet(queue, hello.kernel_object, kernarg, (64, 1, 1), (64, 1, 1),
                           completion_signal=done, ring=False)
    # make the second packet INVALID, as if its producer had not written the header yet
    second = queue.packet_address(1)
    header = agent.memory.read(second, 2)
    agent.memory.write(second, packet_header(PACKET_TYPE_INVALID).to_bytes(2, "little"))
    queue.ring_doorbell(1)
    assert done.load() == 1 and queue.load_read_index() == 1
    agent.memory.write(second, header)
    queue.ring_doorbell(1)
    assert done.load() == 0 and queue.load_read_index() == 2


def test_barrier_and_orders_work_across_two_queues(setup):
    agent, executor, hello, _ = setup
    first, second = agent.queue_create(64), agent.queue_create(64)
    produced = agent.signal_create(1)
    other = agent.signal_create(0)          # already satisfied dependency
    finished = agent.signal_create(1)
    # queue 0 waits for a kernel that queue 1 has not even received yet
    barrier_packet(first, [produced, other])
    _dispatch(agent, first, hello, finished)
    assert executor.names == [] and first.load_read_index() == 0
    _dispatch(agent, second, hello, produced)
    assert produced.load() == 0
    assert agent.signal_wait(finished, "eq", 0, timeout=1) == 0
    order = [(e.queue_id, e.packet_type) for e in agent.processor.events if e.phase == "complete"]
    assert order == [(1, 2), (0, 3), (0, 2)]


def test_barrier_and_needs_every_dependency(setup):
    agent, executor, hello, _ = setup
    queue = agent.queue_create(64)
    a, b = agent.signal_create(1), agent.signal_create(1)
    done = agent.signal_create(1)
    barrier_packet(queue, [a, b], done)
    a.store(0)
    assert done.load() == 1                 # b still 1
    b.store(0)                              # a host store wakes the packet processor
    assert done.load() == 0


def test_barrier_or_needs_any_dependency(setup):
    agent, executor, hello, _ = setup
    first, second = agent.queue_create(64), agent.queue_create(64)
    a, b = agent.signal_create(1), agent.signal_create(1)
    finished = agent.signal_create(1)
    barrier_packet(first, [a, b], any_of=True)
    _dispatch(agent, first, hello, finished)
    assert executor.names == []
    _dispatch(agent, second, hello, b)      # only b reaches zero
    assert a.load() == 1 and b.load() == 0
    assert finished.load() == 0
    assert executor.names == ["hello_world", "hello_world"]


def test_barrier_with_no_dependencies_completes_at_once(setup):
    agent, *_ = setup
    queue = agent.queue_create(64)
    done = agent.signal_create(1)
    barrier_packet(queue, [], done)
    assert done.load() == 0


def test_completion_signal_is_decremented_once_per_packet(setup):
    agent, executor, hello, _ = setup
    queue = agent.queue_create(64)
    done = agent.signal_create(5)
    for _ in range(3):
        _dispatch(agent, queue, hello, done)
    assert done.load() == 2
    assert len(executor.requests) == 3
    assert [r.dispatch_id for r in executor.requests] == [0, 1, 2]


def test_completion_signal_gets_the_packets_active_phase_as_timestamps(setup):
    agent, _, hello, _ = setup
    queue = agent.queue_create(64)
    done = agent.signal_create(1)
    before = time.monotonic_ns()
    _dispatch(agent, queue, hello, done.handle)
    after = time.monotonic_ns()
    start, end = AMD_SIGNAL.read_fields(agent.memory, done.handle, ("start_ts", "end_ts"))
    assert before <= start <= end <= after
    assert AMD_SIGNAL.read(agent.memory, done.handle, "value") == 0


def test_barrier_bit_packet_launches_after_earlier_packets_complete(setup):
    agent, executor, hello, _ = setup
    queue = agent.queue_create(64)
    _dispatch(agent, queue, hello)
    _dispatch(agent, queue, hello, barrier=True)
    phases = [(e.index, e.phase) for e in agent.processor.events]
    assert phases == [(0, "launch"), (0, "active"), (0, "complete"),
                      (1, "launch+barrier"), (1, "active"), (1, "complete")]


def test_fault_puts_only_its_queue_in_the_error_state(setup):
    agent, executor, hello, trap = setup
    reports = []
    broken = agent.queue_create(64, callback=lambda status, queue, error:
                                reports.append((status, queue.id, error)))
    healthy = agent.queue_create(64)
    broken_done, healthy_done = agent.signal_create(2), agent.signal_create(1)
    trap_buffer = _dispatch(agent, broken, trap, broken_done)
    later_buffer = _dispatch(agent, broken, hello, broken_done)
    assert broken.state == Queue.ERROR
    assert len(reports) == 1
    status, queue_id, error = reports[0]
    assert status == HSA_STATUS_ERROR_EXCEPTION and queue_id == broken.id
    assert "kernel 'trap'" in str(error) and "s_trap 2" in str(error) and "wave 0" in str(error)
    assert agent.memory.read_u32(trap_buffer) == 1          # it ran up to the trap
    assert agent.memory.read_u32(later_buffer) == 0         # the later packet never ran
    assert broken.load_read_index() == 0 and broken_done.load() == 2
    healthy_buffer = _dispatch(agent, healthy, hello, healthy_done)
    assert healthy_done.load() == 0
    assert struct.unpack("<f", agent.memory.read(healthy_buffer, 4))[0] == pytest.approx(3.14159)
    assert executor.names == ["trap", "hello_world"]


def test_agent_dispatch_calls_the_registered_function(setup):
    agent, *_ = setup
    queue = agent.queue_create(64)
    agent.register_agent_function(0x8000, lambda a, b, c, d: a * b + c + d)
    result = agent.allocate(8, "fine grained")
    done = agent.signal_create(1)
    agent_dispatch_packet(queue, 0x8000, (6, 7, 8, 9), result, done)
    assert done.load() == 0
    assert agent.memory.read_u64(result) == 59


def test_unknown_packet_type_is_an_invalid_packet_format_error(setup):
    agent, *_ = setup
    statuses = []
    queue = agent.queue_create(64, callback=lambda status, q, error: statuses.append(status))
    index = queue.add_write_index(1)
    agent.memory.write(queue.packet_address(index), (0).to_bytes(2, "little"))  # vendor specific
    queue.ring_doorbell(index)
    assert statuses == [HSA_STATUS_ERROR_INVALID_PACKET_FORMAT]


def test_unknown_kernel_object_is_an_error(setup):
    agent, *_ = setup
    statuses = []
    queue = agent.queue_create(64, callback=lambda status, q, error: statuses.append(status))
    kernel_dispatch_packet(queue, 0xDEAD000, 0, (64, 1, 1), (64, 1, 1))
    assert queue.state == Queue.ERROR and "not a loaded kernel" in str(queue.error)


def test_inactive_queue_processes_nothing(setup):
    agent, executor, hello, _ = setup
    queue = agent.queue_create(64)
    queue.inactivate()
    _dispatch(agent, queue, hello)
    assert executor.requests == [] and queue.load_read_index() == 0


def test_queue_destroy_unmaps_it(setup):
    agent, *_ = setup
    queue = agent.queue_create(64)
    addresses = {queue.address, queue.ring_address, queue.doorbell.handle}
    agent.queue_destroy(queue)
    mapped = {a.address for a in agent.memory.allocations()}
    assert not addresses & mapped
    assert queue not in agent.processor.queues


def test_ring_wraps_around(setup):
    agent, executor, hello, _ = setup
    queue = agent.queue_create(1 << 2)   # hsa allows tiny rings here: 4 slots
    done = agent.signal_create(10)
    for _ in range(10):
        _dispatch(agent, queue, hello, done)
    assert done.load() == 0 and queue.load_read_index() == 10
    assert len(np.unique([r.packet_address for r in executor.requests])) == 4


def test_a_bad_signal_handle_is_an_invalid_signal_error(setup):
    agent, *_ = setup
    statuses = []
    queue = agent.queue_create(64, callback=lambda status, q, error: statuses.append(status))
    barrier_packet(queue, [0x7777_0000])       # not a signal: unmapped memory
    assert statuses == [0x1006]                 # HSA_STATUS_ERROR_INVALID_SIGNAL
    assert "bad signal handle" in str(queue.error)


def test_unknown_kernel_object_status(setup):
    agent, *_ = setup
    statuses = []
    queue = agent.queue_create(64, callback=lambda status, q, error: statuses.append(status))
    kernel_dispatch_packet(queue, 0xDEAD000, 0, (64, 1, 1), (64, 1, 1))
    assert statuses == [0x1010]                 # HSA_STATUS_ERROR_INVALID_CODE_OBJECT


def test_memory_copy_fill_and_unload(setup):
    agent, executor, hello, _ = setup
    source = agent.allocate(64, "fine grained")
    target = agent.allocate(64, "coarse grained")
    agent.memory_fill(source, 0xDEADBEEF, 16)
    agent.memory_copy(target, source, 64)
    assert agent.memory.read(target, 64) == bytes.fromhex("efbeadde") * 16
    loaded = agent.code_objects[0]
    agent.unload(loaded)
    statuses = []
    queue = agent.queue_create(64, callback=lambda status, q, error: statuses.append(status))
    kernel_dispatch_packet(queue, hello.kernel_object, 0, (64, 1, 1), (64, 1, 1))
    assert statuses == [0x1010] and executor.requests == []

"""Recovery after a kernel fault: the error is raised once, by the launch that
caused it; the next launch runs on a fresh queue; memory keeps its contents."""

import os

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.asm import assemble
from amdgpu_tools.errors import KernelError
from amdgpu_tools.runtime.api import kernarg_allocation_size
from amdgpu_tools.runtime.kernargs import Geometry, HiddenContext, build_kernarg_segment
from amdgpu_tools.runtime.layouts import KERNEL_DISPATCH_PACKET, PACKET_TYPE_KERNEL_DISPATCH
from amdgpu_tools.runtime.packets import publish
from amdgpu_tools.runtime.queues import Queue, QueueError

from .conftest import read_data

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples")


@pytest.fixture(scope="module")
def vector_add_object():
    with open(os.path.join(SAMPLES, "vector_add.s")) as handle:
        return assemble(handle.read(), target="gfx900")


def _vadd(device, vector_add_object):
    return device.load(vector_add_object)["vector_add"]


def test_a_fault_is_raised_once_and_the_next_launch_runs(vector_add_object):
    device = Device()
    vadd = _vadd(device, vector_add_object)
    kept = device.array(np.arange(16, dtype=np.float32))
    small = device.zeros(4, np.float32)
    with pytest.raises(KernelError, match="memory fault") as first:
        vadd(small, small, small, np.int32(1 << 16), grid=1 << 16, block=64)
    failed = device.queue
    assert failed.state == Queue.ERROR
    device.synchronize()                       # already raised: not raised again
    a = device.array(np.arange(64, dtype=np.float32))
    c = device.zeros(64, np.float32)
    vadd(a, a, c, np.int32(64), grid=64, block=64)
    np.testing.assert_array_equal(c.numpy(), 2 * np.arange(64, dtype=np.float32))
    assert device.queue is not failed and device.queue.state == Queue.ACTIVE
    assert failed not in device.agent.processor.queues        # destroyed when replaced
    np.testing.assert_array_equal(kept.numpy(), np.arange(16, dtype=np.float32))
    # a new fault is a new error (its own address), never the stale one
    with pytest.raises(KernelError) as second:
        vadd(a, a, a, np.int32(1 << 20), grid=1 << 20, block=64)
    assert second.value is not first.value and second.value.address != first.value.address
    vadd(a, a, c, np.int32(64), grid=64, block=64)


def test_memory_written_before_a_trap_survives():
    device = Device()
    program = device.load(read_data("trap_v2.hsaco"))
    out = device.zeros(4, np.int32)
    with pytest.raises(KernelError, match="s_trap"):
        program["trap"](out, grid=64, block=64)
    assert out.numpy().tolist() == [1, 0, 0, 0]
    with pytest.raises(KernelError, match="s_trap"):      # runs again, fails again
        program["trap"](out, grid=64, block=64)
    hello = device.load(read_data("hello_world_v2.hsaco"))["hello_world"]
    result = device.zeros(4, np.float32)
    hello(result, grid=64, block=64)
    assert result.numpy()[0] == np.float32(3.14159)


def test_an_own_queue_stays_failed_until_reset(vector_add_object):
    device = Device()
    vadd = _vadd(device, vector_add_object)
    statuses = []
    queue = device.create_queue(64, callback=lambda status, q, error: statuses.append(status))
    small = device.zeros(4, np.float32)
    with pytest.raises(KernelError):
        vadd(small, small, small, np.int32(1 << 16), grid=1 << 16, block=64, queue=queue)
    assert statuses == [0x29]                   # HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
    with pytest.raises(QueueError, match=r"queue \d+ is error .*Device.reset\(\)"):
        vadd(small, small, small, np.int32(4), grid=64, block=64, queue=queue)
    device.synchronize()                        # reported once already
    device.reset()
    assert queue not in device.agent.processor.queues
    vadd(small, small, small, np.int32(4), grid=64, block=64)   # the default queue is fine
    assert device.queue.state == Queue.ACTIVE


def test_packets_behind_a_failed_packet_are_reported_as_not_run():
    """Another producer's packet fails first: this launch says its own packet
    was not run; the other packet's error is raised by synchronize, once."""
    device = Device()
    trap = device.load(read_data("trap_v2.hsaco")).loaded.kernels["trap"]
    hello = device.load(read_data("hello_world_v2.hsaco"))["hello_world"]
    out = device.zeros(4, np.int32)
    geometry = Geometry((64, 1, 1), (64, 1, 1), 1)
    segment = build_kernarg_segment(trap, [out.address.to_bytes(8, "little")], geometry,
                                    HiddenContext(queue_address=device.queue.address))
    kernarg = device.agent.allocate(kernarg_allocation_size(len(segment)), "kernarg")
    device.memory.write(kernarg, segment)
    queue = device.queue
    # published without ringing the doorbell: the next doorbell runs it first
    publish(queue, KERNEL_DISPATCH_PACKET, PACKET_TYPE_KERNEL_DISPATCH, barrier=True, ring=False,
            setup=1, workgroup_size_x=64, workgroup_size_y=1, workgroup_size_z=1,
            grid_size_x=64, grid_size_y=1, grid_size_z=1, kernel_object=trap.kernel_object,
            kernarg_address=kernarg)
    result = device.zeros(4, np.float32)
    with pytest.raises(QueueError, match="kernel 'hello_world' was not run: .*kernel 'trap'"):
        hello(result, grid=64, block=64)
    assert result.numpy()[0] == 0 and out.numpy()[0] == 1
    with pytest.raises(KernelError, match="s_trap"):
        device.synchronize()
    device.synchronize()                        # raised once
    hello(result, grid=64, block=64)
    assert result.numpy()[0] == np.float32(3.14159)

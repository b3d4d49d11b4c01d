"""The high-level API over a fake executor: kernarg layout, hidden arguments,
argument and geometry checks, kernel errors, printf."""

import io
import struct
from types import SimpleNamespace

import numpy as np
import pytest

from amdgpu_tools import Device, LocalMemory
from amdgpu_tools.errors import KernelError, LaunchError
from amdgpu_tools.exec.launch import PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE
from amdgpu_tools.runtime.kernargs import Geometry, HiddenContext, build_kernarg_segment
from amdgpu_tools.runtime.layouts import KERNEL_DISPATCH_PACKET
from amdgpu_tools.elf.metadata import KernelArg as ArgMetadata
from amdgpu_tools.runtime.queues import Queue

from .conftest import FakeExecutor, read_data


def _capture(store):
    """A kernel model that keeps a copy of its kernarg segment and packet."""
    def model(request):
        store["packet"] = KERNEL_DISPATCH_PACKET.unpack(request.memory.read(request.packet_address, 64))
        store["request"] = request
        size = request.memory.allocation_at(request.kernarg_address).size
        store["kernarg"] = request.memory.read(request.kernarg_address, size)
    return model


def _device(name, **models):
    executor = FakeExecutor(**models)
    device = Device(executor=executor)
    return device, device.load(read_data(name)), executor


def test_vadd_end_to_end_through_the_queue():
    device, program, executor = _device("kernels_v4_gfx900.hsaco")
    a = device.array(np.arange(100, dtype=np.float32))
    b = device.array(np.full(100, 0.5, np.float32))
    c = device.zeros(100, np.float32)
    program["vadd"](a, b, c, np.int32(100), grid=(128,), block=(64,))
    device.synchronize()
    np.testing.assert_array_equal(c.numpy(), np.arange(100, dtype=np.float32) + 0.5)
    request = executor.requests[0]
    assert request.grid_size == (128, 1, 1) and request.workgroup_size == (64, 1, 1)
    assert request.queue_address == device.queue.address


def test_v5_hidden_arguments_at_their_offsets():
    seen = {}
    device, program, _ = _device("kernels_v5_gfx900.hsaco", geometry=_capture(seen))
    out = device.zeros(8, np.uint32)
    program["geometry"](out, grid=(100, 3), block=(32, 1))
    raw = seen["kernarg"]
    u32 = lambda off: struct.unpack_from("<I", raw, off)[0]
    u16 = lambda off: struct.unpack_from("<H", raw, off)[0]
    assert struct.unpack_from("<Q", raw, 0)[0] == out.address
    assert (u32(8), u32(12), u32(16)) == (3, 3, 1)              # hidden_block_count_x/y/z
    assert (u16(20), u16(22), u16(24)) == (32, 1, 1)            # hidden_group_size_x/y/z
    assert (u16(26), u16(28), u16(30)) == (4, 0, 0)             # hidden_remainder_x/y/z
    assert struct.unpack_from("<3Q", raw, 48) == (0, 0, 0)      # hidden_global_offset_x/y/z
    assert u16(72) == 2                                         # hidden_grid_dims
    packet = seen["packet"]
    assert packet["setup"] == 2
    assert (packet["grid_size_x"], packet["grid_size_y"]) == (100, 3)


def test_v4_hidden_global_offsets_and_explicit_args():
    seen = {}
    device, program, _ = _device("kernels_v4_gfx900.hsaco", fill64=_capture(seen))
    out = device.zeros(64, np.int64)
    program["fill64"](out, np.int64(-7), grid=64, block=64)
    raw = seen["kernarg"]
    assert struct.unpack_from("<Qq", raw, 0) == (out.address, -7)
    assert struct.unpack_from("<3Q", raw, 16) == (0, 0, 0)


def test_every_hidden_kind_gets_its_value():
    kinds = ["hidden_global_offset_x", "hidden_printf_buffer", "hidden_hostcall_buffer",
             "hidden_heap_v1", "hidden_default_queue", "hidden_completion_action",
             "hidden_multigrid_sync_arg", "hidden_queue_ptr", "hidden_private_base",
             "hidden_shared_base", "hidden_dynamic_lds_size", "hidden_none",
             "hidden_grid_dims", "hidden_block_count_z", "hidden_remainder_x"]
    args = tuple(ArgMetadata(offset=8 * i, size=8, value_kind=k) for i, k in enumerate(kinds))
    kernel = SimpleNamespace(name="k", args=args, kernarg_size=8 * len(kinds),
                             explicit_args=(), hidden_args=args)
    context = HiddenContext(queue_address=0x1234, printf_buffer=0x5000, hostcall_buffer=0x6000,
                            heap=0x7000, dynamic_lds_size=96)
    raw = build_kernarg_segment(kernel, [], Geometry((100, 8, 6), (64, 4, 4), 3), context)
    values = dict(zip(kinds, struct.unpack(f"<{len(kinds)}Q", raw)))
    assert values == {
        "hidden_global_offset_x": 0, "hidden_printf_buffer": 0x5000,
        "hidden_hostcall_buffer": 0x6000, "hidden_heap_v1": 0x7000,
        "hidden_default_queue": 0, "hidden_completion_action": 0,
        "hidden_multigrid_sync_arg": 0, "hidden_queue_ptr": 0x1234,
        "hidden_private_base": PRIVATE_APERTURE_BASE >> 32,
        "hidden_shared_base": SHARED_APERTURE_BASE >> 32,
        "hidden_dynamic_lds_size": 96, "hidden_none": 0, "hidden_grid_dims": 3,
        "hidden_block_count_z": 1, "hidden_remainder_x": 36}


def test_local_memory_adds_to_the_dynamic_group_segment():
    seen = {}
    device, program, _ = _device("kernels_v5_gfx900.hsaco", reduce=_capture(seen))
    kernel = program.kernels["reduce"]
    data = device.array(np.arange(256, dtype=np.int32))
    out = device.zeros(4, np.int32)
    program["reduce"](data, out, LocalMemory(64 * 4), grid=256, block=64)
    assert seen["packet"]["group_segment_size"] == kernel.group_segment_fixed_size + 256
    assert seen["request"].group_segment_size == kernel.group_segment_fixed_size + 256
    lds_offset = struct.unpack_from("<I", seen["kernarg"], 16)[0]
    assert lds_offset == (kernel.group_segment_fixed_size + 3) // 4 * 4


def test_raw_arguments_without_metadata():
    seen = {}
    device, program, executor = _device("hello_world_v2.hsaco")
    out = device.zeros(4, np.float32)
    program["hello_world"](out, grid=64, block=64)
    assert out.numpy()[0] == pytest.approx(3.14159)
    assert executor.requests[0].kernel_name == "hello_world"
    with pytest.raises(LaunchError, match="no metadata"):
        program["hello_world"](12, grid=64, block=64)


@pytest.mark.parametrize("args,message", [
    (lambda d: (d.a, d.a, d.c), r"takes 4 argument\(s\).*got 3"),
    (lambda d: (d.a, d.a, d.c, np.int32(1), np.int32(1)), r"takes 4 argument\(s\)"),
    (lambda d: (d.a, np.int32(1), d.c, np.int32(1)), r"argument 1 \(float\*\).*expects a device buffer, got int32"),
    (lambda d: (d.a, d.a, d.c, np.int64(1)), r"argument 3 \(int\).*is 4 bytes, got a 8-byte value"),
    (lambda d: (d.a, d.a, d.c, np.float32(1)), r"argument 3 \(int\).*integer.*float32"),
    (lambda d: (d.a, d.a, d.c, 5), r"argument 3 \(int\).*expects a NumPy scalar"),
    (lambda d: (d.a, d.a, d.c, d.a), r"argument 3 \(int\).*passed by value"),
    (lambda d: (d.a, d.a, LocalMemory(4), np.int32(1)), r"argument 2.*expects a device buffer"),
])
def test_argument_checks_name_the_argument(args, message):
    device, program, executor = _device("kernels_v4_gfx900.hsaco")
    device.a = device.zeros(4, np.float32)
    device.c = device.zeros(4, np.float32)
    with pytest.raises(LaunchError, match=message) as info:
        program["vadd"](*args(device), grid=4, block=4)
    assert isinstance(info.value, TypeError)
    assert executor.requests == []


def test_local_pointer_needs_local_memory():
    device, program, _ = _device("kernels_v5_gfx900.hsaco")
    a = device.zeros(64, np.int32)
    with pytest.raises(LaunchError, match=r"__local pointer and expects LocalMemory"):
        program["reduce"](a, a, a, grid=64, block=64)
    with pytest.raises(LaunchError, match="LDS per work-group: 65540 bytes .* the limit is 65536"):
        program["reduce"](a, a, LocalMemory(65540), grid=64, block=64)


@pytest.mark.parametrize("grid,block,message", [
    (0, 64, r"grid \(0,\) out of range"),
    (64, 0, r"block \(0,\) out of range"),
    (64, 2048, r"work-group size in x: 2048 work-items requested, the limit is 1024 .*block"),
    ((64, 1, 1, 1), 64, "1 to 3 dimensions"),
    (64, (16, 16, 2), r"work-group size: 512 work-items requested, the limit is 256 work-items "
                      r"\(block \(16, 16, 2\); kernel 'vadd' allows at most 256"),
    (1 << 32, 64, "grid size in x: 4294967296 work-items requested, the limit is 4294967295"),
    ((1 << 16, 1 << 16, 2), 64, "grid size: 8589934592 work-items requested"),
    (64.0, 64, "out of range"),
])
def test_geometry_checks(grid, block, message):
    device, program, executor = _device("kernels_v4_gfx900.hsaco")
    a = device.zeros(4, np.float32)
    with pytest.raises(LaunchError, match=message):
        program["vadd"](a, a, a, np.int32(4), grid=grid, block=block)
    assert executor.requests == []


def test_kernel_error_raises_and_leaves_the_queue_in_error():
    device, program, executor = _device("trap_v2.hsaco")
    out = device.zeros(4, np.int32)
    with pytest.raises(KernelError) as info:
        program["trap"](out, grid=64, block=64)
    text = str(info.value)
    for part in ("kernel 'trap'", "wave 0", "pc 0x", "'s_trap 2'", "s_trap 2 (kernel error)"):
        assert part in text
    assert device.queue.state == Queue.ERROR
    device.synchronize()                 # raised by the launch already: not again
    failed = device.queue
    with pytest.raises(KernelError) as again:   # runs again on a fresh queue, fails anew
        program["trap"](out, grid=64, block=64)
    assert again.value is not info.value and device.queue is not failed
    assert len(executor.requests) == 2


def test_printf_records_are_printed_after_the_dispatch():
    def hello(request):
        memory = request.memory
        buffer = memory.read_u64(request.kernarg_address + 40)
        capacity = memory.read_u32(buffer + 4)
        assert capacity > 1000
        k = struct.unpack("<i", memory.read(request.kernarg_address + 8, 4))[0]
        for i in range(2):
            offset = memory.read_u32(buffer)
            record = struct.pack("<Iif4s", 1, i + k, 1.5, b"ok\0\0")
            memory.write(buffer + 8 + offset, record)
            memory.write_u32(buffer, offset + len(record))

    stream = io.StringIO()
    executor = FakeExecutor(hello=hello)
    device = Device(executor=executor, printf_stream=stream)
    program = device.load(read_data("kernels_v2_gfx803.hsaco"))
    out = device.zeros(64, np.int32)
    program["hello"](out, np.int32(7), grid=64, block=64)
    assert stream.getvalue() == "hello 7 1.500000 ok\nhello 8 1.500000 ok\n"


def test_buffers_round_trip():
    device = Device(executor=FakeExecutor())
    data = np.arange(12, dtype=np.int16).reshape(3, 4)
    buffer = device.array(data)
    assert buffer.shape == (3, 4) and buffer.nbytes == 24
    np.testing.assert_array_equal(buffer.numpy(), data)
    empty = device.empty((2, 2), np.float64)
    np.testing.assert_array_equal(empty.numpy(), np.zeros((2, 2)))
    with pytest.raises(LaunchError, match="cannot write"):
        buffer.write(np.zeros(3, np.int16))


def test_dynamic_stack_kernels_get_extra_private_memory():
    import dataclasses
    from amdgpu_tools.runtime.api import Kernel
    from amdgpu_tools.elf.metadata import kernels_from_notes
    from amdgpu_tools.elf.notes import amdgpu_metadata_note
    import msgpack
    document = {"amdhsa.kernels": [{".name": "k", ".symbol": "k.kd", ".args": [],
                                    ".uses_dynamic_stack": True}]}
    note = amdgpu_metadata_note(msgpack.packb(document))
    assert kernels_from_notes([note])[0].uses_dynamic_stack
    device, program, executor = _device("kernels_v4_gfx900.hsaco")
    info = program.kernels["fill64"]
    assert not info.uses_dynamic_stack
    stacked = dataclasses.replace(info, uses_dynamic_stack=True)
    out = device.zeros(64, np.int64)
    Kernel(device, stacked)(out, np.int64(0), grid=64, block=64)
    Kernel(device, info)(out, np.int64(0), grid=64, block=64)
    sizes = [r.private_segment_size for r in executor.requests]
    assert sizes == [info.private_segment_fixed_size + 1024, info.private_segment_fixed_size]


def test_a_blocked_queue_is_reported_and_keeps_the_packet_memory():
    from amdgpu_tools.errors import ToolchainError
    from amdgpu_tools.runtime.packets import barrier_packet
    device, program, executor = _device("hello_world_v2.hsaco")
    gate = device.agent.signal_create(1)
    barrier_packet(device.queue, [gate])           # a hand-written barrier blocks the queue
    out = device.zeros(4, np.float32)
    with pytest.raises(ToolchainError, match="did not complete.*blocked"):
        program["hello_world"](out, grid=64, block=64)
    assert executor.requests == []
    gate.store(0)                                   # the queue drains: the packet still works
    assert out.numpy()[0] == pytest.approx(3.14159)


def test_failed_argument_encoding_leaks_nothing():
    device, program, _ = _device("kernels_v2_gfx803.hsaco")
    before = len(device.memory.allocations())
    out = device.zeros(4, np.int32)
    with pytest.raises(LaunchError):
        program["hello"](out, np.int64(1), grid=64, block=64)
    program["hello"](out, np.int32(1), grid=64, block=64)
    assert len(device.memory.allocations()) == before + 1   # only the user's buffer


def test_kernels_on_a_second_queue_survive_an_error_on_the_first():
    executor = FakeExecutor()
    device = Device(executor=executor)
    trap = device.load(read_data("trap_v2.hsaco"))["trap"]
    hello = device.load(read_data("hello_world_v2.hsaco"))["hello_world"]
    statuses = []
    other = device.create_queue(64, callback=lambda status, q, error: statuses.append(status))
    out = device.zeros(4, np.float32)
    with pytest.raises(KernelError):
        trap(out, grid=64, block=64)
    hello(out, grid=64, block=64, queue=other)
    assert out.numpy()[0] == pytest.approx(3.14159)
    assert device.queue.state == Queue.ERROR and other.state == Queue.ACTIVE
    assert statuses == []


def test_symbol_addresses_of_loaded_globals():
    device = Device(executor=FakeExecutor())
    program = device.load(read_data("abs64_v5.hsaco"))
    value = program.symbol_address("value")
    assert device.memory.read_u64(program.symbol_address("table")) == value
    assert struct.unpack("<2i", device.memory.read(value, 8)) == (1, 2)
    with pytest.raises(LaunchError, match="no symbol named 'nothing'"):
        program.symbol_address("nothing")


def test_absolute_symbols_are_not_moved_by_the_load_base():
    """SHN_ABS symbols are constants (was: load base + value)."""
    import os

    from amdgpu_tools.asm import assemble
    samples = os.path.join(os.path.dirname(__file__), "..", "..", "samples")
    with open(os.path.join(samples, "hello_world.s")) as handle:
        source = handle.read() + "\n.globl abs_sym\n.set abs_sym, 0x1234\n"
    program = Device().load(assemble(source, target="gfx900"))
    assert program.symbol_address("abs_sym") == 0x1234
    with pytest.raises(LaunchError, match="no symbol named 'nowhere'"):
        program.symbol_address("nowhere")

"""Layouts compiled to struct formats read and write the bytes the C structs hold."""

import pytest

from amdgpu_tools.runtime.layouts import AMD_QUEUE, AMD_SIGNAL, KERNEL_DISPATCH_PACKET, Layout
from amdgpu_tools.runtime.memory import DeviceMemory


def _by_hand(layout, raw, name):
    offset, size, signed = layout.fields[name]
    return int.from_bytes(raw[offset:offset + size], "little", signed=signed)


def test_pack_places_each_field_and_masks_it_to_its_size():
    raw = KERNEL_DISPATCH_PACKET.pack(setup=3, workgroup_size_x=0x1_0040, grid_size_y=-1,
                                      kernel_object=0x1234_5678_9ABC, completion_signal=5)
    assert len(raw) == 64
    assert _by_hand(KERNEL_DISPATCH_PACKET, raw, "setup") == 3
    assert _by_hand(KERNEL_DISPATCH_PACKET, raw, "workgroup_size_x") == 0x40
    assert _by_hand(KERNEL_DISPATCH_PACKET, raw, "grid_size_y") == 0xFFFFFFFF
    assert _by_hand(KERNEL_DISPATCH_PACKET, raw, "kernel_object") == 0x1234_5678_9ABC
    assert raw[48:56] == bytes(8)                 # reserved bytes stay zero
    assert KERNEL_DISPATCH_PACKET.unpack(raw) == {
        name: _by_hand(KERNEL_DISPATCH_PACKET, raw, name) for name in KERNEL_DISPATCH_PACKET.fields}
    with pytest.raises(KeyError):
        KERNEL_DISPATCH_PACKET.pack(no_such_field=1)


def test_signed_fields_read_signed_and_write_any_value_masked():
    memory = DeviceMemory()
    signal = memory.allocate(64)
    AMD_SIGNAL.write(memory, signal, "value", -2)
    assert AMD_SIGNAL.read(memory, signal, "value") == -2
    AMD_SIGNAL.write(memory, signal, "value", (1 << 64) - 3)
    assert AMD_SIGNAL.read(memory, signal, "value") == -3
    assert memory.read_u64(signal + 8) == (1 << 64) - 3
    assert AMD_SIGNAL.load(memory, signal)["value"] == -3


def test_read_fields_gives_the_values_in_the_order_asked():
    memory = DeviceMemory()
    queue = memory.allocate(256)
    AMD_QUEUE.write(memory, queue, "read_dispatch_id", 5)
    AMD_QUEUE.write(memory, queue, "write_dispatch_id", 9)
    AMD_QUEUE.write(memory, queue, "size", 64)
    assert AMD_QUEUE.read_fields(memory, queue, ("read_dispatch_id", "write_dispatch_id")) == (5, 9)
    assert AMD_QUEUE.read_fields(memory, queue, ("size", "read_dispatch_id")) == (64, 5)


def test_overlapping_fields_are_a_definition_error():
    with pytest.raises(ValueError, match="overlaps"):
        Layout("bad", 16, 8, {"a": (0, 8, False), "b": (4, 4, False)})


def test_a_span_of_neighbours_writes_them_at_once_and_nothing_else():
    memory = DeviceMemory()
    signal = memory.allocate(64)
    memory.write(signal, bytes(range(1, 65)))
    offset, span = AMD_SIGNAL.span(("start_ts", "end_ts"))
    memory.pack_into(span, signal + offset, 7, 1 << 63)
    assert AMD_SIGNAL.read_fields(memory, signal, ("start_ts", "end_ts")) == (7, 1 << 63)
    raw = memory.read(signal, 64)
    start = AMD_SIGNAL.offset("start_ts")
    assert offset == start and raw[:start] + raw[start + 16:] == \
        bytes(range(1, start + 1)) + bytes(range(start + 17, 65))
    with pytest.raises(ValueError, match="neighbours"):
        AMD_SIGNAL.span(("end_ts", "start_ts"))
    with pytest.raises(ValueError, match="neighbours"):
        AMD_SIGNAL.span(("kind", "start_ts"))

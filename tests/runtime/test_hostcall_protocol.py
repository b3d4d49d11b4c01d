"""The hostcall buffer and message protocol, driven by a Python model of the
device side (ockl's hostcall_impl.cl): pop a free packet, fill it, push it
on the ready stack, let the host serve it, read the answers, free it."""

import io
import struct

import pytest

from amdgpu_tools.runtime.hostcall import (
    HOSTCALL_BUFFER, HOSTCALL_HEADER, LANES, PAYLOAD_BYTES, SERVICE_DEVMEM, SERVICE_PRINTF,
    Hostcall, HostcallError, resident_waves)
from amdgpu_tools.exec.core.dispatch import MAX_BATCH_WAVES
from amdgpu_tools.runtime.kernargs import Geometry
from amdgpu_tools.runtime.memory import DeviceMemory
from amdgpu_tools.runtime.printf import format_printf

BEGIN, END = 1, 2


class DeviceSide:
    """What a wave does with the buffer, step by step, from the kernel's view."""

    def __init__(self, hostcall):
        self.memory = hostcall.memory
        self.base = hostcall.address
        self.hostcall = hostcall

    def field(self, name):
        return HOSTCALL_BUFFER.read(self.memory, self.base, name)

    def set_field(self, name, value):
        HOSTCALL_BUFFER.write(self.memory, self.base, name, value)

    def header(self, index):
        return self.field("headers") + index * HOSTCALL_HEADER.size

    def index(self, pointer):
        return pointer & self.field("index_mask")

    def call(self, service, slots):
        """One hostcall from the lanes in ``slots`` (lane -> up to 8 ulongs);
        returns lane -> (first, second) answer ulong."""
        pointer = self.field("free_stack")
        assert pointer != 0, "free stack exhausted"
        index = self.index(pointer)
        self.set_field("free_stack", HOSTCALL_HEADER.read(self.memory, self.header(index), "next"))
        mask = sum(1 << lane for lane in slots)
        self.memory.write(self.header(index) + 8, HOSTCALL_HEADER.pack(
            activemask=mask, service=service, control=1)[8:])
        payload = self.field("payloads") + index * PAYLOAD_BYTES
        for lane, words in slots.items():
            self.memory.write(payload + lane * 64, struct.pack("<8Q", *(list(words) + [0] * 8)[:8]))
        HOSTCALL_HEADER.write(self.memory, self.header(index), "next", self.field("ready_stack"))
        self.set_field("ready_stack", pointer)
        self.memory.write_u64(self.field("doorbell") + 8,
                              self.memory.read_u64(self.field("doorbell") + 8) + 1)
        assert self.hostcall.serve() == 1
        assert HOSTCALL_HEADER.read(self.memory, self.header(index), "control") & 1 == 0
        answers = {lane: struct.unpack("<2Q", self.memory.read(payload + lane * 64, 16))
                   for lane in slots}
        tagged = pointer + self.field("index_mask") + 1
        HOSTCALL_HEADER.write(self.memory, self.header(index), "next", self.field("free_stack"))
        self.set_field("free_stack", tagged)
        return answers


def words_of(text):
    raw = text.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 8)
    return list(struct.unpack(f"<{len(raw) // 8}Q", raw))


def printf_message(device, lanes, fmt, args_by_lane):
    """Send a printf as the device libraries do (begin, format in 56-byte
    pieces, then the arguments seven at a time); returns the last answers."""
    answers = device.call(SERVICE_PRINTF, {lane: [BEGIN | 1 << 5, 0] for lane in lanes})
    descriptor = {lane: answers[lane][0] for lane in lanes}
    stream = {lane: words_of(fmt) + list(args_by_lane[lane]) for lane in lanes}
    total = len(stream[lanes[0]])
    for start in range(0, total, 7):
        last = start + 7 >= total
        slots = {}
        for lane in lanes:
            chunk = stream[lane][start:start + 7]
            slots[lane] = [descriptor[lane] | (END if last else 0) | len(chunk) << 5] + chunk
        answers = device.call(SERVICE_PRINTF, slots)
        descriptor = {lane: answers[lane][0] for lane in lanes}
    return answers


@pytest.fixture
def setup():
    memory = DeviceMemory()
    printed = []
    hostcall = Hostcall(memory, 5, lambda stream, text: printed.append((stream, text)), "k")
    return hostcall, DeviceSide(hostcall), printed


def test_buffer_starts_with_every_packet_free(setup):
    hostcall, device, _ = setup
    assert device.field("index_mask") == 7          # 5 packets need 3 index bits
    assert device.field("ready_stack") == 0
    assert device.field("doorbell") == hostcall.doorbell.handle
    seen, pointer = [], device.field("free_stack")
    while pointer:
        assert pointer >> 3 == 1                      # tag 1: no packet pointer is zero
        seen.append(device.index(pointer))
        pointer = HOSTCALL_HEADER.read(device.memory, device.header(seen[-1]), "next")
    assert seen == [0, 1, 2, 3, 4]


def test_serve_with_nothing_ready_does_nothing(setup):
    hostcall, _, printed = setup
    assert hostcall.serve() == 0 and printed == []


def test_printf_message_over_several_packets(setup):
    hostcall, device, printed = setup
    fmt = "lane %d of a format that is longer than one packet: %s|%6.2f|%x\n"
    args = {lane: [lane] + words_of("name%d" % lane) +
            [struct.unpack("<Q", struct.pack("<d", lane / 3))[0], 0xFFFFFFFF - lane]
            for lane in (0, 5, 63)}
    answers = printf_message(device, [0, 5, 63], fmt, args)
    expected = [fmt % (lane, "name%d" % lane, lane / 3, 0xFFFFFFFF - lane) for lane in (0, 5, 63)]
    assert printed == [(0, text) for text in expected]
    assert [answers[lane][0] for lane in (0, 5, 63)] == [len(t) for t in expected]
    message_words = len(words_of(fmt)) + len(args[0])
    assert hostcall.served_packets == 1 + -(-message_words // 7)
    assert device.field("ready_stack") == 0


def test_message_ids_are_distinct_per_lane(setup):
    _, device, _ = setup
    answers = device.call(SERVICE_PRINTF, {lane: [BEGIN | 1 << 5, 0] for lane in range(LANES)})
    ids = {answers[lane][0] >> 8 for lane in range(LANES)}
    assert len(ids) == LANES and 0 not in ids
    assert all(answers[lane][0] & 0xFF == 0 for lane in range(LANES))


def test_stderr_control_word_and_vectors(setup):
    _, device, printed = setup
    doubles = [struct.unpack("<Q", struct.pack("<d", v))[0] for v in (1.0, 2.5)]
    device.call(SERVICE_PRINTF, {7: [BEGIN | END | 4 << 5, 1] + words_of("%.1v2f;%v3hhd")
                                 + doubles[:1]})
    # that message ended before its arguments: missing values print as zero
    assert printed == [(1, "1.0,0.0;0,0,0")]


def test_packets_pushed_together_are_served_oldest_first(setup):
    hostcall, device, printed = setup
    for text in ("first\n", "second\n"):
        pointer = device.field("free_stack")
        index = device.index(pointer)
        device.set_field("free_stack", HOSTCALL_HEADER.read(device.memory, device.header(index),
                                                            "next"))
        device.memory.write(device.header(index), HOSTCALL_HEADER.pack(
            next=device.field("ready_stack"), activemask=1, service=SERVICE_PRINTF, control=1))
        payload = device.field("payloads") + index * PAYLOAD_BYTES
        words = [BEGIN | END | (1 + len(words_of(text))) << 5, 0] + words_of(text)
        device.memory.write(payload, struct.pack(f"<{len(words)}Q", *words))
        device.set_field("ready_stack", pointer)
    assert hostcall.serve() == 2
    assert [t for _, t in printed] == ["first\n", "second\n"]


@pytest.mark.parametrize("service,name", [(1, "SERVICE_FUNCTION_CALL"), (4, "SERVICE_SANITIZER"),
                                          (0, "SERVICE_DEFAULT"), (99, "service 99")])
def test_unsupported_service_names_it(setup, service, name):
    _, device, _ = setup
    with pytest.raises(HostcallError, match=f"hostcall {name} .*not supported"):
        device.call(service, {0: [0]})


def test_devmem_allocates_and_frees_blocks(setup):
    hostcall, device, _ = setup
    before = len(hostcall.memory.allocations())
    answers = device.call(SERVICE_DEVMEM, {0: [0, 100], 9: [0, 5000]})
    first, second = answers[0][0], answers[9][0]
    assert first and second and first != second
    assert hostcall.memory.allocation_at(first, 100).kind == "devmem"
    assert hostcall.memory.allocation_at(second, 5000).size == 5000
    hostcall.memory.write(second + 4996, b"abcd")              # usable device memory
    assert device.call(SERVICE_DEVMEM, {3: [first, 0], 4: [second, 0]}) == \
        {3: (0, 0), 4: (0, 0)}
    assert len(hostcall.memory.allocations()) == before


def test_devmem_refuses_to_free_other_memory(setup):
    hostcall, device, _ = setup
    with pytest.raises(HostcallError, match="not a block the device allocated"):
        device.call(SERVICE_DEVMEM, {0: [hostcall.address, 0]})
    with pytest.raises(HostcallError, match="neither an address nor a size"):
        device.call(SERVICE_DEVMEM, {0: [0, 0]})


def test_continuing_an_unknown_message_is_an_error(setup):
    _, device, _ = setup
    with pytest.raises(HostcallError, match="never begun"):
        device.call(SERVICE_PRINTF, {0: [(41 << 8) | END | 1 << 5, 5]})


def test_corrupt_ready_stack_is_an_error(setup):
    hostcall, device, _ = setup
    device.set_field("ready_stack", (1 << 3) | 7)     # index 7 of a 5-packet buffer
    with pytest.raises(HostcallError, match="corrupt hostcall ready stack"):
        hostcall.serve()


def test_destroy_unmaps_buffer_and_doorbell(setup):
    hostcall, _, _ = setup
    memory = hostcall.memory
    before = len(memory.allocations())
    hostcall.destroy()
    assert len(memory.allocations()) == before - 2


@pytest.mark.parametrize("grid,block,waves", [((1, 1, 1), (1, 1, 1), 1),
                                              ((256, 1, 1), (64, 1, 1), 4),
                                              ((100, 3, 1), (65, 1, 1), 12),
                                              ((1 << 24, 1, 1), (64, 1, 1), MAX_BATCH_WAVES)])
def test_one_packet_per_resident_wave(grid, block, waves):
    assert resident_waves(Geometry(grid, block, 1)) == waves


def test_printed_text_goes_to_the_device_stream():
    from amdgpu_tools.runtime.hostcall import write_to
    out = io.StringIO()
    write_to(out, 1, "x")
    assert out.getvalue() == "x"


@pytest.mark.parametrize("fmt,args,expected", [
    ("%v4f|", [struct.pack("<4f", 1, -2, 3.5, 0)], "1.000000,-2.000000,3.500000,0.000000|"),
    ("%.1v2f", [struct.pack("<2d", 0.25, 9)], "0.2,9.0"),
    ("%v3hhd", [bytes([255, 1, 128])], "-1,1,-128"),
    ("%#v2x", [struct.pack("<2I", 0, 255)], "0,0xff"),
    ("%a %A %.2a", [struct.pack("<d", 1.5), struct.pack("<d", -0.1), struct.pack("<d", 1.0)],
     "0x1.8p+0 -0X1.999999999999AP-4 0x1.00p+0"),
    ("%#o %#5o %o", [struct.pack("<I", 8), struct.pack("<I", 8), struct.pack("<I", 0)],
     "010   010 0"),
    ("[%*d] [%-*d] [%.*f]", [struct.pack("<i", 5), struct.pack("<i", 42), struct.pack("<i", -4),
                             struct.pack("<i", 7), struct.pack("<i", 1),
                             struct.pack("<d", 2.25)], "[   42] [7   ] [2.2]"),
    ("%8p|%-8p|", [struct.pack("<Q", 0x10), struct.pack("<Q", 0x20)], "    0x10|0x20    |"),
])
def test_printf_formats_hostcall_relies_on(fmt, args, expected):
    assert format_printf(fmt, args) == expected

"""Hostcall: the host side of the ROCm device libraries' hostcall buffer.

Kernels built against the ROCm device libraries (ockl) reach the host
through a buffer whose address the runtime puts in the hidden
``hidden_hostcall_buffer`` kernel argument. The layout is the one the
installed ockl (``hostcall_impl.cl``, ROCm 5.x) expects:

* a control block: pointers to the packet headers and payloads, the
  doorbell signal handle, the tops of two lock-free stacks of packets
  (free and ready) and ``index_mask``, the low bits of a packet pointer that
  are the packet's index (the high bits are an ABA tag the device bumps by
  ``index_mask + 1`` each time it frees the packet);
* per packet a header (link to the next packet of its stack, the mask of
  the lanes that take part, the service id, a control word whose bit 0 is
  the READY flag) and a payload of 64 lanes x 8 ulongs.

A wave pops a packet from the free stack, fills its lanes' slots, sets
READY, pushes it on the ready stack and rings the doorbell; then it spins
until the host clears READY, reads two ulongs of its slot as the answer and
pushes the packet back on the free stack. The executor is single-threaded,
so it calls ``Hostcall.serve`` regularly while the kernel runs (the
``host_service`` of a ``DispatchRequest``).

Services split a request into *messages* (ockl ``services.cl``): the first
ulong of a lane's slot is a descriptor (bit 0 BEGIN, bit 1 END, bits 5-7 the
number of ulongs that follow, bits 8-63 the message id the host assigned at
BEGIN); a message's ulongs accumulate until END, when the service handles
the whole message. printf is such a message: a control word (0: stdout,
1: stderr), the NUL-terminated format string packed 8 bytes per ulong, then
one ulong per argument (integers and pointers widened to 64 bits, floating
point as a double) except ``%s``, whose string follows packed like the
format. SERVICE_DEVMEM (device malloc/free) needs no message: a lane's slot
holds an address to free, or zero and a size to allocate.
"""

from __future__ import annotations

import struct
import sys

import numpy as np

from ..elf.structs import align_up
from ..errors import KernelError
from .layouts import Layout, _u
from .printf import format_printf, printf_conversions
from .signals import Signal

#: hostcall service ids (ockl services.cl / ROCm's host-side services)
SERVICE_DEFAULT = 0
SERVICE_FUNCTION_CALL = 1
SERVICE_PRINTF = 2
SERVICE_DEVMEM = 3
SERVICE_SANITIZER = 4
SERVICE_NAMES = {SERVICE_DEFAULT: "SERVICE_DEFAULT", SERVICE_FUNCTION_CALL: "SERVICE_FUNCTION_CALL",
                 SERVICE_PRINTF: "SERVICE_PRINTF", SERVICE_DEVMEM: "SERVICE_DEVMEM",
                 SERVICE_SANITIZER: "SERVICE_SANITIZER"}

#: the control block the hidden argument points at (ockl's buffer_t)
HOSTCALL_BUFFER = Layout("hostcall buffer_t", 48, 64, {
    "headers": _u(0, 8),
    "payloads": _u(8, 8),
    "doorbell": _u(16, 8),
    "free_stack": _u(24, 8),
    "ready_stack": _u(32, 8),
    "index_mask": _u(40, 8),
})
#: one packet's header (ockl's header_t)
HOSTCALL_HEADER = Layout("hostcall header_t", 24, 8, {
    "next": _u(0, 8),
    "activemask": _u(8, 8),
    "service": _u(16, 4),
    "control": _u(20, 4),
})
CONTROL_READY_FLAG = 1
LANES = 64
SLOT_ULONGS = 8
PAYLOAD_BYTES = LANES * SLOT_ULONGS * 8

#: message descriptor fields
DESCRIPTOR_BEGIN = 1 << 0
DESCRIPTOR_END = 1 << 1
DESCRIPTOR_LEN_SHIFT = 5
DESCRIPTOR_LEN_MASK = 7
DESCRIPTOR_ID_SHIFT = 8

#: allocation kind of the blocks SERVICE_DEVMEM hands out (they outlive the
#: dispatch, as device malloc memory does, until the device frees them)
DEVMEM_KIND = "devmem"

#: printf control words: the stream a message prints to
PRINTF_STDOUT = 0
PRINTF_STDERR = 1

_HEADER_WORDS = HOSTCALL_HEADER.size // 8
_READY_WORD = HOSTCALL_BUFFER.offset("ready_stack") // 8


class HostcallError(KernelError):
    """A hostcall request the host cannot serve (unknown service, bad message)."""


class Hostcall:
    """One dispatch's hostcall buffer, and the host that serves its packets.

    ``write(stream_id, text)`` receives printf output (stream 0 stdout, 1
    stderr); ``packets`` must be at least the number of waves that can be
    resident at once, since each wave holds a packet while it waits.
    """

    def __init__(self, memory, packets: int, write, kernel_name: str | None = None):
        if packets < 1:
            raise ValueError("a hostcall buffer needs at least one packet")
        self.memory = memory
        self.write = write
        self.kernel_name = kernel_name
        self.packets = packets
        self.index_mask = (1 << max(1, (packets - 1).bit_length())) - 1
        self.doorbell = Signal.create(memory)
        self.address = self._allocate()
        self._control = memory.view(self.address, HOSTCALL_BUFFER.size).view(np.uint64)
        self._messages: dict[int, _Message] = {}
        self._next_message_id = 1
        self.served_packets = 0

    # ----------------------------------------------------------------- set-up
    def _allocate(self) -> int:
        """The control block, the headers and the payloads in one allocation,
        every packet on the free stack (tag 1, so no pointer is zero)."""
        headers_offset = 64
        payloads_offset = align_up(headers_offset + self.packets * HOSTCALL_HEADER.size, 64)
        size = payloads_offset + self.packets * PAYLOAD_BYTES
        address = self.memory.allocate(size, align=4096, kind="hostcall", name="hostcall buffer")
        self.headers = address + headers_offset
        self.payloads = address + payloads_offset
        pointers = np.uint64(self.index_mask + 1) | np.arange(self.packets, dtype=np.uint64)
        table = self.memory.view(self.headers, self.packets * HOSTCALL_HEADER.size)
        table = table.view(np.uint64).reshape(self.packets, _HEADER_WORDS)
        table[:-1, 0] = pointers[1:]
        table[-1, 0] = 0
        self.memory.write(address, HOSTCALL_BUFFER.pack(
            headers=self.headers, payloads=self.payloads, doorbell=self.doorbell.handle,
            free_stack=int(pointers[0]), ready_stack=0, index_mask=self.index_mask))
        return address

    def destroy(self) -> None:
        """Unmap the buffer and its doorbell (after the dispatch has finished)."""
        self.memory.free(self.address)
        self.doorbell.destroy()

    # ---------------------------------------------------------------- serving
    def serve(self) -> int:
        """Answer every packet on the ready stack; returns how many there were.

        Cheap when there is nothing to do (one word compare), as the
        executor calls it often. Packets are answered oldest first, lanes in
        order, so printf output keeps the order the waves asked in.
        """
        top = int(self._control[_READY_WORD])
        if top == 0:
            return 0
        self._control[_READY_WORD] = 0
        chain = self._ready_chain(top)
        for index in reversed(chain):
            self._serve_packet(index)
        self.served_packets += len(chain)
        return len(chain)

    def _ready_chain(self, top: int) -> list:
        """Packet indices on the ready stack, newest first."""
        chain, pointer = [], top
        while pointer:
            index = pointer & self.index_mask
            if index >= self.packets or len(chain) > self.packets:
                raise self._error(f"corrupt hostcall ready stack (packet pointer 0x{pointer:x})")
            chain.append(index)
            pointer = HOSTCALL_HEADER.read(self.memory, self._header(index), "next")
        return chain

    def _header(self, index: int) -> int:
        return self.headers + index * HOSTCALL_HEADER.size

    def _serve_packet(self, index: int) -> None:
        header = HOSTCALL_HEADER.unpack(self.memory.read(self._header(index),
                                                         HOSTCALL_HEADER.size))
        service = header["service"]
        slots = self.memory.view(self.payloads + index * PAYLOAD_BYTES, PAYLOAD_BYTES)
        slots = slots.view(np.uint64).reshape(LANES, SLOT_ULONGS)
        mask = header["activemask"]
        for lane in range(LANES):
            if mask >> lane & 1:
                answer = self._serve_lane(service, [int(v) for v in slots[lane]])
                slots[lane, 0] = answer[0] & 0xFFFF_FFFF_FFFF_FFFF
                slots[lane, 1] = answer[1] & 0xFFFF_FFFF_FFFF_FFFF
        HOSTCALL_HEADER.write(self.memory, self._header(index), "control",
                              header["control"] & ~CONTROL_READY_FLAG)

    def _serve_lane(self, service: int, slot: list) -> tuple:
        if service == SERVICE_PRINTF:
            return self._message(service, slot)
        if service == SERVICE_DEVMEM:
            return self._devmem(slot[0], slot[1]), slot[1]
        name = SERVICE_NAMES.get(service, f"service {service}")
        raise self._error(f"hostcall {name} (id {service}) is not supported by this "
                          f"runtime (supported: SERVICE_PRINTF, SERVICE_DEVMEM)")

    def _devmem(self, address: int, size: int) -> int:
        """Device-side malloc/free (ockl ``__ockl_devmem_request``): a non-zero
        address frees that block, else ``size`` bytes are allocated; returns
        the new block's address (0 after a free)."""
        if address:
            block = self._devmem_block(address)
            if block is None:
                raise self._error(f"hostcall SERVICE_DEVMEM: 0x{address:x} is not a block "
                                  "the device allocated")
            self.memory.free(address)
            return 0
        if size == 0:
            raise self._error("hostcall SERVICE_DEVMEM: neither an address nor a size")
        return self.memory.allocate(size, align=4096, kind=DEVMEM_KIND, name="device malloc")

    def _devmem_block(self, address: int):
        for block in self.memory.allocations():
            if block.address == address and block.kind == DEVMEM_KIND:
                return block
        return None

    # ---------------------------------------------------------------- messages
    def _message(self, service: int, slot: list) -> tuple:
        """Accumulate one lane's part of a message; handle it at END."""
        descriptor = slot[0]
        length = descriptor >> DESCRIPTOR_LEN_SHIFT & DESCRIPTOR_LEN_MASK
        if descriptor & DESCRIPTOR_BEGIN:
            message_id = self._next_message_id
            self._next_message_id += 1
            self._messages[message_id] = _Message(service)
        else:
            message_id = descriptor >> DESCRIPTOR_ID_SHIFT
            if message_id not in self._messages:
                raise self._error(f"hostcall message {message_id} continues a message that "
                                  "was never begun (or has ended)")
        message = self._messages[message_id]
        if message.service != service:
            raise self._error(f"hostcall message {message_id} changes service "
                              f"from {message.service} to {service}")
        message.words.extend(slot[1:1 + length])
        if not descriptor & DESCRIPTOR_END:
            return message_id << DESCRIPTOR_ID_SHIFT, 0
        del self._messages[message_id]
        return self._printf(message.words), 0

    def _printf(self, words: list) -> int:
        """Print one printf message; returns the number of characters (printf's result)."""
        if not words:
            raise self._error("empty hostcall printf message (no control word)")
        control, stream = words[0], _WordStream(words, 1)
        fmt = stream.string()
        text = format_printf(fmt, _printf_args(fmt, stream))
        self.write(PRINTF_STDERR if control & 1 else PRINTF_STDOUT, text)
        return len(text)

    def _error(self, cause: str) -> HostcallError:
        return HostcallError(cause, kernel=self.kernel_name)


class _Message:
    """The ulongs a lane's message has accumulated so far."""

    def __init__(self, service: int):
        self.service = service
        self.words: list = []


class _WordStream:
    """Reads a printf message's ulongs: single values or NUL-terminated strings."""

    def __init__(self, words: list, position: int = 0):
        self.words = words
        self.position = position

    def value(self) -> int | None:
        if self.position >= len(self.words):
            return None
        self.position += 1
        return self.words[self.position - 1]

    def string(self) -> str:
        """A string packed 8 bytes per ulong up to its NUL (a lone 0: empty or null)."""
        raw = bytearray()
        while self.position < len(self.words):
            chunk = struct.pack("<Q", self.words[self.position])
            self.position += 1
            end = chunk.find(b"\0")
            if end >= 0:
                raw += chunk[:end]
                break
            raw += chunk
        return raw.decode("utf-8", "replace")


#: bytes of an integer argument, by length modifier (OpenCL: hl is 32-bit for vectors)
_INT_BYTES = {None: 4, "hh": 1, "h": 2, "hl": 4, "l": 8, "ll": 8, "j": 8, "z": 8, "t": 8}


def _printf_args(fmt: str, stream: _WordStream) -> list:
    """The argument bytes ``format_printf`` expects for ``fmt``, read from
    ``stream`` conversion by conversion (so ``%s`` knows where its string ends)."""
    args = []
    for spec in printf_conversions(fmt):
        for star in (spec["width"], spec["prec"]):
            if star == "*":
                args.append(_int_bytes(stream.value(), 4))
        conv = spec["conv"]
        if conv == "s":
            args.append(stream.string().encode("utf-8") + b"\0")
            continue
        count = int(spec["vector"][1:]) if spec["vector"] else 1
        raw = b""
        for _ in range(count):
            word = stream.value()
            if conv in "eEfFgGaA":
                raw += struct.pack("<Q", 0 if word is None else word)
            else:
                size = 8 if conv == "p" else _INT_BYTES.get(spec["length"], 8)
                raw += _int_bytes(word, size)
        args.append(raw)
    return args


def _int_bytes(word: int | None, size: int) -> bytes:
    return ((word or 0) & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def write_to(stream, stream_id: int, text: str) -> None:
    """Printed text into ``stream``, or when it is None stdout / stderr by id."""
    target = stream or (sys.stderr if stream_id == PRINTF_STDERR else sys.stdout)
    target.write(text)
    target.flush()


def resident_waves(geometry) -> int:
    """Waves of a launch that can wait on a packet at once: all of them, up to
    the executor's batch size (it runs one batch of work-groups at a time)."""
    from ..exec.core.dispatch import MAX_BATCH_WAVES
    per_group = -(-geometry.block[0] * geometry.block[1] * geometry.block[2] // LANES)
    groups = 1
    for size, block in zip(geometry.grid, geometry.block):
        groups *= -(-size // block)
    return max(1, min(groups * per_group, max(MAX_BATCH_WAVES, per_group)))


def hostcall_for_launch(device, kernel, geometry) -> Hostcall | None:
    """A hostcall buffer for a launch of ``kernel`` when its metadata asks for one;
    printf text goes to the device's printf stream."""
    if not any(a.value_kind == "hidden_hostcall_buffer" for a in kernel.hidden_args or ()):
        return None
    return Hostcall(device.memory, resident_waves(geometry),
                    lambda stream_id, text: write_to(device.printf_stream, stream_id, text),
                    kernel.name)

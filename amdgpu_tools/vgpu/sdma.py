"""The SDMA (system DMA) packet engine of the virtual GPU.

ROCr copies memory between host and device with SDMA queues rather than
kernels: it asks the thunk for an ``HSA_QUEUE_SDMA`` queue, writes SDMA
packets into the queue's ring buffer, stores the new write pointer and rings
the doorbell. ``SdmaEngine`` is what the hardware engine does with that ring:
it executes the packets between its read pointer and the write pointer and
reports its progress by writing the read pointer back to memory.

Memory is linear (addresses in packets are plain virtual addresses of the
process), so copies and fills are byte moves and cache or HDP flushes have
nothing to do.

Packet layouts and opcodes are those of ROCr 5.2 (``sdma_registers.h``,
``amd_blit_sdma.cpp``), the thunk's kfdtest ``sdma_pkt_struct.h`` (NOP) and
the GFX7 ``TC_OP`` enumeration (atomic operation codes). Two things differ
between the SDMA generations that ROCr drives (``amd_blit_sdma.h``):

* SDMA 2/3 (gfx7, gfx8, ``BlitSdmaV2V3``): ring indices are 32-bit byte
  offsets that wrap at the end of the ring; count fields hold the amount.
* SDMA 4 (gfx9, ``BlitSdmaV4``): ring indices are 64-bit byte offsets that
  never wrap (the ring position is the index modulo the ring size); count
  fields hold the amount minus one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import ToolchainError

__all__ = ["SdmaEngine", "SdmaError", "PacketFormat", "PACKETS"]


class SdmaError(ToolchainError):
    """A packet the engine cannot execute; the read pointer stays on it."""


# --------------------------------------------------------------- opcodes
OP_NOP = 0
OP_COPY = 1
OP_FENCE = 5
OP_TRAP = 6
OP_POLL_REGMEM = 8
OP_ATOMIC = 10
OP_CONST_FILL = 11
OP_TIMESTAMP = 13

SUBOP_COPY_LINEAR = 0
SUBOP_COPY_LINEAR_RECT = 4
SUBOP_TIMESTAMP_GET_LOCAL = 1
SUBOP_TIMESTAMP_GET_GLOBAL = 2

# Every header: opcode in bits 0-7, sub-opcode in bits 8-15.
_OPCODE = (0, 0, 8)
_SUB_OPCODE = (0, 8, 8)


@dataclass(frozen=True)
class PacketFormat:
    """One SDMA packet: its size, its fields and the engine method running it.

    ``fields`` maps a name to ``(dword, first bit, width)``; a field may span
    dwords (the 64-bit addresses). ``extra_dwords`` names a field whose value
    adds that many dwords to the packet (the NOP's count).
    """

    name: str
    dwords: int
    fields: dict
    handler: str
    extra_dwords: str | None = None

    def size(self, header: int) -> int:
        """The packet's size in bytes, known from its first dword."""
        extra = _extract(header, self.fields[self.extra_dwords]) if self.extra_dwords else 0
        return 4 * (self.dwords + extra)

    def decode(self, raw: bytes) -> dict:
        value = int.from_bytes(raw, "little")
        return {name: _extract(value, spec) for name, spec in self.fields.items()}


def _extract(value: int, spec) -> int:
    dword, bit, width = spec
    return (value >> (32 * dword + bit)) & ((1 << width) - 1)


# COPY_LINEAR_RECT fields of one side (source or destination), by dword
# relative to the side's first dword.
_RECT_SIDE = {
    "addr": (0, 0, 64), "offset_x": (2, 0, 14), "offset_y": (2, 16, 14),
    "offset_z": (3, 0, 11), "pitch": (3, 13, 19), "slice_pitch": (4, 0, 28),
}


def _rect_fields() -> dict:
    fields = {"element": (0, 29, 3), "rect_x": (11, 0, 14), "rect_y": (11, 16, 14),
              "rect_z": (12, 0, 11), "dst_swap": (12, 16, 2), "src_swap": (12, 24, 2)}
    for side, first_dword in (("src", 1), ("dst", 6)):
        for name, (dword, bit, width) in _RECT_SIDE.items():
            fields[f"{side}_{name}"] = (first_dword + dword, bit, width)
    return fields


#: (opcode, sub-opcode) -> format: every packet the engine executes.
PACKETS = {
    (OP_NOP, 0): PacketFormat("NOP", 1, {"count": (0, 16, 14)}, "_nop", extra_dwords="count"),
    (OP_COPY, SUBOP_COPY_LINEAR): PacketFormat(
        "COPY_LINEAR", 7,
        {"count": (1, 0, 22), "dst_swap": (2, 16, 2), "src_swap": (2, 24, 2),
         "src": (3, 0, 64), "dst": (5, 0, 64)},
        "_copy_linear"),
    (OP_COPY, SUBOP_COPY_LINEAR_RECT): PacketFormat(
        "COPY_LINEAR_RECT", 13, _rect_fields(), "_copy_linear_rect"),
    (OP_FENCE, 0): PacketFormat("FENCE", 4, {"addr": (1, 0, 64), "data": (3, 0, 32)}, "_fence"),
    (OP_TRAP, 0): PacketFormat("TRAP", 2, {"int_ctx": (1, 0, 28)}, "_trap"),
    (OP_POLL_REGMEM, 0): PacketFormat(
        "POLL_REGMEM", 6,
        {"hdp_flush": (0, 26, 1), "func": (0, 28, 3), "mem_poll": (0, 31, 1),
         "addr": (1, 0, 64), "value": (3, 0, 32), "mask": (4, 0, 32),
         "interval": (5, 0, 16), "retry_count": (5, 16, 12)},
        "_poll_regmem"),
    (OP_ATOMIC, 0): PacketFormat(
        "ATOMIC", 8,
        {"loop": (0, 16, 1), "operation": (0, 25, 7), "addr": (1, 0, 64),
         "src_data": (3, 0, 64), "cmp_data": (5, 0, 64), "loop_interval": (7, 0, 13)},
        "_atomic"),
    (OP_CONST_FILL, 0): PacketFormat(
        "CONST_FILL", 5,
        {"sw": (0, 16, 2), "fillsize": (0, 30, 2), "dst": (1, 0, 64),
         "data": (3, 0, 32), "count": (4, 0, 22)},
        "_const_fill"),
    (OP_TIMESTAMP, SUBOP_TIMESTAMP_GET_LOCAL): PacketFormat(
        "TIMESTAMP_GET_LOCAL", 3, {"addr": (1, 0, 64)}, "_timestamp"),
    (OP_TIMESTAMP, SUBOP_TIMESTAMP_GET_GLOBAL): PacketFormat(
        "TIMESTAMP_GET_GLOBAL", 3, {"addr": (1, 0, 64)}, "_timestamp"),
}


# --------------------------------------------------------- poll functions
#: POLL_REGMEM ``func``: how (memory & mask) compares with the reference.
_POLL_FUNCTIONS = {
    0: lambda value, ref: True,          # always
    1: lambda value, ref: value < ref,
    2: lambda value, ref: value <= ref,
    3: lambda value, ref: value == ref,  # what ROCr uses to wait for a signal
    4: lambda value, ref: value != ref,
    5: lambda value, ref: value >= ref,
    6: lambda value, ref: value > ref,
}


# ------------------------------------------------------ atomic operations
# ATOMIC ``operation`` is a TC_OP code: bit 5 selects 64-bit, bit 6 "no
# return" (the SDMA packet has no return buffer, so it changes nothing), the
# low 5 bits the operation. ROCr uses 47 (ADD_RTN_64) with -1 to decrement
# a signal.
_TC_OP_64 = 0x20
_TC_OP_NO_RTN = 0x40


def _signed(value: int, bits: int) -> int:
    return value - (1 << bits) if value >> (bits - 1) else value


_ATOMIC_OPERATIONS = {  # low 5 bits -> (name, new value from old, src, cmp, bits)
    0x07: ("SWAP", lambda old, src, cmp, bits: src),
    0x08: ("CMPSWAP", lambda old, src, cmp, bits: src if old == cmp else old),
    0x0F: ("ADD", lambda old, src, cmp, bits: old + src),
    0x10: ("SUB", lambda old, src, cmp, bits: old - src),
    0x11: ("SMIN", lambda old, src, cmp, bits: min(old, src, key=lambda v: _signed(v, bits))),
    0x12: ("UMIN", lambda old, src, cmp, bits: min(old, src)),
    0x13: ("SMAX", lambda old, src, cmp, bits: max(old, src, key=lambda v: _signed(v, bits))),
    0x14: ("UMAX", lambda old, src, cmp, bits: max(old, src)),
    0x15: ("AND", lambda old, src, cmp, bits: old & src),
    0x16: ("OR", lambda old, src, cmp, bits: old | src),
    0x17: ("XOR", lambda old, src, cmp, bits: old ^ src),
    0x18: ("INC", lambda old, src, cmp, bits: 0 if old >= src else old + 1),
    0x19: ("DEC", lambda old, src, cmp, bits: src if old == 0 or old > src else old - 1),
}
_ATOMIC_CMPSWAP = 0x08


# ----------------------------------------------------------- generations
@dataclass(frozen=True)
class _Generation:
    """How one SDMA generation counts (see the module docstring)."""

    monotonic: bool   # 64-bit never-wrapping ring indices, else 32-bit wrapped ones
    count_bias: int   # added to a COPY_LINEAR / CONST_FILL count to get the amount


_GENERATIONS = {
    7: _Generation(monotonic=False, count_bias=0),  # SDMA 2 (CIK)
    8: _Generation(monotonic=False, count_bias=0),  # SDMA 3 (VI)
    9: _Generation(monotonic=True, count_bias=1),   # SDMA 4 (Vega)
}

_U64 = (1 << 64) - 1


class SdmaEngine:
    """One SDMA queue: its ring buffer and read/write pointers, in process memory.

    ``gfx_major`` picks the pointer and count conventions of the GPU's SDMA
    generation (7 and 8: wrapped 32-bit indices, exact counts; 9: monotonic
    64-bit indices, counts minus one). The engine keeps its own read index,
    starting from the value in memory, and writes it back after every
    packet; it reads the write pointer from memory on every ``process``.
    """

    def __init__(self, memory, ring_address: int, ring_size: int, read_ptr_address: int,
                 write_ptr_address: int, *, on_trap=None, clock=None, gfx_major: int = 9):
        if ring_size < 4 or ring_size & (ring_size - 1):
            raise SdmaError(f"SDMA ring size must be a power of two of at least 4 bytes, "
                            f"got {ring_size}")
        if gfx_major not in _GENERATIONS:
            raise SdmaError(f"no SDMA engine model for gfx{gfx_major} "
                            f"(supported: gfx{', gfx'.join(map(str, _GENERATIONS))})")
        self.memory = memory
        self.ring_address = ring_address
        self.ring_size = ring_size
        self.read_ptr_address = read_ptr_address
        self.write_ptr_address = write_ptr_address
        self.on_trap = on_trap
        self.clock = clock or time.perf_counter_ns
        self._generation = _GENERATIONS[gfx_major]
        self._read_index = self._load_index(read_ptr_address)
        self._packet_offset = 0

    @property
    def read_pointer(self) -> int:
        """The read index as the engine reports it (same units as the write pointer)."""
        return self._read_index

    def pending(self) -> bool:
        """True while the write pointer is ahead of the read pointer."""
        return self._pending_bytes() > 0

    # ------------------------------------------------------------- running
    def process(self) -> bool:
        """Execute packets from the read pointer up to the write pointer; True if anything was consumed.
        A POLL_REGMEM whose condition is not yet met stops processing there (returns, leaving
        the read pointer at that packet) so the caller can retry later; so does a packet the
        write pointer does not yet cover entirely."""
        consumed = False
        while (pending := self._pending_bytes()) > 0:
            offset = self._read_index % self.ring_size
            header = int.from_bytes(self._ring_read(offset, 4), "little")
            packet = self._format_of(header, offset)
            size = packet.size(header)
            if size > pending:  # the producer has not committed the whole packet yet
                break
            self._packet_offset = offset
            if not getattr(self, packet.handler)(packet.decode(self._ring_read(offset, size))):
                break
            self._advance(size)
            consumed = True
        return consumed

    # ------------------------------------------------------- ring pointers
    def _load_index(self, address: int) -> int:
        if self._generation.monotonic:
            return self.memory.read_u64(address)
        return self.memory.read_u32(address) % self.ring_size

    def _pending_bytes(self) -> int:
        """Committed bytes not yet executed, checked for a write pointer gone wrong."""
        write_index = self._load_index(self.write_ptr_address)
        if write_index % 4:
            raise SdmaError(f"SDMA write pointer 0x{write_index:x} is not dword aligned")
        pending = (write_index - self._read_index) % (1 << 64)
        if not self._generation.monotonic:
            return pending % self.ring_size
        if pending > self.ring_size:
            raise SdmaError(f"SDMA write pointer 0x{write_index:x} is more than the ring size "
                            f"(0x{self.ring_size:x}) ahead of the read pointer "
                            f"0x{self._read_index:x}")
        return pending

    def _advance(self, size: int) -> None:
        """Step past a finished packet and report it, as the engine's rptr write-back does."""
        if self._generation.monotonic:
            self._read_index = (self._read_index + size) & _U64
            self.memory.write_u64(self.read_ptr_address, self._read_index)
        else:
            self._read_index = (self._read_index + size) % self.ring_size
            self.memory.write_u32(self.read_ptr_address, self._read_index)

    def _ring_read(self, offset: int, size: int) -> bytes:
        """``size`` ring bytes from ``offset``, continuing at the ring start past its end."""
        first = min(size, self.ring_size - offset)
        data = self.memory.read(self.ring_address + offset, first)
        if first < size:
            data += self.memory.read(self.ring_address, size - first)
        return data

    def _format_of(self, header: int, offset: int) -> PacketFormat:
        opcode, sub_opcode = _extract(header, _OPCODE), _extract(header, _SUB_OPCODE)
        packet = PACKETS.get((opcode, sub_opcode))
        if packet is None:
            raise SdmaError(f"unknown SDMA packet: opcode {opcode} sub-opcode {sub_opcode} "
                            f"(header 0x{header:08x}) at ring offset 0x{offset:x}")
        return packet

    def _unsupported(self, packet: str, what: str) -> SdmaError:
        return SdmaError(f"SDMA {packet} at ring offset 0x{self._packet_offset:x}: {what}")

    # ------------------------------------------------------------ packets
    # Each handler returns True when the packet is done, False when the
    # engine must wait on it (the read pointer then stays on the packet).

    def _nop(self, fields: dict) -> bool:
        return True

    def _copy_linear(self, fields: dict) -> bool:
        self._check_no_swap("COPY_LINEAR", fields["src_swap"], fields["dst_swap"])
        size = fields["count"] + self._generation.count_bias
        if size:
            self.memory.write(fields["dst"], self.memory.read(fields["src"], size))
        return True

    def _copy_linear_rect(self, fields: dict) -> bool:
        """A sub-window copy: sizes and pitches count elements, all stored minus one."""
        self._check_no_swap("COPY_LINEAR_RECT", fields["src_swap"], fields["dst_swap"])
        element = 1 << fields["element"]
        if element > 16:
            raise self._unsupported("COPY_LINEAR_RECT", f"element code {fields['element']}")
        row_bytes = (fields["rect_x"] + 1) * element
        for z in range(fields["rect_z"] + 1):
            for y in range(fields["rect_y"] + 1):
                row = self.memory.read(_rect_address(fields, "src", y, z, element), row_bytes)
                self.memory.write(_rect_address(fields, "dst", y, z, element), row)
        return True

    def _fence(self, fields: dict) -> bool:
        self.memory.write_u32(fields["addr"], fields["data"])
        return True

    def _trap(self, fields: dict) -> bool:
        """Raise the interrupt; ROCr puts the signal's event id in the context."""
        if self.on_trap is not None:
            self.on_trap(fields["int_ctx"])
        return True

    def _poll_regmem(self, fields: dict) -> bool:
        """Wait until (memory & mask) compares true with the reference.

        The retry count and interval are not modelled: the caller decides
        when to retry (ROCr's polls retry forever, count 0xfff). A register
        poll is only ever ROCr's HDP flush (func "always"), which completes
        at once because linear memory has no host data path cache.
        """
        compare = _POLL_FUNCTIONS.get(fields["func"])
        if compare is None:
            raise self._unsupported("POLL_REGMEM", f"reserved function {fields['func']}")
        if not fields["mem_poll"]:
            if fields["hdp_flush"] or fields["func"] == 0:
                return True
            raise self._unsupported("POLL_REGMEM", "register polls have no registers to read")
        value = self.memory.read_u32(fields["addr"]) & fields["mask"]
        return compare(value, fields["value"])

    def _atomic(self, fields: dict) -> bool:
        code = fields["operation"]
        entry = _ATOMIC_OPERATIONS.get(code & ~(_TC_OP_64 | _TC_OP_NO_RTN))
        if entry is None:
            raise self._unsupported("ATOMIC", f"operation {code} is not an integer TC atomic")
        bits = 64 if code & _TC_OP_64 else 32
        mask = (1 << bits) - 1
        old = self._read_uint(fields["addr"], bits)
        src, cmp = fields["src_data"] & mask, fields["cmp_data"] & mask
        if fields["loop"] and (code & 0x1F) == _ATOMIC_CMPSWAP and old != cmp:
            return False  # the loop bit retries a failed compare-and-swap until it succeeds
        self._write_uint(fields["addr"], entry[1](old, src, cmp, bits) & mask, bits)
        return True

    def _const_fill(self, fields: dict) -> bool:
        """Fill with a 1-, 2- or 4-byte element; the count is in bytes."""
        if fields["sw"]:
            raise self._unsupported("CONST_FILL", f"byte swap mode {fields['sw']}")
        if fields["fillsize"] > 2:
            raise self._unsupported("CONST_FILL", f"fill size code {fields['fillsize']}")
        element = 1 << fields["fillsize"]
        count = (fields["count"] >> fields["fillsize"]) + self._generation.count_bias
        if count:
            pattern = (fields["data"] & ((1 << (8 * element)) - 1)).to_bytes(element, "little")
            self.memory.write(fields["dst"], pattern * count)
        return True

    def _timestamp(self, fields: dict) -> bool:
        """Store the GPU clock; one counter serves as both local and global time."""
        self.memory.write_u64(fields["addr"], int(self.clock()) & _U64)
        return True

    # ------------------------------------------------------------ helpers
    def _check_no_swap(self, packet: str, src_swap: int, dst_swap: int) -> None:
        if src_swap or dst_swap:
            raise self._unsupported(packet, f"byte swap modes src {src_swap} dst {dst_swap}")

    def _read_uint(self, address: int, bits: int) -> int:
        return self.memory.read_u64(address) if bits == 64 else self.memory.read_u32(address)

    def _write_uint(self, address: int, value: int, bits: int) -> None:
        if bits == 64:
            self.memory.write_u64(address, value)
        else:
            self.memory.write_u32(address, value)


def _rect_address(fields: dict, side: str, y: int, z: int, element: int) -> int:
    """Byte address of row (y, z) of one side of a sub-window copy."""
    row_pitch = fields[f"{side}_pitch"] + 1
    slice_pitch = fields[f"{side}_slice_pitch"] + 1
    index = (fields[f"{side}_offset_x"] + (fields[f"{side}_offset_y"] + y) * row_pitch
             + (fields[f"{side}_offset_z"] + z) * slice_pitch)
    return fields[f"{side}_addr"] + index * element

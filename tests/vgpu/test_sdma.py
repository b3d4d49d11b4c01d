"""The SDMA packet engine, fed packets built by hand the way ROCr 5.2 builds them.

Packet dwords below are written out from the documented layouts
(ROCr's sdma_registers.h / amd_blit_sdma.cpp), independently of the
engine's own layout table.
"""

import pytest

from amdgpu_tools.errors import ToolchainError
from amdgpu_tools.vgpu.sdma import SdmaEngine, SdmaError

BASE = 0x7FFF_1234_0000       # high dword non-zero: addresses use both halves
RPTR = BASE + 0x100           # the thunk's struct queue: uint64 wptr, uint64 rptr
WPTR = BASE + 0x108
RING = BASE + 0x1000
DATA = BASE + 0x10000
SIZE = 0x20000


class FlatMemory:
    """A bytearray mapped at BASE; any access outside it is a test failure."""

    def __init__(self):
        self.data = bytearray(SIZE)

    def _span(self, address, size):
        start = address - BASE
        assert 0 <= start and start + size <= SIZE, f"access 0x{address:x}+{size} out of range"
        return slice(start, start + size)

    def read(self, address, size):
        return bytes(self.data[self._span(address, size)])

    def write(self, address, data):
        self.data[self._span(address, len(data))] = data

    def read_u32(self, address):
        return int.from_bytes(self.read(address, 4), "little")

    def read_u64(self, address):
        return int.from_bytes(self.read(address, 8), "little")

    def write_u32(self, address, value):
        self.write(address, (value & 0xFFFFFFFF).to_bytes(4, "little"))

    def write_u64(self, address, value):
        self.write(address, (value & (2**64 - 1)).to_bytes(8, "little"))


def lo(value):
    return value & 0xFFFFFFFF


def hi(value):
    return value >> 32


# ------------------------------------------------ packets, as ROCr builds them
def copy_linear(dst, src, nbytes, gfx9=True):
    """BuildCopyCommand: count is size + SizeToCountOffset (-1 on gfx9, 0 on gfx8)."""
    return [0x00000001, nbytes - 1 if gfx9 else nbytes, 0, lo(src), hi(src), lo(dst), hi(dst)]


def const_fill(dst, value, ndwords, gfx9=True):
    """BuildFillCommand: fillsize 2 (dword), count (dwords + SizeToCountOffset) * 4."""
    return [0x0000000B | (2 << 30), lo(dst), hi(dst), value,
            ((ndwords - 1) if gfx9 else ndwords) * 4]


def fence(addr, value):
    return [0x00000005, lo(addr), hi(addr), value]


def trap(event_id):
    return [0x00000006, event_id]


def poll_eq(addr, reference):
    """BuildPollCommand: memory poll, func 3 (==), mask ~0, interval 4, retry 0xfff."""
    return [0x00000008 | (3 << 28) | (1 << 31), lo(addr), hi(addr), reference, 0xFFFFFFFF,
            4 | (0xFFF << 16)]


def atomic_decrement(addr):
    """BuildAtomicDecrementCommand: operation 47 (ADD_RTN_64) of 0xffffffff_ffffffff."""
    return [0x0000000A | (47 << 25), lo(addr), hi(addr), 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0]


def timestamp(addr):
    """BuildGetGlobalTimestampCommand: opcode 13, sub-opcode 2."""
    return [0x0000000D | (2 << 8), lo(addr), hi(addr)]


HDP_FLUSH = [0x8, 0x0, 0x80000000, 0x0, 0x0, 0x0]  # hdp_flush_cmd, verbatim


def copy_rect(src, src_xyz, src_pitch, dst, dst_xyz, dst_pitch, rect, element=0):
    """BuildCopyRectCommand for a 2D window: pitches in bytes, sizes in elements."""
    (sx, sy, sz), (dx, dy, dz), (rx, ry, rz) = src_xyz, dst_xyz, rect
    return [0x00000001 | (4 << 8) | (element << 29),
            lo(src), hi(src), sx | (sy << 16), sz | (((src_pitch >> element) - 1) << 13), 0,
            lo(dst), hi(dst), dx | (dy << 16), dz | (((dst_pitch >> element) - 1) << 13), 0,
            (rx - 1) | ((ry - 1) << 16), rz - 1]


# ------------------------------------------------------------------- harness
class Queue:
    """The producer side (ROCr) of one SDMA queue, plus its engine."""

    def __init__(self, ring_size=0x400, gfx9=True, **engine_options):
        self.memory = FlatMemory()
        self.ring_size = ring_size
        self.gfx9 = gfx9
        self.index = 0  # ROCr's monotonic reserve index
        self.traps = []
        engine_options.setdefault("on_trap", self.traps.append)
        self.engine = SdmaEngine(self.memory, RING, ring_size, RPTR, WPTR,
                                 gfx_major=9 if gfx9 else 8, **engine_options)

    def write(self, *packets):
        """Copy dwords into the ring (wrapping), without committing them."""
        for dword in (d for packet in packets for d in packet):
            self.memory.write_u32(RING + self.index % self.ring_size, dword)
            self.index += 4

    def commit(self):
        """Store the write pointer as UpdateWriteAndDoorbellRegister does."""
        if self.gfx9:
            self.memory.write_u64(WPTR, self.index)
        else:
            self.memory.write_u32(WPTR, self.index % self.ring_size)

    def submit(self, *packets):
        self.write(*packets)
        self.commit()
        return self.engine.process()

    def rptr(self):
        return self.memory.read_u64(RPTR)

    def fill_data(self, offset, data):
        self.memory.write(DATA + offset, data)

    def data(self, offset, size):
        return self.memory.read(DATA + offset, size)


def pattern(size, seed=1):
    return bytes((i * 37 + seed * 11) & 0xFF for i in range(size))


# --------------------------------------------------------------------- tests
@pytest.mark.parametrize("gfx9", [True, False])
@pytest.mark.parametrize("size,src_off,dst_off", [(1, 0, 0), (3, 1, 6), (7, 5, 2),
                                                  (13, 3, 0x801), (4097, 2, 0x2003)])
def test_copy_linear_odd_sizes_and_unaligned(gfx9, size, src_off, dst_off):
    q = Queue(gfx9=gfx9)
    source = pattern(size)
    q.fill_data(src_off, source)
    q.fill_data(0x8000 + dst_off - 1, b"\xAA" * (size + 2))  # a guard byte at each end
    assert q.submit(copy_linear(DATA + 0x8000 + dst_off, DATA + src_off, size, gfx9))
    assert q.data(0x8000 + dst_off - 1, size + 2) == b"\xAA" + source + b"\xAA"


def test_copy_linear_leaves_neighbours_alone():
    q = Queue()
    q.fill_data(0x100, b"\x55" * 16)
    q.fill_data(0, b"abcde")
    q.submit(copy_linear(DATA + 0x104, DATA, 5))
    assert q.data(0x100, 16) == b"\x55" * 4 + b"abcde" + b"\x55" * 7


@pytest.mark.parametrize("gfx9", [True, False])
def test_const_fill_dwords(gfx9):
    q = Queue(gfx9=gfx9)
    q.fill_data(0, b"\xEE" * 64)
    assert q.submit(const_fill(DATA + 8, 0xDEADBEEF, 5, gfx9))
    assert q.data(0, 8) == b"\xEE" * 8
    assert q.data(8, 20) == bytes.fromhex("efbeadde") * 5
    assert q.data(28, 36) == b"\xEE" * 36


def test_const_fill_bytes():
    """fillsize 0 fills bytes with the low byte of the data; gfx9 count is bytes - 1."""
    q = Queue()
    q.fill_data(0, b"\x11" * 16)
    q.submit([0x0000000B, lo(DATA + 3), hi(DATA + 3), 0x12345678, 7 - 1])
    assert q.data(0, 16) == b"\x11" * 3 + b"\x78" * 7 + b"\x11" * 6


def test_fence_writes_value():
    q = Queue()
    q.fill_data(0, b"\xFF" * 12)
    assert q.submit(fence(DATA + 4, 0x01020304))
    assert q.data(0, 12) == b"\xFF" * 4 + bytes([4, 3, 2, 1]) + b"\xFF" * 4


def test_trap_reports_context_id():
    q = Queue()
    assert q.submit(trap(42), trap(0x0ABCDEF1))
    assert q.traps == [42, 0x0ABCDEF1]


def test_trap_without_handler_is_harmless():
    q = Queue(on_trap=None)
    assert q.submit(trap(7), fence(DATA, 9))
    assert q.memory.read_u32(DATA) == 9


def test_poll_stops_and_resumes():
    q = Queue()
    signal = DATA + 0x40
    q.memory.write_u64(signal, 1)
    assert q.submit(fence(DATA, 1), poll_eq(signal + 4, 0), poll_eq(signal, 0), fence(DATA, 2))
    # The first fence ran; the engine waits on the low dword's poll.
    assert q.memory.read_u32(DATA) == 1
    assert q.rptr() == 4 * 4 + 6 * 4
    assert not q.engine.process()  # still not met: nothing consumed
    assert q.rptr() == 4 * 4 + 6 * 4
    q.memory.write_u64(signal, 0)
    assert q.engine.process()
    assert q.memory.read_u32(DATA) == 2
    assert q.rptr() == q.index


@pytest.mark.parametrize("func,reference,passes", [
    (1, 6, True), (1, 5, False),    # <
    (2, 5, True), (2, 4, False),    # <=
    (3, 5, True), (3, 6, False),    # ==
    (4, 4, True), (4, 5, False),    # !=
    (5, 5, True), (5, 6, False),    # >=
    (6, 4, True), (6, 5, False),    # >
    (0, 9, True),                   # always
])
def test_poll_compares_under_mask(func, reference, passes):
    q = Queue()
    word = DATA + 0x80
    q.memory.write_u32(word, 0xAB00_0005)  # 5 under the mask
    poll = [0x8 | (func << 28) | (1 << 31), lo(word), hi(word), reference, 0x00FF_FFFF,
            0xFFF << 16]
    assert q.submit(poll, fence(DATA, 1)) == passes
    assert q.memory.read_u32(DATA) == (1 if passes else 0)
    assert q.rptr() == (40 if passes else 0)


def test_hdp_flush_is_a_no_op():
    q = Queue()
    q.write(HDP_FLUSH)
    q.commit()
    before = bytes(q.memory.data)
    assert q.engine.process()
    assert q.rptr() == 24
    after = bytearray(q.memory.data)
    after[RPTR - BASE:RPTR - BASE + 8] = before[RPTR - BASE:RPTR - BASE + 8]
    assert bytes(after) == before


def test_register_poll_is_rejected():
    q = Queue()
    with pytest.raises(SdmaError, match="register"):
        q.submit([0x8 | (3 << 28), 0x1234, 0, 1, 0xFFFFFFFF, 0xFFF << 16])


@pytest.mark.parametrize("start,expected", [(5, 4), (1, 0), (0x1_0000_0000, 0xFFFF_FFFF),
                                            (0, 2**64 - 1)])
def test_atomic_add64_decrements_signal(start, expected):
    q = Queue()
    signal = DATA + 0x108
    q.memory.write_u64(signal, start)
    q.memory.write_u64(signal + 8, 0x5A5A5A5A5A5A5A5A)
    assert q.submit(atomic_decrement(signal))
    assert q.memory.read_u64(signal) == expected
    assert q.memory.read_u64(signal + 8) == 0x5A5A5A5A5A5A5A5A


@pytest.mark.parametrize("operation,old,src,cmp,expected", [
    (0x0F, 0xFFFF_FFFF, 2, 0, 1),                        # ADD_RTN_32 wraps at 32 bits
    (0x4F, 10, 3, 0, 13),                                # ADD_32 (no return)
    (0x30, 10, 3, 0, 7),                                 # SUB_RTN_64
    (0x28, 5, 9, 5, 9),                                  # CMPSWAP_RTN_64, equal
    (0x28, 5, 9, 6, 5),                                  # CMPSWAP_RTN_64, different
    (0x27, 5, 2**63, 0, 2**63),                          # SWAP_RTN_64
    (0x31, 2**64 - 1, 3, 0, 2**64 - 1),                  # SMIN_RTN_64: -1 < 3
    (0x32, 2**64 - 1, 3, 0, 3),                          # UMIN_RTN_64
    (0x36, 0xF0, 0x0F, 0, 0xFF),                         # OR_RTN_64
    (0x18, 4, 4, 0, 0),                                  # INC_RTN_32 wraps at src
    (0x19, 0, 4, 0, 4),                                  # DEC_RTN_32 wraps to src
])
def test_atomic_operations(operation, old, src, cmp, expected):
    q = Queue()
    address = DATA + 0x200
    q.memory.write_u64(address, old if operation & 0x20 else (0xCAFE << 32) | old)
    q.submit([0xA | (operation << 25), lo(address), hi(address), lo(src), hi(src),
              lo(cmp), hi(cmp), 0])
    if operation & 0x20:
        assert q.memory.read_u64(address) == expected
    else:
        assert q.memory.read_u64(address) == (0xCAFE << 32) | expected


def test_atomic_loop_cmpswap_waits_for_compare():
    q = Queue()
    address = DATA + 0x200
    q.memory.write_u64(address, 1)
    assert not q.submit([0xA | (1 << 16) | (0x28 << 25), lo(address), hi(address), 7, 0,
                         0, 0, 16])
    q.memory.write_u64(address, 0)
    assert q.engine.process()
    assert q.memory.read_u64(address) == 7


def test_float_atomic_is_rejected():
    q = Queue()
    with pytest.raises(SdmaError, match="ATOMIC"):
        q.submit([0xA | (0x21 << 25), lo(DATA), hi(DATA), 0, 0, 0, 0, 0])


def test_timestamp_writes_clock():
    ticks = iter([1000, 2**40 + 7])
    q = Queue(clock=lambda: next(ticks))
    assert q.submit(timestamp(DATA + 0x20), copy_linear(DATA + 0x100, DATA, 4),
                    timestamp(DATA + 0x40))
    assert q.memory.read_u64(DATA + 0x20) == 1000
    assert q.memory.read_u64(DATA + 0x40) == 2**40 + 7


def test_timestamp_default_clock_advances():
    q = Queue()
    q.submit(timestamp(DATA), timestamp(DATA + 8))
    first, second = q.memory.read_u64(DATA), q.memory.read_u64(DATA + 8)
    assert 0 < first <= second


def test_nop_padding_and_burst_nop():
    q = Queue()
    # ROCr pads to the ring end with zero dwords; a NOP's count skips more dwords.
    assert q.submit([0], [0], [3 << 16, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF], fence(DATA, 3))
    assert q.memory.read_u32(DATA) == 3
    assert q.rptr() == q.index == 4 * 10


def test_read_pointer_advances_per_packet():
    q = Queue()
    q.write(fence(DATA, 1), poll_eq(DATA + 8, 1), trap(5))
    q.commit()
    q.engine.process()
    assert q.rptr() == 16 == q.engine.read_pointer
    assert q.traps == []
    q.memory.write_u32(DATA + 8, 1)
    q.engine.process()
    assert q.rptr() == 16 + 24 + 8
    assert q.traps == [5]
    assert not q.engine.process()  # empty ring: nothing to consume


def test_partly_committed_packet_waits():
    q = Queue()
    q.write(fence(DATA, 1))
    q.memory.write_u64(WPTR, 8)  # only half the fence is visible
    assert not q.engine.process()
    assert q.rptr() == 0
    q.commit()
    assert q.engine.process()
    assert q.memory.read_u32(DATA) == 1


def test_ring_wraparound_gfx9_monotonic_pointer():
    """gfx9: the write/read pointers keep growing past the ring size."""
    q = Queue(ring_size=64)
    for round_ in range(10):  # 10 x 28 bytes through a 64-byte ring
        q.fill_data(0x100, pattern(8, round_))
        assert q.submit(copy_linear(DATA + 0x200 + 8 * round_, DATA + 0x100, 8))
        assert q.data(0x200 + 8 * round_, 8) == pattern(8, round_)
        assert q.rptr() == q.index == 28 * (round_ + 1)


def test_ring_wraparound_gfx8_wrapped_pointer():
    """gfx8: ROCr stores the write pointer wrapped into the ring, 32 bits wide."""
    q = Queue(ring_size=64, gfx9=False)
    for round_ in range(10):
        assert q.submit(fence(DATA + 4 * round_, round_ + 100), trap(round_))
        assert q.memory.read_u32(DATA + 4 * round_) == round_ + 100
        assert q.rptr() == (24 * (round_ + 1)) % 64
    assert q.traps == list(range(10))


def test_ring_wraparound_with_rocr_padding():
    """ROCr never splits a command: it pads the ring end with zero (NOP) dwords."""
    q = Queue(ring_size=64)
    q.submit(fence(DATA, 1), fence(DATA, 2), fence(DATA, 3))  # 48 bytes
    q.write([0] * 4)  # PadRingToEnd
    q.write(copy_linear(DATA + 0x10, DATA, 4))
    q.commit()
    assert q.engine.process()
    assert q.memory.read_u32(DATA + 0x10) == 3
    assert q.rptr() == 48 + 16 + 28


def test_read_pointer_starts_from_memory():
    memory = FlatMemory()
    memory.write_u64(RPTR, 0x400)
    memory.write_u64(WPTR, 0x400)
    engine = SdmaEngine(memory, RING, 0x400, RPTR, WPTR)
    assert engine.read_pointer == 0x400
    assert not engine.process()


def test_copy_rect_2d_window():
    q = Queue()
    src_pitch, dst_pitch = 32, 48
    q.fill_data(0, pattern(32 * 8))
    # Copy a 5x3 window (bytes) from (3, 2) to (7, 1).
    assert q.submit(copy_rect(DATA, (3, 2, 0), src_pitch, DATA + 0x1000, (7, 1, 0), dst_pitch,
                              (5, 3, 1)))
    source = pattern(32 * 8)
    for y in range(3):
        row = source[(2 + y) * src_pitch + 3:(2 + y) * src_pitch + 8]
        assert q.data(0x1000 + (1 + y) * dst_pitch + 7, 5) == row
        assert q.data(0x1000 + (1 + y) * dst_pitch + 6, 1) == b"\0"
        assert q.data(0x1000 + (1 + y) * dst_pitch + 12, 1) == b"\0"
    assert q.data(0x1000, dst_pitch) == bytes(dst_pitch)


def test_copy_rect_dword_elements_and_slices():
    q = Queue()
    source = pattern(4 * 4 * 4 * 3)  # 3 slices of 4 rows of 4 dwords
    q.fill_data(0, source)
    element = 2
    packet = copy_rect(DATA, (1, 1, 0), 16, DATA + 0x1000, (0, 0, 0), 8, (2, 2, 2), element)
    packet[5] = 64 // 4 - 1    # src slice pitch in elements, minus one
    packet[10] = 16 // 4 - 1   # dst slice pitch
    assert q.submit(packet)
    for z in range(2):
        for y in range(2):
            src = z * 64 + (1 + y) * 16 + 4
            assert q.data(0x1000 + z * 16 + y * 8, 8) == source[src:src + 8]


def test_rocr_submit_command_sequence_gfx9():
    """SubmitCommand with one dependency, profiling and an interrupt signal on gfx9."""
    ticks = iter([111, 222])
    q = Queue(clock=lambda: next(ticks))
    dep, out, mailbox = DATA + 0x400, DATA + 0x440, DATA + 0x480
    q.memory.write_u64(dep, 1)
    q.memory.write_u64(out, 1)
    q.fill_data(0, pattern(100))
    q.write(poll_eq(dep + 4, 0), poll_eq(dep, 0), timestamp(DATA + 0x500), HDP_FLUSH,
            copy_linear(DATA + 0x800, DATA, 100), timestamp(DATA + 0x520),
            atomic_decrement(out), fence(mailbox, 77), trap(77))
    q.commit()
    assert q.engine.process()  # the high dword is already 0: the low dword's poll waits
    assert q.rptr() == 24
    assert q.memory.read_u64(DATA + 0x500) == 0
    assert not q.engine.process()
    q.memory.write_u64(dep, 0)  # the dependency completes
    assert q.engine.process()
    assert q.data(0x800, 100) == pattern(100)
    assert q.memory.read_u64(out) == 0
    assert q.memory.read_u32(mailbox) == 77
    assert q.traps == [77]
    assert (q.memory.read_u64(DATA + 0x500), q.memory.read_u64(DATA + 0x520)) == (111, 222)
    assert q.rptr() == q.index


def test_rocr_fence_completion_gfx8():
    """Without platform atomics ROCr writes the new signal value with fences (high, low)."""
    q = Queue(gfx9=False)
    out = DATA + 0x40
    q.memory.write_u64(out, 0x1_0000_0001)
    value = 0x1_0000_0000
    assert q.submit(copy_linear(DATA + 0x100, DATA, 16, gfx9=False),
                    fence(out + 4, hi(value)), fence(out, lo(value)))
    assert q.memory.read_u64(out) == value


def test_unknown_opcode_raises_and_keeps_read_pointer():
    q = Queue()
    q.submit(fence(DATA, 1))
    with pytest.raises(SdmaError) as info:
        q.submit([0x0000_0307, 0, 0])
    message = str(info.value)
    assert "opcode 7" in message and "sub-opcode 3" in message and "ring offset 0x10" in message
    assert isinstance(info.value, ToolchainError)
    assert q.rptr() == 16


def test_unknown_sub_opcode_raises():
    q = Queue()
    with pytest.raises(SdmaError, match="opcode 1 sub-opcode 1 .*ring offset 0x0"):
        q.submit([0x0000_0101] + [0] * 6)


def test_byte_swap_is_rejected():
    q = Queue()
    packet = copy_linear(DATA + 0x100, DATA, 4)
    packet[2] = 2 << 24
    with pytest.raises(SdmaError, match="swap"):
        q.submit(packet)


def test_bad_write_pointer_is_reported():
    q = Queue(ring_size=64)
    q.memory.write_u64(WPTR, 128)
    with pytest.raises(SdmaError, match="ahead"):
        q.engine.process()
    q.memory.write_u64(WPTR, 6)
    with pytest.raises(SdmaError, match="aligned"):
        q.engine.process()


@pytest.mark.parametrize("ring_size,gfx_major", [(0x300, 9), (0x400, 10)])
def test_bad_configuration(ring_size, gfx_major):
    with pytest.raises(SdmaError):
        SdmaEngine(FlatMemory(), RING, ring_size, RPTR, WPTR, gfx_major=gfx_major)

"""DS (LDS) instructions: loads, stores, read2/write2, atomics, lane ops, bounds."""

import zlib

import numpy as np
import pytest

from .test_mem_support import make_state, run, set_exec

LANE = np.arange(64)


def ds(addr=0, data0=0, data1=0, vdst=0, offset=0, offset0=None, offset1=None, gds=0):
    if offset0 is None:
        offset0, offset1 = offset & 0xFF, offset >> 8
    return dict(addr=addr, data0=data0, data1=data1, vdst=vdst, offset0=offset0,
                offset1=offset1 or 0, gds=gds)


def lds_state(target="gfx900", waves=2, groups=2, size=4096):
    state = make_state(target, waves=waves, groups=groups, lds_bytes=size)
    state.lds[:] = np.random.default_rng(1).integers(0, 256, state.lds.shape, dtype=np.uint8)
    return state


def test_write_then_read_b32_per_work_group():
    state = lds_state()
    state.vgpr[0] = LANE * 4
    state.vgpr[1] = np.arange(128).reshape(2, 64) * 3
    run(state, "ds_write_b32", "DS", ds(addr=0, data0=1, offset=16))
    assert state.lds[0, 16:16 + 256].view(np.uint32).tolist() == (LANE * 3).tolist()
    assert state.lds[1, 16:16 + 256].view(np.uint32).tolist() == ((LANE + 64) * 3).tolist()
    run(state, "ds_read_b32", "DS", ds(addr=0, vdst=2, offset=20))
    assert state.vgpr[2, 0, :63].tolist() == (LANE[1:] * 3).tolist()


@pytest.mark.parametrize("op,nbytes,dtype", [
    ("ds_read_u8", 1, np.uint8), ("ds_read_i8", 1, np.int8), ("ds_read_u16", 2, np.uint16),
    ("ds_read_i16", 2, np.int16)])
def test_sub_dword_reads_extend(op, nbytes, dtype):
    state = lds_state(waves=1, groups=1)
    state.vgpr[0] = LANE * nbytes
    run(state, op, "DS", ds(addr=0, vdst=3))
    expected = state.lds[0, :64 * nbytes].view(dtype).astype(np.int64) & 0xFFFFFFFF
    assert state.vgpr[3, 0].tolist() == expected.tolist()


def test_wide_reads_and_writes():
    state = lds_state(waves=1, groups=1)
    state.vgpr[0] = LANE * 16
    for reg in range(4):
        state.vgpr[4 + reg] = LANE * 10 + reg
    run(state, "ds_write_b128", "DS", ds(addr=0, data0=4))
    words = state.lds[0, :1024].view(np.uint32).reshape(64, 4)
    assert words.tolist() == (LANE[:, None] * 10 + np.arange(4)).tolist()
    run(state, "ds_read_b96", "DS", ds(addr=0, vdst=10, offset=4))
    assert state.vgpr[10, 0].tolist() == (LANE * 10 + 1).tolist()
    assert state.vgpr[12, 0].tolist() == (LANE * 10 + 3).tolist()


def test_d16_reads_merge_halves_and_d16_hi_writes():
    state = lds_state(waves=1, groups=1)
    state.vgpr[0] = LANE * 2
    state.vgpr[5] = 0xAAAA5555
    run(state, "ds_read_u16_d16_hi", "DS", ds(addr=0, vdst=5))
    mem = state.lds[0, :128].view(np.uint16).astype(np.int64)
    assert state.vgpr[5, 0].tolist() == ((mem << 16) | 0x5555).tolist()
    state.vgpr[6] = 0xAAAA5555
    run(state, "ds_read_i8_d16", "DS", ds(addr=0, vdst=6))
    signed = state.lds[0, LANE * 2].view(np.int8).astype(np.int64) & 0xFFFF
    assert state.vgpr[6, 0].tolist() == (0xAAAA0000 | signed).tolist()
    state.vgpr[7] = 0x12340000 + LANE
    run(state, "ds_write_b16_d16_hi", "DS", ds(addr=0, data0=7))
    assert state.lds[0, :128].view(np.uint16).tolist() == [0x1234] * 64


def test_read2_write2_and_st64_offsets():
    state = lds_state(waves=1, groups=1, size=65536)
    state.vgpr[0] = LANE * 4
    state.vgpr[1] = LANE + 1000
    state.vgpr[2] = LANE + 2000
    run(state, "ds_write2_b32", "DS", ds(addr=0, data0=1, data1=2, offset0=0, offset1=64))
    words = state.lds[0].view(np.uint32)
    assert words[:64].tolist() == (LANE + 1000).tolist()
    assert words[64:128].tolist() == (LANE + 2000).tolist()
    run(state, "ds_write2st64_b32", "DS", ds(addr=0, data0=2, data1=1, offset0=1, offset1=2))
    assert words[64:128].tolist() == (LANE + 2000).tolist()      # offset0 * 64 dwords
    assert words[128:192].tolist() == (LANE + 1000).tolist()
    state.vgpr[0] = LANE * 8
    run(state, "ds_read2_b64", "DS", ds(addr=0, vdst=10, offset0=1, offset1=3))
    pairs = words[:1024].reshape(-1, 2)
    assert state.vgpr[10, 0].tolist() == pairs[LANE + 1, 0].tolist()
    assert state.vgpr[13, 0].tolist() == pairs[LANE + 3, 1].tolist()


def test_exec_gates_stores_and_loads():
    state = lds_state(waves=1, groups=1)
    before = state.lds.copy()
    lanes = np.zeros((1, 64), bool)
    lanes[0, ::3] = True
    set_exec(state, lanes)
    state.vgpr[0] = LANE * 4
    state.vgpr[1] = 7
    state.vgpr[2] = 99
    run(state, "ds_write_b32", "DS", ds(addr=0, data0=1))
    run(state, "ds_read_b32", "DS", ds(addr=0, vdst=2))
    words, old = state.lds[0, :256].view(np.uint32), before[0, :256].view(np.uint32)
    assert words.tolist() == np.where(LANE % 3 == 0, 7, old).tolist()
    assert state.vgpr[2, 0].tolist() == np.where(LANE % 3 == 0, 7, 99).tolist()


def test_out_of_range_reads_zero_and_drops_writes():
    state = lds_state(waves=1, groups=1, size=256)
    state.vgpr[0] = LANE * 4 + 128
    state.vgpr[1] = 5
    before = state.lds.copy()
    run(state, "ds_write_b32", "DS", ds(addr=0, data0=1))
    assert state.lds[0, 128:].view(np.uint32).tolist() == [5] * 32
    assert (state.lds[0, :128] == before[0, :128]).all()
    run(state, "ds_read_b32", "DS", ds(addr=0, vdst=2))
    assert state.vgpr[2, 0].tolist() == [5] * 32 + [0] * 32


def test_gfx8_m0_limits_lds_accesses():
    state = lds_state(target="gfx803", waves=1, groups=1, size=1024)
    state.sgpr[124] = 64
    state.vgpr[0] = LANE * 4
    run(state, "ds_read_b32", "DS", ds(addr=0, vdst=2))
    words = state.lds[0, :64].view(np.uint32)
    assert state.vgpr[2, 0].tolist() == words.tolist() + [0] * 48
    # GFX9 ignores M0
    state9 = lds_state(waves=1, groups=1, size=1024)
    state9.sgpr[124] = 64
    state9.vgpr[0] = LANE * 4
    run(state9, "ds_read_b32", "DS", ds(addr=0, vdst=2))
    assert state9.vgpr[2, 0].tolist() == state9.lds[0, :256].view(np.uint32).tolist()


def serial_reference(memory, addresses, fn):
    """Apply fn lane after lane, wave after wave: the executor's promised order."""
    memory = memory.copy()
    old = []
    for flat, address in enumerate(addresses.ravel()):
        old.append(int(memory[address]))
        memory[address] = fn(int(memory[address]), flat) & 0xFFFFFFFF
    return memory, np.array(old).reshape(addresses.shape)


ATOMICS = {
    "ds_add_rtn_u32": lambda m, d, _: m + d,
    "ds_sub_rtn_u32": lambda m, d, _: m - d,
    "ds_rsub_rtn_u32": lambda m, d, _: d - m,
    "ds_inc_rtn_u32": lambda m, d, _: 0 if m >= d else m + 1,
    "ds_dec_rtn_u32": lambda m, d, _: d if m == 0 or m > d else m - 1,
    "ds_min_rtn_u32": lambda m, d, _: min(m, d),
    "ds_max_rtn_u32": lambda m, d, _: max(m, d),
    "ds_min_rtn_i32": lambda m, d, _: m if np.int32(np.uint32(m)) < np.int32(np.uint32(d))
    else d,
    "ds_max_rtn_i32": lambda m, d, _: m if np.int32(np.uint32(m)) > np.int32(np.uint32(d))
    else d,
    "ds_and_rtn_b32": lambda m, d, _: m & d,
    "ds_or_rtn_b32": lambda m, d, _: m | d,
    "ds_xor_rtn_b32": lambda m, d, _: m ^ d,
    "ds_wrxchg_rtn_b32": lambda m, d, _: d,
    "ds_mskor_rtn_b32": lambda m, d, e: (m & ~d) | e,
    "ds_cmpst_rtn_b32": lambda m, d, e: e if m == d else m,
    "ds_wrap_rtn_b32": lambda m, d, e: m - d if m >= d else m + e,
}


@pytest.mark.parametrize("op", sorted(ATOMICS))
def test_atomics_apply_in_lane_then_wave_order(op):
    rng = np.random.default_rng(zlib.crc32(op.encode()))
    state = make_state(waves=2, groups=1, lds_bytes=64)
    state.lds[0] = rng.integers(0, 256, 64, dtype=np.uint8)
    addresses = rng.integers(0, 4, (2, 64)) * 4     # heavy contention on 4 dwords
    data = rng.integers(0, 40, (2, 64)).astype(np.uint32)
    data[0, :3] = [0xFFFFFFF0, 0x80000000, 3]
    data2 = rng.integers(0, 40, (2, 64)).astype(np.uint32)
    state.vgpr[0] = addresses
    state.vgpr[1] = data
    state.vgpr[2] = data2
    memory = state.lds[0].view(np.uint32).astype(np.int64).copy()
    fn = ATOMICS[op]
    flat_data, flat_data2 = data.ravel().astype(np.int64), data2.ravel().astype(np.int64)
    expected_mem, expected_old = serial_reference(
        memory, addresses // 4, lambda m, i: fn(m, int(flat_data[i]), int(flat_data2[i])))
    run(state, op, "DS", ds(addr=0, data0=1, data1=2, vdst=3))
    assert state.lds[0].view(np.uint32).tolist() == expected_mem.tolist()
    assert state.vgpr[3].tolist() == expected_old.tolist()


def test_atomic_without_return_leaves_vdst_and_counts():
    state = make_state(waves=3, groups=1, lds_bytes=16)
    state.vgpr[0] = 8
    state.vgpr[1] = 1
    state.vgpr[3] = 77
    run(state, "ds_add_u32", "DS", ds(addr=0, data0=1, vdst=3))
    assert state.lds[0].view(np.uint32)[2] == 192
    assert (state.vgpr[3] == 77).all()


def test_64_bit_atomics_and_float_min():
    state = make_state(waves=1, groups=1, lds_bytes=64)
    state.lds[0, :8] = np.array([0xFFFFFFFF_FFFFFFF0], np.uint64).view(np.uint8)
    state.vgpr[0] = 0
    state.vgpr[1] = 1
    state.vgpr[2] = 0
    run(state, "ds_add_rtn_u64", "DS", ds(addr=0, data0=1, vdst=4))
    old = state.vgpr[4, 0].astype(np.uint64) | (state.vgpr[5, 0].astype(np.uint64) << 32)
    assert old.tolist() == [(0xFFFFFFFF_FFFFFFF0 + i) % (1 << 64) for i in range(64)]
    assert int(state.lds[0, :8].view(np.uint64)[0]) == (0xFFFFFFFF_FFFFFFF0 + 64) % (1 << 64)
    state.lds[0, 8:12] = np.array([1.5], np.float32).view(np.uint8)
    state.vgpr[0] = 8
    state.vgpr[1] = np.linspace(3, -3, 64).astype(np.float32).view(np.uint32)
    run(state, "ds_min_rtn_f32", "DS", ds(addr=0, data0=1, vdst=6))
    assert state.lds[0, 8:12].view(np.float32)[0] == np.float32(-3)
    assert state.vgpr[6, 0].view(np.float32)[0] == np.float32(1.5)


def test_cmpst_b64_compares_data0_and_stores_data1():
    state = make_state(waves=1, groups=1, lds_bytes=64)
    state.lds[0, :8] = np.array([5], np.uint64).view(np.uint8)
    set_exec(state, np.arange(64)[None, :] < 2)
    state.vgpr[0] = 0
    state.vgpr[1], state.vgpr[2] = 5, 0          # compare
    state.vgpr[3], state.vgpr[4] = 9, 1          # new value
    run(state, "ds_cmpst_rtn_b64", "DS", ds(addr=0, data0=1, data1=3, vdst=6))
    assert int(state.lds[0, :8].view(np.uint64)[0]) == (1 << 32) | 9
    assert state.vgpr[6, 0, :2].tolist() == [5, 9]
    assert state.vgpr[7, 0, :2].tolist() == [0, 1]


def test_wrxchg2_swaps_two_dwords():
    state = make_state(waves=1, groups=1, lds_bytes=1024)
    state.lds[0] = 0
    state.lds[0, :1024].view(np.uint32)[:] = np.arange(256)
    set_exec(state, np.arange(64)[None, :] == 0)
    state.vgpr[0] = 0
    state.vgpr[1] = 111
    state.vgpr[2] = 222
    run(state, "ds_wrxchg2st64_rtn_b32", "DS", ds(addr=0, data0=1, data1=2, vdst=4,
                                                  offset0=1, offset1=2))
    words = state.lds[0].view(np.uint32)
    assert (words[64], words[128]) == (111, 222)
    assert (state.vgpr[4, 0, 0], state.vgpr[5, 0, 0]) == (64, 128)


def test_swizzle_modes():
    state = make_state(waves=1)
    state.vgpr[1] = LANE + 100
    state.vgpr[0] = 7                  # DATA0 (unused): the source is in ADDR
    # bit-mask mode: and 0x1f, or 0, xor 1: swap neighbours
    run(state, "ds_swizzle_b32", "DS", ds(addr=1, data0=0, vdst=2, offset=(1 << 10) | 0x1F))
    assert state.vgpr[2, 0].tolist() == ((LANE ^ 1) + 100).tolist()
    # quad-permute mode: every lane takes lane 3 of its quad ... reversed order
    run(state, "ds_swizzle_b32", "DS", ds(addr=1, data0=0, vdst=2, offset=0x8000 | 0b00011011))
    assert state.vgpr[2, 0].tolist() == ((LANE & ~3) + 3 - (LANE & 3) + 100).tolist()


def test_bpermute_and_permute():
    state = make_state(waves=2)
    state.vgpr[1] = np.arange(128).reshape(2, 64)
    state.vgpr[0] = ((63 - LANE) * 4)
    run(state, "ds_bpermute_b32", "DS", ds(addr=0, data0=1, vdst=2))
    assert state.vgpr[2, 1].tolist() == (64 + 63 - LANE).tolist()
    state.vgpr[0] = ((LANE + 1) % 64) * 4 + 256         # wraps modulo 64 lanes
    run(state, "ds_permute_b32", "DS", ds(addr=0, data0=1, vdst=3))
    assert state.vgpr[3, 0].tolist() == np.roll(LANE, 1).tolist()
    lanes = np.ones((2, 64), bool)
    lanes[:, 5] = False
    set_exec(state, lanes)
    state.vgpr[0] = 5 * 4
    state.vgpr[4] = 9
    run(state, "ds_bpermute_b32", "DS", ds(addr=0, data0=1, vdst=4))
    assert state.vgpr[4, 0].tolist() == [0] * 5 + [9] + [0] * 58     # disabled source: 0


def test_append_and_consume_count_active_lanes_per_wave():
    state = make_state(waves=2, groups=1, lds_bytes=64)
    state.lds[0] = 0
    state.lds[0, 16:20].view(np.uint32)[0] = 10
    lanes = np.zeros((2, 64), bool)
    lanes[0, :5] = True
    lanes[1, :7] = True
    set_exec(state, lanes)
    state.sgpr[124] = 12
    run(state, "ds_append", "DS", ds(vdst=1, offset=4))
    assert state.vgpr[1, :, 0].tolist() == [10, 15]
    assert state.lds[0, 16:20].view(np.uint32)[0] == 22
    run(state, "ds_consume", "DS", ds(vdst=1, offset=4))
    assert state.lds[0, 16:20].view(np.uint32)[0] == 10


def test_gds_bit_leaves_lds_alone():
    # GDS itself is tested in test_gds*.py
    state = make_state(waves=1, groups=1, lds_bytes=64)
    state.sgpr[124] = 0x100                       # GDS window: base 0, 256 bytes
    state.vgpr[1] = 7
    run(state, "ds_write_b32", "DS", ds(data0=1, gds=1))
    assert not state.lds.any()
    assert state.request.gds.memory[:4].view(np.uint32)[0] == 7


def test_lds_atomics_ignore_low_address_bits():
    state = make_state(waves=1, groups=1, lds_bytes=64)
    state.lds[0] = 0
    set_exec(state, LANE[None, :] < 3)
    state.vgpr[0] = 9                       # dword 2 (byte 8), low bits ignored
    state.vgpr[1] = 5
    run(state, "ds_add_rtn_u32", "DS", ds(addr=0, data0=1, vdst=2, offset=2))
    assert state.lds[0].view(np.uint32)[2] == 15
    assert state.vgpr[2, 0, :3].tolist() == [0, 5, 10]

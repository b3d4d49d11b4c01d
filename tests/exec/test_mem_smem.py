"""Scalar memory instructions: SMRD (GFX6/7) and SMEM (GFX8/9)."""

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from amdgpu_tools.exec.addressing import encode_buffer_resource

from .test_mem_support import make_state, run

WORDS = np.arange(64, dtype=np.uint32) * 3 + 1


def table(state):
    address = state.memory.allocate(256)
    state.memory.write(address, WORDS)
    return address


def test_gfx9_s_load_with_immediate_byte_offset():
    state = make_state("gfx900", waves=2)
    base = table(state)
    state.write_sgpr64(slice(None), 4, np.array([base, base + 16], np.uint64))
    run(state, "s_load_dwordx4", "SMEM", dict(sdata=8, sbase=2, imm=1, offset=8, soe=0,
                                              soffset=0, glc=0))
    assert state.sgpr[8:12, 0].tolist() == WORDS[2:6].tolist()
    assert state.sgpr[8:12, 1].tolist() == WORDS[6:10].tolist()


def test_gfx9_sgpr_offset_and_soe():
    state = make_state("gfx900", waves=1)
    base = table(state)
    state.write_sgpr64(slice(None), 0, np.array([base], np.uint64))
    state.sgpr[20] = 12
    run(state, "s_load_dword", "SMEM", dict(sdata=3, sbase=0, imm=0, offset=20, soe=0,
                                            soffset=0))
    assert state.sgpr[3, 0] == WORDS[3]
    run(state, "s_load_dwordx2", "SMEM", dict(sdata=4, sbase=0, imm=1, offset=4, soe=1,
                                              soffset=20))
    assert state.sgpr[4:6, 0].tolist() == WORDS[4:6].tolist()


def test_gfx7_smrd_immediate_is_in_dwords_and_literal_form():
    state = make_state("gfx700", waves=1)
    base = table(state)
    state.write_sgpr64(slice(None), 2, np.array([base], np.uint64))
    run(state, "s_load_dwordx8", "SMRD", dict(sdst=10, sbase=1, imm=1, offset=3))
    assert state.sgpr[10:18, 0].tolist() == WORDS[3:11].tolist()
    run(state, "s_load_dword", "SMRD", dict(sdst=20, sbase=1, imm=0, offset=255), literal=40)
    assert state.sgpr[20, 0] == WORDS[40]


def test_gfx8_low_address_bits_are_ignored():
    state = make_state("gfx803", waves=1)
    base = table(state)
    state.write_sgpr64(slice(None), 0, np.array([base], np.uint64))
    run(state, "s_load_dword", "SMEM", dict(sdata=3, sbase=0, imm=1, offset=6))
    assert state.sgpr[3, 0] == WORDS[1]


def test_buffer_load_range_returns_zero():
    state = make_state("gfx900", waves=1)
    base = table(state)
    state.sgpr[4:8, 0] = encode_buffer_resource(base, num_records=20)
    run(state, "s_buffer_load_dwordx8", "SMEM", dict(sdata=8, sbase=2, imm=1, offset=4))
    assert state.sgpr[8:16, 0].tolist() == WORDS[1:5].tolist() + [0, 0, 0, 0]


def test_scalar_stores():
    state = make_state("gfx900", waves=2)
    base = state.memory.allocate(64)
    state.write_sgpr64(slice(None), 0, np.array([base, base + 8], np.uint64))
    state.sgpr[6] = [11, 22]
    state.sgpr[7] = [33, 44]
    run(state, "s_store_dwordx2", "SMEM", dict(sdata=6, sbase=0, imm=1, offset=4))
    assert np.frombuffer(state.memory.read(base, 20), np.uint32).tolist() == \
        [0, 11, 33, 22, 44]


def test_scalar_fault_names_the_wave():
    state = make_state("gfx900", waves=2)
    base = table(state)
    state.write_sgpr64(slice(None), 0, np.array([base, 0x10], np.uint64))
    with pytest.raises(KernelError) as error:
        run(state, "s_load_dword", "SMEM", dict(sdata=3, sbase=0, imm=1, offset=0))
    assert error.value.wave == 1 and error.value.address == 0x10


def test_memtime_increases_and_cache_ops_do_nothing():
    state = make_state("gfx900", waves=1)
    run(state, "s_memtime", "SMEM", dict(sdata=2, sbase=0, imm=0, offset=0))
    first = int(state.read_sgpr64(slice(None), 2)[0])
    run(state, "s_memtime", "SMEM", dict(sdata=2, sbase=0, imm=0, offset=0))
    assert int(state.read_sgpr64(slice(None), 2)[0]) > first
    before = state.sgpr.copy()
    run(state, "s_dcache_wb", "SMEM", dict(sdata=0, sbase=0, imm=0, offset=0))
    assert (state.sgpr == before).all()


def test_scalar_atomics_per_wave_in_order_with_glc():
    state = make_state("gfx900", waves=3)
    cell = state.memory.allocate(16)
    state.memory.write(cell, np.array([100, 0, 0, 0], np.uint32))
    state.write_sgpr64(slice(None), 0, np.full(3, cell, np.uint64))
    state.sgpr[4] = [1, 2, 3]
    run(state, "s_atomic_sub", "SMEM", dict(sdata=4, sbase=0, imm=1, offset=0, glc=1))
    assert state.sgpr[4].tolist() == [100, 99, 97]
    assert state.memory.read_u32(cell) == 94
    # 64-bit compare-and-swap: sdata = {source pair, compare pair}
    state.sgpr[8:12] = np.array([[7, 7, 7], [0, 0, 0], [94, 7, 5], [0, 0, 0]], np.uint32)
    state.sgpr[8, 2] = 9
    state.sgpr[10, 2] = 7
    state.memory.write_u64(cell + 8, 94)
    run(state, "s_atomic_cmpswap_x2", "SMEM", dict(sdata=8, sbase=0, imm=1, offset=8, glc=1))
    assert state.memory.read_u64(cell + 8) == 9
    assert state.sgpr[8].tolist() == [94, 7, 7]


def test_scalar_buffer_atomic_without_glc_keeps_sdata():
    state = make_state("gfx900", waves=2)
    cell = state.memory.allocate(16)
    state.sgpr[4:8] = np.array(encode_buffer_resource(cell, num_records=16), np.uint32)[:, None]
    state.sgpr[9] = 5
    run(state, "s_buffer_atomic_add", "SMEM", dict(sdata=9, sbase=2, imm=1, offset=4, glc=0))
    assert state.memory.read_u32(cell + 4) == 10
    assert state.sgpr[9].tolist() == [5, 5]

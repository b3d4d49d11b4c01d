"""FLAT, GLOBAL, SCRATCH, MUBUF and MTBUF instructions."""

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from amdgpu_tools.exec import setup
from amdgpu_tools.exec.addressing import encode_buffer_resource, swizzled_private_address
from amdgpu_tools.exec.launch import PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE
from .test_mem_support import make_request, make_state, run, set_exec

LANE = np.arange(64)
OFF = 0x7F


def put64(state, reg, values):
    values = np.asarray(values, np.uint64)
    state.vgpr[reg] = (values & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    state.vgpr[reg + 1] = (values >> np.uint64(32)).astype(np.uint32)


def get64(state, reg):
    return state.vgpr[reg].astype(np.uint64) | (state.vgpr[reg + 1].astype(np.uint64) << 32)


def flat(addr=0, data=0, vdst=0, offset=0, glc=0, saddr=OFF, **extra):
    return dict(addr=addr, data=data, vdst=vdst, offset=offset, glc=glc, slc=0, saddr=saddr,
                **extra)


def with_buffer(state, nbytes, fill=None):
    address = state.memory.allocate(nbytes)
    if fill is not None:
        state.memory.write(address, np.asarray(fill))
    return address


def dispatch_state(target="gfx900", waves=2, private=64, lds_bytes=256):
    """A state with a real dispatch layout: scratch backing and FLAT_SCRATCH set."""
    request = make_request(target)
    request.private_segment_size = private
    request.grid_size = (64 * waves, 1, 1)
    request.group_segment_size = lds_bytes
    layout = setup.prepare_dispatch(request)
    state = make_state(target, waves=waves, groups=waves, lds_bytes=lds_bytes,
                       memory=request.memory)
    state.request = request
    init = setup.initial_wave_state(layout, setup.all_workgroup_ids(layout))
    state.layout = layout
    state.write_sgpr64(slice(None), setup.flat_scratch_code(layout.generation),
                       init.flat_scratch)
    return state, layout, init


# ------------------------------------------------------------------ global
def test_global_load_store_vaddr_and_saddr_forms():
    state = make_state(waves=2)
    src = with_buffer(state, 1024, np.arange(256, dtype=np.uint32))
    dst = with_buffer(state, 1024 + 8)
    put64(state, 0, src + 4 + np.arange(128).reshape(2, 64) * 4)
    run(state, "global_load_dword", "GLOBAL", flat(addr=0, vdst=2, offset=-4 & 0x1FFF))
    assert state.vgpr[2].ravel().tolist() == list(range(128))
    # SGPR base + 32-bit VGPR offset
    state.write_sgpr64(slice(None), 10, np.full(2, dst, np.uint64))
    state.vgpr[4] = np.arange(128).reshape(2, 64) * 8
    state.vgpr[5] = np.arange(128).reshape(2, 64) + 1000
    state.vgpr[6] = 7
    run(state, "global_store_dwordx2", "GLOBAL", flat(addr=4, data=5, saddr=10, offset=8))
    words = state.memory.read(dst, 1024 + 8)[8:]
    pairs = np.frombuffer(words, np.uint32).reshape(-1, 2)
    assert pairs[:, 0].tolist() == list(range(1000, 1128))
    assert (pairs[:, 1] == 7).all()


@pytest.mark.parametrize("op,nbytes,dtype", [
    ("global_load_ubyte", 1, np.uint8), ("global_load_sbyte", 1, np.int8),
    ("global_load_ushort", 2, np.uint16), ("global_load_sshort", 2, np.int16)])
def test_sub_dword_loads(op, nbytes, dtype):
    state = make_state(waves=1)
    data = np.random.default_rng(3).integers(0, 256, 128, dtype=np.uint8)
    src = with_buffer(state, 128, data)
    put64(state, 0, src + LANE * nbytes)
    run(state, op, "GLOBAL", flat(addr=0, vdst=2))
    expected = data[:64 * nbytes].view(dtype).astype(np.int64) & 0xFFFFFFFF
    assert state.vgpr[2, 0].tolist() == expected.tolist()


def test_d16_hi_load_and_store():
    state = make_state(waves=1)
    src = with_buffer(state, 128, np.arange(64, dtype=np.uint16) + 0x100)
    put64(state, 0, src + LANE * 2)
    state.vgpr[2] = 0x0000BEEF
    run(state, "global_load_short_d16_hi", "GLOBAL", flat(addr=0, vdst=2))
    assert state.vgpr[2, 0].tolist() == (((LANE + 0x100) << 16) | 0xBEEF).tolist()
    run(state, "global_store_short_d16_hi", "GLOBAL", flat(addr=0, data=2))
    assert np.frombuffer(state.memory.read(src, 128), np.uint16).tolist() == \
        (LANE + 0x100).tolist()


def test_exec_gates_global_stores_and_inactive_lanes_may_hold_bad_addresses():
    state = make_state(waves=1)
    dst = with_buffer(state, 256)
    addresses = np.where(LANE % 2 == 0, dst + LANE * 4, 0xDEAD_0000)
    put64(state, 0, addresses[None, :])
    set_exec(state, (LANE % 2 == 0)[None, :])
    state.vgpr[2] = LANE + 1
    run(state, "global_store_dword", "GLOBAL", flat(addr=0, data=2))
    words = np.frombuffer(state.memory.read(dst, 256), np.uint32)
    assert words.tolist() == np.where(LANE % 2 == 0, LANE + 1, 0).tolist()


def test_fault_names_wave_pc_and_address():
    state = make_state(waves=3)
    good = with_buffer(state, 1024)
    addresses = np.full((3, 64), good, np.uint64)
    addresses[2, 17] = 0x4000
    put64(state, 0, addresses)
    with pytest.raises(KernelError) as error:
        run(state, "global_load_dword", "GLOBAL", flat(addr=0, vdst=2))
    assert error.value.address == 0x4000
    assert error.value.wave == 2
    assert error.value.pc == 0x1000
    assert "0x4000" in str(error.value) and "global_load_dword" in str(error.value)


# ----------------------------------------------------------------- atomics
def test_global_atomics_return_pre_op_values_in_lane_then_wave_order():
    state = make_state(waves=2)
    counter = with_buffer(state, 8, np.array([5, 0], np.uint32))
    put64(state, 0, np.full((2, 64), counter, np.uint64))
    state.vgpr[2] = 1
    run(state, "global_atomic_inc", "GLOBAL", flat(addr=0, data=2, vdst=3, glc=1))
    # inc wraps to 0 once the value reaches the data (1): 5 -> 0 -> 1 -> 0 ...
    expected, value = [], 5
    for _ in range(128):
        expected.append(value)
        value = 0 if value >= 1 else value + 1
    assert state.vgpr[3].ravel().tolist() == expected
    assert state.memory.read_u32(counter) == value
    state.vgpr[4] = np.arange(128).reshape(2, 64)
    state.vgpr[5] = 12345
    run(state, "global_atomic_add", "GLOBAL", flat(addr=0, data=4, vdst=5, glc=0))
    assert state.memory.read_u32(counter) == value + sum(range(128))
    assert (state.vgpr[5] == 12345).all()           # no glc: no return


def test_cmpswap_x2_and_fmax():
    state = make_state(waves=1)
    cell = with_buffer(state, 16, np.array([7, 0], np.uint64))
    put64(state, 0, np.full((1, 64), cell, np.uint64))
    put64(state, 2, (100 + LANE)[None, :])           # source
    put64(state, 4, np.where(LANE == 0, 7, 100 + LANE - 1)[None, :])   # compare
    run(state, "flat_atomic_cmpswap_x2", "FLAT", flat(addr=0, data=2, vdst=6, glc=1))
    # lane 0 swaps 7 -> 100; lane i swaps 100 + i - 1 -> 100 + i
    assert get64(state, 6)[0].tolist() == [7] + (100 + LANE[:-1]).tolist()
    assert state.memory.read_u64(cell) == 163


def test_flat_atomic_fmax_gfx7():
    state = make_state("gfx700", waves=1)
    cell = with_buffer(state, 4, np.array([1.0], np.float32))
    put64(state, 0, np.full((1, 64), cell, np.uint64))
    state.vgpr[2] = np.linspace(-5, 5, 64).astype(np.float32).view(np.uint32)
    run(state, "flat_atomic_fmax", "FLAT", flat(addr=0, data=2, vdst=3, glc=1))
    assert np.frombuffer(state.memory.read(cell, 4), np.float32)[0] == 5.0


# ------------------------------------------------------------- apertures
def test_flat_reaches_lds_private_and_global_in_one_instruction():
    state, layout, init = dispatch_state(waves=2)
    glob = with_buffer(state, 512)
    addresses = np.empty((2, 64), np.uint64)
    addresses[:, 0::3] = SHARED_APERTURE_BASE + LANE[0::3] * 4
    addresses[:, 1::3] = PRIVATE_APERTURE_BASE + 8
    addresses[:, 2::3] = glob + (np.arange(128).reshape(2, 64)[:, 2::3]) * 4
    put64(state, 0, addresses)
    state.vgpr[2] = np.arange(128).reshape(2, 64) + 1
    run(state, "flat_store_dword", "FLAT", flat(addr=0, data=2))
    lds = state.lds.view(np.uint32)
    assert lds[1, 3] == 64 + 3 + 1                    # wave 1's work-group, lane 3
    private = swizzled_private_address(init.flat_scratch, np.full((2, 64), 8))
    assert state.memory.read_u32(int(private[1, 4])) == 64 + 4 + 1
    assert state.memory.read_u32(glob + (64 + 5) * 4) == 64 + 5 + 1
    state.vgpr[3] = 0
    run(state, "flat_load_dword", "FLAT", flat(addr=0, vdst=3))
    assert state.vgpr[3].tolist() == state.vgpr[2].tolist()


def test_scratch_instructions_match_private_buffer_and_flat():
    state, layout, init = dispatch_state(waves=2, private=64)
    # scratch_store_dword at private offset 12 (VGPR form)
    state.vgpr[0] = 4
    state.vgpr[1] = np.arange(128).reshape(2, 64) + 500
    run(state, "scratch_store_dword", "SCRATCH", flat(addr=0, data=1, offset=8))
    # MUBUF through the private segment buffer V# with the wave offset
    state.sgpr[0:4] = np.array(layout.private_segment_buffer, np.uint32)[:, None]
    state.sgpr[5] = init.private_wave_offset
    state.vgpr[2] = 12
    run(state, "buffer_load_dword", "MUBUF", dict(vaddr=2, vdata=3, srsrc=0, soffset=5,
                                                   offset=0, offen=1, idxen=0, glc=0))
    assert state.vgpr[3].tolist() == state.vgpr[1].tolist()
    # flat through the private aperture
    put64(state, 4, np.full((2, 64), PRIVATE_APERTURE_BASE + 12, np.uint64))
    run(state, "flat_load_dword", "FLAT", flat(addr=4, vdst=6))
    assert state.vgpr[6].tolist() == state.vgpr[1].tolist()
    # SGPR-offset scratch form reads the same slot
    state.sgpr[20] = 12
    run(state, "scratch_load_dword", "SCRATCH", flat(addr=0, vdst=7, saddr=20))
    assert state.vgpr[7].tolist() == state.vgpr[1].tolist()


def test_scratch_dwordx4_is_dword_interleaved():
    state, layout, init = dispatch_state(waves=1, private=64)
    state.vgpr[0] = 16
    for reg in range(4):
        state.vgpr[1 + reg] = LANE * 10 + reg
    run(state, "scratch_store_dwordx4", "SCRATCH", flat(addr=0, data=1))
    base = int(init.flat_scratch[0])
    for dword in range(4):
        chunk = np.frombuffer(state.memory.read(base + (4 + dword) * 256, 256), np.uint32)
        assert chunk.tolist() == (LANE * 10 + dword).tolist()


def test_gfx8_flat_scratch_uses_hidden_base_and_offset():
    state, layout, init = dispatch_state("gfx803", waves=2, private=16)
    put64(state, 0, np.full((2, 64), PRIVATE_APERTURE_BASE + 4, np.uint64))
    state.vgpr[2] = np.arange(128).reshape(2, 64)
    run(state, "flat_store_dword", "FLAT", flat(addr=0, data=2))
    wave1 = layout.scratch_address + layout.scratch_wave_bytes
    chunk = np.frombuffer(state.memory.read(wave1 + 256, 256), np.uint32)
    assert chunk.tolist() == (LANE + 64).tolist()


# ------------------------------------------------------------------ MUBUF
def mubuf(vaddr=0, vdata=0, srsrc=2, soffset=128, offset=0, offen=0, idxen=0, glc=0, **extra):
    return dict(vaddr=vaddr, vdata=vdata, srsrc=srsrc, soffset=soffset, offset=offset,
                offen=offen, idxen=idxen, glc=glc, slc=0, tfe=0, lds=0, **extra)


def set_rsrc(state, base, **kwargs):
    state.sgpr[8:12] = np.array(encode_buffer_resource(base, **kwargs), np.uint32)[:, None]


def test_buffer_out_of_range_loads_zero_and_drops_stores():
    state = make_state(waves=1)
    buf = with_buffer(state, 512, np.arange(128, dtype=np.uint32) + 1)
    set_rsrc(state, buf, num_records=40)
    state.vgpr[0] = LANE * 4
    state.vgpr[1] = 99
    run(state, "buffer_load_dwordx2", "MUBUF", mubuf(vaddr=0, vdata=1, offen=1))
    # dword k of lane i is at byte 4i + 4k; in range when it ends by byte 40
    assert state.vgpr[1, 0].tolist() == [i + 1 if 4 * i + 4 <= 40 else 0 for i in LANE]
    assert state.vgpr[2, 0].tolist() == [i + 2 if 4 * i + 8 <= 40 else 0 for i in LANE]
    state.vgpr[3] = 0xAB
    run(state, "buffer_store_dword", "MUBUF", mubuf(vaddr=0, vdata=3, offen=1, soffset=132))
    words = np.frombuffer(state.memory.read(buf, 512), np.uint32)
    assert words.tolist() == [0xAB if 1 <= i <= 10 else i + 1 for i in range(128)]


def test_buffer_idxen_offen_structured():
    state = make_state(waves=1)
    buf = with_buffer(state, 2048, np.arange(512, dtype=np.uint32))
    set_rsrc(state, buf, stride=32, num_records=50)
    state.vgpr[4] = LANE                  # index
    state.vgpr[5] = 8                     # offset
    run(state, "buffer_load_dword", "MUBUF", mubuf(vaddr=4, vdata=6, offen=1, idxen=1,
                                                   offset=4))
    assert state.vgpr[6, 0].tolist() == [i * 8 + 3 if i < 50 else 0 for i in LANE]


def test_buffer_atomic_glc_and_range():
    state = make_state(waves=2)
    buf = with_buffer(state, 16, np.array([10, 20, 30, 40], np.uint32))
    set_rsrc(state, buf, num_records=12)
    state.vgpr[0] = np.where(LANE < 32, 0, 12)[None, :]       # second half out of range
    state.vgpr[1] = 2
    run(state, "buffer_atomic_sub", "MUBUF", mubuf(vaddr=0, vdata=1, offen=1, glc=1))
    assert state.memory.read_u32(buf) == (10 - 2 * 64) & 0xFFFFFFFF
    assert state.memory.read_u32(buf + 12) == 40
    returned = state.vgpr[1]
    assert returned[0, :3].tolist() == [10, 8, 6]
    assert returned[1, 0] == (10 - 2 * 32) & 0xFFFFFFFF
    assert (returned[:, 32:] == 0).all()


def test_format_loads_and_stores():
    state = make_state(waves=1)
    raw = np.arange(256, dtype=np.uint8)
    buf = with_buffer(state, 256, raw)
    # data format 10 = 8_8_8_8, num format 0 = unorm; identity DST_SEL
    set_rsrc(state, buf, num_records=256, data_format=10, num_format=0)
    state.vgpr[0] = LANE * 4
    run(state, "buffer_load_format_xyzw", "MUBUF", mubuf(vaddr=0, vdata=4, offen=1))
    got = np.stack([state.vgpr[4 + c, 0].view(np.float32) for c in range(4)], axis=1)
    assert np.allclose(got, raw.reshape(64, 4) / 255.0)
    # MTBUF: dfmt 5 (16_16), nfmt 4 (uint); the missing w channel reads as 1
    run(state, "tbuffer_load_format_xyzw", "MTBUF", mubuf(vaddr=0, vdata=8, offen=1, dfmt=5,
                                                          nfmt=4))
    halves = raw.view(np.uint16).reshape(-1, 2)
    assert state.vgpr[8, 0].tolist() == halves[:, 0].tolist()[:64]
    assert state.vgpr[9, 0].tolist() == halves[:, 1].tolist()[:64]
    assert state.vgpr[10, 0].tolist() == [0] * 64 and state.vgpr[11, 0].tolist() == [1] * 64
    # DST_SEL (W, 1, Z, X) on a 2-channel format: w defaults to 1, z to 0; lanes
    # past num_records read 0 except for the constant-1 component
    set_rsrc(state, buf, num_records=8, dst_sel=(7, 1, 6, 4))
    run(state, "tbuffer_load_format_xyzw", "MTBUF", mubuf(vaddr=0, vdata=8, offen=1, dfmt=5,
                                                          nfmt=4))
    assert state.vgpr[8, 0].tolist() == [1, 1] + [0] * 62
    assert state.vgpr[9, 0].tolist() == [1] * 64
    assert state.vgpr[10, 0].tolist() == [0] * 64
    assert state.vgpr[11, 0].tolist() == halves[:2, 0].tolist() + [0] * 62
    set_rsrc(state, buf, num_records=256)
    state.vgpr[12] = LANE * 1000
    run(state, "tbuffer_store_format_x", "MTBUF", mubuf(vaddr=0, vdata=12, offen=1, dfmt=4,
                                                        nfmt=4))
    assert np.frombuffer(state.memory.read(buf, 256), np.uint32).tolist() == \
        (LANE * 1000).tolist()


def test_addr64_on_gfx7():
    state = make_state("gfx700", waves=1)
    buf = with_buffer(state, 256, np.arange(64, dtype=np.uint32))
    set_rsrc(state, 0, num_records=0)
    put64(state, 0, (buf + LANE * 4)[None, :])
    run(state, "buffer_load_dword", "MUBUF", mubuf(vaddr=0, vdata=2, addr64=1))
    assert state.vgpr[2, 0].tolist() == LANE.tolist()


def test_cache_invalidations_are_no_ops():
    state = make_state(waves=1)
    before = state.vgpr.copy()
    assert run(state, "buffer_wbinvl1", "MUBUF", {}) is None
    assert (state.vgpr == before).all()


def test_float_add_atomics_apply_serially():
    state = make_state("gfx900", waves=1)
    cell = with_buffer(state, 8, np.array([1.0, 0.0], np.float32))
    put64(state, 0, np.full((1, 64), cell, np.uint64))
    values = np.full(64, 0.1, np.float32)
    state.vgpr[2] = values.view(np.uint32)
    run(state, "global_atomic_add_f32", "GLOBAL", flat(addr=0, data=2))
    expected = np.float32(1.0)
    for value in values:
        expected = np.float32(expected + value)
    assert np.frombuffer(state.memory.read(cell, 4), np.float32)[0] == expected
    halves = np.array([1.5, -2.0], np.float16)
    state.memory.write(cell + 4, halves)
    put64(state, 0, np.full((1, 64), cell + 4, np.uint64))
    state.vgpr[3] = np.array([0.5, 1.0], np.float16).view(np.uint32)[0]
    set_exec(state, LANE[None, :] < 2)
    run(state, "global_atomic_pk_add_f16", "GLOBAL", flat(addr=0, data=3))
    assert np.frombuffer(state.memory.read(cell + 4, 4), np.float16).tolist() == [2.5, 0.0]


def test_64_bit_atomic_on_private_memory_through_flat():
    state, layout, init = dispatch_state(waves=1, private=64)
    put64(state, 0, np.full((1, 64), PRIVATE_APERTURE_BASE + 8, np.uint64))
    put64(state, 2, (LANE.astype(np.uint64) << 32) | 0xFFFFFFFF)
    run(state, "flat_store_dwordx2", "FLAT", flat(addr=0, data=2))
    put64(state, 4, np.ones((1, 64), np.uint64))
    run(state, "flat_atomic_add_x2", "FLAT", flat(addr=0, data=4, vdst=6, glc=1))
    assert get64(state, 6)[0].tolist() == ((LANE.astype(np.uint64) << 32) | 0xFFFFFFFF).tolist()
    run(state, "flat_load_dwordx2", "FLAT", flat(addr=0, vdst=8))
    assert get64(state, 8)[0].tolist() == ((LANE.astype(np.uint64) + 1) << 32).tolist()


def test_structured_access_must_start_inside_the_record():
    state = make_state(waves=1)
    buf = with_buffer(state, 1024, np.arange(256, dtype=np.uint32) + 1)
    set_rsrc(state, buf, stride=8, num_records=100)
    state.vgpr[4] = 1                      # index
    state.vgpr[5] = LANE * 4               # offset 0, 4, 8, ...: only 0 and 4 fit
    run(state, "buffer_load_dword", "MUBUF", mubuf(vaddr=4, vdata=6, offen=1, idxen=1))
    assert state.vgpr[6, 0].tolist() == [3, 4] + [0] * 62


def test_snorm_ogl_reads_and_unsupported_formats_fault():
    state = make_state(waves=1)
    buf = with_buffer(state, 256, np.array([-128, 127, 0, -1] * 64, np.int8))
    set_rsrc(state, buf, num_records=256)
    state.vgpr[0] = 0
    run(state, "tbuffer_load_format_xyzw", "MTBUF", mubuf(vaddr=0, vdata=4, offen=1, dfmt=10,
                                                          nfmt=6))
    got = [float(state.vgpr[4 + c, 0, 0].view(np.float32)) for c in range(4)]
    assert got == pytest.approx([-1.0, 1.0, 1 / 255, -1 / 255])
    with pytest.raises(KernelError, match="not supported for stores"):
        run(state, "tbuffer_store_format_x", "MTBUF", mubuf(vaddr=0, vdata=4, offen=1,
                                                            dfmt=4, nfmt=2))
    with pytest.raises(KernelError, match="data format 15"):      # reserved
        run(state, "tbuffer_load_format_x", "MTBUF", mubuf(vaddr=0, vdata=4, offen=1,
                                                           dfmt=15, nfmt=0))
    with pytest.raises(KernelError, match="data format 9 / numeric format 7"):
        run(state, "tbuffer_load_format_x", "MTBUF", mubuf(vaddr=0, vdata=4, offen=1,
                                                           dfmt=9, nfmt=7))   # no 2-bit float

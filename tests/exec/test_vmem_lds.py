"""Vector memory transfers with the lds bit: buffer/global/scratch loads whose
data go to LDS instead of VGPRs, and buffer_store_lds_dword (LDS to memory).

The rule (GCN/CDNA manuals, "buffer load to LDS"; CLRX's GCN memory notes):
LDS_ADDR = LDS base + M0[15:0] + instruction offset + lane * 4, one dword
slot per lane whatever the size, sub-dword values zero-extended; the
instruction offset also adds to the memory address.  Expected values
are plain NumPy views of the memory written here.
"""

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from amdgpu_tools.exec.addressing import encode_buffer_resource
from amdgpu_tools.isa import decode
from amdgpu_tools.isa.targets import get_target
from .test_mem_support import make_state, run, set_exec
from .test_mem_vmem import dispatch_state, flat, mubuf, put64, with_buffer

LANE = np.arange(64)
LDS_BYTES = 1024
#: llvm-mc-19 -mcpu=gfx900 encodings (recorded; decoded by our decoder below)
GOLDEN = {
    "buffer_load_dword v1, s[8:11], s3 offen offset:4 lds":
        bytes([0x04, 0x10, 0x51, 0xe0, 0x01, 0x00, 0x02, 0x03]),
    "global_load_dword v[2:3], off offset:-8 lds":
        bytes([0xf8, 0xbf, 0x50, 0xdc, 0x02, 0x00, 0x7f, 0x00]),
    "buffer_store_lds_dword s[8:11], s3 offset:12 lds":
        bytes([0x0c, 0x00, 0xf5, 0xe0, 0x00, 0x00, 0x02, 0x03]),
}


def lds_state(target="gfx900", waves=2, groups=2):
    state = make_state(target, waves=waves, groups=groups, lds_bytes=LDS_BYTES)
    return state


def set_rsrc(state, base, num_records=0xFFFFFFFF, word3=0xFAC):
    state.sgpr[8:12] = np.array([base & 0xFFFFFFFF, base >> 32, num_records, word3],
                                np.uint32)[:, None]


def lds_mubuf(**fields):
    fields = mubuf(**fields)
    fields["lds"] = 1
    return fields


def lds_dwords(state, group):
    return state.lds[group].view(np.uint32)


def decoded(text):
    inst = decode(GOLDEN[text], 0, get_target("gfx900"))
    return inst.op, inst.encoding, inst.fields


def test_buffer_load_dword_lds_from_golden_encoding():
    state = lds_state()
    data = np.arange(256, dtype=np.uint32) * 3 + 7
    buf = with_buffer(state, 1024, data)
    set_rsrc(state, buf)
    state.sgpr[3] = 8                                     # soffset: memory only
    state.sgpr[124] = [0xABCD0000 | 16, 32]               # M0[15:0] per wave
    state.vgpr[1] = LANE * 4
    state.vgpr[2:6] = 0x77                                # vdata is ignored
    op, encoding, fields = decoded("buffer_load_dword v1, s[8:11], s3 offen offset:4 lds")
    assert fields["lds"] == 1 and op == "buffer_load_dword"
    run(state, op, encoding, fields)
    for wave, m0 in ((0, 16), (1, 32)):
        slots = lds_dwords(state, wave)[(m0 + 4) // 4:(m0 + 4) // 4 + 64]
        # memory: base + soffset + voffset + inst_offset = dword lane + 3
        assert slots.tolist() == data[LANE + 3].tolist()
    assert (state.vgpr[2:6] == 0x77).all()


@pytest.mark.parametrize("op,dtype", [("ubyte", np.uint8), ("sbyte", np.int8),
                                      ("ushort", np.uint16), ("sshort", np.int16)])
def test_sub_dword_lds_loads_deposit_the_zero_extended_dword(op, dtype):
    state = lds_state(waves=1, groups=1)
    raw = np.random.default_rng(7).integers(0, 256, 512).astype(np.uint8)
    buf = with_buffer(state, 512, raw)
    set_rsrc(state, buf)
    size = np.dtype(dtype).itemsize
    state.vgpr[0] = LANE * size
    state.sgpr[124] = 0
    lds_dwords(state, 0)[:] = 0xFFFFFFFF
    run(state, f"buffer_load_{op}", "MUBUF", lds_mubuf(vaddr=0, offen=1))
    # zero-extended whatever the signedness (CLRX's GCN memory notes)
    values = raw[:64 * size].view(dtype).astype(np.int64) & ((1 << (8 * size)) - 1)
    assert lds_dwords(state, 0)[:64].tolist() == values.tolist()
    assert (lds_dwords(state, 0)[64:] == 0xFFFFFFFF).all()


def test_exec_and_the_lds_allocation_bound_the_writes():
    state = lds_state(waves=1, groups=1)
    buf = with_buffer(state, 256, np.arange(64, dtype=np.uint32) + 1)
    set_rsrc(state, buf, num_records=128)                 # lanes 32+ read out of range: 0
    state.vgpr[0] = LANE * 4
    state.sgpr[124] = LDS_BYTES - 40 * 4                  # only 40 slots fit
    set_exec(state, (LANE % 3 != 0)[None, :])
    lds_dwords(state, 0)[:] = 0xEEEEEEEE
    run(state, "buffer_load_dword", "MUBUF", lds_mubuf(vaddr=0, offen=1))
    slots = lds_dwords(state, 0)[LDS_BYTES // 4 - 40:]
    want = [0xEEEEEEEE if lane % 3 == 0 else (lane + 1 if lane < 32 else 0)
            for lane in range(40)]
    assert slots.tolist() == want
    assert (lds_dwords(state, 0)[:LDS_BYTES // 4 - 40] == 0xEEEEEEEE).all()


def test_format_x_lds_load_converts_first():
    state = lds_state(waves=1, groups=1)
    buf = with_buffer(state, 256, np.arange(256, dtype=np.uint8))
    set_rsrc(state, buf, word3=0xFAC | (0 << 12) | (1 << 15))   # 8 unorm
    state.vgpr[0] = LANE
    state.sgpr[124] = 0
    run(state, "buffer_load_format_x", "MUBUF", lds_mubuf(vaddr=0, offen=1))
    got = lds_dwords(state, 0)[:64].view(np.float32)
    assert got.tolist() == (np.arange(64) / 255.0).astype(np.float32).tolist()


def test_global_lds_load_applies_the_offset_to_both_addresses():
    state = lds_state(waves=1, groups=1)
    data = np.arange(128, dtype=np.uint32) + 1000
    buf = with_buffer(state, 512, data)
    put64(state, 2, (buf + 64 + LANE * 4)[None, :])
    state.sgpr[124] = 40                                  # LDS slot = 40 - 8 + 4 * lane
    op, encoding, fields = decoded("global_load_dword v[2:3], off offset:-8 lds")
    run(state, op, encoding, fields)
    assert lds_dwords(state, 0)[8:72].tolist() == data[14 + LANE].tolist()


def test_scratch_lds_load_reads_the_private_segment():
    state, layout, init = dispatch_state(waves=1, private=64, lds_bytes=LDS_BYTES)
    state.vgpr[0] = 8
    state.vgpr[1] = LANE * 11
    run(state, "scratch_store_dword", "SCRATCH", flat(addr=0, data=1))
    state.sgpr[124] = 0
    run(state, "scratch_load_dword", "SCRATCH", flat(addr=0, lds=1))
    assert state.lds[0].view(np.uint32)[:64].tolist() == (LANE * 11).tolist()


def test_store_lds_dword_moves_lds_to_memory():
    state = lds_state()
    dst = with_buffer(state, 2048)
    # the instruction has no VGPR address: lanes reach their own dword through
    # a V# that adds the lane id to the index (ADD_TID_ENABLE, stride 4)
    state.sgpr[8:12] = np.array(encode_buffer_resource(dst, stride=4, add_tid_enable=True),
                                np.uint32)[:, None]
    for group in range(2):
        lds_dwords(state, group)[:] = np.arange(256) + 10000 * (group + 1)
    state.sgpr[3] = [0, 1024]                             # soffset per wave
    state.sgpr[124] = 4
    op, encoding, fields = decoded("buffer_store_lds_dword s[8:11], s3 offset:12 lds")
    run(state, op, encoding, fields)
    words = np.frombuffer(state.memory.read(dst, 2048), np.uint32)
    for wave in range(2):
        # LDS slot (4 + 12) / 4 + lane = 4 + lane; memory byte soffset + 12 + 4 * lane
        start = (1024 * wave + 12) // 4
        assert words[start:start + 64].tolist() == (LANE + 4 + 10000 * (wave + 1)).tolist()


def test_flat_has_no_lds_form():
    state = lds_state(waves=1, groups=1)
    with pytest.raises(KernelError, match="lds bit"):
        run(state, "flat_load_dword", "FLAT", flat(addr=0, vdst=2, lds=1))
    with pytest.raises(KernelError, match="lds bit"):
        run(state, "buffer_load_dwordx2", "MUBUF", lds_mubuf(vaddr=0, offen=1))

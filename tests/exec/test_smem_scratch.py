"""GFX9 scalar scratch: s_scratch_load/store_dword{,x2,x4}.

The address (CLRX's GCN 1.4 SMEM reference) is SBASE (normally
FLAT_SCRATCH, the wave's private base) + (immediate & ~3) + (SGPR offset
& ~3) * 64: with an SGPR offset B, dword k of the access is lane k's dword
at private byte offset B of the lane-interleaved layout the vector scratch
instructions use.  The tests check that correspondence against scratch_*
and the swizzle formula.
"""

import numpy as np

from amdgpu_tools.exec import setup
from amdgpu_tools.exec.addressing import swizzled_private_address
from amdgpu_tools.exec.semantics.smem import SCRATCH_SGPR_SCALE
from amdgpu_tools.isa import decode
from amdgpu_tools.isa.targets import get_target
from .test_mem_support import run
from .test_mem_vmem import dispatch_state, flat

LANE = np.arange(64)
FLAT_SCRATCH = setup.flat_scratch_code(9)
#: llvm-mc-19 -mcpu=gfx900 encodings (recorded; decoded by our decoder below)
GOLDEN = {
    "s_scratch_load_dword s4, s[2:3], 0x10 glc": bytes([0x01, 0x01, 0x17, 0xc0,
                                                         0x10, 0x00, 0x00, 0x00]),
    "s_scratch_load_dwordx4 s[4:7], s[2:3], -0x10": bytes([0x01, 0x01, 0x1e, 0xc0,
                                                            0xf0, 0xff, 0x1f, 0x00]),
    "s_scratch_store_dwordx2 s[4:5], s[2:3], s7": bytes([0x01, 0x01, 0x58, 0xc0,
                                                         0x07, 0x00, 0x00, 0x00]),
}


def smem(sdata, sbase_pair, offset, imm=1, soe=0, soffset=0x7F, glc=0):
    return dict(sdata=sdata, sbase=sbase_pair // 2, offset=offset, imm=imm, soe=soe,
                soffset=soffset, glc=glc, nv=0)


def decoded(text):
    inst = decode(GOLDEN[text], 0, get_target("gfx900"))
    return inst.op, inst.encoding, inst.fields


def private_word(state, init, wave, lane, offset):
    address = swizzled_private_address(init.flat_scratch, np.full((2, 64), offset))
    return state.memory.read_u32(int(address[wave, lane]))


def test_sgpr_scale_is_the_wave_size():
    assert SCRATCH_SGPR_SCALE == 64


def test_store_x4_lands_on_lanes_0_to_3_of_the_private_offset():
    state, layout, init = dispatch_state(waves=2, private=64)
    for k in range(4):
        state.sgpr[20 + k] = [100 + k, 200 + k]
    state.sgpr[30] = 8 + 3                                 # the low two bits are ignored
    run(state, "s_scratch_store_dwordx4", "SMEM", smem(20, FLAT_SCRATCH, 30, imm=0))
    state.vgpr[0] = 8
    run(state, "scratch_load_dword", "SCRATCH", flat(addr=0, vdst=1))
    assert state.vgpr[1, 0, :4].tolist() == [100, 101, 102, 103]
    assert state.vgpr[1, 1, :4].tolist() == [200, 201, 202, 203]
    for wave in range(2):
        for k in range(4):
            assert private_word(state, init, wave, k, 8) == (wave + 1) * 100 + k


def test_immediate_offset_is_a_plain_byte_offset():
    state, layout, init = dispatch_state(waves=2, private=64)
    state.vgpr[0] = 0
    state.vgpr[1] = np.arange(128).reshape(2, 64) * 7 + 1
    run(state, "scratch_store_dword", "SCRATCH", flat(addr=0, data=1))
    state.write_sgpr64(slice(None), 2, init.flat_scratch)
    op, encoding, fields = decoded("s_scratch_load_dword s4, s[2:3], 0x10 glc")
    run(state, op, encoding, fields)
    # backing byte 16 of the wave's area: lane 4's dword at private offset 0
    assert state.sgpr[4].tolist() == [4 * 7 + 1, 68 * 7 + 1]


def test_negative_immediate_and_sgpr_offsets():
    state, layout, init = dispatch_state(waves=1, private=64)
    state.vgpr[0] = 0
    state.vgpr[1] = LANE + 500
    run(state, "scratch_store_dword", "SCRATCH", flat(addr=0, data=1))
    # SBASE 16 bytes past the wave's area, the immediate -16 brings it back
    state.write_sgpr64(slice(None), 2, init.flat_scratch + np.uint64(16))
    op, encoding, fields = decoded("s_scratch_load_dwordx4 s[4:7], s[2:3], -0x10")
    run(state, op, encoding, fields)
    assert state.sgpr[4:8, 0].tolist() == [500, 501, 502, 503]
    state.write_sgpr64(slice(None), 2, init.flat_scratch)
    state.sgpr[7] = 4
    state.sgpr[4:6] = np.array([[11], [12]], np.uint32)
    op, encoding, fields = decoded("s_scratch_store_dwordx2 s[4:5], s[2:3], s7")
    run(state, op, encoding, fields)
    state.vgpr[0] = 4
    run(state, "scratch_load_dword", "SCRATCH", flat(addr=0, vdst=2))
    assert state.vgpr[2, 0, :3].tolist() == [11, 12, 0]


def test_soe_adds_both_offsets():
    state, layout, init = dispatch_state(waves=1, private=64)
    state.sgpr[30] = 8
    state.sgpr[20] = 0xCAFE
    run(state, "s_scratch_store_dword", "SMEM",
        smem(20, FLAT_SCRATCH, 4, imm=1, soe=1, soffset=30))
    # 4 + 8 * 64: lane 1's dword at private offset 8
    assert private_word(state, init, 0, 1, 8) == 0xCAFE

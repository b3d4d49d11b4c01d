"""d16 typed buffer access: 16-bit components, unpacked (GFX8.0: one per VGPR)
or packed (GFX8.1, GFX9: two per VGPR, X low), and the GFX9 d16_hi forms.

How many VGPRs each d16 op takes per target is an encoding fact llvm-mc
states; it is recorded in the ISA table (isa/data/buffer.json) and checked
against llvm-mc here when it is installed.
"""

import numpy as np
import pytest

from amdgpu_tools.exec.semantics.vmem import d16_unpacked
from amdgpu_tools.isa.targets import get_target
from reftools import run_tool
from .test_mem_support import make_state, run
from .test_mem_vmem import mubuf, with_buffer

LANE = np.arange(64)
UNORM, UINT, SINT, FLOAT = 0, 4, 5, 7
#: The VGPR count llvm-mc requires for buffer_load_format_d16_xyzw, per target.
D16_XYZW_VGPRS = {"gfx801": 4, "gfx802": 4, "gfx803": 4, "gfx805": 4, "gfx810": 2,
                  "gfx900": 2, "gfx906": 2}


@pytest.mark.parametrize("target,vgprs", sorted(D16_XYZW_VGPRS.items()))
def test_unpacked_targets_follow_the_isa_table(target, vgprs):
    assert d16_unpacked(get_target(target)) == (vgprs == 4)


@pytest.mark.parametrize("target,vgprs", sorted(D16_XYZW_VGPRS.items()))
def test_llvm_mc_agrees_on_the_d16_register_count(llvm_mc19, target, vgprs):
    source = f"buffer_load_format_d16_xyzw v[0:{vgprs - 1}], off, s[8:11], s3\n"
    done = run_tool([llvm_mc19, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"],
                    stdin=source)
    assert "encoding" in done.stdout
    other = 6 - vgprs                                      # 2 <-> 4
    refused = run_tool([llvm_mc19, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"],
                       stdin=source.replace(f"v[0:{vgprs - 1}]", f"v[0:{other - 1}]"),
                       check=False)
    assert refused.returncode != 0 or "error" in refused.stderr


def setup(target, data):
    state = make_state(target, waves=1)
    buf = with_buffer(state, 1024, data)
    state.sgpr[8:12] = np.array([buf & 0xFFFFFFFF, buf >> 32, 1024, 0xFAC], np.uint32)[:, None]
    state.vgpr[0] = LANE * 8
    state.buf = buf
    return state


def load(state, op, dfmt, nfmt, vdata=4):
    run(state, f"tbuffer_{op}", "MTBUF", mubuf(vaddr=0, vdata=vdata, offen=1, dfmt=dfmt,
                                                nfmt=nfmt))


def lane_bytes(state):
    """Each lane's 8-byte element (the V# offsets are lane * 8)."""
    return np.frombuffer(state.memory.read(state.buf, 512), np.uint8).reshape(64, 8)


def halves_16_16_16_16():
    values = (np.random.default_rng(1).standard_normal(256) * 100).astype(np.float16)
    return values, values.view(np.uint16).reshape(64, 4).astype(np.uint32)


def test_packed_xyzw_puts_two_halves_in_each_vgpr():
    values, bits = halves_16_16_16_16()
    state = setup("gfx900", values)
    load(state, "load_format_d16_xyzw", 12, FLOAT)
    assert state.vgpr[4, 0].tolist() == (bits[:, 0] | bits[:, 1] << 16).tolist()
    assert state.vgpr[5, 0].tolist() == (bits[:, 2] | bits[:, 3] << 16).tolist()


def test_unpacked_xyzw_uses_four_vgprs_with_zero_high_halves():
    values, bits = halves_16_16_16_16()
    state = setup("gfx803", values)
    state.vgpr[4:8] = 0xDEAD0000
    load(state, "load_format_d16_xyzw", 12, FLOAT)
    for c in range(4):
        assert state.vgpr[4 + c, 0].tolist() == bits[:, c].tolist()


def test_packed_odd_counts_keep_the_unwritten_half():
    values, bits = halves_16_16_16_16()
    state = setup("gfx900", values)
    state.vgpr[4:6] = 0xBEEF0000 | 0x1234
    load(state, "load_format_d16_xyz", 12, FLOAT)
    assert state.vgpr[4, 0].tolist() == (bits[:, 0] | bits[:, 1] << 16).tolist()
    assert state.vgpr[5, 0].tolist() == (bits[:, 2] | 0xBEEF0000).tolist()
    state.vgpr[6] = 0xBEEF1234
    load(state, "load_format_d16_x", 12, FLOAT, vdata=6)
    assert state.vgpr[6, 0].tolist() == (bits[:, 0] | 0xBEEF0000).tolist()


def test_d16_hi_x_writes_the_high_half_from_the_resource_format():
    values, bits = halves_16_16_16_16()
    state = setup("gfx900", values)
    # V# data format 12 (16_16_16_16) / num format 7 (float), identity DST_SEL
    state.sgpr[11] = 0xFAC | (7 << 12) | (12 << 15)
    state.vgpr[7] = 0x5555AAAA
    run(state, "buffer_load_format_d16_hi_x", "MUBUF", mubuf(vaddr=0, vdata=7, offen=1))
    assert state.vgpr[7, 0].tolist() == (bits[:, 0] << 16 | 0xAAAA).tolist()
    state.vgpr[8] = 0x5555AAAA
    run(state, "buffer_load_format_d16_x", "MUBUF", mubuf(vaddr=0, vdata=8, offen=1))
    assert state.vgpr[8, 0].tolist() == (bits[:, 0] | 0x55550000).tolist()


def test_unorm_bytes_read_as_half_floats():
    codes = np.resize(np.array([0, 255, 51, 102, 204, 128, 1, 17], np.uint8), 512)
    state = setup("gfx900", codes)
    load(state, "load_format_d16_xyzw", 10, UNORM)
    lanes = codes.reshape(64, 8)[:, :4]                   # 8-byte stride, 4-byte elements
    want = (lanes / 255.0).astype(np.float16).view(np.uint16).astype(np.uint32)
    assert state.vgpr[4, 0].tolist() == (want[:, 0] | want[:, 1] << 16).tolist()
    assert state.vgpr[5, 0].tolist() == (want[:, 2] | want[:, 3] << 16).tolist()


def test_integer_formats_return_the_low_16_bits():
    data = np.resize(np.array([-1, 5, -128, 127], np.int8), 512)
    state = setup("gfx900", data)
    load(state, "load_format_d16_xy", 3, SINT)            # 8_8 sint, sign-extended
    pairs = data.reshape(64, 8)[:, :2].astype(np.int64) & 0xFFFF
    assert state.vgpr[4, 0].tolist() == (pairs[:, 0] | pairs[:, 1] << 16).tolist()
    words = np.arange(256, dtype=np.uint32) * 0x10001 + 0x7000
    state = setup("gfx803", words)
    load(state, "load_format_d16_xy", 11, UINT)           # 32_32 uint: truncated to 16 bits
    pairs = words[:128].reshape(64, 2) & 0xFFFF
    assert state.vgpr[4, 0].tolist() == pairs[:, 0].tolist()
    assert state.vgpr[5, 0].tolist() == pairs[:, 1].tolist()


def test_missing_w_reads_half_float_one_and_integer_one():
    state = setup("gfx900", np.zeros(256, np.uint32))
    load(state, "load_format_d16_xyzw", 5, FLOAT)         # 16_16: z = 0, w = 1.0
    assert (state.vgpr[5, 0] == 0x3C00 << 16).all()
    load(state, "load_format_d16_xyzw", 5, UINT)
    assert (state.vgpr[5, 0] == 1 << 16).all()


def stored(state, count):
    return lane_bytes(state).copy().view(np.uint16)[:, :count]


def test_packed_store_takes_two_halves_per_vgpr():
    values, bits = halves_16_16_16_16()
    state = setup("gfx900", np.zeros(256, np.uint32))
    state.vgpr[10] = bits[:, 0] | bits[:, 1] << 16
    state.vgpr[11] = bits[:, 2] | bits[:, 3] << 16
    run(state, "tbuffer_store_format_d16_xyzw", "MTBUF",
        mubuf(vaddr=0, vdata=10, offen=1, dfmt=12, nfmt=FLOAT))
    assert stored(state, 4).tolist() == bits.tolist()


def test_unpacked_store_ignores_high_halves():
    values, bits = halves_16_16_16_16()
    state = setup("gfx803", np.zeros(256, np.uint32))
    for c in range(3):
        state.vgpr[10 + c] = bits[:, c] | 0xFFFF0000
    run(state, "tbuffer_store_format_d16_xyz", "MTBUF",
        mubuf(vaddr=0, vdata=10, offen=1, dfmt=12, nfmt=FLOAT))
    assert stored(state, 4).tolist() == np.c_[bits[:, :3], np.zeros(64, int)].tolist()


def test_d16_hi_store_and_unorm_conversion():
    state = setup("gfx900", np.zeros(256, np.uint32))
    halves = np.resize(np.array([1.0, 0.0, 0.25, -1.0, 2.0, 0.5], np.float16), 64)
    state.vgpr[10] = halves.view(np.uint16).astype(np.uint32) << 16 | 0x3C00
    state.sgpr[11] = 0xFAC | (UNORM << 12) | (1 << 15)     # V#: 8 unorm
    run(state, "buffer_store_format_d16_hi_x", "MUBUF", mubuf(vaddr=0, vdata=10, offen=1))
    got = lane_bytes(state)[:, 0]
    # round(clamp(v, 0, 1) * 255), ties to even: 0.25 -> 63.75 -> 64, 0.5 -> 127.5 -> 128
    assert got[:6].tolist() == [255, 0, 64, 0, 255, 128]


def test_sint_store_sign_extends_the_half():
    state = setup("gfx900", np.zeros(256, np.uint32))
    state.vgpr[10] = np.full(64, 0xFFFE, np.uint32)        # -2 as a 16-bit value
    run(state, "tbuffer_store_format_d16_x", "MTBUF",
        mubuf(vaddr=0, vdata=10, offen=1, dfmt=4, nfmt=SINT))
    words = lane_bytes(state).copy().view(np.uint32)[:, 0]
    assert (words == 0xFFFFFFFE).all()


@pytest.mark.parametrize("target,data_regs", [("gfx900", 2), ("gfx803", 4)])
def test_tfe_status_follows_the_data_registers(target, data_regs):
    values, bits = halves_16_16_16_16()
    state = setup(target, values)
    state.vgpr[4:10] = 0x99
    fields = mubuf(vaddr=0, vdata=4, offen=1, dfmt=12, nfmt=FLOAT)
    fields["tfe"] = 1
    run(state, "tbuffer_load_format_d16_xyzw", "MTBUF", fields)
    assert (state.vgpr[4 + data_regs] == 0).all()              # status: no fault
    assert (state.vgpr[5 + data_regs:10] == 0x99).all()
    fields["vdata"] = 4
    run(state, "tbuffer_load_format_xy", "MTBUF", fields)
    assert (state.vgpr[6] == 0).all() and state.vgpr[4, 0].tolist() == \
        values.reshape(64, 4)[:, 0].astype(np.float32).view(np.uint32).tolist()


@pytest.mark.parametrize("target", ["gfx802", "gfx803", "gfx810", "gfx900", "gfx906"])
def test_every_d16_format_op_uses_the_vgprs_the_isa_table_gives(target):
    """The executor's layout (one half per VGPR when unpacked, two otherwise) needs
    exactly the vdata width llvm-mc's sweep recorded for each d16 format op."""
    from amdgpu_tools.isa.families import buffer as buffer_family
    target = get_target(target)
    unpacked = d16_unpacked(target)
    seen = 0
    for prefix in ("buffer", "tbuffer"):
        for direction in ("load", "store"):
            for count, suffix in enumerate(("x", "xy", "xyz", "xyzw"), start=1):
                info = buffer_family.lookup(f"{prefix}_{direction}_format_d16_{suffix}", target)
                assert info.operands[0].width == (count if unpacked else (count + 1) // 2)
                seen += 1
            info = buffer_family.lookup(f"buffer_{direction}_format_d16_hi_x", target)
            assert (info is None) == (target.generation < 9)
            if info is not None:
                assert info.operands[0].width == 1
    assert seen == 16

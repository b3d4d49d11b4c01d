"""ds_condxchg32_rtn_b64 and the DS src2 offset1[7] form, against per-lane
Python loops of the manuals' pseudo-code.

condxchg: A0 = (ADDR + offset) & 0xfff8, A1 = A0 + 4; VDST = the old
dwords; DS[Ak] = {0, DATAk[30:0]} only if DATAk[31]. src2 with offset1[7]:
A = ADDR[16:0], B = A + size * sext(ADDR[31:17]) (CLRX GcnInstrsDs)."""

import numpy as np
import pytest

from amdgpu_tools.exec.semantics.ds import src2_address_form
from amdgpu_tools.isa import decode
from amdgpu_tools.isa.targets import get_target

from .test_mem_ds import LANE, ds, lds_state
from .test_mem_support import run, set_exec

# llvm-mc-19 -mcpu=gfx900: ds_condxchg32_rtn_b64 v[2:3], v4, v[6:7] offset:8
CONDXCHG_GFX900 = bytes([0x08, 0x00, 0xfc, 0xd8, 0x04, 0x06, 0x00, 0x02])


def test_decoded_fields():
    inst = decode(CONDXCHG_GFX900, 0, get_target("gfx900"))
    assert inst.op == "ds_condxchg32_rtn_b64"
    assert (inst.fields["vdst"], inst.fields["addr"], inst.fields["data0"],
            inst.fields["offset0"]) == (2, 4, 6, 8)


def _condxchg_reference(memory, addrs, lo, hi, active):
    """The pseudo-code, one lane after another; returns (old lo, old hi)."""
    words = memory.view(np.uint32)
    old = np.zeros(addrs.shape + (2,), np.int64)
    for wave, lane in zip(*np.nonzero(active)):
        a0 = (int(addrs[wave, lane]) + 8) & 0xFFF8
        for k, data in enumerate((int(lo[wave, lane]), int(hi[wave, lane]))):
            index = a0 // 4 + k
            old[wave, lane, k] = words[index]
            if data >> 31:
                words[index] = data & 0x7FFFFFFF
    return old


def test_condxchg_writes_only_dwords_with_bit_31_and_returns_old_values():
    rng = np.random.default_rng(11)
    state = lds_state(waves=2, groups=1, size=4096)
    memory = state.lds[0].copy()
    addrs = rng.integers(0, 32, (2, 64)) * 8 + rng.integers(0, 8, (2, 64))  # collisions, low bits
    lo = rng.integers(0, 1 << 32, (2, 64), dtype=np.uint64)
    hi = rng.integers(0, 1 << 32, (2, 64), dtype=np.uint64)
    active = rng.random((2, 64)) < 0.8
    set_exec(state, active)
    state.vgpr[4] = addrs
    state.vgpr[6] = lo
    state.vgpr[7] = hi
    state.vgpr[2] = state.vgpr[3] = 0xABCD
    run(state, "ds_condxchg32_rtn_b64", "DS", ds(addr=4, data0=6, vdst=2, offset=8))
    old = _condxchg_reference(memory, addrs, lo, hi, active)
    assert state.lds[0].tolist() == memory.tolist()
    assert state.vgpr[2].tolist() == np.where(active, old[..., 0], 0xABCD).tolist()
    assert state.vgpr[3].tolist() == np.where(active, old[..., 1], 0xABCD).tolist()


def test_condxchg_out_of_range_returns_zero_and_writes_nothing():
    state = lds_state(waves=1, groups=1, size=256)
    before = state.lds.copy()
    state.vgpr[4] = 248 + LANE * 8                 # lane 0 in range, the rest beyond 256
    state.vgpr[6] = 0x80000005
    state.vgpr[7] = 0x80000006
    run(state, "ds_condxchg32_rtn_b64", "DS", ds(addr=4, data0=6, vdst=2))
    assert state.lds[0, 248:256].view(np.uint32).tolist() == [5, 6]
    assert (state.lds[0, :248] == before[0, :248]).all()
    assert state.vgpr[2, 0, 0] == before[0, 248:252].view(np.uint32)[0]
    assert not state.vgpr[2, 0, 1:].any() and not state.vgpr[3, 0, 1:].any()


def test_address_form_splits_address_and_stride():
    addr = np.array([0x0000_1234, (3 << 17) | 0x10, 0xFFFE_0000 | 0x1FFFC, 0x8000_0000],
                    np.uint64)
    a, stride = src2_address_form(addr)
    assert a.tolist() == [0x1234, 0x10, 0x1FFFC, 0]
    assert stride.tolist() == [0, 3, -1, -0x4000]


def _src2_reference(words, a_index, b_index, active, op):
    """All B values are read first, then A = op(A, B) lane after lane."""
    b_values = {pos: int(words[b_index[pos]]) for pos in zip(*np.nonzero(active))}
    for pos in zip(*np.nonzero(active)):
        words[a_index[pos]] = op(int(words[a_index[pos]]), b_values[pos])


@pytest.mark.parametrize("op,width,fn", [
    ("ds_add_src2_u32", 4, lambda a, b: (a + b) & 0xFFFFFFFF),
    ("ds_min_src2_i32", 4, lambda a, b: a if (a ^ 0x80000000) < (b ^ 0x80000000) else b),
    ("ds_max_src2_u64", 8, max),
    ("ds_write_src2_b64", 8, lambda a, b: b)])
def test_src2_stride_from_the_address_bits(op, width, fn):
    rng = np.random.default_rng(5)
    state = lds_state(waves=1, groups=1, size=8192)
    dtype = np.uint32 if width == 4 else np.uint64
    words = state.lds[0].view(dtype).copy()
    a_index = rng.permutation(512)[:64] + 256                   # distinct A in the middle
    strides = rng.integers(-200, 200, 64)
    b_index = a_index + strides
    active = (rng.random(64) < 0.9)[None, :]
    set_exec(state, active)
    high = (strides & 0x7FFF).astype(np.uint64) << np.uint64(17)
    state.vgpr[0] = (high | (a_index * width).astype(np.uint64))[None, :]
    run(state, op, "DS", ds(addr=0, offset=0x8000))
    _src2_reference(words, a_index[None, :], b_index[None, :], active, fn)
    assert state.lds[0].view(dtype).tolist() == words.tolist()

"""DS src2 forms against the manual's definition: A = ADDR (the VGPR),
B = A + size * (the low 15 offset bits, sign-extended), DS[A] = DS[A] op DS[B];
the offset1[7] form takes A and the stride from the address bits."""

import numpy as np

from amdgpu_tools.exec.semantics.ds import src2_stride
from amdgpu_tools.isa import decode
from amdgpu_tools.isa.targets import get_target

from .test_mem_ds import LANE, ds, lds_state
from .test_mem_support import run, set_exec


def _words(state, group=0):
    return state.lds[group].view(np.uint32).astype(np.int64)


def test_stride_is_the_sign_extended_low_15_offset_bits():
    assert [src2_stride(v) for v in (0, 1, 0x3FFF, 0x4000, 0x7FFF)] == \
        [0, 1, 0x3FFF, -0x4000, -1]
    assert src2_stride(0x8000) is None and src2_stride(0xFFFF) is None


def test_decoded_offset_fields_give_the_stride():
    # ds_max_src2_f64 v1 offset:4 and ds_add_src2_u32 v1 offset:65535 (llvm-mc-19, gfx900)
    from amdgpu_tools.exec.semantics.ds import offset16
    target = get_target("gfx900")
    inst = decode(bytes([0x04, 0x00, 0xa6, 0xd9, 0x01, 0, 0, 0]), 0, target)
    assert inst.op == "ds_max_src2_f64" and src2_stride(offset16(inst)) == 4
    inst = decode(bytes([0xff, 0xff, 0x00, 0xd9, 0x01, 0, 0, 0]), 0, target)
    assert inst.op == "ds_add_src2_u32" and src2_stride(offset16(inst)) is None


def test_add_src2_per_work_group():
    state = lds_state()
    before = [_words(state, g) for g in (0, 1)]
    state.vgpr[0] = LANE * 8                      # A: even dwords, B = A + 4
    run(state, "ds_add_src2_u32", "DS", ds(addr=0, offset=1))
    for group in (0, 1):
        expected = before[group].copy()
        expected[0:128:2] = (before[group][0:128:2] + before[group][1:128:2]) & 0xFFFFFFFF
        assert _words(state, group).tolist() == expected.tolist()


def test_negative_stride_and_reverse_subtract_honour_exec():
    state = lds_state(waves=1, groups=1)
    before = _words(state)
    state.vgpr[0] = LANE * 8 + 4                  # A: odd dwords, B = A - 4
    active = LANE % 3 != 0
    set_exec(state, active[None, :])
    run(state, "ds_rsub_src2_u32", "DS", ds(addr=0, offset=0x7FFF))
    expected = before.copy()
    odd, even = before[1:128:2], before[0:128:2]
    expected[1:128:2] = np.where(active, (even - odd) & 0xFFFFFFFF, odd)
    assert _words(state).tolist() == expected.tolist()


def test_64_bit_min_uses_an_8_byte_stride():
    state = lds_state(waves=1, groups=1)
    before = state.lds[0].view(np.uint64).copy()
    state.vgpr[0] = LANE * 32                     # A: every 4th qword, B = A + 16 bytes
    run(state, "ds_min_src2_u64", "DS", ds(addr=0, offset=2))
    expected = before.copy()
    expected[0:256:4] = np.minimum(before[0:256:4], before[2:256:4])
    assert state.lds[0].view(np.uint64).tolist() == expected.tolist()


def test_write_src2_copies_and_float_max_compares_as_floats():
    state = lds_state(waves=1, groups=1)
    words = state.lds[0].view(np.float32)
    words[:256] = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    before = words.copy()
    state.vgpr[0] = LANE * 4                      # A: dwords 0..63, B = A + 64 dwords
    run(state, "ds_max_src2_f32", "DS", ds(addr=0, offset=64))
    assert words[:64].tolist() == np.maximum(before[:64], before[64:128]).tolist()
    run(state, "ds_write_src2_b32", "DS", ds(addr=0, offset=128))
    assert words[:64].tolist() == before[128:192].tolist()
    assert words[64:].view(np.uint32).tolist() == before[64:].view(np.uint32).tolist()


def test_stride_from_the_address_bits():
    # offset1[7]: A = ADDR[16:0], stride = ADDR[31:17] sign-extended (test_ds_condxchg_src2.py)
    state = lds_state(waves=1, groups=1)
    before = _words(state)
    state.vgpr[0] = (LANE * 8) | (1 << 17)        # stride +1 element
    run(state, "ds_add_src2_u32", "DS", ds(addr=0, offset=0x8001))
    expected = before.copy()
    expected[0:128:2] = (before[0:128:2] + before[1:128:2]) & 0xFFFFFFFF
    assert _words(state).tolist() == expected.tolist()

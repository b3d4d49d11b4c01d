"""GFX9 VOP3P packed math, mixed precision, dot products, VOP3 op_sel on
16-bit ops and integer clamping, against NumPy float16/int arithmetic."""

import numpy as np

from .kernel_util import run_snippet

LANE = np.arange(64)


def pack(low, high):
    low = np.asarray(low, np.float16).view(np.uint16).astype(np.uint32)
    high = np.asarray(high, np.float16).view(np.uint16).astype(np.uint32)
    return low | (high << 16)


def unpack(bits):
    bits = np.asarray(bits, np.uint32)
    return ((bits & 0xFFFF).astype(np.uint16).view(np.float16),
            (bits >> 16).astype(np.uint16).view(np.float16))


def test_pk_add_mul_fma_with_op_sel_and_neg():
    a_lo, a_hi = LANE * 0.5, -LANE * 0.25
    b_lo, b_hi = np.full(64, 3.0), np.full(64, 0.125)
    a, b = pack(a_lo, a_hi), pack(b_lo, b_hi)
    state = run_snippet("v_pk_add_f16 v2, v0, v1\nv_pk_mul_f16 v3, v0, v1 op_sel:[1,0] "
                        "op_sel_hi:[0,1]\nv_pk_fma_f16 v4, v0, v1, v1 neg_lo:[1,0,0] "
                        "neg_hi:[0,0,1]\nv_pk_add_f16 v5, v0, 1.0",
                        vgpr={0: a, 1: b})
    f16 = lambda x: np.asarray(x, np.float16)
    lo, hi = unpack(state.vgpr[2, 0])
    np.testing.assert_array_equal(lo, f16(a_lo) + f16(b_lo))
    np.testing.assert_array_equal(hi, f16(a_hi) + f16(b_hi))
    lo, hi = unpack(state.vgpr[3, 0])            # low: a.hi * b.lo ; high: a.lo * b.hi
    np.testing.assert_array_equal(lo, f16(a_hi) * f16(b_lo))
    np.testing.assert_array_equal(hi, f16(a_lo) * f16(b_hi))
    lo, hi = unpack(state.vgpr[4, 0])
    np.testing.assert_array_equal(lo, f16(-f16(a_lo) * f16(b_lo) + f16(b_lo)))
    np.testing.assert_array_equal(hi, f16(f16(a_hi) * f16(b_hi) - f16(b_hi)))
    lo, hi = unpack(state.vgpr[5, 0])
    np.testing.assert_array_equal(lo, f16(a_lo) + f16(1))
    np.testing.assert_array_equal(hi, f16(a_hi) + f16(1))


def test_pk_integer_ops_wrap_per_half():
    a = (0xFFFF_0001 + LANE).astype(np.uint32)
    state = run_snippet("v_pk_add_u16 v2, v0, v1\nv_pk_lshlrev_b16 v3, v1, v0\n"
                        "v_pk_max_i16 v4, v0, v1", vgpr={0: a, 1: 0x0002_0011})
    lo, hi = a & 0xFFFF, a >> 16
    packed = lambda low, high: (low & 0xFFFF) | ((high & 0xFFFF) << 16)
    np.testing.assert_array_equal(state.vgpr[2, 0], packed(lo + 0x11, hi + 2))
    np.testing.assert_array_equal(state.vgpr[3, 0], packed(lo << 1, hi << 2))
    signed_hi = hi.astype(np.uint16).view(np.int16)
    np.testing.assert_array_equal(state.vgpr[4, 0] >> 16, np.maximum(signed_hi, 2).view(np.uint16))


def test_mad_mix_reads_f16_halves_and_f32():
    halves = pack(np.full(64, 1.5), np.full(64, -2.0))
    c = np.full(64, 0.25, np.float32).view(np.uint32)
    state = run_snippet("v_mad_mix_f32 v3, v0, v0, v1 op_sel:[0,1,0] op_sel_hi:[1,1,0]\n"
                        "v_mad_mixlo_f16 v4, v0, v0, v1 op_sel_hi:[1,1,0]",
                        vgpr={0: halves, 1: c, 4: 0xABCD0000})
    np.testing.assert_array_equal(state.vgpr[3, 0].view(np.float32), 1.5 * -2.0 + 0.25)
    np.testing.assert_array_equal(state.vgpr[4, 0] >> 16, 0xABCD)
    np.testing.assert_array_equal((state.vgpr[4, 0] & 0xFFFF).astype(np.uint16).view(np.float16),
                                  np.float16(1.5 * 1.5 + 0.25))


def test_vop3_op_sel_and_integer_clamp():
    state = run_snippet("v_mad_f16 v2, v0, v1, v1 op_sel:[1,0,0,1]\n"
                        "v_add_u32_e64 v3, v4, v5 clamp\nv_add_u32_e64 v6, v4, v5\n"
                        "v_sub_i32 v7, v8, v5 clamp\nv_add_u16_e64 v9, v10, v10 clamp",
                        vgpr={0: pack(np.full(64, 9.0), np.full(64, 2.0)), 1: pack(np.ones(64), 0),
                              2: 0x1234_5678, 4: 0xFFFF_FFF0, 5: 0x20, 8: 0x8000_0010,
                              10: 0x9000})
    v = state.vgpr[:, 0]
    assert int(v[2][0]) & 0xFFFF == 0x5678              # low half preserved
    assert unpack(v[2][0])[1] == np.float16(3.0)         # 2.0 * 1.0 + 1.0 to the high half
    assert int(v[3][0]) == 0xFFFFFFFF and int(v[6][0]) == 0x10
    assert int(v[7][0]) == 0x80000000                    # saturates at INT_MIN
    assert int(v[9][0]) == 0xFFFF


def test_dot_products_on_gfx906():
    a = np.full(64, 0x7F80_FF02, np.uint32)     # bytes 2, -1 (0xFF), -128 (0x80), 127
    b = np.full(64, 0x0203_0405, np.uint32)
    state = run_snippet("v_dot4_i32_i8 v2, v0, v1, v3\nv_dot4_u32_u8 v4, v0, v1, 0",
                        mcpu="gfx906", vgpr={0: a, 1: b, 3: 10})
    assert int(state.vgpr[2, 0].view(np.int32)[0]) == 10 + 2 * 5 + (-1) * 4 + (-128) * 3 + 127 * 2
    assert int(state.vgpr[4, 0][0]) == 2 * 5 + 255 * 4 + 128 * 3 + 127 * 2

"""Vector integer ops on random and edge-case lanes against plain-Python
reference definitions written from the ISA manual."""

import numpy as np
import pytest

from .kernel_util import run_snippet

M32 = (1 << 32) - 1


def signed(x):
    return x - (1 << 32) if x & 0x80000000 else x


def lanes(seed):
    rng = np.random.default_rng(seed)
    edge = [0, 1, 2, 31, 32, 33, 0x7FFFFF, 0x800000, 0xFFFFFF, 0x7FFFFFFF, 0x80000000,
            0xFFFFFFFF, 0xFFFFFFFE, 0x1000000]
    values = [int(v) for v in rng.integers(0, 1 << 32, 64, dtype=np.uint64)]
    return edge + values[len(edge):]


def i24(x):
    x &= 0xFFFFFF
    return x - (1 << 24) if x & 0x800000 else x


def median(a, b, c):
    return sorted([a, b, c])[1]


THREE_SOURCE = {
    "v_mad_u32_u24": lambda a, b, c: ((a & 0xFFFFFF) * (b & 0xFFFFFF) + c) & M32,
    "v_mad_i32_i24": lambda a, b, c: (i24(a) * i24(b) + signed(c)) & M32,
    "v_bfe_u32": lambda a, b, c: (a >> (b & 31)) & ((1 << (c & 31)) - 1),
    "v_bfi_b32": lambda a, b, c: (a & b) | (~a & c & M32),
    "v_alignbit_b32": lambda a, b, c: (((a << 32) | b) >> (c & 31)) & M32,
    "v_alignbyte_b32": lambda a, b, c: (((a << 32) | b) >> (8 * (c & 3))) & M32,
    "v_lshl_add_u32": lambda a, b, c: ((a << (b & 31)) + c) & M32,
    "v_add3_u32": lambda a, b, c: (a + b + c) & M32,
    "v_xad_u32": lambda a, b, c: ((a ^ b) + c) & M32,
    "v_and_or_b32": lambda a, b, c: (a & b) | c,
    "v_sad_u32": lambda a, b, c: (abs(a - b) + c) & M32,
    "v_min3_i32": lambda a, b, c: min(signed(a), signed(b), signed(c)) & M32,
    "v_med3_u32": median,
    "v_med3_i32": lambda a, b, c: median(signed(a), signed(b), signed(c)) & M32,
}
TWO_SOURCE = {
    "v_mul_lo_u32": lambda a, b: (a * b) & M32,
    "v_mul_hi_u32": lambda a, b: (a * b) >> 32,
    "v_mul_hi_i32": lambda a, b: ((signed(a) * signed(b)) >> 32) & M32,
    "v_mul_u32_u24": lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) & M32,
    "v_mul_hi_u32_u24": lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32,
    "v_mul_hi_i32_i24": lambda a, b: ((i24(a) * i24(b)) >> 32) & M32,
    "v_lshlrev_b32": lambda a, b: (b << (a & 31)) & M32,
    "v_ashrrev_i32": lambda a, b: (signed(b) >> (a & 31)) & M32,
    "v_max_i32": lambda a, b: max(signed(a), signed(b)) & M32,
    "v_min_u32": min,
    "v_bcnt_u32_b32": lambda a, b: (bin(a).count("1") + b) & M32,
    "v_cvt_pk_u16_u32": lambda a, b: (a & 0xFFFF) | ((b & 0xFFFF) << 16),
}


@pytest.mark.parametrize("op", sorted(THREE_SOURCE))
def test_three_source_integer_op(op):
    a, b, c = lanes(1), lanes(2)[::-1], lanes(3)
    state = run_snippet(f"{op} v3, v0, v1, v2", vgpr={0: a, 1: b, 2: c})
    expected = [THREE_SOURCE[op](x, y, z) for x, y, z in zip(a, b, c)]
    np.testing.assert_array_equal(state.vgpr[3, 0], np.array(expected, np.uint64))


@pytest.mark.parametrize("op", sorted(TWO_SOURCE))
def test_two_source_integer_op(op):
    a, b = lanes(4), lanes(5)[::-1]
    state = run_snippet(f"{op} v3, v0, v1", vgpr={0: a, 1: b})
    expected = [TWO_SOURCE[op](x, y) for x, y in zip(a, b)]
    np.testing.assert_array_equal(state.vgpr[3, 0], np.array(expected, np.uint64))


def test_carry_ops_against_python():
    a, b = lanes(6), lanes(7)[::-1]
    carry_in = lanes(8)[0] | (lanes(8)[1] << 32)
    state = run_snippet("v_addc_co_u32 v3, s[4:5], v0, v1, s[6:7]\n"
                        "v_subb_co_u32 v5, s[8:9], v0, v1, s[6:7]\n"
                        "v_subbrev_co_u32 v7, s[10:11], v0, v1, s[6:7]",
                        vgpr={0: a, 1: b}, sgpr={6: carry_in & M32, 7: carry_in >> 32})
    add = [x + y + (carry_in >> i & 1) for i, (x, y) in enumerate(zip(a, b))]
    sub = [x - y - (carry_in >> i & 1) for i, (x, y) in enumerate(zip(a, b))]
    subrev = [y - x - (carry_in >> i & 1) for i, (x, y) in enumerate(zip(a, b))]
    for reg, mask_code, values, flag in ((3, 4, add, lambda v: v > M32),
                                         (5, 8, sub, lambda v: v < 0),
                                         (7, 10, subrev, lambda v: v < 0)):
        np.testing.assert_array_equal(state.vgpr[reg, 0],
                                      np.array([v & M32 for v in values], np.uint64))
        mask = int(state.sgpr[mask_code + 1, 0]) << 32 | int(state.sgpr[mask_code, 0])
        assert mask == sum(1 << i for i, v in enumerate(values) if flag(v)), reg


def test_masked_quad_sad_forms():
    reference = [0x0807060504030201, 0xFF00FF00FF00FF00]
    pattern = [0x04030201, 0x00FF00FF]
    ref = np.resize(np.array(reference, np.uint64), 64)
    pat = np.resize(np.array(pattern, np.uint32), 64)
    state = run_snippet("v_mqsad_pk_u16_u8 v[4:5], v[0:1], v2, 0\n"
                        "v_mqsad_u32_u8 v[8:11], v[0:1], v2, v[12:15]",
                        vgpr={0: ref & M32, 1: ref >> 32, 2: pat, 12: 10, 13: 20, 14: 30, 15: 40})

    def masked(r, p, shift):
        return sum(abs((r >> 8 * (i + shift) & 0xFF) - (p >> 8 * i & 0xFF))
                   for i in range(4) if p >> 8 * i & 0xFF)

    for lane in range(2):
        r, p = reference[lane], pattern[lane]
        packed = int(state.vgpr[4, 0][lane]) | int(state.vgpr[5, 0][lane]) << 32
        assert [packed >> 16 * s & 0xFFFF for s in range(4)] == [masked(r, p, s) for s in range(4)]
        assert [int(state.vgpr[8 + s, 0][lane]) for s in range(4)] == \
            [masked(r, p, s) + 10 * (s + 1) for s in range(4)]

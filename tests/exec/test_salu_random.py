"""Scalar ops on random and edge-case inputs against plain-Python reference
definitions written from the ISA manual (integers, not NumPy), 32 waves at once."""

import numpy as np

from .kernel_util import run_snippet

M32 = (1 << 32) - 1
WAVES = 32


def signed(x):
    return x - (1 << 32) if x & 0x80000000 else x


def bit_count(x):
    return bin(x).count("1")


def lowest_set(x):
    return (x & -x).bit_length() - 1 if x else M32


def leading_zeros(x):
    return 32 - x.bit_length() if x else M32


def bfe(value, control, signed_field):
    offset, width = control & 31, (control >> 16) & 0x7F
    field = (value >> offset) & ((1 << min(width, 32)) - 1)
    if signed_field and width and field >> (width - 1) & 1:
        field -= 1 << width
    return field & M32


# (instruction writing s[dst] from s1, s2) -> (result, scc) reference
REFERENCES = {
    "s_add_u32": lambda a, b: ((a + b) & M32, a + b > M32),
    "s_sub_u32": lambda a, b: ((a - b) & M32, b > a),
    "s_add_i32": lambda a, b: ((a + b) & M32,
                               not -2 ** 31 <= signed(a) + signed(b) < 2 ** 31),
    "s_sub_i32": lambda a, b: ((a - b) & M32,
                               not -2 ** 31 <= signed(a) - signed(b) < 2 ** 31),
    "s_min_i32": lambda a, b: (a if signed(a) < signed(b) else b, signed(a) < signed(b)),
    "s_max_u32": lambda a, b: (max(a, b), a > b),
    "s_and_b32": lambda a, b: (a & b, (a & b) != 0),
    "s_xnor_b32": lambda a, b: (~(a ^ b) & M32, (~(a ^ b) & M32) != 0),
    "s_lshl_b32": lambda a, b: ((a << (b & 31)) & M32, ((a << (b & 31)) & M32) != 0),
    "s_lshr_b32": lambda a, b: (a >> (b & 31), (a >> (b & 31)) != 0),
    "s_ashr_i32": lambda a, b: ((signed(a) >> (b & 31)) & M32, (signed(a) >> (b & 31)) != 0),
    "s_bfe_u32": lambda a, b: (bfe(a, b, False), bfe(a, b, False) != 0),
    "s_mul_i32": lambda a, b: ((a * b) & M32, None),
    "s_mul_hi_u32": lambda a, b: ((a * b) >> 32, None),
    "s_mul_hi_i32": lambda a, b: (((signed(a) * signed(b)) >> 32) & M32, None),
    # the manual: D = S0 - S1 in 32 bits, then negated if negative
    "s_absdiff_i32": lambda a, b: (abs(signed((a - b) & M32)) & M32,
                                   (abs(signed((a - b) & M32)) & M32) != 0),
}
UNARY = {
    "s_not_b32": lambda a: (~a & M32, (~a & M32) != 0),
    "s_bcnt1_i32_b32": lambda a: (bit_count(a), bit_count(a) != 0),
    "s_ff1_i32_b32": lambda a: (lowest_set(a), None),
    "s_flbit_i32_b32": lambda a: (leading_zeros(a), None),
    "s_brev_b32": lambda a: (int(f"{a:032b}"[::-1], 2), None),
    "s_sext_i32_i16": lambda a: ((a & 0xFFFF) - (0x10000 if a & 0x8000 else 0)) & M32,
}


def inputs(seed):
    rng = np.random.default_rng(seed)
    edge = [0, 1, 2, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE]
    values = [int(v) for v in rng.integers(0, 1 << 32, WAVES, dtype=np.uint64)]
    return [edge[i] if i < len(edge) else values[i] for i in range(WAVES)]


def test_binary_scalar_ops_match_python_reference():
    a, b = inputs(1), inputs(2)[::-1]
    for op, reference in REFERENCES.items():
        state = run_snippet(f"{op} s3, s1, s2", sgpr={1: a, 2: b}, waves=WAVES)
        for wave in range(WAVES):
            result, scc = reference(a[wave], b[wave])
            assert int(state.sgpr[3, wave]) == result, (op, hex(a[wave]), hex(b[wave]))
            if scc is not None:
                assert bool(state.scc[wave]) == bool(scc), (op, hex(a[wave]), hex(b[wave]))


def test_unary_scalar_ops_match_python_reference():
    a = inputs(3)
    for op, reference in UNARY.items():
        state = run_snippet(f"{op} s3, s1", sgpr={1: a}, waves=WAVES)
        for wave in range(WAVES):
            expected = reference(a[wave])
            result, scc = expected if isinstance(expected, tuple) else (expected, None)
            assert int(state.sgpr[3, wave]) == result, (op, hex(a[wave]))
            if scc is not None:
                assert bool(state.scc[wave]) == bool(scc), (op, hex(a[wave]))

"""MODE.FP_ROUND (directed rounding) and the partial MODE.FP_DENORM modes in
the executor, against values computed here with exact rational arithmetic.

The reference ``round_exact`` rounds a Fraction to a binary format by the
IEEE 754 rules written out directly (quantum, floor/ceil per direction,
overflow to infinity or to the largest finite value); it shares nothing with
exec/rounding.py.  Kernels set the mode through the kernel descriptor's
float mode (dispatch) or with s_setreg; their bytes are recorded in
data/test_rounding_kernels.json by llvm-mc so the tests run without LLVM.
"""

from __future__ import annotations

import json
import math
import subprocess
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from elftools.elf.elffile import ELFFile

from . import kernel_util
from .kernel_util import run_snippet

RECORDED = Path(__file__).parent / "data" / "test_rounding_kernels.json"
NEAREST, UP, DOWN, TO_ZERO = 0, 1, 2, 3
MODES = (NEAREST, UP, DOWN, TO_ZERO)
ALL_DENORMS = 0xF0
F16, F32, F64 = np.float16, np.float32, np.float64
#: (significand bits, minimum normal exponent, maximum exponent)
FORMATS = {F16: (11, -14, 15), F32: (24, -126, 127), F64: (53, -1022, 1023)}
UINT = {F16: np.uint16, F32: np.uint32, F64: np.uint64}


# ----------------------------------------------------------- the reference
def round_exact(x: Fraction, mode: int, dtype):
    """x rounded to ``dtype`` in ``mode`` (x != 0), as a ``dtype`` scalar."""
    precision, emin, emax = FORMATS[dtype]
    negative = x < 0
    magnitude = -x if negative else x
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    quantum = Fraction(2) ** (max(exponent, emin) - precision + 1)
    scaled = magnitude / quantum
    low = math.floor(scaled)
    rest = scaled - low
    away = (mode == UP and not negative) or (mode == DOWN and negative)
    if mode == NEAREST:
        up = rest > Fraction(1, 2) or (rest == Fraction(1, 2) and low % 2 == 1)
    else:
        up = away and rest != 0
    value = (low + up) * quantum
    largest = (2 - Fraction(2) ** (1 - precision)) * Fraction(2) ** emax
    if value > largest:
        value = math.inf if (mode == NEAREST or away) else largest
    result = dtype(-float(value) if negative else float(value))
    return result


def zero_sum(x, y, mode, dtype):
    """IEEE 754 6.3: an exact zero x + y is -0 toward -inf, +0 otherwise;
    x + x keeps the sign of x."""
    if x == 0 and y == 0 and np.signbit(x) == np.signbit(y):
        return dtype(x)
    return dtype(-0.0) if mode == DOWN else dtype(0.0)


def expected_sum(terms, mode, dtype, zero_terms):
    """Rounded exact sum of float ``terms`` (all finite), signed zeros by the
    rule for the two addends ``zero_terms`` (their signs only matter)."""
    exact = sum((Fraction(float(t)) for t in terms), Fraction(0))
    if exact == 0:
        return zero_sum(*zero_terms, mode, dtype)
    return round_exact(exact, mode, dtype)


def reference(op, mode, dtype, *operands):
    """Expected result per lane of ``op`` ('add', 'sub', 'mul', 'fma', 'mad',
    'convert', 'ldexp') on scalar operands."""
    values = [float(v) for v in operands]
    if not all(math.isfinite(v) for v in values[:3 if op != "ldexp" else 1]):
        with np.errstate(all="ignore"):
            return _nonfinite(op, dtype, *operands)
    if op == "add":
        return expected_sum(values, mode, dtype, values)
    if op == "sub":
        return expected_sum([values[0], -values[1]], mode, dtype, [values[0], -values[1]])
    if op == "mul":
        return _product(values[0], values[1], mode, dtype)
    if op == "fma":
        product = Fraction(values[0]) * Fraction(values[1])
        exact = product + Fraction(values[2])
        if exact == 0:
            zero_product = math.copysign(0.0, values[0]) * math.copysign(1.0, values[1])
            return zero_sum(zero_product if product == 0 else 1.0, values[2], mode, dtype)
        return round_exact(exact, mode, dtype)
    if op == "mad":
        product = _product(values[0], values[1], mode, dtype)
        return expected_sum([product, values[2]], mode, dtype, [product, values[2]]) \
            if np.isfinite(product) else dtype(product + dtype(values[2]))
    if op == "convert":
        exact = Fraction(values[0])
        return dtype(values[0]) if exact == 0 else round_exact(exact, mode, dtype)
    if op == "ldexp":
        exact = Fraction(values[0]) * Fraction(2) ** int(operands[1])
        return dtype(values[0]) if exact == 0 else round_exact(exact, mode, dtype)
    raise ValueError(op)


def _product(x, y, mode, dtype):
    exact = Fraction(x) * Fraction(y)
    if exact == 0:
        return dtype(math.copysign(0.0, x) * math.copysign(1.0, y))
    return round_exact(exact, mode, dtype)


def _nonfinite(op, dtype, *operands):
    """Infinite or NaN operands: the result is exact, as NumPy computes it."""
    a, b = dtype(operands[0]), dtype(operands[1]) if len(operands) > 1 else None
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op in ("fma", "mad"):
        return a * b + dtype(operands[2])
    if op == "ldexp":
        return a
    return dtype(operands[0])


def test_reference_rounds_like_numpy_to_nearest():
    """The reference agrees with IEEE hardware rounding (NumPy) in mode 0."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal(200) * 10.0 ** rng.integers(-35, 35, 200)
    for value in a:
        assert round_exact(Fraction(float(value)), NEAREST, F32) == F32(value)
    assert round_exact(Fraction(1) + Fraction(1, 2 ** 24), NEAREST, F32) == 1.0
    assert round_exact(Fraction(1) + Fraction(1, 2 ** 24), UP, F32) == 1 + 2.0 ** -23
    assert round_exact(Fraction(10) ** 40, TO_ZERO, F32) == np.finfo(F32).max
    assert round_exact(-Fraction(10) ** 40, UP, F32) == -np.finfo(F32).max
    assert round_exact(-Fraction(10) ** 40, DOWN, F32) == -np.inf


# -------------------------------------------------------------- kernels
def _assemble(source, mcpu):
    """Record ``source``'s machine code for kernel_util.run_snippet (from our
    own recorded file, else llvm-mc)."""
    key = f"{mcpu}\n{source.strip()}"
    if key in kernel_util._CACHE:
        return
    recorded = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
    if key not in recorded:
        tool = kernel_util._llvm_mc()
        if tool is None:
            pytest.skip("kernel bytes not recorded and llvm-mc is not installed")
        with tempfile.TemporaryDirectory() as tmp:
            obj = Path(tmp) / "k.o"
            done = subprocess.run([tool, "-arch=amdgcn", f"-mcpu={mcpu}", "-filetype=obj",
                                   "-o", str(obj)], input=source, text=True,
                                  capture_output=True)
            if done.returncode:
                raise AssertionError(f"llvm-mc rejected the test kernel:\n{done.stderr}")
            with open(obj, "rb") as stream:
                recorded[key] = ELFFile(stream).get_section_by_name(".text").data().hex()
        RECORDED.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    kernel_util._CACHE[key] = recorded[key]


def run(source, *, float_mode, mcpu="gfx900", **registers):
    _assemble(source, mcpu)
    return run_snippet(source, mcpu=mcpu, float_mode=float_mode, **registers)


def lanes(values, dtype):
    """64 lanes of ``values`` (repeated) as a ``dtype`` array."""
    return np.resize(np.asarray(values, dtype), 64)


def as_bits(values, dtype):
    return np.asarray(values, dtype).view(UINT[dtype])


def assert_same(actual, expected, context):
    """Bit-exact equality (signed zeros included), any NaN equal to any NaN."""
    actual, expected = np.asarray(actual), np.asarray(expected, actual.dtype)
    nan = np.isnan(actual) & np.isnan(expected)
    bad = ~nan & (as_bits(actual, actual.dtype.type) != as_bits(expected, actual.dtype.type))
    assert not bad.any(), (f"{context}: lanes {np.nonzero(bad)[0][:8].tolist()}: "
                           f"got {actual[bad][:4].tolist()} expected {expected[bad][:4].tolist()}")


def expected_lanes(op, mode, dtype, *operands):
    return np.array([reference(op, mode, dtype, *values) for values in zip(*operands)], dtype)


def read_f32(state, reg):
    return state.vgpr[reg, 0].view(F32)


def read_f16(state, reg):
    return (state.vgpr[reg, 0] & np.uint32(0xFFFF)).astype(np.uint16).view(F16)


def read_f64(state, reg):
    return (state.vgpr[reg, 0].astype(np.uint64) |
            (state.vgpr[reg + 1, 0].astype(np.uint64) << np.uint64(32))).view(F64)


def f64_registers(values):
    bits = np.asarray(values, F64).view(np.uint64)
    return (bits & np.uint64(0xFFFFFFFF)).astype(np.uint32), (bits >> np.uint64(32)).astype(
        np.uint32)


# ------------------------------------------------------------- operands
MAX32, TINY32 = float(np.finfo(F32).max), 2.0 ** -149
ULP1 = 2.0 ** -23


def _edge_pairs_f32():
    """(a, b) pairs: ties, near-ties, tiny addends, overflow, exact zero
    sums, denormal results, non-finite operands."""
    pairs = [(1.0, 2.0 ** -24), (1.0 + ULP1, 2.0 ** -24), (-1.0, -2.0 ** -24),
             (1.0, 3 * 2.0 ** -25), (1.0, 2.0 ** -60), (-1.0, 2.0 ** -60), (1.0, -2.0 ** -60),
             (MAX32, MAX32), (-MAX32, -MAX32), (MAX32, 2.0 ** 103), (MAX32, 2.0 ** 102),
             (-MAX32, -2.0 ** 102), (1.5, -1.5), (-2.75, 2.75), (0.0, -0.0), (-0.0, -0.0),
             (0.0, 0.0), (-0.0, 0.0), (2.0 ** -126, -3 * 2.0 ** -149),
             (TINY32, 0.0), (-TINY32, 2.0 ** -130), (3 * TINY32, -TINY32),
             (np.inf, 1.0), (-np.inf, 1e30), (np.nan, 1.0), (1e-7, 3.0), (0.1, 0.2),
             (1e20, -1e-20), (-5e-30, 7e-31), (16777216.0, 1.0), (16777216.0, -1.0)]
    rng = np.random.default_rng(11)
    rand = rng.standard_normal((33, 2)) * 2.0 ** rng.integers(-30, 30, (33, 2))
    pairs += [tuple(row) for row in rand.astype(F32)]
    a, b = zip(*pairs[:64])
    return np.array(a, F32), np.array(b, F32)


def _edge_triples(dtype, count=64, seed=5):
    """(a, b, c): random magnitudes plus cancellations of the exact product."""
    rng = np.random.default_rng(seed)
    precision, emin, emax = FORMATS[dtype]
    spread = min(emax // 3, 40)
    a = (rng.standard_normal(count) * 2.0 ** rng.integers(-spread, spread, count)).astype(dtype)
    b = (rng.standard_normal(count) * 2.0 ** rng.integers(-spread, spread, count)).astype(dtype)
    c = (rng.standard_normal(count) * 2.0 ** rng.integers(-spread, spread, count)).astype(dtype)
    with np.errstate(all="ignore"):
        c[:12] = -(a[:12].astype(F64) * b[:12]).astype(dtype)       # near/exact cancellation
        a[12], b[12], c[12] = 0.0, -3.0, 0.0                          # -0 + +0
        a[13], b[13], c[13] = 1.5, 2.0, -3.0                          # exact zero sum
        a[14], b[14], c[14] = -0.0, 1.0, -0.0                         # -0 + -0
        big = float(np.finfo(dtype).max)
        a[15], b[15], c[15] = big, 2.0, -big                          # huge product
        a[16], b[16], c[16] = big, 1.0, big                           # overflow
        a[17], b[17], c[17] = np.inf, 1.0, 1.0
        tiny = 2.0 ** (emin - precision + 1)
        a[18], b[18], c[18] = tiny, 0.5, 0.0                          # half the tiniest
        a[19], b[19], c[19] = 3 * tiny, 0.5, -0.0
        a[20], b[20], c[20] = 1.0, 1.0, 2.0 ** (1 - precision) * 0.5    # tie after 1 + half ulp
    return a, b, c


# ------------------------------------------------------------ f32 tests
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op, ref", [("v_add_f32", "add"), ("v_sub_f32", "sub"),
                                     ("v_mul_f32", "mul")])
def test_f32_binary_ops_round_in_every_mode(op, ref, mode):
    a, b = _edge_pairs_f32()
    state = run(f"{op} v2, v0, v1\n{op}_e64 v3, v0, v1",
                float_mode=ALL_DENORMS | mode, vgpr={0: a, 1: b})
    expected = expected_lanes(ref, mode, F32, a, b)
    assert_same(read_f32(state, 2), expected, f"{op} mode {mode}")
    assert_same(read_f32(state, 3), expected, f"{op}_e64 mode {mode}")


@pytest.mark.parametrize("mode", MODES)
def test_f32_fma_and_mad_round_in_every_mode(mode):
    a, b, c = _edge_triples(F32)
    state = run("v_fma_f32 v3, v0, v1, v2\nv_mad_f32 v4, v0, v1, v2\n"
                "v_mov_b32 v5, v2\nv_mac_f32 v5, v0, v1\n"
                "v_mov_b32 v6, v2\nv_fmac_f32 v6, v0, v1",
                float_mode=ALL_DENORMS | mode, vgpr={0: a, 1: b, 2: c}, mcpu="gfx906")
    fused = expected_lanes("fma", mode, F32, a, b, c)
    unfused = expected_lanes("mad", mode, F32, a, b, c)
    assert_same(read_f32(state, 3), fused, f"v_fma_f32 mode {mode}")
    assert_same(read_f32(state, 4), unfused, f"v_mad_f32 mode {mode}")
    assert_same(read_f32(state, 5), unfused, f"v_mac_f32 mode {mode}")
    assert_same(read_f32(state, 6), fused, f"v_fmac_f32 mode {mode}")


def test_x_minus_x_is_negative_zero_toward_negative_only():
    x = lanes([1.0, -2.5, 3e38, 1e-40, 0.0], F32)
    for mode in MODES:
        state = run("v_sub_f32 v2, v0, v0\nv_add_f32_e64 v3, v0, -v0",
                    float_mode=ALL_DENORMS | mode, vgpr={0: x})
        zero = F32(-0.0) if mode == DOWN else F32(0.0)
        assert_same(read_f32(state, 2), np.full(64, zero), f"x - x mode {mode}")
        assert_same(read_f32(state, 3), np.full(64, zero), f"x + -x mode {mode}")


def test_overflow_gives_max_float_or_infinity_by_direction():
    big = lanes([MAX32, -MAX32], F32)
    expected = {NEAREST: [np.inf, -np.inf], UP: [np.inf, -MAX32],
                DOWN: [MAX32, -np.inf], TO_ZERO: [MAX32, -MAX32]}
    for mode, values in expected.items():
        state = run("v_add_f32 v1, v0, v0\nv_mul_f32 v2, 4.0, v0",
                    float_mode=ALL_DENORMS | mode, vgpr={0: big})
        assert_same(read_f32(state, 1), lanes(values, F32), f"add mode {mode}")
        assert_same(read_f32(state, 2), lanes(values, F32), f"mul mode {mode}")


def test_round_mode_set_by_s_setreg_applies_to_following_instructions():
    """s_setreg of MODE.FP_ROUND[1:0] and [3:2]: f32 toward zero, then
    f64/f16 toward +inf, then back to nearest."""
    a, b = _edge_pairs_f32()
    source = ("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 3\n"
              "v_add_f32 v2, v0, v1\n"
              "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 4\n"
              "v_add_f32 v3, v0, v1\n"
              "v_cvt_f16_f32 v4, v0\n"
              "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0\n"
              "v_add_f32 v5, v0, v1\n")
    state = run(source, float_mode=ALL_DENORMS, vgpr={0: a, 1: b})
    assert_same(read_f32(state, 2), expected_lanes("add", TO_ZERO, F32, a, b), "rtz")
    assert_same(read_f32(state, 3), expected_lanes("add", NEAREST, F32, a, b), "f32 rne")
    assert_same(read_f16(state, 4), expected_lanes("convert", UP, F16, a), "f16 up")
    assert_same(read_f32(state, 5), expected_lanes("add", NEAREST, F32, a, b), "rne")


def test_f32_round_mode_leaves_f64_results_alone_and_back():
    """FP_ROUND[1:0] is for f32 results only, FP_ROUND[3:2] for f64/f16."""
    x = lanes([1.0 + 2.0 ** -40, 2.0 ** 60 + 1.0, -7.1], F64)
    lo, hi = f64_registers(x)
    source = "v_cvt_f32_f64 v4, v[0:1]\nv_add_f64 v[6:7], v[0:1], v[0:1]"
    state = run(source, float_mode=ALL_DENORMS | UP << 2, vgpr={0: lo, 1: hi})
    assert_same(read_f32(state, 4), x.astype(F32), "f32 result in f64 mode")
    state = run(source, float_mode=ALL_DENORMS | UP, vgpr={0: lo, 1: hi})
    assert_same(read_f32(state, 4), expected_lanes("convert", UP, F32, x), "f32 up")
    assert_same(read_f64(state, 6), x + x, "f64 nearest")


# ------------------------------------------------------------ f64 tests
def _f64_pairs():
    big, tiny = float(np.finfo(F64).max), 2.0 ** -1074
    pairs = [(1.0, 2.0 ** -53), (1.0 + 2.0 ** -52, 2.0 ** -53), (-1.0, 2.0 ** -80),
             (big, big), (-big, -big), (big, 2.0 ** 970), (big, 2.0 ** 969), (2.5, -2.5),
             (0.0, -0.0), (-0.0, -0.0), (tiny, 0.5), (3 * tiny, 0.5), (2.0 ** -540, 2.0 ** -540),
             (1.0 + 2.0 ** -52, 1.0 + 2.0 ** -52), (2.0 ** 1000, 2.0 ** 30), (1e300, 1e-300),
             (2.0 ** -1022, -2.0 ** -1074), (np.inf, -2.0), (np.nan, 0.0), (0.1, 0.7),
             (-1e-310, 3.0), (1e-160, -1e-160)]
    rng = np.random.default_rng(3)
    rand = rng.standard_normal((42, 2)) * 2.0 ** rng.integers(-200, 200, (42, 2))
    pairs += [tuple(row) for row in rand]
    a, b = zip(*pairs[:64])
    return np.array(a, F64), np.array(b, F64)


@pytest.mark.parametrize("mode", MODES)
def test_f64_add_mul_fma_round_in_every_mode(mode):
    a, b = _f64_pairs()
    ta, tb, tc = _edge_triples(F64, seed=9)
    (a_lo, a_hi), (b_lo, b_hi) = f64_registers(a), f64_registers(b)
    regs = {0: a_lo, 1: a_hi, 2: b_lo, 3: b_hi}
    for reg, values in zip((10, 12, 14), (ta, tb, tc)):
        regs[reg], regs[reg + 1] = f64_registers(values)
    state = run("v_add_f64 v[4:5], v[0:1], v[2:3]\nv_mul_f64 v[6:7], v[0:1], v[2:3]\n"
                "v_add_f64 v[8:9], v[0:1], -v[2:3]\nv_fma_f64 v[16:17], v[10:11], v[12:13], "
                "v[14:15]\nv_fma_f64 v[18:19], v[0:1], v[2:3], v[0:1]",
                float_mode=ALL_DENORMS | mode << 2, vgpr=regs, vgprs=24)
    assert_same(read_f64(state, 4), expected_lanes("add", mode, F64, a, b), "add")
    assert_same(read_f64(state, 6), expected_lanes("mul", mode, F64, a, b), "mul")
    assert_same(read_f64(state, 8), expected_lanes("sub", mode, F64, a, b), "sub")
    assert_same(read_f64(state, 16), expected_lanes("fma", mode, F64, ta, tb, tc), "fma")
    assert_same(read_f64(state, 18), expected_lanes("fma", mode, F64, a, b, a), "fma2")


# ------------------------------------------------------------ f16 tests
@pytest.mark.parametrize("mode", MODES)
def test_f16_ops_round_in_every_mode(mode):
    a32, b32 = _edge_pairs_f32()
    with np.errstate(all="ignore"):
        a, b = (a32 * F32(2.0 ** -5)).astype(F16), (b32 * F32(2.0 ** 3)).astype(F16)
    ta, tb, tc = _edge_triples(F16, seed=4)
    regs = {0: a.view(np.uint16), 1: b.view(np.uint16), 2: ta.view(np.uint16),
            3: tb.view(np.uint16), 4: tc.view(np.uint16)}
    state = run("v_add_f16 v5, v0, v1\nv_sub_f16 v6, v0, v1\nv_mul_f16 v7, v0, v1\n"
                "v_fma_f16 v8, v2, v3, v4\nv_mad_f16 v9, v2, v3, v4\n"
                "v_pk_fma_f16 v10, v2, v3, v4 op_sel_hi:[0,0,0]",
                float_mode=ALL_DENORMS | mode << 2, vgpr=regs)
    assert_same(read_f16(state, 5), expected_lanes("add", mode, F16, a, b), "add")
    assert_same(read_f16(state, 6), expected_lanes("sub", mode, F16, a, b), "sub")
    assert_same(read_f16(state, 7), expected_lanes("mul", mode, F16, a, b), "mul")
    fused = expected_lanes("fma", mode, F16, ta, tb, tc)
    assert_same(read_f16(state, 8), fused, "fma")
    assert_same(read_f16(state, 9), expected_lanes("mad", mode, F16, ta, tb, tc), "mad")
    packed = state.vgpr[10, 0]
    for half in (0, 16):
        values = ((packed >> np.uint32(half)) & np.uint32(0xFFFF)).astype(np.uint16).view(F16)
        assert_same(values, fused, f"pk_fma half {half}")


@pytest.mark.parametrize("mode", MODES)
def test_packed_add_mul_round_each_half(mode):
    a32, b32 = _edge_pairs_f32()
    with np.errstate(all="ignore"):
        a, b = (a32 * F32(2.0 ** -8)).astype(F16), (b32 * F32(2.0 ** 4)).astype(F16)
    low, high = a.view(np.uint16).astype(np.uint32), b.view(np.uint16).astype(np.uint32)
    state = run("v_pk_add_f16 v2, v0, v1\nv_pk_mul_f16 v3, v0, v1",
                float_mode=ALL_DENORMS | mode << 2,
                vgpr={0: low | high << np.uint32(16), 1: high | low << np.uint32(16)})
    add = expected_lanes("add", mode, F16, a, b)
    mul = expected_lanes("mul", mode, F16, a, b)
    for reg, expected in ((2, add), (3, mul)):
        word = state.vgpr[reg, 0]
        assert_same((word & np.uint32(0xFFFF)).astype(np.uint16).view(F16), expected, reg)
        assert_same((word >> np.uint32(16)).astype(np.uint16).view(F16), expected, reg)


@pytest.mark.parametrize("mode", MODES)
def test_fma_mix_rounds_once_to_its_destination(mode):
    a, b, c = _edge_triples(F32, seed=8)
    state = run("v_fma_mix_f32 v3, v0, v1, v2\nv_mov_b32 v4, 0\n"
                "v_fma_mixlo_f16 v4, v0, v1, v2",
                float_mode=ALL_DENORMS | mode | mode << 2, vgpr={0: a, 1: b, 2: c},
                mcpu="gfx906")
    assert_same(read_f32(state, 3), expected_lanes("fma", mode, F32, a, b, c), "mix f32")
    assert_same(read_f16(state, 4), expected_lanes("fma", mode, F16, a, b, c), "mixlo f16")


# ----------------------------------------------------- conversions, ldexp
@pytest.mark.parametrize("mode", MODES)
def test_conversions_round_in_their_result_mode(mode):
    ints = lanes([16777217, -16777217, 16777219, 2 ** 31 - 1, -2 ** 31, 0, 33554435, 7,
                  -100000001, 123456789, 2 ** 24 + 3, -(2 ** 25) - 1], np.int32)
    doubles = lanes([1.0 + 2.0 ** -30, -(1.0 + 2.0 ** -24), 1e39, -1e39, 3.5e38, 1e-50, -1e-50,
                     2.0 ** -150, 0.1, -0.0, np.inf, np.nan, 1.0 + 2.0 ** -24, 2.0 ** -149 * 1.5],
                    F64)
    floats = lanes([1.0 + 2.0 ** -11, 65520.0, -65520.0, 70000.0, 1e-8, -1e-8, 0.1, 2049.0,
                    2.0 ** -25, 3 * 2.0 ** -26, -0.0, np.inf, 1e30], F32)
    shorts = lanes([2049, -2049, 32767, -32768, 4097, 2051, 0, 65535 - 65536], np.int16)
    lo, hi = f64_registers(doubles)
    state = run("v_cvt_f32_i32 v5, v0\nv_cvt_f32_u32 v6, v0\nv_cvt_f32_f64 v7, v[1:2]\n"
                "v_cvt_f16_f32 v8, v3\nv_cvt_f16_i16 v9, v4\nv_cvt_f16_u16 v10, v4",
                float_mode=ALL_DENORMS | mode | mode << 2,
                vgpr={0: ints.view(np.uint32), 1: lo, 2: hi, 3: floats,
                      4: shorts.view(np.uint16)}, vgprs=12)
    assert_same(read_f32(state, 5), expected_lanes("convert", mode, F32, ints), "f32_i32")
    assert_same(read_f32(state, 6), expected_lanes("convert", mode, F32, ints.view(np.uint32)),
                "f32_u32")
    assert_same(read_f32(state, 7), expected_lanes("convert", mode, F32, doubles), "f32_f64")
    assert_same(read_f16(state, 8), expected_lanes("convert", mode, F16, floats), "f16_f32")
    assert_same(read_f16(state, 9), expected_lanes("convert", mode, F16, shorts), "f16_i16")
    assert_same(read_f16(state, 10), expected_lanes("convert", mode, F16,
                                                    shorts.view(np.uint16)), "f16_u16")


def test_ops_outside_fp_round_give_the_same_bits_in_every_mode():
    """Float -> int conversions truncate, v_cvt_pkrtz always rounds toward
    zero, rounding-to-integral and the transcendental approximations do not
    read FP_ROUND: every mode gives the round-to-nearest run's bits."""
    x = lanes([1.5, -1.5, 2.5, -2.7, 1e10, -0.3, np.nan, 1.0 + 2.0 ** -12, 70000.0, 0.1], F32)
    source = ("v_cvt_i32_f32 v1, v0\nv_cvt_pkrtz_f16_f32 v2, v0, v0\nv_sqrt_f32 v3, v0\n"
              "v_rcp_f32 v4, v0\nv_floor_f32 v5, v0\nv_rndne_f32 v6, v0\nv_exp_f32 v7, v0")
    nearest = run(source, float_mode=ALL_DENORMS, vgpr={0: x})
    truncated = np.where(np.isnan(x), 0, np.clip(np.trunc(x.astype(F64)), -2 ** 31,
                                                 2 ** 31 - 1)).astype(np.int32)
    np.testing.assert_array_equal(nearest.vgpr[1, 0].view(np.int32), truncated)
    half = (nearest.vgpr[2, 0] & np.uint32(0xFFFF)).astype(np.uint16).view(F16)
    assert_same(half[:10], expected_lanes("convert", TO_ZERO, F16, x[:10]), "pkrtz")
    for mode in (UP, DOWN, TO_ZERO):
        state = run(source, float_mode=ALL_DENORMS | mode | mode << 2, vgpr={0: x})
        np.testing.assert_array_equal(state.vgpr[1:8, 0], nearest.vgpr[1:8, 0])


@pytest.mark.parametrize("mode", MODES)
def test_ldexp_rounds_denormal_and_overflowing_results(mode):
    x32 = lanes([1.5, -1.5, 1.25, 3.0, -3.0, MAX32, 1.0 + ULP1], F32)
    e = lanes([-149, -149, -148, 127, 200, 1, -140, -160, 5], np.int32)
    x64 = lanes([1.5, -1.5, 1.25, 3.0, -3.0, float(np.finfo(F64).max), 1.0 + 2.0 ** -52], F64)
    e64 = lanes([-1074, -1074, -1073, 1023, 2000, 1, -1060, -1100, 5], np.int32)
    lo, hi = f64_registers(x64)
    state = run("v_ldexp_f32 v2, v0, v1\nv_ldexp_f64 v[6:7], v[3:4], v5",
                float_mode=ALL_DENORMS | mode | mode << 2,
                vgpr={0: x32, 1: e.view(np.uint32), 3: lo, 4: hi, 5: e64.view(np.uint32)})
    assert_same(read_f32(state, 2), expected_lanes("ldexp", mode, F32, x32, e), "f32")
    assert_same(read_f64(state, 6), expected_lanes("ldexp", mode, F64, x64, e64), "f64")


# ------------------------------------------------------- partial denormals
def test_f32_denorm_mode_1_allows_inputs_and_flushes_outputs():
    tiny = lanes([1e-40, -3e-42], F32)
    state = run("v_mul_f32 v1, 0x4b800000, v0\nv_add_f32 v2, 0, v0\n"
                "v_mul_f32 v3, 0x2f800000, v4",
                float_mode=0xC0 | 0x10, vgpr={0: tiny, 4: lanes([1e-30, -2e-30], F32)})
    assert_same(read_f32(state, 1), tiny * F32(2.0 ** 24), "denormal input kept")
    assert_same(read_f32(state, 2), np.copysign(F32(0), tiny), "denormal output flushed")
    assert_same(read_f32(state, 3), lanes([0.0, -0.0], F32), "tiny product flushed")


def test_f32_denorm_mode_2_flushes_inputs_and_allows_outputs():
    tiny = lanes([1e-40, -3e-42], F32)
    small = lanes([1e-30, -2e-30], F32)
    state = run("v_mul_f32 v1, 0x4b800000, v0\nv_mul_f32 v3, 0x2f800000, v4",
                float_mode=0xC0 | 0x20, vgpr={0: tiny, 4: small})
    assert_same(read_f32(state, 1), np.copysign(F32(0), tiny), "denormal input flushed")
    assert_same(read_f32(state, 3), small * F32(2.0 ** -32), "denormal output kept")


@pytest.mark.parametrize("denorm, keeps_input, keeps_output",
                         [(0, False, False), (1, True, False), (2, False, True), (3, True, True)])
def test_f64_and_f16_denorm_modes(denorm, keeps_input, keeps_output):
    tiny64 = lanes([1e-310, -2e-320], F64)
    small64 = lanes([1e-300, -3e-301], F64)
    tiny16 = lanes([3e-6, -1e-7], F16)
    small16 = lanes([1e-3, -2e-3], F16)
    (t_lo, t_hi), (s_lo, s_hi) = f64_registers(tiny64), f64_registers(small64)
    (up_lo, up_hi), (down_lo, down_hi) = f64_registers(2.0 ** 52), f64_registers(2.0 ** -31)
    state = run("v_mul_f64 v[4:5], v[14:15], v[0:1]\n"
                "v_mul_f64 v[6:7], v[16:17], v[2:3]\n"
                "v_mul_f16 v8, 0x6400, v9\n"                  # * 2**10
                "v_mul_f16 v10, 0x1400, v11\n"                # * 2**-10
                "v_pk_mul_f16 v12, v18, v9 op_sel_hi:[0,0]\n"
                "v_pk_mul_f16 v13, v19, v11 op_sel_hi:[0,0]",
                float_mode=0x30 | denorm << 6,
                vgpr={0: t_lo, 1: t_hi, 2: s_lo, 3: s_hi, 9: tiny16.view(np.uint16),
                      11: small16.view(np.uint16), 14: up_lo, 15: up_hi, 16: down_lo,
                      17: down_hi, 18: 0x6400, 19: 0x1400}, vgprs=20)
    scaled_in64 = tiny64 * 2.0 ** 52 if keeps_input else np.copysign(0.0, tiny64)
    scaled_out64 = small64 * 2.0 ** -31 if keeps_output else np.copysign(0.0, small64)
    assert_same(read_f64(state, 4), scaled_in64, "f64 input")
    assert_same(read_f64(state, 6), scaled_out64, "f64 output")
    scaled_in16 = (tiny16 * F16(1024) if keeps_input else np.copysign(F16(0), tiny16))
    with np.errstate(all="ignore"):
        out16 = (small16.astype(F64) * 2.0 ** -10).astype(F16)
    scaled_out16 = out16 if keeps_output else np.copysign(F16(0), small16)
    assert_same(read_f16(state, 8), scaled_in16, "f16 input")
    assert_same(read_f16(state, 10), scaled_out16, "f16 output")
    assert_same(read_f16(state, 12), scaled_in16, "packed f16 input")
    assert_same(read_f16(state, 13), scaled_out16, "packed f16 output")


# ------------------------------------------------- other encodings and ops
@pytest.mark.parametrize("mode", (UP, DOWN, TO_ZERO))
def test_sdwa_dpp_and_output_modifier_forms_round_too(mode):
    a, b = _edge_pairs_f32()
    state = run("v_add_f32_sdwa v2, v0, v1 dst_sel:DWORD src0_sel:DWORD src1_sel:DWORD\n"
                "v_mul_f32_dpp v3, v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf\n"
                "v_sub_f32_e64 v4, v0, v1 mul:2",
                float_mode=ALL_DENORMS | mode, vgpr={0: a, 1: b})
    assert_same(read_f32(state, 2), expected_lanes("add", mode, F32, a, b), "sdwa add")
    assert_same(read_f32(state, 3), expected_lanes("mul", mode, F32, a, b), "dpp mul")
    with np.errstate(all="ignore"):
        doubled = expected_lanes("sub", mode, F32, a, b) * F32(2)
    assert_same(read_f32(state, 4), doubled, "sub then omod")


@pytest.mark.parametrize("mode", MODES)
def test_div_fmas_rounds_the_scaled_fused_result(mode):
    """v_div_fmas_f32: a * b + c rounded once; with VCC set the result is also
    scaled by 2**64 (c's exponent >= 127 means the denominator was scaled)."""
    a, b, c = _edge_triples(F32, seed=21)
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c) & (np.abs(c) < 2.0 ** 60)
    a, b, c = a[finite][:32], b[finite][:32], c[finite][:32]
    c[16:] = np.abs(c[16:]) + F32(2.0)     # exponent >= 127: scaled up with VCC
    a, b, c = lanes(a, F32), lanes(b, F32), lanes(c, F32)
    vcc = 0xFFFF0000_FFFF0000
    state = run("v_div_fmas_f32 v3, v0, v1, v2",
                float_mode=ALL_DENORMS | mode, vgpr={0: a, 1: b, 2: c},
                sgpr={106: vcc & 0xFFFFFFFF, 107: vcc >> 32})
    scaled = np.array([(vcc >> lane) & 1 for lane in range(64)], bool)
    expected = []
    for lane, (x, y, z) in enumerate(zip(a, b, c)):
        exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        if scaled[lane]:
            exact *= Fraction(2) ** (64 if z >= 2.0 else -64)
        expected.append(round_exact(exact, mode, F32) if exact else
                        reference("fma", mode, F32, x, y, z))
    assert_same(read_f32(state, 3), np.array(expected, F32), f"div_fmas mode {mode}")


@pytest.mark.parametrize("mode", (UP, TO_ZERO))
def test_mad_mix_rounds_product_and_sum(mode):
    a, b, c = _edge_triples(F32, seed=13)
    state = run("v_mad_mix_f32 v3, v0, v1, v2", float_mode=ALL_DENORMS | mode,
                vgpr={0: a, 1: b, 2: c})
    assert_same(read_f32(state, 3), expected_lanes("mad", mode, F32, a, b, c), "mad_mix")


@pytest.mark.parametrize("mode", MODES)
def test_gfx7_legacy_multiplies_round_their_product(mode):
    """v_mul_legacy_f32 / v_mac_legacy_f32 / v_mullit_f32 (GFX6/7): the DX9
    zero rule, otherwise an ordinary rounded product (and sum)."""
    a, b, c = _edge_triples(F32, seed=17)
    positive_c = np.abs(c) + F32(1)
    state = run("v_mul_legacy_f32 v3, v0, v1\nv_mov_b32 v4, v2\nv_mac_legacy_f32 v4, v0, v1\n"
                "v_mullit_f32 v5, v0, v6, v7",
                float_mode=ALL_DENORMS | mode, mcpu="gfx700",
                vgpr={0: a, 1: b, 2: c, 6: np.abs(b), 7: positive_c})
    zero_rule = (a == 0) | (b == 0)
    product = np.where(zero_rule, F32(0), expected_lanes("mul", mode, F32, a, b))
    assert_same(read_f32(state, 3), product, "mul_legacy")
    mac = expected_lanes("add", mode, F32, product, c)
    assert_same(read_f32(state, 4), mac, "mac_legacy")
    lit = np.where((a == 0) | (b == 0), F32(0), expected_lanes("mul", mode, F32, a, np.abs(b)))
    assert_same(read_f32(state, 5), lit, "mullit")

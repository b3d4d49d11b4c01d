"""MODE.FP_ROUND from compiled OpenCL C (kernels/rounding.cl): the kernel sets
each rounding mode with __builtin_amdgcn_s_setreg and computes f32, f64 and
f16 results, checked against an exact Fraction reference.

What clang-19 emits matters here: the OpenCL convert_*_rtz/rtp/rtn built-ins
of the ROCm device libraries are integer bit manipulation (no MODE write), so
s_setreg is the only way in.  At -O2 LLVM's mode-register pass restores
FP_ROUND[3:2] to nearest before f64/f16 instructions (it assumes the default
rounding for them), so only f32 results are directed; at -O0 that pass does
not run and every result sees the mode that s_setreg wrote.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from test_opencl import N, build

CONFIGS = [("clang-19", cpu, opt, 5) for cpu in ("gfx803", "gfx900") for opt in ("-O0", "-O2")]
MODES = 4
F16, F32, F64 = np.float16, np.float32, np.float64
#: (significand bits, minimum normal exponent, maximum exponent)
FORMATS = {F16: (11, -14, 15), F32: (24, -126, 127), F64: (53, -1022, 1023)}


def directed(x: Fraction, mode: int, dtype):
    """IEEE 754 rounding of a nonzero rational: 0 nearest even, 1 toward +inf,
    2 toward -inf, 3 toward zero; overflow to inf or to the largest finite."""
    precision, emin, emax = FORMATS[dtype]
    negative, magnitude = x < 0, abs(x)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    exponent -= Fraction(2) ** exponent > magnitude
    quantum = Fraction(2) ** (max(exponent, emin) - precision + 1)
    count, rest = divmod(magnitude, quantum)
    away_from_zero = mode == (2 if negative else 1)
    if mode == 0:
        count += rest > quantum / 2 or (rest == quantum / 2 and count % 2 == 1)
    else:
        count += away_from_zero and rest != 0
    value = count * quantum
    largest = (2 - Fraction(2) ** (1 - precision)) * Fraction(2) ** emax
    if value > largest:
        value = math.inf if mode == 0 or away_from_zero else largest
    return dtype(-float(value) if negative else float(value))


def expected(values, mode, dtype):
    """Round each exact Fraction of ``values`` (none is zero) in ``mode``."""
    return np.array([directed(v, mode, dtype) for v in values], dtype)


def inputs(rng):
    """Per mode (leading axis): operands whose exact results are not ties by
    accident, plus ties and overflows placed on purpose."""
    shape = (MODES, N)
    a = rng.uniform(1, 10, shape) * rng.choice([-1, 1], shape) * 2.0 ** rng.integers(-8, 8, shape)
    b = rng.uniform(1, 10, shape) * rng.choice([-1, 1], shape) * 2.0 ** rng.integers(-8, 8, shape)
    a, b = a.astype(F32), b.astype(F32)
    a[:, :4] = [1.0, -1.0, 1.0 + 2.0 ** -23, 3.0e38]
    b[:, :4] = [2.0 ** -24, -(2.0 ** -24), 2.0 ** -24, 3.0e38]
    ints = rng.integers(-2 ** 31, 2 ** 31, shape).astype(np.int32)
    ints[:, :3] = [16777217, -16777219, 2 ** 31 - 1]
    da = rng.uniform(-1e6, 1e6, shape) * 2.0 ** rng.integers(-20, 20, shape)
    db = rng.uniform(-1e6, 1e6, shape) * 2.0 ** rng.integers(-20, 20, shape)
    da[:, :3] = [1e39, -1e39, 1.0 + 2.0 ** -24]
    return a, b, ints, da, db


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda c: f"{c[1]}{c[2]}")
def program(request):
    from amdgpu_tools import Device
    device = Device()
    return request.param, device, device.load(str(build(request.param, "rounding.cl")))


def test_s_setreg_round_modes_in_compiled_code(program):
    config, device, loaded = program
    a, b, ints, da, db = inputs(np.random.default_rng(20261122))
    buffers = [device.array(x.reshape(-1)) for x in (a, b, da, db, ints)]
    out = device.zeros(MODES * N * 5, F32)
    dout = device.zeros(MODES * N * 3, F64)
    hout = device.zeros(MODES * N, F16)
    loaded["round_modes"](*buffers, out, dout, hout, np.int32(N), grid=(N,), block=(64,))
    device.synchronize()
    got = out.numpy().reshape(MODES, N, 5)
    got64 = dout.numpy().reshape(MODES, N, 3)
    got16 = hout.numpy().reshape(MODES, N)
    wide_directed = config[2] == "-O0"
    for mode in range(MODES):
        fa, fb = [Fraction(float(x)) for x in a[mode]], [Fraction(float(x)) for x in b[mode]]
        f32_results = [[x + y for x, y in zip(fa, fb)], [x * y for x, y in zip(fa, fb)],
                       [x - y for x, y in zip(fa, fb)], [Fraction(int(i)) for i in ints[mode]],
                       [Fraction(float(x)) for x in da[mode]]]
        for column, exact in enumerate(f32_results):
            np.testing.assert_array_equal(got[mode, :, column], expected(exact, mode, F32),
                                          err_msg=f"mode {mode} f32 column {column}")
        wide_mode = mode if wide_directed else 0
        xa, xb = [Fraction(float(x)) for x in da[mode]], [Fraction(float(x)) for x in db[mode]]
        f64_results = [[x + y for x, y in zip(xa, xb)], [x * y for x, y in zip(xa, xb)],
                       [x - y for x, y in zip(xa, xb)]]
        for column, exact in enumerate(f64_results):
            np.testing.assert_array_equal(got64[mode, :, column],
                                          expected(exact, wide_mode, F64),
                                          err_msg=f"mode {mode} f64 column {column}")
        np.testing.assert_array_equal(got16[mode], expected(fb, wide_mode, F16),
                                      err_msg=f"mode {mode} f16")

"""End to end: the OpenCL math library (clang-19 + ROCm OCML, float and
double) and integer built-ins, run on the embedded executor, each result
checked against an independent reference within the OpenCL C accuracy
requirement of its function (OpenCL 2.0 section 7.4: ulp bounds; exact where
the specification makes the result exact).

clang-14 builds have no device libraries (NO_DEVICE_LIBS): only the kernels
written with __builtin_* functions exist there; the others are skipped.
References for float results are computed in double, for double results in
x87 extended precision (np.longdouble) or exactly with fractions.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

from test_opencl import N, rng, run, toolchain  # noqa: F401  (toolchain is a fixture)

SOURCE = "mathlib.cl"
FLOAT_TYPES = {"f32": np.float32, "f64": np.float64}
#: pi to extended precision (np.longdouble(np.pi) would only widen the f64 pi).
PI_EXTENDED = np.longdouble("3.14159265358979323846264338327950288")


@pytest.fixture
def device_libs(request):
    """Skip on clang-14 configurations, which are built without OCML."""
    if request.node.callspec.params["toolchain"][0] == "clang-14":
        pytest.skip("clang-14 builds have no device libraries (NO_DEVICE_LIBS)")


def wide(values):
    """Reference precision above the tested type: f32 -> f64, f64 -> extended."""
    return values.astype(np.float64 if values.dtype == np.float32 else np.longdouble)


def ulp_error(got, reference):
    """|got - reference| in units of the last place of the reference in got's type."""
    dtype = got.dtype
    with np.errstate(over="ignore"):
        rounded = reference.astype(dtype)
    spacing = np.spacing(np.abs(rounded)).astype(reference.dtype)
    with np.errstate(invalid="ignore"):
        error = np.abs(got.astype(reference.dtype) - reference) / spacing
    same = (got == rounded) | (np.isnan(got) & np.isnan(rounded))
    return np.where(same, 0, error)


def assert_ulps(got, reference, ulps, name):
    error = ulp_error(got, reference)
    worst = int(np.argmax(error))
    assert error[worst] <= ulps, (f"{name}: {float(error[worst]):.2f} ulp > {ulps} at "
                                  f"index {worst}: got {got[worst]!r}, want {reference[worst]!r}")


def assert_bits(got, expected, name):
    """Exact results: same bits (so -0.0 and 0.0 differ), NaNs of any payload."""
    expected = np.asarray(expected).astype(got.dtype)
    unsigned = f"u{got.itemsize}"
    same = (got.view(unsigned) == expected.view(unsigned)) | (np.isnan(got) & np.isnan(expected))
    bad = np.flatnonzero(~same)
    assert bad.size == 0, f"{name}: {bad.size} differ, first at {bad[0]}: " \
                          f"got {got[bad[0]]!r}, want {expected[bad[0]]!r}"


def magnitudes(r, dtype, low, high):
    """Values with |v| in [low, high] and random signs (no tiny products: fma stays exact
    in extended precision)."""
    sign = np.where(r.random(N) < 0.5, -1, 1)
    return (r.uniform(low, high, N) * sign).astype(dtype)


# ------------------------------------------------------------ exact results
@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_rounding_fma_minmax(toolchain, kind):
    dtype = FLOAT_TYPES[kind]
    r = rng()
    a = magnitudes(r, dtype, 0.5, 9)
    a[:12] = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, -0.0, 0.0, 0.49999997, -0.2, 8388609, -3.0]
    b, c = magnitudes(r, dtype, 0.5, 9), magnitudes(r, dtype, 0.5, 9)
    out = np.zeros(10 * N, dtype)
    got = run(toolchain, SOURCE, f"rounding_{kind}", a, b, c, out, np.int32(N))[3].reshape(N, 10)
    x = wide(a)
    half_away = np.copysign(np.floor(np.abs(x) + 0.5), x)
    if kind == "f32":
        fma = (a.astype(np.longdouble) * b.astype(np.longdouble) + c.astype(np.longdouble))
    else:
        fma = np.array([float(Fraction(p) * Fraction(q) + Fraction(s))
                        for p, q, s in zip(a.tolist(), b.tolist(), c.tolist())])
    expected = [half_away, np.rint(a), np.trunc(a), np.ceil(a), np.floor(a), fma,
                np.fmin(a, b), np.fmax(a, b), np.clip(a, -1.5, 2.25), np.copysign(np.abs(a), b)]
    names = ["round", "rint", "trunc", "ceil", "floor", "fma", "fmin", "fmax", "clamp", "copysign"]
    # LLVM 14 expands round() as trunc(x) + (0 or copysign(1, x)), which turns a
    # -0.0 result into +0.0 on any hardware: round's zeros are compared by value.
    zero = got[:, 0] == 0
    got[zero, 0] = np.abs(got[zero, 0])
    expected[0] = np.where(half_away == 0, 0.0, half_away)
    for column, (name, want) in enumerate(zip(names, expected)):
        assert_bits(got[:, column], want, f"{name}_{kind}")


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_frexp_ldexp_sqrt(toolchain, kind):
    dtype = FLOAT_TYPES[kind]
    r = rng()
    a = (10.0 ** r.uniform(-30, 30, N) * np.where(r.random(N) < 0.5, -1, 1)).astype(dtype)
    a[:6] = [0.0, 1.0, -1.0, 0.5, 3.0, -0.75]
    k = r.integers(-20, 21, N).astype(np.int32)
    mant, expo = np.zeros(N, dtype), np.zeros(N, np.int32)
    scaled, root = np.zeros(N, dtype), np.zeros(N, dtype)
    got = run(toolchain, SOURCE, f"frexp_{kind}", a, k, mant, expo, scaled, root, np.int32(N))
    want_mant, want_exp = np.frexp(a)
    assert_bits(got[2], want_mant, "frexp mantissa")
    np.testing.assert_array_equal(got[3], want_exp)
    assert_bits(got[4], np.ldexp(a, k), "ldexp")
    # sqrt: 3 ulp for float (OpenCL 2.0), correctly rounded for double.
    assert_ulps(got[5], np.sqrt(wide(np.abs(a))), 3 if kind == "f32" else 0, "sqrt")


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_classify_special_values(toolchain, kind):
    dtype = FLOAT_TYPES[kind]
    info = np.finfo(dtype)
    specials = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, -np.nan,
                         info.tiny, -info.tiny, info.tiny / 4, -info.tiny / 8,
                         info.max, -info.max, 2.5, -1e-3], dtype)
    a = np.resize(specials, N)
    out = np.zeros(5 * N, np.int32)
    got = run(toolchain, SOURCE, f"classify_{kind}", a, out, np.int32(N))[1].reshape(N, 5)
    finite = np.isfinite(a)
    normal = finite & (np.abs(a) >= info.tiny)
    expected = np.stack([np.isnan(a), np.isinf(a), finite, normal, np.signbit(a)], axis=1)
    np.testing.assert_array_equal(got, expected.astype(np.int32))


def test_integer_builtins(toolchain):
    r = rng()
    a = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    b = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    c = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    a[:8] = [0, -1, 2**31 - 1, -2**31, 1, 2**31 - 1, -2**31, 12345]
    b[:8] = [0, -1, 1, -1, -2**31, 2**31 - 1, 5, 0]
    c[::9] = 0
    out = np.zeros(14 * N, np.int32)
    got = run(toolchain, SOURCE, "int_builtins", a, b, c, out, np.int32(N))[3].reshape(N, 14)
    x, y, z = (v.astype(np.int64) for v in (a, b, c))
    ux, uy, uz = (v.view(np.uint32).astype(np.int64) for v in (a, b, c))
    shift = uy & 31
    x24, y24 = ((x << 40) >> 40), ((y << 40) >> 40)     # low 24 bits, sign-extended
    rotated = ((ux << shift) | (ux >> ((32 - shift) & 31))) & 0xFFFFFFFF
    rotated = np.where(shift == 0, ux, rotated)
    shifted = ux >> shift
    clz = np.array([32 - int(v).bit_length() for v in shifted])
    popcount = np.array([bin(int(v)).count("1") for v in ux])
    expected = np.stack([
        (x * y) >> 32,
        (ux * uy) >> 32,
        x24 * y24,
        (ux & 0xFFFFFF) * (uy & 0xFFFFFF) + uz,
        rotated,
        clz,
        popcount,
        np.abs((x >> 1) - (y >> 1)),
        np.clip(x + y, -2**31, 2**31 - 1),
        np.maximum(ux - uy, 0),
        ((x & 0xFFFF) << 16) | (uy & 0xFFFF),
        np.where(z != 0, y, x),
        (ux & ~uz) | (uy & uz),
        ((ux * uy) >> 32) + uz,
    ], axis=1)
    np.testing.assert_array_equal(got, (expected & 0xFFFFFFFF).astype(np.uint32).view(np.int32))


# ------------------------------------------------ OCML (clang-19 only)
#: (column, name, reference on the wide input, ulps f32, ulps f64): OpenCL 2.0 table 7.4.
UNARY = [
    (0, "sin", lambda x, ax: np.sin(x), 4, 4),
    (1, "cos", lambda x, ax: np.cos(x), 4, 4),
    (2, "tan", lambda x, ax: np.tan(x), 5, 5),
    (3, "exp", lambda x, ax: np.exp(x), 3, 3),
    (4, "log", lambda x, ax: np.log(ax), 3, 3),
    (5, "sqrt", lambda x, ax: np.sqrt(ax), 3, 0),
    (6, "rsqrt", lambda x, ax: 1 / np.sqrt(ax), 2, 2),
    (7, "cbrt", lambda x, ax: np.cbrt(x), 2, 2),
    (8, "erf", lambda x, ax: np.array([math.erf(v) for v in x.astype(np.float64)],
                                      x.dtype), 16, 16),
    (9, "tanh", lambda x, ax: np.tanh(x), 5, 5),
    (10, "exp2", lambda x, ax: np.exp2(x), 3, 3),
    (11, "log10", lambda x, ax: np.log10(ax), 3, 3),
    (12, "sincos.sin", lambda x, ax: np.sin(x), 4, 4),
    (13, "sincos.cos", lambda x, ax: np.cos(x), 4, 4),
]


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_unary_functions(toolchain, device_libs, kind):
    dtype = FLOAT_TYPES[kind]
    r = rng()
    a = r.uniform(-6, 6, N).astype(dtype)
    a[:10] = [0.0, -0.0, 1e-3, -1e-3, 1.5707964, -1.5707964, 3.1415927, 4.712389, 0.75, -5.5]
    out = np.zeros(14 * N, dtype)
    got = run(toolchain, SOURCE, f"unary_{kind}", a, out, np.int32(N))[1].reshape(N, 14)
    x = wide(a)
    ax = wide(np.abs(a) + dtype(0.25))
    for column, name, reference, ulps32, ulps64 in UNARY:
        assert_ulps(got[:, column], reference(x, ax), ulps32 if kind == "f32" else ulps64,
                    f"{name}_{kind}")


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_trig_large_arguments(toolchain, device_libs, kind):
    dtype = FLOAT_TYPES[kind]
    r = rng()
    a = (10.0 ** r.uniform(4, 30, N) * np.where(r.random(N) < 0.5, -1, 1)).astype(dtype)
    out = np.zeros(2 * N, dtype)
    got = run(toolchain, SOURCE, f"large_trig_{kind}", a, out, np.int32(N))[1].reshape(N, 2)
    x = wide(a)
    assert_ulps(got[:, 0], np.sin(x), 4, f"sin_{kind}")
    assert_ulps(got[:, 1], np.cos(x), 4, f"cos_{kind}")


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_binary_functions(toolchain, device_libs, kind):
    dtype = FLOAT_TYPES[kind]
    r = rng()
    a = magnitudes(r, dtype, 0.1, 20)
    b = magnitudes(r, dtype, 0.5, 10)
    a[:4] = [7.5, -7.5, 6.0, 0.0]
    b[:4] = [2.5, 2.0, 4.0, -3.0]
    out = np.zeros(8 * N, dtype)
    got = run(toolchain, SOURCE, f"binary_{kind}", a, b, out, np.int32(N))[2].reshape(N, 8)
    x, y = wide(a), wide(b)
    pairs = list(zip(a.astype(np.float64).tolist(), b.astype(np.float64).tolist()))
    assert_bits(got[:, 0], np.fmod(a, b), f"fmod_{kind}")
    assert_bits(got[:, 1], np.array([math.remainder(p, q) for p, q in pairs]), f"remainder_{kind}")
    assert_ulps(got[:, 2], np.arctan2(x, y), 6, f"atan2_{kind}")
    assert_ulps(got[:, 3], np.hypot(x, y), 4, f"hypot_{kind}")
    assert_ulps(got[:, 4], np.power(np.abs(y), x * 0.5), 16, f"pow_{kind}")
    fused = np.array([float(Fraction(p) * Fraction(q) + Fraction(0.375)) for p, q in pairs])
    unfused = a * b + dtype(0.375)
    mad = got[:, 5]
    assert np.all((mad == fused.astype(dtype)) | (mad == unfused) |
                  (ulp_error(mad, wide(fused.astype(dtype))) <= 1)), f"mad_{kind}"
    high = np.where(b < -2.5, dtype(-2.5), b)
    assert_bits(got[:, 6], np.minimum(np.maximum(a, dtype(-2.5)), high), f"clamp_{kind}")
    assert_bits(got[:, 7], np.maximum(a, b) - np.minimum(a, b), f"max-min_{kind}")


def test_native_and_half_functions(toolchain, device_libs):
    """native_* accuracy is implementation-defined and half_* allows 8192 ulp:
    both are held to the half_ bound, in absolute terms for sin and cos."""
    r = rng()
    a = r.uniform(-6, 6, N).astype(np.float32)
    out = np.zeros(10 * N, np.float32)
    got = run(toolchain, SOURCE, "native_half_f32", a, out, np.int32(N))[1].reshape(N, 10)
    x = a.astype(np.float64)
    ax = (np.abs(a) + np.float32(0.25)).astype(np.float64)
    for column, name, want in [(0, "native_sqrt", np.sqrt(ax)), (1, "native_rsqrt", ax ** -0.5),
                               (2, "half_sqrt", np.sqrt(ax)), (3, "half_rsqrt", ax ** -0.5),
                               (4, "native_exp", np.exp(x)), (5, "native_log", np.log(ax)),
                               (8, "native_recip", 1 / ax), (9, "half_exp2", np.exp2(x))]:
        assert_ulps(got[:, column], want, 8192, name)
    np.testing.assert_allclose(got[:, 6], np.sin(x), rtol=0, atol=8192 * 2.0 ** -23)
    np.testing.assert_allclose(got[:, 7], np.cos(x), rtol=0, atol=8192 * 2.0 ** -23)


#: (column, name, reference, ulps f32, ulps f64): OpenCL 2.0 table 7.4 bounds.
UNARY2 = [
    (0, "asin", lambda x, u, ax: np.arcsin(u), 4, 4),
    (1, "acos", lambda x, u, ax: np.arccos(u), 4, 4),
    (2, "atan", lambda x, u, ax: np.arctan(x), 5, 5),
    (3, "sinh", lambda x, u, ax: np.sinh(x), 4, 4),
    (4, "cosh", lambda x, u, ax: np.cosh(x), 4, 4),
    (5, "asinh", lambda x, u, ax: np.arcsinh(x), 4, 4),
    (6, "acosh", lambda x, u, ax: np.arccosh(ax), 4, 4),
    (7, "atanh", lambda x, u, ax: np.arctanh(u), 5, 5),
    (8, "expm1", lambda x, u, ax: np.expm1(x), 3, 3),
    (10, "log2", lambda x, u, ax: np.log2(ax), 3, 3),
    (13, "tgamma", lambda x, u, ax: np.array([math.gamma(v) for v in ax.astype(np.float64)],
                                             ax.dtype), 16, 16),
]


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_more_unary_functions(toolchain, device_libs, kind):
    dtype = FLOAT_TYPES[kind]
    r = rng()
    a = r.uniform(-6, 6, N).astype(dtype)
    a[:8] = [0.5, -0.5, 2.0, -3.0, 1e-3, 5.75, -0.0, 4.0]
    out, ints = np.zeros(18 * N, dtype), np.zeros(2 * N, np.int32)
    got, got_ints = run(toolchain, SOURCE, f"unary2_{kind}", a, out, ints, np.int32(N))[1:3]
    got, got_ints = got.reshape(N, 18), got_ints.reshape(N, 2)
    u = a * dtype(0.125)
    ax = np.abs(a) + dtype(1.25)
    x, wu, wax = wide(a), wide(u), wide(ax)
    for column, name, reference, ulps32, ulps64 in UNARY2:
        assert_ulps(got[:, column], reference(x, wu, wax), ulps32 if kind == "f32" else ulps64,
                    f"{name}_{kind}")
    assert_ulps(got[:, 9], np.log1p(wide(ax - dtype(1.125))), 2, f"log1p_{kind}")
    # sinpi/cospi: reduce x exactly modulo 2 first; integers (half-integers)
    # give exact zeros, compared by value.
    turns = np.fmod(a, dtype(2)).astype(np.longdouble)
    angle = PI_EXTENDED * turns
    sinpi = np.where(turns == np.round(turns), 0, np.sin(angle))
    cospi = np.where(turns - 0.5 == np.round(turns - 0.5), 0, np.cos(angle))
    assert_ulps(got[:, 11], sinpi.astype(x.dtype), 4, f"sinpi_{kind}")
    assert_ulps(got[:, 12], cospi.astype(x.dtype), 4, f"cospi_{kind}")
    mantissa, exponent = np.frexp(a)
    nonzero = a != 0
    assert_bits(got[nonzero, 14], (exponent - 1)[nonzero].astype(dtype), f"logb_{kind}")
    assert_bits(got[:, 15], np.copysign(a - np.trunc(a), a), f"modf.frac_{kind}")
    assert_bits(got[:, 16], np.trunc(a), f"modf.int_{kind}")
    assert_bits(got[:, 17], np.nextafter(a, dtype(0)), f"nextafter_{kind}")
    np.testing.assert_array_equal(got_ints[nonzero, 0], exponent[nonzero] - 1)
    np.testing.assert_array_equal(got_ints[:, 1], np.signbit(a).astype(np.int32))


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_special_values(toolchain, device_libs, kind):
    """C99 Annex F cases, which OpenCL adopts: results must be exactly these."""
    dtype = FLOAT_TYPES[kind]
    info = np.finfo(dtype)
    specials = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, -1.0, info.max, -info.max,
                         1000.0, -1000.0, info.tiny, 2.5, 5.0], dtype)
    a = np.resize(specials, N)
    out = np.zeros(12 * N, dtype)
    got = run(toolchain, SOURCE, f"special_{kind}", a, out, np.int32(N))[1].reshape(N, 12)
    x = wide(a)
    with np.errstate(all="ignore"):
        erf = np.array([math.erf(v) if not np.isnan(v) else np.nan for v in a.astype(float)])
        cases = [("sin", np.sin(x), 4), ("cos", np.cos(x), 4), ("exp", np.exp(x), 3),
                 ("log", np.log(x), 3), ("sqrt", np.sqrt(x), 3), ("rsqrt", 1 / np.sqrt(x), 2),
                 ("fmod", np.fmod(x, 2.5), 0), ("fmod2", np.fmod(2.5, x), 0),
                 ("atan2", np.arctan2(x, -1), 6), ("tanh", np.tanh(x), 5),
                 ("erf", erf.astype(x.dtype), 16), ("cbrt", np.cbrt(x), 2)]
    for column, (name, want, ulps) in enumerate(cases):
        want = want.astype(x.dtype)
        g = got[:, column]
        with np.errstate(over="ignore"):          # results that overflow the type are Inf
            rounded = want.astype(dtype)
        special_result = ~np.isfinite(rounded) | (want == 0) | ~np.isfinite(a)
        assert_bits(g[special_result], rounded[special_result], f"{name}_{kind}")
        assert_ulps(g[~special_result], want[~special_result], ulps, f"{name}_{kind}")


def test_narrow_integer_builtins(toolchain, device_libs):
    r = rng()
    a = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    b = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    a[:6] = [0xFF, 0x7FFF, -0x8000, 0xFFFF, 0, 1]
    b[:6] = [0xFF, 0x7FFF, 1, 0xFFFF, 0, -1]
    out = np.zeros(12 * N, np.int32)
    got = run(toolchain, SOURCE, "narrow_int_builtins", a, b, out, np.int32(N))[2].reshape(N, 12)
    xc, yc = (a & 0xFF).astype(np.int64), (b & 0xFF).astype(np.int64)
    xs, ys = a.astype(np.int16).astype(np.int64), b.astype(np.int16).astype(np.int64)
    xu, yu = (a & 0xFFFF).astype(np.int64), (b & 0xFFFF).astype(np.int64)
    rot = yc & 7
    expected = np.stack([
        np.minimum(xc + yc, 255), np.maximum(xc - yc, 0),
        np.clip(xs + ys, -2**15, 2**15 - 1), np.clip(xs - ys, -2**15, 2**15 - 1),
        np.minimum(xu + yu, 0xFFFF), (xs + ys) >> 1, (xu + yu + 1) >> 1,
        (xs * ys) >> 16,
        np.array([8 - int(v).bit_length() for v in xc]),
        np.array([bin(int(v)).count("1") for v in xu]),
        ((xc << rot) | (xc >> ((8 - rot) & 7))) & 0xFF,
        (xc << 8) | yc,
    ], axis=1)
    np.testing.assert_array_equal(got, expected)


def test_long_builtins(toolchain, device_libs):
    r = rng()
    a = r.integers(-2**63, 2**63, N, dtype=np.int64)
    b = r.integers(-2**63, 2**63, N, dtype=np.int64)
    a[:6] = [0, -1, 2**63 - 1, -2**63, 1, 2**40]
    b[:6] = [0, -1, 1, -1, -2**63, 3]
    out = np.zeros(8 * N, np.int64)
    got = run(toolchain, SOURCE, "long_builtins", a, b, out, np.int32(N))[2].reshape(N, 8)
    rows = []
    for x, y in zip(a.tolist(), b.tolist()):
        ux, uy = x % 2**64, y % 2**64
        s = uy & 63
        shifted = ux >> s
        rows.append([(x * y) >> 64, (ux * uy) >> 64, 64 - shifted.bit_length(),
                     bin(ux).count("1"), ((ux << s) | (ux >> ((64 - s) & 63))) % 2**64,
                     min(max(x + y, -2**63), 2**63 - 1), max(ux - uy, 0),
                     abs((x >> 1) - (y >> 1))])
    expected = np.array([[v % 2**64 for v in row] for row in rows], np.uint64).view(np.int64)
    np.testing.assert_array_equal(got, expected)


def _c_saturate(values, low, high, rounding):
    """OpenCL convert_<int>_sat[_<mode>] of a non-NaN value: round, then clamp."""
    rounded = rounding(np.nan_to_num(values.astype(np.float64), posinf=high, neginf=low))
    return np.clip(rounded, low, high).astype(np.int64)


def ordered_min(a, b):
    """fmin as v_min computes it (IEEE 754-2019 minimumNumber): NumPy's fmin,
    with -0 below +0 (NumPy returns the first of two zeros)."""
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a) | np.signbit(b), -np.abs(a), np.abs(a)),
                    np.fmin(a, b))


def ordered_max(a, b):
    """fmax as v_max computes it (maximumNumber): +0 above -0."""
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a) & np.signbit(b), -np.abs(a), np.abs(a)),
                    np.fmax(a, b))


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_nan_zero_and_saturation_rules(toolchain, device_libs, kind):
    """fmin/fmax ignore a NaN operand and order -0 below +0 (as the hardware's
    v_min/v_max do), fdim/copysign/remquo/frexp/ldexp/fract follow C99
    exactly, and convert_*_sat map NaN to 0 and clamp."""
    dtype = FLOAT_TYPES[kind]
    r = rng()
    a = magnitudes(r, dtype, 0.01, 400)
    b = magnitudes(r, dtype, 0.25, 20)
    a[:14] = [np.nan, 1.0, -0.0, 0.0, np.inf, -np.inf, 2.5, -2.5, 3e9, -3e9, 255.5, -0.5,
              7.5, 300.0]
    b[:14] = [1.0, np.nan, 0.0, -0.0, 2.0, 3.0, -0.0, 1.0, 2.0, -3.0, 4.0, 2.0, 2.5, -1.0]
    out, ints = np.zeros(8 * N, dtype), np.zeros(6 * N, np.int32)
    got, got_ints = run(toolchain, SOURCE, f"edges_{kind}", a, b, out, ints, np.int32(N))[2:4]
    got, got_ints = got.reshape(N, 8), got_ints.reshape(N, 6)
    with np.errstate(all="ignore"):
        pairs = list(zip(a.astype(np.float64).tolist(), b.astype(np.float64).tolist()))
        remainder = np.array([math.remainder(p, q) if np.isfinite(p) and np.isfinite(q) and q
                              else np.nan for p, q in pairs])
        fdim = np.where(np.isnan(a) | np.isnan(b), np.nan, np.where(a > b, a - b, 0))
        mantissa, exponent = np.frexp(a)
        scaled = np.ldexp(a, np.where(np.isnan(b), 0, b).astype(np.int64))
        fract = np.minimum(a - np.floor(a), np.nextafter(dtype(1), dtype(0)))
    finite = np.isfinite(a)
    assert_bits(got[:, 0], ordered_min(a, b), f"fmin_{kind}")
    assert_bits(got[:, 1], ordered_max(a, b), f"fmax_{kind}")
    assert_bits(got[:, 2], fdim, f"fdim_{kind}")
    assert_bits(got[:, 3], np.copysign(a, b), f"copysign_{kind}")
    assert_bits(got[finite, 4], remainder[finite], f"remquo_{kind}")
    assert_bits(got[finite, 5], mantissa[finite], f"frexp_{kind}")
    assert_bits(got[~np.isnan(b), 6], scaled[~np.isnan(b)], f"ldexp_{kind}")
    assert_bits(got[finite, 7], fract[finite], f"fract_{kind}")
    assert (got[np.isinf(a), 7] == 0).all(), "fract(+-inf) is a zero (its sign unspecified)"
    ok = finite & np.isfinite(b) & (b != 0)
    quotient = np.array([int(v) for v in np.rint(a[ok].astype(np.float64) /
                                                 b[ok].astype(np.float64))])
    q = got_ints[ok, 0]
    exact = (a[ok].astype(np.float64) / b[ok].astype(np.float64))
    agree = (np.sign(q) == np.sign(exact)) | (q == 0)
    assert agree.all(), "remquo quotient sign"
    assert ((np.abs(q) & 7) == (np.abs(quotient) & 7)).all(), "remquo quotient bits"
    np.testing.assert_array_equal(got_ints[finite, 1], exponent[finite])
    # ROCm's convert_*_sat is fptosi(minnum(maxnum(x, low), high)): a NaN becomes
    # the lower bound, not the 0 OpenCL asks for, on any hardware; NaN is left out.
    number = ~np.isnan(a)
    for column, low, high, rounding in [(2, -2**31, 2**31 - 1, np.trunc),
                                        (3, -2**31, 2**31 - 1, np.rint), (4, 0, 255, np.trunc),
                                        (5, -2**15, 2**15 - 1, np.floor)]:
        np.testing.assert_array_equal(got_ints[number, column],
                                      _c_saturate(a, low, high, rounding)[number], str(column))


def test_hardware_float_builtins(toolchain):
    """__builtin_amdgcn_* map to single instructions: rcp/rsq are 1 ulp (ISA
    manual), fract/med3/ldexp/frexp_mant exact, sin/cos take turns (x * 2 pi)."""
    r = rng()
    a = r.uniform(-10, 10, N).astype(np.float32)
    b = r.uniform(-20, 20, N).astype(np.float32)
    c = r.uniform(-10, 10, N).astype(np.float32)
    out = np.zeros(8 * N, np.float32)
    got = run(toolchain, SOURCE, "hw_float_builtins", a, b, c, out, np.int32(N))[3].reshape(N, 8)
    ax = (np.abs(a) + np.float32(0.25)).astype(np.float64)
    assert_ulps(got[:, 0], 1 / ax, 1, "rcp")
    assert_ulps(got[:, 1], 1 / np.sqrt(ax), 1, "rsq")
    assert_bits(got[:, 2], a - np.floor(a), "fract")
    assert_bits(got[:, 3], np.median(np.stack([a, b, c]), axis=0), "med3")
    turns = (a * np.float32(0.125)).astype(np.float64)
    np.testing.assert_allclose(got[:, 4], np.sin(2 * np.pi * turns), rtol=0, atol=2e-6)
    np.testing.assert_allclose(got[:, 5], np.cos(2 * np.pi * turns), rtol=0, atol=2e-6)
    assert_bits(got[:, 6], np.ldexp(a, b.astype(np.int32)), "ldexp")
    assert_bits(got[:, 7], np.frexp(a)[0], "frexp_mant")


def test_hardware_integer_builtins(toolchain):
    """Bit-field extract, align, lerp and SAD instructions, per the ISA manual."""
    r = rng()
    a, b, c = (r.integers(0, 2**32, N, dtype=np.uint64) for _ in range(3))
    a[:4] = [0xFFFFFFFF, 0x80000000, 0, 0x12345678]
    b[:4] = [0, 31, 5, 8]
    c[:4] = [0, 1, 32 + 7, 31]
    out = np.zeros(8 * N, np.uint32)
    got = run(toolchain, SOURCE, "hw_int_builtins", *(v.astype(np.uint32) for v in (a, b, c)),
              out, np.int32(N))[3].reshape(N, 8)
    offset, width = b & 31, c & 31
    field = (a >> offset) & ((np.uint64(1) << width) - np.uint64(1))
    # v_bfe_i32 shifts S0 arithmetically, then sign-extends from bit width - 1.
    a_signed = a.astype(np.uint32).view(np.int32).astype(np.int64)
    low = (a_signed >> offset.astype(np.int64)) & ((1 << width.astype(np.int64)) - 1)
    sign = 1 << np.maximum(width.astype(np.int64), 1) - 1
    signed = (np.where(width == 0, 0, (low ^ sign) - sign) & 0xFFFFFFFF).astype(np.uint64)
    pair = (a << np.uint64(32)) | b
    def byte(v, k):
        return (v >> np.uint64(8 * k)) & np.uint64(0xFF)
    lerp = sum(((byte(a, k) + byte(b, k) + (byte(c, k) & np.uint64(1))) >> np.uint64(1))
               << np.uint64(8 * k) for k in range(4))
    sad8 = sum(np.abs(byte(a, k).astype(np.int64) - byte(b, k).astype(np.int64))
               for k in range(4)).astype(np.uint64)
    half = [(v & np.uint64(0xFFFF), v >> np.uint64(16)) for v in (a, b)]
    sad16 = (np.abs(half[0][0].astype(np.int64) - half[1][0].astype(np.int64)) +
             np.abs(half[0][1].astype(np.int64) - half[1][1].astype(np.int64))).astype(np.uint64)
    expected = np.stack([
        field, signed,
        pair >> (c & np.uint64(31)),
        pair >> (np.uint64(8) * (c & np.uint64(3))),
        lerp,
        sad8 + (c & np.uint64(0xFFFF)),
        (sad8 << np.uint64(16)) + c,
        sad16 + (c & np.uint64(0xFFFF)),
    ], axis=1) & np.uint64(0xFFFFFFFF)
    np.testing.assert_array_equal(got, expected.astype(np.uint32))


@pytest.fixture
def native_half(request):
    """Skip gfx700: it has no f16 ALU, and there clang-19 with the installed
    device libraries compiles half rsqrt to nothing (a kernel of s_endpgm)."""
    if request.node.callspec.params["toolchain"][1] == "gfx700":
        pytest.skip("gfx700: clang-19 drops half rsqrt (no f16 instructions)")


def test_half_functions(toolchain, device_libs, native_half):
    """cl_khr_fp16 through OCML: transcendental results within the half ulp
    bounds (at most 2 ulp for these), exact ones bit for bit.

    Inputs are multiples of 2**-8, so |x| + 0.25 is exact in half (were it not,
    gfx700 code keeps that sum in f32 without rounding it to half).
    sin/cos are not checked: with the installed device libraries clang-19's IR
    for half sin/cos already selects NaN for every finite input
    (``select (fcmp one |x|, inf), NaN, r``), whatever runs it."""
    r = rng()
    a = (np.round(r.uniform(-4, 4, N) * 256) / 256).astype(np.float16)
    b = r.uniform(-4, 4, N).astype(np.float16)
    a[:4] = [0.0, -0.0, 2.5, -2.5]
    out = np.zeros(12 * N, np.float16)
    got = run(toolchain, SOURCE, "unary_f16", a, b, out, np.int32(N))[2].reshape(N, 12)
    x, y = a.astype(np.float64), b.astype(np.float64)
    ax = (np.abs(a) + np.float16(0.25)).astype(np.float64)
    for column, name, want in [(2, "exp", np.exp(x)),
                               (3, "log", np.log(ax)), (4, "sqrt", np.sqrt(ax)),
                               (5, "rsqrt", 1 / np.sqrt(ax))]:
        assert_ulps(got[:, column], want, 2, f"{name}_f16")
    assert_bits(got[:, 6], x * y + 0.75, "fma_f16")          # exact in f64, one rounding
    assert_bits(got[:, 7], np.floor(a), "floor_f16")
    assert_bits(got[:, 8], np.rint(a), "rint_f16")
    assert_bits(got[:, 9], np.fmax(a, b), "fmax_f16")
    assert_bits(got[:, 10], np.ldexp(a, 3), "ldexp_f16")
    assert_bits(got[:, 11], (a.astype(np.float32) * b.astype(np.float32)), "mul_f16")


def test_integer_float_conversions(toolchain):
    """C casts: integer -> float/double round to nearest even (NumPy's casts do
    too), float/double -> integer truncate; all values in range."""
    r = rng()
    mantissa = r.integers(-2**62, 2**62, N, dtype=np.int64)
    x = mantissa >> r.integers(0, 62, N).astype(np.int64)
    x[:8] = [0, -1, 2**63 - 1, -2**63, 2**53 + 1, 2**24 + 1, 16777217 * 3, -(2**31) - 1]
    y = r.uniform(-1, 1, N) * 2.0 ** r.integers(-20, 62, N)
    y[:4] = [0.5, -0.5, 2.0 ** 62 - 2 ** 10, 3e-38]     # normal in f32 (gfx7/8 flush f32 denormals)
    f_out, d_out, l_out = np.zeros(5 * N, np.float32), np.zeros(3 * N, np.float64), \
        np.zeros(3 * N, np.int64)
    got = run(toolchain, SOURCE, "conversions", x, y, f_out, d_out, l_out, np.int32(N))
    f, g, k = got[2].reshape(N, 5), got[3].reshape(N, 3), got[4].reshape(N, 3)
    ux = x.view(np.uint64)
    as_float = [float(v) for v in x.tolist()]          # Python rounds int -> double once
    exact_f32 = np.array([np.float32(_round_int(v, 24)) for v in x.tolist()])
    exact_f32_u = np.array([np.float32(_round_int(v, 24)) for v in ux.tolist()])
    assert_bits(f[:, 0], exact_f32, "(float)long")
    assert_bits(f[:, 1], exact_f32_u, "(float)ulong")
    assert_bits(f[:, 2], y.astype(np.float32), "(float)double")
    assert_bits(f[:, 3], (x & 0xFFFFFFFF).astype(np.uint32).astype(np.float32), "(float)uint")
    assert_bits(f[:, 4], x.astype(np.int32).astype(np.float32), "(float)int")
    assert_bits(g[:, 0], np.array(as_float), "(double)long")
    assert_bits(g[:, 1], np.array([float(v) for v in ux.tolist()]), "(double)ulong")
    assert_bits(g[:, 2], y.astype(np.float32).astype(np.float64), "(double)(float)")
    np.testing.assert_array_equal(k[:, 0], np.trunc(y).astype(np.int64))
    np.testing.assert_array_equal(k[:, 1], np.trunc(np.abs(y)).astype(np.int64))
    np.testing.assert_array_equal(k[:, 2], np.trunc(y.astype(np.float32)).astype(np.int64))


def _round_int(value, bits):
    """An integer rounded to ``bits`` significant bits, ties to even (exactly)."""
    magnitude = abs(value)
    excess = magnitude.bit_length() - bits
    if excess <= 0:
        return value
    low = magnitude & ((1 << excess) - 1)
    half = 1 << (excess - 1)
    kept = magnitude >> excess
    if low > half or (low == half and kept & 1):
        kept += 1
    return (kept << excess) * (1 if value >= 0 else -1)


@pytest.mark.parametrize("kind", ["f32", "f64"])
def test_power_and_error_functions(toolchain, device_libs, kind):
    """exp10 (3 ulp), erfc/pown/rootn/powr (16 ulp), log1p (2 ulp): OpenCL 2.0."""
    dtype = FLOAT_TYPES[kind]
    r = rng()
    a = r.uniform(-6, 6, N).astype(dtype)
    b = r.uniform(-4, 4, N).astype(dtype)
    out = np.zeros(6 * N, dtype)
    got = run(toolchain, SOURCE, f"powers_{kind}", a, b, out, np.int32(N))[2].reshape(N, 6)
    x, y = wide(a), wide(b)
    ax = wide(np.abs(a) + dtype(0.5))
    quarter, half = wide(a * dtype(0.25)), (a * dtype(0.5)).astype(np.float64)
    erfc = np.array([math.erfc(v) for v in half.tolist()]).astype(x.dtype)
    square = wide(a * a)
    for column, name, want, ulps in [(0, "exp10", np.power(x.dtype.type(10), quarter), 3),
                                     (1, "erfc", erfc, 16), (2, "pown", x ** 3, 16),
                                     (3, "rootn", np.cbrt(ax), 16), (4, "powr", ax ** y, 16),
                                     (5, "log1p", np.log1p(square), 2)]:
        assert_ulps(got[:, column], want, ulps, f"{name}_{kind}")

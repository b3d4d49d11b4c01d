"""End to end: OpenCL C kernels compiled by real clang, run on the embedded
executor through the Python API, checked against NumPy.

Every kernel under tests/e2e/kernels is built for each configuration below
(clang-19 with the ROCm device libraries as code object v4/v5 at -O0 and -O2,
clang-14 as code object v2 without device libraries), linked by ld.lld-19,
loaded with ``Device.load`` and launched with a grid that is not a multiple
of the work-group size, so partial work-groups and waves are exercised too.
The references below are computed independently with NumPy.
"""

import hashlib
import os
import pathlib
import subprocess

import numpy as np
import pytest

from reftools import ROCM_BITCODE, find_tool

KERNELS = pathlib.Path(__file__).parent / "kernels"
CACHE = pathlib.Path(os.environ.get("AMDGPU_TOOLS_TEST_CACHE", "/tmp/amdgpu-tools-test-cache"))

#: (compiler, cpu, optimisation, code object version)
CONFIGS = [
    ("clang-19", "gfx803", "-O0", 4), ("clang-19", "gfx803", "-O2", 4),
    ("clang-19", "gfx803", "-O0", 5), ("clang-19", "gfx803", "-O2", 5),
    ("clang-19", "gfx900", "-O0", 4), ("clang-19", "gfx900", "-O2", 4),
    ("clang-19", "gfx900", "-O0", 5), ("clang-19", "gfx900", "-O2", 5),
    ("clang-19", "gfx700", "-O2", 5),
    ("clang-14", "gfx803", "-O0", 2), ("clang-14", "gfx803", "-O2", 2),
    ("clang-14", "gfx900", "-O2", 2), ("clang-14", "gfx700", "-O2", 2),
]

N = 300          # work-items: not a multiple of 64, so the last wave is partial
BLOCK = 64
RNG_SEED = 20261122


def config_id(config):
    compiler, cpu, opt, version = config
    return f"{compiler}-{cpu}{opt}-v{version}"


def build(config, source):
    """Compile and link one kernel file for one configuration (cached by content)."""
    compiler, cpu, opt, version = config
    clang = find_tool(compiler)
    lld = find_tool("ld.lld-19")
    if clang is None or lld is None:
        pytest.skip(f"{compiler} and ld.lld-19 are needed")
    argv = [clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-x", "cl",
            "-cl-std=CL2.0", opt, f"-mcode-object-version={version}", "-I", str(KERNELS)]
    if compiler == "clang-14":
        argv += ["-nogpulib", "-DNO_DEVICE_LIBS"]
    else:
        if not os.path.isdir(ROCM_BITCODE):
            pytest.skip("rocm-device-libs is not installed")
        argv += [f"--rocm-device-lib-path={ROCM_BITCODE}"]
    text = (KERNELS / source).read_text() + (KERNELS / "common.h").read_text()
    key = hashlib.sha256((" ".join(argv[1:]) + text).encode()).hexdigest()[:20]
    CACHE.mkdir(parents=True, exist_ok=True)
    hsaco = CACHE / f"{source}.{key}.hsaco"
    if not hsaco.exists():
        obj = CACHE / f"{source}.{key}.o"
        subprocess.run(argv + ["-c", str(KERNELS / source), "-o", str(obj)], check=True,
                       capture_output=True)
        subprocess.run([lld, "-shared", str(obj), "-o", str(hsaco) + ".tmp"], check=True,
                       capture_output=True)
        os.replace(str(hsaco) + ".tmp", hsaco)
    return hsaco


@pytest.fixture(scope="module", params=CONFIGS, ids=config_id)
def toolchain(request):
    from amdgpu_tools import Device
    config = request.param
    cache = {}

    def program(source):
        if source not in cache:
            device = Device()
            cache[source] = (device, device.load(str(build(config, source))))
        return cache[source]
    return program


def rng():
    return np.random.default_rng(RNG_SEED)


def c_divide(x, d):
    """C integer division and remainder: the quotient truncates toward zero."""
    x = x.astype(np.int64)
    d = d.astype(np.int64)
    q = np.abs(x) // np.abs(d) * np.sign(x) * np.sign(d)
    return q, x - q * d


def run(toolchain, source, kernel, *args, grid=(N,), block=(BLOCK,)):
    device, program = toolchain(source)
    buffers = [device.array(a) if isinstance(a, np.ndarray) and a.ndim > 0 else a for a in args]
    program[kernel](*buffers, grid=grid, block=block)
    device.synchronize()
    return [b.numpy() if hasattr(b, "numpy") else None for b in buffers]


# ---------------------------------------------------------------- integers
def test_int_arith(toolchain):
    r = rng()
    a = r.integers(-30000, 30000, N, dtype=np.int32)
    b = r.integers(-30000, 30000, N, dtype=np.int32)
    b[::7] = 0
    out = np.zeros(4 * N, np.int32)
    got = run(toolchain, "integer.cl", "int_arith", a, b, out, np.int32(N))[2].reshape(N, 4)
    d = np.where(b == 0, 1, b)
    q, rem = c_divide(a, d)
    expect = np.stack([
        a * b + (a - b),
        q.astype(np.int32),
        rem.astype(np.int32),
        (a >> (b & 31)) ^ (a << 3) ^ np.where(a < b, -1, 7).astype(np.int32),
    ], axis=1)
    np.testing.assert_array_equal(got, expect)


def test_uint_arith(toolchain):
    r = rng()
    a = r.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    b = r.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    a[:3] = [0, 1, 0xFFFFFFFF]
    b[::5] = 0
    out = np.zeros(4 * N, np.uint32)
    got = run(toolchain, "integer.cl", "uint_arith", a, b, out, np.int32(N))[2].reshape(N, 4)
    d = np.where(b == 0, 3, b).astype(np.uint32)
    s = b & np.uint32(31)
    rot = (a >> s) | (a << ((np.uint32(32) - s) & np.uint32(31)))
    popcount = np.array([bin(int(x)).count("1") for x in a], np.uint32)
    clz = np.array([32 if x == 0 else 32 - int(x).bit_length() for x in a], np.uint32)
    expect = np.stack([
        a // d + a % d,
        rot,
        np.where(a > b, a - b, b - a) + a * np.uint32(2654435761),
        popcount + clz,
    ], axis=1).astype(np.uint32)
    np.testing.assert_array_equal(got, expect)


def test_long_arith(toolchain):
    r = rng()
    a = r.integers(-2**31, 2**31, N, dtype=np.int64)
    b = r.integers(-2**31, 2**31, N, dtype=np.int64)
    b[::6] = 0
    a[1] = -(2**40) - 3
    out = np.zeros(4 * N, np.int64)
    got = run(toolchain, "integer.cl", "long_arith", a, b, out, np.int32(N))[2].reshape(N, 4)
    d = np.where(b == 0, 7, b)
    q, rem = c_divide(a, d)
    ua = a.view(np.uint64)
    shifted = (ua >> (b & 63).astype(np.uint64)) ^ (ua << np.uint64(5))
    expect = np.stack([a * b + 12345678901, q, rem, shifted.view(np.int64)], axis=1)
    np.testing.assert_array_equal(got, expect)


# ----------------------------------------------------------- floating point
def test_float_math(toolchain):
    r = rng()
    a = r.uniform(-10, 10, N).astype(np.float32)
    b = r.uniform(0.5, 10, N).astype(np.float32) * np.where(r.random(N) < 0.5, -1, 1).astype(np.float32)
    out = np.zeros(6 * N, np.float32)
    got = run(toolchain, "floating.cl", "float_math", a, b, out, np.int32(N))[2].reshape(N, 6)
    fma = (a.astype(np.float64) * b.astype(np.float64) + 1.5).astype(np.float32)
    expect = np.stack([
        a * b - a, a / b, np.sqrt(np.abs(a)), fma,
        np.minimum(a, b) + np.maximum(a, b) * np.float32(0.5), np.floor(a * np.float32(3)),
    ], axis=1)
    exact = [0, 3, 4, 5]
    np.testing.assert_array_equal(got[:, exact], expect[:, exact])
    np.testing.assert_allclose(got[:, [1, 2]], expect[:, [1, 2]], rtol=3e-7)


def test_double_math(toolchain):
    r = rng()
    a = r.uniform(-100, 100, N)
    b = r.uniform(1, 50, N) * np.where(r.random(N) < 0.5, -1, 1)
    out = np.zeros(4 * N, np.float64)
    got = run(toolchain, "floating.cl", "double_math", a, b, out, np.int32(N))[2].reshape(N, 4)
    expect = np.stack([a * b + a, a / b, np.sqrt(a * a + b * b), a - b * 0.25], axis=1)
    np.testing.assert_array_equal(got[:, [0, 3]], expect[:, [0, 3]])
    np.testing.assert_allclose(got[:, [1, 2]], expect[:, [1, 2]], rtol=1e-15)


def test_half_math(toolchain):
    r = rng()
    a = r.uniform(-8, 8, N).astype(np.float16)
    b = r.uniform(-8, 8, N).astype(np.float16)
    out = np.zeros(2 * N, np.float16)
    got = run(toolchain, "floating.cl", "half_math", a, b, out, np.int32(N))[2].reshape(N, 2)
    np.testing.assert_array_equal(got, np.stack([a * b, a + b], axis=1))


def test_conversions(toolchain):
    r = rng()
    f = r.uniform(-1e4, 1e4, N).astype(np.float32)
    k = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    outs = [np.zeros(N, np.int32), np.zeros(N, np.float32), np.zeros(N, np.float64),
            np.zeros(N, np.uint32)]
    got = run(toolchain, "floating.cl", "conversions", f, k, *outs, np.int32(N))
    np.testing.assert_array_equal(got[2], np.trunc(f).astype(np.int32))
    np.testing.assert_array_equal(got[3], k.astype(np.float32) + k.view(np.uint32).astype(np.float32))
    np.testing.assert_array_equal(got[4], f.astype(np.float64) * k.astype(np.float64))
    np.testing.assert_array_equal(got[5], np.trunc(np.abs(f)).astype(np.uint32))


# ------------------------------------------------------- structured data
def test_vectors(toolchain):
    r = rng()
    a = r.uniform(-5, 5, (N, 4)).astype(np.float32)
    b = r.integers(-1000, 1000, (N, 2), dtype=np.int32)
    out = np.zeros((N, 4), np.float32)
    got = run(toolchain, "structured.cl", "vectors", a, b, out, np.int32(N))[2]
    scale = np.array([1, 2, 3, 4], np.float32)
    add = np.stack([b[:, 0], b[:, 1], b[:, 0] + b[:, 1], np.zeros(N)], axis=1).astype(np.float32)
    add[:, 3] = 0.5
    np.testing.assert_array_equal(got, a[:, ::-1] * scale + add)


RECORD = np.dtype({"names": ["id", "weight", "total"], "formats": [np.int32, np.float32, np.int64],
                   "offsets": [0, 4, 8], "itemsize": 16})


def test_structs(toolchain):
    r = rng()
    rec = np.zeros(N, RECORD)
    rec["id"] = r.integers(-5000, 5000, N)
    rec["weight"] = r.uniform(-3, 3, N).astype(np.float32)
    rec["total"] = r.integers(-2**40, 2**40, N)
    got = run(toolchain, "structured.cl", "structs", rec, np.int32(N))[0]
    np.testing.assert_array_equal(got["id"], -rec["id"])
    np.testing.assert_array_equal(got["weight"], rec["weight"] * np.float32(2) + rec["id"].astype(np.float32))
    np.testing.assert_array_equal(got["total"], rec["total"] + rec["id"].astype(np.int64) * 1000)


def test_private_array(toolchain):
    r = rng()
    a = r.integers(-1000, 1000, N, dtype=np.int32)
    out = np.zeros(N, np.int32)
    got = run(toolchain, "structured.cl", "private_array", a, out, np.int32(N))[1]
    idx = a & 15
    np.testing.assert_array_equal(got, 15 * a + idx * idx + (15 - idx) * (15 - idx))


# ----------------------------------------------------- parallel patterns
def test_local_reduce(toolchain):
    from amdgpu_tools import LocalMemory
    groups, block = 4, 64
    a = rng().uniform(-1, 1, groups * block).astype(np.float32)
    sums = np.zeros(groups, np.float32)
    got = run(toolchain, "parallel.cl", "local_reduce", a, sums, LocalMemory(block * 4),
              grid=(groups * block,), block=(block,))[1]
    tree = a.reshape(groups, block).copy()
    stride = block // 2
    while stride:
        tree[:, :stride] += tree[:, stride:2 * stride]
        stride //= 2
    np.testing.assert_array_equal(got, tree[:, 0])


def test_global_atomics(toolchain):
    a = rng().integers(-10**6, 10**6, 512, dtype=np.int32)
    acc = np.array([0, np.iinfo(np.int32).min, np.iinfo(np.int32).max, 0], np.int32)
    got = run(toolchain, "parallel.cl", "global_atomics", a, acc, grid=(512,), block=(128,))[1]
    np.testing.assert_array_equal(got, [a.sum(dtype=np.int64).astype(np.int32), a.max(), a.min(), 512])


def test_local_histogram(toolchain):
    a = rng().integers(0, 2**32, 512, dtype=np.uint64).astype(np.uint32)
    hist = np.zeros(16, np.uint32)
    got = run(toolchain, "parallel.cl", "local_histogram", a, hist, grid=(512,), block=(128,))[1]
    np.testing.assert_array_equal(got, np.bincount(a & 15, minlength=16))


def collatz_steps(x):
    count = 0
    while x > 1 and count < 1000:
        x = 3 * x + 1 if x & 1 else x >> 1
        count += 1
    return count


def test_collatz_divergence(toolchain):
    a = rng().integers(1, 10000, 256, dtype=np.uint32)
    a[:4] = [0, 1, 2, 27]
    steps = np.zeros(256, np.uint32)
    got = run(toolchain, "parallel.cl", "collatz", a, steps, grid=(256,), block=(64,))[1]
    np.testing.assert_array_equal(got, [collatz_steps(int(x)) for x in a])


def test_function_calls(toolchain):
    a = rng().integers(-10**5, 10**5, 256, dtype=np.int32)
    out = np.zeros(256, np.float32)
    got = run(toolchain, "parallel.cl", "calls", a, out, grid=(256,), block=(64,))[1]
    i = np.arange(256, dtype=np.int32)
    m = a * 31 + (i ^ (a >> 2))
    np.testing.assert_array_equal(got, (m & 1023).astype(np.float32) * (i & 7).astype(np.float32)
                                  + np.float32(0.25))


def test_local_reverse(toolchain):
    a = rng().integers(-10**6, 10**6, 256, dtype=np.int32)
    out = np.zeros(256, np.int32)
    got = run(toolchain, "parallel.cl", "local_reverse", a, out, grid=(256,), block=(64,))[1]
    np.testing.assert_array_equal(got, a.reshape(4, 64)[:, ::-1].reshape(-1))


# ------------------------------------------------ 2D and 3D geometry
def test_transpose_2d(toolchain):
    width, height = 37, 23
    a = rng().uniform(-1, 1, (height, width)).astype(np.float32)
    out = np.zeros(width * height, np.float32)
    got = run(toolchain, "grids.cl", "transpose", a, out, np.int32(width), np.int32(height),
              grid=(width, height), block=(8, 8))[1]
    np.testing.assert_array_equal(got.reshape(width, height), a.T)


def test_ids_3d(toolchain):
    shape, block = (10, 6, 3), (4, 3, 2)
    out = np.zeros(3 * 10 * 6 * 3, np.int32)
    got = run(toolchain, "grids.cl", "ids3d", out, *(np.int32(s) for s in shape),
              grid=shape, block=block)[0].reshape(3, 6, 10, 3)
    z, y, x = np.meshgrid(np.arange(3), np.arange(6), np.arange(10), indexing="ij")
    local = (x % 4) + 10 * (y % 3) + 100 * (z % 2)
    group = (x // 4) + 10 * (y // 3) + 100 * (z // 2)
    np.testing.assert_array_equal(got[..., 0], local)
    np.testing.assert_array_equal(got[..., 1], group)
    np.testing.assert_array_equal(got[..., 2], (z * 6 + y) * 10 + x)


def test_matmul_tiled(toolchain):
    n = 32
    r = rng()
    a = r.uniform(-1, 1, (n, n)).astype(np.float32)
    b = r.uniform(-1, 1, (n, n)).astype(np.float32)
    c = np.zeros(n * n, np.float32)
    got = run(toolchain, "grids.cl", "matmul_tiled", a, b, c, np.int32(n),
              grid=(n, n), block=(8, 8))[2].reshape(n, n)
    expect = np.zeros((n, n), np.float32)
    for k in range(n):                      # the kernel's summation order, rounded per step
        expect = expect + a[:, k:k + 1] * b[k:k + 1, :]
    np.testing.assert_array_equal(got, expect)


# ------------------------------------------------ narrow types and libm
def test_narrow_ints(toolchain):
    r = rng()
    a = r.integers(-128, 128, N, dtype=np.int16).astype(np.int8)
    b = r.integers(-2**15, 2**15, N, dtype=np.int32).astype(np.int16)
    c8, c16, u8 = np.zeros(N, np.int8), np.zeros(N, np.int16), np.zeros(N, np.uint8)
    got = run(toolchain, "grids.cl", "narrow_ints", a, b, c8, c16, u8, np.int32(N))
    a32, b32 = a.astype(np.int32), b.astype(np.int32)
    np.testing.assert_array_equal(got[2], (a32 * 3 + b.astype(np.int8).astype(np.int32)).astype(np.int8))
    np.testing.assert_array_equal(got[3], (b32 * a32 - 7).astype(np.int16))
    np.testing.assert_array_equal(got[4], (a32 ^ (b32 >> 3)).astype(np.uint8))


def test_transcendentals(toolchain):
    x = rng().uniform(-3, 3, N).astype(np.float32)
    out = np.zeros(4 * N, np.float32)
    got = run(toolchain, "grids.cl", "transcendentals", x, out, np.int32(N))[1].reshape(N, 4)
    x64 = x.astype(np.float64)
    expect = np.stack([np.sin(x64), np.cos(x64), np.exp2(x64),
                       np.log2(np.abs(x64) + 0.5)], axis=1)
    np.testing.assert_allclose(got, expect, rtol=4e-6, atol=4e-6)

"""End to end: HIP kernels compiled by the ROCm toolchain, loaded unchanged
(clang offload bundles) and run on the embedded executor, checked against NumPy.

Each file under tests/e2e/hip is built for each configuration below, at -O2:
``hipcc --genco`` (ROCm 5.2's hipcc, clang-15 underneath, code object v4) and
``clang-19 -x hip --cuda-device-only`` (code object v5) with the ROCm 5.2 HIP
headers and device libraries. Both write offload bundles, which ``Device.load``
opens itself. Launch helpers (``run``, ``rng``) and the build cache are those
of test_opencl.

Left out of the matrix: -O0 (hipcc 5.2 fails to select llvm.amdgcn.permlanex16
for warp.hip; clang-19 -O0 code object v5 for gfx803 loads the scratch/LDS
apertures from the absolute addresses 0xc0/0xc4, faulting on hardware too,
while the same build as v4 runs: a clang-19 / ROCm 5.2 device library mismatch).
"""

import hashlib
import os
import pathlib
import subprocess

import numpy as np
import pytest

from amdgpu_tools.errors import LaunchError
from reftools import ROCM_BITCODE, find_tool
from test_opencl import CACHE, rng, run

HIP_SOURCES = pathlib.Path(__file__).parent / "hip"

#: (compiler, cpu)
CONFIGS = [("hipcc", "gfx900"), ("clang-19", "gfx803"), ("clang-19", "gfx900")]
OPT = "-O2"


def config_id(config):
    return f"{config[0]}-{config[1]}"


def compile_command(compiler, cpu, *extra):
    """The argv (without source and output) for one configuration, or skip."""
    if compiler == "hipcc":
        hipcc = find_tool("hipcc")
        if hipcc is None:
            pytest.skip("hipcc is not installed (apt-get install hipcc libamdhip64-dev)")
        return [hipcc, "--genco", f"--offload-arch={cpu}", OPT, *extra]
    clang = find_tool(compiler)
    if clang is None or not os.path.isfile("/usr/include/hip/hip_runtime.h"):
        pytest.skip(f"{compiler} and the HIP headers (libamdhip64-dev) are needed")
    if not os.path.isdir(ROCM_BITCODE):
        pytest.skip("rocm-device-libs is not installed")
    return [clang, "-x", "hip", "--cuda-device-only", f"--offload-arch={cpu}", OPT,
            "--rocm-path=/usr", f"--rocm-device-lib-path={ROCM_BITCODE}", *extra]


def build(config, source):
    """The offload bundle of one HIP file for one configuration (cached by content)."""
    argv = compile_command(*config)
    text = (HIP_SOURCES / source).read_text()
    key = hashlib.sha256((" ".join(argv[1:]) + text).encode()).hexdigest()[:20]
    CACHE.mkdir(parents=True, exist_ok=True)
    bundle = CACHE / f"{source}.{key}.hsaco"
    if not bundle.exists():
        # hipcc targets NVIDIA when it finds nvcc on PATH, unless told the platform
        env = dict(os.environ, HIP_PLATFORM="amd")
        done = subprocess.run(argv + [str(HIP_SOURCES / source), "-o", str(bundle) + ".tmp"],
                              capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        os.replace(str(bundle) + ".tmp", bundle)
    return bundle


@pytest.fixture(scope="module", params=CONFIGS, ids=config_id)
def hip(request):
    """source -> (device, program), one device per source, as test_opencl's toolchain."""
    from amdgpu_tools import Device
    cache = {}

    def program(source):
        if source not in cache:
            device = Device()
            cache[source] = (device, device.load(str(build(request.param, source))))
        return cache[source]
    return program


N = 300          # elements: the kernels guard i < n
BLOCK = 64
#: HIP launches whole blocks (gridDim * blockDim work-items); in ROCm 5.2's
#: device library blockDim.x of a partial last group would be its partial size
GRID = (N + BLOCK - 1) // BLOCK * BLOCK


# ------------------------------------------------------------------ basic.hip
def test_vector_add(hip):
    r = rng()
    a = r.uniform(-1, 1, N).astype(np.float32)
    b = r.uniform(-1, 1, N).astype(np.float32)
    c = np.full(N + 20, -7, np.float32)
    got = run(hip, "basic.hip", "vadd", a, b, c, np.int32(N), grid=(N + 20,))[2]
    np.testing.assert_array_equal(got[:N], a + b)
    np.testing.assert_array_equal(got[N:], -7)


def test_compressed_multi_target_bundle():
    """clang-19 --offload-compress with two targets: a zstd CCOB bundle; each
    device takes its own entry."""
    from amdgpu_tools import Device
    bundle = build(("clang-19", "gfx803", "--offload-arch=gfx900", "--offload-compress"),
                   "basic.hip").read_bytes()
    assert bundle[:4] == b"CCOB"
    a = rng().uniform(-1, 1, N).astype(np.float32)
    for target, mach in (("gfx803", 0x2A), ("gfx900", 0x2C)):
        device = Device(target)
        program = device.load(bundle)
        assert program.loaded.code.elf.mach == mach
        a_buffer, c_buffer = device.array(a), device.zeros(N, np.float32)
        program["vadd"](a_buffer, a_buffer, c_buffer, np.int32(N), grid=(GRID,), block=(BLOCK,))
        device.synchronize()
        np.testing.assert_array_equal(c_buffer.numpy(), a + a)


def test_grid_2d(hip):
    width, height = 45, 13
    out = np.full(width * height, -1, np.int32)
    got = run(hip, "basic.hip", "grid2d", out, np.int32(width), np.int32(height),
              grid=(48, 16), block=(16, 4))[0].reshape(height, width)
    y, x = np.mgrid[0:height, 0:width]
    np.testing.assert_array_equal(got, 1000 * y + x)


@pytest.mark.parametrize("dtype, mangled", [
    (np.float32, "_Z4axpyIfEvT_PKS0_PS0_i"),
    (np.float64, "_Z4axpyIdEvT_PKS0_PS0_i"),
    (np.int32, "_Z4axpyIiEvT_PKS0_PS0_i"),
])
def test_templates(hip, dtype, mangled):
    # HIP contracts alpha * x + y into an fma: values whose product is exact
    # make the result independent of that (the fma itself is checked in test_math)
    r = rng()
    x = (r.integers(-800, 800, N) / (8 if dtype != np.int32 else 1)).astype(dtype)
    y = (r.integers(-800, 800, N) / (4 if dtype != np.int32 else 1)).astype(dtype)
    alpha = dtype(3)
    got = run(hip, "basic.hip", mangled, alpha, x, y, np.int32(N), grid=(GRID,))[2]
    np.testing.assert_array_equal(got, alpha * x + y)


def test_noinline_device_functions(hip):
    a = rng().integers(-10**5, 10**5, N, dtype=np.int32)
    out = np.zeros(N, np.float32)
    got = run(hip, "basic.hip", "calls", a, out, np.int32(N), grid=(GRID,))[1]
    i = np.arange(N, dtype=np.int32)
    m = (a * 31) ^ (i >> 2)
    np.testing.assert_array_equal(got, (m & 1023).astype(np.float32) *
                                  (i & 7).astype(np.float32) + np.float32(0.25))
    _, program = hip("basic.hip")
    assert any(s.startswith("_Z3mixii") for s in program.loaded.code.symbols), \
        "mix() should stay a called function (noinline)"


#: struct Params { int offset; float scale; double bias; short tag; } as the ABI lays it out
PARAMS = np.dtype({"names": ["offset", "scale", "bias", "tag"],
                   "formats": [np.int32, np.float32, np.float64, np.int16],
                   "offsets": [0, 4, 8, 16], "itemsize": 24})


def test_struct_by_value(hip):
    params = np.zeros((), PARAMS)
    params["offset"], params["scale"], params["bias"], params["tag"] = -12, 1.5, 0.125, -3
    x = (rng().integers(-400, 400, N) / 8).astype(np.float32)  # x * scale exact: fma or not
    out = np.zeros(N, np.float64)
    got = run(hip, "basic.hip", "by_value", params[()], x, out, np.int32(N), grid=(GRID,))[2]
    expect = (x * np.float32(1.5) + np.float32(-12)).astype(np.float64) + 0.125 * -3
    np.testing.assert_array_equal(got, expect)


def test_math(hip):
    r = rng()
    x = r.uniform(-10, 10, N).astype(np.float32)
    d = r.uniform(-1000, 1000, N)
    out, dout = np.zeros(3 * N, np.float32), np.zeros(2 * N, np.float64)
    got = run(hip, "basic.hip", "math", x, d, out, dout, np.int32(N), grid=(GRID,))
    f, g = got[2].reshape(N, 3), got[3].reshape(N, 2)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(f[:, 0], np.sin(x64), rtol=0, atol=3e-7)
    np.testing.assert_allclose(f[:, 1], np.exp(x64), rtol=3e-7)
    np.testing.assert_array_equal(f[:, 2], np.sqrt(np.abs(x)))
    np.testing.assert_array_equal(g[:, 0], np.sqrt(np.abs(d)))
    np.testing.assert_allclose(g[:, 1], d * d / 3.0 + np.exp(d * 0.001), rtol=1e-15)


# ----------------------------------------------------------------- shared.hip
def test_shared_tree_reduction(hip):
    groups, block = 5, 128
    a = rng().uniform(-1, 1, groups * block).astype(np.float32)
    sums = np.zeros(groups, np.float32)
    got = run(hip, "shared.hip", "block_sum", a, sums, grid=(groups * block,), block=(block,))[1]
    tree = a.reshape(groups, block).copy()
    stride = block // 2
    while stride:
        tree[:, :stride] += tree[:, stride:2 * stride]
        stride //= 2
    np.testing.assert_array_equal(got, tree[:, 0])


def test_dynamic_shared_memory(hip):
    device, program = hip("shared.hip")
    groups, block = 3, 96
    a = rng().integers(-10**6, 10**6, groups * block, dtype=np.int32)
    src, dst = device.array(a), device.zeros(groups * block, np.int32)
    program["rotate_dynamic"](src, dst, grid=(groups * block,), block=(block,),
                              shared=block * 4)
    device.synchronize()
    np.testing.assert_array_equal(dst.numpy(), np.roll(a.reshape(groups, block), -1, axis=1)
                                  .reshape(-1))
    # without it the group segment is empty: LDS reads past its end return 0
    program["rotate_dynamic"](src, dst, grid=(groups * block,), block=(block,))
    device.synchronize()
    np.testing.assert_array_equal(dst.numpy(), 0)
    with pytest.raises(LaunchError, match="shared=-4: dynamic group memory"):
        program["rotate_dynamic"](src, dst, grid=(block,), block=(block,), shared=-4)


def test_atomics(hip):
    r = rng()
    n = 250     # hipcc's float atomicAdd is a per-lane CAS loop: contention grows as n**2
    a = r.integers(-10**6, 10**6, n, dtype=np.int32)
    f = (r.integers(-1000, 1000, n) / 8).astype(np.float32)     # exact sums in any order
    iacc = np.array([0, np.iinfo(np.int32).min, np.iinfo(np.int32).max, 0, 0, 0], np.int32)
    facc = np.zeros(1, np.float32)
    umax = np.zeros(1, np.uint32)
    got = run(hip, "shared.hip", "atomics", a, f, iacc, facc, umax, np.int32(n),
              grid=(256,), block=(128,))
    largest = a[np.argmax(np.abs(a))]
    np.testing.assert_array_equal(got[2], [a.sum(dtype=np.int64).astype(np.int32), a.max(),
                                           a.min(), -n, -1, largest])
    np.testing.assert_array_equal(got[3], [f.sum(dtype=np.float64)])
    np.testing.assert_array_equal(got[4], [a.view(np.uint32).max()])


def test_atomic_exchange_chain(hip):
    n = 200
    slot = np.array([-1], np.int32)
    olds = np.zeros(n, np.int32)
    got = run(hip, "shared.hip", "exchange_chain", slot, olds, np.int32(n), grid=(256,),
              block=(64,))
    # each old value is returned once: the olds and the final value are -1, 0..n-1
    np.testing.assert_array_equal(np.sort(np.append(got[1], got[0])), np.arange(-1, n))


# ------------------------------------------------------------------- warp.hip
def lane_masks(predicate):
    """64-bit ballot per wave of a boolean array of whole waves."""
    bits = predicate.reshape(-1, 64).astype(np.uint64) << np.arange(64, dtype=np.uint64)
    return np.bitwise_or.reduce(bits, axis=1)


def test_votes_and_popcounts(hip):
    waves = 4
    v = rng().integers(-1000, 1000, waves * 64, dtype=np.int32)
    v[64:128] = np.abs(v[64:128])            # wave 1: all positive, no ballot holes
    v[70] = 950                              # wave 1 has a big value
    v[:64][v[:64] > 900] = 5                 # wave 0 has none
    ballots = np.zeros(2 * waves, np.uint64)
    flags = np.zeros(2 * waves, np.int32)
    pops = np.zeros(waves * 64, np.int32)
    got = run(hip, "warp.hip", "vote", v, ballots, flags, pops, grid=(waves * 64,),
              block=(128,))
    ballot = lane_masks(v > 0)
    np.testing.assert_array_equal(got[1][0::2], ballot)
    np.testing.assert_array_equal(got[1][1::2], np.full(waves, 2**64 - 1, np.uint64))
    np.testing.assert_array_equal(got[2][0::2], (v.reshape(waves, 64) > 900).any(axis=1))
    np.testing.assert_array_equal(got[2][1::2], [1] * waves)
    popc = np.array([bin(int(x)).count("1") for x in v.view(np.uint32)])
    ballot_pop = np.repeat([bin(int(b)).count("1") for b in ballot], 64)
    np.testing.assert_array_equal(got[3], ballot_pop + 100 * popc)


def test_shuffles(hip):
    waves = 3
    v = rng().integers(-10**6, 10**6, waves * 64, dtype=np.int32)
    out = np.zeros(4 * waves * 64, np.int32)
    got = run(hip, "warp.hip", "shuffles", v, out, grid=(waves * 64,), block=(64,))[1]
    got = got.reshape(waves, 64, 4)
    w = v.reshape(waves, 64)
    lane = np.arange(64)
    np.testing.assert_array_equal(got[..., 0], w[:, (lane * 7 + 3) % 64])
    np.testing.assert_array_equal(got[..., 1], w[:, lane ^ 5])
    # out-of-range sources keep the lane's own value (HIP's __shfl_down/__shfl_up)
    np.testing.assert_array_equal(got[..., 2], w[:, np.where(lane + 3 < 64, lane + 3, lane)])
    np.testing.assert_array_equal(got[..., 3], w[:, np.where(lane >= 2, lane - 2, lane)])


def test_wave_reduction(hip):
    waves = 6
    v = (rng().integers(-4000, 4000, waves * 64) / 16).astype(np.float32)   # exact sums
    sums = np.zeros(waves, np.float32)
    total = np.zeros(1, np.float32)
    got = run(hip, "warp.hip", "wave_sum", v, sums, total, grid=(waves * 64,), block=(128,))
    np.testing.assert_array_equal(got[1], v.reshape(waves, 64).sum(axis=1))
    np.testing.assert_array_equal(got[2], [v.sum()])


def test_divergent_ballot(hip):
    v = rng().integers(0, 2**16, 128, dtype=np.int32)
    out = np.zeros(128, np.uint64)
    got = run(hip, "warp.hip", "divergent_ballot", v, out, grid=(128,), block=(64,))[1]
    odd = (v & 1).astype(bool)
    inner = lane_masks(odd & ((v & 2) != 0)) ^ (lane_masks(odd) << np.uint64(1))
    np.testing.assert_array_equal(got, np.where(odd, np.repeat(inner, 64), 0))


# ------------------------------------------------------------ printf.hip
def test_printf(hip):
    """ROCm 5.2 device printf goes through hostcall; clang-19's the same (HIP default)."""
    import io
    from amdgpu_tools import Device
    _, loaded = hip("printf.hip")               # built (and cached) for this configuration
    stream = io.StringIO()
    device = Device(printf_stream=stream)
    program = device.load(loaded.label)
    values = rng().integers(-1000, 1000, 128, dtype=np.int32)
    values[:4] = [0, 3, -3, 7]
    src, dst = device.array(values), device.zeros(128, np.int32)
    program["greet"](src, dst, grid=(128,), block=(64,))
    device.synchronize()
    np.testing.assert_array_equal(dst.numpy(), values + 1)
    expected = [f"item {i}: value {v}, half {v * 0.5:.2f}, name hip"
                for i, v in enumerate(values) if v % 3 == 0]     # a zero remainder: same in C and Python
    assert sorted(stream.getvalue().splitlines()) == sorted(expected)


# -------------------------------------------------------------- lock.hip
def test_spin_lock_between_waves(hip):
    """One lane per wave takes a global mutex (atomicCAS), bumps a plain counter and
    logs itself; 4 waves in 2 work-groups, 3 rounds each."""
    rounds, waves = 3, 4
    mutex, counter = np.zeros(1, np.int32), np.zeros(1, np.int32)
    holders = np.full(rounds * waves, -1, np.int32)
    got = run(hip, "lock.hip", "spin_lock", mutex, counter, holders, np.int32(rounds),
              grid=(waves * 64,), block=(128,))
    assert got[0][0] == 0 and got[1][0] == rounds * waves
    np.testing.assert_array_equal(np.bincount(got[2], minlength=waves), [rounds] * waves)


def test_segment_shuffles_and_lane_id(hip):
    v = rng().integers(-10**6, 10**6, 128, dtype=np.int32)
    out = np.zeros(3 * 128, np.int32)
    got = run(hip, "warp.hip", "segments", v, out, grid=(128,), block=(128,))[1]
    got = got.reshape(128, 3)
    lane = np.arange(128) % 64
    base = np.arange(128) - lane
    np.testing.assert_array_equal(got[:, 0], v[base + (lane ^ 1)])
    down = np.where(lane % 8 + 2 < 8, lane + 2, lane)     # stays inside its 8-lane segment
    np.testing.assert_array_equal(got[:, 1], v[base + down])
    np.testing.assert_array_equal(got[:, 2], lane)


def test_block_votes(hip):
    groups, block = 3, 192
    v = rng().integers(-1000, 1000, groups * block, dtype=np.int32)
    v[:block] = np.abs(v[:block]) % 900           # group 0: none > 990, all > -900
    v[block + 5] = 999
    out = np.zeros(3 * groups, np.int32)
    got = run(hip, "warp.hip", "block_votes", v, out, grid=(groups * block,),
              block=(block,))[1].reshape(groups, 3)
    w = v.reshape(groups, block)
    np.testing.assert_array_equal(got[:, 0], (w > 0).sum(axis=1))
    np.testing.assert_array_equal(got[:, 1] != 0, (w > -900).all(axis=1))
    np.testing.assert_array_equal(got[:, 2] != 0, (w > 990).any(axis=1))


def test_static_and_dynamic_shared_with_shared_atomics(hip):
    device, program = hip("shared.hip")
    groups, block = 4, 128
    values = rng().integers(0, 2**32, groups * block, dtype=np.uint64).astype(np.uint32)
    src = device.array(values)
    hist, sums = device.zeros(16, np.uint32), device.zeros(groups, np.float32)
    program["shared_histogram"](src, hist, sums, grid=(groups * block,), block=(block,),
                                shared=4)
    device.synchronize()
    np.testing.assert_array_equal(hist.numpy(), np.bincount(values & 15, minlength=16))
    halves = ((values & 255) * 0.5).reshape(groups, block)       # exact sums in any order
    np.testing.assert_array_equal(sums.numpy(), halves.sum(axis=1))


def test_64_bit_atomics(hip):
    n = 120     # CAS loops of contending lanes: cost grows as n**2
    r = rng()
    a = r.integers(-2**62, 2**62, n, dtype=np.int64)
    d = r.integers(-2**20, 2**20, n) / 4.0                     # exact sums in any order
    acc = np.array([0, 2**64 - 1, 0, 0], np.uint64)
    dacc = np.zeros(1)
    got = run(hip, "shared.hip", "atomics64", a, d, acc, dacc, np.int32(n), grid=(128,),
              block=(64,))
    ua = a.view(np.uint64)
    toggles = np.bitwise_xor.reduce(np.uint64(1) << (np.arange(n) % 64).astype(np.uint64))
    np.testing.assert_array_equal(got[2], [ua.sum(dtype=np.uint64), ua.min(), ua.max(),
                                           toggles])
    np.testing.assert_array_equal(got[3], [d.sum()])


# ------------------------------------------------------------------- more.hip
def test_half_precision(hip):
    r = rng()
    a = (r.integers(-32, 32, N) / 4).astype(np.float16)      # products and sums stay exact:
    b = (r.integers(-8, 8, N) / 2).astype(np.float16)        # fused or not, same result
    out = np.zeros(2 * N, np.float16)
    got = run(hip, "more.hip", "half_math", a, b, out, np.int32(N), grid=(GRID,))[2]
    np.testing.assert_array_equal(got.reshape(N, 2), np.stack([a * b + a, a * np.float16(0.5)],
                                                              axis=1))


def test_3d_blocks_and_grid_stride_loop(hip):
    nx, ny, nz = 20, 6, 11
    out = np.full(nx * ny * nz, -1, np.int32)
    got = run(hip, "more.hip", "volume", out, np.int32(nx), np.int32(ny), np.int32(nz),
              grid=(24, 6, 4), block=(8, 3, 2))[0].reshape(nz, ny, nx)   # z loops 3 times
    z, y, x = np.mgrid[0:nz, 0:ny, 0:nx]
    np.testing.assert_array_equal(got, (z * 100 + y) * 100 + x)


def test_cooperative_groups_tiles(hip):
    groups, block = 3, 128
    v = rng().integers(-1000, 1000, groups * block, dtype=np.int32)
    sums = np.zeros(groups * block // 16, np.int32)
    first = np.zeros(groups * block, np.int32)
    got = run(hip, "more.hip", "tiles", v, sums, first, grid=(groups * block,), block=(block,))
    np.testing.assert_array_equal(got[1], v.reshape(-1, 16).sum(axis=1))
    np.testing.assert_array_equal(got[2], np.repeat(v[::block], block))


def cross_lanes(hip):
    v = rng().integers(-10**6, 10**6, 128, dtype=np.int32)
    out = np.zeros(2 * 128, np.int32)
    got = run(hip, "more.hip", "lanes", v, out, grid=(128,), block=(64,))[1].reshape(128, 2)
    return v, got


def test_dpp_row_shift_builtin(hip):
    v, got = cross_lanes(hip)
    lane = np.arange(128)
    np.testing.assert_array_equal(got[:, 0], np.where(lane % 16 == 0, 0, v[lane - 1]))


def test_ds_swizzle_builtin(hip):
    v, got = cross_lanes(hip)
    np.testing.assert_array_equal(got[:, 1], v[np.arange(128) ^ 1])


def test_amdgpu_run_spec_with_a_hipcc_bundle(tmp_path, capsys):
    """The launch-spec path of amdgpu-run takes hipcc's bundle as its code object."""
    import yaml
    from amdgpu_tools.cli.run import main as amdgpu_run
    bundle = build(("hipcc", "gfx900"), "basic.hip")
    a = rng().uniform(-1, 1, 256).astype(np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "sum.npy", a + a)
    spec = {"name": "hip-vadd", "code_object": str(bundle),
            "buffers": {"a": {"file": "a.npy"}, "c": {"zeros": 256, "dtype": "float32"}},
            "launches": [{"kernel": "vadd", "grid": [256, 1, 1], "block": [64, 1, 1],
                          "args": [{"buf": "a"}, {"buf": "a"}, {"buf": "c"}, {"i32": 256}]}],
            "expect": {"c": {"file": "sum.npy", "rtol": 0.0, "atol": 0.0}}}
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
    assert amdgpu_run(["--spec", str(tmp_path / "spec.yaml")]) == 0
    assert "PASS hip-vadd: 1/1 buffers match" in capsys.readouterr().out

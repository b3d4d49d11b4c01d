"""OpenCL kernels compiled by clang-19 give bit-identical results (and the
same instruction counts) in one process and in 2 or 3 worker processes.

The kernels and their compilation are test_opencl's. Batches are made small
(``MAX_BATCH_WAVES`` 2, parallel from 2 waves on) so that grids of a few
hundred work-items already spread over several workers; ``forks`` records
the worker counts of the dispatches that really ran in workers.
"""

import numpy as np
import pytest

from amdgpu_tools import Device, LocalMemory

from test_opencl import build

O2 = ("clang-19", "gfx900", "-O2", 5)
#: private arrays and call stacks in scratch, direct calls through s_swappc
O0 = ("clang-14", "gfx803", "-O0", 2)
#: clang-19 -O0 kernels take a hostcall buffer: they run in one process
O0_HOSTCALL = ("clang-19", "gfx900", "-O0", 5)
N = 1000
RNG = np.random.default_rng(20261126)
A_INT = RNG.integers(-1000, 1000, N, dtype=np.int32)
A_FLOAT = RNG.uniform(-10, 10, N).astype(np.float32)
B_FLOAT = RNG.uniform(0.5, 10, N).astype(np.float32)
COLLATZ = RNG.integers(1, 10000, N, dtype=np.uint32)
MATRIX = 32


@pytest.fixture
def forks(forked_workers):
    """Batches of 2 waves, parallel from 2 waves on; the worker counts forked."""
    return forked_workers(2)


def _matrix(seed):
    return np.random.default_rng(seed).random((MATRIX, MATRIX), dtype=np.float32)


#: name -> (config, source, kernel, arguments, grid, block)
LAUNCHES = {
    "float_math": (O2, "floating.cl", "float_math",
                   lambda: [A_FLOAT, B_FLOAT, np.zeros(6 * N, np.float32), np.int32(N)],
                   (N,), (64,)),
    "private_array -O0": (O0, "structured.cl", "private_array",
                          lambda: [A_INT, np.zeros(N, np.int32), np.int32(N)], (N,), (64,)),
    "calls -O0": (O0, "parallel.cl", "calls",
                  lambda: [A_INT[:512], np.zeros(512, np.float32)], (512,), (64,)),
    "local_reduce": (O2, "parallel.cl", "local_reduce",
                     lambda: [A_FLOAT[:512], np.zeros(8, np.float32), LocalMemory(256)],
                     (512,), (64,)),
    "global_atomics": (O2, "parallel.cl", "global_atomics",
                       lambda: [A_INT[:768], np.array([0, -2**31, 2**31 - 1, 0], np.int32)],
                       (768,), (128,)),
    "local_histogram": (O2, "parallel.cl", "local_histogram",
                        lambda: [COLLATZ[:768], np.zeros(16, np.uint32)], (768,), (128,)),
    "collatz": (O2, "parallel.cl", "collatz", lambda: [COLLATZ, np.zeros(N, np.uint32)],
                (N,), (64,)),
    "matmul_tiled": (O2, "grids.cl", "matmul_tiled",
                     lambda: [_matrix(1), _matrix(2), np.zeros((MATRIX, MATRIX), np.float32),
                              np.int32(MATRIX)], (MATRIX, MATRIX), (8, 8)),
}


def _launch(jobs, config, source, kernel, make_args, grid, block):
    """(every buffer's bytes after the run, the dispatch's counts)."""
    device = Device(config[1], jobs=jobs)
    program = device.load(str(build(config, source)))
    args = [device.array(a) if isinstance(a, np.ndarray) and a.ndim > 0 else a
            for a in make_args()]
    program[kernel](*args, grid=grid, block=block)
    device.synchronize()
    result = device.last_result
    return ([a.numpy().tobytes() for a in args if hasattr(a, "numpy")],
            (result.wave_instructions, result.lane_instructions, result.waves))


@pytest.mark.parametrize("name", sorted(LAUNCHES))
def test_compiled_kernels_are_bit_identical_in_workers(forks, name):
    one = _launch(1, *LAUNCHES[name])
    assert forks == []
    for jobs in (2, 3):
        assert _launch(jobs, *LAUNCHES[name]) == one
    assert forks == [2, 3]


def test_the_sums_of_global_atomics_are_exact_across_workers(forks):
    a = A_INT[:768]
    buffers, _ = _launch(3, *LAUNCHES["global_atomics"])
    got = np.frombuffer(buffers[1], np.int32).tolist()
    assert got == [int(a.sum()), int(a.max()), int(a.min()), 768]
    assert forks == [3]


def test_kernels_with_a_hostcall_buffer_run_in_one_process(forks):
    a = A_INT[:256]
    device = Device("gfx900", jobs=2)
    program = device.load(str(build(O0_HOSTCALL, "parallel.cl")))
    out = device.zeros(256, np.float32)
    program["calls"](device.array(a), out, grid=(256,), block=(64,))
    device.synchronize()
    assert forks == []
    i = np.arange(256, dtype=np.int32)
    m = a * 31 + (i ^ (a >> 2))
    assert np.array_equal(out.numpy(), (m & 1023).astype(np.float32) *
                          (i & 7).astype(np.float32) + np.float32(0.25))

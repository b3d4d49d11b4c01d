"""Every sample computes what its comment says, checked with NumPy on the
embedded executor (assembled by amdgpu-as, linked on load or by amdgpu-ld)."""

import numpy as np
import pytest

import asm_goldens as goldens
from amdgpu_tools.asm import assemble

SAMPLES = goldens.HERE.parents[1] / "samples"

runtime = pytest.importorskip("amdgpu_tools.runtime.api")


def _program(device, *names):
    objects = [assemble((SAMPLES / n).read_text(), target="gfx900", filename=n) for n in names]
    if len(objects) == 1:
        return device.load(objects[0])
    from amdgpu_tools.link import link
    return device.load(link(objects))


@pytest.fixture
def device():
    from amdgpu_tools import Device
    return Device("gfx900")


def test_vector_add(device):
    a = np.arange(1000, dtype=np.float32)
    b = np.full(1000, 2.5, dtype=np.float32)
    c = device.zeros(1000, np.float32)
    _program(device, "vector_add.s")["vector_add"](device.array(a), device.array(b), c,
                                                   np.int32(1000), grid=(1024,), block=(64,))
    device.synchronize()
    assert np.array_equal(c.numpy(), a + b)


def test_saxpy(device):
    x = np.linspace(-3, 3, 700, dtype=np.float32)
    y = np.arange(700, dtype=np.float32)
    ybuf = device.array(y)
    _program(device, "saxpy.s")["saxpy"](np.int32(700), np.float32(1.5), device.array(x), ybuf,
                                         grid=(768,), block=(256,))
    device.synchronize()
    assert np.allclose(ybuf.numpy(), np.float32(1.5) * x + y)


def test_lds_reduce(device):
    data = np.random.default_rng(1).random(512, dtype=np.float32)
    partial = device.zeros(2, np.float32)
    _program(device, "lds_reduce.s")["lds_reduce"](device.array(data), partial,
                                                   grid=(512,), block=(256,))
    device.synchronize()
    assert np.allclose(partial.numpy(), data.reshape(2, 256).sum(axis=1), rtol=1e-5)


def test_matmul_tiled(device):
    rng = np.random.default_rng(2)
    a = rng.random((32, 32), dtype=np.float32)
    b = rng.random((32, 32), dtype=np.float32)
    c = device.zeros((32, 32), np.float32)
    _program(device, "matmul_tiled.s")["matmul_tiled"](device.array(a), device.array(b), c,
                                                       np.int32(32), grid=(32, 32), block=(16, 16))
    device.synchronize()
    assert np.allclose(c.numpy(), a @ b, rtol=1e-5)


def test_call_across_files(device):
    values = np.arange(128, dtype=np.float32) - 7
    out = device.zeros(128, np.float32)
    _program(device, "call_kernel.s", "call_function.s")["call_kernel"](
        device.array(values), out, grid=(128,), block=(64,))
    device.synchronize()
    assert np.array_equal(out.numpy(), 2 * values)


def test_global_through_got(device):
    out = device.zeros(64, np.int32)
    _program(device, "global_via_got.s")["global_via_got"](out, grid=(64,), block=(64,))
    device.synchronize()
    assert np.array_equal(out.numpy(), 1000 + np.arange(64))

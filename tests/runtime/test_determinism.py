"""The same launch twice gives bit-identical buffers and identical instruction
counts, atomics included (global integer atomics with return values and LDS
float atomics, whose results depend on the order they are applied in)."""

import os

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.asm import assemble
from amdgpu_tools.exec.launch import TraceOptions

from .conftest import data_path

N = 2048
BLOCK = 256


@pytest.fixture(scope="module")
def contend_object():
    with open(data_path(os.path.join("src", "contend.s"))) as handle:
        return assemble(handle.read(), target="gfx900")


def _run(device, program):
    """One launch of ``contend`` on fresh zero buffers: (bytes of each, result)."""
    counters = device.zeros(8, np.uint32)
    out = device.zeros(N, np.uint32)
    fout = device.zeros(N, np.float32)
    result = program["contend"](counters, out, fout, grid=N, block=BLOCK)
    arrays = counters.numpy(), out.numpy(), fout.numpy()
    for buffer in (counters, out, fout):
        buffer.free()
    return arrays, result


def _profiling_device():
    return Device(trace=TraceOptions.from_text(None, True, lambda *_: None))


def test_atomics_are_correct(contend_object):
    device = Device()
    (counters, out, fout), _ = _run(device, device.load(contend_object))
    ids = np.arange(N, dtype=np.int64)
    adds = ids + 1
    np.testing.assert_array_equal(counters, [adds[ids % 8 == k].sum() for k in range(8)])
    for k in range(8):            # the returned old values chain up, in some order
        mine = ids % 8 == k
        order = np.argsort(out[mine], kind="stable")
        old, add = out[mine][order].astype(np.int64), adds[mine][order]
        assert old[0] == 0
        np.testing.assert_array_equal(old[1:], old[:-1] + add[:-1])
    values = (adds.astype(np.float32) * np.float32(0.1)).astype(np.float32)
    for group in range(N // BLOCK):   # each work-group's LDS float, applied in f32
        rows = slice(group * BLOCK, (group + 1) * BLOCK)
        order = np.argsort(fout[rows], kind="stable")
        old, add = fout[rows][order], values[rows][order]
        assert old[0] == 0
        np.testing.assert_array_equal(old[1:], (old[:-1] + add[:-1]).astype(np.float32))


def test_same_launch_twice_is_bit_identical(contend_object):
    device = _profiling_device()
    program = device.load(contend_object)
    first, first_result = _run(device, program)
    second, second_result = _run(device, program)
    other = _profiling_device()
    third, third_result = _run(other, other.load(contend_object))
    for a, b, c in zip(first, second, third):
        assert a.tobytes() == b.tobytes() == c.tobytes()
    for result in (second_result, third_result):
        assert result.wave_instructions == first_result.wave_instructions > 0
        assert result.lane_instructions == first_result.lane_instructions > 0
        assert result.waves == first_result.waves == N // 64
    # the profile is keyed by PC: the same load base on a fresh device
    assert sorted(first_result.profile.values()) == sorted(second_result.profile.values())
    assert first_result.profile == second_result.profile
    assert sum(first_result.profile.values()) == first_result.wave_instructions


def test_same_launch_twice_through_the_cli(tmp_path, capsys):
    from amdgpu_tools.cli.run import main
    source = data_path(os.path.join("src", "contend.s"))
    outputs = []
    for run in range(2):
        saved = [tmp_path / f"arg{i}.npy" for i in range(3)]
        assert main([source, "--grid", "512", "--block", "128", "--arg", "buf:uint32[8]",
                     "--arg", "buf:uint32[512]", "--arg", "buf:float32[512]", "--profile",
                     *[f"--save={i}={path}" for i, path in enumerate(saved)]]) == 0
        outputs.append(([np.load(path).tobytes() for path in saved], capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    assert "profile" in outputs[0][1]

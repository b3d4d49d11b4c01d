"""clang-19 kernels that print through hostcall, run on the executor.

The recorded objects come from tests/runtime/data/hostcall/ (see build.py
there): HIP kernels whose ``printf`` clang lowers to the device libraries'
hostcall printf, and OpenCL C kernels that call that service directly. The
expected text is the same values formatted by Python's ``%`` operator.
"""

import io
import os

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from amdgpu_tools.runtime.api import Device

from .conftest import data_path

TARGETS = ["gfx803_v4", "gfx803_v5", "gfx900_v4", "gfx900_v5"]


def device_and_program(name):
    out = io.StringIO()
    device = Device(printf_stream=out)
    return device, device.load(data_path(os.path.join("hostcall", name))), out


def run(name, kernel, *args, grid, block):
    device, program, out = device_and_program(name)
    values = [device.array(a) if isinstance(a, np.ndarray) else a for a in args]
    program[kernel](*values, grid=grid, block=block)
    device.synchronize()
    return out.getvalue(), values


def lines(text):
    assert text.endswith("\n")
    return text[:-1].split("\n")


# ----------------------------------------------------------- HIP printf
@pytest.mark.parametrize("target", TARGETS)
def test_hip_printf_from_every_work_item(target):
    n = 230                                  # five waves, the fourth partly idle, one idle
    x = (np.arange(320, dtype=np.float32) - 20) * np.float32(0.37)
    name = b"runtime\0"
    text, _ = run(f"printf_hip_{target}.hsaco", "items", x,
                  np.frombuffer(name, np.uint8).copy(), np.int32(n), grid=(320,), block=(64,))
    expected = ["item %d/%u x=%.3f %s %s|%5d|%-4x|%e" % (
        i, n, x[i], "const", "runtime", -i, i * 17, float(x[i] * np.float32(1000)))
        for i in range(n)]
    assert lines(text) == expected


def test_hip_printf_in_divergent_branches():
    n = 40
    text, _ = run("printf_hip_gfx900_v5.hsaco", "divergent", np.int32(n), grid=(64,), block=(64,))
    expected = []
    for i in range(n):
        if i % 3 == 0:
            expected.append("fizz %d" % i)
        elif i % 3 == 1:
            expected.append("buzz %5.1f %c" % (i * 0.5, chr(ord("a") + i % 26)))
        else:
            expected.append("%s-%d-%u %o" % ("long", i * -10000000000, 1 << 40, i))
    got = lines(text)
    assert sorted(got) == sorted(expected)
    for prefix in ("fizz", "buzz", "long"):          # each branch prints in lane order
        assert [g for g in got if g.startswith(prefix)] == \
            [e for e in expected if e.startswith(prefix)]


def test_hip_printf_in_a_loop_with_lane_dependent_trips():
    n = 2
    text, _ = run("printf_hip_gfx803_v4.hsaco", "loop", np.int32(n), grid=(6,), block=(6,))
    got = lines(text)
    expected = ["lane %d iter %d sq %d" % (i, k, k * k) for i in range(6) for k in range(i % 4 + n)]
    assert sorted(got) == sorted(expected)
    for i in range(6):                                # a lane's iterations stay in order
        mine = [g for g in got if g.startswith("lane %d " % i)]
        assert mine == [e for e in expected if e.startswith("lane %d " % i)]


def test_hip_printf_formats_flags_and_return_value():
    d = np.array([3.14159, -2.5, 12345.678, 0.0001, 1e20, 1.5])
    text, values = run("printf_hip_gfx900_v5.hsaco", "formats", d, np.zeros(1, np.int32),
                       grid=(1,), block=(1,))
    first = "a long format string that spans more than fifty-six bytes: %d %s\n" % (
        7, "and a string argument that is also longer than fifty-six bytes total")
    expected = [
        first[:-1],
        "%+d % d %05d %-6u| %s %#x %X %c%c %%" % (5, 6, -42, 7, "010", 255, 0xBEEF, "o", "k"),
        "%f %.2f %10.4f %-10.1f| %e %.3E %g %G %s" % (d[0], d[1], d[0], d[1], d[2], d[2], d[3],
                                                     d[4], "0x1.8p+0"),
        "%d %d %d %x %s" % (-3, -300, -(1 << 50), 0xFEDCBA9876543210, "0x1234"),
        "empty string: [%s] star: [%*d] [%.*f]" % ("", 6, 42, 2, 3.14159),
    ]
    assert lines(text) == expected
    assert values[1].numpy()[0] == len(first)      # printf returns the characters printed


# ------------------------------------------------- OpenCL through ockl
@pytest.mark.parametrize("target", TARGETS)
def test_opencl_scalars(target):
    a = np.array([-2, -1, 0, 1, 2, 123456], np.int32)
    f = np.array([0, 1.5, -3.25, 1e6, 2.5e-3, 7], np.float32)
    text, _ = run(f"ockl_{target}.hsaco", "scalars", a, f, grid=(6,), block=(3,))
    expected = ["wi %d: a=%d f=%.2f u=%u x=%08x" % (
        i, a[i], f[i], int(a[i]) & 0xFFFFFFFF, (int(a[i]) * 4099) & 0xFFFFFFFF) for i in range(6)]
    assert lines(text) == expected


def test_opencl_vectors_and_strings():
    v = np.arange(16, dtype=np.float32).reshape(4, 4) * np.float32(1.25)
    w = (np.arange(8, dtype=np.int32) - 3).reshape(4, 2)
    text, _ = run("ockl_gfx900_v5.hsaco", "vectors", v, w, grid=(4,), block=(4,))
    expected = ["v=%s w=%s s=vec" % (",".join("%.1f" % e for e in v[i]),
                                     ",".join("%d" % e for e in w[i])) for i in range(4)]
    assert lines(text) == expected


def test_opencl_divergent_printf_and_return_values():
    text, values = run("ockl_gfx803_v5.hsaco", "branches", np.zeros(10, np.int32),
                       grid=(10,), block=(10,))
    expected = {i: ("odd %d" % i) if i & 1 else ("even %d %g" % (i, i * 0.25)) for i in range(10)}
    got = lines(text)
    assert sorted(got) == sorted(expected.values())
    assert list(values[0].numpy()) == [len(expected[i]) + 1 for i in range(10)]


def test_opencl_printf_without_arguments():
    text, _ = run("ockl_gfx900_v4.hsaco", "no_args", grid=(1,), block=(1,))
    assert text == "just text, 100% plain\n"


def test_unsupported_service_fails_the_launch_with_its_name():
    device, program, _ = device_and_program("ockl_gfx900_v5.hsaco")
    with pytest.raises(KernelError, match="SERVICE_FUNCTION_CALL .*not supported"):
        program["host_function"](device.zeros(1, np.int64), grid=(1,), block=(1,))


@pytest.mark.parametrize("target", ["gfx803_v4", "gfx900_v5"])
def test_device_malloc_and_free(target):
    device, program, _ = device_and_program(f"ockl_{target}.hsaco")
    out = device.zeros(20, np.int32)
    before = len(device.memory.allocations())
    program["devmem"](out, np.int32(7), grid=(10,), block=(5,))
    result = out.numpy()
    assert list(result[:10]) == [i * sum(range(7)) for i in range(10)]
    assert list(result[10:]) == [0] * 10          # every free answered
    assert len(device.memory.allocations()) == before


def test_hostcall_buffers_are_released_after_the_launch():
    device, program, _ = device_and_program("ockl_gfx900_v5.hsaco")
    before = len(device.memory.allocations())
    program["no_args"](grid=(1,), block=(1,))
    assert len(device.memory.allocations()) == before
    assert device.agent.processor.host_services == {}


# ------------------------------- plain OpenCL printf (the printf buffer)
@pytest.mark.parametrize("target", ["gfx900_v5", "gfx803_v4"])
def test_plain_opencl_printf_with_vectors(target):
    v = np.arange(16, dtype=np.float32).reshape(4, 4) * np.float32(0.75)
    a = np.array([0, 300, -600, 7], np.int32)
    text, _ = run(f"opencl_printf_{target}.hsaco", "vectors", v, a, grid=(4,), block=(4,))
    expected = []
    for i in range(4):
        hexa = "%#x" % (int(a[i]) & 0xFFFFFFFF) if a[i] else "0"     # C: no 0x before a zero
        expected.append("wi %d v=%s %s a=%5d %s %c %s %s" % (
            i, ",".join("%f" % e for e in v[i]), ",".join("%.2f" % e for e in v[i]), a[i], "s",
            chr(65 + i), hexa, "0x1.8p+0"))
    for i in range(4):
        expected.append("odd %d" % i if i & 1 else "even %d %d,%d" % (i, -i, i))
    assert sorted(lines(text)) == sorted(expected)
    assert lines(text)[:4] == expected[:4]


# ------------------------------------------------------------- the CLI
def test_amdgpu_run_prints_hostcall_output():
    from click.testing import CliRunner
    from amdgpu_tools.cli.run import command
    result = CliRunner().invoke(command, [data_path("hostcall/ockl_gfx900_v5.hsaco"),
                                          "--kernel", "no_args", "--grid", "1"])
    assert result.exit_code == 0, result.output
    assert "just text, 100% plain\n" in result.output


# ------------------------------------------------------ live rebuild
def test_rebuilt_object_prints_the_same(clang19, ld_lld19, tmp_path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "hostcall_build", data_path(os.path.join("hostcall", "build.py")))
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    path = build.build("ockl_gfx900_v5.hsaco", "ockl.cl", "gfx900", 5, str(tmp_path),
                       clang=clang19, lld=ld_lld19)
    out = io.StringIO()
    device = Device(printf_stream=out)
    a = np.array([5, -7], np.int32)
    f = np.array([0.5, -8], np.float32)
    device.load(path)["scalars"](device.array(a), device.array(f), grid=(2,), block=(2,))
    assert out.getvalue() == "".join("wi %d: a=%d f=%.2f u=%u x=%08x\n" % (
        i, a[i], f[i], int(a[i]) & 0xFFFFFFFF, (int(a[i]) * 4099) & 0xFFFFFFFF) for i in range(2))

"""HIP programs of our own, built by hipcc and run unchanged on the virtual GPU.

Each program under programs/ computes its expected results on the host,
checks every HIP call (hip_check.h) and ends with ``PASS <name>``:

- hip_memory.hip: hipMalloc, hipMemcpy in every direction (odd sizes and
  offsets), hipMemset/D8/D16/D32/Async, pinned host memory used by kernels in
  place, hipMemcpy2D, __device__/__constant__ symbols; with ``register``:
  hipHostRegister/hipHostUnregister;
- hip_kernels.hip: shared memory and __syncthreads, dynamic shared memory,
  templates, int/float/double atomics (global and LDS), wave intrinsics,
  2D/3D grids;
- hip_streams.hip: several streams, async copies from pinned memory, events
  and hipEventElapsedTime, hipStreamWaitEvent, callbacks;
- hip_printf.hip: device printf (the test checks the printed lines);
- hip_math.hip: double-precision (and some single-precision) math of the
  device libraries against the host's libm;
- hip_device.hip: hipGetDeviceProperties and attributes (the test checks
  the arch name, compute units, warp size and LDS against the topology).

Every program is one fat binary (gfx803, gfx900, gfx906, see hipbuild) run
once per processor. Skipped without hipcc, the ROCm runtime or what the
thunk's build needs (libhsakmt-dev, gcc).
"""

from __future__ import annotations

import functools

import pytest

from amdgpu_tools.vgpu.topology import COMPUTE_UNITS, LDS_KB
from hipbuild import HIP_TARGETS, build_hip_program
from vgpu_env import require_virtual_gpu, run_on_virtual_gpu

pytestmark = pytest.mark.vgpu

HEADERS = ("hip_check.h",)
#: Seconds a program may run (each takes a few); the kernel watchdog is shorter,
#: so a kernel that never ends is reported by the emulator, not killed.
TIMEOUT = 180
KERNEL_TIMEOUT = 120


@functools.lru_cache(maxsize=None)
def program(source: str):
    """The program's executable, built once per session (and cached by content)."""
    return build_hip_program(source, headers=HEADERS)


def run(source: str, mcpu: str, *args: str, name: str | None = None):
    """Run a program on ``mcpu``; its stdout lines, after checking that it
    passed (its last line ``PASS <name>``, by default the source's stem)."""
    require_virtual_gpu()
    name = name or source.rsplit(".", 1)[0]
    done = run_on_virtual_gpu([program(source), *args], "--mcpu", mcpu,
                              "--timeout", str(KERNEL_TIMEOUT), timeout=TIMEOUT)
    report = f"exit status {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert done.returncode == 0, report
    lines = done.stdout.splitlines()
    assert lines and lines[-1] == f"PASS {name}", report
    return lines


targets = pytest.mark.parametrize("mcpu", HIP_TARGETS)


@targets
def test_memory(mcpu):
    run("hip_memory.hip", mcpu)


@targets
def test_host_register(mcpu):
    """hipHostRegister'ed memory gets a GPU address of its own (HIP 5.2 aborts in
    hipHostUnregister when it equals the host address), used in place by kernels."""
    run("hip_memory.hip", mcpu, "register", name="hip_memory register")


@targets
def test_kernels(mcpu):
    run("hip_kernels.hip", mcpu)


@targets
def test_streams(mcpu):
    lines = run("hip_streams.hip", mcpu)
    times = [line for line in lines if line.startswith("stream ")]
    assert [line.split(":")[0] for line in times] == [f"stream {s}" for s in range(4)]
    for line in times:        # "stream N: T ms (copy in C ms)", both checked by the program
        assert float(line.split()[2]) > 0, line


PRINTF_FORMATS = [
    "hello from the GPU",
    "int 42 neg -17 unsigned 4000000000 hex beef HEX BEEF oct 10",
    "long -1234567890123 ulong 18000000000000000000 llong -9000000000000000000 "
    "hexll 123456789abcdef",
    "width [   42] [42   ] [00042] [+42]",
    "float 1.500000 3.14    -2.7183 1.234568e+04 0.0001 1e+20",
    "char GPU percent % string literal and device string",
    "x=7, y=2.5",
    "loop 0 squared 0",
    "loop 1 squared 1",
]
PRINTF_LANES = [f"lane {lane} of block 0" for lane in range(4)]
PRINTF_BLOCKS = ["block 0 says 100", "block 1 says -200", "block 2 says 300"]


@targets
def test_printf(mcpu):
    lines = run("hip_printf.hip", mcpu)
    formats, lanes, blocks = lines.index("== formats"), lines.index("== lanes"), \
        lines.index("== blocks")
    end = lines.index("== end")
    assert lines[formats + 1:lanes] == PRINTF_FORMATS
    assert lines[lanes + 1:blocks] == PRINTF_LANES          # one wave: lane order
    assert sorted(lines[blocks + 1:end]) == PRINTF_BLOCKS    # work-groups: any order
    assert lines[end + 1:] == ["PASS hip_printf"]


@targets
def test_math(mcpu):
    run("hip_math.hip", mcpu)


@targets
def test_device_properties(mcpu):
    lines = run("hip_device.hip", mcpu, mcpu)
    assert f"device {mcpu} cus {COMPUTE_UNITS} warp 64 lds {LDS_KB * 1024}" in lines


@pytest.mark.parametrize("mcpu, arch", [
    ("gfx900:xnack+", "gfx900:xnack+"),
    ("gfx906:sramecc+", "gfx906:sramecc+:xnack-"),
])
def test_target_id_features_reach_the_runtime(mcpu, arch):
    """--mcpu's feature settings are the node's (HIP's gcnArchName shows them) and
    the fat binary's entry for any setting still runs there."""
    lines = run("hip_device.hip", mcpu, mcpu.split(":")[0])
    assert any(line.startswith("name ") and f"gcnArchName {arch}," in line for line in lines)


def test_kernels_check_clean():
    """hipcc's kernels (shared memory with __syncthreads, atomics, wave intrinsics)
    run under amdgpu-run --check: no hazard, no race reported."""
    require_virtual_gpu()
    done = run_on_virtual_gpu([program("hip_kernels.hip")], "--mcpu", "gfx900", "--check",
                              "--timeout", str(KERNEL_TIMEOUT), timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "PASS hip_kernels"
    assert [line for line in done.stderr.splitlines() if "hazard:" in line] == []

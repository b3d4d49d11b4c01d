"""The virtual GPU: a ROCm program's kernels under ``amdgpu-run --exec``
against the same kernels through the Python API.

bench/data/vgpu_bench.hip is built twice by ROCm 5.2's hipcc for gfx900: as
a program (run under ``amdgpu-run --exec``, through the real HIP runtime and
ROCr on our thunk) and as a device bundle (``--genco``, loaded by
``Device.load``). Both paths run one packet processor and one executor, so
the difference is the runtime path's cost:

- ``vector add 1M``: the best of ``REPEATS`` launches of c = a + b over 1M
  floats (hipLaunchKernelGGL + hipDeviceSynchronize vs kernel call +
  Device.synchronize);
- ``launch``: a one-wave kernel launched and waited for ``LAUNCHES`` times;
  target: the runtime path at most 2x the Python API per launch.

Skipped (one line) without hipcc, the ROCm runtime or the thunk's build
prerequisites.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).parent / "data" / "vgpu_bench.hip"
CACHE = Path(os.environ.get("AMDGPU_TOOLS_BENCH_CACHE", "/tmp/amdgpu-tools-bench-cache"))
ROCR = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1"
VECTOR_ELEMENTS = 1 << 20
REPEATS = 3
LAUNCHES = 200
LAUNCH_RATIO_TARGET = 2.0


def hipcc_build(source: Path, kind: str, *flags: str, libraries=()) -> Path:
    """``hipcc`` output for gfx900 (a program, or with --genco a device bundle),
    cached under CACHE by content."""
    hipcc = shutil.which("hipcc")
    argv = [hipcc, "-O2", "--offload-arch=gfx900", *flags]
    key = hashlib.sha256((" ".join([*argv[1:], *libraries]) + source.read_text())
                         .encode()).hexdigest()[:16]
    output = CACHE / f"{source.stem}.{kind}.{key}"
    if not output.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(argv + [str(source), "-o", f"{output}.tmp", *libraries], check=True,
                       capture_output=True, env=dict(os.environ, HIP_PLATFORM="amd"))
        os.replace(f"{output}.tmp", output)
    return output


def missing(*needed: tuple[str, str]) -> str | None:
    """Why the virtual-GPU benches cannot run here, or None. ``needed``: more
    (path, what installs it) pairs."""
    if shutil.which("hipcc") is None:
        return "hipcc is not installed"
    for path, package in ((ROCR, "the ROCm runtime (libhsa-runtime64-1)"), *needed):
        if not os.path.exists(path):
            return f"{package} is not installed"
    from amdgpu_tools.vgpu.build import BuildError, thunk_library
    try:
        thunk_library()
    except BuildError as error:
        return str(error)
    return None


def exec_lines(program: Path, *args) -> dict:
    """Run a bench program on the virtual GPU (gfx900): its 'name seconds' lines."""
    done = subprocess.run([sys.executable, "-m", "amdgpu_tools.cli.run", "--mcpu", "gfx900",
                           "--exec", str(program), *map(str, args)], capture_output=True,
                          text=True, timeout=1200)
    if done.returncode != 0:
        raise RuntimeError(f"{program.name} {' '.join(map(str, args))} failed:\n{done.stderr}")
    return {name: float(value) for name, value in
            (line.split() for line in done.stdout.splitlines())}


def _api_vector_add(device, program) -> tuple[float, int]:
    n = VECTOR_ELEMENTS
    a = (np.arange(n) % 1000).astype(np.float32) * np.float32(0.25)
    b = (np.arange(n) % 7).astype(np.float32)
    da, db, dc = device.array(a), device.array(b), device.zeros(n, np.float32)
    best = float("inf")
    for repeat in range(REPEATS + 1):          # run 0 warms up
        start = time.perf_counter()
        program["vector_add"](da, db, dc, np.int32(n), grid=(n,), block=(256,))
        device.synchronize()
        if repeat:
            best = min(best, time.perf_counter() - start)
    if not np.array_equal(dc.numpy(), a + b):
        raise RuntimeError("vector add through the Python API gave a wrong result")
    return best, device.last_result.lane_instructions


def _api_launch(device, program) -> float:
    counter = device.zeros(1, np.int32)
    program["tiny"](counter, grid=(64,), block=(64,))
    device.synchronize()
    start = time.perf_counter()
    for _ in range(LAUNCHES):
        program["tiny"](counter, grid=(64,), block=(64,))
        device.synchronize()
    per_launch = (time.perf_counter() - start) / LAUNCHES
    assert int(counter.numpy()[0]) == LAUNCHES + 1
    return per_launch


def main():
    reason = missing()
    if reason:
        print(f"   skipped: {reason}")
        return
    from amdgpu_tools import Device
    program_path = hipcc_build(SOURCE, "exe", "-std=c++17")
    bundle = hipcc_build(SOURCE, "hsaco", "--genco")
    device = Device("gfx900")
    program = device.load(str(bundle))

    api_seconds, lanes = _api_vector_add(device, program)
    vgpu_seconds = exec_lines(program_path, "vadd", VECTOR_ELEMENTS, REPEATS)["vadd"]
    print(f"   vector add 1M   --exec {vgpu_seconds:7.3f} s ({lanes / vgpu_seconds / 1e6:6.1f}M "
          f"lane-instr/s)   Python API {api_seconds:7.3f} s ({lanes / api_seconds / 1e6:6.1f}M)"
          f"   ratio {vgpu_seconds / api_seconds:.2f}x", flush=True)

    api_launch = _api_launch(device, program)
    vgpu_launch = exec_lines(program_path, "launch", LAUNCHES)["launch"]
    ratio = vgpu_launch / api_launch
    verdict = "met" if ratio <= LAUNCH_RATIO_TARGET else "MISSED"
    print(f"   launch (1 wave) --exec {vgpu_launch * 1e3:7.3f} ms   Python API "
          f"{api_launch * 1e3:7.3f} ms   ratio {ratio:.2f}x "
          f"(target <= {LAUNCH_RATIO_TARGET:.0f}x: {verdict})", flush=True)


if __name__ == "__main__":
    main()

"""The cost of hazard checking while kernels run (``Device(check=True)``,
``amdgpu-run --check``): the same kernels with checking off and on.

- bench_exec's kernels (vector add of 1M floats, the 256x256 LDS matmul, the
  single-wave loop): wall time off, on, and the ratio; the results must be
  identical both ways (checking never changes them) and report no hazard;
- a slice of the e2e suite (tests/e2e/test_opencl.py for clang-19 gfx900 -O2
  v5: every OpenCL kernel of the suite, compiled by clang) run by pytest with
  ``AMDGPU_TOOLS_CHECK_HAZARDS`` unset and set (the session fails on any hazard).

Target (issue 12): checking costs at most 3x.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from . import bench_exec

ROOT = Path(__file__).resolve().parents[1]
E2E_SLICE = ["tests/e2e/test_opencl.py", "-k", "clang-19-gfx900-O2-v5"]
TARGET_RATIO = 3.0


def _kernel_ratios():
    from amdgpu_tools import Device
    path, _ = bench_exec.code_object()
    with np.errstate(over="ignore"):
        expected = bench_exec.single_wave_reference(bench_exec.SINGLE_WAVE_ITERATIONS)
    benches = ((bench_exec.bench_vector_add, ()), (bench_exec.bench_matmul, ()),
               (bench_exec.bench_single_wave, (expected,)))
    devices = {False: Device("gfx900"), True: Device("gfx900", check=True)}
    programs = {check: device.load(str(path)) for check, device in devices.items()}
    for bench, extra in benches:
        runs = {}
        for check, device in devices.items():
            bench(device, programs[check], *extra)                 # warm-up
            runs[check] = min((bench(device, programs[check], *extra)
                               for _ in range(bench_exec.REPEATS)), key=lambda r: r.seconds)
        off, on = runs[False], runs[True]
        ok = off.ok and on.ok and not devices[True].hazards
        ratio = on.seconds / off.seconds
        print(f"   {off.name:22s} off {off.seconds:7.3f} s  on {on.seconds:7.3f} s  "
              f"x{ratio:5.2f}  {'OK' if ok else 'WRONG'}  "
              f"(target x{TARGET_RATIO}: {'met' if ratio <= TARGET_RATIO else 'MISSED'})",
              flush=True)


def _e2e_seconds(check):
    env = dict(os.environ)
    env.pop("AMDGPU_TOOLS_CHECK_HAZARDS", None)
    if check:
        env["AMDGPU_TOOLS_CHECK_HAZARDS"] = "1"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *E2E_SLICE], cwd=ROOT, env=env, capture_output=True, text=True)
    tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-200:]
    return time.perf_counter() - start, done.returncode == 0, tail


def main():
    _kernel_ratios()
    _e2e_seconds(False)                                   # builds the slice's kernels once
    off, ok_off, _ = _e2e_seconds(False)
    on, ok_on, tail = _e2e_seconds(True)
    ratio = on / off
    print(f"   {'e2e slice (pytest)':22s} off {off:7.1f} s  on {on:7.1f} s  x{ratio:5.2f}  "
          f"{'OK' if ok_off and ok_on else 'FAILED: ' + tail}  "
          f"(target x{TARGET_RATIO}: {'met' if ratio <= TARGET_RATIO else 'MISSED'})",
          flush=True)


if __name__ == "__main__":
    main()

"""MGPUSim's benchmark kernels on our executor: the shared launch bookkeeping.

MGPUSim (github.com/sarchlab/mgpusim, MIT) ships its benchmark suite as
ROCm-built gfx803 code objects; bench/data/mgpusim/README.md names their commit.
Each module of this package replays one benchmark's host program (written
here in Python from the launches MGPUSim's Go host code makes: arguments,
grid and work-group sizes, number and order of launches) and checks the
result against its own NumPy computation of the algorithm. ``Session`` counts
what the executor reports for every launch so a benchmark's figures cover
all of its launches, not just the last one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent.parent / "data" / "mgpusim"
TARGET = "gfx803"


def code_object(name: str) -> Path | None:
    """The recorded code object ``bench/data/mgpusim/<name>.hsaco``, or None
    when it is absent (the benchmark is then skipped, not failed)."""
    path = DATA / f"{name}.hsaco"
    return path if path.is_file() else None


def groups_of(n: int, size: int) -> int:
    """n rounded up to whole work-groups of ``size`` (the hosts' grid sizes)."""
    return (n + size - 1) // size * size


def relative_error(got, want) -> float:
    """Largest deviation relative to the largest reference magnitude: the
    float32 results of a different summation order against float64."""
    want = np.asarray(want, np.float64)
    scale = max(float(np.abs(want).max()), 1e-30)
    return float(np.abs(np.asarray(got, np.float64) - want).max()) / scale


class Skip(Exception):
    """A benchmark cannot run here (a reference package is missing): reported
    as skipped, like a missing code object."""


@dataclass
class Outcome:
    """One benchmark run: its figures and whether the result checked out."""

    name: str
    size: str
    seconds: float
    cpu_seconds: float
    launches: int
    wave_instructions: int
    lane_instructions: int
    ok: bool
    detail: str = ""
    #: of the wave-instructions, those compiled blocks ran (exec/compiled)
    compiled_instructions: int = 0

    def line(self) -> str:
        rate = self.wave_instructions / max(self.seconds, 1e-9)
        verdict = "OK" if self.ok else "WRONG"
        extra = f" ({self.detail})" if self.detail else ""
        native = self.compiled_instructions / max(self.wave_instructions, 1)
        return (f"   {self.name:20s} {self.seconds:8.3f} s (cpu {self.cpu_seconds:7.3f} s) "
                f"{self.wave_instructions:12,d} wave-instr {rate / 1e6:7.3f}M wave-instr/s "
                f"native {native:4.0%} {self.launches:4d} launches  "
                f"result {verdict}  [{self.size}]{extra}")


class Session:
    """A device plus the sums of the DispatchResults of every launch made
    through ``launch``; the clocks (wall and this process's CPU time, which
    other processes on a shared machine do not inflate) run only inside
    launches, so building the inputs and the NumPy reference do not count
    against the executor."""

    def __init__(self, device, name: str):
        self.device = device
        self.program = device.load(str(code_object(name)))
        self.launches = 0
        self.wave_instructions = 0
        self.lane_instructions = 0
        self.compiled_instructions = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    def launch(self, kernel: str, *args, grid, block):
        """Run ``kernel`` to completion and add its counts (launches are
        synchronous: one AQL packet, waited on)."""
        start, cpu = time.perf_counter(), time.process_time()
        result = self.program[kernel](*args, grid=grid, block=block)
        self.device.synchronize()
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu
        self.launches += 1
        self.wave_instructions += result.wave_instructions
        self.lane_instructions += result.lane_instructions
        self.compiled_instructions += result.compiled_instructions
        return result

    def outcome(self, name: str, size: str, ok: bool, detail: str = "") -> Outcome:
        return Outcome(name, size, self.seconds, self.cpu_seconds, self.launches,
                       self.wave_instructions, self.lane_instructions, bool(ok), detail,
                       self.compiled_instructions)

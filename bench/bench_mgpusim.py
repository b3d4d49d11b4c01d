"""MGPUSim's benchmark kernels on the executor: wall seconds, wave-instructions
and wave-instructions per second of each benchmark's whole launch sequence.

The code objects are MGPUSim's own gfx803 builds (bench/data/mgpusim, see its
README); the host side of each benchmark is bench/mgpusim/<name>.py, which
launches the kernels as MGPUSim's Go host code does and checks the result
against NumPy. Sizes are MGPUSim's command-line options (``SIZES``); the
seconds count only the launches (each run to completion), not building the
inputs or the reference.

Run one or a few: ``MGPUSIM_BENCH=nw,nbody python -m bench mgpusim`` or
``python -m bench.bench_mgpusim nw nbody``; ``MGPUSIM_REPEATS=N`` runs each
N times and reports the fastest, with the first run's seconds (default 3: the
first includes the one-time decoding of each kernel and loading or compiling
its blocks; nw and nbody are printed against their 10M wave-instr/s target);
``MGPUSIM_COMPILE=off|auto|eager|check`` picks when blocks run as native code
(``Device(compile=...)``; the "native" column is the share of
wave-instructions that did). A missing
code object is reported as skipped; a kernel that fails is reported with its
error and the other benchmarks still run.
"""

from __future__ import annotations

import importlib
import os
import sys

from bench.mgpusim import TARGET, Session, Skip, code_object

#: benchmark -> (code object, keyword arguments of its ``run``), in run order
SIZES = {
    "nw": ("nw", {"length": 1536}),
    "nbody": ("nbody", {"particles": 1024, "iterations": 8}),
    "fir": ("fir", {"length": 262144, "taps": 16}),
    "relu": ("relu", {"length": 4194304}),
    "matrixtranspose": ("matrixtranspose", {"width": 2048}),
    "atax": ("atax", {"nx": 2048, "ny": 2048}),
    "bicg": ("bicg", {"nx": 2048, "ny": 2048}),
    "bitonicsort": ("bitonicsort", {"length": 65536}),
    "floydwarshall": ("floydwarshall", {"nodes": 128}),
    "fastwalshtransform": ("fastwalshtransform", {"length": 262144}),
    "kmeans": ("kmeans", {"points": 16384, "clusters": 5, "features": 32, "max_iter": 5}),
    "simpleconvolution": ("simpleconvolution", {"width": 510, "height": 510, "mask_size": 5}),
    "matrixmultiplication": ("matrixmultiplication", {"x": 256, "y": 256, "z": 256}),
    "stencil2d": ("stencil2d", {"rows": 258, "cols": 258, "iterations": 4}),
    "spmv": ("spmv", {"dim": 16384, "sparsity": 0.001}),
    "pagerank": ("pagerank", {"nodes": 1024, "sparsity": 0.01, "iterations": 8}),
    "aes": ("aes", {"length": 262144}),
    "bfs": ("bfs", {"nodes": 8192, "degree": 8}),
    "fft": ("fft", {"nbytes": 524288, "passes": 2}),
}


#: wave-instructions per second the issue asks of the few-wave benchmarks (issue 13)
TARGET_RATES = {"nw": 10e6, "nbody": 10e6}
#: Runs of each benchmark in one process by default: the first includes
#: decoding each kernel and loading (or compiling) its blocks, the best of the
#: others is the steady state the targets are about.
REPEATS = 3


def selected(argv) -> list[str]:
    """The benchmarks named on the command line or in MGPUSIM_BENCH (all by default)."""
    names = list(argv) or [n for n in os.environ.get("MGPUSIM_BENCH", "").split(",") if n]
    unknown = [n for n in names if n not in SIZES]
    if unknown:
        raise SystemExit(f"bench_mgpusim: unknown benchmark(s) {', '.join(unknown)} "
                         f"(known: {', '.join(SIZES)})")
    return names or list(SIZES)


def run_one(device, name: str, repeats: int = 1) -> str:
    """One benchmark's report line (skipped, failed or its figures)."""
    obj, kwargs = SIZES[name]
    if code_object(obj) is None:
        return f"   {name:20s} skipped: bench/data/mgpusim/{obj}.hsaco is absent"
    module = importlib.import_module(f"bench.mgpusim.{name}")
    outcomes = []
    for _ in range(repeats):
        session = Session(device, obj)
        try:
            outcomes.append(module.run(session, **kwargs))
        except Skip as why:
            return f"   {name:20s} skipped: {why}"
        except Exception as error:        # a kernel the executor cannot run: report, go on
            return f"   {name:20s} FAILED after {session.launches} launches: " \
                   f"{type(error).__name__}: {error}"
    wrong = [o for o in outcomes if not o.ok]
    best = (wrong or sorted(outcomes, key=lambda o: o.seconds))[0]
    line = best.line()
    if len(outcomes) > 1:
        line += f"  (best of {len(outcomes)}; the first {outcomes[0].seconds:.3f} s)"
    target = TARGET_RATES.get(name)
    if target and not wrong:
        rate = best.wave_instructions / max(best.seconds, 1e-9)
        line += f"  (target {target / 1e6:.0f}M: {'met' if rate >= target else 'MISSED'})"
    return line


def main(argv=()):
    from amdgpu_tools import Device
    mode = os.environ.get("MGPUSIM_COMPILE")
    device = Device(TARGET, compile=mode)
    if mode:
        print(f"   compiled blocks: {mode}", flush=True)
    repeats = max(1, int(os.environ.get("MGPUSIM_REPEATS", str(REPEATS))))
    for name in selected(argv):
        print(run_one(device, name, repeats), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

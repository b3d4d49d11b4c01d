"""Run every benchmark: ``python -m bench`` (``make bench``).

Each ``bench/bench_*.py`` module exposes ``main()``, which measures one stage
and prints its figures (throughput and the ratio to the LLVM tool where one
exists). Performance targets live here, never in timed tests.
"""

import importlib
import pathlib
import sys
import time


def main(selected=None):
    here = pathlib.Path(__file__).parent
    names = sorted(p.stem for p in here.glob("bench_*.py"))
    if selected:
        names = [n for n in names if any(s in n for s in selected)]
    for name in names:
        print(f"== {name}", flush=True)
        start = time.perf_counter()
        importlib.import_module(f"bench.{name}").main()
        print(f"   ({time.perf_counter() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

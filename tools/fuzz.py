"""Fuzzing the toolchain: mutated assembly files, code objects and launch specs.

    python -m tools.fuzz                       # full size: 10,000 + 10,000 + 1,000 cases
    python -m tools.fuzz --asm 50 --objects 50 --specs 10    # a small run

Every case is derived from a fixed seed and its own number, so a run is
reproducible and one case can be replayed (``--only KIND:NUMBER``). Each input
goes through the public entry points a user reaches: the assembler
(``assemble``), ``amdgpu-objdump`` (-d, --notes, --kernels), the linker and the
loader (``Device.load``), and ``amdgpu-run --spec``. An input may be rejected with
a ``ToolchainError`` (a readable error: that is the point); anything else is
counted:

- traceback: another exception escaped (or a CLI reported an internal error),
- hang: a case ran past ``--timeout`` seconds,
- crash: the worker process died (a signal, the OOM killer).

Cases run in worker processes (``--jobs``); the summary line per kind gives the
counts, and the process exits 1 when any of them is not 0.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("asm", "objects", "specs")
FULL_SIZE = {"asm": 10_000, "objects": 10_000, "specs": 1_000}
DEFAULT_SEED = 20240614
CHUNK = 25

#: a whole word that a mutation may put in place of another
_INTERESTING_INTS = [0, 1, -1, 2, 7, 63, 64, 65, 255, 256, 1023, 1024, 4096, 65535, 65536,
                     0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 32, (1 << 63) - 1, 1 << 64]
_INTERESTING_WORDS = ["v0", "v255", "v[0:1]", "s0", "s[0:1]", "s101", "vcc", "exec", "m0",
                      "0x0", "-1", "1.0", "0.5", "off", "glc", "offset:4095", ".text",
                      ".rodata", "@function", "s_endpgm", "v_mov_b32", "1e30", "\"x\"",
                      "lit(1)", "{", "}", ":", ",", "(", ")", "-", "+", "*", "<<", "'"]


class CaseTimeout(Exception):
    """A case ran past its time limit."""


# ----------------------------------------------------------------- corpora
def _read_texts(patterns, limit_bytes=24_000):
    texts = []
    for pattern in patterns:
        for path in sorted(ROOT.glob(pattern)):
            if path.stat().st_size <= limit_bytes:
                texts.append((path.relative_to(ROOT).as_posix(), path.read_text("utf-8",
                                                                                  "replace")))
    return texts


def asm_corpus():
    return _read_texts(["samples/*.s", "tests/runtime/data/src/*.s", "tests/asm/golden/*.s",
                        "tests/asm/clang/*.s"])


def _target_of(text: str) -> str:
    for line in text.splitlines()[:3]:
        if "mcpu=" in line:
            return line.split("mcpu=", 1)[1].split()[0]
        if ".amdgcn_target" in line and "gfx" in line:
            return "gfx" + line.split("gfx", 1)[1].split('"')[0].split(":")[0]
    return "gfx803" if ".hsa_code_object_isa" in text else "gfx900"


def object_corpus():
    """(name, bytes): recorded code objects, and the samples assembled and linked."""
    from amdgpu_tools.asm import assemble
    from amdgpu_tools.link import link
    objects = []
    for path in sorted((ROOT / "tests" / "runtime" / "data").glob("*.hsaco")) + \
            sorted((ROOT / "tests" / "runtime" / "data").glob("*.o")):
        objects.append((path.name, path.read_bytes()))
    for name, text in _read_texts(["samples/*.s"]):
        try:
            obj = assemble(text, target=_target_of(text))
        except Exception:
            continue
        objects.append((name + ".o", obj))
        try:
            objects.append((name + ".hsaco", link([obj])))
        except Exception:
            pass
    return objects


def spec_corpus(work: Path):
    """Launch specs (YAML text) over the hello-world and vector-add samples."""
    import numpy as np
    data = work / "a.npy"
    np.save(data, np.arange(256, dtype=np.float32))
    np.save(work / "twice.npy", 2 * np.arange(256, dtype=np.float32))
    hello = ROOT / "tests" / "runtime" / "data" / "hello_world_v2.hsaco"
    from amdgpu_tools.asm import assemble
    from amdgpu_tools.link import link
    vadd = work / "vector_add.hsaco"
    vadd.write_bytes(link([assemble((ROOT / "samples" / "vector_add.s").read_text(),
                                    target="gfx900")]))
    return [
        f"name: hello\ncode_object: {hello}\nbuffers:\n  out: {{zeros: 4, dtype: float32}}\n"
        "launches:\n  - kernel: hello_world\n    grid: [64, 1, 1]\n    block: [64, 1, 1]\n"
        "    args: [{buf: out}]\nexpect:\n  out: {data: [3.14159, 0, 0, 0], rtol: 0.000001}\n",
        f"name: vadd\ncode_object: {vadd}\nbuffers:\n  a: {{file: {data}}}\n"
        "  out: {zeros: 256, dtype: float32}\nlaunches:\n  - kernel: vector_add\n"
        "    grid: [256, 1, 1]\n    block: [64, 1, 1]\n"
        "    args: [{buf: a}, {buf: a}, {buf: out}, {i32: 256}]\n"
        f"expect:\n  out: {{file: {work / 'twice.npy'}, rtol: 0.0, atol: 0.0}}\n",
    ]


# ---------------------------------------------------------------- mutators
def mutate_text(rng: random.Random, text: str) -> str:
    lines = text.splitlines() or [""]
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(9)
        i = rng.randrange(len(lines))
        if choice == 0 and len(lines) > 1:
            del lines[i]
        elif choice == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif choice == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif choice == 3:                      # a number -> an interesting one
            words = lines[i].split(" ")
            k = rng.randrange(len(words))
            value = rng.choice(_INTERESTING_INTS)
            words[k] = rng.choice([str(value), hex(value), str(-value)])
            lines[i] = " ".join(words)
        elif choice == 4:                      # a word -> an interesting word
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = rng.choice(_INTERESTING_WORDS)
            lines[i] = " ".join(words)
        elif choice == 5 and lines[i]:         # one character changed
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + chr(rng.choice([0, 9, 34, 35, 44, 58, 59, 92, 0xFF,
                                                      rng.randrange(32, 127)])) + \
                lines[i][k + 1:]
        elif choice == 6:                      # truncated
            lines = lines[:i + 1]
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
        elif choice == 7:                      # a directive with interesting arguments
            lines.insert(i, rng.choice([".byte", ".long", ".quad", ".fill", ".zero", ".p2align",
                                        ".align", ".rept", ".set x,", ".size", ".section",
                                        ".amdhsa_next_free_vgpr", ".endr", ".if", ".endif",
                                        ".macro m", ".endm", ".include", ".incbin"])
                         + " " + ", ".join(str(rng.choice(_INTERESTING_INTS))
                                           for _ in range(rng.randint(0, 3))))
        else:                                  # a line of another line's words, reordered
            words = lines[rng.randrange(len(lines))].split()
            rng.shuffle(words)
            lines[i] = " ".join(words)
    return "\n".join(lines) + "\n"


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        if not data:
            break
        choice = rng.randrange(7)
        # favour the ELF header, the program/section headers and the notes
        i = rng.randrange(min(len(data), 256)) if rng.random() < 0.3 else rng.randrange(len(data))
        if choice == 0:
            data[i] ^= 1 << rng.randrange(8)
        elif choice == 1:
            data[i] = rng.choice([0, 1, 0x7F, 0x80, 0xFF])
        elif choice in (2, 3):                 # a 2/4/8-byte field -> an interesting value
            size = rng.choice([2, 4, 8])
            value = rng.choice(_INTERESTING_INTS) & ((1 << (8 * size)) - 1)
            data[i:i + size] = value.to_bytes(size, "little")
        elif choice == 4:
            del data[rng.randrange(len(data)):]
        elif choice == 5:                      # a block copied elsewhere
            j, n = rng.randrange(len(data)), rng.randint(1, 64)
            data[i:i + n] = data[j:j + n]
        else:
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return bytes(data)


def mutate_spec(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        choice = rng.randrange(5)
        i = rng.randrange(len(lines))
        if choice == 0:
            for token in ("64", "256", "4", "1", "float32", "3.14159", "0", "1e-6"):
                if token in lines[i]:
                    replacement = rng.choice([str(rng.choice(_INTERESTING_INTS)), "-3", "1.5",
                                              "null", "[]", "{}", "'x'", "int8", "float99",
                                              "[1, 2, 3, 4]", "2048", "0"])
                    lines[i] = lines[i].replace(token, replacement, 1)
                    break
        elif choice == 1 and len(lines) > 1:
            del lines[i]
        elif choice == 2:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif choice == 3:
            lines[i] = lines[i].replace(rng.choice(["buf", "i32", "kernel", "grid", "block",
                                                   "zeros", "file", "args", "dtype"]),
                                        rng.choice(["local", "u64", "f64", "shape", "values",
                                                    "", "x", "kernel"]), 1)
        else:
            lines[i] = mutate_text(rng, lines[i]).rstrip("\n")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------- cases
def _cli(main, argv) -> None:
    """Run a CLI in-process; its internal-error status (70) is a traceback."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    if status == 70 or "Traceback" in err.getvalue():
        raise AssertionError(f"{argv[0]}: {err.getvalue().strip()[:300]}")
    return status


class Worker:
    """Builds the corpora once per process and runs numbered cases."""

    def __init__(self, seed: int):
        self.seed = seed
        self.work = Path(tempfile.mkdtemp(prefix="amdgpu-fuzz-"))
        self.asm = asm_corpus()
        self.objects = object_corpus()
        self.specs = spec_corpus(self.work)

    def rng(self, kind: str, number: int) -> random.Random:
        return random.Random(f"{self.seed}:{kind}:{number}")

    def run_asm(self, number: int) -> None:
        from amdgpu_tools.asm import assemble
        rng = self.rng("asm", number)
        name, text = rng.choice(self.asm)
        assemble(mutate_text(rng, text), target=_target_of(text), filename=name)

    def run_objects(self, number: int) -> None:
        from amdgpu_tools import Device
        from amdgpu_tools.cli.objdump import main as objdump
        from amdgpu_tools.errors import ToolchainError
        from amdgpu_tools.link import link
        rng = self.rng("objects", number)
        name, data = rng.choice(self.objects)
        data = mutate_bytes(rng, data)
        path = self.work / f"o{os.getpid()}"
        path.write_bytes(data)
        for option in ("-d", "--notes", "--kernels"):
            _cli(objdump, [option, str(path)])
        rejected = 0
        for step in (lambda: link([data]), lambda: Device().load(data)):
            try:
                step()
            except ToolchainError:
                rejected += 1
        return "rejected" if rejected == 2 else "ok"

    def run_specs(self, number: int) -> None:
        from amdgpu_tools.cli.run import main as run
        rng = self.rng("specs", number)
        spec = self.work / f"s{os.getpid()}.yaml"
        spec.write_text(mutate_spec(rng, rng.choice(self.specs)))
        return "ok" if _cli(run, ["--spec", str(spec), "--max-instructions", "200000",
                                  "--timeout", "5"]) == 0 else "rejected"


_WORKER = None


def _alarm(signum, frame):
    raise CaseTimeout()


def run_chunk(kind: str, numbers: list, seed: int, timeout: float) -> list:
    """(number, outcome, detail) for each case: ok, rejected, traceback, hang."""
    global _WORKER
    from amdgpu_tools.errors import ToolchainError
    if _WORKER is None or _WORKER.seed != seed:
        _WORKER = Worker(seed)
    signal.signal(signal.SIGALRM, _alarm)
    results = []
    for number in numbers:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            outcome = getattr(_WORKER, f"run_{kind}")(number) or "ok"
            detail = ""
        except CaseTimeout:
            outcome, detail = "hang", f"more than {timeout} s"
        except ToolchainError:
            outcome, detail = "rejected", ""
        except BaseException as failure:   # noqa: BLE001 - what the fuzzer is looking for
            outcome = "traceback"
            detail = "".join(traceback.format_exception_only(type(failure), failure)).strip()
            detail += " | " + traceback.format_tb(failure.__traceback__)[-1].strip() \
                .replace("\n", " ")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        results.append((number, outcome, detail[:500]))
    return results


def fuzz(counts: dict, seed: int = DEFAULT_SEED, jobs: int = 2, timeout: float = 20.0,
         echo=print) -> dict:
    """Run the cases; returns {kind: {outcome: count}} and echoes each failure."""
    summary = {}
    for kind in KINDS:
        total = counts.get(kind, 0)
        tally = {"ok": 0, "rejected": 0, "traceback": 0, "hang": 0, "crash": 0}
        started = time.monotonic()
        chunks = [list(range(start, min(start + CHUNK, total)))
                  for start in range(0, total, CHUNK)]
        while chunks:
            broken = []
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = [(chunk, pool.submit(run_chunk, kind, chunk, seed, timeout))
                           for chunk in chunks]
                for chunk, future in futures:
                    try:
                        for number, outcome, detail in future.result():
                            tally[outcome] += 1
                            if outcome in ("traceback", "hang"):
                                echo(f"{kind}:{number}: {outcome}: {detail}")
                    except BrokenProcessPool:
                        broken.append(chunk)
            # a dead worker breaks the pool: rerun those cases one per process
            chunks = []
            for chunk in broken:
                if len(chunk) == 1:
                    tally["crash"] += 1
                    echo(f"{kind}:{chunk[0]}: crash: the worker process died")
                else:
                    chunks.extend([n] for n in chunk)
        tally["seconds"] = round(time.monotonic() - started, 1)
        summary[kind] = tally
        echo(f"{kind}: {total} cases in {tally['seconds']} s: {tally['ok']} accepted, "
             f"{tally['rejected']} rejected with an error, tracebacks {tally['traceback']}, "
             f"hangs {tally['hang']}, crashes {tally['crash']}")
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.fuzz", description=__doc__.split(
        "\n\n")[0])
    for kind in KINDS:
        parser.add_argument(f"--{kind}", type=int, default=FULL_SIZE[kind],
                            help=f"number of {kind} cases (default {FULL_SIZE[kind]})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--jobs", type=int, default=max(1, os.cpu_count() or 1))
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per case")
    parser.add_argument("--only", help="replay one case, KIND:NUMBER (in this process)")
    args = parser.parse_args(argv)
    if args.only:
        kind, _, number = args.only.partition(":")
        print(run_chunk(kind, [int(number)], args.seed, args.timeout))
        return 0
    summary = fuzz({kind: getattr(args, kind) for kind in KINDS}, args.seed, args.jobs,
                   args.timeout)
    bad = sum(t[k] for t in summary.values() for k in ("traceback", "hang", "crash"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

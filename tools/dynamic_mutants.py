"""Deleted-wait mutants of clang's kernels, run by the e2e tests with checking.

    python -m tools.dynamic_mutants [CONFIG] [SOURCE,...]

CONFIG is one of tests/e2e/test_opencl.py's configurations written as
``clang-19:gfx900:-O2:5`` (default), SOURCE the e2e OpenCL files (default: all
those test_opencl.py's tests use). For every ``s_waitcnt`` whose load result
is read later in its block (the mutants the static checker must report, as
``tests/analysis/test_hazards.py`` selects them), the wait is replaced by
``s_nop 0`` and every e2e test that uses the source runs on the mutant with
``Device(check=True)``. A mutant counts as *launched* when a test launched its
kernel; every launched mutant should be reported (raw, waw, war or barrier).
Prints each launched but unreported mutant and the totals.
"""

from __future__ import annotations

import collections
import inspect
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "e2e"), str(ROOT / "tests" / "analysis")]

import test_opencl as opencl                       # noqa: E402
from test_hazards import _protected_read           # noqa: E402

from amdgpu_tools import Device                    # noqa: E402
from amdgpu_tools.analysis.cfg import control_flow_graphs  # noqa: E402
from amdgpu_tools.elf.reader import read_elf        # noqa: E402

S_NOP_0 = (0xBF800000).to_bytes(4, "little")
COUNTER_RULES = ("raw", "waw", "war", "barrier")


class LaunchRecorder:
    """A loaded program that remembers which kernels were asked for."""

    def __init__(self, program):
        self.program, self.used = program, set()

    def __getitem__(self, name):
        self.used.add(name)
        return self.program[name]

    def __getattr__(self, name):
        return getattr(self.program, name)


def _fresh(config, source):
    device = Device()
    return device, device.load(str(opencl.build(config, source)))


def tests_by_source(config):
    """{source: [e2e test functions that build it]} (each test run once to see)."""
    tests = [f for n, f in vars(opencl).items() if n.startswith("test_") and callable(f)
             and list(inspect.signature(f).parameters) == ["toolchain"]]
    uses = collections.defaultdict(list)
    for test in tests:
        seen = set()

        def probe(source, seen=seen):
            seen.add(source)
            return _fresh(config, source)
        test(probe)
        for source in seen:
            uses[source].append(test)
    return uses


def mutants(config, source):
    """(kernel, address, code object bytes) of every deleted-wait mutant of ``source``."""
    data = opencl.build(config, source).read_bytes()
    elf = read_elf(data)
    text = elf.section(".text")
    for graph in control_flow_graphs(elf):
        for block in graph.blocks:
            for index, (address, inst) in enumerate(block.instructions):
                if inst.op == "s_waitcnt" and _protected_read(block, index):
                    at = text.offset + address - text.addr
                    yield graph.name, address, data[:at] + S_NOP_0 + data[at + 4:]


def run_mutant(config, source, image, tests, folder):
    """(kernels launched, counter hazards reported) of one mutant."""
    path = folder / f"{source}.hsaco"
    path.write_bytes(image)
    device = Device(config[1], check=True)
    program = LaunchRecorder(device.load(str(path)))

    def toolchain(name):
        return (device, program) if name == source else _fresh(config, name)
    for test in tests:
        try:
            test(toolchain)
        except Exception:          # a wrong result is expected: the mutant is broken
            pass
    return program.used, [h for h in device.hazards if h.rule in COUNTER_RULES]


def main(argv):
    config = tuple(argv[0].split(":")) if argv else ("clang-19", "gfx900", "-O2", "5")
    config = config[:3] + (int(config[3]),)
    uses = tests_by_source(config)
    sources = argv[1].split(",") if len(argv) > 1 else sorted(uses)
    totals = collections.Counter()
    folder = pathlib.Path(tempfile.mkdtemp())
    for source in sources:
        for kernel, address, image in mutants(config, source):
            used, hazards = run_mutant(config, source, image, uses[source], folder)
            launched = kernel in used
            totals.update(mutants=1, launched=launched, reported=launched and bool(hazards))
            if launched and not hazards:
                print(f"not reported: {source} {kernel} s_waitcnt at 0x{address:x}", flush=True)
    print(f"{':'.join(map(str, config))}: {totals['mutants']} mutants, {totals['launched']} "
          f"launched, {totals['reported']} of them reported")
    return 0 if totals["reported"] == totals["launched"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

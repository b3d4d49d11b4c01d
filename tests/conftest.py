"""Shared fixtures: the LLVM reference tools, skipped cleanly when absent."""

import os

import pytest

# Blocks compiled in the test process (compile="eager"/"check") at LLVM level 1,
# as the background compiler compiles them: half the compile time of level 3.
os.environ.setdefault("NUMBA_OPT", "1")

from reftools import REFERENCE_TOOLS, ROCM_BITCODE, find_tool, require_tool, run_tool  # noqa: F401


@pytest.fixture
def llvm_mc14():
    return require_tool("llvm-mc-14")


@pytest.fixture
def llvm_mc19():
    return require_tool("llvm-mc-19")


@pytest.fixture
def ld_lld19():
    return require_tool("ld.lld-19")


@pytest.fixture
def llvm_readelf19():
    return require_tool("llvm-readelf-19")


@pytest.fixture
def llvm_objdump19():
    return require_tool("llvm-objdump-19")


@pytest.fixture
def clang19():
    path = require_tool("clang-19")
    if not os.path.isdir(ROCM_BITCODE):
        pytest.skip("rocm-device-libs is not installed")
    return path


@pytest.fixture
def clang14():
    return require_tool("clang-14")


# AMDGPU_TOOLS_CHECK_EFFECTS=1: every kernel any test runs is watched by the
# isa.effects oracle (tests/effects_oracle.py); the session fails on a register
# changed by an instruction whose effects do not list it.
#
# AMDGPU_TOOLS_CHECK_HAZARDS=1: every kernel any test runs through the runtime is
# checked for hazards (analysis.hazard_monitor); the session fails on any report.
HAZARDS = []


#: [dispatches that asked for workers, those that ran in workers] (AMDGPU_TOOLS_TEST_WORKERS)
WORKER_DISPATCHES = [0, 0]


def _workers_everywhere(count):
    """AMDGPU_TOOLS_TEST_WORKERS=N (make fuzz): every Device asks for N jobs by
    default, and every dispatch of 2 waves or more that may run in workers
    does (``exec.core.parallel``: no minimum size, no cost model), so the
    suite's expected values check the results of N processes."""
    from amdgpu_tools.exec.core import parallel
    from amdgpu_tools.runtime import api
    api.default_jobs = lambda: count
    parallel.MIN_PARALLEL_WAVES = 2
    parallel.WORKER_SECONDS = 0.0
    original = parallel.worker_count

    def counting(*args, **kwargs):
        jobs = original(*args, **kwargs)
        WORKER_DISPATCHES[0] += 1
        WORKER_DISPATCHES[1] += jobs > 1
        return jobs
    parallel.worker_count = counting


def pytest_sessionstart(session):
    if os.environ.get("AMDGPU_TOOLS_TEST_WORKERS"):
        _workers_everywhere(int(os.environ["AMDGPU_TOOLS_TEST_WORKERS"]))
    if os.environ.get("AMDGPU_TOOLS_CHECK_EFFECTS"):
        import effects_oracle
        from amdgpu_tools.exec import dispatch
        dispatch.Tracer = effects_oracle.EffectsOracle
    if os.environ.get("AMDGPU_TOOLS_CHECK_HAZARDS"):
        from amdgpu_tools.runtime import processor
        original = processor.PacketProcessor.__init__

        def checking(self, *args, **kwargs):
            original(self, *args, **kwargs)
            self.check, self.hazard_sink = "report", HAZARDS.extend
        processor.PacketProcessor.__init__ = checking


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("AMDGPU_TOOLS_TEST_WORKERS"):
        print(f"\nworkers: {WORKER_DISPATCHES[1]} of {WORKER_DISPATCHES[0]} dispatches that "
              f"asked for workers ran in them")
    if os.environ.get("AMDGPU_TOOLS_CHECK_EFFECTS"):
        import effects_oracle
        seen = sorted(set(effects_oracle.VIOLATIONS))
        print(f"\neffects oracle: {sum(effects_oracle.CHECKED.values())} instructions of "
              f"{len(effects_oracle.CHECKED)} ops checked, {len(seen)} violations")
        for line in seen[:200]:
            print("  " + line)
        if seen:
            session.exitstatus = 1
    if os.environ.get("AMDGPU_TOOLS_CHECK_HAZARDS"):
        seen = sorted({h.describe() for h in HAZARDS})
        print(f"\nhazard check: {len(seen)} distinct hazards")
        for line in seen[:200]:
            print("  " + line)
        if seen:
            session.exitstatus = 1


@pytest.fixture
def forked_workers(monkeypatch):
    """``forked_workers(batch_waves)``: dispatches cut into batches of ``batch_waves``
    waves and run in worker processes from 2 waves on, however short; returns the list of worker
    counts each dispatch that forked its workers used (a dispatch the kept workers of the
    one before took forks none; tests of ``jobs``)."""
    from amdgpu_tools.exec.core import dispatch, parallel, workers

    def make(batch_waves):
        if os.environ.get("AMDGPU_TOOLS_COMPILE") == "check":
            # checked blocks run in one process (exec/core/parallel.py): under
            # make fuzz's check mode the workers run their blocks compiled
            monkeypatch.setenv("AMDGPU_TOOLS_COMPILE", "eager")
        monkeypatch.setattr(dispatch, "MAX_BATCH_WAVES", batch_waves)
        monkeypatch.setattr(parallel, "MIN_PARALLEL_WAVES", 2)
        monkeypatch.setattr(parallel, "WORKER_SECONDS", 0.0)     # always worth a worker
        calls = []
        real = workers.start_pool

        def spy(count, work, **options):
            calls.append(count)
            return real(count, work, **options)
        monkeypatch.setattr(workers, "start_pool", spy)
        return calls
    yield make
    workers.close_pool()            # no test inherits another's workers


@pytest.fixture
def own_compiler(monkeypatch):
    """A background block compiler (exec/compiled/server.py) of the test's
    own, for a test that waits for it: the process's one may still be
    working through the blocks earlier tests handed it (the end-to-end
    tests, from a cold cache, hand it hundreds). (A test that forks workers
    names it first: its server ends once the workers, which hold its input
    too, are gone.)"""
    from amdgpu_tools.exec.compiled import server
    compiler = server.Compiler()
    monkeypatch.setattr(server, "_COMPILER", compiler)
    yield compiler
    if compiler._process is not None:
        compiler._process.stdin.close()
        compiler._process.wait(timeout=60)

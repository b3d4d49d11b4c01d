"""Shared fixtures: the LLVM reference tools, skipped cleanly when absent."""

import os

import pytest

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
def pytest_sessionstart(session):
    if os.environ.get("AMDGPU_TOOLS_CHECK_EFFECTS"):
        import effects_oracle
        from amdgpu_tools.exec import dispatch
        dispatch.Tracer = effects_oracle.EffectsOracle


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("AMDGPU_TOOLS_CHECK_EFFECTS"):
        import effects_oracle
        seen = sorted(set(effects_oracle.VIOLATIONS))
        print(f"\neffects oracle: {sum(effects_oracle.CHECKED.values())} instructions of "
              f"{len(effects_oracle.CHECKED)} ops checked, {len(seen)} violations")
        for line in seen[:200]:
            print("  " + line)
        if seen:
            session.exitstatus = 1

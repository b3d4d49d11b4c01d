"""Compiled OpenCL: generic pointers into private and local memory.

``data/mem_generic.cl`` passes a private array and a slice of LDS to
non-inlined functions taking generic pointers (flat instructions through the
apertures) and also touches both directly (private segment buffer MUBUF and
DS instructions).  The code objects clang-19 made from it are recorded next
to it; with clang-19 and ld.lld-19 installed the source is rebuilt too.
"""

import subprocess
from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools import Device, LocalMemory
from conftest import find_tool

DATA = Path(__file__).parent / "data"
TARGETS = ("gfx803", "gfx900")


def expected(count):
    gid = np.arange(count)
    lid = gid % 64
    private = gid[:, None] + np.arange(8)[None, :]
    private[gid, gid & 7] += 1000
    total = (private * np.arange(1, 9)).sum(axis=1)
    neighbour = gid - lid + (lid + 1) % 64
    return total + neighbour * 2 + 3


def run(code_object):
    device = Device()
    program = device.load(str(code_object))
    out = device.zeros(256, np.int32)
    program["generic_memory"](out, LocalMemory(64 * 16), grid=(256,), block=(64,))
    device.synchronize()
    return out.numpy()


@pytest.mark.parametrize("cpu", TARGETS)
def test_recorded_code_object(cpu):
    assert run(DATA / f"mem_generic_{cpu}.hsaco").tolist() == expected(256).tolist()


@pytest.mark.llvm
@pytest.mark.parametrize("cpu", TARGETS)
def test_freshly_compiled(cpu, tmp_path):
    clang, lld = find_tool("clang-19"), find_tool("ld.lld-19")
    if clang is None or lld is None:
        pytest.skip("clang-19 / ld.lld-19 are not installed")
    obj, hsaco = tmp_path / "k.o", tmp_path / "k.hsaco"
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-x", "cl",
                    "-cl-std=CL2.0", "-nogpulib", "-O2", "-c", str(DATA / "mem_generic.cl"),
                    "-o", str(obj)], check=True, capture_output=True)
    subprocess.run([lld, "-shared", str(obj), "-o", str(hsaco)], check=True,
                   capture_output=True)
    assert run(hsaco).tolist() == expected(256).tolist()

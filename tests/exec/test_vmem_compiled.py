"""Code clang-19 generated from LLVM's buffer intrinsics, run on the executor.

- d16 typed access (``data/vmem_d16.ll``): LLVM decides how the 16-bit
  components sit in VGPRs (four VGPRs, low halves, on gfx803; two packed
  VGPRs on gfx900) and packs/unpacks them itself, so the kernels check the
  executor's d16 layout against LLVM's, not against our reading of the manuals.
- loads to LDS (``data/vmem_lds_dma.ll``): LLVM sets M0 from an LDS pointer
  and reads the slots back with ordinary LDS loads (M0 + 4 * lane).

The code objects built from the sources are recorded next to them; with
clang-19 and ld.lld-19 installed the sources are rebuilt too.
"""

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools import Device
from conftest import find_tool

DATA = Path(__file__).parent / "data"
TARGETS = ("gfx803", "gfx900")


def check_lds_dma(code_object):
    device = Device()
    program = device.load(str(code_object))
    data = np.arange(256, dtype=np.uint32) * 7 + 1
    out = device.zeros(128, np.uint32)
    program["lds_dma"](device.array(data), out, grid=(128,), block=(128,))
    device.synchronize()
    # each item reads the slot its right-hand neighbour (in the group) filled
    assert out.numpy().tolist() == data[(np.arange(128) + 1) % 128].tolist()


def check(code_object):
    device = Device()
    program = device.load(str(code_object))
    codes = np.random.default_rng(3).integers(0, 256, 256).astype(np.uint8)
    out = device.zeros(256, np.float16)
    program["d16_load"](device.array(codes), out, grid=(64,), block=(64,))
    device.synchronize()
    # 8_8_8_8 unorm read as halves: code / 255
    want = (codes / 255.0).astype(np.float16)
    assert out.numpy().view(np.uint16).tolist() == want.view(np.uint16).tolist()
    halves = (np.random.default_rng(4).standard_normal(256) * 10).astype(np.float16)
    out = device.zeros(256, np.float16)
    program["d16_store"](device.array(halves), out, grid=(64,), block=(64,))
    device.synchronize()
    want = (halves.reshape(64, 4) + np.array([1, 2, 3, 4], np.float16)).ravel()
    assert out.numpy().view(np.uint16).tolist() == want.view(np.uint16).tolist()


@pytest.mark.parametrize("cpu", TARGETS)
def test_recorded_code_object(cpu):
    check(DATA / f"vmem_d16_{cpu}.hsaco")


@pytest.mark.parametrize("cpu", TARGETS)
def test_recorded_lds_dma_code_object(cpu):
    check_lds_dma(DATA / f"vmem_lds_dma_{cpu}.hsaco")


def build(clang, lld, source, cpu, tmp_path):
    obj, hsaco = tmp_path / f"{source.stem}.o", tmp_path / f"{source.stem}.hsaco"
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-nogpulib", "-O2",
                    "-c", str(source), "-o", str(obj)], check=True, capture_output=True)
    subprocess.run([lld, "-shared", str(obj), "-o", str(hsaco)], check=True,
                   capture_output=True)
    return hsaco


@pytest.mark.llvm
@pytest.mark.parametrize("cpu", TARGETS)
def test_freshly_compiled_lds_dma(cpu, tmp_path):
    clang, lld = find_tool("clang-19"), find_tool("ld.lld-19")
    if clang is None or lld is None:
        pytest.skip("clang-19 / ld.lld-19 are not installed")
    check_lds_dma(build(clang, lld, DATA / "vmem_lds_dma.ll", cpu, tmp_path))


@pytest.mark.llvm
@pytest.mark.parametrize("cpu", TARGETS)
def test_freshly_compiled(cpu, tmp_path):
    clang, lld = find_tool("clang-19"), find_tool("ld.lld-19")
    if clang is None or lld is None:
        pytest.skip("clang-19 / ld.lld-19 are not installed")
    hsaco = build(clang, lld, DATA / "vmem_d16.ll", cpu, tmp_path)
    objdump = find_tool("llvm-objdump-19")
    if objdump is not None:                      # LLVM's own VGPR count for the d16 load
        text = subprocess.run([objdump, "-d", str(hsaco)], capture_output=True,
                              text=True, check=True).stdout
        first, last = map(int, re.search(r"buffer_load_format_d16_xyzw v\[(\d+):(\d+)\]",
                                         text).groups())
        assert last - first + 1 == (4 if cpu == "gfx803" else 2)
    check(hsaco)

"""d16 typed buffer access in code clang-19 generated: LLVM decides how the
16-bit components sit in VGPRs (four VGPRs, low halves, on gfx803; two
packed VGPRs on gfx900) and packs/unpacks them itself, so these kernels
check the executor's d16 layout against LLVM's, independently of our tests'
own reading of the manuals.

``data/vmem_d16.ll`` is the source; the code objects built from it are
recorded next to it; with clang-19 and ld.lld-19 installed it is rebuilt too.
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


@pytest.mark.llvm
@pytest.mark.parametrize("cpu", TARGETS)
def test_freshly_compiled(cpu, tmp_path):
    clang, lld = find_tool("clang-19"), find_tool("ld.lld-19")
    if clang is None or lld is None:
        pytest.skip("clang-19 / ld.lld-19 are not installed")
    obj, hsaco = tmp_path / "k.o", tmp_path / "k.hsaco"
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-nogpulib", "-O2",
                    "-c", str(DATA / "vmem_d16.ll"), "-o", str(obj)], check=True,
                   capture_output=True)
    subprocess.run([lld, "-shared", str(obj), "-o", str(hsaco)], check=True,
                   capture_output=True)
    objdump = find_tool("llvm-objdump-19")
    if objdump is not None:                      # LLVM's own VGPR count for the d16 load
        text = subprocess.run([objdump, "-d", str(hsaco)], capture_output=True,
                              text=True, check=True).stdout
        first, last = map(int, re.search(r"buffer_load_format_d16_xyzw v\[(\d+):(\d+)\]",
                                         text).groups())
        assert last - first + 1 == (4 if cpu == "gfx803" else 2)
    check(hsaco)

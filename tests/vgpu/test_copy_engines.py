"""ROCr's copy engines on the virtual GPU: SDMA queues (gfx9's default, gfx8 with
HSA_ENABLE_SDMA=1) and ROCr's own blit kernels (gfx8's default, gfx9 with
HSA_ENABLE_SDMA=0) must move the same bytes. programs/hip_copies.hip copies
odd sizes at odd offsets in every direction, pageable and pinned, and fills.
"""

import os
import shutil

import pytest

from vgpu_env import PROGRAMS, cached_build, require_virtual_gpu, run_on_virtual_gpu

pytestmark = pytest.mark.vgpu


@pytest.fixture(scope="module")
def copies():
    require_virtual_gpu()
    hipcc = shutil.which("hipcc")
    if hipcc is None or not os.path.exists("/usr/include/hip/hip_runtime.h"):
        pytest.skip("hipcc and libamdhip64-dev are needed")
    source = PROGRAMS / "hip_copies.hip"
    return cached_build("hip_copies", [source], lambda out: [
        hipcc, "-std=c++17", "-O2", "--offload-arch=gfx803", "--offload-arch=gfx900",
        str(source), "-o", str(out)])


@pytest.mark.parametrize("mcpu, sdma", [("gfx900", "1"), ("gfx900", "0"), ("gfx803", "0"),
                                        ("gfx803", "1")])
def test_copies_through_each_engine(copies, mcpu, sdma):
    done = run_on_virtual_gpu([copies], "--mcpu", mcpu, env={"HSA_ENABLE_SDMA": sdma})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "PASS copies\n"

"""Building the HIP host programs of tests/vgpu/programs with hipcc.

Import as ``from hipbuild import ...`` (tests/vgpu is on sys.path, as for
``vgpu_env``). A program is built once per content (its source, the headers
it names, the command line) into the cache of ``vgpu_env.cached_build``, as a
fat binary for every processor the virtual GPU emulates, with ROCm 5.2's
``hipcc`` (``HIP_PLATFORM=amd``: hipcc would target NVIDIA where it finds an
``nvcc``). Tests skip cleanly where hipcc or the HIP headers are missing.
"""

from __future__ import annotations

import os
import pathlib
import shutil

import pytest

from vgpu_env import PROGRAMS, cached_build

#: The processors of the virtual GPU (amdgpu_tools.vgpu.topology.BOARDS)
HIP_TARGETS = ("gfx803", "gfx900", "gfx906")
HIP_HEADER = "/usr/include/hip/hip_runtime.h"
HIPCC_FLAGS = ("-std=c++17", "-O2", *(f"--offload-arch={target}" for target in HIP_TARGETS))


def require_hipcc() -> str:
    """hipcc's path, or skip (Debian: hipcc libamdhip64-dev)."""
    hipcc = shutil.which("hipcc")
    if hipcc is None or not os.path.exists(HIP_HEADER):
        pytest.skip("hipcc and the HIP headers are needed (apt-get install hipcc libamdhip64-dev)")
    return hipcc


def build_hip_program(source: str, libraries=(), headers=(), flags=()) -> pathlib.Path:
    """The executable of ``programs/<source>``, linked with ``-l<library>`` for each
    of ``libraries``; ``headers`` (names under programs/) are part of its content."""
    hipcc = require_hipcc()
    path = PROGRAMS / source
    sources = [path, *(PROGRAMS / header for header in headers)]

    def argv(output):
        return [hipcc, *HIPCC_FLAGS, *flags, str(path), "-o", str(output),
                *(f"-l{library}" for library in libraries)]
    return cached_build(path.name.replace(".", "_"), sources, argv)

"""ROCm libraries with their own precompiled kernels on the virtual GPU.

Each host program under programs/ checks itself against plain host loops and
prints ``PASS <name>``:

- rocsparse_ops.cpp: rocSPARSE's csrmv (plain, transposed, adaptive), csrsv
  (a triangular solve: waves wait on rows other work-groups finish), coomv,
  csr2coo, coo2csr, nnz + dense2csr, dense_to_sparse (CSR, COO);
- rocrand_gen.cpp: rocRAND's Philox4x32-10 (also doubles), MRG32k3a and
  XORWOW (u32, uniform, normal): statistics, same seed same numbers, and the
  numbers against host implementations of the algorithms;
- rocprim_algos.hip: rocPRIM's device scan (decoupled look-back: work-groups
  wait on flags of other work-groups of the same dispatch), reduce and radix
  sort, compiled here.

rocSPARSE and rocRAND run their own kernels, so they run on the processors
whose code objects the libraries' fat binaries ship (Debian's: gfx803,
gfx900:xnack-, gfx906:xnack-, ...); rocPRIM's kernels are ours, built for all
three. XORWOW sets up 131072 engines with 160x160-bit jump matrices for each
of its three generators (~90M wave-instructions each): marked long (make test-long).
"""

from __future__ import annotations

import functools
import mmap
import os
import struct

import pytest

from hipbuild import HIP_TARGETS, build_hip_program
from vgpu_env import require_virtual_gpu, run_on_virtual_gpu

pytestmark = pytest.mark.vgpu

LIBDIR = "/usr/lib/x86_64-linux-gnu"
ROCSPARSE = f"{LIBDIR}/librocsparse.so.0"
ROCRAND = f"{LIBDIR}/librocrand.so.1"
ROCPRIM = "/usr/include/rocprim"
HSAKMT_HEADER = "/usr/include/hsakmt.h"

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"


@functools.lru_cache(maxsize=None)
def shipped_processors(library: str) -> frozenset:
    """The processors the library's ``.hip_fatbin`` has code objects for (the
    entries of its first offload bundle: every bundle of one library is built
    for the same targets). Only the headers are read: rocSPARSE's is 1.3 GB."""
    from elftools.elf.elffile import ELFFile
    with open(library, "rb") as file:
        section = ELFFile(file).get_section_by_name(".hip_fatbin")
        if section is None:
            return frozenset()
        with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            start = section["sh_offset"]
            if data[start:start + len(BUNDLE_MAGIC)] != BUNDLE_MAGIC:
                return frozenset()
            (count,) = struct.unpack_from("<Q", data, start + len(BUNDLE_MAGIC))
            position = start + len(BUNDLE_MAGIC) + 8
            processors = set()
            for _ in range(count):
                _, _, length = struct.unpack_from("<QQQ", data, position)
                bundle_id = data[position + 24:position + 24 + length].decode("ascii", "replace")
                position += 24 + length
                # hipv4-amdgcn-amd-amdhsa--gfx900:xnack-
                target = bundle_id.split("-", 5)[-1] if bundle_id.count("-") >= 5 else ""
                if target:
                    processors.add(target.split(":")[0])
            return frozenset(processors)


def require_library(path: str, mcpu: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"{os.path.basename(path)} is not installed")
    if mcpu not in shipped_processors(path):
        pytest.skip(f"{os.path.basename(path)} ships no {mcpu} kernels "
                    f"(it has {', '.join(sorted(shipped_processors(path))) or 'none'})")


def require_rocm() -> None:
    if not os.path.exists(HSAKMT_HEADER):
        pytest.skip(f"the virtual GPU's thunk needs {HSAKMT_HEADER} (apt-get install libhsakmt-dev)")
    require_virtual_gpu()


def run_program(program, name, mcpu, *args, timeout):
    """Run ``program`` on a virtual ``mcpu``: it must exit 0 with ``PASS <name>``."""
    done = run_on_virtual_gpu([program, *args], "--mcpu", mcpu, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"exit status {done.returncode}:\n{output[-6000:]}"
    assert f"PASS {name}" in done.stdout.splitlines(), output[-6000:]


@pytest.mark.parametrize("mcpu", HIP_TARGETS)
def test_rocsparse(mcpu):
    require_rocm()
    require_library(ROCSPARSE, mcpu)
    program = build_hip_program("rocsparse_ops.cpp", libraries=["rocsparse"], headers=["hip_check.h"])
    run_program(program, "rocsparse_ops", mcpu, timeout=300)


ROCRAND_CASES = [
    pytest.param("philox", 300, id="philox"),
    pytest.param("mrg32k3a", 400, id="mrg32k3a"),
    pytest.param("xorwow", 900, id="xorwow", marks=pytest.mark.long),
]


@pytest.mark.parametrize("generator, timeout", ROCRAND_CASES)
@pytest.mark.parametrize("mcpu", HIP_TARGETS)
def test_rocrand(mcpu, generator, timeout):
    require_rocm()
    require_library(ROCRAND, mcpu)
    program = build_hip_program("rocrand_gen.cpp", libraries=["rocrand"], headers=["hip_check.h"])
    run_program(program, "rocrand_gen", mcpu, generator, timeout=timeout)


@pytest.mark.parametrize("algorithms", ["scan", "reduce", "sort"])
@pytest.mark.parametrize("mcpu", HIP_TARGETS)
def test_rocprim(mcpu, algorithms):
    require_rocm()
    if not os.path.isdir(ROCPRIM):
        pytest.skip("rocPRIM's headers are not installed (apt-get install librocprim-dev)")
    program = build_hip_program("rocprim_algos.hip", headers=["hip_check.h"])
    run_program(program, "rocprim_algos", mcpu, algorithms, timeout=300)

"""The virtual GPU: rocSPARSE's own csrmv kernel under ``amdgpu-run --exec``
against the same kernel code through the Python API.

y = alpha*A*x + beta*y on a float CSR matrix of ``ROWS`` rows (and columns),
5-10 nonzeros per row (7.5 on average) at a fixed pseudo-random pattern; the
best of ``REPEATS`` calls after a warm-up, y reset before each call (not
timed):

- ``--exec``: bench/data/vgpu_csrmv.cpp, built by ROCm 5.2's hipcc against
  Debian's rocSPARSE 5.3, calls ``rocsparse_scsrmv`` (+ hipDeviceSynchronize)
  under ``amdgpu-run --mcpu gfx900 --exec``: HIP, ROCr and rocSPARSE's
  precompiled gfx900 kernel on our thunk;
- ``Python API``: that kernel's code object, taken out of librocsparse.so.0
  (its ``.hip_fatbin`` section holds one clang offload bundle per
  translation unit), loaded by ``Device.load`` and launched with rocSPARSE's
  geometry and arguments (read from the code object's metadata).

Called without a ``rocsparse_mat_info`` (no csrmv_analysis), rocSPARSE 5.3
runs one kernel per call, ``csrmvn_general_kernel<512, WF>`` (WF lanes per
row, chosen from nnz / m: 4 here), over ``(m - 1) / 512 + 1`` work-groups of
512: the same kernel, grid and block on both sides (seen with a dispatch log
under ``--exec``). The handle's own start-up kernels are not timed.

Both sides run the project's one packet processor and executor, so the
difference is the runtime path's cost (and the load of a shared machine: the
CPU seconds of the timed call are printed next to its wall time). The
program runs twice: as it is, and with hipDeviceScheduleBlockingSync. By
default HIP 5.2 waits actively in hipDeviceSynchronize (ROCclr's "Host active
wait", a spin in ROCr without system calls), and on the virtual GPU that
spinning thread takes a CPU from the command processor running the kernel:
on this 2-core machine it was half the --exec call's CPU time, and blocking
halved the wall time.

Every value is a small dyadic rational, so both results are exact: each side
checks y bit for bit, and the Python side also checks the program's nnz and
sum of y, so both sides multiply the same matrix.

Skipped (one line) without hipcc, librocsparse (librocsparse0 and -dev),
the ROCm runtime or the thunk's build prerequisites.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
import time
from pathlib import Path

import numpy as np

from bench.bench_vgpu import exec_lines, hipcc_build
from bench.bench_vgpu import missing as vgpu_missing

SOURCE = Path(__file__).parent / "data" / "vgpu_csrmv.cpp"
CACHE = Path(os.environ.get("AMDGPU_TOOLS_BENCH_CACHE", "/tmp/amdgpu-tools-bench-cache"))
ROCSPARSE = "/usr/lib/x86_64-linux-gnu/librocsparse.so.0"
ROCSPARSE_HEADER = "/usr/include/rocsparse/rocsparse.h"
TARGET = "gfx900"
ROWS = 100_000
REPEATS = 3
ALPHA, BETA = np.float32(2.0), np.float32(0.5)

#: rocSPARSE 5.3 (library/src/level2/rocsparse_csrmv.cpp): the general kernel's
#: work-group size (CSRMVN_DIM) and its name for int32 indices, float values and
#: host pointer mode (alpha and beta by value); WF is a template argument.
BLOCK = 512
KERNEL = ("_ZL21csrmvn_general_kernelILj512ELj{wf}EiiffEvbT2_T4_PKT1_PKS0_PKT3_S9_S1_"
          "PS7_21rocsparse_index_base_")
#: its explicit arguments as (value kind, size): bool conj, J m, U alpha,
#: const I* csr_row_ptr, const J* csr_col_ind, const T* csr_val, const T* x,
#: U beta, T* y, rocsparse_index_base idx_base
SIGNATURE = [("by_value", 1), ("by_value", 4), ("by_value", 4)] + \
    [("global_buffer", 8)] * 4 + [("by_value", 4), ("global_buffer", 8), ("by_value", 4)]

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"


def _wavefront_lanes(nnz_per_row: int) -> int:
    """rocsparse_csrmv_template_dispatch's WF_SIZE for a general matrix, no transpose
    (a 64-lane wavefront)."""
    for limit, lanes in ((4, 2), (8, 4), (16, 8), (32, 16), (64, 32)):
        if nnz_per_row < limit:
            return lanes
    return 64


# ------------------------------------------------------------------ the matrix
def _hash32(values: np.ndarray) -> np.ndarray:
    """lowbias32, as vgpu_csrmv.cpp's hash32 (uint32 wrap-around)."""
    x = values.astype(np.uint32)
    x ^= x >> np.uint32(16)
    x *= np.uint32(0x7FEB352D)
    x ^= x >> np.uint32(15)
    x *= np.uint32(0x846CA68B)
    x ^= x >> np.uint32(16)
    return x


def build_matrix(m: int):
    """vgpu_csrmv.cpp's matrix, x and y: (row_ptr, col_ind, val, x, y0), int32/float32."""
    n = m
    lengths = (5 + _hash32(np.arange(m)) % np.uint32(6)).astype(np.int64)
    row_ptr = np.zeros(m + 1, np.int64)
    np.cumsum(lengths, out=row_ptr[1:])
    rows = np.repeat(np.arange(m, dtype=np.int64), lengths)
    slots = np.arange(row_ptr[-1], dtype=np.int64) - row_ptr[rows]
    h = _hash32((rows * 16 + slots + 0x9E3779B9) & 0xFFFFFFFF)
    strip = n // lengths[rows]
    col_ind = (slots * strip + h % strip.astype(np.uint32)).astype(np.int32)
    val = (((h >> np.uint32(8)) % np.uint32(255)).astype(np.int32) - 127).astype(np.float32) \
        / np.float32(64)
    x = (np.arange(n) % 97 - 48).astype(np.float32) / np.float32(32)
    y0 = (np.arange(m) % 13).astype(np.float32) / np.float32(8)
    return row_ptr.astype(np.int32), col_ind, val, x, y0


def reference(row_ptr, col_ind, val, x, y0) -> np.ndarray:
    """alpha*A*x + beta*y0 in float64 (exact here), as float32."""
    rows = np.repeat(np.arange(len(y0)), np.diff(row_ptr))
    products = np.float64(ALPHA) * val.astype(np.float64) * x[col_ind].astype(np.float64)
    return (np.bincount(rows, weights=products, minlength=len(y0))
            + np.float64(BETA) * y0).astype(np.float32)


# ----------------------------------------------- the kernel out of the library
def _section(image, name: bytes) -> tuple[int, int] | None:
    """(file offset, size) of a section of a host ELF64 file."""
    shoff, = struct.unpack_from("<Q", image, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", image, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", image, shoff + i * shentsize) for i in range(shnum)]
    strtab = headers[shstrndx][4]
    for name_offset, _, _, _, offset, size in headers:
        if image[strtab + name_offset:strtab + name_offset + len(name) + 1] == name + b"\0":
            return offset, size
    return None


def _bundle_with(image, start: int, end: int, symbol: bytes):
    """The (offset, size) of the offload bundle in image[start:end] whose entry
    for TARGET defines ``symbol``; None if none does."""
    from amdgpu_tools.runtime.bundle import BundleEntry
    position = start
    while (found := image.find(BUNDLE_MAGIC, position, end)) >= 0:
        count, = struct.unpack_from("<Q", image, found + len(BUNDLE_MAGIC))
        cursor, entries = found + len(BUNDLE_MAGIC) + 8, []
        for _ in range(count):
            offset, size, id_length = struct.unpack_from("<QQQ", image, cursor)
            bundle_id = bytes(image[cursor + 24:cursor + 24 + id_length]).decode("ascii", "replace")
            entries.append((bundle_id, found + offset, size))
            cursor += 24 + id_length
        for bundle_id, offset, size in entries:
            entry = BundleEntry(bundle_id, b"")
            if entry.target_id is not None and entry.target_id.processor == TARGET \
                    and image.find(symbol, offset, offset + size) >= 0:
                return found, max(o + s for _, o, s in entries) - found
        position = max([found + 1] + [o + s for _, o, s in entries])
    return None


def kernel_code_object(kernel: str) -> bytes | None:
    """The TARGET code object of librocsparse.so.0 that holds ``kernel`` (cached:
    finding it reads through the 1.3 GB .hip_fatbin section); None if none."""
    from amdgpu_tools.runtime.bundle import read_bundle, select_entry
    library = os.path.realpath(ROCSPARSE)
    stat = os.stat(library)
    key = hashlib.sha256(f"{library} {stat.st_size} {stat.st_mtime_ns} {TARGET} {kernel}"
                         .encode()).hexdigest()[:16]
    cached = CACHE / f"rocsparse.{TARGET}.{key}.co"
    if cached.exists():
        return cached.read_bytes()
    with open(library, "rb") as handle, \
            mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as image:
        section = _section(image, b".hip_fatbin")
        if section is None:
            return None
        found = _bundle_with(image, section[0], section[0] + section[1], kernel.encode())
        if found is None:
            return None
        code = select_entry(read_bundle(image[found[0]:found[0] + found[1]]), TARGET).data
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.with_suffix(".tmp").write_bytes(code)
    os.replace(cached.with_suffix(".tmp"), cached)
    return code


# ------------------------------------------------------------- the Python API
def _explicit_args(kernel, values: list) -> list:
    """``values`` in the kernel's argument order, after checking its metadata
    (value kind and size of each explicit argument) against rocSPARSE's signature."""
    found = [(arg.value_kind, arg.size) for arg in kernel.info.explicit_args]
    if found != SIGNATURE:
        raise RuntimeError(f"{kernel.name}: explicit arguments {found}, expected {SIGNATURE}")
    return values


def _api_csrmv(device, program, kernel_name, matrix, expected) -> tuple[float, float]:
    """(best wall seconds, its CPU seconds) of REPEATS launches."""
    row_ptr, col_ind, val, x, y0 = matrix
    m = len(y0)
    buffers = [device.array(a) for a in (row_ptr, col_ind, val, x, y0)]
    kernel = program[kernel_name]
    args = _explicit_args(kernel, [np.bool_(False), np.int32(m), ALPHA, *buffers[:4], BETA,
                                   buffers[4], np.int32(0)])      # rocsparse_index_base_zero
    grid = ((m - 1) // BLOCK + 1) * BLOCK                         # work-items
    best, best_cpu = float("inf"), 0.0
    for repeat in range(REPEATS + 1):          # run 0 warms up
        buffers[4].write(y0)
        wall, cpu = time.perf_counter(), time.process_time()
        kernel(*args, grid=(grid,), block=(BLOCK,))
        device.synchronize()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if repeat and wall < best:
            best, best_cpu = wall, cpu
    y = buffers[4].numpy()
    if not np.array_equal(y, expected):
        bad = int(np.flatnonzero(y != expected)[0])
        raise RuntimeError(f"csrmv through the Python API: y[{bad}] = {y[bad]}, "
                           f"expected {expected[bad]}")
    for buffer in buffers:
        buffer.free()
    return best, best_cpu


# ----------------------------------------------------------------------- main
def main():
    missing = vgpu_missing((ROCSPARSE, "rocSPARSE (librocsparse0)"),
                           (ROCSPARSE_HEADER, "rocSPARSE's headers (librocsparse-dev)"))
    if missing:
        print(f"   skipped: {missing}")
        return
    matrix = build_matrix(ROWS)
    nnz = int(matrix[0][-1])
    kernel_name = KERNEL.format(wf=_wavefront_lanes(nnz // ROWS))
    code = kernel_code_object(kernel_name)
    if code is None:
        print(f"   skipped: {ROCSPARSE} has no {TARGET} code object with {kernel_name}")
        return
    from amdgpu_tools import Device
    program_path = hipcc_build(SOURCE, "exe", "-std=c++17", libraries=("-lrocsparse",))
    device = Device(TARGET)
    program = device.load(code)
    expected = reference(*matrix)

    api_seconds, api_cpu = _api_csrmv(device, program, kernel_name, matrix, expected)
    for mode, label in (((), "HIP's default: hipDeviceSynchronize spins"),
                        (("blocking",), "hipDeviceScheduleBlockingSync")):
        figures = exec_lines(program_path, ROWS, REPEATS, *mode)
        if figures["nnz"] != nnz or figures["ysum"] != expected.sum(dtype=np.float64):
            raise RuntimeError(f"vgpu_csrmv and the Python side differ: nnz "
                               f"{figures['nnz']:.0f} vs {nnz}, sum of y {figures['ysum']} vs "
                               f"{expected.sum(dtype=np.float64)}")
        vgpu_seconds, vgpu_cpu = figures["csrmv"], figures["csrmv_cpu"]
        print(f"   csrmv {ROWS // 1000}k rows  --exec {vgpu_seconds:7.3f} s (cpu {vgpu_cpu:6.3f} s)"
              f"   Python API {api_seconds:7.3f} s (cpu {api_cpu:6.3f} s)   "
              f"ratio {vgpu_seconds / api_seconds:.2f}x   ({label})", flush=True)


if __name__ == "__main__":
    main()

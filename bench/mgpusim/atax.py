"""PolyBench/GPU ATAX (MGPUSim ``atax -x NX -y NY``): y = A^T (A x).

Two launches, work-groups of 256, grids rounded up to whole work-groups:
atax_kernel1 (one work-item a row: tmp = A x), then atax_kernel2 (one a
column: y = A^T tmp), both accumulating into zeroed buffers. MGPUSim's data:
A[i, j] = i * j / NX, x[j] = j * pi.
"""

from __future__ import annotations

import numpy as np

from bench.mgpusim import groups_of, relative_error

GROUP = 256
RTOL = 1e-5


def inputs(nx: int, ny: int):
    i = np.arange(nx, dtype=np.float32)[:, None]
    j = np.arange(ny, dtype=np.float32)[None, :]
    a = (i * j / np.float32(nx)).astype(np.float32)
    return a, (np.arange(ny, dtype=np.float32) * np.float32(np.pi)).astype(np.float32)


def run(session, nx: int = 4096, ny: int = 4096):
    a, x = inputs(nx, ny)
    device = session.device
    d_a, d_x = device.array(a), device.array(x)
    d_tmp, d_y = device.zeros(nx, np.float32), device.zeros(ny, np.float32)
    session.launch("atax_kernel1", d_a, d_x, d_tmp, np.int32(nx), np.int32(ny),
                   grid=(groups_of(nx, GROUP),), block=(GROUP,))
    session.launch("atax_kernel2", d_a, d_y, d_tmp, np.int32(nx), np.int32(ny),
                   grid=(groups_of(ny, GROUP),), block=(GROUP,))
    tmp, y = d_tmp.numpy(), d_y.numpy()
    for buffer in (d_a, d_x, d_tmp, d_y):
        buffer.free()
    a64 = a.astype(np.float64)
    want_tmp = a64 @ x.astype(np.float64)
    errors = relative_error(tmp, want_tmp), relative_error(y, a64.T @ want_tmp)
    return session.outcome("atax", f"-x {nx} -y {ny}", max(errors) < RTOL,
                           f"max rel. error tmp {errors[0]:.1e}, y {errors[1]:.1e}")

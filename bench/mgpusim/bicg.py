"""PolyBench/GPU BiCG (MGPUSim ``bicg -x NX -y NY``): q = A p and s = A^T r.

Two launches, work-groups of 256, grids rounded up to whole work-groups:
bicgKernel1 (one work-item a row of A), bicgKernel2 (one a column). MGPUSim's
data: A[i, j] = i * j / NX, r[i] = i * pi, p[j] = j * pi.
"""

from __future__ import annotations

import numpy as np

from bench.mgpusim import groups_of, relative_error

GROUP = 256
RTOL = 1e-5


def run(session, nx: int = 4096, ny: int = 4096):
    i = np.arange(nx, dtype=np.float32)
    j = np.arange(ny, dtype=np.float32)
    a = (i[:, None] * j[None, :] / np.float32(nx)).astype(np.float32)
    r = (i * np.float32(np.pi)).astype(np.float32)
    p = (j * np.float32(np.pi)).astype(np.float32)
    device = session.device
    d_a, d_r, d_p = device.array(a), device.array(r), device.array(p)
    d_q, d_s = device.zeros(nx, np.float32), device.zeros(ny, np.float32)
    session.launch("bicgKernel1", d_a, d_p, d_q, np.int32(nx), np.int32(ny),
                   grid=(groups_of(nx, GROUP),), block=(GROUP,))
    session.launch("bicgKernel2", d_a, d_r, d_s, np.int32(nx), np.int32(ny),
                   grid=(groups_of(ny, GROUP),), block=(GROUP,))
    q, s = d_q.numpy(), d_s.numpy()
    for buffer in (d_a, d_r, d_p, d_q, d_s):
        buffer.free()
    a64 = a.astype(np.float64)
    errors = relative_error(q, a64 @ p), relative_error(s, a64.T @ r)
    return session.outcome("bicg", f"-x {nx} -y {ny}", max(errors) < RTOL,
                           f"max rel. error q {errors[0]:.1e}, s {errors[1]:.1e}")

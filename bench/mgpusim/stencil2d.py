"""SHOC Stencil2D (MGPUSim ``stencil2d -row R -col C -iter I``): kernel StencilKernel.

I launches, each a 9-point weighted average of the interior of an R x C
float32 grid (rows padded to a multiple of 16 columns) into the other
buffer, which then swap roles; the border keeps its values (both buffers
start as the input). Work-items are columns of 16 rows: grid ((R-2)/16,
C-2), work-groups of 1 x 64, an LDS tile of 18 x 66 floats; so R-2 must be a
multiple of 16 and C-2 of 64. MGPUSim's weights are 0.5/0/0 on all-ones
data; here they are 0.5/0.1/0.025 on random data, and the reference sums in
float32 in the kernel's order (north, south, east, west; then the diagonals).
"""

from __future__ import annotations

import numpy as np

from amdgpu_tools import LocalMemory
from bench.mgpusim import relative_error

LROWS, LCOLS, ALIGN = 16, 64, 16
WEIGHTS = np.float32(0.5), np.float32(0.1), np.float32(0.025)


def step(grid: np.ndarray, cols: int) -> np.ndarray:
    """One Jacobi step on the interior of grid[:, :cols] (float32)."""
    g = grid
    c = g[1:-1, 1:cols - 1]
    cardinal = g[:-2, 1:cols - 1] + g[2:, 1:cols - 1] + g[1:-1, 2:cols] + g[1:-1, :cols - 2]
    diagonal = g[:-2, 2:cols] + g[2:, 2:cols] + g[:-2, :cols - 2] + g[2:, :cols - 2]
    centre, card, diag = WEIGHTS
    out = g.copy()
    out[1:-1, 1:cols - 1] = centre * c + card * cardinal + diag * diagonal
    return out


def run(session, rows: int = 66, cols: int = 66, iterations: int = 1):
    if (rows - 2) % LROWS or (cols - 2) % LCOLS:
        raise ValueError(f"stencil2d: rows-2 must be a multiple of {LROWS}, cols-2 of {LCOLS}")
    padded = (cols + ALIGN - 1) // ALIGN * ALIGN
    grid = np.zeros((rows, padded), np.float32)
    grid[:, :cols] = np.random.default_rng(9).random((rows, cols), dtype=np.float32)
    device = session.device
    current, new = device.array(grid), device.array(grid)
    for _ in range(iterations):
        session.launch("StencilKernel", current, new, np.int32(ALIGN), *WEIGHTS,
                       LocalMemory((LROWS + 2) * (LCOLS + 2) * 4),
                       grid=((rows - 2) // LROWS, cols - 2), block=(1, LCOLS))
        current, new = new, current
    got = current.numpy()
    current.free()
    new.free()
    want = grid
    for _ in range(iterations):
        want = step(want, cols)
    error = relative_error(got, want)
    return session.outcome("stencil2d", f"-row {rows} -col {cols} -iter {iterations}",
                           error < 1e-6, f"max rel. error {error:.1e}")

"""AMD APP SDK matrix multiplication (MGPUSim ``matrixmultiplication -x X -y Y
-z Z``): kernel mmmKernel_local.

C (Y x Z) = A (Y x X) B (X x Z), one launch: each work-item computes a 4x4
block of C from float4 loads, A's rows staged through a 32x32-float LDS
tile; grid (Z/4, Y/4), work-groups of 8x8, so X, Y and Z must be multiples
of 32. Entries are uniform [0, 1); the reference is the float64 product.

The kernel as MGPUSim ships it indexes A's tile by the local y id
(``(lIdY << TILEY_SHIFT) * temp``) with no work-group offset, so every
32-row band of C is computed from A's first 32 rows: C[r] = A[r mod 32] B.
The check compares with that (``product``) and reports how much of C the
true product agrees with (the first band, where the two are the same).
"""

from __future__ import annotations

import numpy as np

from amdgpu_tools import LocalMemory
from bench.mgpusim import relative_error

BLOCK = 8
BAND = 32          # C rows of one work-group: 8 work-items x 4 rows
RTOL = 1e-5


def product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """What mmmKernel_local computes: row r of C from row r mod 32 of A (float64)."""
    return a[np.arange(a.shape[0]) % BAND].astype(np.float64) @ b


def run(session, x: int = 64, y: int = 64, z: int = 64):
    if x % 32 or y % 32 or z % 32:
        raise ValueError("matrixmultiplication: x, y and z must be multiples of 32")
    rng = np.random.default_rng(8)
    a = rng.random((y, x), dtype=np.float32)
    b = rng.random((x, z), dtype=np.float32)
    device = session.device
    d_a, d_b, d_c = device.array(a), device.array(b), device.zeros((y, z), np.float32)
    session.launch("mmmKernel_local", d_a, d_b, d_c, np.int32(x), LocalMemory(32 * 32 * 4),
                   grid=(z // 4, y // 4), block=(BLOCK, BLOCK))
    got = d_c.numpy()
    for buffer in (d_a, d_b, d_c):
        buffer.free()
    error = relative_error(got, product(a, b))
    true = np.isclose(got, a.astype(np.float64) @ b, rtol=RTOL).all(axis=1)
    return session.outcome("matrixmultiplication", f"-x {x} -y {y} -z {z}", error < RTOL,
                           f"max rel. error {error:.1e}; {int(true.sum())} of {y} rows "
                           f"equal A B (kernel reads A by local id)")

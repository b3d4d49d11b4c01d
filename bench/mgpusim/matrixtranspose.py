"""AMD APP SDK matrix transpose (MGPUSim ``matrixtranspose -width W``):
kernel matrixTranspose.

One launch: each work-item moves a 4x4 block of 32-bit words (float4 rows)
through an LDS tile; work-groups of 16x16, grid (W/4, W/4). MGPUSim fills
the matrix with uint32 0..W*W-1; the kernel only moves bits, so the result
must be the exact transpose.
"""

from __future__ import annotations

import numpy as np

from amdgpu_tools import LocalMemory

BLOCK = 16
ELEMS = 4          # words per work-item in each dimension


def run(session, width: int = 256):
    data = np.arange(width * width, dtype=np.uint32).reshape(width, width)
    wi = width // ELEMS
    device = session.device
    d_out, d_in = device.zeros((width, width), np.uint32), device.array(data)
    session.launch("matrixTranspose", d_out, d_in,
                   LocalMemory(BLOCK * BLOCK * ELEMS * ELEMS * 4),
                   np.uint32(wi), np.uint32(wi), np.uint32(wi // BLOCK), np.uint32(0),
                   np.uint32(0), grid=(wi, wi), block=(BLOCK, BLOCK))
    got = d_out.numpy()
    d_out.free()
    d_in.free()
    return session.outcome("matrixtranspose", f"-width {width}", np.array_equal(got, data.T))

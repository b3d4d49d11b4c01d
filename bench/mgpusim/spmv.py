"""SHOC SpMV (MGPUSim ``spmv -dim D -sparsity S``): kernel spmv_csr_scalar_kernel.

One launch, one work-item a row (grid D, work-groups of 128), over a random
column-stochastic CSR matrix with D*D*S entries (``csr.random_csr``) and a
vector uniform in [0, 10); the reference is the float64 product.
"""

from __future__ import annotations

import numpy as np

from bench.mgpusim import relative_error
from bench.mgpusim.csr import multiply, random_csr

GROUP = 128
MAXVAL = 10.0


def run(session, dim: int = 128, sparsity: float = 0.01):
    offsets, cols, values = random_csr(dim, int(dim * dim * sparsity), seed=10)
    vector = (np.random.default_rng(11).random(dim, dtype=np.float32) * np.float32(MAXVAL))
    device = session.device
    buffers = [device.array(values), device.array(vector), device.array(cols),
               device.array(offsets)]
    d_out = device.zeros(dim, np.float32)
    session.launch("spmv_csr_scalar_kernel", *buffers, np.int32(dim), d_out,
                   grid=(dim,), block=(GROUP,))
    got = d_out.numpy()
    for buffer in buffers + [d_out]:
        buffer.free()
    error = relative_error(got, multiply(offsets, cols, values, vector.astype(np.float64)))
    return session.outcome("spmv", f"-dim {dim} -sparsity {sparsity}", error < 1e-5,
                           f"{len(values)} entries, max rel. error {error:.1e}")

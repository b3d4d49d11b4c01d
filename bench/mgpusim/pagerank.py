"""Hetero-Mark PageRank (MGPUSim ``pagerank -node N -sparsity S -iterations I``):
kernel PageRankUpdateGpu.

I launches of y = M x over a random column-stochastic CSR matrix M
(``csr.random_csr``, N*N*S entries), x starting at 1/N and the two rank
buffers swapping roles; one 64-item work-group (one wave) a row, grid 64 N,
summing its row's products through a 64-float LDS array. The reference
repeats the product in float64.
"""

from __future__ import annotations

import numpy as np

from amdgpu_tools import LocalMemory
from bench.mgpusim import relative_error
from bench.mgpusim.csr import multiply, random_csr

WAVE = 64


def run(session, nodes: int = 16, sparsity: float = 0.001, iterations: int = 16):
    nnz = max(1, int(nodes * nodes * sparsity))
    offsets, cols, values = random_csr(nodes, nnz, seed=12)
    rank = np.full(nodes, 1.0 / nodes, np.float32)
    device = session.device
    d_offsets = device.array(offsets.astype(np.uint32))
    d_cols, d_values = device.array(cols.astype(np.uint32)), device.array(values)
    x, y = device.array(rank), device.zeros(nodes, np.float32)
    for _ in range(iterations):
        session.launch("PageRankUpdateGpu", np.uint32(nodes), d_offsets, d_cols, d_values,
                       LocalMemory(WAVE * 4), x, y, grid=(nodes * WAVE,), block=(WAVE,))
        x, y = y, x
    got = x.numpy()
    for buffer in (d_offsets, d_cols, d_values, x, y):
        buffer.free()
    want = rank.astype(np.float64)
    for _ in range(iterations):
        want = multiply(offsets, cols, values, want)
    error = relative_error(got, want)
    return session.outcome("pagerank", f"-node {nodes} -sparsity {sparsity} -iterations "
                           f"{iterations}", error < 1e-5, f"max rel. error {error:.1e}")

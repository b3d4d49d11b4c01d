"""The sparse matrices of MGPUSim's spmv and pagerank (its csr package): ``nnz``
distinct random positions of a dim x dim matrix, uniform [0, 1) values, each
column scaled to sum 1 (column-stochastic), stored as CSR with the columns
of each row in increasing order."""

from __future__ import annotations

import numpy as np


def random_csr(dim: int, nnz: int, seed: int):
    """(row offsets int32[dim+1], column numbers int32[nnz], values float32[nnz])."""
    rng = np.random.default_rng(seed)
    cells = rng.choice(dim * dim, size=nnz, replace=False)
    rows, cols = cells // dim, cells % dim
    values = rng.random(nnz, dtype=np.float32)
    sums = np.zeros(dim, np.float32)
    np.add.at(sums, cols, values)
    values = (values / sums[cols]).astype(np.float32)
    order = np.lexsort((cols, rows))
    offsets = np.zeros(dim + 1, np.int32)
    offsets[1:] = np.cumsum(np.bincount(rows, minlength=dim))
    return offsets, cols[order].astype(np.int32), values[order]


def multiply(offsets, cols, values, vector) -> np.ndarray:
    """The matrix times ``vector`` in float64."""
    rows = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    out = np.zeros(len(offsets) - 1)
    np.add.at(out, rows, values.astype(np.float64) * vector[cols])
    return out

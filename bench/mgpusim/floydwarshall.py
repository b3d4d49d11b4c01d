"""AMD APP SDK Floyd-Warshall (MGPUSim ``floydwarshall -node N``): kernel
floydWarshallPass.

N launches (pass k = 0..N-1), grid N x N, work-groups of 8x8 (N a multiple
of 8), relaxing every distance through node k in place and recording k in
the path matrix where the distance shrinks. Row and column k do not change
in pass k, so the in-place parallel pass equals the sequential one and both
matrices must match the NumPy replay exactly. Distances are symmetric random
0..9 with a zero diagonal; path[i][j] starts as i, as MGPUSim sets it.
"""

from __future__ import annotations

import numpy as np

BLOCK = 8


def inputs(n: int, seed: int = 4):
    rng = np.random.default_rng(seed)
    dist = np.tril(rng.integers(0, 10, (n, n)).astype(np.uint32), -1)
    dist = dist + dist.T
    path = np.repeat(np.arange(n, dtype=np.uint32)[:, None], n, axis=1)
    return dist, path


def reference(dist, path):
    dist, path = dist.astype(np.int64), path.copy()
    for k in range(len(dist)):
        through = dist[:, k:k + 1] + dist[k:k + 1, :]
        shorter = through < dist
        dist = np.where(shorter, through, dist)
        path = np.where(shorter, np.uint32(k), path)
    return dist.astype(np.uint32), path


def run(session, nodes: int = 64):
    if nodes % BLOCK:
        raise ValueError(f"floydwarshall: the node count must be a multiple of {BLOCK}")
    dist, path = inputs(nodes)
    device = session.device
    d_dist, d_path = device.array(dist), device.array(path)
    for k in range(nodes):
        session.launch("floydWarshallPass", d_dist, d_path, np.uint32(nodes), np.uint32(k),
                       grid=(nodes, nodes), block=(BLOCK, BLOCK))
    got_dist, got_path = d_dist.numpy(), d_path.numpy()
    d_dist.free()
    d_path.free()
    want_dist, want_path = reference(dist, path)
    ok = np.array_equal(got_dist, want_dist) and np.array_equal(got_path, want_path)
    return session.outcome("floydwarshall", f"-node {nodes}", ok)

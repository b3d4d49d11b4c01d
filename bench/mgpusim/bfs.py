"""SHOC breadth-first search (MGPUSim ``bfs -node N -degree D``): kernel BFS_kernel_warp.

One launch per level (curr = 0, 1, ...) until a launch sets no flag: each
32-item warp group scans 32 vertices and, for those on level curr, marks
their unvisited neighbours curr + 1. Grid N rounded up to 1024 as in
MGPUSim; its work-groups of 1024 exceed the code object's
``.max_flat_workgroup_size`` of 256 (clang's OpenCL default), which our
runtime enforces as ROCm does, so the work-groups here are 256 items (the
kernel uses only global ids). The graph is MGPUSim's kind: a random spanning tree (node i joined
to a random earlier node) plus random edges up to N*D/2 edges, undirected,
as CSR in insertion order; source node 0. The levels must equal NumPy's
breadth-first search exactly (every racing writer writes the same level).
"""

from __future__ import annotations

import numpy as np

GRID_ROUND = 1024     # MGPUSim's grid granule (its work-group size)
GROUP = 256           # the code object's max_flat_workgroup_size
WARP = CHUNK = 32
UNVISITED = np.uint32(0xFFFFFFFF)


def graph(nodes: int, degree: int, seed: int = 14):
    """(edge offsets uint32[N+1], edge list uint32[2E]) of an undirected graph."""
    rng = np.random.default_rng(seed)
    parents = (rng.random(nodes - 1) * np.arange(1, nodes)).astype(np.int64)
    extra = max(0, nodes * degree // 2 - (nodes - 1))
    u, v = rng.integers(0, nodes, (2, extra * 2))
    keep = u != v
    u, v = u[keep][:extra], v[keep][:extra]
    src = np.concatenate([parents, np.arange(1, nodes), u, v])
    dst = np.concatenate([np.arange(1, nodes), parents, v, u])
    order = np.argsort(src, kind="stable")
    offsets = np.zeros(nodes + 1, np.uint32)
    offsets[1:] = np.cumsum(np.bincount(src, minlength=nodes))
    return offsets, dst[order].astype(np.uint32)


def levels(offsets, edges, source: int = 0) -> np.ndarray:
    """Breadth-first levels from ``source``, one frontier at a time."""
    level = np.full(len(offsets) - 1, UNVISITED, np.uint32)
    level[source] = 0
    frontier, depth = np.array([source]), 0
    while len(frontier):
        starts, ends = offsets[frontier], offsets[frontier + 1]
        nbrs = np.concatenate([edges[s:e] for s, e in zip(starts, ends)])
        fresh = np.unique(nbrs[level[nbrs] == UNVISITED])
        depth += 1
        level[fresh] = depth
        frontier = fresh
    return level


def run(session, nodes: int = 64, degree: int = 3):
    offsets, edges = graph(nodes, degree)
    level = np.full(nodes, UNVISITED, np.uint32)
    level[0] = 0
    device = session.device
    d_level, d_offsets, d_edges = device.array(level), device.array(offsets), device.array(edges)
    d_flag = device.zeros(1, np.int32)
    grid = (nodes + GRID_ROUND - 1) // GRID_ROUND * GRID_ROUND
    for curr in range(nodes):
        d_flag.write(np.zeros(1, np.int32))
        session.launch("BFS_kernel_warp", d_level, d_offsets, d_edges, np.int32(WARP),
                       np.int32(CHUNK), np.uint32(nodes), np.int32(curr), d_flag,
                       grid=(grid,), block=(GROUP,))
        if d_flag.numpy()[0] == 0:
            break
    got = d_level.numpy()
    for buffer in (d_level, d_offsets, d_edges, d_flag):
        buffer.free()
    want = levels(offsets, edges)
    return session.outcome("bfs", f"-node {nodes} -degree {degree}", np.array_equal(got, want),
                           f"depth {int(want.max())}")

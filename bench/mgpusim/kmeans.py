"""Hetero-Mark k-means (MGPUSim ``kmeans -points P -clusters C -features F
-max-iter I``): kernels kmeans_kernel_swap and kmeans_kernel_compute.

One swap launch (the P x F features transposed to feature-major), then up to
I rounds while some membership changes: upload the centroids, one compute
launch (each point's nearest centroid), read the memberships back and average
each cluster's points on the host. All launches: P work-items in work-groups
of 64. Centroids start as the first C points; features are uniform [0, 1).
Checks: the swap is the exact transpose; every compute launch's memberships
equal NumPy's nearest centroids for the same centroids, with the distances
summed in float32 in the kernel's order (feature by feature).
"""

from __future__ import annotations

import numpy as np

GROUP = 64


def nearest(features: np.ndarray, clusters: np.ndarray) -> np.ndarray:
    """Index of the nearest centroid of each point (the first on a tie), the
    squared distances accumulated in float32 over the features in order."""
    points, count = features.shape[0], clusters.shape[0]
    dist = np.zeros((points, count), np.float32)
    for l in range(features.shape[1]):
        diff = features[:, l:l + 1] - clusters[None, :, l]
        dist += diff * diff
    return np.argmin(dist, axis=1).astype(np.int32)


def centroids(features, membership, count):
    """Each cluster's mean (float32 sums, as the host does); an empty cluster
    becomes the zero vector."""
    sums = np.zeros((count, features.shape[1]), np.float32)
    np.add.at(sums, membership, features)
    members = np.bincount(membership, minlength=count)
    return np.where(members[:, None] > 0, sums / np.maximum(members, 1)[:, None],
                    np.float32(0)).astype(np.float32)


def run(session, points: int = 1024, clusters: int = 5, features: int = 32,
        max_iter: int = 5):
    data = np.random.default_rng(6).random((points, features), dtype=np.float32)
    device = session.device
    d_feat, d_swap = device.array(data), device.zeros((features, points), np.float32)
    d_members, d_clusters = device.zeros(points, np.int32), device.zeros((clusters, features),
                                                                        np.float32)
    session.launch("kmeans_kernel_swap", d_feat, d_swap, np.int32(points), np.int32(features),
                   grid=(points,), block=(GROUP,))
    ok = np.array_equal(d_swap.numpy(), data.T)
    centres, membership, rounds = data[:clusters].copy(), np.full(points, -1, np.int32), 0
    changed = True
    while changed and rounds < max_iter:
        d_clusters.write(centres)
        session.launch("kmeans_kernel_compute", d_swap, d_clusters, d_members, np.int32(points),
                       np.int32(clusters), np.int32(features), np.int32(0), np.int32(0),
                       grid=(points,), block=(GROUP,))
        got = d_members.numpy()
        ok = ok and np.array_equal(got, nearest(data, centres))
        changed, membership, rounds = bool((got != membership).any()), got, rounds + 1
        centres = centroids(data, membership, clusters)
    for buffer in (d_feat, d_swap, d_members, d_clusters):
        buffer.free()
    size = f"-points {points} -clusters {clusters} -features {features} -max-iter {max_iter}"
    return session.outcome("kmeans", size, ok, f"{rounds} rounds")

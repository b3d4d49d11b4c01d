"""AMD APP SDK fast Walsh transform (MGPUSim ``fastwalshtransform -length N``):
kernel fastWalshTransform.

log2(N) launches (step = 1, 2, 4, ... N/2), N/2 work-items in work-groups of
256, each a butterfly (a, b) -> (a + b, a - b) in place. The NumPy replay does
the same float32 butterflies, so the result must be bit-identical; it is also
compared with the float64 transform (the Hadamard matrix product, natural order).
"""

from __future__ import annotations

import numpy as np

from bench.mgpusim import relative_error

GROUP = 256


def butterflies(data: np.ndarray) -> np.ndarray:
    """The transform by the kernel's passes, in the data's own precision."""
    a = data.copy()
    step = 1
    while step < len(a):
        pairs = a.reshape(-1, 2, step)
        first, second = pairs[:, 0, :].copy(), pairs[:, 1, :].copy()
        pairs[:, 0, :], pairs[:, 1, :] = first + second, first - second
        step <<= 1
    return a


def run(session, length: int = 1024):
    if length & (length - 1) or length < 2:
        raise ValueError(f"fastwalshtransform: the length must be a power of two, got {length}")
    rng = np.random.default_rng(5)
    data = (rng.random(length) + rng.integers(0, 255, length)).astype(np.float32)
    d_data = session.device.array(data)
    step = 1
    while step < length:
        session.launch("fastWalshTransform", d_data, np.int32(step),
                       grid=(length // 2,), block=(GROUP,))
        step <<= 1
    got = d_data.numpy()
    d_data.free()
    exact = np.array_equal(got, butterflies(data))
    error = relative_error(got, butterflies(data.astype(np.float64)))
    return session.outcome("fastwalshtransform", f"-length {length}", exact and error < 1e-5,
                           f"bit-identical to the float32 replay: {exact}")

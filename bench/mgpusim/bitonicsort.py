"""AMD APP SDK bitonic sort (MGPUSim ``bitonicsort -length N``): kernel BitonicSort.

log2(N) stages of 1..stage+1 passes, one launch per pass (N/2 work-items,
work-groups of 64, arguments stage, pass, direction 1 = ascending), sorting
random uint32 in place; the result must equal NumPy's sort.
"""

from __future__ import annotations

import numpy as np

GROUP = 64


def passes(length: int) -> list[tuple[int, int]]:
    """(stage, pass) of every launch, in order."""
    stages = length.bit_length() - 1
    return [(stage, p) for stage in range(stages) for p in range(stage + 1)]


def run(session, length: int = 1024, ascending: bool = True):
    if length & (length - 1):
        raise ValueError(f"bitonicsort: the length must be a power of two, got {length}")
    data = np.random.default_rng(3).integers(0, 1 << 32, length, dtype=np.uint32)
    d_data = session.device.array(data)
    for stage, p in passes(length):
        session.launch("BitonicSort", d_data, np.uint32(stage), np.uint32(p),
                       np.uint32(1 if ascending else 0), grid=(length // 2,), block=(GROUP,))
    got = d_data.numpy()
    d_data.free()
    want = np.sort(data) if ascending else np.sort(data)[::-1]
    return session.outcome("bitonicsort", f"-length {length}", np.array_equal(got, want))

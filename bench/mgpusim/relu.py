"""DNN layer benchmark ReLU (MGPUSim ``relu -length N``): kernel ReLUForward.

One launch, grid N, work-groups of 64, over input[i] = i - 0.5.
"""

from __future__ import annotations

import numpy as np

GROUP = 64


def run(session, length: int = 4096):
    data = np.arange(length, dtype=np.float32) - np.float32(0.5)
    device = session.device
    d_in, d_out = device.array(data), device.zeros(length, np.float32)
    session.launch("ReLUForward", np.int32(length), d_in, d_out,
                   grid=(length,), block=(GROUP,))
    got = d_out.numpy()
    d_in.free()
    d_out.free()
    ok = np.array_equal(got, np.maximum(data, np.float32(0)))
    return session.outcome("relu", f"-length {length}", ok)

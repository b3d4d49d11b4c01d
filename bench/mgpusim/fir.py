"""Hetero-Mark FIR filter (MGPUSim ``fir -length N -taps T``): kernel FIR.

One launch, grid N, work-groups of 256: output[t] = sum_i coeff[i] *
input[t - i], reading the history buffer (zeros here) for t < i. MGPUSim's
data: coeff[i] = i, input[t] = t, so every product and sum is an integer
below 2^24 and float32 must match exactly.
"""

from __future__ import annotations

import numpy as np

GROUP = 256


def reference(coeff: np.ndarray, data: np.ndarray) -> np.ndarray:
    """Causal convolution with zero history, in float64."""
    return np.convolve(data.astype(np.float64), coeff.astype(np.float64))[:len(data)]


def run(session, length: int = 4096, taps: int = 16):
    coeff = np.arange(taps, dtype=np.float32)
    data = np.arange(length, dtype=np.float32)
    device = session.device
    d_out, d_coeff = device.zeros(length, np.float32), device.array(coeff)
    d_in, d_history = device.array(data), device.zeros(taps, np.float32)
    session.launch("FIR", d_out, d_coeff, d_in, d_history, np.uint32(taps),
                   grid=(length,), block=(GROUP,))
    got = d_out.numpy()
    for buffer in (d_out, d_coeff, d_in, d_history):
        buffer.free()
    ok = np.array_equal(got, reference(coeff, data).astype(np.float32))
    return session.outcome("fir", f"-length {length} -taps {taps}", ok)

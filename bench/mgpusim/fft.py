"""SHOC FFT (MGPUSim ``fft -bytes B -passes P``): kernel fft1D_512.

B bytes give 2 * (B / 8192) complex float32 FFTs of 512 points, the second
half a copy of the first (as MGPUSim fills them, random in [-1, 1)). Each of
the P passes is one launch transforming every FFT in place, 64 work-items
(one work-group) an FFT, through a 4608-byte LDS buffer. The reference is
NumPy's forward FFT in float64, applied P times.
"""

from __future__ import annotations

import numpy as np

from amdgpu_tools import LocalMemory

POINTS, GROUP = 512, 64
SMEM = 8 * 8 * 9 * 8


def run(session, nbytes: int = 8 * 1024 * 1024, passes: int = 1):
    half = nbytes // (POINTS * 4 * 2 * 2)
    if half < 1:
        raise ValueError(f"fft: at least {POINTS * 16} bytes are needed, got {nbytes}")
    rng = np.random.default_rng(15)
    first = (rng.random((half, POINTS, 2), dtype=np.float32) * 2 - 1).view(np.complex64)[..., 0]
    data = np.concatenate([first, first])
    d_work = session.device.array(data.view(np.float32))
    for _ in range(passes):
        session.launch("fft1D_512", d_work, LocalMemory(SMEM), grid=(GROUP * 2 * half,),
                       block=(GROUP,))
    got = d_work.numpy().view(np.complex64).reshape(data.shape)
    d_work.free()
    want = data.astype(np.complex128)
    for _ in range(passes):
        want = np.fft.fft(want, axis=1)
    error = float(np.abs(got - want).max() / np.abs(want).max())
    return session.outcome("fft", f"-bytes {nbytes} -passes {passes}", error < 1e-5,
                           f"{2 * half} FFTs, max rel. error {error:.1e}")

"""AMD APP SDK simple convolution (MGPUSim ``simpleconvolution -width W
-height H -mask-size M``): kernel simpleNonSeparableConvolution.

One launch over the padded image ((W+M-1) x (H+M-1) work-items, work-groups
of 64; items past the W x H output return): output = int(sum of the M x M
window times the mask + 0.5), the window anchored at the output's corner of
the padded uint32 input. MGPUSim feeds all ones; here the image is random
0..255 and the mask random [0, 1). The reference sums in float32 in the
kernel's order (row by row), so the integers must match exactly.
"""

from __future__ import annotations

import numpy as np

GROUP = 64


def reference(image: np.ndarray, mask: np.ndarray, width: int, height: int) -> np.ndarray:
    size = mask.shape[0]
    total = np.zeros((height, width), np.float32)
    for j in range(size):
        for i in range(size):
            total += image[j:j + height, i:i + width].astype(np.float32) * mask[j, i]
    return (total + np.float32(0.5)).astype(np.int32)


def run(session, width: int = 254, height: int = 254, mask_size: int = 3):
    rng = np.random.default_rng(7)
    padded_w, padded_h = width + mask_size - 1, height + mask_size - 1
    image = rng.integers(0, 256, (padded_h, padded_w)).astype(np.uint32)
    mask = rng.random((mask_size, mask_size), dtype=np.float32)
    device = session.device
    d_in, d_mask = device.array(image), device.array(mask)
    d_out = device.zeros((height, width), np.int32)
    session.launch("simpleNonSeparableConvolution", d_in, d_mask, d_out,
                   np.array([width, height], np.uint32),
                   np.array([mask_size, mask_size], np.uint32), np.uint32(padded_w),
                   grid=(padded_w * padded_h,), block=(GROUP,))
    got = d_out.numpy()
    for buffer in (d_in, d_mask, d_out):
        buffer.free()
    ok = np.array_equal(got, reference(image, mask, width, height))
    return session.outcome("simpleconvolution",
                           f"-width {width} -height {height} -mask-size {mask_size}", ok)

"""Rodinia Needleman-Wunsch (MGPUSim ``nw -length N``): kernels nw_kernel1/2.

The score matrix ((N+1) x (N+1) int32, penalty 10) is filled in 64x64 tiles,
one anti-diagonal of tiles per launch: nw_kernel1 with blk = 1..N/64 for the
upper-left triangle, then nw_kernel2. MGPUSim's host code launches
nw_kernel2 with blk = 1..N/64 (Rodinia's own host code: N/64-1 down to 1);
kernel2's tile diagonal is 2*N/64-1-blk, so MGPUSim fills the lower-right
tiles from the bottom-right corner inwards, before their north-west
neighbours are final. Its result therefore equals the Needleman-Wunsch matrix
only on the tile diagonals up to N/64; ``ORDERS`` has both launch orders.
The check replays the launch order tile by tile in NumPy (``tiled_reference``)
and compares every cell, and compares the cells that the order leaves exact
with the whole-matrix recurrence (``nw_scores``).
"""

from __future__ import annotations

import numpy as np

from amdgpu_tools import LocalMemory

BLOCK = 64
PENALTY = 10

#: BLOSUM62 in the residue order A R N D C Q E G H I L K M F P S T W Y V B Z X *
BLOSUM62 = np.array([[int(v) for v in row.split()] for row in """
 4 -1 -2 -2  0 -1 -1  0 -2 -1 -1 -1 -1 -2 -1  1  0 -3 -2  0 -2 -1  0 -4
-1  5  0 -2 -3  1  0 -2  0 -3 -2  2 -1 -3 -2 -1 -1 -3 -2 -3 -1  0 -1 -4
-2  0  6  1 -3  0  0  0  1 -3 -3  0 -2 -3 -2  1  0 -4 -2 -3  3  0 -1 -4
-2 -2  1  6 -3  0  2 -1 -1 -3 -4 -1 -3 -3 -1  0 -1 -4 -3 -3  4  1 -1 -4
 0 -3 -3 -3  9 -3 -4 -3 -3 -1 -1 -3 -1 -2 -3 -1 -1 -2 -2 -1 -3 -3 -2 -4
-1  1  0  0 -3  5  2 -2  0 -3 -2  1  0 -3 -1  0 -1 -2 -1 -2  0  3 -1 -4
-1  0  0  2 -4  2  5 -2  0 -3 -3  1 -2 -3 -1  0 -1 -3 -2 -2  1  4 -1 -4
 0 -2  0 -1 -3 -2 -2  6 -2 -4 -4 -2 -3 -3 -2  0 -2 -2 -3 -3 -1 -2 -1 -4
-2  0  1 -1 -3  0  0 -2  8 -3 -3 -1 -2 -1 -2 -1 -2 -2  2 -3  0  0 -1 -4
-1 -3 -3 -3 -1 -3 -3 -4 -3  4  2 -3  1  0 -3 -2 -1 -3 -1  3 -3 -3 -1 -4
-1 -2 -3 -4 -1 -2 -3 -4 -3  2  4 -2  2  0 -3 -2 -1 -2 -1  1 -4 -3 -1 -4
-1  2  0 -1 -3  1  1 -2 -1 -3 -2  5 -1 -3 -1  0 -1 -3 -2 -2  0  1 -1 -4
-1 -1 -2 -3 -1  0 -2 -3 -2  1  2 -1  5  0 -2 -1 -1 -1 -1  1 -3 -1 -1 -4
-2 -3 -3 -3 -2 -3 -3 -3 -1  0  0 -3  0  6 -4 -2 -2  1  3 -1 -3 -3 -1 -4
-1 -2 -2 -1 -3 -1 -1 -2 -2 -3 -3 -1 -2 -4  7 -1 -1 -4 -3 -2 -2 -1 -2 -4
 1 -1  1  0 -1  0  0  0 -1 -2 -2  0 -1 -2 -1  4  1 -3 -2 -2  0  0  0 -4
 0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -2 -1  1  5 -2 -2  0 -1 -1  0 -4
-3 -3 -4 -4 -2 -2 -3 -2 -2 -3 -2 -3 -1  1 -4 -3 -2 11  2 -3 -4 -3 -2 -4
-2 -2 -2 -3 -2 -1 -2 -3  2 -1 -1 -2 -1  3 -3 -2 -2  2  7 -1 -3 -2 -1 -4
 0 -3 -3 -3 -1 -2 -2 -3 -3  3  1 -2  1 -1 -2 -2  0 -3 -1  4 -3 -2 -1 -4
-2 -1  3  4 -3  0  1 -1  0 -3 -4  0 -3 -3 -2  0 -1 -4 -3 -3  4  1 -1 -4
-1  0  0  1 -3  3  4 -2  0 -3 -3  1 -1 -3 -1  0 -1 -3 -2 -2  1  4 -1 -4
 0 -1 -1 -1 -2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -2  0  0 -2 -1 -1 -1 -1 -1 -4
-4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4  1
""".strip().splitlines()], dtype=np.int32)


def kernel2_blks(width: int, order: str) -> list[int]:
    """nw_kernel2's blk values in launch order: MGPUSim's host or Rodinia's."""
    if order == "mgpusim":
        return list(range(1, width + 1))
    return list(range(width - 1, 0, -1))


ORDERS = ("mgpusim", "rodinia")


def launches(length: int, order: str) -> list[tuple[str, int]]:
    """(kernel, blk) of every launch of one run, in order."""
    width = length // BLOCK
    return ([("nw_kernel1", blk) for blk in range(1, width + 1)]
            + [("nw_kernel2", blk) for blk in kernel2_blks(width, order)])


def tiles(kernel: str, blk: int, width: int) -> list[tuple[int, int]]:
    """(tile row, tile column) that work-group bx of the launch fills, for each bx
    (nw.cl's b_index_y and b_index_x)."""
    if kernel == "nw_kernel1":
        return [(blk - 1 - bx, bx) for bx in range(blk)]
    return [(width - bx - 1, bx + width - blk) for bx in range(blk)]


def inputs(length: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(score matrix with its gap-penalty borders, substitution scores), as
    MGPUSim's initData builds them from two random sequences of residues 1..10."""
    rng = np.random.default_rng(seed)
    n = length + 1
    rows = rng.integers(1, 11, n).astype(np.int32)      # column 0 of the matrix
    cols = rng.integers(1, 11, n).astype(np.int32)      # row 0 of the matrix
    reference = BLOSUM62[rows[:, None], cols[None, :]]
    scores = np.zeros((n, n), np.int32)
    scores[:, 0] = -np.arange(n, dtype=np.int32) * PENALTY
    scores[0, :] = -np.arange(n, dtype=np.int32) * PENALTY
    return scores, np.ascontiguousarray(reference)


def fill(s: np.ndarray, ref: np.ndarray, penalty: int) -> None:
    """Fill s[:, 1:, 1:] in place by the recurrence, one anti-diagonal at a time,
    for a stack of matrices s (T, n+1, m+1) whose row 0 and column 0 are set;
    ref (T, n, m) holds the substitution score of each inner cell."""
    n, m = ref.shape[1], ref.shape[2]
    for d in range(2, n + m + 1):
        i = np.arange(max(1, d - m), min(n, d - 1) + 1)
        j = d - i
        diagonal = s[:, i - 1, j - 1] + ref[:, i - 1, j - 1]
        s[:, i, j] = np.maximum(diagonal, np.maximum(s[:, i, j - 1], s[:, i - 1, j]) - penalty)


def nw_scores(scores: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """The Needleman-Wunsch score matrix over the whole matrix at once."""
    s = scores[None].copy()
    fill(s, reference[None, 1:, 1:], PENALTY)
    return s[0]


def tiled_reference(scores, reference, order: str) -> np.ndarray:
    """The matrix after the launches of ``order``, replayed tile by tile: each
    launch's tiles read their north row and west column as the matrix holds
    them at that point."""
    s = scores.copy()
    width = (s.shape[0] - 1) // BLOCK
    for kernel, blk in launches(width * BLOCK, order):
        placed = tiles(kernel, blk, width)
        windows = np.stack([s[y * BLOCK:(y + 1) * BLOCK + 1, x * BLOCK:(x + 1) * BLOCK + 1]
                            for y, x in placed])
        refs = np.stack([reference[y * BLOCK + 1:(y + 1) * BLOCK + 1,
                                   x * BLOCK + 1:(x + 1) * BLOCK + 1] for y, x in placed])
        fill(windows, refs, PENALTY)
        for (y, x), window in zip(placed, windows):
            s[y * BLOCK + 1:(y + 1) * BLOCK + 1, x * BLOCK + 1:(x + 1) * BLOCK + 1] = window[1:, 1:]
    return s


def exact_mask(length: int, order: str) -> np.ndarray:
    """Cells whose value the launch order leaves equal to Needleman-Wunsch: all
    of them for Rodinia's order; MGPUSim's: row 0, column 0 and the tiles on
    tile diagonals 0..N/64."""
    n = length + 1
    if order == "rodinia":
        return np.ones((n, n), bool)
    tile = np.arange(n) - 1
    tile = np.where(tile < 0, 0, tile // BLOCK)
    mask = (tile[:, None] + tile[None, :]) <= length // BLOCK
    mask[0, :] = mask[:, 0] = True
    return mask


def run(session, length: int = 1536, order: str = "mgpusim"):
    """Launch the whole sequence of ``order`` on ``session`` and check it."""
    if length % BLOCK:
        raise ValueError(f"nw: the length must be a multiple of {BLOCK}, got {length}")
    scores, reference = inputs(length)
    device, cols, width = session.device, length + 1, length // BLOCK
    d_ref, d_scores = device.array(reference), device.array(scores)
    d_out = device.zeros((cols, cols), np.int32)
    for kernel, blk in launches(length, order):
        session.launch(kernel, d_ref, d_scores, d_out,
                       LocalMemory((BLOCK + 1) * (BLOCK + 1) * 4), LocalMemory(BLOCK * BLOCK * 4),
                       np.int32(cols), np.int32(PENALTY), np.int32(blk), np.int32(BLOCK),
                       np.int32(width), np.int32(length), np.int32(0), np.int32(0),
                       grid=(BLOCK * blk,), block=(BLOCK,))
    got = d_scores.numpy()
    for buffer in (d_ref, d_scores, d_out):
        buffer.free()
    return check(session, got, scores, reference, length, order)


def check(session, got, scores, reference, length, order):
    """Compare with the tile replay (every cell) and with Needleman-Wunsch
    (the cells the order leaves exact)."""
    replay = tiled_reference(scores, reference, order)
    truth = nw_scores(scores, reference)
    mask = exact_mask(length, order)
    same_replay = np.array_equal(got, replay)
    same_truth = np.array_equal(got[mask], truth[mask])
    differ = int(np.count_nonzero(got != truth))
    detail = f"kernel2 order {order}; {differ} cells differ from NW" if differ else \
        f"kernel2 order {order}; equals NW"
    return session.outcome("nw", f"-length {length}", same_replay and same_truth, detail)

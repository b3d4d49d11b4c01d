"""The register state of a batch of waves, held as NumPy arrays.

Every register file is laid out *register-major* so that one register of
every wave in the batch is one contiguous block: an instruction executed by a
contiguous run of waves then reads and writes plain views, no copies.

- ``sgpr``  (128, W) uint32, row = the 8-bit scalar operand code
  (s0..s101, flat_scratch, xnack_mask, vcc, tba/tma, ttmp, m0, exec ...).
- ``vgpr``  (V, W, 64) uint32, ``vgpr[r, w, lane]``.
- ``scc``   (W,) bool.
- ``mode``, ``status``, ``trapsts`` (W,) uint32: the hardware registers that
  s_getreg/s_setreg reach.
- ``lds``   (G, lds_bytes) uint8: one row per work-group of the batch;
  ``wave_group[w]`` is the row of wave w.

EXEC lives in ``sgpr[126]``/``sgpr[127]`` like any scalar operand; the one
place where 64-bit lane masks become boolean lane arrays and back is
``mask_to_lanes`` / ``lanes_to_mask``.
"""

from __future__ import annotations

import numpy as np

#: Scalar operand codes of the special registers (GFX8/GFX9 numbering).
VCC_LO = 106
VCC_HI = 107
M0 = 124
EXEC_LO = 126
EXEC_HI = 127
#: MODE[9:0]: FP_ROUND, FP_DENORM, DX10_CLAMP and IEEE, the bits the float
#: flags of ``WaveState.apply_float_mode`` come from.
FLOAT_MODE_BITS = 0x3FF
#: Rows of ``sgpr``: every 8-bit scalar register operand code.
SGPR_ROWS = 128
WAVE_SIZE = 64


def mask_to_lanes(lo, hi) -> np.ndarray:
    """64-bit lane masks given as (n,) low/high uint32 halves -> (n, 64) bool."""
    lo = np.asarray(lo, dtype=np.uint32).reshape(-1)
    halves = np.empty((lo.shape[0], 2), dtype=np.uint32)
    halves[:, 0] = lo
    halves[:, 1] = hi
    bits = np.unpackbits(halves.view(np.uint8), axis=1, bitorder="little")
    return bits.view(np.bool_)


def lanes_to_mask(lanes: np.ndarray):
    """(n, 64) bool lane array -> (lo, hi) pair of (n,) uint32 mask halves."""
    packed = np.packbits(np.ascontiguousarray(lanes, dtype=np.bool_), axis=1,
                         bitorder="little")
    words = np.ascontiguousarray(packed).view(np.uint32)
    return words[:, 0], words[:, 1]


def lanes_to_mask64(lanes: np.ndarray) -> np.ndarray:
    """(n, 64) bool lane array -> (n,) uint64 masks."""
    packed = np.packbits(np.ascontiguousarray(lanes, dtype=np.bool_), axis=1,
                         bitorder="little")
    return np.ascontiguousarray(packed).view(np.uint64)[:, 0]


def mask64_to_lanes(masks) -> np.ndarray:
    """(n,) uint64 masks -> (n, 64) bool lane array."""
    masks = np.ascontiguousarray(np.asarray(masks, dtype=np.uint64).reshape(-1))
    return np.unpackbits(masks.view(np.uint8).reshape(-1, 8), axis=1,
                         bitorder="little").view(np.bool_)


#: MODE.FP_ROUND values (per type: f32 in bits 1:0, f64/f16 in bits 3:2).
NEAREST_EVEN, TOWARD_POSITIVE, TOWARD_NEGATIVE, TOWARD_ZERO = 0, 1, 2, 3


class WaveState:
    """Registers, LDS and geometry of a batch of ``num_waves`` waves.

    Geometry (filled by the dispatcher before the set-up code runs):
    ``workgroup_id`` (W, 3) int64, the work-group's id in the grid;
    ``workgroup_size`` (W, 3) int64, the size of that (possibly partial)
    work-group; ``wave_in_group`` (W,) int64; ``workitem_id`` (3, W, 64)
    uint32, each lane's work-item id within its work-group (x, y, z);
    ``lane_valid`` (W, 64) bool, lanes that hold a work-item (the initial EXEC);
    ``wave_group`` (W,) int64, the batch-local work-group index (LDS row).
    ``wave_number`` (W,) int64: the dispatch-wide wave number used in messages.
    Helpers' state (layout, private_wave_offset, alive, ordered_passed, GWS
    waiters, GDS, LDS/GDS byte views, memtime) are typed fields, set below.
    """

    def __init__(self, *, target, num_waves: int, vgpr_count: int, num_groups: int,
                 lds_bytes: int, request=None, workitem_id=None, lane_valid=None):
        self.target = target
        self.request = request
        self.memory = getattr(request, "memory", None)
        self.num_waves = num_waves
        self.vgpr_count = vgpr_count
        self.sgpr = np.zeros((SGPR_ROWS, num_waves), dtype=np.uint32)
        self.vgpr = np.zeros((max(vgpr_count, 1), num_waves, WAVE_SIZE), dtype=np.uint32)
        self.scc = np.zeros(num_waves, dtype=np.bool_)
        self.mode = np.zeros(num_waves, dtype=np.uint32)
        self.status = np.zeros(num_waves, dtype=np.uint32)
        self.trapsts = np.zeros(num_waves, dtype=np.uint32)
        self.lds = np.zeros((num_groups, lds_bytes), dtype=np.uint8)
        self.wave_group = np.zeros(num_waves, dtype=np.int64)
        self.workgroup_id = np.zeros((num_waves, 3), dtype=np.int64)
        self.workgroup_size = np.ones((num_waves, 3), dtype=np.int64)
        self.wave_in_group = np.zeros(num_waves, dtype=np.int64)
        self.wave_number = np.arange(num_waves, dtype=np.int64)
        # (a dispatch's batch passes its own: zeros made to be replaced cost
        # ~0.1 ms a batch of 1024 waves)
        self.workitem_id = np.zeros((3, num_waves, WAVE_SIZE), dtype=np.uint32) \
            if workitem_id is None else workitem_id
        self.lane_valid = np.zeros((num_waves, WAVE_SIZE), dtype=np.bool_) \
            if lane_valid is None else lane_valid
        # Float-mode flags derived from MODE (see apply_float_mode); the
        # defaults are float_mode 0xC0 with DX10_CLAMP and IEEE set.
        self.apply_float_mode(0xC0 | (1 << 8) | (1 << 9))
        self._exec_cache = None
        #: set once some wave ran s_set_gpr_idx_on or s_setvskip: only then does
        #: the scheduler look for waves in those modes (exec/core/gpr_index.py)
        self.wave_modes_used = False
        #: set once some wave wrote MODE[9:0] (s_setreg): from then on the
        #: waves' float modes may differ, and the scheduler applies the MODE
        #: of the waves it runs (``float_mode_bits`` is the one applied)
        self.float_modes_written = False
        #: the DispatchLayout this batch belongs to (exec/setup.py), or None
        self.layout = None
        #: (W,) uint32 each wave's private segment wave offset, or None
        self.private_wave_offset = None
        #: (W,) bool waves not yet ended (the scheduler's array; None outside
        #: a run): ds_ordered_count serves waves in creation order
        self.alive = None
        #: (W,) bool waves that released their ds_ordered_count turn, or None
        self.ordered_passed = None
        #: waves waiting in a GWS barrier / semaphore: batch wave -> record
        self.gws_barrier_waiting = {}
        self.gws_sema_waiting = {}
        #: the GlobalDataShare of a WaveState without a request (tools, tests)
        self.gds = None
        #: (backing array, ByteArrayMemory) views of LDS and GDS, made on first use
        self.lds_view = None
        #: ``watch(ctx, piece, write, atomic)`` told of every LDS/global access
        #: (a hazard checker's race detector); None: no one watches
        self.memory_watch = None
        self.gds_view = None
        #: s_memtime / s_memrealtime ticks so far
        self.memtime = 0
        #: free slot for code outside the executor (tests, tools); the executor
        #: itself keeps everything in the typed fields above
        self.extra = {}

    def apply_float_mode(self, mode: int) -> None:
        """Derive the float-mode flags the ALU semantics read from a MODE value.

        MODE[3:0] FP_ROUND (f32 in [1:0], f64/f16 in [3:2]: 0 nearest even,
        1 +inf, 2 -inf, 3 toward zero); MODE[7:4] FP_DENORM (f32 in [5:4],
        f64/f16 in [7:6]: 0 flush input and output, 1 allow input only,
        2 allow output only, 3 allow both); MODE[8] DX10_CLAMP; MODE[9] IEEE.
        The flags hold for the waves being run: MODE is per wave, so once
        some wave wrote it (``float_modes_written``) the scheduler calls this
        whenever the running waves' MODE[9:0] differs from ``float_mode_bits``,
        and runs a group whose waves disagree one part per MODE value.
        """
        mode = int(mode)
        self.float_mode_bits = mode & FLOAT_MODE_BITS
        self.round_f32 = mode & 3
        self.round_f64_f16 = (mode >> 2) & 3
        self.denorm_f32 = (mode >> 4) & 3
        self.denorm_f64_f16 = (mode >> 6) & 3
        #: FP_DENORM == 0 for f32 ("flush"; the default float_mode 0xC0)
        self.flush_f32 = self.denorm_f32 == 0
        #: FP_DENORM == 0 for f64/f16 (off by default)
        self.flush_f64_f16 = self.denorm_f64_f16 == 0
        #: MODE.DX10_CLAMP: the clamp modifier turns NaN into 0
        self.dx10_clamp = bool(mode >> 8 & 1)
        #: MODE.IEEE: signalling NaNs make min/max/med3 return a quiet NaN
        self.ieee_mode = bool(mode >> 9 & 1)

    # ------------------------------------------------------------ lane masks
    def exec_lanes(self, sel) -> np.ndarray:
        """EXEC of the waves ``sel`` as an (n, 64) bool array (read-only).

        The last conversion is cached, keyed by the waves and the EXEC words
        themselves (a cheap (n,) comparison), so runs of vector instructions
        under one EXEC unpack it once.
        """
        lo, hi = self.sgpr[EXEC_LO, sel], self.sgpr[EXEC_HI, sel]
        if type(sel) is not slice:
            return mask_to_lanes(lo, hi)
        # the key holds the EXEC words as bytes: comparing two short byte
        # strings is far cheaper than two np.array_equal calls
        key = (sel.start, sel.stop, lo.tobytes(), hi.tobytes())
        cached = self._exec_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        lanes = mask_to_lanes(lo, hi)
        lanes.flags.writeable = False
        self._exec_cache = (key, lanes)
        return lanes

    def set_exec_lanes(self, sel, lanes: np.ndarray) -> None:
        lo, hi = lanes_to_mask(lanes)
        self.sgpr[EXEC_LO, sel] = lo
        self.sgpr[EXEC_HI, sel] = hi

    def read_mask(self, sel, code: int) -> np.ndarray:
        """The lane mask held in the SGPR pair at ``code`` as (n, 64) bool."""
        return mask_to_lanes(self.sgpr[code, sel], self.sgpr[code + 1, sel])

    def write_mask(self, sel, code: int, lanes: np.ndarray) -> None:
        lo, hi = lanes_to_mask(lanes)
        self.sgpr[code, sel] = lo
        self.sgpr[code + 1, sel] = hi

    # -------------------------------------------------------------- scalars
    def read_sgpr(self, sel, code: int, count: int = 1) -> np.ndarray:
        """SGPR operand ``code`` of each wave: (n,) for one dword, else (n, count)."""
        if count == 1:
            return self.sgpr[code, sel]
        return self.sgpr[code:code + count, sel].T

    def write_sgpr(self, sel, code: int, values, count: int = 1) -> None:
        """Write (n,) or (n, count) uint32 values to SGPR(s) starting at ``code``."""
        if count == 1:
            self.sgpr[code, sel] = values
        else:
            self.sgpr[code:code + count, sel] = np.asarray(values, dtype=np.uint32).T

    def read_sgpr64(self, sel, code: int) -> np.ndarray:
        lo = self.sgpr[code, sel].astype(np.uint64)
        hi = self.sgpr[code + 1, sel].astype(np.uint64)
        return lo | (hi << np.uint64(32))

    def write_sgpr64(self, sel, code: int, values) -> None:
        values = np.asarray(values, dtype=np.uint64)
        self.sgpr[code, sel] = (values & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        self.sgpr[code + 1, sel] = (values >> np.uint64(32)).astype(np.uint32)

    # -------------------------------------------------------------- vectors
    def read_vgpr(self, sel, reg: int) -> np.ndarray:
        """VGPR ``reg`` of the waves ``sel``: (n, 64) uint32."""
        return self.vgpr[reg, sel]

    def write_vgpr(self, sel, reg: int, values, lanes=None) -> None:
        """Write VGPR ``reg`` of the waves ``sel`` in the lanes ``lanes`` (bool (n, 64)).

        ``lanes=None`` writes every lane (the caller already decided); pass
        the EXEC lanes for an ordinary vector write.
        """
        if lanes is None:
            self.vgpr[reg, sel] = values
            return
        if isinstance(sel, slice):
            np.copyto(self.vgpr[reg, sel], values, where=lanes, casting="unsafe")
            return
        current = self.vgpr[reg, sel]
        np.copyto(current, values, where=lanes, casting="unsafe")
        self.vgpr[reg, sel] = current

"""The initial execution state of a kernel's waves, as a GCN dispatcher sets it.

This follows AMDGPUUsage's "Initial Kernel Execution State": the enabled
user SGPRs are loaded from s0 upwards in the fixed "SGPR Register Set Up
Order", the enabled system SGPRs follow at ``user_sgpr_count``, the work-item
ids go to v0/v1/v2, EXEC covers the wave's live work-items.  A dispatch also
gets its memory: a group segment (LDS) per work-group and a scratch backing
allocation holding every wave's private segments, lane-interleaved as the
private segment buffer V# describes.

``prepare_dispatch`` does the per-dispatch part once; ``initial_wave_state``
builds the registers of any batch of work-groups as NumPy arrays the core
copies into its wave-batch state; ``release_dispatch`` frees the scratch.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import LaunchError, MemoryFault
from ..runtime.layouts import AMD_QUEUE
from .addressing import WAVE_SIZE, encode_buffer_resource
from .memo import read_only_memo

#: Scratch is handed to waves in units that keep FLAT_SCRATCH_HI (GFX7/8,
#: 256-byte units) exact; hardware allocates 1 KiB-granular wave slots.
SCRATCH_WAVE_ALIGNMENT = 1024

#: Value M0 starts with.  The hardware leaves M0 undefined; compilers set it
#: (to -1 on GFX6-8) before LDS access.  Starting at all ones keeps hand-written
#: code that forgets this working instead of silently dropping its LDS stores.
INITIAL_M0 = 0xFFFFFFFF

#: Upper limit of the scratch backing one dispatch may ask for.
MAX_SCRATCH_BYTES = 1 << 31


@dataclass
class DispatchLayout:
    """Everything about a dispatch that does not change from wave to wave."""

    request: object
    generation: int
    grid_size: tuple
    workgroup_size: tuple
    workgroup_counts: tuple
    group_segment_bytes: int
    private_bytes_per_lane: int
    scratch_wave_bytes: int
    resident_waves: int
    scratch_address: int = 0
    scratch_size: int = 0
    private_segment_buffer: tuple = (0, 0, 0, 0)
    shared_aperture_base: int = 0
    private_aperture_base: int = 0

    @property
    def hidden_private_base(self) -> int:
        """GFX7/8 SH_HIDDEN_PRIVATE_BASE_VIMID: where FLAT_SCRATCH_HI counts from."""
        return self.scratch_address


@dataclass
class WaveBatchInit:
    """Initial registers of a batch of waves, one row per wave.

    ``sgprs[:, i]`` is the value of s<i>; ``workitem_ids[:, d, lane]`` that of
    v<d> (only the dimensions the kernel enables are meaningful to it).
    ``group_slot`` tells which work-group of the batch (and so which LDS) a
    wave belongs to.
    """

    sgprs: np.ndarray            # (waves, n) uint32
    workitem_ids: np.ndarray     # (waves, 3, 64) uint32
    exec_mask: np.ndarray        # (waves, 64) bool
    m0: np.ndarray               # (waves,) uint32
    flat_scratch: np.ndarray     # (waves,) uint64 (GFX7/8: HI << 32 | LO)
    workgroup_id: np.ndarray     # (waves, 3) int64
    group_slot: np.ndarray       # (waves,) int64
    wave_in_group: np.ndarray    # (waves,) int64
    private_wave_offset: np.ndarray  # (waves,) uint32
    vgpr_count_used: int = 1
    extra: dict = field(default_factory=dict)
    #: (waves, 3) int64: actual size of each wave's (possibly partial) work-group
    workgroup_size: np.ndarray | None = None


# ---------------------------------------------------------------- dispatch
def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


#: Layouts of dispatches without scratch, by everything they are computed from
#: (``_layout_key``): a repeated launch copies one instead of computing it.
_LAYOUTS: dict = {}
LAYOUT_CACHE_ENTRIES = 64


def prepare_dispatch(request, resident_waves: int | None = None) -> DispatchLayout:
    """Compute the dispatch geometry and map its scratch backing.

    ``resident_waves`` is how many waves may hold private memory at once
    (the core's batch size); by default every wave of the grid gets a slot.
    """
    key = _layout_key(request, resident_waves)
    known = _LAYOUTS.get(key) if key is not None else None
    if known is not None:
        layout = object.__new__(DispatchLayout)
        layout.__dict__.update(vars(known))
        layout.request = request
    else:
        layout = _compute_layout(request, resident_waves)
        _map_scratch(layout)
        if key is not None and not layout.scratch_size:
            if len(_LAYOUTS) >= LAYOUT_CACHE_ENTRIES:
                _LAYOUTS.clear()
            kept = object.__new__(DispatchLayout)
            kept.__dict__.update(vars(layout))
            kept.request = None          # a kept layout holds no device memory alive
            _LAYOUTS[key] = kept
    _publish_apertures(layout)
    return layout


def _layout_key(request, resident_waves):
    """What a layout is computed from, or None when a size is not a plain tuple."""
    grid, block = request.grid_size, request.workgroup_size
    if type(grid) is not tuple or type(block) is not tuple:
        return None
    return (request.setup, request.target.generation, grid, block,
            request.group_segment_size, request.private_segment_size, resident_waves,
            request.shared_aperture_base, request.private_aperture_base)


def _compute_layout(request, resident_waves) -> DispatchLayout:
    """The geometry, segment sizes and resident waves of a dispatch (nothing mapped)."""
    setup = request.setup
    grid = tuple(map(int, request.grid_size))
    block = tuple(map(int, request.workgroup_size))
    if min(block, default=1) <= 0 or min(grid, default=0) < 0:
        raise LaunchError(f"invalid grid {grid} / work-group size {block}")
    counts = tuple(-(-g // b) for g, b in zip(grid, block))
    generation = int(request.target.generation)
    lane_bytes = _align(max(int(request.private_segment_size),
                            int(setup.private_segment_fixed_size)), 4)
    wave_bytes = _align(lane_bytes * WAVE_SIZE, SCRATCH_WAVE_ALIGNMENT) if lane_bytes else 0
    waves_per_group = -(-(block[0] * block[1] * block[2]) // WAVE_SIZE)
    total_waves = counts[0] * counts[1] * counts[2] * waves_per_group
    layout = DispatchLayout(
        request=request, generation=generation, grid_size=grid, workgroup_size=block,
        workgroup_counts=counts,
        group_segment_bytes=max(int(request.group_segment_size),
                                int(setup.group_segment_fixed_size)),
        private_bytes_per_lane=lane_bytes, scratch_wave_bytes=wave_bytes,
        resident_waves=max(1, min(int(resident_waves or total_waves), total_waves)),
        shared_aperture_base=int(request.shared_aperture_base),
        private_aperture_base=int(request.private_aperture_base))
    return layout


def _map_scratch(layout: DispatchLayout) -> None:
    """Allocate the scratch backing and describe it with the private segment V#."""
    size = layout.scratch_wave_bytes * layout.resident_waves
    if size > MAX_SCRATCH_BYTES:
        raise LaunchError(f"kernel '{layout.request.kernel_name}' needs {size} bytes of "
                          f"scratch for {layout.resident_waves} waves (limit {MAX_SCRATCH_BYTES})")
    if size:
        layout.scratch_address = layout.request.memory.allocate(
            size, align=SCRATCH_WAVE_ALIGNMENT, kind="scratch",
            name=f"scratch:{layout.request.kernel_name}")
        layout.scratch_size = size
    layout.private_segment_buffer = encode_buffer_resource(
        layout.scratch_address, stride=0, num_records=size if size else 0,
        swizzle_enable=True, element_size=4, index_stride=64, add_tid_enable=True,
        num_format=4, data_format=0)


def _publish_apertures(layout: DispatchLayout) -> None:
    """Fill amd_queue_t's aperture fields, which GFX7/8 code loads via the queue ptr."""
    memory = layout.request.memory
    address = int(layout.request.queue_address)
    if not address or layout.generation >= 9:
        return
    try:
        AMD_QUEUE.write(memory, address, "group_segment_aperture_base_hi",
                        layout.shared_aperture_base >> 32)
        AMD_QUEUE.write(memory, address, "private_segment_aperture_base_hi",
                        layout.private_aperture_base >> 32)
    except MemoryFault as fault:
        raise LaunchError(f"kernel '{layout.request.kernel_name}': no amd_queue_t at "
                          f"0x{address:x} to publish the apertures in ({fault})") from None


def release_dispatch(layout: DispatchLayout) -> None:
    """Unmap the dispatch's scratch backing."""
    if layout.scratch_size:
        layout.request.memory.free(layout.scratch_address)
        layout.scratch_size = 0


# ------------------------------------------------------------- work-groups
#: Small grids whose work-group ids and wave geometry are kept (read-only) for
#: the next dispatch of the same grid: repeated launches of a small kernel then
#: skip laying them out again.
GEOMETRY_CACHE_GROUPS = 256
GEOMETRY_CACHE_ENTRIES = 64

def all_workgroup_ids(layout: DispatchLayout) -> np.ndarray:
    """Every work-group id of the grid, X fastest, shape (groups, 3)."""
    x, y, z = layout.workgroup_counts
    zz, yy, xx = np.meshgrid(np.arange(z), np.arange(y), np.arange(x), indexing="ij")
    return np.stack([xx.ravel(), yy.ravel(), zz.ravel()], axis=1).astype(np.int64)


_WORKGROUP_IDS: dict = {}


def shared_workgroup_ids(layout: DispatchLayout) -> np.ndarray:
    """``all_workgroup_ids`` as a read-only array shared by the dispatches of a
    grid of at most ``BIG_GRID_GROUPS`` work-groups (a fresh one above): the
    ids of a big grid took a 1M-item launch ~0.1 ms, in the host and again
    in each worker process."""
    counts = layout.workgroup_counts
    groups = counts[0] * counts[1] * counts[2]
    if groups > BIG_GRID_GROUPS:
        return all_workgroup_ids(layout)
    memo, limit = (_WORKGROUP_IDS, GEOMETRY_CACHE_ENTRIES) if groups <= GEOMETRY_CACHE_GROUPS \
        else (_BIG_WORKGROUP_IDS, BIG_GRID_ENTRIES)
    ids = memo.get(counts)
    if ids is None:
        ids = all_workgroup_ids(layout)
        ids.flags.writeable = False
        if len(memo) >= limit:
            memo.clear()
        memo[counts] = ids
    return ids


#: Grids of up to this many work-groups keep their ids (24 bytes each), a few
#: at a time when over GEOMETRY_CACHE_GROUPS.
BIG_GRID_GROUPS = 1 << 16
BIG_GRID_ENTRIES = 4
_BIG_WORKGROUP_IDS: dict = {}


def workgroup_extent(layout: DispatchLayout, group_ids: np.ndarray) -> np.ndarray:
    """Actual size of each work-group: the last one in a dimension may be partial."""
    block = np.asarray(layout.workgroup_size, np.int64)
    grid = np.asarray(layout.grid_size, np.int64)
    return np.minimum(block, grid - np.asarray(group_ids, np.int64) * block)


@dataclass
class WaveGeometry:
    """Where each wave of a batch sits in the grid (one row per wave)."""

    workgroup_id: np.ndarray     # (waves, 3) int64
    workgroup_size: np.ndarray   # (waves, 3) int64, actual (partial) size
    wave_in_group: np.ndarray    # (waves,) int64
    group_slot: np.ndarray       # (waves,) int64: work-group index in the batch
    workitem_id: np.ndarray      # (3, waves, 64) uint32
    lane_valid: np.ndarray       # (waves, 64) bool


_GEOMETRY_CACHE: dict = {}


def _shared_wave_geometry(layout: DispatchLayout, group_ids) -> WaveGeometry:
    """``wave_geometry`` of a small batch, computed once per (grid, work-group
    size, work-groups); the arrays are shared and read-only."""
    group_ids = np.asarray(group_ids, np.int64).reshape(-1, 3)
    if len(group_ids) > GEOMETRY_CACHE_GROUPS:
        return wave_geometry(layout, group_ids)
    key = (layout.grid_size, layout.workgroup_size, group_ids.tobytes())
    return read_only_memo(_GEOMETRY_CACHE, GEOMETRY_CACHE_ENTRIES, key,
                          lambda: wave_geometry(layout, group_ids))


def wave_geometry(layout: DispatchLayout, group_ids) -> WaveGeometry:
    """Split work-groups ``group_ids`` (shape (g, 3)) into 64-lane waves.

    Work-items are numbered x fastest within their (possibly partial)
    work-group and dealt to waves 64 at a time, as the SPI does.
    """
    group_ids = np.asarray(group_ids, np.int64).reshape(-1, 3)
    extent = workgroup_extent(layout, group_ids)
    shape = _one_shape(extent)
    if shape is not None:
        uniform = _uniform_geometry(shape, len(group_ids))
        return replace(uniform, workgroup_id=group_ids[uniform.group_slot])
    group_slot, wave_in_group = _wave_places(extent)
    ext = extent[group_slot]
    # A grid has at most 8 distinct work-group extents (full, or partial in
    # some dimensions): lay out each one once and copy it to its groups.
    ids = np.empty((3, group_slot.size, WAVE_SIZE), np.uint32)
    valid = np.empty((group_slot.size, WAVE_SIZE), np.bool_)
    shapes, shape_of = np.unique(extent, axis=0, return_inverse=True)
    shape_of = shape_of.reshape(-1)[group_slot]
    for index, shape in enumerate(shapes):
        waves = shape_of == index
        template_ids, template_valid = _group_template(shape)
        position = wave_in_group[waves]
        ids[:, waves] = template_ids[:, position]
        valid[waves] = template_valid[position]
    return WaveGeometry(group_ids[group_slot], ext, wave_in_group, group_slot, ids, valid)


def uniform_shape(layout: DispatchLayout, group_ids) -> tuple | None:
    """The one shape (x, y, z) of the work-groups ``group_ids`` (g, 3), or
    None where they differ (some are partial). Full work-groups, the usual
    case, are told from their ids alone (~7 us for 256 work-groups, against
    ~45 for every extent)."""
    group_ids = np.asarray(group_ids, np.int64).reshape(-1, 3)
    if len(group_ids) == 0:
        return None
    full = np.array([grid // block for grid, block in zip(layout.grid_size,
                                                          layout.workgroup_size)])
    if (group_ids < full).all():
        return tuple(int(size) for size in layout.workgroup_size)
    return _one_shape(workgroup_extent(layout, group_ids))


def _one_shape(extent) -> tuple | None:
    if len(extent) and (extent == extent[:1]).all():
        return tuple(int(size) for size in extent[0])
    return None


def _wave_places(extent):
    """(work-group index in the batch, wave index in its work-group) of each
    wave of work-groups of ``extent`` (g, 3)."""
    waves_per_group = -(-extent.prod(axis=1) // WAVE_SIZE)
    group_slot = np.repeat(np.arange(len(extent)), waves_per_group)
    first_of_group = np.concatenate(([0], np.cumsum(waves_per_group)[:-1]))
    wave_in_group = np.arange(group_slot.size) - np.repeat(first_of_group, waves_per_group)
    return group_slot, wave_in_group


#: (work-group shape, work-groups) -> a WaveGeometry of that many work-groups
#: of that shape, less their ids (read-only, shared).
_UNIFORM_GEOMETRY: dict = {}


def _uniform_geometry(shape, groups) -> WaveGeometry:
    """The geometry of ``groups`` work-groups of one ``shape``, made once:
    every batch of a grid's full work-groups has it (what differs, the
    work-group ids, ``wave_geometry`` puts in place of the empty ones here).
    Laying it out cost a wide kernel ~0.4 ms a batch of 1024 waves."""
    def make():
        extent = np.tile(np.asarray(shape, np.int64), (groups, 1))
        group_slot, wave_in_group = _wave_places(extent)
        template_ids, template_valid = _group_template(shape)
        return WaveGeometry(np.zeros((0, 3), np.int64), extent[group_slot], wave_in_group,
                            group_slot, np.take(template_ids, wave_in_group, axis=1),
                            np.take(template_valid, wave_in_group, axis=0))
    return read_only_memo(_UNIFORM_GEOMETRY, GEOMETRY_CACHE_ENTRIES, (shape, groups), make)


def _group_template(shape):
    """Work-item ids (3, waves, 64) and live lanes (waves, 64) of one work-group shape."""
    items = int(np.prod(shape))
    waves = -(-items // WAVE_SIZE)
    flat_id = np.arange(waves * WAVE_SIZE, dtype=np.int64).reshape(waves, WAVE_SIZE)
    valid = flat_id < items
    x, y = int(shape[0]), int(shape[1])
    ids = np.stack([flat_id % x, (flat_id // x) % y, flat_id // (x * y)]).astype(np.uint32)
    ids[:, ~valid] = 0
    return ids, valid


# ------------------------------------------------------------ wave registers
def make_lds(layout: DispatchLayout, group_count: int) -> np.ndarray:
    """Zeroed group segments (LDS) of ``group_count`` work-groups: (groups, bytes)."""
    return np.zeros((group_count, layout.group_segment_bytes), np.uint8)


def initial_wave_state(layout: DispatchLayout, geometry, first_wave_slot: int = 0
                       ) -> WaveBatchInit:
    """Initial registers of the waves of ``geometry``: a WaveGeometry or work-group ids.

    With work-group ids (shape (g, 3)) the waves are ordered by work-group,
    then by wave within it.  The private wave offset of the n-th wave is that
    of scratch slot ``first_wave_slot + n`` (modulo the resident slots).
    """
    if not isinstance(geometry, WaveGeometry):
        geometry = _shared_wave_geometry(layout, geometry)
    waves = geometry.wave_in_group.size
    wave_offset = private_wave_offsets(layout, first_wave_slot, waves)
    # the geometry's arrays as they are: shared by batches and dispatches,
    # read-only (as a batch state's geometry is: exec/core/prototype.py)
    state = WaveBatchInit(
        sgprs=np.zeros((waves, 0), np.uint32),
        workitem_ids=np.transpose(geometry.workitem_id, (1, 0, 2)),
        exec_mask=geometry.lane_valid, m0=np.full(waves, INITIAL_M0, np.uint32),
        flat_scratch=initial_flat_scratch(layout, wave_offset),
        workgroup_id=geometry.workgroup_id, group_slot=geometry.group_slot,
        wave_in_group=geometry.wave_in_group,
        private_wave_offset=wave_offset.astype(np.uint32),
        vgpr_count_used=int(layout.request.setup.enable_vgpr_workitem_id) + 1,
        workgroup_size=geometry.workgroup_size)
    state.sgprs = _initial_sgprs(layout, state)
    state.extra["dispatch_layout"] = layout
    return state


def private_wave_offsets(layout: DispatchLayout, first_wave_slot: int, waves: int) -> np.ndarray:
    """(waves,) uint64: the private segment wave offset of each wave of a
    batch whose first wave takes scratch slot ``first_wave_slot`` (the slots
    wrap around the resident waves')."""
    slots = (first_wave_slot + np.arange(waves)) % max(layout.resident_waves, 1)
    return (slots * layout.scratch_wave_bytes).astype(np.uint64)


def initial_flat_scratch(layout: DispatchLayout, wave_offset: np.ndarray) -> np.ndarray:
    """FLAT_SCRATCH as the kernel prolog would set it from flat scratch init.

    Setting it here too lets hand-written code that skips the prolog use flat
    scratch; a prolog overwrites it with the same value.
    """
    if layout.generation >= 9:
        return np.uint64(layout.scratch_address) + wave_offset
    high = wave_offset >> np.uint64(8)
    return (high << np.uint64(32)) | np.uint64(layout.private_bytes_per_lane)


def user_sgpr_values(layout: DispatchLayout) -> list:
    """The user SGPR values (the same for every wave), in set-up order."""
    setup = layout.request.setup
    request = layout.request
    values = []

    def pointer(value):
        values.extend((value & 0xFFFFFFFF, (value >> 32) & 0xFFFFFFFF))

    if setup.enable_sgpr_private_segment_buffer:
        values.extend(layout.private_segment_buffer)
    if setup.enable_sgpr_dispatch_ptr:
        pointer(int(request.packet_address))
    if setup.enable_sgpr_queue_ptr:
        pointer(int(request.queue_address))
    if setup.enable_sgpr_kernarg_segment_ptr:
        pointer(int(request.kernarg_address))
    if setup.enable_sgpr_dispatch_id:
        pointer(int(request.dispatch_id))
    if setup.enable_sgpr_flat_scratch_init:
        pointer(_flat_scratch_init(layout))
    if setup.enable_sgpr_private_segment_size:
        values.append(layout.private_bytes_per_lane)
    for dim, enabled in enumerate((setup.enable_sgpr_grid_workgroup_count_x,
                                   setup.enable_sgpr_grid_workgroup_count_y,
                                   setup.enable_sgpr_grid_workgroup_count_z)):
        if enabled:
            values.append(layout.workgroup_counts[dim])
    return values


def _flat_scratch_init(layout: DispatchLayout) -> int:
    """GFX9: the scratch base address. GFX7/8: offset from the hidden base | size << 32."""
    if layout.generation >= 9:
        return layout.scratch_address
    offset_from_hidden_base = layout.scratch_address - layout.hidden_private_base
    return offset_from_hidden_base | (layout.private_bytes_per_lane << 32)


def _system_sgprs(setup) -> list:
    """The system SGPRs ``setup`` enables, in the order they follow the user
    SGPRs: ("workgroup_id", dimension), ("workgroup_info", None) and
    ("private_wave_offset", None)."""
    kinds = [("workgroup_id", dim) for dim, enabled in enumerate(
        (setup.enable_sgpr_workgroup_id_x, setup.enable_sgpr_workgroup_id_y,
         setup.enable_sgpr_workgroup_id_z)) if enabled]
    if setup.enable_sgpr_workgroup_info:
        kinds.append(("workgroup_info", None))
    if setup.enable_sgpr_private_segment_wave_offset:
        kinds.append(("private_wave_offset", None))
    return kinds


def placed_sgprs(layout: DispatchLayout, workgroup_id, private_wave_offset) -> list:
    """(SGPR, values) of the initial SGPRs that say where a batch's waves
    sit in the grid: the work-group ids and the private wave offset (the
    rest, user SGPRs and work-group info, is the same for every batch of
    full work-groups: ``exec/core/prototype.py`` copies it)."""
    setup = layout.request.setup
    placed = []
    for row, (kind, dim) in enumerate(_system_sgprs(setup), start=setup.user_sgpr_count):
        if kind == "workgroup_id":
            placed.append((row, workgroup_id[:, dim].astype(np.uint32)))
        elif kind == "private_wave_offset":
            placed.append((row, private_wave_offset))
    return placed


def _initial_sgprs(layout: DispatchLayout, state: WaveBatchInit) -> np.ndarray:
    setup = layout.request.setup
    user = user_sgpr_values(layout)[:setup.user_sgpr_count]
    waves = state.exec_mask.shape[0]
    system = _system_sgprs(setup)
    sgprs = np.zeros((waves, setup.user_sgpr_count + len(system)), np.uint32)
    sgprs[:, :len(user)] = np.asarray(user, np.uint32)
    for row, (kind, dim) in enumerate(system, start=setup.user_sgpr_count):
        if kind == "workgroup_id":
            sgprs[:, row] = state.workgroup_id[:, dim]
        elif kind == "private_wave_offset":
            sgprs[:, row] = state.private_wave_offset
        else:
            first_wave = (state.wave_in_group == 0).astype(np.uint32) << np.uint32(31)
            # the columns multiplied: .prod(axis=1) took ~90 us for 1,024 waves
            size = state.workgroup_size
            group_waves = -(-(size[:, 0] * size[:, 1] * size[:, 2]) // WAVE_SIZE)
            sgprs[:, row] = first_wave | group_waves.astype(np.uint32)
    return sgprs


# ------------------------------------------------ the core's wave-batch state
def flat_scratch_code(generation: int) -> int:
    """Scalar operand code of FLAT_SCRATCH_LO: s102 on GFX8/9, s104 on GFX7.
    GFX6 has no FLAT_SCRATCH: its code 104 too, past the last SGPR (s103),
    where the initial value the set-up writes there (zero) clobbers none."""
    return 102 if generation >= 8 else 104


def dispatch_layout(state):
    """The DispatchLayout of the dispatch a WaveState belongs to (or None)."""
    layout = getattr(state, "layout", None)
    return layout if layout is not None else state.extra.get("dispatch_layout")

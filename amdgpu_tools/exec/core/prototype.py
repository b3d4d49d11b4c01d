"""Initial batch states kept across dispatches: the per-launch fast path.

A kernel launched again and again with the same geometry starts each batch
from the same registers, except the few that name the dispatch: the user
SGPRs (dispatch, queue and kernarg pointers, dispatch id, the scratch V# and
flat scratch init) and FLAT_SCRATCH, which depend on the packet's addresses
and the scratch backing. Building a small batch's ``WaveState`` costs tens
of microseconds, nearly all of it NumPy call overhead on tiny arrays, which
is most of what a launch of a short kernel costs. So a small batch's freshly
built state is kept as a *prototype*, keyed by everything the build reads
except those per-dispatch values; each later dispatch copies the prototype
and rewrites only the registers whose values differ.

A big batch (over PROTOTYPE_MAX_BYTES) of work-groups of one shape starts
from a *template* instead: the state of an earlier such batch of the same
kernel and geometry, kept without its place in the grid. Each batch copies
it and writes what says where its waves sit (work-group ids, wave numbers,
scratch wave offsets and the SGPRs holding them, FLAT_SCRATCH). A copy
costs half a build, and the build's NumPy calls on fresh arrays ran
cold-cached: a 1M-work-item vector add spent a third of its time building
its 16 batches (~0.3 ms each).

The key holds the kernel's ``KernelSetup`` (entry, register counts, enables,
float mode, fixed segment sizes), the target, the grid and work-group sizes,
the group segment size (fixed + dynamic LDS), the private segment layout and
resident wave count, and the batch's position in the grid: a launch that
changes any of these builds (and keeps) a new prototype. Kernel *code* is
not part of a state: rewritten code is fetched and decoded by the program
cache, which keys instructions by their bytes.
"""

from __future__ import annotations

import numpy as np

from .. import setup as setup_mod

#: A batch state is kept as a prototype, one per place in the grid, only
#: while its arrays hold at most this many bytes; a bigger one is kept as a
#: template, one per work-group shape, and placed (a few MBs each: memory).
PROTOTYPE_MAX_BYTES = 256 << 10
#: Arrays of a kept state at least this big are copied by their non-zero rows
#: where at most half of them have any (``Prototype.sparse``).
SPARSE_MIN_BYTES = 64 << 10
#: Prototypes kept at once (the memo is emptied when full).
PROTOTYPE_ENTRIES = 64
#: Templates of big batches kept at once (each holds a batch's registers: MBs).
TEMPLATE_ENTRIES = 4


class Prototype:
    """A batch's initial state and the per-dispatch values it was built with."""

    __slots__ = ("state", "user_sgprs", "scratch_address", "arrays", "containers", "shared",
                 "sparse")

    def __init__(self, state, user_sgprs, scratch_address):
        self.state = state
        self.user_sgprs = user_sgprs
        self.scratch_address = scratch_address
        fields = vars(state)
        #: what a copy must not share: the writable arrays, the dicts and lists
        self.arrays = tuple((name, value) for name, value in fields.items()
                            if type(value) is np.ndarray and value.flags.writeable)
        self.containers = tuple((name, value) for name, value in fields.items()
                                if type(value) in (dict, list))
        #: the fields a copy shares (read-only arrays, the target, numbers)
        own = {name for name, _ in self.arrays + self.containers}
        self.shared = {name: value for name, value in fields.items() if name not in own}
        #: name -> the rows not all zero, of the big arrays mostly zero (a
        #: template's registers: one VGPR of eight, a few SGPR rows): such a
        #: copy is made zeroed and those rows written (~2x faster than a copy)
        self.sparse = {}
        for name, array in self.arrays:
            if array.ndim > 1 and array.nbytes >= SPARSE_MIN_BYTES:
                rows = np.flatnonzero(array.reshape(len(array), -1).any(axis=1))
                if 2 * len(rows) <= len(array):
                    self.sparse[name] = [int(row) for row in rows]

    def copy(self):
        """A state of its own: the prototype's writable arrays and containers
        copied, everything else (read-only arrays, the target) shared."""
        twin = object.__new__(type(self.state))
        fields = twin.__dict__
        fields.update(self.shared)
        sparse = self.sparse
        for name, array in self.arrays:
            rows = sparse.get(name)
            if rows is None:
                fields[name] = array.copy(order="K")
            else:                               # (np.zeros: calloc; zeros_like fills)
                fields[name] = copy = np.zeros(array.shape, array.dtype)
                for row in rows:
                    copy[row] = array[row]
        for name, container in self.containers:
            fields[name] = type(container)(container)
        return twin


_PROTOTYPES: dict = {}
_TEMPLATES: dict = {}


def prototype_key(request, layout, position: tuple, groups: int):
    """Everything a batch's initial state depends on, but for the dispatch's
    addresses; ``position``: (first work-group, first wave number, first
    scratch slot), or for a template the shape of its work-groups."""
    return (request.target, request.setup, layout.grid_size, layout.workgroup_size,
            layout.group_segment_bytes, layout.private_bytes_per_lane,
            layout.scratch_wave_bytes, layout.resident_waves, position, groups)


#: The initial SGPRs a batch state holds are rows below this one (``_build_state``).
FIRST_SPECIAL_SGPR = 102


def flat_scratch_row(target) -> int:
    """The SGPR row the initial FLAT_SCRATCH goes to (``setup.flat_scratch_code``)."""
    return setup_mod.flat_scratch_code(getattr(target, "generation", 9))


def dispatch_user_sgprs(layout) -> list:
    """The user SGPR values a batch state holds (rows 0.., as ``_make_state`` copies them)."""
    count = min(int(layout.request.setup.user_sgpr_count), FIRST_SPECIAL_SGPR)
    return setup_mod.user_sgpr_values(layout)[:count] if count else []


def batch_state(request, layout, position, group_ids, build):
    """The initial WaveState of a batch at ``position`` (its first work-group,
    first wave number and first scratch slot): for a small batch a copy of
    its prototype (built by ``build()`` the first time); for a big one of
    work-groups of one shape a copy of its template, placed (built the first
    time); else ``build()``. The registers that name the dispatch are
    rewritten in copies."""
    key = prototype_key(request, layout, position, len(group_ids))
    prototype = _PROTOTYPES.get(key)
    if prototype is not None:
        state = prototype.copy()
        _rebind(state, prototype, request, layout)
        return state
    shape = setup_mod.uniform_shape(layout, group_ids)
    template_key = prototype_key(request, layout, shape, len(group_ids))
    template = _TEMPLATES.get(template_key) if shape is not None else None
    if template is not None:
        state = template.copy()
        _rebind(state, template, request, layout)
        _place(state, request, layout, position, group_ids)
        return state
    state = build()
    if _state_bytes(state) <= PROTOTYPE_MAX_BYTES:
        _remember(_PROTOTYPES, PROTOTYPE_ENTRIES, key, state, layout)
    elif shape is not None:
        _remember(_TEMPLATES, TEMPLATE_ENTRIES, template_key, state, layout)
    return state


def _remember(memo, limit, key, state, layout) -> None:
    if len(memo) >= limit:
        memo.clear()
    memo[key] = Prototype(_detached(state), dispatch_user_sgprs(layout), layout.scratch_address)


def _place(state, request, layout, position, group_ids) -> None:
    """Put a copied template's waves where the batch at ``position`` sits:
    its work-group ids, wave numbers and scratch wave offsets, the SGPRs
    holding them (``setup.placed_sgprs``) and FLAT_SCRATCH."""
    _, first_wave, slot = position
    waves = state.num_waves
    # (np.take: ~4x faster than indexing rows with an array)
    state.workgroup_id = np.take(np.asarray(group_ids, np.int64).reshape(-1, 3),
                                 state.wave_group, axis=0)
    state.wave_number = first_wave + np.arange(waves, dtype=np.int64)
    scratch = layout.scratch_wave_bytes != 0     # else every wave's offset is 0, as copied
    if scratch:
        offsets = setup_mod.private_wave_offsets(layout, slot, waves)
        state.private_wave_offset = offsets.astype(np.uint32)
    for row, values in setup_mod.placed_sgprs(layout, state.workgroup_id,
                                              state.private_wave_offset):
        if row < FIRST_SPECIAL_SGPR:
            state.sgpr[row] = values
    if scratch:
        state.write_sgpr64(slice(None), flat_scratch_row(request.target),
                           setup_mod.initial_flat_scratch(layout, offsets))


def _rebind(state, prototype, request, layout) -> None:
    """Point a copied prototype at this dispatch: its request, layout and
    checker, its user SGPRs and (with a different scratch backing) FLAT_SCRATCH."""
    state.request = request
    state.memory = request.memory
    state.layout = layout
    state.extra["dispatch_layout"] = layout
    state.memory_watch = request.checker.memory if request.checker is not None else None
    user = dispatch_user_sgprs(layout)
    if user != prototype.user_sgprs:
        state.sgpr[:len(user)] = np.asarray(user, np.uint32)[:, None]
    if layout.scratch_address != prototype.scratch_address:
        offsets = state.private_wave_offset.astype(np.uint64)
        state.write_sgpr64(slice(None), flat_scratch_row(request.target),
                           setup_mod.initial_flat_scratch(layout, offsets))


#: Arrays only the set-up writes (the batch's geometry): a prototype's are made
#: read-only and shared by its copies instead of copied.
GEOMETRY_ARRAYS = ("wave_group", "workgroup_id", "workgroup_size", "wave_in_group",
                   "wave_number", "workitem_id", "lane_valid", "private_wave_offset")


def _detached(state):
    """A copy of ``state`` that holds nothing of its dispatch (a kept prototype
    must not keep a device's memory alive), its geometry arrays read-only."""
    copy = object.__new__(type(state))
    for name, value in vars(state).items():
        if type(value) is np.ndarray:
            value = value.copy(order="K")
        elif type(value) in (dict, list):
            value = type(value)(value)
        setattr(copy, name, value)
    copy.request = copy.memory = copy.layout = copy.memory_watch = None
    copy._exec_cache = None
    copy.extra.pop("dispatch_layout", None)
    for name in GEOMETRY_ARRAYS:
        getattr(copy, name).flags.writeable = False     # copies: they own their data
    return copy


def _state_bytes(state) -> int:
    return sum(value.nbytes for value in vars(state).values() if isinstance(value, np.ndarray))


def clear() -> None:
    """Forget every prototype and template (tests compare cached and fresh builds)."""
    _PROTOTYPES.clear()
    _TEMPLATES.clear()

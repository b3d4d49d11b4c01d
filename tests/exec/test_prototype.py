"""A batch state copied from its kept prototype equals one built from scratch,
register for register, whatever the dispatch's addresses, scratch backing and
dispatch id; a prototype holds nothing of the dispatch it was built for."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from amdgpu_tools.exec import setup as setup_mod
from amdgpu_tools.exec.core import dispatch, prototype
from amdgpu_tools.exec.launch import DispatchRequest, KernelSetup
from amdgpu_tools.isa.targets import get_target
from amdgpu_tools.runtime.memory import DeviceMemory

EVERY_USER_SGPR = dict(
    user_sgpr_count=16, enable_sgpr_private_segment_buffer=True, enable_sgpr_dispatch_ptr=True,
    enable_sgpr_queue_ptr=True, enable_sgpr_kernarg_segment_ptr=True,
    enable_sgpr_dispatch_id=True, enable_sgpr_flat_scratch_init=True,
    enable_sgpr_private_segment_size=True, enable_sgpr_grid_workgroup_count_x=True,
    enable_sgpr_grid_workgroup_count_y=True, enable_sgpr_workgroup_id_x=True,
    enable_sgpr_workgroup_id_y=True, enable_sgpr_workgroup_info=True,
    enable_sgpr_private_segment_wave_offset=True, enable_vgpr_workitem_id=1)


def _request(memory, target, setup, grid, block, n, lds=0):
    """The n-th dispatch: its own packet, kernarg, queue addresses and dispatch id
    (GFX7/8 dispatches write the apertures into their amd_queue_t: it is mapped)."""
    queues = memory.allocate(0x400, kind="queue")
    return DispatchRequest(
        memory=memory, target=get_target(target), kernel_name="k", setup=setup,
        grid_size=grid, workgroup_size=block, packet_address=0x7000_0000 + 64 * n,
        queue_address=queues + 0x100 * (n % 4), kernarg_address=0x5000_0000 + 0x1000 * n,
        dispatch_id=n * 3 + 1, group_segment_size=lds, private_segment_size=16 * (n % 2))


def _states(request):
    """(state from the prototype path, state built from scratch) for one batch."""
    groups = dispatch._groups_per_batch(request, request.setup.vgpr_count)
    waves = -(-dispatch._product(request.workgroup_size) // 64)
    layout = setup_mod.prepare_dispatch(request, resident_waves=groups * waves)
    ids = setup_mod.shared_workgroup_ids(layout)[:groups]
    try:
        cached = dispatch._make_state(request, layout, 0, ids, 0, None)
        fresh = dispatch._build_state(request, layout, ids, 0, 0)
    finally:
        setup_mod.release_dispatch(layout)
    return cached, fresh


def _assert_same(cached, fresh):
    assert vars(cached).keys() == vars(fresh).keys()
    for name, value in vars(fresh).items():
        other = getattr(cached, name)
        if isinstance(value, np.ndarray):
            assert other.dtype == value.dtype and np.array_equal(other, value), name
        elif name == "extra":
            assert other.keys() == value.keys() and other["dispatch_layout"] is \
                value["dispatch_layout"]
        else:
            assert other is value or other == value, name


@pytest.mark.parametrize("target", ["gfx803", "gfx900", "gfx700", "gfx600"])
@pytest.mark.parametrize("grid,block,lds", [((64, 1, 1), (64, 1, 1), 0),
                                            ((100, 3, 1), (64, 2, 1), 512),
                                            ((30, 1, 1), (32, 1, 1), 4096)])
def test_prototype_copies_equal_fresh_builds(target, grid, block, lds):
    prototype.clear()
    memory = DeviceMemory()
    setup = KernelSetup(entry_address=0x1000, sgpr_count=32, vgpr_count=8,
                        private_segment_fixed_size=8, **EVERY_USER_SGPR)
    for n in range(4):      # the first builds the prototype, the others copy it
        request = _request(memory, target, setup, grid, block, n, lds)
        cached, fresh = _states(request)
        _assert_same(cached, fresh)
        # the registers that name the dispatch did change from launch to launch
        assert cached.sgpr[8, 0] == request.kernarg_address & 0xFFFFFFFF
        assert cached.sgpr[10, 0] == request.dispatch_id
    assert len(prototype._PROTOTYPES) == 2     # scratch size alternates: two layouts


def test_running_a_copy_leaves_the_prototype_as_built():
    prototype.clear()
    memory = DeviceMemory()
    setup = KernelSetup(entry_address=0x1000, sgpr_count=32, vgpr_count=4, **EVERY_USER_SGPR)
    request = _request(memory, "gfx900", setup, (128, 1, 1), (64, 1, 1), 0)
    _states(request)                       # builds the prototype
    copy, _ = _states(request)
    copy.sgpr[:] = 0xDEAD
    copy.vgpr[:] = 0xBEEF
    copy.lds[:] = 0xAA
    copy.mode[:] = 0
    with pytest.raises(ValueError):
        copy.workitem_id[0, 0, 0] = 9      # shared with the prototype: read-only
    again, fresh = _states(request)
    _assert_same(again, fresh)


def test_prototypes_keep_no_device_memory_alive():
    prototype.clear()
    memory = DeviceMemory()
    setup = KernelSetup(entry_address=0x1000, sgpr_count=16, vgpr_count=4, user_sgpr_count=2,
                        enable_sgpr_kernarg_segment_ptr=True)
    _states(_request(memory, "gfx900", setup, (64, 1, 1), (64, 1, 1), 0))
    assert len(prototype._PROTOTYPES) == 1
    gone = weakref.ref(memory)
    del memory
    gc.collect()
    assert gone() is None


def _every_batch(request):
    """(state from the prototype/template path, state built from scratch) of
    every batch of ``request``'s grid, as a one-process dispatch numbers them."""
    groups = dispatch._groups_per_batch(request, request.setup.vgpr_count)
    waves = -(-dispatch._product(request.workgroup_size) // 64)
    layout = setup_mod.prepare_dispatch(request, resident_waves=groups * waves)
    ids = setup_mod.shared_workgroup_ids(layout)
    pairs, first_wave = [], 0
    try:
        for start in range(0, len(ids), groups):
            chunk = ids[start:start + groups]
            pairs.append((dispatch._make_state(request, layout, start, chunk, first_wave, None),
                          dispatch._build_state(request, layout, chunk, first_wave, first_wave)))
            first_wave += pairs[-1][1].num_waves
    finally:
        setup_mod.release_dispatch(layout)
    return pairs


@pytest.mark.parametrize("target", ["gfx900", "gfx803", "gfx700"])
@pytest.mark.parametrize("grid,block", [((64 * 64 * 3 + 100, 1, 1), (256, 1, 1)),
                                        ((200, 70, 2), (16, 16, 1))])
@pytest.mark.parametrize("private", [0, 8])
def test_big_batches_copy_their_template_placed(target, grid, block, private, monkeypatch):
    """Batches of 16 waves here (the budget lowered): each full batch after
    the first copies the template and is placed (work-group ids, wave
    numbers, scratch offsets); a batch with partial work-groups is built.
    Every one equals a fresh build, launch after launch, with and without
    scratch (a fixed size of 0 maps none for every other launch), whatever
    the dispatch's addresses."""
    monkeypatch.setattr(dispatch, "MAX_BATCH_WAVES", 16)
    placed = []
    place = prototype._place
    monkeypatch.setattr(prototype, "_place", lambda state, *args: placed.append(
        place(state, *args)))
    prototype.clear()
    memory = DeviceMemory()
    setup = KernelSetup(entry_address=0x1000, sgpr_count=32, vgpr_count=64,
                        private_segment_fixed_size=private,
                        **dict(EVERY_USER_SGPR, enable_sgpr_workgroup_id_z=True))
    for n in range(3):
        request = _request(memory, target, setup, grid, block, n)
        pairs = _every_batch(request)
        assert len(pairs) > 3
        for cached, fresh in pairs:
            _assert_same(cached, fresh)
        second = pairs[1][0]            # placed, where the shapes allow: not batch 0's ids
        assert second.sgpr[setup.user_sgpr_count, 0] == second.workgroup_id[0, 0] > 0
    # full batches after the first of each layout (scratch alternates) are placed
    assert len(placed) >= (3 * len(pairs) - 8 if grid[1] == 1 else 3)


def test_big_batches_of_mixed_shapes_are_built_every_time():
    prototype.clear()
    memory = DeviceMemory()
    setup = KernelSetup(entry_address=0x1000, sgpr_count=16, vgpr_count=64, user_sgpr_count=2,
                        enable_sgpr_kernarg_segment_ptr=True)
    request = _request(memory, "gfx900", setup, (64 * 64 - 32, 1, 1), (256, 1, 1), 0)
    cached, fresh = _states(request)
    _assert_same(cached, fresh)
    assert prototype._PROTOTYPES == {} and prototype._TEMPLATES == {}


@pytest.mark.parametrize("private", [0, 16])
def test_a_kept_dispatch_layout_equals_a_computed_one(private):
    memory = DeviceMemory()
    setup = KernelSetup(entry_address=0x1000, sgpr_count=16, vgpr_count=4, user_sgpr_count=2,
                        enable_sgpr_kernarg_segment_ptr=True)
    layouts = []
    for n in range(3):
        request = _request(memory, "gfx803", setup, (100, 2, 1), (64, 1, 1), n, lds=256)
        request.private_segment_size = private
        layouts.append(setup_mod.prepare_dispatch(request, resident_waves=4))
        fresh = setup_mod._compute_layout(request, 4)
        setup_mod._map_scratch(fresh)
        kept = vars(layouts[-1])
        for name, value in vars(fresh).items():
            if name != "scratch_address" and name != "private_segment_buffer":
                assert kept[name] == value if name != "request" else kept[name] is request
        assert (kept["scratch_address"] != 0) == bool(private)
        setup_mod.release_dispatch(fresh)
        setup_mod.release_dispatch(layouts[-1])
    key = setup_mod._layout_key(request, 4)
    assert (key in setup_mod._LAYOUTS) == (not private)     # scratch is mapped per dispatch
    if not private:
        assert setup_mod._LAYOUTS[key].request is None

"""Initial kernel execution state: SGPR set-up order, work-item ids, EXEC, scratch."""

import numpy as np
import pytest

from amdgpu_tools.errors import LaunchError
from amdgpu_tools.exec import setup
from amdgpu_tools.exec.addressing import decode_buffer_resource
from amdgpu_tools.exec.launch import (PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE,
                                      DispatchRequest, KernelSetup)
from amdgpu_tools.isa.targets import get_target
from amdgpu_tools.runtime.memory import DeviceMemory

PACKET, QUEUE, KERNARG = 0x7_0000_1000, 0x7_0000_2000, 0x7_1234_5678


def request(target="gfx900", grid=(256, 1, 1), block=(64, 1, 1), private=0, group=0,
            memory=None, dispatch_id=0x1_0000_0005, queue=QUEUE, **enables):
    user = enables.pop("user_sgpr_count", None)
    fields = dict(entry_address=0, sgpr_count=32, vgpr_count=8, user_sgpr_count=user or 0)
    fields.update(enables)
    kernel = KernelSetup(**fields)
    if user is None:
        kernel = KernelSetup(**{**fields, "user_sgpr_count": len(_expected_user(kernel))})
    return DispatchRequest(memory=memory or DeviceMemory(), target=get_target(target),
                           kernel_name="k", setup=kernel, grid_size=grid,
                           workgroup_size=block, packet_address=PACKET,
                           queue_address=queue, kernarg_address=KERNARG,
                           dispatch_id=dispatch_id, group_segment_size=group,
                           private_segment_size=private)


def _expected_user(kernel):
    """Only the count of user SGPRs, from AMDGPUUsage's table of sizes."""
    sizes = [("enable_sgpr_private_segment_buffer", 4), ("enable_sgpr_dispatch_ptr", 2),
             ("enable_sgpr_queue_ptr", 2), ("enable_sgpr_kernarg_segment_ptr", 2),
             ("enable_sgpr_dispatch_id", 2), ("enable_sgpr_flat_scratch_init", 2),
             ("enable_sgpr_private_segment_size", 1), ("enable_sgpr_grid_workgroup_count_x", 1),
             ("enable_sgpr_grid_workgroup_count_y", 1), ("enable_sgpr_grid_workgroup_count_z", 1)]
    return [None] * sum(size for name, size in sizes if getattr(kernel, name))


def lo(value):
    return value & 0xFFFFFFFF


def hi(value):
    return value >> 32


def first_waves(req, count=None):
    layout = setup.prepare_dispatch(req)
    init = setup.initial_wave_state(layout, setup.all_workgroup_ids(layout))
    return layout, init


def test_v3_style_kernarg_and_workgroup_ids():
    """Typical clang-19 kernel: kernarg ptr in s[0:1], work-group id x in s2."""
    req = request(grid=(256, 4, 1), block=(64, 2, 1), enable_sgpr_kernarg_segment_ptr=True,
                  enable_sgpr_workgroup_id_x=True, enable_sgpr_workgroup_id_y=True)
    layout, init = first_waves(req)
    assert layout.workgroup_counts == (4, 2, 1)
    assert init.sgprs.shape[1] == 4
    # work-groups in X-fastest order, two waves each
    expected_groups = [(x, y) for y in range(2) for x in range(4) for _ in range(2)]
    assert init.sgprs[:, 0].tolist() == [lo(KERNARG)] * 16
    assert init.sgprs[:, 1].tolist() == [hi(KERNARG)] * 16
    assert list(zip(init.sgprs[:, 2].tolist(), init.sgprs[:, 3].tolist())) == expected_groups


def test_every_user_sgpr_in_set_up_order_v2_style():
    memory = DeviceMemory()
    queue = memory.allocate(256)      # GFX8: the dispatch publishes the apertures in it
    req = request(target="gfx803", private=20, block=(64, 1, 1), grid=(200, 3, 2),
                  memory=memory, queue=queue,
                  enable_sgpr_private_segment_buffer=True, enable_sgpr_dispatch_ptr=True,
                  enable_sgpr_queue_ptr=True, enable_sgpr_kernarg_segment_ptr=True,
                  enable_sgpr_dispatch_id=True, enable_sgpr_flat_scratch_init=True,
                  enable_sgpr_private_segment_size=True,
                  enable_sgpr_grid_workgroup_count_x=True,
                  enable_sgpr_grid_workgroup_count_y=True,
                  enable_sgpr_grid_workgroup_count_z=True,
                  enable_sgpr_workgroup_id_x=True, enable_sgpr_workgroup_id_z=True,
                  enable_sgpr_workgroup_info=True,
                  enable_sgpr_private_segment_wave_offset=True)
    layout, init = first_waves(req)
    row = init.sgprs[5].tolist()          # wave 5: work-group (1, 1, 0)
    assert len(row) == 18 + 4
    assert row[0:4] == list(layout.private_segment_buffer)
    assert row[4:6] == [lo(PACKET), hi(PACKET)]
    assert row[6:8] == [lo(queue), hi(queue)]
    assert row[8:10] == [lo(KERNARG), hi(KERNARG)]
    assert row[10:12] == [5, 1]
    # GFX8 flat scratch init: offset from the hidden private base, per-lane size
    assert row[12:14] == [0, 20]
    assert row[14] == 20
    assert row[15:18] == [4, 3, 2]        # ceil(200 / 64), 3, 2 work-groups
    # system SGPRs: id x, id z, work-group info, wave offset
    assert row[18:20] == [1, 0]
    assert row[20] == (1 << 31) | 1       # first (only) wave of a one-wave group
    assert row[21] == 5 * layout.scratch_wave_bytes


def test_user_sgpr_count_places_system_sgprs():
    """System SGPRs start at user_sgpr_count even when enables need fewer."""
    req = request(enable_sgpr_kernarg_segment_ptr=True, user_sgpr_count=6,
                  enable_sgpr_workgroup_id_x=True)
    _, init = first_waves(req)
    assert init.sgprs.shape[1] == 7
    assert init.sgprs[3, 2:6].tolist() == [0, 0, 0, 0]
    assert init.sgprs[:, 6].tolist() == [0, 1, 2, 3]


def test_workitem_ids_and_exec_for_partial_groups():
    req = request(grid=(70, 5, 3), block=(8, 4, 3), enable_vgpr_workitem_id=2)
    layout, init = first_waves(req)
    assert layout.workgroup_counts == (9, 2, 1)
    # group (8, 1, 0): x extent 70 - 64 = 6, y extent 5 - 4 = 1, z extent 3
    group = setup.workgroup_extent(layout, np.array([[8, 1, 0]]))
    assert group.tolist() == [[6, 1, 3]]
    geometry = setup.wave_geometry(layout, np.array([[0, 0, 0], [8, 1, 0]]))
    assert geometry.wave_in_group.tolist() == [0, 1, 0]
    ids = geometry.workitem_id
    flat = np.arange(96)
    assert ids[0, 0].tolist() == (flat[:64] % 8).tolist()
    assert ids[1, 0].tolist() == (flat[:64] // 8 % 4).tolist()
    assert ids[2, 1, :32].tolist() == (flat[64:] // 32).tolist()
    assert geometry.lane_valid.sum(axis=1).tolist() == [64, 32, 18]
    assert ids[0, 2, :18].tolist() == (flat[:18] % 6).tolist()
    assert ids[2, 2, :18].tolist() == (flat[:18] // 6).tolist()
    assert not ids[1, 2].any()
    assert not ids[:, 2, 18:].any()
    state = setup.initial_wave_state(layout, geometry)
    assert state.exec_mask.tolist() == geometry.lane_valid.tolist()
    assert state.workitem_ids[2, 2, :18].tolist() == (flat[:18] // 6).tolist()
    assert state.workgroup_size.tolist() == [[8, 4, 3], [8, 4, 3], [6, 1, 3]]


def test_workgroup_info_counts_waves_of_each_group():
    req = request(grid=(200, 1, 1), block=(150, 1, 1), enable_sgpr_workgroup_info=True)
    _, init = first_waves(req)
    # group 0: 150 items = 3 waves; group 1: 50 items = 1 wave
    assert init.sgprs[:, 0].tolist() == [(1 << 31) | 3, 3, 3, (1 << 31) | 1]


def test_gfx9_scratch_layout_and_flat_scratch():
    memory = DeviceMemory()
    req = request(memory=memory, private=36, grid=(128, 1, 1),
                  enable_sgpr_private_segment_buffer=True, enable_sgpr_flat_scratch_init=True,
                  enable_sgpr_private_segment_wave_offset=True)
    layout, init = first_waves(req)
    assert layout.private_bytes_per_lane == 36
    assert layout.scratch_wave_bytes == 3072          # 36 * 64 rounded to 1 KiB
    allocation = memory.allocation_at(layout.scratch_address, layout.scratch_size)
    assert allocation.kind == "scratch" and allocation.size == 2 * 3072
    base = layout.scratch_address
    assert init.sgprs[0, 4:6].tolist() == [lo(base), hi(base)]
    assert init.sgprs[:, 6].tolist() == [0, 3072]
    assert init.flat_scratch.tolist() == [base, base + 3072]
    rsrc = decode_buffer_resource(np.array([layout.private_segment_buffer], np.uint32), 9)
    assert int(rsrc.base[0]) == base
    assert bool(rsrc.swizzle_enable[0]) and bool(rsrc.add_tid_enable[0])
    assert int(rsrc.element_size[0]) == 4 and int(rsrc.index_stride[0]) == 64
    assert int(rsrc.num_records[0]) == 2 * 3072
    setup.release_dispatch(layout)
    with pytest.raises(Exception):
        memory.allocation_at(base)


def test_gfx8_flat_scratch_register_holds_offset_and_size():
    req = request(target="gfx803", private=16, grid=(192, 1, 1), queue=0,   # no amd_queue_t
                  enable_sgpr_flat_scratch_init=True)
    layout, init = first_waves(req)
    # FLAT_SCRATCH_HI = wave offset >> 8, FLAT_SCRATCH_LO = per-lane bytes
    assert [int(v) >> 32 for v in init.flat_scratch] == [0, 4, 8]
    assert [int(v) & 0xFFFFFFFF for v in init.flat_scratch] == [16, 16, 16]
    assert layout.hidden_private_base == layout.scratch_address


def test_gfx8_queue_apertures_published():
    memory = DeviceMemory()
    queue = memory.allocate(256)
    req = request(target="gfx803", memory=memory, queue=queue, enable_sgpr_queue_ptr=True)
    setup.prepare_dispatch(req)
    assert memory.read_u32(queue + 0x40) == SHARED_APERTURE_BASE >> 32
    assert memory.read_u32(queue + 0x44) == PRIVATE_APERTURE_BASE >> 32


def test_resident_slots_wrap_wave_offsets():
    req = request(private=4, grid=(64 * 5, 1, 1), enable_sgpr_private_segment_wave_offset=True)
    layout = setup.prepare_dispatch(req, resident_waves=2)
    init = setup.initial_wave_state(layout, setup.all_workgroup_ids(layout)[:3],
                                    first_wave_slot=3)
    assert init.sgprs[:, 0].tolist() == [1024, 0, 1024]
    assert layout.scratch_size == 2 * 1024


def test_group_segment_and_m0():
    req = request(group=4096)
    layout, init = first_waves(req)
    assert setup.make_lds(layout, 3).shape == (3, 4096)
    assert init.m0.tolist() == [0xFFFFFFFF] * 4


def test_no_scratch_without_private_memory():
    memory = DeviceMemory()
    layout = setup.prepare_dispatch(request(memory=memory))
    assert layout.scratch_size == 0 and memory.allocations() == []


def test_bad_geometry_is_a_launch_error():
    with pytest.raises(LaunchError):
        setup.prepare_dispatch(request(block=(0, 1, 1)))

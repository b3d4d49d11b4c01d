"""Memory instructions inside whole dispatches: set-up registers + run loop + memory.

Kernels are assembled by llvm-mc once and their bytes recorded in
``data/mem_kernels.json`` so these tests run without LLVM.
"""

import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from amdgpu_tools.exec import run_dispatch
from amdgpu_tools.exec.launch import DispatchRequest, KernelSetup
from amdgpu_tools.isa.targets import get_target
from amdgpu_tools.runtime.memory import DeviceMemory

from conftest import find_tool

DATA = Path(__file__).parent / "data" / "mem_kernels.json"
_RECORDED = json.loads(DATA.read_text()) if DATA.exists() else {}


def assemble(source, mcpu):
    """Recorded machine code of ``source`` for ``mcpu`` (llvm-mc records new ones)."""
    key = f"{mcpu}\n{source.strip()}"
    if key not in _RECORDED:
        tool = find_tool("llvm-mc-19")
        if tool is None:
            pytest.skip("kernel bytes not recorded and llvm-mc is not installed")
        from elftools.elf.elffile import ELFFile
        with tempfile.TemporaryDirectory() as tmp:
            obj = Path(tmp) / "k.o"
            subprocess.run([tool, "-arch=amdgcn", f"-mcpu={mcpu}", "-filetype=obj", "-o",
                            str(obj)], input=source, text=True, check=True, capture_output=True)
            with open(obj, "rb") as stream:
                _RECORDED[key] = ELFFile(stream).get_section_by_name(".text").data().hex()
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text(json.dumps(_RECORDED, indent=1, sort_keys=True) + "\n")
    return bytes.fromhex(_RECORDED[key])


def dispatch(source, mcpu, args, grid, block, memory, private=0, group=0, queue=0,
             **enables):
    code = assemble(source, mcpu) + b"\x00\x00\x81\xbf"
    entry = memory.allocate(len(code) + 64, kind="code")
    memory.write(entry, code)
    kernarg = memory.allocate(8 * max(len(args), 1))
    memory.write(kernarg, b"".join(int(a).to_bytes(8, "little") for a in args) or b"\0" * 8)
    user = sum(n for name, n in (("enable_sgpr_private_segment_buffer", 4),
                                 ("enable_sgpr_queue_ptr", 2),
                                 ("enable_sgpr_kernarg_segment_ptr", 2),
                                 ("enable_sgpr_flat_scratch_init", 2)) if enables.get(name))
    setup = KernelSetup(entry_address=entry, sgpr_count=48, vgpr_count=16,
                        user_sgpr_count=user, **enables)
    request = DispatchRequest(memory=memory, target=get_target(mcpu), kernel_name="mem",
                              setup=setup, grid_size=grid, workgroup_size=block,
                              packet_address=0, queue_address=queue, kernarg_address=kernarg,
                              group_segment_size=group, private_segment_size=private)
    return run_dispatch(request)


# s[0:3] private segment buffer, s[4:5] kernarg ptr, s[6:7] flat scratch init,
# s8 work-group id x, s9 private segment wave offset (clang's gfx9 layout).
SCRATCH_GFX9 = """
s_add_u32 flat_scratch_lo, s6, s9
s_addc_u32 flat_scratch_hi, s7, 0
s_load_dwordx2 s[10:11], s[4:5], 0x0
v_lshlrev_b32 v1, 2, v0
v_add_u32 v2, 7, v0
buffer_store_dword v2, v1, s[0:3], s9 offen offset:16
s_mov_b64 s[12:13], src_private_base
v_add_u32 v3, 16, v1
v_mov_b32 v4, s13
flat_load_dword v5, v[3:4]
v_mov_b32 v6, 0x41
scratch_store_dword v1, v6, off offset:256
scratch_load_dword v7, v1, off offset:256
s_waitcnt vmcnt(0) lgkmcnt(0)
s_lshl_b32 s14, s8, 8
v_add_u32 v1, s14, v1
v_add_u32 v5, v5, v7
global_store_dword v1, v5, s[10:11]
"""


def decoder_knows(mcpu, source):
    """Skip when the ISA package cannot decode every instruction of ``source`` yet."""
    from amdgpu_tools.errors import DecodeError
    from amdgpu_tools.isa.decoder import decode
    code, offset, target = assemble(source, mcpu), 0, get_target(mcpu)
    while offset < len(code):
        try:
            offset += decode(code, offset, target).size
        except DecodeError as error:
            pytest.skip(f"the decoder does not know this instruction yet: {error}")


def test_gfx9_scratch_buffer_flat_and_scratch_agree():
    decoder_knows("gfx900", SCRATCH_GFX9)
    memory = DeviceMemory()
    out = memory.allocate(4 * 256)
    dispatch(SCRATCH_GFX9, "gfx900", [out], (256, 1, 1), (64, 1, 1), memory, private=512,
             enable_sgpr_private_segment_buffer=True, enable_sgpr_kernarg_segment_ptr=True,
             enable_sgpr_flat_scratch_init=True, enable_sgpr_workgroup_id_x=True,
             enable_sgpr_private_segment_wave_offset=True)
    result = np.frombuffer(memory.read(out, 4 * 256), np.uint32)
    assert result.tolist() == ((np.arange(256) % 64) + 7 + 0x41).tolist()
    # the scratch backing was released after the dispatch
    assert all(a.kind != "scratch" for a in memory.allocations())


# s[0:1] queue ptr, s[2:3] kernarg ptr, s[4:5] flat scratch init, s6 wave offset
# (GFX8 layout: the private aperture comes from amd_queue_t through the queue ptr).
SCRATCH_GFX8 = """
s_add_u32 s4, s4, s6
s_lshr_b32 flat_scratch_hi, s4, 8
s_mov_b32 flat_scratch_lo, s5
s_load_dword s7, s[0:1], 0x44
s_load_dwordx2 s[8:9], s[2:3], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
v_mov_b32 v2, s7
v_mul_u32_u24 v3, 3, v0
flat_store_dword v[1:2], v3
s_waitcnt vmcnt(0)
flat_load_dword v4, v[1:2]
v_mov_b32 v6, s9
v_add_u32 v5, vcc, s8, v1
v_addc_u32 v6, vcc, 0, v6, vcc
s_waitcnt vmcnt(0)
flat_store_dword v[5:6], v4
"""


def test_gfx8_flat_scratch_through_queue_aperture():
    memory = DeviceMemory()
    queue = memory.allocate(256)
    out = memory.allocate(4 * 64)
    dispatch(SCRATCH_GFX8, "gfx803", [out], (64, 1, 1), (64, 1, 1), memory, private=256,
             queue=queue, enable_sgpr_queue_ptr=True, enable_sgpr_kernarg_segment_ptr=True,
             enable_sgpr_flat_scratch_init=True, enable_sgpr_private_segment_wave_offset=True)
    assert np.frombuffer(memory.read(out, 256), np.uint32).tolist() == \
        (np.arange(64) * 3).tolist()


# LDS: every work-item writes its id, the work-group waits, then each reads
# its mirror image and stores it; s[0:1] kernarg ptr, s2 work-group id.
LDS_REVERSE = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
ds_write_b32 v1, v0
s_waitcnt lgkmcnt(0)
s_barrier
v_sub_u32 v2, 0x1fc, v1
ds_read_b32 v3, v2
s_lshl_b32 s6, s2, 9
v_add_u32 v1, s6, v1
s_waitcnt lgkmcnt(0)
global_store_dword v1, v3, s[4:5]
"""


def test_lds_is_private_to_each_work_group():
    memory = DeviceMemory()
    out = memory.allocate(4 * 512)
    dispatch(LDS_REVERSE, "gfx900", [out], (512, 1, 1), (128, 1, 1), memory, group=512,
             enable_sgpr_kernarg_segment_ptr=True, enable_sgpr_workgroup_id_x=True)
    result = np.frombuffer(memory.read(out, 4 * 512), np.uint32).reshape(4, 128)
    assert (result == np.arange(127, -1, -1)).all()


SCRATCH_FLAT_GFX9 = """
s_add_u32 flat_scratch_lo, s6, s9
s_addc_u32 flat_scratch_hi, s7, 0
s_load_dwordx2 s[10:11], s[4:5], 0x0
v_lshlrev_b32 v1, 2, v0
v_add_u32 v2, 7, v0
scratch_store_dwordx2 v1, v[1:2], off offset:16
s_mov_b64 s[12:13], src_private_base
v_add_u32 v3, 20, v1
v_mov_b32 v4, s13
flat_load_dword v5, v[3:4]
s_waitcnt vmcnt(0) lgkmcnt(0)
s_lshl_b32 s14, s8, 8
v_add_u32 v1, s14, v1
global_store_dword v1, v5, s[10:11]
"""


def test_gfx9_scratch_instructions_and_flat_private_aperture_agree():
    memory = DeviceMemory()
    out = memory.allocate(4 * 256)
    dispatch(SCRATCH_FLAT_GFX9, "gfx900", [out], (256, 1, 1), (64, 1, 1), memory, private=512,
             enable_sgpr_private_segment_buffer=True, enable_sgpr_kernarg_segment_ptr=True,
             enable_sgpr_flat_scratch_init=True, enable_sgpr_workgroup_id_x=True,
             enable_sgpr_private_segment_wave_offset=True)
    result = np.frombuffer(memory.read(out, 4 * 256), np.uint32)
    assert result.tolist() == ((np.arange(256) % 64) + 7).tolist()


GLOBAL_COUNTER = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
v_mov_b32 v1, 0
v_mov_b32 v2, 1
s_waitcnt lgkmcnt(0)
global_atomic_add v3, v1, v2, s[4:5] glc
v_lshlrev_b32 v4, 2, v3
s_waitcnt vmcnt(0)
global_store_dword v4, v0, s[4:5] offset:4
"""


def test_global_atomic_counter_hands_out_unique_slots():
    memory = DeviceMemory()
    out = memory.allocate(4 * 1001)
    dispatch(GLOBAL_COUNTER, "gfx900", [out], (1000, 1, 1), (100, 1, 1), memory,
             enable_sgpr_kernarg_segment_ptr=True)
    words = np.frombuffer(memory.read(out, 4 * 1001), np.uint32)
    assert words[0] == 1000
    # each work-group's ids 0..99 appear exactly ten times among the slots
    assert np.bincount(words[1:], minlength=100).tolist() == [10] * 100


BAD_STORE = """
v_mov_b32 v1, 0x1000
v_mov_b32 v2, 0
global_store_dword v[1:2], v0, off
"""


def test_bad_address_is_a_kernel_error_naming_the_address():
    memory = DeviceMemory()
    with pytest.raises(KernelError) as error:
        dispatch(BAD_STORE, "gfx900", [], (64, 1, 1), (64, 1, 1), memory)
    assert error.value.address == 0x1000
    assert "global_store_dword" in str(error.value) and "0x1000" in str(error.value)


# GFX6/7: SMRD immediate offsets in dwords, MUBUF addr64, DS with M0 = -1.
# s[0:1] kernarg ptr, s2 work-group id x; out[id] = in[id] * 2 via LDS.
ADDR64_GFX7 = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
s_load_dwordx2 s[6:7], s[0:1], 0x2
s_mov_b32 m0, -1
s_mov_b32 s10, 0
s_mov_b32 s11, 0xf000
s_mov_b64 s[8:9], 0
v_lshlrev_b32 v1, 2, v0
v_mov_b32 v2, 0
s_waitcnt lgkmcnt(0)
v_add_i32 v3, vcc, s4, v1
v_mov_b32 v4, s5
v_addc_u32 v4, vcc, 0, v4, vcc
buffer_load_dword v5, v[3:4], s[8:11], 0 addr64
s_waitcnt vmcnt(0)
v_add_i32 v5, vcc, v5, v5
ds_write_b32 v1, v5
s_waitcnt lgkmcnt(0)
ds_read_b32 v6, v1
v_add_i32 v3, vcc, s6, v1
v_mov_b32 v4, s7
v_addc_u32 v4, vcc, 0, v4, vcc
s_waitcnt lgkmcnt(0)
buffer_store_dword v6, v[3:4], s[8:11], 0 addr64
"""


@pytest.mark.parametrize("mcpu", ["gfx600", "gfx700"])
def test_gfx6_gfx7_addr64_smrd_and_lds(mcpu):
    decoder_knows(mcpu, ADDR64_GFX7)
    memory = DeviceMemory()
    source = memory.allocate(4 * 64)
    memory.write(source, np.arange(64, dtype=np.uint32) + 10)
    out = memory.allocate(4 * 64)
    dispatch(ADDR64_GFX7, mcpu, [source, out], (64, 1, 1), (64, 1, 1), memory, group=256,
             enable_sgpr_kernarg_segment_ptr=True, enable_sgpr_workgroup_id_x=True)
    assert np.frombuffer(memory.read(out, 256), np.uint32).tolist() == \
        ((np.arange(64) + 10) * 2).tolist()

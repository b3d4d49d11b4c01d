"""Whole dispatches that use the lds-bit loads, d16 typed loads and scalar
scratch: assembled by amdgpu-as (no LLVM needed), decoded and run by the
executor; results compared with NumPy on the host data.
"""

import io

import numpy as np
from elftools.elf.elffile import ELFFile

from amdgpu_tools.asm import assemble
from amdgpu_tools.exec import run_dispatch
from amdgpu_tools.exec.addressing import encode_buffer_resource
from amdgpu_tools.exec.launch import DispatchRequest, KernelSetup
from amdgpu_tools.isa.targets import get_target
from amdgpu_tools.runtime.memory import DeviceMemory
from reftools import run_tool

ENDPGM = b"\x00\x00\x81\xbf"


def text_bytes(source, mcpu):
    elf = ELFFile(io.BytesIO(assemble(source, mcpu)))
    return elf.get_section_by_name(".text").data() + ENDPGM


class Dispatch:
    """Code and buffers in one DeviceMemory; s[0:1] = kernarg pointer, v0 = tid."""

    def __init__(self, source, mcpu, lds=0, private=0):
        self.memory = DeviceMemory()
        self.mcpu, self.lds, self.private = mcpu, lds, private
        code = text_bytes(source, mcpu)
        self.entry = self.memory.allocate(len(code) + 64, kind="code", name="code")
        self.memory.write(self.entry, code)

    def buffer(self, array):
        array = np.ascontiguousarray(array)
        address = self.memory.allocate(max(array.nbytes, 4))
        self.memory.write(address, array.tobytes())
        return address

    def read(self, address, dtype, count):
        return np.frombuffer(self.memory.read(address, np.dtype(dtype).itemsize * count),
                             dtype).copy()

    def run(self, kernarg_words, grid, block):
        blob = np.asarray(kernarg_words, np.uint32).tobytes()
        kernarg = self.buffer(np.frombuffer(blob, np.uint8))
        setup = KernelSetup(entry_address=self.entry, sgpr_count=32, vgpr_count=16,
                            user_sgpr_count=2, enable_sgpr_kernarg_segment_ptr=True,
                            group_segment_fixed_size=self.lds,
                            private_segment_fixed_size=self.private)
        request = DispatchRequest(memory=self.memory, target=get_target(self.mcpu),
                                  kernel_name="k", setup=setup, grid_size=(grid, 1, 1),
                                  workgroup_size=(block, 1, 1), packet_address=0,
                                  queue_address=0, kernarg_address=kernarg,
                                  group_segment_size=self.lds,
                                  private_segment_size=self.private)
        return run_dispatch(request)


def rsrc_words(address, nbytes, word3=0xFAC):
    return list(encode_buffer_resource(address, num_records=nbytes))[:3] + [word3]


LDS_KERNEL = """
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_load_dwordx2 s[12:13], s[0:1], 0x10
    s_waitcnt lgkmcnt(0)
    v_readfirstlane_b32 s4, v0
    s_lshl_b32 m0, s4, 2
    v_lshlrev_b32 v1, 2, v0
    buffer_load_dword v1, s[8:11], 0 offen offset:4 lds
    s_waitcnt vmcnt(0)
    ds_read_b32 v2, v1 offset:4
    s_waitcnt lgkmcnt(0)
    global_store_dword v1, v2, s[12:13]
"""


def test_lds_bit_load_then_ds_read_in_a_two_wave_group():
    d = Dispatch(LDS_KERNEL, "gfx900", lds=1024)
    data = np.arange(200, dtype=np.uint32) * 5 + 3
    src, dst = d.buffer(data), d.buffer(np.zeros(128, np.uint32))
    d.run(rsrc_words(src, data.nbytes) + [dst & 0xFFFFFFFF, dst >> 32], grid=128, block=128)
    # wave w: M0 = 256 w, slot 4 + 4 * lane = byte 4 + 4 * tid; memory tid * 4 + 4
    assert d.read(dst, np.uint32, 128).tolist() == data[1:129].tolist()


UNORM_8888 = "format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM]"
D16_KERNEL = {
    "gfx900": f"""
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_load_dwordx4 s[12:15], s[0:1], 0x10
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32 v1, 3, v0
    tbuffer_load_format_d16_xyzw v[2:3], v1, s[8:11], 0 {UNORM_8888} offen
    s_waitcnt vmcnt(0)
    buffer_store_dwordx2 v[2:3], v1, s[12:15], 0 offen
""",
    "gfx803": f"""
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_load_dwordx4 s[12:15], s[0:1], 0x10
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32 v1, 3, v0
    tbuffer_load_format_d16_xyzw v[2:5], v1, s[8:11], 0 {UNORM_8888} offen
    s_waitcnt vmcnt(0)
    v_lshlrev_b32 v6, 4, v0
    buffer_store_dwordx4 v[2:5], v6, s[12:15], 0 offen
""",
}


def test_d16_unorm_loads_packed_on_gfx9_unpacked_on_gfx803():
    codes = np.random.default_rng(2).integers(0, 256, (64, 8)).astype(np.uint8)
    halves = (codes[:, :4] / 255.0).astype(np.float16).view(np.uint16)
    for mcpu, per_lane in (("gfx900", 8), ("gfx803", 16)):
        d = Dispatch(D16_KERNEL[mcpu], mcpu)
        src, dst = d.buffer(codes), d.buffer(np.zeros(64 * per_lane, np.uint8))
        d.run(rsrc_words(src, codes.nbytes) + rsrc_words(dst, 64 * per_lane), grid=64, block=64)
        got = d.read(dst, np.uint16, 64 * per_lane // 2).reshape(64, -1)
        if mcpu == "gfx900":
            assert got.tolist() == halves.tolist()
        else:                                             # low halves, high halves zero
            assert got[:, 0::2].tolist() == halves.tolist()
            assert (got[:, 1::2] == 0).all()


SCRATCH_KERNEL = """
    s_load_dwordx2 s[12:13], s[0:1], 0x0
    s_movk_i32 s20, 0x1234
    s_movk_i32 s21, 0x5678
    s_mov_b32 s7, 8
    s_scratch_store_dwordx2 s[20:21], flat_scratch, s7
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v1, 8
    scratch_load_dword v2, v1, off
    v_lshlrev_b32 v3, 2, v0
    s_waitcnt vmcnt(0)
    global_store_dword v3, v2, s[12:13]
"""


def test_scalar_scratch_store_is_seen_by_lanes_0_and_1():
    d = Dispatch(SCRATCH_KERNEL, "gfx900", private=16)
    dst = d.buffer(np.full(64, 0xFFFFFFFF, np.uint32))
    d.run([dst & 0xFFFFFFFF, dst >> 32], grid=64, block=64)
    got = d.read(dst, np.uint32, 64)
    assert got[:2].tolist() == [0x1234, 0x5678]
    assert (got[2:] == 0).all()                          # private memory starts zeroed


def test_kernels_assemble_as_llvm_mc_does(llvm_mc19, tmp_path):
    """The executed bytes are the ones llvm-mc produces for the same source."""
    for source, mcpu in ((LDS_KERNEL, "gfx900"), (D16_KERNEL["gfx900"], "gfx900"),
                         (D16_KERNEL["gfx803"], "gfx803"), (SCRATCH_KERNEL, "gfx900")):
        obj = tmp_path / f"{mcpu}.o"
        run_tool([llvm_mc19, "-arch=amdgcn", f"-mcpu={mcpu}", "-filetype=obj", "-o", str(obj)],
                 stdin=source)
        with open(obj, "rb") as stream:
            reference = ELFFile(stream).get_section_by_name(".text").data()
        assert text_bytes(source, mcpu) == reference + ENDPGM

"""Small GCN test kernels: assembled by llvm-mc once, recorded as bytes in
``data/kernels.json`` so the tests run without LLVM, then dispatched through
``run_dispatch`` with a DeviceMemory and a KernelSetup built here."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from elftools.elf.elffile import ELFFile

from amdgpu_tools.exec import run_dispatch
from amdgpu_tools.exec.launch import DispatchRequest, ExecutionLimits, KernelSetup
from amdgpu_tools.isa.targets import get_target
from amdgpu_tools.runtime.memory import DeviceMemory

DATA = Path(__file__).parent / "data" / "kernels.json"
_CACHE = json.loads(DATA.read_text()) if DATA.exists() else {}
_LLVM_MC = ["/usr/lib/llvm-19/bin/llvm-mc", "/usr/bin/llvm-mc"]


#: The f32 division n / d (v0 / v1, quotient in v7) as clang emits it for
#: IEEE division with denormals kept: v_div_scale, v_rcp, the fma refinement,
#: v_div_fmas and v_div_fixup (temporaries v2-v6, s[4:5])
F32_DIVISION = """
v_div_scale_f32 v2, vcc, v1, v1, v0
v_div_scale_f32 v3, s[4:5], v0, v1, v0
v_rcp_f32 v4, v2
v_fma_f32 v5, -v2, v4, 1.0
v_fma_f32 v4, v5, v4, v4
v_mul_f32 v5, v3, v4
v_fma_f32 v6, -v2, v5, v3
v_fma_f32 v5, v6, v4, v5
v_fma_f32 v6, -v2, v5, v3
s_mov_b64 vcc, s[4:5]
v_div_fmas_f32 v5, v6, v4, v5
v_div_fixup_f32 v7, v5, v1, v0
"""

def _llvm_mc():
    for path in _LLVM_MC:
        if Path(path).exists():
            return path
    return None


def assemble(source: str, mcpu: str = "gfx900") -> bytes:
    """Machine code of ``source``: recorded bytes, else llvm-mc (and record them)."""
    key = f"{mcpu}\n{source.strip()}"
    if key in _CACHE:
        return bytes.fromhex(_CACHE[key])
    tool = _llvm_mc()
    if tool is None:
        pytest.skip("kernel bytes not recorded and llvm-mc is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        obj = Path(tmp) / "k.o"
        done = subprocess.run([tool, "-arch=amdgcn", f"-mcpu={mcpu}", "-filetype=obj", "-o",
                               str(obj)], input=source, capture_output=True, text=True)
        if done.returncode:
            raise AssertionError(f"llvm-mc rejected the test kernel:\n{done.stderr}")
        with open(obj, "rb") as stream:
            code = ELFFile(stream).get_section_by_name(".text").data()
    _CACHE[key] = code.hex()
    DATA.write_text(json.dumps(_CACHE, indent=1, sort_keys=True) + "\n")
    return bytes(code)


class Kernel:
    """A kernel in device memory with a kernarg segment: s[0:1] = kernarg
    pointer, s2 = work-group id x, v0 = work-item id x."""

    def __init__(self, source, mcpu="gfx900", vgprs=16, sgprs=32, lds=0, memory=None):
        self.memory = memory or DeviceMemory()
        self.target = get_target(mcpu)
        code = assemble(source, mcpu) + b"\x00\x00\x81\xbf"  # trailing s_endpgm
        self.entry = self.memory.allocate(len(code) + 64, kind="code", name="code")
        self.memory.write(self.entry, code)
        self.setup = KernelSetup(entry_address=self.entry, sgpr_count=sgprs, vgpr_count=vgprs,
                                 user_sgpr_count=2, enable_sgpr_kernarg_segment_ptr=True,
                                 enable_sgpr_workgroup_id_x=True,
                                 group_segment_fixed_size=lds)
        self.lds = lds

    def buffer(self, array):
        array = np.ascontiguousarray(array)
        address = self.memory.allocate(max(array.nbytes, 4))
        self.memory.write(address, array.tobytes())
        return address

    def read(self, address, dtype, count):
        return np.frombuffer(self.memory.read(address, np.dtype(dtype).itemsize * count),
                             dtype=dtype).copy()

    def run(self, args, grid, block=64, limits=None, trace=None):
        """Dispatch with kernel arguments ``args`` (ints as u64 / numpy scalars)."""
        blob = b"".join(np.asarray(a).tobytes() if isinstance(a, np.generic) else
                        int(a).to_bytes(8, "little") for a in args) or b"\0" * 8
        kernarg = self.memory.allocate(len(blob) + 16)
        self.memory.write(kernarg, blob)
        grid = (grid, 1, 1) if isinstance(grid, int) else tuple(grid)
        block = (block, 1, 1) if isinstance(block, int) else tuple(block)
        request = DispatchRequest(memory=self.memory, target=self.target, kernel_name="test",
                                  setup=self.setup, grid_size=grid, workgroup_size=block,
                                  packet_address=0, queue_address=0, kernarg_address=kernarg,
                                  group_segment_size=self.lds,
                                  limits=limits or ExecutionLimits(), trace=trace)
        return run_dispatch(request)


def run_snippet(source, *, sgpr=None, vgpr=None, exec_mask=None, scc=False, mcpu="gfx900",
                waves=1, vgprs=16, float_mode=None, lds=0, workgroup=64, ieee_mode=None,
                dx10_clamp=None):
    """Run ``source`` on ``waves`` waves whose registers start as given and
    return the final WaveState (registers read after s_endpgm).

    ``sgpr``: {operand code: value or per-wave list}; ``vgpr``: {register:
    array of 64 lane values (or a scalar), or (waves, 64)}; ``exec_mask``: int;
    ``lds``: bytes of LDS per work-group of ``workgroup`` work-items.
    """
    kernel = Kernel(source, mcpu=mcpu, vgprs=vgprs, lds=lds)
    from dataclasses import replace
    if float_mode is not None:
        kernel.setup = replace(kernel.setup, float_mode=float_mode)
    if ieee_mode is not None:
        kernel.setup = replace(kernel.setup, ieee_mode=ieee_mode)
    if dx10_clamp is not None:
        kernel.setup = replace(kernel.setup, dx10_clamp=dx10_clamp)
    captured = {}

    def initialize(state, request, layout, group_ids):
        for code, value in (sgpr or {}).items():
            state.sgpr[code] = np.asarray(value, dtype=np.uint64).astype(np.uint32)
        for reg, value in (vgpr or {}).items():
            value = np.asarray(value)
            if value.dtype.kind == "f":
                value = value.view({4: np.uint32, 2: np.uint16, 8: np.uint64}[value.itemsize])
            state.vgpr[reg] = np.asarray(value).astype(np.uint64).astype(np.uint32)
        if exec_mask is not None:
            state.sgpr[126] = exec_mask & 0xFFFFFFFF
            state.sgpr[127] = exec_mask >> 32
        state.scc[:] = scc
        captured["state"] = state

    request = DispatchRequest(memory=kernel.memory, target=kernel.target, kernel_name="snippet",
                              setup=kernel.setup, grid_size=(64 * waves, 1, 1),
                              workgroup_size=(workgroup, 1, 1), packet_address=0, queue_address=0,
                              kernarg_address=kernel.memory.allocate(64))
    run_dispatch(request, initializer=initialize)
    return captured["state"]


def f32_bits(values):
    return np.asarray(values, dtype=np.float32).view(np.uint32)


def f64_parts(values):
    bits = np.asarray(values, dtype=np.float64).view(np.uint64)
    return (bits & 0xFFFFFFFF).astype(np.uint32), (bits >> 32).astype(np.uint32)

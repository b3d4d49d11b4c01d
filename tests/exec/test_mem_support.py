"""Helpers shared by the memory-instruction tests: run one instruction on a batch.

Instructions are built directly as the decoder's ``Instruction`` shape (op,
encoding, fields with the manual's names), so these tests do not depend on
the decoder; ``test_mem_decoded.py`` checks the same semantics through real
llvm-mc encodings.
"""

from types import SimpleNamespace

import numpy as np

from amdgpu_tools.exec.core.context import Context
from amdgpu_tools.exec.launch import DispatchRequest, KernelSetup
from amdgpu_tools.exec.core.registry import SEMANTICS
from amdgpu_tools.exec.core.state import WaveState
from amdgpu_tools.isa.targets import get_target
from amdgpu_tools.runtime.memory import DeviceMemory

import amdgpu_tools.exec.semantics.ds  # noqa: F401  (registers the semantics)
import amdgpu_tools.exec.semantics.smem  # noqa: F401
import amdgpu_tools.exec.semantics.vmem  # noqa: F401


class FakeInstruction:
    """The parts of ``amdgpu_tools.isa`` Instruction the semantics read."""

    def __init__(self, op, encoding, fields, literal=None):
        self.op = op
        self.encoding = encoding
        self.fields = dict(fields)
        self.literal = literal
        self.size = 8

    def text(self):
        return self.op


def make_request(target="gfx900", memory=None, **setup_fields):
    setup = KernelSetup(entry_address=0, sgpr_count=32, vgpr_count=32, user_sgpr_count=0,
                        **setup_fields)
    return DispatchRequest(memory=memory or DeviceMemory(), target=get_target(target),
                           kernel_name="k", setup=setup, grid_size=(64, 1, 1),
                           workgroup_size=(64, 1, 1), packet_address=0, queue_address=0,
                           kernarg_address=0)


def make_state(target="gfx900", waves=2, vgprs=32, groups=1, lds_bytes=0, memory=None):
    """A batch of ``waves`` waves, all lanes on, wave w in work-group w % groups."""
    request = make_request(target, memory)
    state = WaveState(target=request.target, num_waves=waves, vgpr_count=vgprs,
                      num_groups=groups, lds_bytes=lds_bytes, request=request)
    state.wave_group[:] = np.arange(waves) % groups
    state.sgpr[126] = 0xFFFFFFFF
    state.sgpr[127] = 0xFFFFFFFF
    return state


def run(state, op, encoding, fields, sel=None, literal=None):
    """Execute one instruction on the waves ``sel`` (default: all)."""
    inst = FakeInstruction(op, encoding, fields, literal)
    program = SimpleNamespace(generation=state.target.generation, target=state.target,
                              request=state.request, memory=state.memory)
    semantic = SEMANTICS[op]
    closure = semantic.fn(inst, program) if semantic.kind == "builder" else semantic.fn
    sel = slice(0, state.num_waves) if sel is None else sel
    n = sel.stop - sel.start if isinstance(sel, slice) else len(sel)
    record = SimpleNamespace(pc=0x1000, size=8, inst=inst, text=op)
    return closure(Context(state, sel, n, record))


def set_exec(state, lanes):
    lanes = np.asarray(lanes, bool)
    state.set_exec_lanes(slice(None), lanes)

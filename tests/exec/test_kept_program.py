"""A kernel launched again runs on the Program its last dispatch kept (its
decoded records, block slots and code scans) only while the code they came
from is unchanged: rewritten, unmapped or self-modified code is decoded anew."""

from __future__ import annotations

import numpy as np
import pytest

from amdgpu_tools.exec import run_dispatch
from amdgpu_tools.exec.compiled.tier import numba_available
from amdgpu_tools.exec.core import dispatch, program as program_mod
from amdgpu_tools.exec.core.program import Program
from amdgpu_tools.exec.launch import DispatchRequest
from amdgpu_tools.isa.targets import get_target
from amdgpu_tools.runtime.memory import DeviceMemory

from .kernel_util import Kernel, assemble

STORE = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
v_mov_b32 v1, {value}
v_lshlrev_b32 v2, 2, v0
s_waitcnt lgkmcnt(0)
global_store_dword v2, v1, s[4:5]
"""


def _stores(kernel, out):
    kernel.run([out], grid=64)
    return kernel.read(out, np.uint32, 64)


@pytest.fixture
def programs_made(monkeypatch):
    """How many Programs the dispatches made (a spy on Program.__init__)."""
    made = []
    original = Program.__init__

    def spy(self, *args, **kwargs):
        made.append(self)
        original(self, *args, **kwargs)
    monkeypatch.setattr(Program, "__init__", spy)
    return made


def test_a_second_launch_reuses_the_kept_program(programs_made):
    kernel = Kernel(STORE.format(value=7))
    out = kernel.buffer(np.zeros(64, np.uint32))
    assert (_stores(kernel, out) == 7).all()
    first = programs_made[:]
    assert (_stores(kernel, out) == 7).all()
    assert len(first) == 1 and programs_made == first
    kept = dispatch._KEPT_PROGRAMS[kernel.memory]
    assert list(kept.values()) == first
    # what names one dispatch is dropped while the program waits for the next
    assert first[0].memory is None and first[0].request is None


def test_rewritten_code_is_decoded_anew(programs_made):
    kernel = Kernel(STORE.format(value=7))
    out = kernel.buffer(np.zeros(64, np.uint32))
    assert (_stores(kernel, out) == 7).all()
    rewritten = assemble(STORE.format(value=9))
    assert len(rewritten) == len(assemble(STORE.format(value=7)))
    kernel.memory.write(kernel.entry, rewritten)
    assert (_stores(kernel, out) == 9).all()
    assert len(programs_made) == 2
    assert (_stores(kernel, out) == 9).all()
    assert len(programs_made) == 2


def test_a_failed_dispatch_keeps_nothing():
    kernel = Kernel("s_mov_b32 s9, 0\ns_trap 2")
    with pytest.raises(Exception):
        kernel.run([0], grid=64)
    assert not dispatch._KEPT_PROGRAMS.get(kernel.memory)


def _program_at(code: bytes):
    memory = DeviceMemory()
    entry = memory.allocate(len(code) + 64, kind="code")
    memory.write(entry, code)
    program = Program(memory, get_target("gfx900"))
    pc = entry
    while pc < entry + len(code):
        pc = program.at(pc).next_pc
    return memory, entry, program


def test_code_written_during_the_dispatch_is_not_kept():
    memory, entry, program = _program_at(assemble(STORE.format(value=7)))
    # (as if the kernel had stored to its own code after it was decoded)
    memory.write(entry, assemble(STORE.format(value=9)))
    assert not program.keep()


def test_old_pages_rewritten_while_new_ones_were_decoded_are_not_kept():
    """A dispatch that decodes code on a new page and rewrites a page decoded
    by an earlier one: the kept records of the old page are stale."""
    code = assemble(STORE.format(value=7))
    memory, entry, program = _program_at(code)
    assert program.keep()
    program.rebind(memory, None)
    far = memory.allocate(8192, kind="code")
    memory.write(far, code)
    program.at(far)                         # a new page, decoded now
    memory.write(entry, assemble(STORE.format(value=9)))   # an old page rewritten
    assert not program.keep()


def test_unmapped_or_rewritten_code_is_not_unchanged():
    code = assemble(STORE.format(value=7))
    memory, entry, program = _program_at(code)
    assert program.keep() and program.unchanged(memory)
    data = memory.allocate(64)
    memory.write(data, b"\x01" * 64)            # other memory: the code stands
    assert program.unchanged(memory)
    # a write into a decoded page counts, even past the instructions decoded
    memory.write(entry + len(code), b"\x00\x00\x81\xbf")
    assert not program.unchanged(memory)
    memory.write(entry + len(code), b"\x00\x00\x00\x00")
    assert program.unchanged(memory)
    memory.write(entry, assemble(STORE.format(value=9)))
    assert not program.unchanged(memory)
    memory.write(entry, code)
    assert program.unchanged(memory)
    memory.free(entry)
    assert not program.unchanged(memory)


def test_too_much_code_is_not_kept(monkeypatch):
    memory, entry, program = _program_at(assemble(STORE.format(value=7)))
    monkeypatch.setattr(program_mod, "KEPT_CODE_BYTES", 64)
    assert not program.keep()


def test_code_pages_stay_within_their_allocation():
    """A program whose code ends short of a page keeps only mapped bytes."""
    code = assemble(STORE.format(value=7))
    memory, entry, program = _program_at(code)
    assert program.keep()
    (start, saved), = program._snapshot
    allocation = memory.allocation_at(entry)
    page = 1 << program_mod.CODE_PAGE_BITS
    assert start == max(entry - entry % page, allocation.address)
    assert start + len(saved) == min(entry - entry % page + page, allocation.end)


LOOP = """
s_mov_b32 s6, 40
v_mov_b32 v1, 0
loop:
v_add_u32 v1, v1, v0
v_xor_b32 v1, 3, v1
s_sub_u32 s6, s6, 1
s_cmp_eq_u32 s6, 0
s_cbranch_scc0 loop
"""


def test_each_dispatch_counts_its_block_steps_from_zero():
    """A kept tier's blocks that are not compiled yet count the steps of one
    dispatch, as they always have: short launches do not add up to a compile."""
    if not numba_available():
        pytest.skip("Numba is not installed: no compiled-block tier")
    kernel = Kernel(LOOP)

    def steps_after_a_dispatch():
        request = DispatchRequest(memory=kernel.memory, target=kernel.target, kernel_name="k",
                                  setup=kernel.setup, grid_size=(64, 1, 1),
                                  workgroup_size=(64, 1, 1), packet_address=0,
                                  queue_address=0, kernarg_address=kernel.memory.allocate(64),
                                  compile="auto")
        run_dispatch(request)
        kept, = dispatch._KEPT_PROGRAMS[kernel.memory].values()
        return sorted(block.steps for block in kept.block_tier._formed)
    first = steps_after_a_dispatch()
    assert first and max(first) >= 40
    assert steps_after_a_dispatch() == first

"""The dword fast path of ds_read/ds_write(2)_b32 (``semantics.ds._dword_indices``)
against the general path (pieces, range flags), which it skips: random LDS,
VGPRs, EXEC masks and M0 limits, active lanes in and out of range, unaligned,
sharing addresses; inactive lanes with any address. The general path is the
one a hazard checker sees, so setting ``memory_watch`` selects it. Encodings
are llvm-mc-19's (the same on gfx803 and gfx900)."""

import numpy as np
import pytest

from amdgpu_tools.exec import semantics  # noqa: F401  (registers every semantic)
from amdgpu_tools.exec.core.context import Context
from amdgpu_tools.exec.core.program import Program, Record
from amdgpu_tools.exec.core.state import WaveState
from amdgpu_tools.exec.semantics import ds
from amdgpu_tools.isa import decode
from amdgpu_tools.isa.targets import get_target

WAVES, LDS = 3, 4096
INSTRUCTIONS = {
    "ds_read_b32 v1, v2 offset:8": "08006cd802000001",
    "ds_read2_b32 v[4:5], v2 offset0:1 offset1:7": "01076ed802000004",
    "ds_read2st64_b32 v[4:5], v2 offset1:1": "000170d802000004",
    "ds_write_b32 v2, v1 offset:4": "04001ad802010000",
    "ds_write2_b32 v2, v1, v3 offset0:2 offset1:5": "02051cd802010300",
    "ds_read_b64 v[4:5], v2 offset:8": "0800ecd802000004",
    "ds_read2_b64 v[4:7], v2 offset0:1 offset1:3": "0103eed802000004",
    "ds_write_b64 v2, v[4:5] offset:16": "10009ad802040000",
    "ds_write2_b64 v2, v[4:5], v[6:7] offset0:2 offset1:5": "02059cd802040600",
}
#: kind -> (span of the addresses, their alignment)
KINDS = {"in range": (LDS - 64, 4), "some out of range": (LDS + 64, 4), "few addresses": (16, 4),
         "in range, 8-aligned": (LDS - 64, 8), "few 8-aligned addresses": (32, 8)}


def random_state(target, rng, kind):
    state = WaveState(target=target, num_waves=WAVES, vgpr_count=8, num_groups=WAVES,
                      lds_bytes=LDS)
    state.lds[:] = rng.integers(0, 256, state.lds.shape, dtype=np.uint8)
    state.vgpr[:] = rng.integers(0, 1 << 32, state.vgpr.shape, dtype=np.uint64)
    span, unit = KINDS[kind]
    addresses = rng.integers(0, span // unit, state.vgpr[2].shape) * unit
    if rng.random() < 0.2:
        addresses[rng.random(addresses.shape) < 0.1] += 2            # unaligned lanes
    state.vgpr[2] = addresses
    exec_mask = rng.integers(0, 1 << 64, WAVES, dtype=np.uint64, endpoint=False)
    if rng.random() < 0.3:
        exec_mask[:] = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
    state.sgpr[126] = (exec_mask & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    state.sgpr[127] = (exec_mask >> np.uint64(32)).astype(np.uint32)
    state.sgpr[124] = rng.choice([0xFFFFFFFF, LDS, LDS // 2])       # M0 (limit before GFX9)
    # inactive lanes point anywhere, far out of range included
    inactive = ~state.exec_lanes(slice(0, WAVES))
    anywhere = rng.integers(0, 1 << 32, inactive.shape, dtype=np.uint64).astype(np.uint32)
    state.vgpr[2] = np.where(inactive, anywhere, state.vgpr[2])
    return state


@pytest.mark.parametrize("kind,nbytes", [("in range", 4), ("in range, 8-aligned", 8)])
def test_the_fast_path_is_taken(kind, nbytes):
    """Most random states of the test below do take the fast path."""
    target = get_target("gfx900")
    taken = 0
    for seed in range(25):
        state = random_state(target, np.random.default_rng(seed), kind)
        ctx = Context(state, slice(0, WAVES), WAVES, None)
        taken += ds._dword_indices(ctx, 9, 2, (8,), nbytes) is not None
    assert taken >= 15


def run(record, state, general):
    state.memory_watch = (lambda *args: None) if general else None
    record.run(Context(state, slice(0, WAVES), WAVES, record))
    state.memory_watch = None


@pytest.mark.parametrize("target_name", ["gfx803", "gfx900"])
@pytest.mark.parametrize("text", sorted(INSTRUCTIONS))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_fast_path_equals_general_path(target_name, text, kind):
    target = get_target(target_name)
    inst = decode(bytes.fromhex(INSTRUCTIONS[text]) + bytes(8), 0, target)
    record = Record(0x1000, inst, Program(None, target)._bind(inst, 0x1000))
    for seed in range(25):
        rng = np.random.default_rng(seed)
        fast = random_state(target, rng, kind)
        general = random_state(target, np.random.default_rng(seed), kind)
        run(record, fast, general=False)
        run(record, general, general=True)
        assert np.array_equal(fast.lds, general.lds), (text, seed)
        assert np.array_equal(fast.vgpr, general.vgpr), (text, seed)

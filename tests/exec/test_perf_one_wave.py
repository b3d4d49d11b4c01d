"""Waves running alone take shortcuts (Python-int SALU twins, saveexec and
branch decisions on ints, constant-lane readlane/writelane): each such
instruction must leave exactly the state (and outcome) that the NumPy path
leaves when the same waves run as one group. The bytes are llvm-mc-19's
(gfx900) encodings of the texts, recorded here."""

import numpy as np
import pytest

from amdgpu_tools.exec import semantics  # noqa: F401  (registers every semantic)
from amdgpu_tools.exec.core.context import Branch, Context
from amdgpu_tools.exec.core.program import Program, Record
from amdgpu_tools.exec.core.state import WaveState
from amdgpu_tools.isa import decode
from amdgpu_tools.isa.targets import get_target

INSTRUCTIONS = [
    ('s_add_u32 s10, s11, s12', "0b0c0a80"),
    ('s_addc_u32 s10, s11, 0x12345678', "0bff0a8278563412"),
    ('s_add_i32 s10, s11, -5', "0bc50a81"),
    ('s_sub_i32 s10, s11, s12', "0b0c8a81"),
    ('s_subb_u32 s10, 7, s12', "870c8a82"),
    ('s_mul_i32 s10, s11, s12', "0b0c0a92"),
    ('s_lshl_b32 s10, s11, s12', "0b0c0a8e"),
    ('s_lshr_b64 s[10:11], s[12:13], s14', "0c0e8a8f"),
    ('s_ashr_i64 s[10:11], s[12:13], 33', "0ca18a90"),
    ('s_and_b64 s[10:11], s[12:13], s[14:15]', "0c0e8a86"),
    ('s_andn2_b64 exec, exec, s[14:15]', "7e0efe89"),
    ('s_or_b64 s[10:11], -1, s[14:15]', "c10e8a87"),
    ('s_xnor_b32 s10, s11, 0xffff0000', "0bff0a8d0000ffff"),
    ('s_bfe_u32 s10, s11, 0x80005', "0bff8a9205000800"),
    ('s_bfe_i32 s10, s11, s12', "0b0c0a93"),
    ('s_bfe_i64 s[10:11], s[12:13], 0x200007', "0cff0a9407002000"),
    ('s_cselect_b32 s10, s11, s12', "0b0c0a85"),
    ('s_cselect_b64 s[10:11], s[12:13], 0', "0c808a85"),
    ('s_mov_b64 s[10:11], exec', "7e018abe"),
    ('s_mov_b32 s10, 1.0', "f2008abe"),
    ('s_mov_b64 s[10:11], -1.0', "f3018abe"),
    ('s_not_b64 s[10:11], s[12:13]', "0c058abe"),
    ('s_cmov_b32 s10, s11', "0b028abe"),
    ('s_movk_i32 s10, 0x8001', "01800ab0"),
    ('s_addk_i32 s10, 0x7fff', "ff7f0ab7"),
    ('s_mulk_i32 s10, 0xfff0', "f0ff8ab7"),
    ('s_cmovk_i32 s10, 0x1234', "34128ab0"),
    ('s_cmp_lt_i32 s11, s12', "0b0c04bf"),
    ('s_cmp_eq_u64 s[12:13], s[14:15]', "0c0e12bf"),
    ('s_cmpk_gt_u32 s11, 0x8000', "00800bb5"),
    ('s_cmpk_le_i32 s11, 0x8000', "00808bb3"),
    ('s_bitcmp1_b64 s[12:13], s14', "0c0e0fbf"),
    ('s_min_i32 s10, s11, s12', "0b0c0a83"),
    ('s_max_u32 s10, s11, s12', "0b0c8a84"),
    ('s_lshl2_add_u32 s10, s11, s12', "0b0c8a97"),
    ('s_bcnt1_i32_b64 s10, s[12:13]', "0c0d8abe"),
    ('s_sext_i32_i8 s10, s11', "0b168abe"),
    ('s_pack_lh_b32_b16 s10, s11, s12', "0b0c8a99"),
    ('s_and_saveexec_b64 s[10:11], s[12:13]', "0c208abe"),
    ('s_or_saveexec_b64 s[10:11], -1', "c1218abe"),
    ('s_xor_saveexec_b64 s[10:11], vcc', "6a228abe"),
    ('s_andn1_wrexec_b64 s[10:11], s[12:13]', "0c358abe"),
    ('s_cbranch_scc0 5', "050084bf"),
    ('s_cbranch_scc1 -3', "fdff85bf"),
    ('s_cbranch_vccz 2', "020086bf"),
    ('s_cbranch_vccnz 2', "020087bf"),
    ('s_cbranch_execz 2', "020088bf"),
    ('s_cbranch_execnz 2', "020089bf"),
    ('s_branch 4', "040082bf"),
    ('v_readlane_b32 s10, v1, 37', "0a0089d2014b0100"),
    ('v_writelane_b32 v2, s11, 5', "02008ad20b0a0100"),
    ('v_readlane_b32 s10, v1, s12', "0a0089d201190000"),
    ('s_mov_b64 s[10:11], 0x80000001', "ff018abe01000080"),
    ('s_and_b64 s[10:11], s[12:13], 0xfffffff0', "0cff8a86f0ffffff"),
    ('s_mov_b32 s10, src_scc', "fd008abe"),
    ('s_cselect_b64 s[10:11], exec, -1', "7ec18a85"),
]
WAVES = 4
PC = 0x1000


def random_state(target, seed):
    """Four waves with random SGPRs (edge values mixed in), SCC, EXEC and VGPRs."""
    rng = np.random.default_rng(seed)
    state = WaveState(target=target, num_waves=WAVES, vgpr_count=4, num_groups=1, lds_bytes=0)
    edges = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 31, 33, 0x8000], np.uint32)
    state.sgpr[:] = rng.integers(0, 1 << 32, state.sgpr.shape, dtype=np.uint64)
    picks = rng.random(state.sgpr.shape) < 0.3
    state.sgpr[picks] = rng.choice(edges, int(picks.sum()))
    state.sgpr[126:128, 0] = 0xFFFFFFFF          # one wave with every lane on
    state.sgpr[106:108, 1] = 0                   # one with VCC zero
    state.sgpr[126:128, 2] = 0                   # one with EXEC zero
    state.scc[:] = rng.random(WAVES) < 0.5
    state.vgpr[:] = rng.integers(0, 1 << 32, state.vgpr.shape, dtype=np.uint64)
    return state


def snapshot(state):
    return state.sgpr.copy(), state.scc.copy(), state.vgpr.copy()


def outcome_per_wave(outcome, n):
    """Where each wave goes: (taken, target) per wave, or None to fall through."""
    if outcome is None:
        return [None] * n
    assert isinstance(outcome, Branch)
    taken = np.broadcast_to(np.asarray(outcome.taken, np.bool_), (n,))
    return [(outcome.target if t else None) for t in taken]


@pytest.mark.parametrize("text,code", INSTRUCTIONS, ids=[t for t, _ in INSTRUCTIONS])
def test_one_wave_matches_the_group(text, code):
    target = get_target("gfx900")
    inst = decode(bytes.fromhex(code) + bytes(8), 0, target)
    record = Record(PC, inst, Program(None, target)._bind(inst, PC))
    for seed in range(6):
        with np.errstate(all="ignore"):        # as in the run loop
            check_against_group(record, text, target, seed)


def check_against_group(record, text, target, seed):
    """Run ``record`` for all waves as one group and for each wave alone, from
    the same random state: same outcomes, same registers."""
    group = random_state(target, seed)
    alone = random_state(target, seed)
    together = outcome_per_wave(record.run(Context(group, slice(0, WAVES), WAVES, record)),
                                WAVES)
    for wave in range(WAVES):
        outcome = record.run(Context(alone, slice(wave, wave + 1), 1, record))
        assert outcome_per_wave(outcome, 1) == [together[wave]], f"{text}: wave {wave}"
    for got, want, name in zip(snapshot(alone), snapshot(group), ("sgpr", "scc", "vgpr")):
        assert np.array_equal(got, want), f"{text}: {name} differs (seed {seed})"

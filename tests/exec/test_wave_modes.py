"""s_setvskip (MODE.VSKIP: vector instructions are skipped while set) and the
GFX6-8 fork/join stack (s_cbranch_i_fork / g_fork / join), against the ISA
manual's definitions: a fork splits EXEC by the mask, runs the smaller half
first and pushes {PC, EXEC} of the other at SGPR[CSP * 4], CSP = MODE[31:29];
a join pops while CSP differs from the saved value."""

import numpy as np

from amdgpu_tools.exec.core.gpr_index import MODE_VSKIP

from .kernel_util import run_snippet

LANE = np.arange(64)


def test_vskip_skips_vector_instructions_only_while_set():
    state = run_snippet("s_setvskip s1, 3\n"           # VSKIP = s1[3]
                        "v_mov_b32 v1, 7\n"
                        "s_mov_b32 s2, 5\n"
                        "v_mov_b32 v3, s2\n"
                        "s_setvskip s1, 0\n"           # VSKIP = s1[0] = 0
                        "v_mov_b32 v2, 9\n",
                        sgpr={1: [8, 0]}, vgpr={1: 1, 2: 2, 3: 3}, waves=2, mcpu="gfx803")
    assert state.vgpr[1].tolist() == [[1] * 64, [7] * 64]      # wave 0 skipped it
    assert state.vgpr[3].tolist() == [[3] * 64, [5] * 64]
    assert state.sgpr[2].tolist() == [5, 5]                    # scalar ops still run
    assert state.vgpr[2].tolist() == [[9] * 64, [9] * 64]
    assert not (state.mode & MODE_VSKIP).any()


def test_vskip_also_skips_lds_accesses():
    state = run_snippet("s_setvskip 1, 0\n"
                        "v_mov_b32 v1, 5\n"
                        "ds_read_b32 v2, v1\n"
                        "s_setvskip 0, 0\n",
                        vgpr={1: 1, 2: 2}, mcpu="gfx900")
    assert state.vgpr[1, 0].tolist() == [1] * 64
    assert state.vgpr[2, 0].tolist() == [2] * 64


FORK = """s_getreg_b32 s20, hwreg(HW_REG_MODE, 29, 3)
s_mov_b64 s[12:13], exec
v_cmp_gt_u32 vcc, s21, v0
s_cbranch_i_fork vcc, PASS
v_mov_b32 v1, 2
s_branch JOIN
PASS:
v_mov_b32 v1, 1
JOIN:
s_cbranch_join s20
s_mov_b64 exec, s[12:13]
v_add_u32 v2, vcc, 10, v1
"""
PASS_OFFSET = 24          # six 4-byte instructions before PASS
FORK_NEXT = 16            # the instruction after s_cbranch_i_fork


def test_i_fork_runs_the_smaller_half_first_and_join_pops_the_other():
    # wave 0: 40 lanes pass (the 24 failing ones run first, the pass half is
    # pushed); wave 1: 10 pass (they run first, the failing half is pushed);
    # wave 2: every lane passes (a plain branch, nothing pushed)
    state = run_snippet(FORK, sgpr={21: [40, 10, 64]}, vgpr={0: LANE}, waves=3,
                        mcpu="gfx803")
    for wave, cut in enumerate((40, 10, 64)):
        assert state.vgpr[1, wave].tolist() == np.where(LANE < cut, 1, 2).tolist()
        assert state.vgpr[2, wave].tolist() == np.where(LANE < cut, 11, 12).tolist()
    assert (state.mode >> 29).tolist() == [0, 0, 0]
    entry = state.request.setup.entry_address
    # the pushed entries stay in s[0:3]: EXEC of the later half, then its PC
    assert int(state.read_sgpr64(slice(0, 1), 0)[0]) == (1 << 40) - 1
    assert int(state.read_sgpr64(slice(0, 1), 2)[0]) == entry + PASS_OFFSET
    assert int(state.read_sgpr64(slice(1, 2), 0)[0]) == ((1 << 64) - 1) ^ ((1 << 10) - 1)
    assert int(state.read_sgpr64(slice(1, 2), 2)[0]) == entry + FORK_NEXT


def test_g_fork_takes_a_64_bit_target_address_and_nests():
    source = """s_getreg_b32 s20, hwreg(HW_REG_MODE, 29, 3)
s_getpc_b64 s[6:7]
HERE:
s_add_u32 s6, s6, PASS-HERE
s_addc_u32 s7, s7, 0
v_cmp_gt_u32 vcc, 16, v0
v_cmp_gt_u32 s[8:9], 48, v0
s_cbranch_g_fork s[8:9], s[6:7]
s_cbranch_i_fork vcc, INNER
v_mov_b32 v1, 3
s_branch JOIN
INNER:
v_mov_b32 v1, 4
s_branch JOIN
PASS:
v_mov_b32 v1, 1
JOIN:
s_cbranch_join s20
s_mov_b64 exec, -1
"""
    # g_fork: 48 pass, 16 fail -> the 16 (lanes 48..63) run first; inside
    # them, i_fork on lanes < 16 passes none: a plain fall-through (v1 = 3);
    # the join pops lanes 0..47 to PASS (v1 = 1)
    state = run_snippet(source, vgpr={0: LANE}, mcpu="gfx803")
    assert state.vgpr[1, 0].tolist() == np.where(LANE < 48, 1, 3).tolist()
    assert int(state.mode[0]) >> 29 == 0


def test_setreg_of_mode_turns_vskip_and_indexing_on_too():
    state = run_snippet("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 28, 1), 1\n"
                        "v_mov_b32 v1, 7\n"
                        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 28, 1), 0\n"
                        "s_mov_b32 m0, 0x1002\n"                     # index 2, SRC0
                        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 27, 1), 1\n"
                        "v_mov_b32 v2, v1\n"                         # reads v3
                        "s_set_gpr_idx_off\n",
                        vgpr={1: 1, 2: 2, 3: 3}, mcpu="gfx900")
    assert state.vgpr[1, 0].tolist() == [1] * 64
    assert state.vgpr[2, 0].tolist() == [3] * 64

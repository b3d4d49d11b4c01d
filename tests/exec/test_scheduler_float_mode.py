"""MODE is per wave: float-mode flags follow the waves being run, not the
wave that last executed s_setreg. Two waves of one batch set different
FP_DENORM / FP_ROUND values and then run the same float operation, whose
result depends on the mode (expected values computed independently)."""

import numpy as np
import pytest

from amdgpu_tools.exec.core import dispatch

from .test_scheduler_kernels import build, new_device


@pytest.fixture
def device():
    return new_device()


TINY = np.float32(1e-20)                 # TINY * TINY = 1e-40: an f32 denormal
DENORMAL = (np.float64(TINY) * np.float64(TINY)).astype(np.float32)

# wave 0 (work-group 0) runs first (lower PC), allows f32 denormals and
# multiplies; wave 1 multiplies later, at another PC, in its own (default,
# flushing) mode: with one flag per batch it would inherit wave 0's mode
DIFFERENT_PCS = """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0x1e3ce508
  s_lshl_b32 s6, s2, 2
  v_mov_b32 v3, s6
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 OTHER
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
  v_mul_f32 v2, v1, v1
  s_branch STORE
OTHER:
  v_mul_f32 v2, v1, v1
STORE:
  global_store_dword v3, v2, s[4:5]
"""

# both waves set their mode from a per-wave SGPR and then run the same
# instructions as one group: the group is run one part per MODE
SAME_PC = """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0x1e3ce508
  s_lshl_b32 s6, s2, 2
  v_mov_b32 v3, s6
  s_mul_i32 s7, s2, 3
  s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s7
  v_mul_f32 v2, v1, v1
  global_store_dword v3, v2, s[4:5]
"""


def _run(device, body, waves=2):
    kernel = build(device, body)
    out = device.zeros(waves, np.float32)
    kernel(out, grid=(64 * waves,), block=(64,))
    device.synchronize()
    return out.numpy()


def test_tiny_constant_is_what_the_kernels_use():
    assert int(TINY.view(np.uint32)) == 0x1E3CE508
    assert DENORMAL != 0 and abs(DENORMAL) < np.finfo(np.float32).tiny


def test_a_wave_at_another_pc_keeps_its_own_denormal_mode(device):
    assert _run(device, DIFFERENT_PCS).tolist() == [DENORMAL, 0.0]


def test_waves_of_one_group_with_different_modes_run_with_their_own(device):
    assert _run(device, SAME_PC).tolist() == [0.0, DENORMAL]


def test_four_waves_alternating_modes(device):
    # s7 = 3 * group: groups 0, 1, 2, 3 -> FP_DENORM 0, 3, 2 (output only), 1 (input only)
    body = SAME_PC.replace("s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s7",
                           "s_and_b32 s7, s7, 3\n  s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s7")
    result = _run(device, body, waves=4)
    # the input is a normal number, so only "allow output" (2, 3) keeps the denormal
    assert result.tolist() == [0.0, DENORMAL, DENORMAL, 0.0]


def test_round_mode_per_wave(device):
    # 1 + 2**-30 in f32: nearest-even gives 1.0, round toward +inf gives 1 + 2**-23
    body = """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 1.0
  v_mov_b32 v4, 0x30800000
  s_lshl_b32 s6, s2, 2
  v_mov_b32 v3, s6
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 OTHER
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 1
  v_add_f32 v2, v1, v4
  s_branch STORE
OTHER:
  v_add_f32 v2, v1, v4
STORE:
  global_store_dword v3, v2, s[4:5]
"""
    assert np.float32(2.0 ** -30).view(np.uint32) == 0x30800000
    up = np.nextafter(np.float32(1), np.float32(2))
    assert _run(device, body).tolist() == [up, 1.0]


def test_without_s_setreg_the_float_mode_is_never_compared(device, monkeypatch):
    calls = []
    original = dispatch.Scheduler._run_by_float_mode

    def spy(self, pc, sel):
        calls.append(pc)
        return original(self, pc, sel)
    monkeypatch.setattr(dispatch.Scheduler, "_run_by_float_mode", spy)
    body = DIFFERENT_PCS.replace("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3", "s_nop 0")
    assert _run(device, body).tolist() == [0.0, 0.0]
    assert calls == []
    _run(device, DIFFERENT_PCS)
    assert calls                                 # after s_setreg: compared per group

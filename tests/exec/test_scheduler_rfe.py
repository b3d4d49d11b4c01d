"""s_rfe_b64 / s_rfe_restore_b64 as the ISA manuals define them: return from
a trap handler: PC = S0[63:0] and STATUS.PRIV = 0; s_rfe_restore_b64 (GFX8/9)
also sets STATUS.INST_ATC (bit 23) from S1[0]. Each wave of one group jumps
to its own address."""

import numpy as np
import pytest

from .test_scheduler_kernels import build, new_device


@pytest.fixture
def device():
    return new_device()


# out[4 * wave + 0..3] = (the value set at the target, STATUS.PRIV before,
# STATUS.PRIV after, STATUS.INST_ATC after); wave w returns to TARGET + w * 8
BODY = """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_setreg_imm32_b32 hwreg(HW_REG_STATUS, 5, 1), 1
  s_getreg_b32 s10, hwreg(HW_REG_STATUS, 5, 1)
  s_mov_b32 s9, s2
  s_getpc_b64 s[6:7]
HERE:
  s_add_u32 s6, s6, TARGET-HERE
  s_addc_u32 s7, s7, 0
  s_lshl_b32 s8, s2, 3
  s_add_u32 s6, s6, s8
  s_addc_u32 s7, s7, 0
  {rfe}
  v_mov_b32 v1, 99
  s_branch STORE
TARGET:
  v_mov_b32 v1, 10
  s_branch STORE
  v_mov_b32 v1, 11
  s_branch STORE
STORE:
  s_getreg_b32 s11, hwreg(HW_REG_STATUS, 5, 1)
  s_getreg_b32 s12, hwreg(HW_REG_STATUS, 23, 1)
  s_lshl_b32 s13, s2, 4
  v_mov_b32 v5, s13
  v_mov_b32 v2, s10
  v_mov_b32 v3, s11
  v_mov_b32 v4, s12
  global_store_dwordx4 v5, v[1:4], s[4:5]
"""


def _run(device, rfe):
    kernel = build(device, BODY.replace("{rfe}", rfe))
    out = device.zeros((2, 4), np.uint32)
    kernel(out, grid=(128,), block=(64,))
    device.synchronize()
    return out.numpy().tolist()


def test_rfe_jumps_to_s0_and_leaves_privileged_mode(device):
    assert _run(device, "s_rfe_b64 s[6:7]") == [[10, 1, 0, 0], [11, 1, 0, 0]]


def test_rfe_restore_also_sets_inst_atc_from_s1_bit_0(device):
    # s9 = work-group id: wave 0 -> INST_ATC 0, wave 1 -> 1
    assert _run(device, "s_rfe_restore_b64 s[6:7], s9") == [[10, 1, 0, 0], [11, 1, 0, 1]]


def test_rfe_to_an_unmapped_address_is_a_fetch_error(device):
    from amdgpu_tools.errors import KernelError
    kernel = build(device, """
  s_mov_b32 s6, 0x40
  s_mov_b32 s7, 0
  s_rfe_b64 s[6:7]
""", buffers=0)
    with pytest.raises(KernelError, match="unmapped address 0x40"):
        kernel(grid=(64,), block=(64,))
        device.synchronize()

"""The same kernels on older generations: GFX8 names the carry-out add
v_add_u32 (GFX9: v_add_co_u32), GFX7/GFX8 reach memory through FLAT."""

import numpy as np
import pytest

from .kernel_util import Kernel, run_snippet

GFX8_KERNEL = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_lshlrev_b32 v1, 2, v0
v_mov_b32 v2, s5
v_add_u32 v3, vcc, s4, v1
v_addc_u32 v4, vcc, v2, 0, vcc
flat_load_dword v5, v[3:4]
s_waitcnt vmcnt(0) lgkmcnt(0)
v_add_f16 v5, v5, v5
v_mov_b32 v2, s7
v_add_u32 v3, vcc, s6, v1
v_addc_u32 v4, vcc, v2, 0, vcc
flat_store_dword v[3:4], v5
s_endpgm
"""


@pytest.mark.parametrize("mcpu", ["gfx803", "gfx900"])
def test_flat_kernel_with_carry_add_on_gfx8_and_gfx9(mcpu):
    source = GFX8_KERNEL if mcpu == "gfx803" else \
        GFX8_KERNEL.replace("v_add_u32", "v_add_co_u32").replace("v_addc_u32", "v_addc_co_u32")
    kernel = Kernel(source, mcpu=mcpu)
    values = (np.arange(128) * 0.5).astype(np.float16)
    words = values.view(np.uint16).astype(np.uint32) | 0xABCD0000
    src, dst = kernel.buffer(words), kernel.buffer(np.zeros(128, np.uint32))
    kernel.run([src, dst], grid=128, block=128)
    out = kernel.read(dst, np.uint32, 128)
    np.testing.assert_array_equal((out & 0xFFFF).astype(np.uint16).view(np.float16), values * 2)
    assert not (out >> 16).any()          # 16-bit VALU results zero the high half


def test_gfx8_v_add_u32_writes_the_carry():
    state = run_snippet("v_add_u32 v2, vcc, v0, v1\nv_subrev_u32 v3, s[4:5], v0, v1",
                        mcpu="gfx803", vgpr={0: 0xFFFFFFFF, 1: np.arange(64)})
    assert int(state.sgpr[106, 0]) == 0xFFFFFFFE and int(state.sgpr[107, 0]) == 0xFFFFFFFF
    np.testing.assert_array_equal(state.vgpr[2, 0], (np.arange(64) - 1) & 0xFFFFFFFF)
    np.testing.assert_array_equal(state.vgpr[3, 0], np.arange(64) + 1)
    borrow = int(state.sgpr[5, 0]) << 32 | int(state.sgpr[4, 0])
    assert borrow == (1 << 64) - 1         # lane - 0xFFFFFFFF borrows in every lane

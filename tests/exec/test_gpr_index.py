"""VGPR indexing mode (s_set_gpr_idx_*) and the M0-relative moves (v_movrel*,
s_movrel*), against the ISA manual's definitions: with MODE.GPR_IDX_EN set, a
VALU instruction adds M0[7:0] to the VGPR numbers of the operand slots enabled
in M0[15:12] (SRC0, SRC1, SRC2, DST); SGPR and constant operands stay put.

The compiled part runs ``data/gpr_idx.cl`` (a 32-element private vector
indexed by a per-lane value): clang-19 -O2 with ``-mllvm
-amdgpu-use-divergent-register-indexing`` (without it, clang expands the
access into a chain of v_cndmask) made a waterfall loop around
s_set_gpr_idx_on/off for gfx900 and gfx803 (``-amdgpu-vgpr-index-mode``)
and around v_movrels/v_movreld for gfx803. The code objects are recorded; with
clang-19 and ld.lld-19 installed the source is rebuilt too.
"""

import subprocess
from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.exec.core.gpr_index import MODE_GPR_IDX_EN
from conftest import find_tool

from .kernel_util import run_snippet

DATA = Path(__file__).parent / "data"
M0 = 124
#: the recorded code objects and the extra clang flags that made them
CODE_OBJECTS = {
    "gpr_idx_gfx900": ("gfx900", []),
    "gpr_idx_gfx803": ("gfx803", ["-mllvm", "-amdgpu-vgpr-index-mode"]),
    "gpr_idx_movrel_gfx803": ("gfx803", []),
}
COUNT = 256


def _inputs():
    rng = np.random.default_rng(7)
    return (rng.integers(0, 1024, COUNT).astype(np.int32),
            rng.standard_normal(COUNT * 32).astype(np.float32))


def _expected(sel, data):
    rows = np.arange(COUNT)
    v = data.reshape(COUNT, 32) * np.float32(2)
    picked = v[rows, sel & 31].copy()
    v[rows, (sel >> 5) & 31] = -1
    weights = (2 * np.arange(32) + 1).astype(np.float32)
    return picked, (v.astype(np.float64) * weights).sum(axis=1)


def _run(code_object):
    sel, data = _inputs()
    device = Device()
    program = device.load(str(code_object))
    out = device.zeros(2 * COUNT, np.float32)
    program["pick"](device.array(sel), device.array(data), out, np.int32(COUNT),
                    grid=(COUNT,), block=(64,))
    device.synchronize()
    got = out.numpy()
    picked, total = _expected(sel, data)
    # the picked element is a plain move: bit-exact; the weighted sum may be
    # contracted into FMAs in clang's order: close to the exact f64 sum
    assert got[:COUNT].view(np.uint32).tolist() == picked.view(np.uint32).tolist()
    np.testing.assert_allclose(got[COUNT:], total, rtol=2e-5, atol=2e-4)


@pytest.mark.parametrize("name", sorted(CODE_OBJECTS))
def test_recorded_code_object_matches_numpy(name):
    _run(DATA / f"{name}.hsaco")


@pytest.mark.llvm
@pytest.mark.parametrize("name", sorted(CODE_OBJECTS))
def test_freshly_compiled_matches_numpy(name, tmp_path):
    clang, lld = find_tool("clang-19"), find_tool("ld.lld-19")
    if clang is None or lld is None:
        pytest.skip("clang-19 / ld.lld-19 are not installed")
    cpu, flags = CODE_OBJECTS[name]
    obj, hsaco = tmp_path / "k.o", tmp_path / "k.hsaco"
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-x", "cl",
                    "-cl-std=CL2.0", "-nogpulib", "-O2", "-mllvm",
                    "-amdgpu-use-divergent-register-indexing", *flags, "-c",
                    str(DATA / "gpr_idx.cl"), "-o", str(obj)], check=True, capture_output=True)
    subprocess.run([lld, "-shared", str(obj), "-o", str(hsaco)], check=True,
                   capture_output=True)
    _run(hsaco)


# ----------------------------------------------------- hand-built snippets
#: v[r] holds 100 * r + lane in every wave, so a value names its register
def _vgprs(count=16, waves=2):
    lanes = np.arange(64, dtype=np.uint32)
    return {r: np.broadcast_to(100 * r + lanes, (waves, 64)).copy() for r in range(count)}


def _lanes_of(register):
    return (100 * register + np.arange(64)).tolist()


@pytest.mark.parametrize("mcpu", ["gfx900", "gfx803"])
def test_src0_index_differs_per_wave(mcpu):
    state = run_snippet("s_set_gpr_idx_on s2, gpr_idx(SRC0)\n"
                        "v_mov_b32 v1, v4\n"
                        "s_set_gpr_idx_off\n"
                        "v_mov_b32 v2, v4\n",
                        sgpr={2: [0, 3], M0: 0}, vgpr=_vgprs(), waves=2, mcpu=mcpu)
    assert state.vgpr[1, 0].tolist() == _lanes_of(4)
    assert state.vgpr[1, 1].tolist() == _lanes_of(7)
    assert state.vgpr[2, 1].tolist() == _lanes_of(4)        # mode off again
    # M0 keeps index and enables; only MODE.GPR_IDX_EN is cleared
    assert state.sgpr[M0].tolist() == [0x1000, 0x1003]
    assert not (state.mode & MODE_GPR_IDX_EN).any()


def test_dst_index_moves_the_written_register_only():
    state = run_snippet("s_set_gpr_idx_on s2, gpr_idx(DST)\n"
                        "v_add_u32 v4, v1, v2\n"
                        "s_set_gpr_idx_off\n",
                        sgpr={2: [2, 5]}, vgpr=_vgprs(), waves=2)
    total = (np.array(_lanes_of(1)) + np.array(_lanes_of(2))).tolist()
    assert state.vgpr[6, 0].tolist() == total and state.vgpr[4, 0].tolist() == _lanes_of(4)
    assert state.vgpr[9, 1].tolist() == total and state.vgpr[6, 1].tolist() == _lanes_of(6)


def test_vop3_src1_src2_indexed_src0_and_sgprs_not():
    state = run_snippet("s_set_gpr_idx_on 2, gpr_idx(SRC1,SRC2)\n"
                        "v_mad_u32_u24 v10, v1, v2, v3\n"
                        "v_mad_u32_u24 v11, v1, s5, v3\n"
                        "s_set_gpr_idx_off\n",
                        sgpr={5: 3}, vgpr=_vgprs(waves=1), waves=1)
    v1, v4, v5 = (np.array(_lanes_of(r), dtype=np.int64) for r in (1, 4, 5))
    assert state.vgpr[10, 0].tolist() == ((v1 * v4 + v5) & 0xFFFFFFFF).tolist()
    assert state.vgpr[11, 0].tolist() == ((v1 * 3 + v5) & 0xFFFFFFFF).tolist()


def test_mode_and_idx_rewrite_m0_fields():
    state = run_snippet("s_set_gpr_idx_on 1, gpr_idx(SRC0)\n"
                        "s_set_gpr_idx_mode gpr_idx(SRC1)\n"
                        "v_sub_u32 v10, v2, v3\n"            # v2 - v4
                        "s_set_gpr_idx_idx s6\n"
                        "v_sub_u32 v11, v2, v3\n"            # v2 - v5
                        "s_set_gpr_idx_off\n",
                        sgpr={6: 0x102, M0: 0xABCD0000}, vgpr=_vgprs(waves=1), waves=1)
    v2, v4, v5 = (np.array(_lanes_of(r), dtype=np.int64) for r in (2, 4, 5))
    assert state.vgpr[10, 0].tolist() == ((v2 - v4) & 0xFFFFFFFF).tolist()
    assert state.vgpr[11, 0].tolist() == ((v2 - v5) & 0xFFFFFFFF).tolist()
    assert int(state.sgpr[M0, 0]) == 0xABCD2002          # bits above 15 untouched


def test_compare_destination_is_not_a_vgpr():
    state = run_snippet("s_set_gpr_idx_on 1, gpr_idx(SRC0,DST)\n"
                        "v_cmp_eq_u32_e64 s[8:9], v3, v4\n"      # v4 == v4
                        "v_readfirstlane_b32 s10, v2\n"         # reads v3 into s10
                        "s_set_gpr_idx_off\n",
                        vgpr=_vgprs(waves=1), waves=1)
    assert state.read_sgpr64(slice(0, 1), 8).tolist() == [0xFFFF_FFFF_FFFF_FFFF]
    assert int(state.sgpr[10, 0]) == 300


def test_dpp_and_sdwa_sources_are_indexed():
    state = run_snippet("s_set_gpr_idx_on 2, gpr_idx(SRC0,SRC1)\n"
                        "v_mov_b32_dpp v10, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
                        "v_add_u32_sdwa v11, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD "
                        "src0_sel:WORD_0 src1_sel:DWORD\n"
                        "v_add_u32_sdwa v12, s1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD "
                        "src0_sel:DWORD src1_sel:DWORD\n"
                        "s_set_gpr_idx_off\n",
                        sgpr={1: 7}, vgpr=_vgprs(waves=1), waves=1)
    v3, v4 = np.array(_lanes_of(3)), np.array(_lanes_of(4))
    assert state.vgpr[10, 0].tolist() == v3[np.arange(64) ^ 1].tolist()
    assert state.vgpr[11, 0].tolist() == (v3 + v4).tolist()
    assert state.vgpr[12, 0].tolist() == (7 + v4).tolist()


def test_index_past_the_last_vgpr_is_a_kernel_error():
    from amdgpu_tools.errors import KernelError
    with pytest.raises(KernelError, match="out of range"):
        run_snippet("s_set_gpr_idx_on 20, gpr_idx(SRC0)\nv_mov_b32 v1, v4\n",
                    vgpr=_vgprs(waves=1), waves=1)


# -------------------------------------------------------- relative moves
def test_vector_relative_moves():
    """GFX8 (and GFX6/7) only: GFX9 dropped v_movrel* for s_set_gpr_idx_*."""
    state = run_snippet("v_movrels_b32 v1, v4\n"          # v1 = v[4 + m0]
                        "v_movreld_b32 v8, v2\n"          # v[8 + m0] = v2
                        "v_movreld_b32 v12, -1.0\n"       # v[12 + m0] = -1.0 (not relative)
                        "v_movrelsd_b32 v5, v3\n",        # v[5 + m0] = v[3 + m0]
                        sgpr={M0: [1, 2]}, vgpr=_vgprs(), waves=2, mcpu="gfx803")
    for wave, m0 in enumerate((1, 2)):
        assert state.vgpr[1, wave].tolist() == _lanes_of(4 + m0)
        assert state.vgpr[8 + m0, wave].tolist() == _lanes_of(2)
        assert state.vgpr[12 + m0, wave].tolist() == [0xBF800000] * 64
        assert state.vgpr[5 + m0, wave].tolist() == _lanes_of(3 + m0)
    assert state.vgpr[8, 0].tolist() == _lanes_of(8)


def test_vector_relative_move_honours_exec():
    state = run_snippet("v_movreld_b32 v4, -1.0\n", sgpr={M0: 2}, vgpr=_vgprs(waves=1), waves=1,
                        exec_mask=0xFFFF_0000_0000_FFFF, mcpu="gfx803")
    lanes = np.arange(64)
    on = (lanes < 16) | (lanes >= 48)
    expected = np.where(on, 0xBF800000, 600 + lanes)
    assert state.vgpr[6, 0].tolist() == expected.tolist()


def test_scalar_relative_moves():
    state = run_snippet("s_movrels_b32 s1, s4\n"          # s1 = s[4 + m0]
                        "s_movreld_b32 s10, s2\n"         # s[10 + m0] = s2
                        "s_movrels_b64 s[20:21], s[4:5]\n",
                        sgpr={M0: [2, 4], 2: 77, 4: 40, 5: 50, 6: 60, 7: 70, 8: 80, 9: 90},
                        waves=2)
    assert state.sgpr[1].tolist() == [60, 80]
    assert state.sgpr[12, 0] == 77 and state.sgpr[14, 1] == 77
    assert state.sgpr[20:22, 0].tolist() == [60, 70]
    assert state.sgpr[20:22, 1].tolist() == [80, 90]

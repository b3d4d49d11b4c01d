"""Semantics applied lane by lane in compiled blocks (exec/compiled/lanewise.py):
the probe that admits an op's scalar form only where it gives the
interpreter's bits, and blocks built with and without scalar forms."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from amdgpu_tools.exec import semantics  # noqa: F401  (registers every semantic)
from amdgpu_tools.exec.compiled import codegen, tier
from amdgpu_tools.exec.compiled.lanewise import probe
from amdgpu_tools.exec.core.registry import SEMANTICS, Semantic

from .test_compiled_blocks import ALU_BLOCK, _same_registers, _state, compile_mode  # noqa: F401


def _valu(fn, dst, *srcs, **flags):
    return Semantic("v_test_" + fn.__name__, "valu", fn, dst, srcs,
                    {"carry_in": False, "carry_out": False, **flags})


def carry_by_compare(a, b):
    """An add whose carry is ``sum < a``: right for wrapping uint32 arrays,
    wrong for Numba's scalars, which widen the sum to 64 bits."""
    total = a + b
    return total, total < a


def carry_by_shift(a, b):
    """The same add with its carry taken from a 64-bit sum: right both ways."""
    total = a.astype(np.uint64) + b
    return total, (total >> np.uint64(32)) != 0


def half_by_python_float(a, b):
    """a * 0.1 + b: a Python float turns Numba's f32 scalars into f64 (one
    rounding at the end), where the f32 arrays round twice."""
    return a * 0.1 + b


def test_probe_rejects_a_scalar_form_that_widens():
    reason = probe(_valu(carry_by_compare, "u32", "u32", "u32", carry_out=True))
    assert reason is not None and "carry or SCC differs" in reason


def test_probe_rejects_a_scalar_form_that_rounds_once():
    reason = probe(_valu(half_by_python_float, "f32", "f32", "f32"))
    assert reason is not None and "result differs" in reason


def test_probe_admits_an_exact_scalar_form():
    assert probe(_valu(carry_by_shift, "u32", "u32", "u32", carry_out=True)) is None


@pytest.mark.parametrize("op", ["v_add_co_u32", "v_addc_co_u32", "v_cndmask_b32", "v_mac_f32",
                                "v_cmp_lt_f32", "v_cmpx_ne_u32", "v_lshlrev_b64",
                                "v_mad_u64_u32", "v_mul_hi_u32", "v_fma_f32", "v_fma_f64",
                                "v_mul_legacy_f32", "v_mad_legacy_f32", "v_cmp_class_f32",
                                "v_frexp_mant_f32", "v_frexp_exp_i32_f64", "v_bcnt_u32_b32",
                                "v_bfrev_b32", "s_brev_b32", "s_brev_b64", "s_bcnt1_i32_b64",
                                "v_bfe_u32", "v_bfe_i32", "s_bfe_i64", "v_mul_i32_i24",
                                "v_ffbh_u32", "v_ffbl_b32", "v_ffbh_i32", "s_ff1_i32_b64",
                                "s_flbit_i32_b32", "s_flbit_i32_i64", "v_div_scale_f32",
                                "v_div_scale_f64", "v_div_fmas_f32", "v_div_fmas_f64",
                                "v_div_fixup_f32", "v_div_fixup_f64", "v_fract_f32",
                                "v_fract_f64", "v_ldexp_f64", "v_perm_b32",
                                "v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32", "s_absdiff_i32",
                                "s_nand_b32", "s_nor_b64", "s_xnor_b32", "v_trig_preop_f64",
                                "v_add_u16", "v_ashrrev_i16", "v_mad_u16", "v_cmp_lt_i16",
                                "v_max3_i16"])
def test_probe_admits_common_ops(op):
    """(v_fma_f64's scalar form is LLVM's fma, primitives.py: its probe
    found fused.fma64 returning NaN for finite factors whose product
    overflows and an infinite addend.)"""
    assert probe(SEMANTICS[op]) is None


def scc_by_compare(a, b):
    """An SALU add whose SCC is ``sum < a`` (wrong for widened scalars)."""
    total = a + b
    return total, total < a


def test_probe_rejects_an_salu_scalar_form_that_widens():
    semantic = Semantic("s_test_add", "salu", scc_by_compare, "u32", ("u32", "u32"),
                        {"scc_in": False, "scc_out": True})
    reason = probe(semantic)
    assert reason is not None and "carry or SCC differs" in reason


@pytest.mark.parametrize("op", ["s_add_u32", "s_addc_u32", "s_add_i32", "s_cmp_lt_i32",
                                "s_cselect_b32", "s_lshl_b64", "s_and_b64", "s_addk_i32",
                                "s_cmpk_lg_u32", "s_mul_i32"])
def test_probe_admits_common_salu_ops(op):
    assert probe(SEMANTICS[op]) is None


@pytest.mark.parametrize("op", ["s_and_saveexec_b64", "s_or_saveexec_b64", "s_andn2_wrexec_b64",
                                "s_cbranch_scc1", "s_cbranch_vccz", "s_cbranch_execz",
                                "s_cbranch_execnz"])
def test_probe_admits_saveexec_and_branches(op):
    assert probe(SEMANTICS[op]) is None


def test_probe_refuses_what_numba_cannot_type():
    """v_cvt_pkrtz_f16_f32 rounds through float16, which Numba has not: no
    scalar form (v_bfrev_b32, which reshaped its source, v_mbcnt_lo_u32_b32,
    which broadcast its mask over a lane index array, v_trig_preop_f64,
    which read its window from a Python integer, and v_qsad_pk_u16_u8, which
    summed into np.zeros of a broadcast shape, now have one)."""
    assert probe(SEMANTICS["v_cvt_pkrtz_f16_f32"]).startswith(
        "Numba cannot compile its scalar form")
    for op in ("v_bfrev_b32", "v_mbcnt_lo_u32_b32", "v_trig_preop_f64", "v_qsad_pk_u16_u8",
               "v_mqsad_pk_u16_u8"):
        assert probe(SEMANTICS[op]) is None, op


@pytest.mark.parametrize("waves", [1, 3])
def test_long_block_lane_loops_give_the_interpreters_registers(compile_mode, monkeypatch,
                                                                waves):
    """ALU_BLOCK with its lane loops as a long block has them in parts, each
    with both paths (one for waves with every lane active, one testing each
    lane), in check mode: equal to the interpreter, whose EXEC goes from
    full to partial."""
    reference = _state(ALU_BLOCK, "off", compile_mode, waves=waves)
    monkeypatch.setattr(codegen, "WHOLE_MAX_INSTRUCTIONS", 0)
    cache = Path(str(tier.cache_directory()) + "-long")
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(cache))
    long_form = _state(ALU_BLOCK, "check", compile_mode, waves=waves)
    _same_registers(reference, long_form)
    sources = [path.read_text() for path in cache.glob("b*.py")]
    assert any("def part1(" in text for text in sources)
    assert any("for l in range(64)" in text and "if full[w]" in text for text in sources)


@pytest.mark.parametrize("waves", [1, 3])
def test_lane_and_array_forms_give_the_interpreters_registers(compile_mode, monkeypatch, waves):
    """ALU_BLOCK with every VALU, compare and SALU op lane by lane (the probe
    admits them all) and with none: both in check mode, both equal to the
    interpreter."""
    reference = _state(ALU_BLOCK, "off", compile_mode, waves=waves)
    some = {"v_add_co_u32", "v_cmp_gt_f32", "v_mac_f32", "v_fma_f32", "s_addc_u32",
            "s_cselect_b32", "s_lshl_b64", "s_and_saveexec_b64"}
    assert tier.lanewise_ops(some) == some
    lanewise = _state(ALU_BLOCK, "check", compile_mode, waves=waves)
    monkeypatch.setattr(tier, "lanewise_ops", lambda ops: frozenset())
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tier.cache_directory()) + "-arrays")
    arrays = _state(ALU_BLOCK, "check", compile_mode, waves=waves)
    _same_registers(reference, lanewise)
    _same_registers(reference, arrays)

"""Compiled hot blocks (exec/compiled): native code generated from the
semantics gives the interpreter's registers exactly, tiers, caches, refuses
what Numba cannot compile, and its checking mode catches a wrong block."""

import contextlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError, LaunchError
from amdgpu_tools.exec.compiled import codegen, server, tier

from . import kernel_util
from .kernel_util import F32_DIVISION, run_snippet
from .test_valu import _two_over_pi_bits

pytest.importorskip("numba")

#: Blocks compiled by these tests are kept between runs (as the clang builds are).
SHARED_CACHE = "/tmp/amdgpu-tools-test-cache/blocks"

#: One block of ALU code touching every kind of operand the code generator
#: binds: VGPR/SGPR/inline/literal sources, f32 abs/neg and denormal flush,
#: carries through VCC and an SGPR pair, compares into VCC, an SGPR pair and
#: EXEC, 64-bit VALU, SALU with SCC in and out, 64-bit SALU and EXEC writes.
ALU_BLOCK = """
v_add_co_u32_e32 v2, vcc, v0, v1
v_addc_co_u32_e32 v3, vcc, 0, v1, vcc
v_add_co_u32_e64 v4, s[8:9], v0, s6
v_addc_co_u32_e64 v5, s[10:11], v1, 7, s[8:9]
v_mul_f32_e32 v6, 0x3fc00000, v1
v_mul_f32_e64 v7, -|v6|, v0
v_add_f32_e32 v8, v0, v1
v_mac_f32_e32 v8, 0.5, v7
v_fma_f32 v9, v0, -v1, |v6|
v_cmp_lt_u32_e32 vcc, v0, v1
v_cndmask_b32_e32 v10, v2, v3, vcc
v_cmp_gt_f32_e64 s[12:13], v6, v7
v_cndmask_b32_e64 v11, v4, -v5, s[12:13]
v_lshlrev_b64 v[12:13], 3, v[0:1]
v_mad_u64_u32 v[14:15], s[14:15], v0, v1, v[12:13]
v_xor_b32_e32 v16, s7, v2
v_mul_lo_u32 v17, v16, v1
v_mul_hi_u32 v18, v16, v1
s_add_u32 s16, s6, s7
s_addc_u32 s17, s7, 0x12345678
s_lshl_b64 s[18:19], s[6:7], 5
s_cmp_lt_i32 s6, s7
s_cselect_b32 s20, s6, s7
s_nop 0
s_and_saveexec_b64 s[22:23], vcc
v_sub_f32_e32 v19, v1, v0
v_cmpx_ne_u32_e32 vcc, 3, v0
v_mov_b32_e32 v20, v19
s_mov_b64 exec, s[22:23]
v_subrev_co_u32_e32 v21, vcc, v20, v17
v_mul_f32_e64 v22, -|s6|, v1
v_cmp_gt_f32_e64 s[24:25], s7, v1
v_cndmask_b32_e64 v23, -1, v0, s[24:25]
s_waitcnt lgkmcnt(0)
"""


def _inputs(seed, waves):
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 1 << 32, (2, waves, 64), dtype=np.uint64).astype(np.uint32)
    floats = rng.normal(0, 1e3, (waves, 64)).astype(np.float32)
    floats[:, ::9] = np.float32(1e-40)          # denormals: flushed on input and output
    floats[:, 5::11] = -np.float32(3e-39)
    bits[1] = floats.view(np.uint32)
    return ({0: bits[0], 1: bits[1]},
            {6: rng.integers(0, 1 << 32, waves), 7: rng.integers(0, 1 << 32, waves)})


@pytest.fixture
def compile_mode(monkeypatch):
    """Set ``AMDGPU_TOOLS_COMPILE`` (and a shared block cache) for a test."""
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", SHARED_CACHE)

    def set_mode(mode):
        monkeypatch.setenv("AMDGPU_TOOLS_COMPILE", mode)
    return set_mode


@contextlib.contextmanager
def recorded_dispatches():
    """The DispatchResult of every run_snippet inside the ``with``, in order."""
    results = []
    original = kernel_util.run_dispatch

    def recording(*args, **kwargs):
        results.append(original(*args, **kwargs))
        return results[-1]
    kernel_util.run_dispatch = recording
    try:
        yield results
    finally:
        kernel_util.run_dispatch = original


def _state(source, mode, compile_mode, waves=2, seed=1, **kwargs):
    """The registers after ``source`` ran in ``mode``; in eager and check mode
    every instruction must have run natively."""
    compile_mode(mode)
    vgpr, sgpr = _inputs(seed, waves)
    sgpr.update(kwargs.pop("sgpr", {}))
    options = {key: value for key, value in kwargs.items() if key != "partial"}
    with recorded_dispatches() as results:
        state = run_snippet(source, vgpr=vgpr, sgpr=sgpr, waves=waves, vgprs=24,
                            mcpu=options.pop("mcpu", "gfx900"), **options)
    result, = results
    if mode == "off":
        assert result.compiled_instructions == 0
    elif kwargs.get("partial"):
        # the interpreter takes what the block hands back (waves that disagree
        # on a branch, an access the native path cannot make)
        assert 0 < result.compiled_instructions < result.wave_instructions
    elif mode in ("eager", "check"):
        # all but the s_endpgm
        assert result.compiled_instructions == result.wave_instructions - waves
    return state


def _same_registers(a, b):
    np.testing.assert_array_equal(a.vgpr, b.vgpr)
    np.testing.assert_array_equal(a.sgpr, b.sgpr)
    np.testing.assert_array_equal(a.scc, b.scc)


def test_every_instruction_of_the_block_compiles():
    """Nothing in ALU_BLOCK ends a block: the whole listing is one block."""
    from amdgpu_tools.isa import decode
    from amdgpu_tools.isa.targets import get_target
    from .kernel_util import assemble
    target = get_target("gfx900")
    code = assemble(ALU_BLOCK, "gfx900")

    class _State:
        float_mode_bits, round_f32, round_f64_f16, denorm_f32, denorm_f64_f16 = 0x2C0, 0, 0, 0, 3
        ieee_mode, dx10_clamp = True, True
        vgpr = np.zeros((24, 1, 64), np.uint32)
    offset = 0
    while offset < len(code):
        inst = decode(code, offset, target)
        assert codegen.why_not(inst, 9, codegen.Modes(_State)) is None, inst.op
        offset += inst.size


@pytest.mark.parametrize("waves", [1, 3])
def test_block_gives_the_interpreters_registers(compile_mode, waves):
    reference = _state(ALU_BLOCK, "off", compile_mode, waves=waves)
    # check mode runs every block natively and by the interpreter and fails on
    # any difference; eager mode keeps only the native registers
    checked = _state(ALU_BLOCK, "check", compile_mode, waves=waves)
    native = _state(ALU_BLOCK, "eager", compile_mode, waves=waves)
    _same_registers(reference, checked)
    _same_registers(reference, native)
    assert (reference.vgpr[8] != 0).any() and (reference.sgpr[22] != 0).any()


def test_block_under_partial_exec_and_gfx803(compile_mode):
    source = ALU_BLOCK.replace("v_mad_u64_u32 v[14:15], s[14:15], v0, v1, v[12:13]\n", "") \
        .replace("_co_", "_").replace("v_addc_u32", "v_addc_u32")
    reference = _state(source, "off", compile_mode, mcpu="gfx803", exec_mask=0xF0F0_1234_FFFF_0001)
    native = _state(source, "eager", compile_mode, mcpu="gfx803", exec_mask=0xF0F0_1234_FFFF_0001)
    _same_registers(reference, native)


F32_BLOCK = """
v_mul_f32_e32 v6, 0x3fc00000, v1
v_add_f32_e64 v7, -|v6|, v1
v_mac_f32_e32 v7, 0.5, v1
"""


#: f32 min/max/med3, between other instructions (integer ones: which of two
#: NaN operands an add's result carries is LLVM's choice natively).
MIN_MAX = """
v_add_u32_e32 v8, v0, v1
v_max_f32_e32 v2, v0, v1
v_min_f32_e32 v3, v1, v0
v_max_f32_e64 v4, -v0, |v1|
v_max3_f32 v5, v0, v1, 1.0
v_min3_f32 v6, v1, 0, v0
v_med3_f32 v7, v0, v1, -2.0
v_xor_b32_e32 v9, v0, v1
"""


def _interpreted_and_native(compile_mode, monkeypatch, form, source, native, **kwargs):
    """The final states of ``source`` run interpreted and eager (``native``
    wave-instructions natively), its ops applied lane by lane or, with
    ``form`` "arrays", to whole arrays (a block cache of their own, as
    test_lanewise.py keeps)."""
    if form == "arrays":
        monkeypatch.setattr(tier, "lanewise_ops", lambda ops: frozenset())
    states = []
    for mode in ("off", "eager"):
        compile_mode(mode)
        if form == "arrays":
            monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", SHARED_CACHE + "-arrays")
        with recorded_dispatches() as results:
            states.append(run_snippet(source, **kwargs))
        assert results[0].compiled_instructions == (native if mode == "eager" else 0)
    return states


NEGATED_NANS = """
v_add_f32_e64 v4, -v2, v0
v_add_f32_e64 v5, v0, -v2
v_mul_f32_e64 v6, -v2, v0
v_fma_f32 v7, -v2, v0, 0.5
v_add_f64 v[8:9], -v[10:11], v[12:13]
v_add_f32_e64 v14, -|v2|, v0
"""


@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_a_negated_nan_operand_keeps_its_sign_natively(compile_mode, monkeypatch, form):
    """The check mode found LLVM folding a negation into the op (-a + b ->
    b - a), after which x86 returned a NaN a without the negation; ops
    applied lane by lane and to whole arrays alike."""
    one, nan = np.float32(1.0).view(np.uint32), 0x7FC00000
    vgpr = {0: np.full(64, one), 2: np.full(64, nan), 10: np.full(64, 0),
            11: np.full(64, 0x7FF80000), 12: np.full(64, 0), 13: np.full(64, 0x3FF00000)}
    states = _interpreted_and_native(compile_mode, monkeypatch, form, NEGATED_NANS, 6,
                                     vgpr=vgpr, vgprs=24)
    # the negated NaN, as the interpreter gives it (the modifier flips the sign bit)
    assert [int(states[0].vgpr[reg, 0, 0]) for reg in (4, 5, 6, 7, 9, 14)] == \
        [0xFFC00000] * 4 + [0xFFF80000, 0xFFC00000]
    _same_registers(*states)


#: Two or three NaN operands meet in every IEEE arithmetic op that compiled
#: blocks run: (instruction, destination, operand registers in the order its
#: arithmetic is written, width). v11 starts as v2 (the mac's addend).
TWO_NANS = [("v_add_f32_e32 v4, v0, v1", 4, (0, 1), 32),
            ("v_add_f32_e64 v5, v1, v0", 5, (1, 0), 32),
            ("v_sub_f32_e32 v6, v0, v1", 6, (0, 1), 32),
            ("v_subrev_f32_e32 v7, v0, v1", 7, (1, 0), 32),
            ("v_mul_f32_e32 v8, v1, v0", 8, (1, 0), 32),
            ("v_mad_f32 v9, v0, v1, v2", 9, (0, 1, 2), 32),
            ("v_fma_f32 v10, v2, v1, v0", 10, (2, 1, 0), 32),
            ("v_mov_b32_e32 v11, v2\nv_mac_f32_e32 v11, v0, v1", 11, (0, 1, 2), 32),
            ("v_mul_legacy_f32_e32 v12, v0, v1", 12, (0, 1), 32),
            ("v_mad_legacy_f32 v13, v1, v0, v2", 13, (1, 0, 2), 32),
            ("v_add_f64 v[14:15], v[22:23], v[20:21]", 14, (22, 20), 64),
            ("v_mul_f64 v[16:17], v[20:21], v[22:23]", 16, (20, 22), 64),
            ("v_fma_f64 v[18:19], v[22:23], v[20:21], v[24:25]", 18, (22, 20, 24), 64)]
_NANS_32 = (0x7FC00000, 0xFFC00000, 0x7FC0BEEF, 0xFFD00001, 0x7F800001, 0xFFA00003)
_NUMBERS_32 = (0x3F800000, 0xC0400000, 0x7F800000, 0)
_NANS_64 = (0x7FF8000000000000, 0xFFF8000000000000, 0x7FF80000DEADBEEF, 0x7FF0000000000001,
            0xFFF4000000000002)
_NUMBERS_64 = (0x3FF0000000000000, 0xC008000000000000, 0x7FF0000000000000, 0)


def _nan_operands(waves):
    """Lane values for TWO_NANS: NaNs of both signs, quiet and signalling, with
    payloads, or numbers (zeros among them: the legacy ops' 0 * NaN = 0);
    every lane of the first quarter has only NaN operands."""
    rng = np.random.default_rng(7)
    narrow = rng.choice(np.array(_NANS_32 + _NUMBERS_32, np.uint32), (3, waves, 64))
    narrow[:, :, :16] = rng.choice(np.array(_NANS_32, np.uint32), (3, waves, 16))
    wide = rng.choice(np.array(_NANS_64 + _NUMBERS_64, np.uint64), (3, waves, 64))
    wide[:, :, :16] = rng.choice(np.array(_NANS_64, np.uint64), (3, waves, 16))
    vgpr = {reg: narrow[reg] for reg in range(3)}
    for k, reg in enumerate((20, 22, 24)):
        vgpr[reg], vgpr[reg + 1] = wide[k] & np.uint64(0xFFFFFFFF), wide[k] >> np.uint64(32)
    return vgpr


def _first_nan_quieted(operands, width):
    """The rule, computed from the bits: where an operand is a NaN, the first
    NaN operand with its quiet bit set; None elsewhere (no NaN: the op's own
    result)."""
    magnitude = (1 << (width - 1)) - 1
    infinity, quiet = (0x7F800000, 1 << 22) if width == 32 else (0x7FF0000000000000, 1 << 51)
    chosen = np.full(operands[0].shape, None, object)
    for value in reversed(operands):
        value = value.astype(object)
        chosen = np.where(value & magnitude > infinity, value | quiet, chosen)
    return chosen


@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_the_first_nan_operand_wins_in_both_tiers(compile_mode, monkeypatch, form):
    """Which NaN comes out of an op with several NaN operands is stated by
    the semantics (the first, quieted, in the order the arithmetic is
    written), not left to the host: natively LLVM commutes a + b or a * b,
    and x86 then returns the other NaN. The check mode found it in an OCML
    sqrt at -O0 (v_fma_f32 v4, -v2, v0, 0.5 with v2 and v0 both -NaN)."""
    waves = 2
    source = "\n".join(["v_fma_f32 v26, -v2, v0, 0.5"] + [line for line, *_ in TWO_NANS])
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, source, waves * (source.count("\n") + 1),
        vgpr=_nan_operands(waves), vgprs=28, waves=waves)
    v = interpreted.vgpr.astype(np.uint64)
    for line, dst, operands, width in TWO_NANS:
        values = [v[reg] if width == 32 else v[reg] | v[reg + 1] << np.uint64(32)
                  for reg in operands]
        result = v[dst] if width == 32 else v[dst] | v[dst + 1] << np.uint64(32)
        keep = np.ones(result.shape, bool)
        if "legacy" in line:              # 0 * anything (a NaN too) is +0
            zero = (values[0] == 0) | (values[1] == 0)
            if len(values) == 2:
                assert (result[zero] == 0).all()
                keep = ~zero
            else:                         # the product's NaN (or a number), then the addend
                product = np.where(values[0] & 0x7FFFFFFF > 0x7F800000, values[0], values[1])
                values = [np.where(zero, 0, product), values[2]]
        expected = _first_nan_quieted(values, width)
        checked = keep & (expected != None)     # noqa: E711 (an object array)
        assert checked[:, :16].all() or "legacy" in line
        assert [hex(x) for x in result[checked]] == [hex(x) for x in expected[checked]], line
    negated = (v[2, :, :16] ^ 0x80000000) | 1 << 22          # -v2 came first
    assert (v[26, :, :16] == negated).all()
    _same_registers(interpreted, native)


#: ops Numba once refused to compile as written (np.finfo, np.frexp, unpackbits,
#: reshaped broadcasts, a dtype test, a result typed by a branch)
ONCE_REFUSED = """
v_cmp_class_f32_e32 vcc, v0, v1
v_cndmask_b32_e64 v4, 0, 1, vcc
v_cmp_class_f32_e64 s[0:1], v0, s2
v_cndmask_b32_e64 v5, 0, 1, s[0:1]
v_cmp_class_f64_e64 s[4:5], v[2:3], v1
v_cndmask_b32_e64 v6, 0, 1, s[4:5]
v_frexp_mant_f32_e32 v8, v0
v_frexp_exp_i32_f32_e32 v9, v0
v_frexp_mant_f64_e32 v[10:11], v[2:3]
v_frexp_exp_i32_f64_e32 v12, v[2:3]
v_bcnt_u32_b32 v13, v1, 3
v_bfrev_b32_e32 v14, v1
s_brev_b32 s8, s2
s_bcnt1_i32_b64 s9, s[4:5]
v_bfe_u32 v15, v1, 2, 5
v_bfe_i32 v16, v0, 27, 5
v_mul_i32_i24_e32 v17, v0, v1
v_ffbh_u32_e32 v18, v1
v_ffbl_b32_e32 v19, v1
s_ff1_i32_b32 s10, s2
v_cmpx_class_f32_e64 s[6:7], v0, v1
v_mov_b32_e32 v7, 1
"""


@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_once_refused_ops_run_natively(compile_mode, monkeypatch, form):
    """v_cmp_class/v_cmpx_class (OCML's isnan/isinf tests) in a block: every
    class of f32 and f64 values against class masks of one bit, all bits and
    random ones, per lane (a VGPR) and per wave (an SGPR); v_frexp_* of the
    same values (a block's copy has no np.frexp: valu_float.frexp_parts);
    bit counts and reversals (salu.popcount_32, reverse_bits_32: arithmetic,
    no unpackbits); bitfield extracts, 24-bit multiplies and bit searches."""
    rng = np.random.default_rng(11)
    classes_32 = np.array([0x7F800001, 0xFFC00000, 0xFF800000, 0xC0000000, 0x807FFFFF,
                           0x80000000, 0, 1, 0x3F800000, 0x7F800000], np.uint32)
    classes_64 = np.array([0x7FF0000000000001, 0xFFF8000000000000, 0xFFF0000000000000,
                           0xC000000000000000, 0x800FFFFFFFFFFFFF, 0x8000000000000000, 0, 1,
                           0x3FF0000000000000, 0x7FF0000000000000], np.uint64)
    picks = rng.integers(0, 10, (2, 64))
    masks = np.where(rng.random((2, 64)) < 0.5, 1 << rng.integers(0, 10, (2, 64)),
                     rng.integers(0, 1 << 10, (2, 64))).astype(np.uint32)
    masks[:, :4] = [0, 0x3FF, 0x3, 0x204]
    wide = classes_64[picks]
    vgpr = {0: classes_32[picks], 1: masks, 2: wide & np.uint64(0xFFFFFFFF),
            3: wide >> np.uint64(32)}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, ONCE_REFUSED, 2 * 22, vgpr=vgpr,
        sgpr={2: [0x3, 0x204]}, waves=2, vgprs=20)
    expected = (masks >> picks.astype(np.uint32)) & 1     # the class numbers are the picks
    v = interpreted.vgpr
    np.testing.assert_array_equal(v[4], expected)
    np.testing.assert_array_equal(v[6], expected)
    np.testing.assert_array_equal(v[5], (np.array([[0x3], [0x204]]) >> picks) & 1)
    np.testing.assert_array_equal(v[7], np.where(expected == 1, 1, 0))   # cmpx: EXEC
    counts = np.vectorize(lambda m: bin(int(m)).count("1"))(masks)
    np.testing.assert_array_equal(v[13], counts + 3)
    reversed_masks = np.vectorize(lambda m: int(format(int(m), "032b")[::-1], 2))(masks)
    np.testing.assert_array_equal(v[14], reversed_masks.astype(np.uint32))
    assert [int(x) for x in interpreted.sgpr[8]] == [0xC0000000, 0x20400000]
    np.testing.assert_array_equal(v[15], (masks >> 2) & 31)
    low = (vgpr[0].astype(np.int64) & 0xFFFFFF) ^ 0x800000
    product = (low - 0x800000) * ((masks.astype(np.int64) ^ 0x800000) - 0x800000)
    np.testing.assert_array_equal(v[17], (product & 0xFFFFFFFF).astype(np.uint32))
    np.testing.assert_array_equal(v[16].view(np.int32),
                                  vgpr[0].view(np.int32) >> 27)   # bits 31:27, signed
    leading = np.vectorize(lambda m: 32 - int(m).bit_length() if m else 0xFFFFFFFF)(masks)
    trailing = np.vectorize(lambda m: (int(m) & -int(m)).bit_length() - 1 if m else
                            0xFFFFFFFF)(masks)
    np.testing.assert_array_equal(v[18], leading.astype(np.uint32))
    np.testing.assert_array_equal(v[19], trailing.astype(np.uint32))
    assert [int(x) for x in interpreted.sgpr[10]] == [0, 2]
    _same_registers(interpreted, native)


#: LLVM's IEEE f32 and f64 division as clang emits them for gfx9 with
#: denormals kept: v0 / v1 into v7, v[26:27] / v[24:25] into v[20:21]
DIVISIONS = F32_DIVISION + """
v_div_scale_f64 v[12:13], s[0:1], v[24:25], v[24:25], v[26:27]
v_rcp_f64_e32 v[14:15], v[12:13]
v_fma_f64 v[16:17], -v[12:13], v[14:15], 1.0
v_fma_f64 v[14:15], v[14:15], v[16:17], v[14:15]
v_div_scale_f64 v[16:17], vcc, v[26:27], v[24:25], v[26:27]
v_fma_f64 v[18:19], -v[12:13], v[14:15], 1.0
v_fma_f64 v[14:15], v[14:15], v[18:19], v[14:15]
v_mul_f64 v[18:19], v[16:17], v[14:15]
v_fma_f64 v[12:13], -v[12:13], v[18:19], v[16:17]
v_div_fmas_f64 v[12:13], v[12:13], v[14:15], v[18:19]
v_div_fixup_f64 v[20:21], v[12:13], v[24:25], v[26:27]
v_add_co_u32_e64 v22, s[2:3], s6, 1
v_cndmask_b32_e64 v23, 0, 1, s[2:3]
"""


def _division_operands(rng, dtype, shape):
    """Numerators or denominators of ``dtype``: random magnitudes from
    denormal to huge, with zeros, infinities, NaNs, ones and both signs."""
    info = np.finfo(dtype)
    exponents = rng.integers(info.minexp - info.nmant, info.maxexp, shape)
    values = np.ldexp(rng.uniform(1, 2, shape), exponents).astype(dtype)
    values = np.where(rng.random(shape) < 0.5, -values, values)
    specials = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, info.tiny, info.max,
                         info.smallest_subnormal], dtype)
    return np.where(rng.random(shape) < 0.2, specials[rng.integers(0, len(specials), shape)],
                    values)


@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_division_runs_natively_and_rounds_as_numpy(compile_mode, monkeypatch, form):
    """The division family (v_div_scale, v_div_fmas, v_div_fixup: f32 and,
    once refused by Numba, f64) in a block, through clang's whole division
    sequence: the quotient is n / d correctly rounded, NumPy's, for every
    finite, infinite, zero, NaN, denormal and overflowing pair, natively
    as interpreted. (Also a carry-out from an SGPR and a constant only: it
    is every lane's, not one column of them.)"""
    rng = np.random.default_rng(5)
    n32, d32 = (_division_operands(rng, np.float32, (2, 64)) for _ in range(2))
    n64, d64 = (_division_operands(rng, np.float64, (2, 64)) for _ in range(2))
    n32[0, :8] = d32[0, :8] = [0, np.inf, 1, 0, 3, 1e-45, 1e38, 3e-39]
    d32[0, :8] = [0, np.inf, 0, 5, 1e-45, 3, 1e-38, 3e38]
    vgpr = {0: n32, 1: d32, 24: d64.view(np.uint64) & np.uint64(0xFFFFFFFF),
            25: d64.view(np.uint64) >> np.uint64(32),
            26: n64.view(np.uint64) & np.uint64(0xFFFFFFFF),
            27: n64.view(np.uint64) >> np.uint64(32)}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, DIVISIONS, 2 * 25, vgpr=vgpr,
        sgpr={6: [0xFFFFFFFF, 7]}, waves=2, vgprs=28, float_mode=0xF0)
    with np.errstate(all="ignore"):
        want32, want64 = n32 / d32, n64 / d64
    v = interpreted.vgpr
    got32 = v[7].view(np.float32)
    got64 = ((v[21].astype(np.uint64) << np.uint64(32)) | v[20]).view(np.float64)
    for got, want in ((got32, want32), (got64, want64)):
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(got[~np.isnan(want)], want[~np.isnan(want)])
        assert np.signbit(got[~np.isnan(want)]).tolist() == \
            np.signbit(want[~np.isnan(want)]).tolist()
    np.testing.assert_array_equal(v[23], [[1] * 64, [0] * 64])
    _same_registers(interpreted, native)


LANE_NUMBER_AND_BYTE_OPS = """
v_mbcnt_lo_u32_b32 v4, v0, 0
v_mbcnt_hi_u32_b32 v4, v1, v4
v_mbcnt_lo_u32_b32 v5, -1, 0
v_mbcnt_hi_u32_b32 v5, -1, v5
v_perm_b32 v6, v0, v1, v2
v_fract_f32_e32 v7, v3
v_ldexp_f64 v[8:9], v[10:11], v2
s_nand_b32 s8, s2, s3
s_absdiff_i32 s9, s2, s3
v_mov_b32_e32 v12, s8
v_mov_b32_e32 v13, s9
v_trig_preop_f64 v[14:15], v[10:11], v2
"""


def _trig_preop(x, segment, table):
    """v_trig_preop_f64 of one lane from the bits of 2/pi (``table``: the
    hardware's 1200, from Machin's formula) with Python ints."""
    exponent = (int(x) >> 52) & 0x7FF
    shift = (int(segment) & 31) * 53 + max(exponent - 1077, 0)
    window = (table << 53 >> (1200 - shift)) & ((1 << 53) - 1) if shift < 1200 else 0
    return np.ldexp(np.float64(window), -53 - shift + (128 if exponent >= 1968 else 0))


def _permuted(a, b, selector):
    """v_perm_b32 of one lane, from the ISA's byte table with Python ints."""
    pool = (int(a) << 32) | int(b)
    result = 0
    for byte in range(4):
        pick = (int(selector) >> (8 * byte)) & 0xFF
        if pick < 8:
            value = (pool >> (8 * pick)) & 0xFF
        elif pick < 12:
            value = 0xFF if pool >> (8 * (2 * (pick - 8) + 1) + 7) & 1 else 0
        else:
            value = 0 if pick == 12 else 0xFF
        result |= value << (8 * byte)
    return result


@pytest.mark.parametrize("exec_mask", [(1 << 64) - 1, 0xF0F0FFFF0000FFF7])
@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_lane_number_and_byte_ops_run_natively(compile_mode, monkeypatch, form, exec_mask):
    """v_mbcnt (each lane's number: the registry's ``lane`` argument),
    v_perm_b32, v_fract, v_ldexp_f64 (a signalling NaN comes back quiet),
    s_nand and s_absdiff (32-bit wraps), v_trig_preop_f64 (its window of
    2/pi read from a table of words), once without scalar forms, in a
    block, against values computed independently, natively as interpreted;
    with every lane on and with lanes off."""
    rng = np.random.default_rng(21)
    bits = rng.integers(0, 1 << 32, (4, 2, 64), dtype=np.uint64).astype(np.uint32)
    bits[2] = np.where(rng.random((2, 64)) < 0.5, bits[2],
                       rng.integers(0, 14, (2, 64)) * 0x01010101 + 0x00030609)
    floats = rng.uniform(-40, 40, (2, 64)).astype(np.float32)
    floats[0, :6] = [np.inf, -np.inf, np.nan, -0.25, -1e-9, 3.0]
    wide = np.ldexp(rng.uniform(1, 2, (2, 64)), rng.integers(-1000, 1000, (2, 64)))
    wide[0, :3] = [np.inf, 0.0, np.nan]
    wide = wide.view(np.uint64)
    wide[0, 3] = 0x7FF4000000000001                  # a signalling NaN
    vgpr = {0: bits[0], 1: bits[1], 2: bits[2], 3: floats,
            10: wide & np.uint64(0xFFFFFFFF), 11: wide >> np.uint64(32)}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, LANE_NUMBER_AND_BYTE_OPS, 2 * 12, vgpr=vgpr,
        sgpr={2: [1, 0xDEADBEEF], 3: [0x80000000, 0xDEADBEEF]}, waves=2, vgprs=16,
        exec_mask=exec_mask)
    on = (exec_mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1
    v = interpreted.vgpr
    below = [(1 << lane) - 1 for lane in range(64)]
    counts = np.array([[bin(((int(hi) << 32 | int(lo)) & below[lane])).count("1")
                        for lane, (lo, hi) in enumerate(zip(bits[0, w], bits[1, w]))]
                       for w in range(2)])
    np.testing.assert_array_equal(v[4][:, on], counts[:, on])
    np.testing.assert_array_equal(v[5][:, on], np.tile(np.arange(64), (2, 1))[:, on])
    permuted = np.vectorize(_permuted)(bits[0], bits[1], bits[2])
    np.testing.assert_array_equal(v[6][:, on], permuted[:, on])
    with np.errstate(all="ignore"):
        fraction = (floats.astype(np.float64) - np.floor(floats)).astype(np.float32)
    fraction = np.where(np.isinf(floats), np.nan, np.minimum(fraction, np.float32(1 - 2 ** -24)))
    np.testing.assert_array_equal(v[7].view(np.float32)[:, on], fraction[:, on])
    scaled = (v[9].astype(np.uint64) << np.uint64(32) | v[8]).view(np.float64)
    exponents = np.clip(bits[2].view(np.int32), -2200, 2200)
    with np.errstate(all="ignore"):
        expected = np.ldexp(wide.view(np.float64), exponents)
    np.testing.assert_array_equal(scaled[:, on], expected[:, on])
    if on[3]:
        assert hex(int(scaled.view(np.uint64)[0, 3])) == "0x7ffc000000000001"
    assert [int(x) for x in v[12][:, 8]] == [0xFFFFFFFF, ~0xDEADBEEF & 0xFFFFFFFF]
    assert [int(x) for x in v[13][:, 8]] == [0x7FFFFFFF, 0]      # |1 - INT_MIN| wraps
    table = _two_over_pi_bits(1200)
    with np.errstate(all="ignore"):
        pieces = np.vectorize(lambda x, s: _trig_preop(x, s, table))(wide, bits[2])
    got = (v[15].astype(np.uint64) << np.uint64(32) | v[14]).view(np.float64)
    np.testing.assert_array_equal(got[:, on], pieces[:, on])
    _same_registers(interpreted, native)


LANE_MOVES = """
v_readlane_b32 s10, v0, 5
v_readlane_b32 s11, v1, s6
s_mov_b32 m0, s7
v_readlane_b32 s12, v0, m0
v_writelane_b32 v2, s10, 63
v_writelane_b32 v2, -7, 0
v_writelane_b32 v3, s11, m0
v_add_u32_e32 v4, s12, v0
v_readlane_b32 s13, v2, 63
v_readlane_b32 s14, v3, m0
"""


@pytest.mark.parametrize("exec_mask", [(1 << 64) - 1, 0x00F0FFFF0000FFF6])
def test_lane_moves_run_natively(compile_mode, monkeypatch, exec_mask):
    """v_readlane/v_writelane (-O0 code spills SGPRs to VGPR lanes with
    them): one lane, picked by a constant or an SGPR's low six bits, whatever
    EXEC holds, natively as interpreted and as computed here."""
    rng = np.random.default_rng(5)
    bits = rng.integers(0, 1 << 32, (4, 2, 64), dtype=np.uint64).astype(np.uint32)
    vgpr = {reg: bits[reg] for reg in range(4)}
    sgpr = {6: [0x1234567B, 0x80], 7: [0xFFFFFFC1, 9]}          # lanes 59, 0; 1, 9
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, "lanes", LANE_MOVES, 2 * 10, vgpr=vgpr, sgpr=sgpr,
        waves=2, vgprs=8, exec_mask=exec_mask)
    on = (exec_mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1
    s, v = interpreted.sgpr, interpreted.vgpr
    for w, (lane6, lane7) in enumerate([(59, 1), (0, 9)]):
        assert int(s[10, w]) == int(bits[0, w, 5])
        assert int(s[11, w]) == int(bits[1, w, lane6])
        assert int(s[12, w]) == int(bits[0, w, lane7])
        written = bits[2, w].copy()
        written[63], written[0] = s[10, w], 0xFFFFFFF9
        np.testing.assert_array_equal(v[2, w], written)
        written = bits[3, w].copy()
        written[lane7] = s[11, w]
        np.testing.assert_array_equal(v[3, w], written)
        np.testing.assert_array_equal(v[4, w, on], bits[0, w, on] + s[12, w])
        assert int(s[13, w]) == int(s[10, w]) and int(s[14, w]) == int(s[11, w])
    _same_registers(interpreted, native)


FIRST_LANE_READS = """
v_readfirstlane_b32 s10, v0
v_readfirstlane_b32 s13, v1
s_mov_b64 s[20:21], exec
s_mov_b64 exec, 0
v_readfirstlane_b32 s14, v1
s_mov_b64 exec, s[20:21]
v_readfirstlane_b32 exec_lo, v2
"""


@pytest.mark.parametrize("exec_mask", [(1 << 64) - 1, 0x00F0FFFF0000FF00, 1 << 63])
def test_first_lane_reads_run_natively(compile_mode, monkeypatch, exec_mask):
    """v_readfirstlane_b32 (scalarising a uniform value: MGPUSim's kmeans and
    simpleconvolution): the source in the lowest lane EXEC holds, lane 0
    when it holds none, EXEC among the destinations, natively as
    interpreted and as computed here."""
    rng = np.random.default_rng(6)
    bits = rng.integers(0, 1 << 32, (3, 2, 64), dtype=np.uint64).astype(np.uint32)
    vgpr = {reg: bits[reg] for reg in range(3)}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, "lanes", FIRST_LANE_READS, 2 * 7, vgpr=vgpr, waves=2, vgprs=8, exec_mask=exec_mask)
    first = (exec_mask & -exec_mask).bit_length() - 1
    s = interpreted.sgpr
    for w in range(2):
        assert int(s[10, w]) == int(bits[0, w, first])
        assert int(s[13, w]) == int(bits[1, w, first])
        assert int(s[14, w]) == int(bits[1, w, 0])
        assert int(s[126, w]) == int(bits[2, w, first])
    _same_registers(interpreted, native)


CACHE_CONTROL = """
v_add_u32_e32 v2, v0, v1
buffer_wbinvl1_vol
s_dcache_wb
ds_nop
s_icache_inv
s_sleep 1
s_setprio 2
v_add_u32_e32 v3, v2, v1
"""


def test_cache_control_runs_natively(compile_mode, monkeypatch):
    """Cache write-backs and invalidates (HIP's and OpenCL's acquires put
    buffer_wbinvl1_vol in loops), ds_nop, s_sleep (spin-wait loops) and
    s_setprio do nothing here, and a block runs through them, counting
    their lanes as the interpreter does."""
    rng = np.random.default_rng(11)
    bits = rng.integers(0, 1 << 31, (2, 2, 64), dtype=np.uint64).astype(np.uint32)
    exec_mask = 0x00FF00FF_FFFF0001
    counts = []
    for mode in ("off", "eager"):
        compile_mode(mode)
        with recorded_dispatches() as results:
            state = run_snippet(CACHE_CONTROL, vgpr={0: bits[0], 1: bits[1]}, waves=2,
                                exec_mask=exec_mask)
        counts.append((results[0].compiled_instructions, results[0].lane_instructions))
        on = (exec_mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1
        np.testing.assert_array_equal(state.vgpr[3][:, on], (bits[0] + 2 * bits[1])[:, on])
    active = bin(exec_mask).count("1")
    # per wave: 4 vector ops (their active lanes), 4 scalar ones and s_endpgm
    assert counts == [(0, 2 * (4 * active + 5)), (2 * 8, 2 * (4 * active + 5))]


LANE_GATHERS = """
ds_swizzle_b32 v4, v0 offset:swizzle(QUAD_PERM,1,0,3,2)
ds_swizzle_b32 v5, v0 offset:1055
v_lshlrev_b32_e32 v6, 2, v1
ds_bpermute_b32 v7, v6, v0
ds_bpermute_b32 v8, v6, v0 offset:4
ds_bpermute_b32 v0, v6, v0
s_waitcnt lgkmcnt(0)
"""


@pytest.mark.parametrize("exec_mask", [(1 << 64) - 1, 0xFFFF0FFF_00FFFF7E])
def test_lane_gathers_run_natively(compile_mode, monkeypatch, exec_mask):
    """ds_swizzle_b32 (a quad permute; an xor of the lane number in bitmask
    mode) and ds_bpermute_b32 (rocPRIM's warp shuffles), each active lane
    taking the lane its pattern or address names, 0 from a lane EXEC leaves
    off, the data register among the destinations; natively as interpreted
    and against NumPy's gathers."""
    rng = np.random.default_rng(12)
    data = rng.integers(0, 1 << 32, (2, 64), dtype=np.uint64).astype(np.uint32)
    picks = rng.integers(0, 256, (2, 64), dtype=np.uint64).astype(np.uint32)
    old = rng.integers(0, 1 << 32, (2, 64), dtype=np.uint64).astype(np.uint32)
    vgpr = {0: data, 1: picks, 4: old, 5: old, 7: old, 8: old}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, "lanes", LANE_GATHERS, 2 * 7, vgpr=vgpr, waves=2, vgprs=12,
        exec_mask=exec_mask)
    on = (exec_mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1
    lane = np.arange(64)

    def gathered(sources):
        sources = np.broadcast_to(sources, (2, 64))
        taken = np.where(on[sources], np.take_along_axis(data, sources, axis=1), 0)
        return np.where(on, taken, old)
    v = interpreted.vgpr
    np.testing.assert_array_equal(v[4], gathered((lane & ~3) | np.array([1, 0, 3, 2])[lane & 3]))
    np.testing.assert_array_equal(v[5], gathered(lane ^ 1))
    np.testing.assert_array_equal(v[7], gathered(picks.astype(np.int64) & 63))
    np.testing.assert_array_equal(v[8], gathered((picks.astype(np.int64) + 1) & 63))
    np.testing.assert_array_equal(v[0][:, on], v[7][:, on])
    _same_registers(interpreted, native)


SIXTEEN_BIT_INTEGERS = """
v_add_u16_e32 v4, v0, v1
v_sub_u16_e32 v5, v0, v1
v_mul_lo_u16_e32 v6, v0, v1
v_lshlrev_b16_e32 v7, v1, v0
v_ashrrev_i16_e32 v8, v1, v0
v_max_i16_e32 v9, v0, v1
v_min_u16_e32 v10, v0, v1
v_mad_u16 v11, v0, v1, v2
v_cmp_eq_u16_e32 vcc, v0, v1
v_cndmask_b32_e64 v12, 0, 1, vcc
v_cmp_lt_i16_e64 s[4:5], v0, 7
v_cndmask_b32_e64 v13, 0, 1, s[4:5]
v_add_u16_e32 v14, 64, v0
v_add_u16_e32 v15, s6, v0
"""


@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_sixteen_bit_integer_ops_run_natively(compile_mode, monkeypatch, form):
    """VALU ops and compares on 16-bit integers (the registers' low halves,
    the high halves of sources ignored and of results zero) in a block,
    against NumPy's uint16/int16 arithmetic, natively as interpreted."""
    rng = np.random.default_rng(16)
    bits = rng.integers(0, 1 << 32, (3, 2, 64), dtype=np.uint64).astype(np.uint32)
    same = rng.random((2, 64)) < 0.25                   # equal low halves, other high ones
    bits[1] = np.where(same, (bits[1] & 0xFFFF0000) | (bits[0] & 0xFFFF), bits[1])
    bits[0, 0, :4] = [0x12340007, 0xFFFF8000, 0x00007FFF, 0xABCD0006]
    vgpr = {0: bits[0], 1: bits[1], 2: bits[2]}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, SIXTEEN_BIT_INTEGERS, 2 * 14, vgpr=vgpr,
        sgpr={6: [0x0001FFFF, 0x12345678]}, waves=2, vgprs=16)
    a, b, c = (x.astype(np.int64) & 0xFFFF for x in bits)      # low halves, exactly
    sa, sb = a - ((a & 0x8000) << 1), b - ((b & 0x8000) << 1)   # as int16
    expected = {4: a + b, 5: a - b, 6: a * b, 7: a << (b & 15), 8: sa >> (b & 15),
                9: np.maximum(sa, sb), 10: np.minimum(a, b), 11: a * b + c, 12: a == b,
                13: sa < 7, 14: a + 64, 15: a + np.array([[0xFFFF], [0x5678]])}
    for reg, want in expected.items():
        np.testing.assert_array_equal(interpreted.vgpr[reg], np.asarray(want, np.int64) & 0xFFFF,
                                      err_msg=f"v{reg}")
    assert ((bits[0] != bits[1]) & (a == b)).sum() > 20     # equal only in the low halves
    _same_registers(interpreted, native)


DPP_OPS = """
v_mov_b32_dpp v4, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_u32_dpp v5, v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
v_add_f32_dpp v6, v2, v2 row_bcast:15 row_mask:0xa bank_mask:0xf
v_mov_b32_dpp v7, v0 wave_shr:1 row_mask:0xf bank_mask:0x5
v_max_f32_dpp v8, -v2, |v3| row_mirror row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v9, v1 row_bcast:31 row_mask:0xc bank_mask:0xf
v_mov_b32_dpp v10, v1 wave_rol:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
v_or_b32_dpp v0, v0, v1 row_ror:3 row_mask:0xf bank_mask:0xf bound_ctrl:0
"""


@pytest.mark.parametrize("exec_mask", [(1 << 64) - 1, 0xFFFF7FFF_FFFEFFFB])
@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_dpp_ops_run_natively(compile_mode, monkeypatch, form, exec_mask):
    """DPP VALU ops in a block: quad permutes, row shifts, rotates, mirrors
    and broadcasts, wave shifts and rotates, with row and bank masks, with
    and without bound_ctrl, abs/neg on both sources, and one whose result
    overwrites its permuted source; natively as interpreted (the lane maps
    are lanes.DppModifiers', the interpreter's), with every lane on and
    lanes off, and checked against the shuffles worked out by hand."""
    rng = np.random.default_rng(8)
    bits = rng.integers(0, 1 << 32, (2, 2, 64), dtype=np.uint64).astype(np.uint32)
    floats = rng.uniform(-9, 9, (2, 2, 64)).astype(np.float32)
    old = np.full((2, 64), 0xDEAD, np.uint32)
    vgpr = {0: bits[0], 1: bits[1], 2: floats[0], 3: floats[1], 4: old, 7: old}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, DPP_OPS, 2 * 8, vgpr=vgpr, waves=2, vgprs=12,
        exec_mask=exec_mask)
    on = (exec_mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1
    v, lane = interpreted.vgpr, np.arange(64)
    swapped = np.where(on & on[lane ^ 1], bits[0][:, lane ^ 1], old)   # (no bound_ctrl)
    np.testing.assert_array_equal(v[4], swapped)
    shifted = np.where((lane % 16 == 0) | ~on[lane - 1], 0, bits[0][:, lane - 1])
    np.testing.assert_array_equal(v[5][:, on], (shifted + bits[1])[:, on].astype(np.uint32))
    banks = ((lane >> 2) & 3) % 2 == 0                   # bank_mask 0x5: banks 0 and 2
    moved = (lane >= 1) & banks & on & on[lane - 1]
    np.testing.assert_array_equal(v[7], np.where(moved, bits[0][:, lane - 1], old))
    mirror = (lane & ~15) + 15 - (lane & 15)
    mirrored = np.maximum(-floats[0][:, mirror], np.abs(floats[1]))
    written = on & on[mirror]
    np.testing.assert_array_equal(v[8].view(np.float32)[:, written], mirrored[:, written])
    _same_registers(interpreted, native)


SDWA_OPS = """
v_mov_b32_sdwa v4, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1
v_add_u32_sdwa v5, sext(v0), v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_1
v_mov_b32_sdwa v6, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0
v_mov_b32_sdwa v7, v0 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_1
v_or_b32_sdwa v8, v0, v1 dst_sel:BYTE_2 dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:BYTE_0
v_add_u32_sdwa v9, v1, s2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
v_lshrrev_b16_sdwa v10, v1, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:WORD_1
v_max_f32_sdwa v11, -v2, |v3| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_mul_u32_u24_sdwa v12, v0, v1 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_2 src1_sel:WORD_0
"""


@pytest.mark.parametrize("exec_mask", [(1 << 64) - 1, 0x0FFFFFFF_FFFFF0FF])
@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_sdwa_ops_run_natively(compile_mode, monkeypatch, form, exec_mask):
    """SDWA VALU ops in a block: byte and word selects of both sources,
    sign-extended or not, an SGPR source, abs/neg on float sources, and
    every destination placement (padded, sign-extended, preserving the old
    value); natively as interpreted (the selections are lanes.sdwa_selector
    and sdwa_placer, the interpreter's), against bit arithmetic by hand."""
    rng = np.random.default_rng(9)
    bits = rng.integers(0, 1 << 32, (2, 2, 64), dtype=np.uint64).astype(np.uint32)
    floats = rng.uniform(-9, 9, (2, 2, 64)).astype(np.float32)
    old = rng.integers(0, 1 << 32, (2, 64), dtype=np.uint64).astype(np.uint32)
    vgpr = {0: bits[0], 1: bits[1], 2: floats[0], 3: floats[1], 6: old, 10: old}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, SDWA_OPS, 2 * 9, vgpr=vgpr, sgpr={2: [7, 0xFFFFFFFF]},
        waves=2, vgprs=14, exec_mask=exec_mask)
    on = (exec_mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1
    v = interpreted.vgpr
    a, b = bits[0].astype(np.int64), bits[1].astype(np.int64)
    byte = lambda x, k: (x >> (8 * k)) & 0xFF
    signed_byte = lambda x, k: byte(x, k) - ((byte(x, k) & 0x80) << 1)
    expected = {4: byte(a, 1), 5: signed_byte(a, 1) + (b >> 16),
                6: ((a & 0xFFFF) << 16) | (old & 0xFFFF),
                7: signed_byte(a, 1) & 0xFFFFFFFF,
                8: (byte(a, 3) | byte(b, 0)) << 16,
                9: byte(b, 0) + np.array([[7], [0xFFFFFFFF]])}
    for reg, want in expected.items():
        np.testing.assert_array_equal(v[reg][:, on], (want & 0xFFFFFFFF)[:, on], err_msg=f"v{reg}")
    np.testing.assert_array_equal(v[11].view(np.float32)[:, on],
                                  np.maximum(-floats[0], np.abs(floats[1]))[:, on])
    _same_registers(interpreted, native)


SDWA_COMPARES = """
v_cmp_ne_u16_sdwa vcc, v0, v1 src0_sel:WORD_1 src1_sel:WORD_0
v_cndmask_b32_e64 v4, 0, 1, vcc
v_cmp_gt_i16_sdwa s[4:5], sext(v0), v1 src0_sel:BYTE_0 src1_sel:BYTE_2
v_cndmask_b32_e64 v5, 0, 1, s[4:5]
v_cmp_lt_f32_sdwa s[6:7], -v2, |v3| src0_sel:DWORD src1_sel:DWORD
v_cndmask_b32_e64 v6, 0, 1, s[6:7]
v_cmp_eq_u32_sdwa vcc, v0, v1 src0_sel:BYTE_3 src1_sel:BYTE_1
v_cndmask_b32_e64 v7, 0, 1, vcc
s_mov_b64 s[8:9], exec
v_cmpx_lt_u32_sdwa s[10:11], v0, v1 src0_sel:BYTE_0 src1_sel:BYTE_0
v_mov_b32_e32 v8, 1
s_mov_b64 exec, s[8:9]
"""


@pytest.mark.parametrize("exec_mask", [(1 << 64) - 1, 0x0FFFFFFF_FFFFF0FF])
@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_sdwa_compares_run_natively(compile_mode, monkeypatch, form, exec_mask):
    """SDWA compares (rocPRIM's radix sort compares 16-bit keys so): byte
    and word selects, sign extension, abs/neg on floats, a mask to VCC or
    to the SGPR pair the SD bit names, v_cmpx writing EXEC; natively as
    interpreted, against NumPy's compares of the selected parts."""
    rng = np.random.default_rng(10)
    bits = rng.integers(0, 1 << 32, (2, 2, 64), dtype=np.uint64).astype(np.uint32)
    bits[1, :, :16] = (bits[0, :, :16] >> 16) | (bits[1, :, :16] & 0xFFFF0000)  # equal words
    bits[1, :, 16:24] = (bits[1, :, 16:24] & 0xFFFF00FF) | (bits[0, :, 16:24] >> 16 & 0xFF00)
    floats = rng.uniform(-9, 9, (2, 2, 64)).astype(np.float32)
    old = rng.integers(0, 1 << 32, (2, 64), dtype=np.uint64).astype(np.uint32)
    vgpr = {0: bits[0], 1: bits[1], 2: floats[0], 3: floats[1], 8: old}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, SDWA_COMPARES, 2 * 12, vgpr=vgpr, waves=2, vgprs=12,
        exec_mask=exec_mask)
    on = (exec_mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1
    v = interpreted.vgpr
    a, b = bits[0].astype(np.int64), bits[1].astype(np.int64)
    byte = lambda x, k: (x >> (8 * k)) & 0xFF
    expected = {4: (a >> 16) != (b & 0xFFFF),
                5: byte(a, 0) - ((byte(a, 0) & 0x80) << 1) > byte(b, 2),
                6: -floats[0] < np.abs(floats[1]),
                7: byte(a, 3) == byte(b, 1)}
    for reg, want in expected.items():
        np.testing.assert_array_equal(v[reg][:, on], want.astype(np.uint32)[:, on],
                                      err_msg=f"v{reg}")
    taken = on & (byte(a, 0) < byte(b, 0))
    np.testing.assert_array_equal(v[8], np.where(taken, 1, old))
    _same_registers(interpreted, native)


CLAMPED_INTEGERS = """
v_add_u32_e64 v4, v0, v1 clamp
v_sub_u32_e64 v5, v0, v1 clamp
v_add_co_u32_e64 v6, s[4:5], v0, v1 clamp
v_cndmask_b32_e64 v7, 0, 1, s[4:5]
v_add_i32 v8, v0, v1 clamp
v_sub_i32 v9, v0, v1 clamp
v_add_u16_e64 v10, v0, v1 clamp
v_sub_i16 v11, v0, v1 clamp
v_add_u16_sdwa v12, v0, v1 clamp dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_0
"""


@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_clamped_integer_ops_run_natively(compile_mode, monkeypatch, form):
    """The clamp bit of integer adds and subtracts (formats.integer_saturation,
    the interpreter's, compiled): unsigned and signed, 32 and 16 bits, with a
    carry-out (read from the unsaturated sum), through SDWA. Natively as
    interpreted, against saturating arithmetic."""
    rng = np.random.default_rng(12)
    bits = rng.integers(0, 1 << 32, (2, 2, 64), dtype=np.uint64).astype(np.uint32)
    bits[:, :, :4] = [[0xFFFFFFF0, 0x7FFFFFF0, 0x10, 0x8000FFF0], [0x20, 0x20, 0x20, 0x7FFF0020]]
    vgpr = {0: bits[0], 1: bits[1]}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, CLAMPED_INTEGERS, 2 * 9, vgpr=vgpr, waves=2, vgprs=14)
    a, b = bits[0].astype(np.int64), bits[1].astype(np.int64)
    sa, sb = a - ((a >> 31) << 32), b - ((b >> 31) << 32)
    a16, b16 = a & 0xFFFF, b & 0xFFFF
    s16 = lambda x: x - ((x & 0x8000) << 1)
    u32, i32 = (0, 2 ** 32 - 1), (-2 ** 31, 2 ** 31 - 1)
    expected = {4: np.clip(a + b, *u32), 5: np.clip(a - b, *u32), 6: np.clip(a + b, *u32),
                7: a + b > 2 ** 32 - 1, 8: np.clip(sa + sb, *i32), 9: np.clip(sa - sb, *i32),
                10: np.clip(a16 + b16, 0, 0xFFFF),
                11: np.clip(s16(a16) - s16(b16), -2 ** 15, 2 ** 15 - 1) & 0xFFFF,
                12: np.clip((a >> 16) + b16, 0, 0xFFFF) << 16}
    for reg, want in expected.items():
        np.testing.assert_array_equal(interpreted.vgpr[reg],
                                      np.asarray(want, np.int64) & 0xFFFFFFFF, err_msg=f"v{reg}")
    _same_registers(interpreted, native)


FLOAT_MODIFIERS = """
v_add_f32_e64 v4, v0, v1 clamp
v_mul_f32_e64 v5, v0, v1 mul:2
v_mul_f32_e64 v6, v0, v1 clamp mul:4
v_add_f32_e64 v7, v0, v1 div:2
v_fma_f32 v8, v0, v1, 1.0 clamp
v_max_f32_e64 v9, v0, v0 clamp
v_add_f64 v[10:11], v[0:1], v[2:3] clamp
v_mul_f64 v[12:13], v[0:1], v[2:3] mul:2
v_add_f32_sdwa v14, v0, v1 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
"""


@pytest.mark.parametrize("dx10_clamp", [True, False])
@pytest.mark.parametrize("form", ["lanes", "arrays"])
def test_float_output_modifiers_run_natively(compile_mode, monkeypatch, form, dx10_clamp):
    """omod (x2, x4, /2) and clamp on f32 and f64 results, VOP3 and SDWA
    (formats.float_result_modifier, the interpreter's, compiled), with and
    without MODE.DX10_CLAMP (the mode is part of the block's key): natively
    as interpreted, against NumPy; a NaN clamps to 0 only with DX10_CLAMP."""
    rng = np.random.default_rng(21)
    a = rng.normal(0, 2, (2, 64)).astype(np.float32)
    b = rng.normal(0, 2, (2, 64)).astype(np.float32)
    a[:, :6] = [np.nan, np.inf, -np.inf, 0.25, -0.0, 3e38]
    b[:, :6] = [1.0, 1.0, 1.0, np.nan, 0.0, 3e38]
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, form, FLOAT_MODIFIERS, 2 * 9,
        vgpr={0: a, 1: b, 2: b, 3: a}, waves=2, vgprs=16, dx10_clamp=dx10_clamp)
    _same_registers(interpreted, native)

    def clamped(values):
        clipped = np.clip(values, 0, 1)
        return np.where(np.isnan(values), 0, clipped) if dx10_clamp else clipped
    with np.errstate(over="ignore", invalid="ignore"):
        expected = {4: clamped(a + b), 5: a * b * np.float32(2), 6: clamped(a * b * np.float32(4)),
                    7: (a + b) * np.float32(0.5), 9: clamped(a), 14: clamped(a + b)}
        wide_a = (a.view(np.uint32).astype(np.uint64) |
                  b.view(np.uint32).astype(np.uint64) << 32).view(np.float64)
        wide_b = (b.view(np.uint32).astype(np.uint64) |
                  a.view(np.uint32).astype(np.uint64) << 32).view(np.float64)
        wide = {10: clamped(wide_a + wide_b), 12: wide_a * wide_b * 2.0}
    v = interpreted.vgpr
    for reg, want in expected.items():
        np.testing.assert_array_equal(v[reg].view(np.float32), want.astype(np.float32),
                                      err_msg=f"v{reg}")
    for reg, want in wide.items():
        got = (v[reg].astype(np.uint64) | v[reg + 1].astype(np.uint64) << 32).view(np.float64)
        np.testing.assert_array_equal(got, want, err_msg=f"v[{reg}:{reg + 1}]")
    assert np.isnan(v[4].view(np.float32)[:, 0]).all() != dx10_clamp
    assert (v[8].view(np.float32) >= 0).all() or not dx10_clamp


@pytest.mark.parametrize("ieee_mode", [True, False])
def test_min_max_compile_to_the_interpreters_bits(compile_mode, ieee_mode):
    """The float min/max/med3 family runs natively, with IEEE mode's
    signalling-NaN quieting (the op's IEEE form) and -0 below +0 (selections,
    not fmin/fmax, whose order of zeros Numba and NumPy do not share: the
    check mode once showed max(+0, -0) = -0 natively). Zeros of both signs,
    NaNs of both kinds, infinities, denormals and numbers give the
    interpreter's bits, and the interpreter gives the ISA's."""
    specials = np.array([0x7F800001, 0xFFA00000, 0x7FC00000, 0xFFC12345, 0x7F800000,
                         0xFF800000, 0, 0x80000000, 1, 0x807FFFFF, 0x3F800000, 0xC0000000],
                        np.uint32)
    rng = np.random.default_rng(5)
    a = rng.choice(specials, (2, 64))
    b = rng.choice(specials, (2, 64))
    a[:, ::5] = rng.normal(0, 4, (2, 13)).astype(np.float32).view(np.uint32)
    a[:, 1], b[:, 1], a[:, 2], b[:, 2] = 0, 0x80000000, 0x80000000, 0   # +0 and -0 met
    a[:, 3], b[:, 3] = 0x7F800001, 0x3F800000           # a signalling NaN and 1.0
    a[:, 4], b[:, 4] = 0x7FC00000, 0x3F800000           # a quiet NaN and 1.0
    states = {}
    for mode in ("off", "check", "eager"):
        compile_mode(mode)
        with recorded_dispatches() as results:
            states[mode] = run_snippet(MIN_MAX, vgpr={0: a, 1: b}, waves=2, vgprs=24,
                                       ieee_mode=ieee_mode)
        assert results[0].compiled_instructions == (0 if mode == "off" else 2 * 8)
    for mode in ("check", "eager"):
        _same_registers(states["off"], states[mode])
    v = states["off"].vgpr
    assert [hex(int(v[2, 0, lane])) for lane in (1, 2)] == ["0x0", "0x0"]     # max: +0
    assert [hex(int(v[3, 0, lane])) for lane in (1, 2)] == ["0x80000000"] * 2  # min: -0
    nan_or_one = "0x7fc00000" if ieee_mode else "0x3f800000"
    assert hex(int(v[2, 0, 3])) == hex(int(v[3, 0, 3])) == nan_or_one
    assert hex(int(v[2, 0, 4])) == hex(int(v[3, 0, 4])) == "0x3f800000"


def test_denormals_kept_when_mode_allows_them(compile_mode):
    """FP_DENORM allowing f32 denormals is another block (the mode is part of its key)."""
    reference = _state(F32_BLOCK, "off", compile_mode, float_mode=0xF0)
    native = _state(F32_BLOCK, "eager", compile_mode, float_mode=0xF0)
    _same_registers(reference, native)
    flushed = _state(F32_BLOCK, "eager", compile_mode)
    assert not np.array_equal(flushed.vgpr[7], native.vgpr[7])


LOOP = """
s_mov_b32 s20, 300
BB0:
v_add_u32_e32 v2, v2, v0
v_xor_b32_e32 v3, v3, v2
v_mul_f32_e32 v4, 0x3f000000, v4
s_sub_u32 s20, s20, 1
s_cmp_lg_u32 s20, 0
s_cbranch_scc1 BB0
"""


BRANCHES = """
s_cmp_lt_u32 s6, s7
s_cbranch_scc1 SKIP
v_add_u32_e32 v2, v0, v1
SKIP:
v_cmp_lt_u32_e32 vcc, v0, v1
s_and_saveexec_b64 s[10:11], vcc
s_cbranch_execz DONE
v_xor_b32_e32 v3, v0, v1
s_branch DONE
v_mov_b32_e32 v3, 7
DONE:
s_or_b64 exec, exec, s[10:11]
s_branch END
v_mov_b32_e32 v4, 9
END:
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_branches_inside_and_out_of_a_block(compile_mode, seed):
    """Forward branches within the block, a branch past its end, and waves
    that disagree (EXEC zero in some): each taken or not as the interpreter
    decides, with the same lane counts (check mode compares them)."""
    reference = _state(BRANCHES, "off", compile_mode, waves=3, seed=seed)
    checked = _state(BRANCHES, "check", compile_mode, waves=3, seed=seed, partial=True)
    _same_registers(reference, checked)
    assert (reference.vgpr[4] == 0).all()


#: A loop whose head the interpreter runs (DPP ends blocks): the block after it
#: branches back before its own start.
LOOP_BACK_OUT = """
s_mov_b32 s20, 30
BB0:
v_mov_b32_dpp v5, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_u32_e32 v2, v2, v5
v_xor_b32_e32 v3, v3, v2
v_add_u32_e32 v4, v4, v3
s_sub_u32 s20, s20, 1
s_cmp_lg_u32 s20, 0
s_cbranch_scc1 BB0
"""


@pytest.mark.parametrize("source, part, loop_part, partial", [
    (ALU_BLOCK, 4, 64, False), (LOOP, 2, 64, False), (LOOP, 2, 2, False),
    (BRANCHES, 2, 64, True), (LOOP_BACK_OUT, 2, 64, True)],
    ids=["alu", "loop-in-one-part", "loop-across-parts", "branches", "back-out"])
def test_a_block_in_parts_gives_the_interpreters_registers(compile_mode, monkeypatch, source,
                                                           part, loop_part, partial):
    """A long block is a function per PART_INSTRUCTIONS instructions: EXEC
    changes, a loop's back edge, branches within the block, past its end
    and to the interpreter (waves that disagree) all cross parts. In check
    mode and eager mode, equal to the interpreter."""
    reference = _state(source, "off", compile_mode, waves=3)
    monkeypatch.setattr(codegen, "WHOLE_MAX_INSTRUCTIONS", 0)     # (a long block's form)
    monkeypatch.setattr(codegen, "PART_INSTRUCTIONS", part)
    monkeypatch.setattr(codegen, "LOOP_PART_INSTRUCTIONS", loop_part)
    cache = tier.cache_directory().parent / f"parts-of-{part}-{loop_part}"
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(cache))
    for failed in cache.glob("*.failed"):      # (failures an earlier version left)
        failed.unlink()
    checked = _state(source, "check", compile_mode, waves=3, partial=partial)
    native = _state(source, "eager", compile_mode, waves=3, partial=partial)
    _same_registers(reference, checked)
    _same_registers(reference, native)
    sources = [path.read_text() for path in cache.glob("b*.py")]
    assert any("def part1(" in text for text in sources)
    assert not list(cache.glob("*.failed"))         # every block compiled


@pytest.mark.parametrize("count, back_edges, starts", [
    (40, [], [0, 16, 32]),
    (126, [(60, 30)], [0, 16, 30, 61, 77, 93, 109, 125]),   # the loop 30-60 is one part
    (126, [(100, 10)], [0, 10, 26, 42, 58, 74, 90, 106, 122]),   # too long to keep whole
    (40, [(35, 20)], [0, 16, 20, 36]),
    (17, [], [0, 16]),
    (20, [(19, 10)], [0, 10])])                 # a loop that ends the block: no empty part
def test_parts_keep_loops_whole_where_they_fit(count, back_edges, starts):
    assert codegen._part_starts(count, back_edges) == starts


#: Waves 1 and 3 take the branch, 0 and 2 do not: each path's group holds
#: waves that are not side by side, and both paths write v2 and v3 in
#: blocks of their own before they meet again.
DIVERGING = """
s_cmp_eq_u32 s6, 1
s_cbranch_scc1 ODD
v_add_u32_e32 v2, v0, v1
v_xor_b32_e32 v3, v2, v0
v_mul_lo_u32 v3, v3, v1
s_branch JOIN
ODD:
v_sub_u32_e32 v2, v0, v1
v_or_b32_e32 v3, v2, v1
v_lshlrev_b32_e32 v3, 3, v3
JOIN:
v_add_u32_e32 v4, v2, v3
"""


def test_a_group_split_by_divergence_runs_natively(compile_mode):
    """A group whose waves are not side by side (split by a branch they
    disagree on) runs its blocks natively on copies of its waves' registers,
    written back after: every instruction but the branch the waves
    disagree on (and s_endpgm) is native, with the interpreter's registers."""
    sgpr = {6: np.array([0, 1, 0, 1])}
    reference = _state(DIVERGING, "off", compile_mode, waves=4, sgpr=sgpr)
    for mode in ("check", "eager"):
        with recorded_dispatches() as results:
            native = _state(DIVERGING, mode, compile_mode, waves=4, sgpr=sgpr, partial=True)
        _same_registers(reference, native)
        result, = results
        assert result.compiled_instructions == result.wave_instructions - 4 - 4
    assert (reference.vgpr[4] != 0).any()


#: A run of per-wave instructions (compiled.fusion) whose lane ops share lane
#: loops: carries and a compare's bits forwarded to the ops reading them, a
#: pair read of halves the group wrote, a compare mask read as a value (it
#: cuts the group), a DPP op (it starts one), SALU ops between groups
#: reading what a group wrote and writing what the next reads. EXEC comes
#: from s[30:31], per wave.
FUSED_RUN = """
s_mov_b64 exec, s[30:31]
v_add_co_u32_e32 v2, vcc, v0, v1
v_addc_co_u32_e32 v3, vcc, 0, v1, vcc
v_cmp_gt_u32_e64 s[8:9], v0, v1
v_cndmask_b32_e64 v4, v2, v3, s[8:9]
v_mov_b32_e32 v11, s8
v_lshlrev_b64 v[6:7], 2, v[2:3]
v_mov_b32_e32 v5, v6
v_mov_b32_dpp v8, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_u32_e32 v9, v8, v5
s_add_u32 s10, s6, s7
s_and_b64 s[12:13], vcc, s[8:9]
v_add_u32_e32 v10, s10, v9
v_cndmask_b32_e32 v12, v11, v4, vcc
v_add_co_u32_e32 v13, vcc, v12, v2
v_subb_co_u32_e32 v14, vcc, v13, v3, vcc
v_cmp_eq_u32_e32 vcc, v14, v13
v_cndmask_b32_e64 v15, v14, 0, vcc
"""


def _lane_wise_source(snippet):
    """The block source of gfx900 ``snippet`` (the whole listing, one block)
    with every op the code generator could apply lane by lane so applied."""
    from amdgpu_tools.isa import decode
    from amdgpu_tools.isa.targets import get_target
    from .kernel_util import assemble
    code, target = assemble(snippet, "gfx900"), get_target("gfx900")
    insts, pcs = [], [0]
    while pcs[-1] < len(code):
        insts.append(decode(code, pcs[-1], target))
        pcs.append(pcs[-1] + insts[-1].size)

    class _State:
        float_mode_bits, round_f32, round_f64_f16, denorm_f32, denorm_f64_f16 = 0x2C0, 0, 0, 0, 3
        ieee_mode, dx10_clamp = True, True
        vgpr = np.zeros((24, 1, 64), np.uint32)
    _, _, candidates = codegen.block_source(insts, pcs, 9, codegen.Modes(_State))
    return codegen.block_source(insts, pcs, 9, codegen.Modes(_State), candidates)[0]


def test_a_run_of_lane_ops_fuses_with_the_interpreters_registers(compile_mode):
    """The fused clause of a run (compiled.fusion) is in the block and gives
    the interpreter's registers for a batch with every lane on (the fused
    lane loops), as the instructions' own clauses do for a batch with a
    wave's lanes off, natively and in check mode; the forwarded carries
    agree with NumPy's."""
    source = _lane_wise_source(FUSED_RUN)
    fused = [line for line in source.splitlines() if "# fused:" in line]
    assert len(fused) == 1 and "elif i == 1 and active == 64 * n and steps + 17 <=" in fused[0]
    # its wave loop is a function of its own, which the clause calls with
    # what it uses of the block's locals
    assert "def run1(vgpr, sgpr, scc, e, w0, n):" in source
    assert "            run1(vgpr, sgpr, scc, e, w0, n)" in source
    # the carry and the compare's bits are the producers' own, not read back
    assert "f5(x0, rt.lane_u32(vgpr[1, ww, l]), lane_c1)" not in source
    assert "lane_c1)" in source and "lane_c3)" in source

    full, partial = 0xFFFFFFFF, [0x0F0F1234, 0xFFFF0001]
    every_lane = {30: [full] * 3, 31: [full] * 3}
    for sgpr in ({30: [full, partial[0], full], 31: [full, partial[1], full]}, every_lane):
        reference = _state(FUSED_RUN, "off", compile_mode, waves=3, sgpr=sgpr)
        for mode in ("eager", "check"):
            _same_registers(reference, _state(FUSED_RUN, mode, compile_mode, waves=3, sgpr=sgpr))
    v = reference.vgpr.astype(np.uint64)
    total = v[0] + v[1]                 # v[2:3] = v0 + v1, then v1 + the carry
    expected_high = (v[1] + (total >> np.uint64(32))) & np.uint64(0xFFFFFFFF)
    np.testing.assert_array_equal(reference.vgpr[2][0], (total & np.uint64(0xFFFFFFFF))[0])
    np.testing.assert_array_equal(reference.vgpr[3][0], expected_high[0])
    assert (total[0] >> np.uint64(32)).any() and not (total[0] >> np.uint64(32)).all()
    swapped = reference.vgpr[4][0].reshape(16, 4)[:, [1, 0, 3, 2]].reshape(64)
    np.testing.assert_array_equal(reference.vgpr[8][0], swapped)


#: Eight v_xor_b32 on 24 VGPRs of their own: more than a fused group may touch.
WIDE_RUN = "\n".join(f"v_xor_b32_e32 v{3 * k}, v{3 * k + 1}, v{3 * k + 2}" for k in range(8))


def test_a_fused_group_touches_at_most_max_group_vgprs(compile_mode):
    """A run whose lane ops touch more VGPRs than MAX_GROUP_VGPRS is fused in
    several groups, each within the limit (past it LLVM's run-time overlap
    checks give up and the loop stays scalar), with the interpreter's
    registers; float ops are not fused at all."""
    floats = "v_mul_f32_e32 v1, 1.0, v2\nv_max_f32_e32 v1, 0, v1\nv_add_f32_e32 v3, v1, v2"
    assert "# fused" not in _lane_wise_source(floats)
    from amdgpu_tools.exec.compiled.fusion import MAX_GROUP_VGPRS
    source = _lane_wise_source(WIDE_RUN)
    function = source[source.index("def run0("):source.index("@njit", source.index("def run0("))]
    groups = function.split("for l in range(64):")[1:]
    per_group = MAX_GROUP_VGPRS // 3                 # three VGPRs an op
    assert len(groups) == -(-8 // per_group) and len(groups) > 1
    for group in groups:
        touched = {int(reg) for reg in re.findall(r"vgpr\[(\d+), ww, l\]", group)}
        assert len(touched) <= MAX_GROUP_VGPRS
    reference = _state(WIDE_RUN, "off", compile_mode)
    for mode in ("eager", "check"):
        _same_registers(reference, _state(WIDE_RUN, mode, compile_mode))


LDS_BLOCK = """
v_lshlrev_b32_e32 v8, 2, v0
v_and_b32_e32 v8, 0xfc, v8
ds_write_b32 v8, v1
ds_write2_b32 v8, v2, v3 offset0:64 offset1:128
v_and_b32_e32 v9, 0xf8, v8
ds_write_b64 v9, v[4:5] offset:768
s_barrier
v_xor_b32_e32 v10, 4, v8
ds_read_b32 v11, v10
ds_read2_b32 v[12:13], v10 offset0:64 offset1:128
ds_read_b64 v[14:15], v9 offset:768
ds_read2st64_b32 v[16:17], v8 offset1:3
s_barrier
v_xor_b32_e32 v18, v11, v12
"""


@pytest.mark.parametrize("mcpu, waves, workgroup, exec_mask", [
    ("gfx900", 1, 64, None), ("gfx900", 4, 128, None), ("gfx900", 2, 64, 0xFFFF_0000_0F0F_FFFF),
    ("gfx803", 4, 256, None)])
def test_lds_moves_and_barriers(compile_mode, mcpu, waves, workgroup, exec_mask):
    """Aligned LDS reads and writes (b32, b64, read2/write2, st64) and barriers
    run natively when every wave of each work-group is in the group; the
    check mode compares registers and LDS after every block."""
    options = dict(waves=waves, mcpu=mcpu, lds=1024, workgroup=workgroup,
                   exec_mask=exec_mask, sgpr={124: [0xFFFFFFFF] * waves})
    reference = _state(LDS_BLOCK, "off", compile_mode, **options)
    checked = _state(LDS_BLOCK, "check", compile_mode, **options)
    _same_registers(reference, checked)
    assert (reference.vgpr[18] != 0).any()


QUAD_DWORD_LDS = """
v_lshlrev_b32_e32 v8, 4, v10
ds_write_b128 v8, v[0:3]
s_waitcnt lgkmcnt(0)
v_xor_b32_e32 v9, 16, v8
ds_read_b128 v[4:7], v9
s_waitcnt lgkmcnt(0)
"""


@pytest.mark.parametrize("mcpu, exec_mask", [("gfx900", (1 << 64) - 1),
                                             ("gfx803", 0xFFFF_0000_0F0F_FFFE)])
def test_lds_quad_dword_moves_run_natively(compile_mode, monkeypatch, mcpu, exec_mask):
    """ds_write_b128/ds_read_b128 (rocPRIM's block loads stage tiles so),
    16-aligned: each lane reads the four dwords its neighbour wrote, zeros
    where the neighbour was off, natively as interpreted."""
    rng = np.random.default_rng(13)
    data = rng.integers(0, 1 << 32, (8, 2, 64), dtype=np.uint64).astype(np.uint32)
    vgpr = {reg: data[reg] for reg in range(8)}
    vgpr[10] = np.arange(64)
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, "lanes", QUAD_DWORD_LDS, 2 * 6, vgpr=vgpr, waves=2,
        vgprs=12, mcpu=mcpu, lds=1024, workgroup=64, exec_mask=exec_mask,
        sgpr={124: [0xFFFFFFFF] * 2})
    on = (exec_mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1
    neighbour = np.arange(64) ^ 1
    for k in range(4):
        expected = np.where(on[neighbour], data[k][:, neighbour], 0)
        np.testing.assert_array_equal(interpreted.vgpr[4 + k],
                                      np.where(on, expected, data[4 + k]))
    _same_registers(interpreted, native)


def test_lds_access_the_fast_path_cannot_take_goes_back(compile_mode):
    """Unaligned and out-of-range accesses (M0 below the segment on gfx803)
    leave the block to the interpreter, which gives the general path's bytes."""
    source = LDS_BLOCK.replace("v_and_b32_e32 v8, 0xfc, v8", "v_and_b32_e32 v8, 0xfe, v8")
    for m0, mcpu in ((0xFFFFFFFF, "gfx900"), (300, "gfx803")):
        options = dict(waves=2, mcpu=mcpu, lds=1024, sgpr={124: [m0, m0]}, partial=True)
        reference = _state(source if m0 > 300 else LDS_BLOCK, "off", compile_mode, **options)
        checked = _state(source if m0 > 300 else LDS_BLOCK, "check", compile_mode, **options)
        _same_registers(reference, checked)


#: Integer LDS atomics on eight slots shared by every eighth lane of both
#: waves of a work-group (returning and not, 32 and 64 bits, one and two
#: data operands), then the slots read back.
LDS_ATOMICS = """
v_lshlrev_b32_e32 v8, 2, v10
v_and_b32_e32 v8, 28, v8
ds_add_rtn_u32 v4, v8, v1
ds_add_u32 v8, v1 offset:32
ds_max_rtn_u32 v5, v8, v2 offset:64
ds_cmpst_rtn_b32 v6, v8, v4, v1
ds_xor_b32 v8, v3 offset:128
ds_sub_rtn_u32 v7, v8, v2 offset:160
v_lshlrev_b32_e32 v9, 3, v10
v_and_b32_e32 v9, 56, v9
ds_add_rtn_u64 v[12:13], v9, v[2:3] offset:256
ds_mskor_b64 v9, v[2:3], v[4:5] offset:320
s_waitcnt lgkmcnt(0)
ds_read_b32 v14, v8
ds_read_b32 v15, v8 offset:32
ds_read_b32 v16, v8 offset:64
ds_read_b32 v17, v8 offset:128
ds_read_b64 v[18:19], v9 offset:256
ds_read_b64 v[20:21], v9 offset:320
s_waitcnt lgkmcnt(0)
"""


@pytest.mark.parametrize("mcpu, exec_mask", [("gfx900", None),
                                             ("gfx803", 0xFFFF_0000_0F0F_FFFE)])
def test_lds_atomics_run_natively_in_lane_order(compile_mode, monkeypatch, mcpu, exec_mask):
    """ds_add/sub/max/xor/cmpst/mskor (u32, u64, returning or not) run natively,
    each active lane applied after the lanes before it (wave 0's, then wave
    1's): the returned values are the slot's running sum, as NumPy computes
    it, and every register matches the interpreter's."""
    rng = np.random.default_rng(21)
    data = rng.integers(0, 1 << 32, (4, 2, 64), dtype=np.uint64).astype(np.uint32)
    vgpr = {reg: data[reg] for reg in range(1, 4)}
    vgpr[10] = np.arange(64)
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, "lanes", LDS_ATOMICS, 2 * 20, vgpr=vgpr, waves=2,
        vgprs=24, mcpu=mcpu, lds=1024, workgroup=128, exec_mask=exec_mask,
        sgpr={124: [0xFFFFFFFF] * 2})
    mask = (1 << 64) - 1 if exec_mask is None else exec_mask
    on = np.tile((mask >> np.arange(64, dtype=np.uint64)) & np.uint64(1) == 1, 2)
    added = data[1].reshape(-1).astype(np.uint64)
    running = np.zeros(128, np.uint64)
    totals = np.zeros(8, np.uint64)
    for k in np.flatnonzero(on):                    # wave 0's lanes, then wave 1's
        running[k] = totals[k % 8]
        totals[k % 8] = (totals[k % 8] + added[k]) & np.uint64(0xFFFFFFFF)
    returned = interpreted.vgpr[4].reshape(-1)
    np.testing.assert_array_equal(returned[on], running[on].astype(np.uint32))
    final = interpreted.vgpr[14].reshape(-1)
    np.testing.assert_array_equal(final[on], totals[np.arange(128) % 8][on].astype(np.uint32))
    _same_registers(interpreted, native)


def test_an_lds_atomic_out_of_range_goes_back(compile_mode):
    """An LDS atomic with a lane past M0's limit (gfx803) leaves the block to the
    interpreter, which lets that lane do nothing: the same registers."""
    options = dict(waves=2, mcpu="gfx803", lds=1024, workgroup=128,
                   sgpr={124: [200, 200]}, partial=True)
    reference = _state(LDS_ATOMICS, "off", compile_mode, **options)
    checked = _state(LDS_ATOMICS, "check", compile_mode, **options)
    _same_registers(reference, checked)


#: Global and FLAT atomics on eight dword and eight qword counters shared by
#: every eighth work-item: olds[i] = what work-item i's add found (glc), and
#: the 64-bit add's and the compare-swap's old values after it.
GLOBAL_ATOMICS = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, 7, v0
v_lshlrev_b32_e32 v1, 2, v1
v_add_u32_e32 v2, 1, v0
global_atomic_add v3, v1, v2, s[4:5] glc
global_atomic_umax v1, v0, s[4:5] offset:32
v_mov_b32_e32 v10, v0
v_mov_b32_e32 v11, 3
global_atomic_cmpswap v12, v1, v[10:11], s[4:5] offset:64 glc
v_lshlrev_b32_e32 v4, 1, v1
v_mov_b32_e32 v8, v2
v_mov_b32_e32 v9, 1
global_atomic_add_x2 v[6:7], v4, v[8:9], s[4:5] offset:96 glc
v_mov_b32_e32 v13, s5
v_add_co_u32_e32 v14, vcc, s4, v1
v_addc_co_u32_e32 v15, vcc, 0, v13, vcc
flat_atomic_xor v14, v[14:15], v2 offset:160 glc
v_mul_u32_u24_e32 v16, 48, v0
global_store_dwordx4 v16, v[3:6], s[6:7]
global_store_dwordx4 v16, v[7:10], s[6:7] offset:16
global_store_dwordx4 v16, v[11:14], s[6:7] offset:32
s_waitcnt vmcnt(0)
"""


def _global_atomics(mode, compile_mode, items, source=GLOBAL_ATOMICS):
    """(counters, olds, the DispatchResult) after ``source`` ran on ``items`` work-items."""
    compile_mode(mode)
    kernel = kernel_util.Kernel(source, mcpu="gfx900", vgprs=24)
    counters = kernel.buffer(np.zeros(64, np.uint32))
    olds = kernel.buffer(np.zeros(12 * items, np.uint32))
    with recorded_dispatches() as results:
        kernel.run([counters, olds], grid=items, block=items)
    return (kernel.read(counters, np.uint32, 64), kernel.read(olds, np.uint32, 12 * items),
            results[0])


@pytest.mark.parametrize("items", [128, 100])
def test_global_atomics_run_natively_in_work_item_order(compile_mode, items):
    """global_atomic_add/umax/cmpswap/add_x2 and flat_atomic_xor run natively
    (in one process), each work-item's after those before it: the values
    the adds return are NumPy's running sums, and counters and returns match
    the interpreter's and the check mode's; 100 work-items leave the second
    wave's EXEC partial."""
    reference = _global_atomics("off", compile_mode, items)
    ids = np.arange(items, dtype=np.uint64)
    slots = ids % 8
    added, before = np.zeros(items, np.uint64), np.zeros(items, np.uint64)
    totals = np.zeros(8, np.uint64)
    for i in range(items):
        added[i], before[i] = totals[slots[i]], ids[slots == slots[i]].tolist().index(i)
        totals[slots[i]] += ids[i] + 1
    olds = reference[1].reshape(items, 12)
    np.testing.assert_array_equal(olds[:, 0], added.astype(np.uint32))
    # (the 64-bit add's data: id + 1 in the low dword, 1 in the high one)
    np.testing.assert_array_equal(olds[:, 3] | olds[:, 4].astype(np.uint64) << np.uint64(32),
                                  added + (before << np.uint64(32)))
    np.testing.assert_array_equal(reference[0][:8], totals.astype(np.uint32))
    _native_atomics_match(reference, compile_mode, items, GLOBAL_ATOMICS)


def _native_atomics_match(reference, compile_mode, items, source):
    """``source`` leaves the counters and returns ``reference`` holds in the
    check mode and eager, every instruction but s_endpgm run natively."""
    for mode in ("check", "eager"):
        counters, returned, result = _global_atomics(mode, compile_mode, items, source)
        np.testing.assert_array_equal(counters, reference[0])
        np.testing.assert_array_equal(returned, reference[1])
        assert result.compiled_instructions == result.wave_instructions - 2   # (s_endpgm)


#: The LDS atomics with a signed, wrapping or float rule, on eight slots
#: shared by every eighth lane of both waves of a work-group, then the slots
#: read back.
LDS_ORDERED_ATOMICS = """
v_lshlrev_b32_e32 v8, 2, v10
v_and_b32_e32 v8, 28, v8
ds_add_rtn_f32 v4, v8, v1
ds_min_rtn_i32 v5, v8, v2 offset:32
ds_max_i32 v8, v2 offset:64
ds_inc_rtn_u32 v6, v8, v3 offset:96
ds_dec_rtn_u32 v7, v8, v3 offset:128
ds_min_f32 v8, v1 offset:160
ds_max_rtn_f32 v11, v8, v1 offset:192
ds_cmpst_rtn_f32 v12, v8, v11, v1 offset:224
v_lshlrev_b32_e32 v9, 3, v10
v_and_b32_e32 v9, 56, v9
ds_min_rtn_i64 v[14:15], v9, v[2:3] offset:256
ds_max_rtn_f64 v[16:17], v9, v[0:1] offset:320
ds_inc_u64 v9, v[2:3] offset:384
s_waitcnt lgkmcnt(0)
ds_read_b32 v18, v8
ds_read_b32 v19, v8 offset:64
ds_read_b32 v20, v8 offset:160
ds_read_b64 v[21:22], v9 offset:320
ds_read_b64 v[0:1], v9 offset:384
s_waitcnt lgkmcnt(0)
"""


def _serial(values, slots, step, start):
    """What each of ``values`` (in order) finds in its slot when every one
    applies ``step(old, value)`` in turn (slots start at ``start``), and the
    slots' final values."""
    found, totals = [], {}
    for value, slot in zip(values, slots):
        old = totals.get(slot, start)
        found.append(old)
        totals[slot] = step(old, value)
    return found, totals


def test_signed_wrapping_and_float_lds_atomics_run_natively_in_lane_order(
        compile_mode, monkeypatch):
    """ds_add_f32 (±0 and signs mixed), ds_min/max_i32/i64, ds_inc/dec,
    ds_min/max_f32/f64 and ds_cmpst_f32 run natively, each lane after those
    before it: the float adds return float32 running sums, the signed mins
    the running minima and the incs the wrapping counts, as Python computes
    them; every register matches the interpreter's."""
    rng = np.random.default_rng(5)
    floats = rng.normal(0, 1e3, 128).astype(np.float32)
    floats[::9], floats[4::9] = np.float32(0.0), np.float32(-0.0)
    signed = rng.integers(-2**31, 2**31, 128).astype(np.int32)
    limits = rng.integers(0, 12, 128).astype(np.uint32)
    vgpr = {1: floats.view(np.uint32).reshape(2, 64), 2: signed.view(np.uint32).reshape(2, 64),
            3: limits.reshape(2, 64), 10: np.arange(64)}
    interpreted, native = _interpreted_and_native(
        compile_mode, monkeypatch, "lanes", LDS_ORDERED_ATOMICS, 2 * 22, vgpr=vgpr, waves=2,
        vgprs=24, mcpu="gfx900", lds=1024, workgroup=128)
    slots = np.arange(128) % 8
    sums, _ = _serial(floats, slots, lambda old, x: np.float32(old + x), np.float32(0))
    minima, _ = _serial(signed.tolist(), slots, min, 0)
    counts, _ = _serial(limits.tolist(), slots, lambda old, x: 0 if old >= x else old + 1, 0)
    np.testing.assert_array_equal(interpreted.vgpr[4].reshape(-1),
                                  np.array(sums, np.float32).view(np.uint32))
    np.testing.assert_array_equal(interpreted.vgpr[5].reshape(-1).view(np.int32), minima)
    np.testing.assert_array_equal(interpreted.vgpr[6].reshape(-1), counts)
    _same_registers(interpreted, native)


#: Global atomics with a signed or wrapping rule on eight counters each,
#: shared by every eighth work-item: olds[i] = what work-item i's smin, inc
#: and 64-bit smax found.
GLOBAL_ORDERED_ATOMICS = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, 7, v0
v_lshlrev_b32_e32 v1, 2, v1
v_sub_u32_e32 v2, 50, v0
global_atomic_smin v3, v1, v2, s[4:5] glc
global_atomic_inc v4, v1, v0, s[4:5] offset:32 glc
global_atomic_dec v1, v0, s[4:5] offset:64
v_lshlrev_b32_e32 v5, 1, v1
v_ashrrev_i32_e32 v7, 31, v2
v_mov_b32_e32 v6, v2
global_atomic_smax_x2 v[8:9], v5, v[6:7], s[4:5] offset:96 glc
v_mul_u32_u24_e32 v10, 48, v0
global_store_dwordx2 v10, v[3:4], s[6:7]
global_store_dwordx2 v10, v[8:9], s[6:7] offset:8
s_waitcnt vmcnt(0)
"""


def test_signed_and_wrapping_global_atomics_run_natively_in_work_item_order(compile_mode):
    """global_atomic_smin/inc/dec/smax_x2 run natively, each work-item's
    after those before it: what they return and leave are Python's running
    minima, wrapping counts and maxima, as the interpreter's and the check
    mode's are."""
    items = 100
    reference = _global_atomics("off", compile_mode, items, GLOBAL_ORDERED_ATOMICS)
    ids = list(range(items))
    slots = [i % 8 for i in ids]
    minima, low = _serial([50 - i for i in ids], slots, min, 0)
    counts, _ = _serial(ids, slots, lambda old, x: 0 if old >= x else old + 1, 0)
    _, decremented = _serial(ids, slots, lambda old, x: x if old == 0 or old > x else old - 1, 0)
    maxima, high = _serial([50 - i for i in ids], slots, max, 0)
    olds = reference[1].reshape(items, 12)[:, :4]
    np.testing.assert_array_equal(olds[:, 0].view(np.int32), minima)
    np.testing.assert_array_equal(olds[:, 1], counts)
    np.testing.assert_array_equal(olds[:, 2:].copy().view(np.int64)[:, 0], maxima)
    counters = reference[0]
    np.testing.assert_array_equal(counters[:8].view(np.int32), [low[k] for k in range(8)])
    np.testing.assert_array_equal(counters[16:24], [decremented[k] for k in range(8)])
    np.testing.assert_array_equal(counters[24:40].view(np.int64), [high[k] for k in range(8)])
    _native_atomics_match(reference, compile_mode, items, GLOBAL_ORDERED_ATOMICS)


#: in[i] and out[i] are dword pairs (work-item i): six rounds of
#: out[i] = (in.lo + round, in.hi ^ out.lo); in.hi = out.hi, through FLAT
#: and GLOBAL loads and stores (VGPR-pair and SGPR-pair addresses, offsets).
GLOBAL_LOOP = {"gfx900": """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_lshlrev_b32_e32 v1, 3, v0
v_mov_b32_e32 v3, s5
v_add_co_u32_e32 v2, vcc, s4, v1
v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
v_mov_b32_e32 v5, s7
v_add_co_u32_e32 v4, vcc, s6, v1
v_addc_co_u32_e32 v5, vcc, 0, v5, vcc
v_add_u32_e32 v9, 8, v1
s_mov_b32 s8, 0
.Lloop:
flat_load_dwordx2 v[6:7], v[2:3]
global_load_dword v8, v9, s[6:7] offset:-8
v_add_u32_e32 v6, s8, v6
v_xor_b32_e32 v7, v7, v8
global_store_dwordx2 v[4:5], v[6:7], off
flat_store_dword v[2:3], v7 offset:4
s_add_u32 s8, s8, 1
s_cmp_lt_u32 s8, 6
s_cbranch_scc1 .Lloop
""", "gfx803": """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_lshlrev_b32_e32 v1, 3, v0
v_mov_b32_e32 v3, s5
v_add_u32_e32 v2, vcc, s4, v1
v_addc_u32_e32 v3, vcc, 0, v3, vcc
v_mov_b32_e32 v5, s7
v_add_u32_e32 v4, vcc, s6, v1
v_addc_u32_e32 v5, vcc, 0, v5, vcc
v_add_u32_e32 v12, vcc, 4, v2
v_addc_u32_e32 v13, vcc, 0, v3, vcc
s_mov_b32 s8, 0
.Lloop:
flat_load_dwordx2 v[6:7], v[2:3]
flat_load_dword v8, v[4:5]
v_add_u32_e32 v6, vcc, s8, v6
v_xor_b32_e32 v7, v7, v8
flat_store_dwordx2 v[4:5], v[6:7]
flat_store_dword v[12:13], v7
s_add_u32 s8, s8, 1
s_cmp_lt_u32 s8, 6
s_cbranch_scc1 .Lloop
"""}


def _global_loop(mcpu, mode, compile_mode, items, out_items=None):
    """(in, out, DispatchResult, (initial in, initial out)) after GLOBAL_LOOP
    over one work-group of ``items`` work-items; ``out_items``: how many
    pairs the output buffer holds (default: all)."""
    compile_mode(mode)
    rng = np.random.default_rng(7)
    data_in = rng.integers(0, 1 << 32, (items, 2), dtype=np.uint64).astype(np.uint32)
    data_out = rng.integers(0, 1 << 32, (items, 2), dtype=np.uint64).astype(np.uint32)
    kernel = kernel_util.Kernel(GLOBAL_LOOP[mcpu], mcpu=mcpu)
    address_in = kernel.buffer(data_in)
    address_out = kernel.buffer(data_out[:out_items])
    with recorded_dispatches() as results:
        kernel.run([address_in, address_out], grid=items, block=items)
    return (kernel.read(address_in, np.uint32, 2 * items).reshape(items, 2),
            kernel.read(address_out, np.uint32, 2 * len(data_out[:out_items])), results[0],
            (data_in, data_out))


@pytest.mark.parametrize("mcpu, items", [("gfx900", 128), ("gfx803", 100)])
def test_global_loads_and_stores(compile_mode, mcpu, items):
    """FLAT and GLOBAL dword loads and stores run natively: the memory NumPy
    computes, in check mode (memory compared after every block) as with the
    interpreter alone; 100 work-items leave the second wave's EXEC partial."""
    data_in, data_out = _global_loop(mcpu, "off", compile_mode, items)[3]
    a, b = data_in[:, 0].astype(np.uint64), data_in[:, 1].copy()
    c = data_out[:, 0].copy()
    for round_ in range(6):
        d = b ^ c
        c = ((a + round_) & 0xFFFFFFFF).astype(np.uint32)
        b = d.copy()
    for mode in ("off", "check", "eager"):
        final_in, final_out, result, _ = _global_loop(mcpu, mode, compile_mode, items)
        np.testing.assert_array_equal(final_out.reshape(items, 2), np.stack([c, d], axis=1))
        np.testing.assert_array_equal(final_in[:, 1], b)
        # the loop (6 rounds of 9) ran natively; only the set-up around it did not
        assert (result.compiled_instructions >= 6 * 9 * -(-items // 64)) == (mode != "off")


#: out[i] = the dword at table[i] (a 64-bit address), then the pair there:
#: a gather whose lanes the test points into two allocations, some unaligned.
GATHER = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_lshlrev_b32_e32 v1, 3, v0
global_load_dwordx2 v[2:3], v1, s[4:5]
s_waitcnt vmcnt(0)
global_load_dword v4, v[2:3], off
global_load_dwordx2 v[6:7], v[2:3], off
v_mul_u32_u24_e32 v5, 12, v0
s_waitcnt vmcnt(0)
global_store_dword v5, v4, s[6:7]
global_store_dwordx2 v5, v[6:7], s[6:7] offset:4
"""


@pytest.mark.parametrize("layout", ["one allocation", "two allocations", "unaligned"])
def test_global_gather_wherever_the_lanes_point(compile_mode, layout):
    """Loads whose lanes point into one allocation, into two, or at unaligned
    addresses: the native move finds the first case from the lowest and
    highest address alone and takes the others lane by lane; all give the
    bytes NumPy reads, natively as interpreted (100 work-items: a full wave
    and a partial one)."""
    items = 100
    sources = [np.random.default_rng(seed).integers(0, 256, 4096, dtype=np.uint8)
               for seed in (11, 12)]
    rng = np.random.default_rng(13)
    which = rng.integers(0, 2, items) if layout == "two allocations" else np.zeros(items, int)
    offsets = rng.integers(0, 1000, items) * 4
    if layout == "unaligned":
        offsets[::3] += rng.integers(1, 4, len(offsets[::3]))
    expected = np.stack([np.concatenate([sources[w][o:o + 8], sources[w][o:o + 4]])
                         for w, o in zip(which, offsets)]).view(np.uint32)
    outputs = {}
    for mode in ("off", "check", "eager"):
        compile_mode(mode)
        kernel = kernel_util.Kernel(GATHER, mcpu="gfx900")
        bases = [kernel.buffer(data) for data in sources]
        table = np.array([bases[w] + o for w, o in zip(which, offsets)], np.uint64)
        out = kernel.buffer(np.zeros(3 * items, np.uint32))
        with recorded_dispatches() as results:
            kernel.run([kernel.buffer(table), out], grid=items, block=items)
        outputs[mode] = kernel.read(out, np.uint32, 3 * items).reshape(items, 3)
        assert (results[0].compiled_instructions > 0) == (mode != "off")
    expected = expected[:, [0, 0, 1]]
    for mode, got in outputs.items():
        np.testing.assert_array_equal(got, expected, err_msg=mode)


#: Coalesced dword and dwordx4 loads and stores (each lane the element after
#: the one before: moved as one run a wave), a reversed store and one whose
#: lanes swap in pairs (each lane its own lane-by-lane move).
RUNS = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_lshlrev_b32_e32 v1, 2, v0
v_lshlrev_b32_e32 v2, 4, v0
global_load_dword v3, v1, s[4:5]
global_load_dwordx4 v[4:7], v2, s[4:5]
v_sub_u32_e32 v8, 0x1fc, v1
v_xor_b32_e32 v9, 4, v1
s_waitcnt vmcnt(0)
v_add_u32_e32 v3, v3, v4
global_store_dword v1, v3, s[6:7]
global_store_dwordx4 v2, v[4:7], s[6:7] offset:512
global_store_dword v8, v3, s[6:7] offset:2560
global_store_dword v9, v3, s[6:7] offset:3072
"""


@pytest.mark.parametrize("items", [128, 100])
def test_coalesced_moves_give_the_lane_by_lane_bytes(compile_mode, items):
    """Loads and stores whose lanes address consecutive elements (one run a
    wave, dword and dwordx4) and ones whose lanes do not (reversed, swapped
    in pairs): the bytes NumPy computes, natively (checked against the
    interpreter after every block) as interpreted; 100 work-items leave a
    partial wave, which moves lane by lane."""
    rng = np.random.default_rng(21)
    data = rng.integers(0, 1 << 32, 4 * 128, dtype=np.uint64).astype(np.uint32)
    i = np.arange(items)
    x, y = data[:items], data.reshape(-1, 4)[:items]
    total = x + y[:, 0]
    expected = np.zeros(896, np.uint32)
    expected[:items] = total
    expected[128:128 + 4 * items] = y.reshape(-1)
    expected[640 + 127 - i] = total
    expected[768 + (i ^ 1)] = total
    for mode in ("off", "check", "eager"):
        compile_mode(mode)
        kernel = kernel_util.Kernel(RUNS, mcpu="gfx900")
        out = kernel.buffer(np.zeros(896, np.uint32))
        with recorded_dispatches() as results:
            kernel.run([kernel.buffer(data), out], grid=items, block=items)
        np.testing.assert_array_equal(kernel.read(out, np.uint32, 896), expected, err_msg=mode)
        assert (results[0].compiled_instructions > 0) == (mode != "off")


#: Bytes and shorts, zero- and sign-extended, at unaligned per-lane offsets
#: (3 * i): loaded into out (four dwords a work-item), a byte and a short
#: stored back into bytes (out2).
NARROW = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_load_dwordx2 s[8:9], s[0:1], 0x10
s_waitcnt lgkmcnt(0)
v_mul_u32_u24_e32 v1, 3, v0
global_load_ubyte v2, v1, s[4:5]
global_load_sbyte v3, v1, s[4:5] offset:1
global_load_ushort v4, v1, s[4:5] offset:1
global_load_sshort v5, v1, s[4:5]
v_lshlrev_b32_e32 v6, 4, v0
s_waitcnt vmcnt(0)
global_store_dwordx4 v6, v[2:5], s[6:7]
global_store_byte v1, v3, s[8:9]
global_store_short v1, v4, s[8:9] offset:1
"""


def test_bytes_and_shorts_move_natively(compile_mode):
    """Sub-dword loads (zero- and sign-extended) and stores at unaligned
    addresses run natively and give the bytes NumPy computes (100 work-items:
    a full wave and a partial one)."""
    items = 100
    source = np.random.default_rng(21).integers(0, 256, 512, dtype=np.uint8)
    at = 3 * np.arange(items)
    pairs = source[at[:, None] + np.arange(3)]
    expected = np.stack([pairs[:, 0], pairs[:, 1].astype(np.int8).astype(np.int32).view(np.uint32),
                         pairs[:, 1:3].copy().view(np.uint16)[:, 0],
                         pairs[:, 0:2].copy().view(np.int16)[:, 0].astype(np.int32).view(np.uint32)],
                        axis=1).astype(np.uint32)
    # the sbyte's low byte at 3i, the ushort's two bytes at 3i + 1
    stored = np.stack([pairs[:, 1], pairs[:, 1], pairs[:, 2]], axis=1).reshape(-1)
    for mode in ("off", "check", "eager"):
        compile_mode(mode)
        kernel = kernel_util.Kernel(NARROW, mcpu="gfx900")
        out = kernel.buffer(np.zeros(4 * items, np.uint32))
        out2 = kernel.buffer(np.zeros(3 * items, np.uint8))
        with recorded_dispatches() as results:
            kernel.run([kernel.buffer(source), out, out2], grid=items, block=items)
        np.testing.assert_array_equal(kernel.read(out, np.uint32, 4 * items).reshape(items, 4),
                                      expected, err_msg=mode)
        np.testing.assert_array_equal(kernel.read(out2, np.uint8, 3 * items),
                                      stored, err_msg=mode)
        result, = results
        # all but each wave's s_endpgm natively
        assert result.compiled_instructions == \
            (0 if mode == "off" else result.wave_instructions - 2)


#: A call as clang makes one (s_getpc, the callee's offset added, s_swappc)
#: and its return (s_setpc); s6 moves a wave's call past the callee's first
#: instruction.
CALL_AND_RETURN = """
s_getpc_b64 s[4:5]
.Lafter_getpc:
s_add_u32 s4, s4, .Lcallee-.Lafter_getpc
s_addc_u32 s5, s5, 0
s_add_u32 s4, s4, s6
s_addc_u32 s5, s5, 0
s_swappc_b64 s[30:31], s[4:5]
.Lreturned:
v_add_u32_e32 v2, 1, v1
s_sub_u32 s8, s30, s4
s_branch .Lend
.Lcallee:
v_mov_b32_e32 v1, 7
v_add_u32_e32 v1, 3, v1
s_setpc_b64 s[30:31]
.Lend:
"""


@pytest.mark.parametrize("skips", [(0, 0), (0, 4)])
def test_calls_and_returns_run_natively(compile_mode, monkeypatch, skips):
    """s_getpc/s_swappc/s_setpc leave the block for the address in an SGPR
    pair when the waves agree on it (the return address is the instruction
    after the call), and hand back to the interpreter, which parts the waves,
    when they do not; the registers are the interpreter's either way."""
    vgpr = {1: np.full((2, 64), 100)}
    states = []
    for mode in ("off", "eager", "check"):
        compile_mode(mode)
        with recorded_dispatches() as results:
            states.append(run_snippet(CALL_AND_RETURN, vgpr=vgpr, sgpr={6: list(skips)},
                                      waves=2, vgprs=8))
        result, = results
        if mode == "off" or skips != (0, 0):
            assert result.compiled_instructions < result.wave_instructions - 2
        else:
            assert result.compiled_instructions == result.wave_instructions - 2
    interpreted = states[0]
    for w, skip in enumerate(skips):
        v1 = 103 if skip else 10
        np.testing.assert_array_equal(interpreted.vgpr[1, w], v1)
        np.testing.assert_array_equal(interpreted.vgpr[2, w], v1 + 1)
        # the return address: three 4-byte instructions before the callee
        assert int(interpreted.sgpr[8, w]) == (-12 - skip) & 0xFFFFFFFF
    for state in states[1:]:
        _same_registers(interpreted, state)


#: MUBUF dword moves as -O0 code makes them: through a private segment V#
#: (swizzled, the lane number added, 2 KiB a wave from the soffset SGPR) at
#: fixed offsets and VGPR offsets (offen), then through a linear V# of
#: ``num_records`` bytes with a constant soffset; the loaded values stored
#: to out + 32 * global id.
BUFFER_MOVES = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_load_dwordx2 s[16:17], s[0:1], 0x10
s_load_dword s22, s[0:1], 0x18
s_waitcnt lgkmcnt(0)
s_mov_b32 s8, s4
s_or_b32 s9, s5, 0x80000000
s_mov_b32 s10, -1
s_mov_b32 s11, {private_word3}
s_lshl_b32 s12, s2, 11
v_mul_u32_u24_e32 v1, 3, v0
v_xor_b32_e32 v2, s2, v1
v_or_b32_e32 v4, 0x1000, v0
v_and_b32_e32 v3, 3, v0
v_lshlrev_b32_e32 v3, 2, v3
v_or_b32_e32 v3, 16, v3
buffer_store_dword v1, off, s[8:11], s12 offset:4
buffer_store_dwordx2 v[1:2], off, s[8:11], s12 offset:8
buffer_store_dword v4, v3, s[8:11], s12 offen
buffer_load_dwordx2 v[5:6], off, s[8:11], s12 offset:8
buffer_load_dword v7, v3, s[8:11], s12 offen
buffer_load_dwordx4 v[8:11], off, s[8:11], s12 offset:4
s_mov_b32 s20, s6
s_mov_b32 s21, s7
s_mov_b32 s23, 0
s_lshl_b32 s13, s2, 6
v_or_b32_e32 v12, s13, v0
v_lshlrev_b32_e32 v12, 2, v12
buffer_load_dword v13, v12, s[20:23], 0 offen
v_xor_b32_e32 v13, v13, v7
buffer_store_dword v13, v12, s[20:23], 0 offen offset:1024
v_lshlrev_b32_e32 v14, 3, v12
v_mov_b32_e32 v15, s17
{add} v14, vcc, s16, v14
{addc} v15, vcc, 0, v15, vcc
flat_store_dwordx4 v[14:15], v[5:8]
{add} v14, vcc, 16, v14
{addc} v15, vcc, 0, v15, vcc
flat_store_dwordx4 v[14:15], v[9:12]
"""
_BUFFER_FORMS = {"gfx900": dict(private_word3="0x00E00000", add="v_add_co_u32_e32",
                                addc="v_addc_co_u32_e32"),
                 "gfx803": dict(private_word3="0x00E80000", add="v_add_u32_e32",
                                addc="v_addc_u32_e32")}


def _buffer_moves(mcpu, mode, compile_mode, records, items):
    """(out, private area, linear buffer, DispatchResult) after BUFFER_MOVES
    over one-wave groups of ``items`` work-items, and the initial private
    area and linear buffer."""
    compile_mode(mode)
    rng = np.random.default_rng(9)
    groups = -(-items // 64)
    private = rng.integers(0, 1 << 32, 512 * groups, dtype=np.uint64).astype(np.uint32)
    linear = rng.integers(0, 1 << 32, 512, dtype=np.uint64).astype(np.uint32)
    kernel = kernel_util.Kernel(BUFFER_MOVES.format(**_BUFFER_FORMS[mcpu]), mcpu=mcpu)
    at_private, at_linear = kernel.buffer(private), kernel.buffer(linear)
    out = kernel.buffer(np.zeros(8 * items, np.uint32))
    with recorded_dispatches() as results:
        kernel.run([at_private, at_linear, out, np.uint32(records), np.uint32(0)], grid=items,
                   block=64)
    return (kernel.read(out, np.uint32, 8 * items).reshape(items, 8),
            kernel.read(at_private, np.uint32, private.size),
            kernel.read(at_linear, np.uint32, linear.size), results[0], private, linear)


@pytest.mark.parametrize("mcpu", ["gfx900", "gfx803"])
@pytest.mark.parametrize("records", [0x10000, 600])
def test_buffer_moves_run_natively(compile_mode, mcpu, records):
    """Scratch spills' MUBUF moves (swizzled through the private segment V#)
    and linear buffer moves run natively and give the memory and registers
    computed here from the manuals' addressing; with 600 bytes of records
    the lanes past them load zeros and store nothing, which the interpreter
    does (the block hands the access back). 250 work-items: the last wave is
    partial."""
    items = 250
    runs = {mode: _buffer_moves(mcpu, mode, compile_mode, records, items)
            for mode in ("off", "eager", "check")}
    out, private_after, linear_after, _, private, linear = runs["off"]
    gid = np.arange(items)
    group, lane = gid // 64, gid % 64
    v1 = (3 * lane).astype(np.uint32)
    v2 = v1 ^ group.astype(np.uint32)
    v4 = (0x1000 | lane).astype(np.uint32)

    def slot(offset):                   # the private dword at byte offset of each lane
        return group * 512 + (offset // 4) * 64 + lane
    expected_private = private.copy()
    expected_private[slot(4)], expected_private[slot(8)] = v1, v1
    expected_private[slot(12)] = v2
    expected_private[slot(16 + 4 * (lane & 3))] = v4
    np.testing.assert_array_equal(private_after, expected_private)
    loaded = np.where(4 * gid + 4 <= records, linear[gid], 0).astype(np.uint32)
    expected_linear = linear.copy()
    stored = 1024 + 4 * gid + 4 <= records
    expected_linear[256 + gid[stored]] = loaded[stored] ^ v4[stored]
    np.testing.assert_array_equal(linear_after, expected_linear)
    expected = np.stack([v1, v2, v4, v1, v1, v2, expected_private[slot(16)],
                         (4 * gid).astype(np.uint32)], axis=1)
    np.testing.assert_array_equal(out, expected)
    for mode in ("eager", "check"):
        for got, want in zip(runs[mode][:3], runs["off"][:3]):
            np.testing.assert_array_equal(got, want, err_msg=mode)
        result = runs[mode][3]
        if records == 0x10000:          # all but each wave's s_endpgm natively
            assert result.compiled_instructions == result.wave_instructions - 4
        else:
            assert 0 < result.compiled_instructions < result.wave_instructions - 4


#: A loop of buffer loads and stores (memory a host may write, so a served
#: host makes the periodic checks matter): a[i] += k for k < trips.
HOST_SERVED_LOOP = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
s_load_dword s13, s[0:1], 0x8
s_waitcnt lgkmcnt(0)
s_mov_b32 s8, s4
s_mov_b32 s9, s5
s_mov_b32 s10, -1
s_mov_b32 s11, 0
s_lshl_b32 s14, s2, 8
v_lshlrev_b32_e32 v1, 2, v0
v_add_u32_e32 v1, s14, v1
s_mov_b32 s12, 0
.Lloop:
buffer_load_dword v2, v1, s[8:11], 0 offen
v_add_u32_e32 v2, s12, v2
buffer_store_dword v2, v1, s[8:11], 0 offen
s_add_u32 s12, s12, 1
s_cmp_lt_u32 s12, s13
s_cbranch_scc1 .Lloop
"""


@pytest.mark.parametrize("groups", [1, 3])
def test_blocks_run_natively_through_the_checks_a_served_host_needs(compile_mode, groups):
    """A block that moves memory while the dispatch serves a host stops at
    every periodic check step (the host may write what it reads); the check
    is then made and the block goes on natively from that step, where the
    interpreter took it: every instruction but s_endpgm runs natively, the
    host is served at the same steps as interpreted, and three groups taking
    turns (a fair round hands the turn on at a check step) give the same
    memory and counts."""
    trips = 1500
    data = np.random.default_rng(4).integers(0, 1 << 20, 64 * groups, dtype=np.uint32)
    runs = {}
    for mode in ("off", "eager"):
        compile_mode(mode)
        kernel = kernel_util.Kernel(HOST_SERVED_LOOP, mcpu="gfx900")
        address = kernel.buffer(data)
        served = []
        blob = address.to_bytes(8, "little") + trips.to_bytes(8, "little")
        kernarg = kernel.memory.allocate(len(blob))
        kernel.memory.write(kernarg, blob)
        request = kernel_util.DispatchRequest(
            memory=kernel.memory, target=kernel.target, kernel_name="host_served",
            setup=kernel.setup, grid_size=(64 * groups, 1, 1), workgroup_size=(64, 1, 1),
            packet_address=0, queue_address=0, kernarg_address=kernarg,
            host_service=lambda: served.append(1))
        result = kernel_util.run_dispatch(request)
        runs[mode] = (kernel.read(address, np.uint32, data.size), result, len(served))
    expected = data + np.uint32(trips * (trips - 1) // 2)
    for mode, (memory, result, served) in runs.items():
        np.testing.assert_array_equal(memory, expected, err_msg=mode)
        assert result.wave_instructions == runs["off"][1].wave_instructions
        assert served == runs["off"][2] > 100
    native = runs["eager"][1]
    assert native.compiled_instructions == native.wave_instructions - groups


#: Scalar loads of each width from a per-group base (group g reads 64 bytes
#: at data + 64 + 64 * g), one at a negative offset, one whose offset's low
#: bits are ignored, one overwriting its own base; every loaded SGPR stored
#: to out + 64 * g.
SCALAR_LOADS = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_lshl_b32 s17, s2, 6
s_waitcnt lgkmcnt(0)
s_add_u32 s4, s4, s17
s_addc_u32 s5, s5, 0
s_add_u32 s6, s6, s17
s_addc_u32 s7, s7, 0
s_load_dwordx8 s[8:15], s[4:5], 0x60
s_load_dword s16, s[4:5], -0x4
s_load_dwordx4 s[20:23], s[4:5], 0x47
s_load_dwordx2 s[4:5], s[4:5], 0x50
s_waitcnt lgkmcnt(0)
v_mov_b32_e32 v0, 0
v_mov_b32_e32 v1, s8
v_mov_b32_e32 v2, s9
v_mov_b32_e32 v3, s10
v_mov_b32_e32 v4, s15
global_store_dwordx4 v0, v[1:4], s[6:7]
v_mov_b32_e32 v1, s16
v_mov_b32_e32 v2, s20
v_mov_b32_e32 v3, s23
v_mov_b32_e32 v4, s5
global_store_dwordx4 v0, v[1:4], s[6:7] offset:16
"""


def _scalar_loads(mode, compile_mode, groups, data_bytes):
    """(out, DispatchResult) after SCALAR_LOADS over ``groups`` one-wave groups."""
    compile_mode(mode)
    kernel = kernel_util.Kernel(SCALAR_LOADS, mcpu="gfx900")
    data = np.arange(data_bytes // 4, dtype=np.uint32) * np.uint32(2654435761)
    out = kernel.buffer(np.zeros(16 * groups, np.uint32))
    with recorded_dispatches() as results:
        kernel.run([kernel.buffer(data) + 64, out], grid=64 * groups, block=64)
    return kernel.read(out, np.uint32, 16 * groups).reshape(groups, 16), results[0], data


def test_scalar_loads_run_natively(compile_mode):
    """Scalar loads with constant offsets run in the block, natively as the
    interpreter runs them, and their dwords are the ones NumPy indexes."""
    groups = 3
    outputs = {}
    for mode in ("off", "check", "eager"):
        outputs[mode], result, data = _scalar_loads(mode, compile_mode, groups, 4096)
        # all but the s_endpgm ran natively, the loads included
        assert result.compiled_instructions == (0 if mode == "off" else
                                                result.wave_instructions - groups)
    for g in range(groups):
        at = 16 + 16 * g                      # data + 64 + 64 * g, in dwords
        want = [data[at + 24], data[at + 25], data[at + 26], data[at + 31], data[at - 1],
                data[at + 17], data[at + 20], data[at + 21]]
        for mode, got in outputs.items():
            np.testing.assert_array_equal(got[g, :8], want, err_msg=mode)
            np.testing.assert_array_equal(got[g, 8:], 0, err_msg=mode)


def test_scalar_load_outside_memory_faults_as_interpreted(compile_mode):
    """A scalar load past its allocation sends the block back to the
    interpreter, which reports the fault as it always does."""
    messages = []
    for mode in ("off", "eager"):
        with pytest.raises(KernelError) as failure:
            _scalar_loads(mode, compile_mode, 2, 160)
        messages.append(str(failure.value))
    assert "memory fault" in messages[0]
    assert messages[0] == messages[1]


def test_blocks_compile_once_whatever_the_batch_state(compile_mode):
    """A kernel's first batch is built (its arrays writable), later ones are
    copies of its prototype (geometry arrays read-only): each block must be
    compiled, or loaded, for one set of argument types only."""
    for _ in range(3):
        _global_loop("gfx900", "eager", compile_mode, 64)
    functions = [tier._LOADED[path] for path in tier._LOADED if path.parent.name == "blocks"]
    assert functions and all(len(fn.signatures) == 1 for fn in functions)


def test_global_access_outside_memory_faults_as_interpreted(compile_mode):
    """A lane whose access leaves its allocation sends the block back to the
    interpreter, which reports the fault as it always does."""
    messages = []
    for mode in ("off", "eager"):
        with pytest.raises(KernelError) as failure:
            _global_loop("gfx900", mode, compile_mode, 64, out_items=40)
        messages.append(str(failure.value))
    assert "memory fault" in messages[0]
    assert messages[0] == messages[1]


def test_forked_worker_runs_only_blocks_loaded_before_the_fork(monkeypatch, tmp_path):
    """Loading machine code costs ~0.1 s a block and a worker forgets it when
    its dispatch ends: in a worker only what its parent loaded runs natively."""
    from amdgpu_tools.exec.core import workers
    monkeypatch.setenv("AMDGPU_TOOLS_COMPILE", "eager")
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tmp_path))
    vgpr, sgpr = _inputs(3, 1)
    counts = []
    for in_worker in (True, False, True):
        monkeypatch.setattr(workers, "_IN_WORKER", in_worker)
        with recorded_dispatches() as results:
            run_snippet(LOOP, vgpr=vgpr, sgpr=sgpr, vgprs=24)
        counts.append(results[0].compiled_instructions)
    assert counts[0] == 0 and counts[1] > 0 and counts[2] == counts[1]


def test_auto_mode_compiles_hot_blocks_only(compile_mode, monkeypatch, tmp_path, own_compiler):
    """A short run compiles nothing; once a block's interpreted steps reach the
    threshold the background compiler gets it and the interpreter goes on;
    from the cache it is loaded after fewer steps."""
    reference = _state(LOOP, "off", compile_mode)
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tmp_path))
    with recorded_dispatches() as results:
        cold = _state(LOOP, "auto", compile_mode)
    assert results[-1].compiled_instructions == 0        # 1800 steps: far below the threshold
    monkeypatch.setattr(tier, "STEPS_BEFORE_COMPILING", 500)
    monkeypatch.setattr(tier, "STEPS_BEFORE_LOADING", 100)
    hot = _state(LOOP, "auto", compile_mode)             # hands the block to the compiler
    modules = list(tmp_path.glob("b*.py"))
    assert len(modules) == 1
    deadline = time.monotonic() + 300
    while own_compiler.status(modules[0]) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert own_compiler.status(modules[0]) == "ok"
    with recorded_dispatches() as results:
        cached = _state(LOOP, "auto", compile_mode)      # loaded after STEPS_BEFORE_LOADING
    assert 0 < results[-1].compiled_instructions <= results[-1].wave_instructions - 100
    for state in (cold, hot, cached):
        _same_registers(reference, state)


def test_cache_keeps_machine_code(compile_mode, monkeypatch, tmp_path):
    monkeypatch.setenv("AMDGPU_TOOLS_COMPILE", "eager")
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tmp_path))
    vgpr, sgpr = _inputs(3, 1)
    run_snippet(LOOP, vgpr=vgpr, sgpr=sgpr, vgprs=24)
    modules = sorted(tmp_path.glob("b*.py"))
    # one block: from s_mov_b32 to the branch; the loop enters it at its second instruction
    assert len(modules) == 1
    machine_code = list((tmp_path / "__pycache__").glob("*.nbc"))
    assert len(machine_code) == 1
    stamps = [path.stat().st_mtime_ns for path in machine_code]
    run_snippet(LOOP, vgpr=vgpr, sgpr=sgpr, vgprs=24)
    assert sorted(tmp_path.glob("b*.py")) == modules
    assert [path.stat().st_mtime_ns for path in machine_code] == stamps


def test_cached_block_serves_the_code_wherever_it_is_loaded(monkeypatch, tmp_path):
    """Blocks are position independent: the same code object loaded at
    another address (every Device.load) runs the blocks already compiled."""
    from pathlib import Path
    from amdgpu_tools import Device
    from amdgpu_tools.asm import assemble
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tmp_path))
    source = (Path(__file__).resolve().parents[2] / "samples" / "saxpy.s").read_text()
    device = Device("gfx900", jobs=1, compile="check")
    rng = np.random.default_rng(9)
    x = rng.random(1000, dtype=np.float32)
    y = rng.random(1000, dtype=np.float32)
    entries = []
    for _ in range(2):
        program = device.load(assemble(source, target="gfx900"))
        dy = device.array(y)
        program["saxpy"](np.int32(1000), np.float32(2.5), device.array(x), dy,
                         grid=(1024,), block=(256,))
        device.synchronize()
        np.testing.assert_array_equal(dy.numpy(), np.float32(2.5) * x + y)
        assert device.last_result.compiled_instructions > 0
        entries.append(sorted(path.name for path in tmp_path.glob("b*.py")))
    assert entries[0] == entries[1] and entries[0]


def test_check_mode_catches_a_wrong_block(monkeypatch, tmp_path):
    """A compiled semantic that is off by one is found at the first block run."""
    from numba import njit
    from amdgpu_tools.exec.compiled import jitcopy
    monkeypatch.setenv("AMDGPU_TOOLS_COMPILE", "check")
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tmp_path))
    real = jitcopy.semantic
    wrong = njit(lambda a, b: (a ^ b) + np.uint32(1))
    monkeypatch.setattr(jitcopy, "semantic",
                        lambda op, lanes=False: wrong if op == "v_xor_b32" else real(op, lanes))
    vgpr, sgpr = _inputs(4, 1)
    with pytest.raises(KernelError, match=r"compiled block differs from the interpreter.*v3"):
        run_snippet(LOOP, vgpr=vgpr, sgpr=sgpr, vgprs=24)


def test_op_numba_refuses_ends_blocks(monkeypatch, tmp_path):
    """An op whose semantic Numba cannot compile is remembered and left to the
    interpreter; the rest of its block still runs natively."""
    from amdgpu_tools.exec.compiled import jitcopy
    monkeypatch.setenv("AMDGPU_TOOLS_COMPILE", "eager")
    monkeypatch.setenv("AMDGPU_TOOLS_BLOCK_CACHE", str(tmp_path))
    real = jitcopy.semantic
    table = {"note": "a dict: Numba cannot type a call of it"}

    def refusing(op, lanes=False):
        if op == "v_xor_b32":
            from numba import njit
            return njit(lambda a, b: table["note"])
        return real(op, lanes)
    monkeypatch.setattr(jitcopy, "semantic", refusing)
    vgpr, sgpr = _inputs(5, 1)
    with recorded_dispatches() as results:
        native = run_snippet(LOOP, vgpr=vgpr, sgpr=sgpr, vgprs=24)
    assert "v_xor_b32" in tier.refused_ops()
    assert 0 < results[-1].compiled_instructions < results[-1].wave_instructions
    monkeypatch.setenv("AMDGPU_TOOLS_COMPILE", "off")
    reference = run_snippet(LOOP, vgpr=vgpr, sgpr=sgpr, vgprs=24)
    _same_registers(reference, native)


def test_unknown_mode_is_refused(monkeypatch):
    monkeypatch.setenv("AMDGPU_TOOLS_COMPILE", "sometimes")
    with pytest.raises(LaunchError, match="compile mode 'sometimes'"):
        tier.resolve_mode()
    assert tier.resolve_mode("off") == "off"
    assert os.environ["AMDGPU_TOOLS_COMPILE"] == "sometimes"


def _calls(monkeypatch, owner, name):
    """What the method ``name`` of class ``owner`` returns at each call from
    now on (the list fills as it is called)."""
    results = []
    original = getattr(owner, name)

    def recording(self, *args):
        results.append(original(self, *args))
        return results[-1]
    monkeypatch.setattr(owner, name, recording)
    return results


def test_blocks_formed_once_for_the_same_code(compile_mode, monkeypatch):
    """Every launch makes a new Program; its blocks are taken from the earlier
    launch when the code bytes are the same, and formed anew when they differ."""
    forms = _calls(monkeypatch, tier.BlockTier, "_form")
    preparations = _calls(monkeypatch, tier.BlockTier, "_prepare")
    monkeypatch.setattr(tier, "_FORMED", {})
    changed = LOOP.replace("v_xor_b32_e32 v3, v3, v2", "v_or_b32_e32 v3, v3, v2")
    formed, prepared, states = [], [], []
    for source in (LOOP, LOOP, changed):
        forms.clear()
        preparations.clear()
        states.append(_state(source, "eager", compile_mode, waves=1, seed=6))
        # (where no block starts, nothing is formed to keep)
        formed.append(sum(block is not None for block in forms))
        prepared.append(len(preparations))
    assert formed[0] > 0 and formed[1] == 0 and formed[2] > 0
    # the loaded blocks are taken as they are: their cache files are not looked at again
    assert prepared[0] > 0 and prepared[1] == 0 and prepared[2] > 0
    _same_registers(states[0], states[1])
    reference = _state(changed, "off", compile_mode, waves=1, seed=6)
    _same_registers(reference, states[2])


def test_a_run_whose_blocks_never_get_hot_does_not_import_numba(tmp_path):
    """Importing Numba costs a fresh process ~0.1-0.3 s: a short run in the
    default mode (auto) leaves it alone, and the cache's name for the code
    is the same as when it is loaded (Numba's version as installed)."""
    sample = Path(__file__).resolve().parents[2] / "samples" / "hello_world.s"
    script = (
        "import sys\n"
        "from amdgpu_tools import Device\n"
        "from amdgpu_tools.asm import assemble\n"
        "from amdgpu_tools.exec.compiled import tier\n"
        "device = Device('gfx803', jobs=1, compile='auto')\n"
        f"kernel = device.load(assemble(open({str(sample)!r}).read(), target='gfx803'))\n"
        "out = device.zeros(4)\n"
        "kernel['hello_world'](out, grid=(64,), block=(64,))\n"
        "device.synchronize()\n"
        "print(device.last_result.waves, 'numba' in sys.modules, out.numpy()[0])\n"
        "print(tier.fingerprint())\n"
        "import numba\n"
        "tier._FINGERPRINT, tier._numba_version = None, lambda: numba.__version__\n"
        "print(tier.fingerprint())\n")
    env = dict(os.environ, AMDGPU_TOOLS_BLOCK_CACHE=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    first, before, after = done.stdout.split("\n")[:3]
    assert first.split()[:2] == ["1", "False"] and float(first.split()[2]) == \
        pytest.approx(3.14159, rel=1e-6)
    assert before == after

"""isa.effects: the registers each instruction reads, writes and returns, and
the counters it increments, written out by hand from the ISA manuals for each
family and generation; and the executor as an oracle (every register a real
kernel's instruction changes is one its effects name)."""

import re

import numpy as np
import pytest

from amdgpu_tools.asm import assemble
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.isa import disassemble
from amdgpu_tools.isa.effects import EXEC, M0, SCC, VCC, VGPR_BASE, effects_of, register_name

from effects_oracle import checking_effects

_NAMED = {"scc": (SCC,), "vcc": VCC, "exec": EXEC, "m0": M0, "vcc_lo": (106,),
          "flat_scratch": (102, 103)}


def regs(text):
    """``"s[0:1] v3 scc"`` -> the register numbers of isa.effects."""
    out = set()
    for word in text.split():
        if word in _NAMED:
            out.update(_NAMED[word])
            continue
        match = re.fullmatch(r"([sv])(?:(\d+)|\[(\d+):(\d+)\])", word)
        assert match, word
        file, single, first, last = match.groups()
        first, last = (int(single), int(single)) if single else (int(first), int(last))
        base = VGPR_BASE if file == "v" else 0
        out.update(range(base + first, base + last + 1))
    return frozenset(out)


def decoded(source, target):
    code = read_elf(assemble(".text\n" + source, target)).section(".text").data
    return [inst for _, inst in disassemble(code, target)]


#: (target, instruction, reads, writes, returns, counters); "exec" is implied
#: for every vector instruction and listed here
CASES = [
    ("gfx900", "s_add_u32 s0, s1, s2", "s1 s2", "s0 scc", "", ""),
    ("gfx900", "s_addc_u32 s3, s4, 5", "s4 scc", "s3 scc", "", ""),
    ("gfx900", "s_mul_i32 s3, s4, s5", "s4 s5", "s3", "", ""),
    ("gfx900", "s_and_saveexec_b64 s[4:5], vcc", "vcc exec", "s[4:5] exec scc", "", ""),
    ("gfx900", "s_andn2_wrexec_b64 s[4:5], s[6:7]", "s[6:7]", "s[4:5] exec scc", "", ""),
    ("gfx900", "s_cmpk_eq_i32 s7, 3", "s7", "scc", "", ""),
    ("gfx900", "s_addk_i32 s7, 3", "s7", "s7 scc", "", ""),
    ("gfx900", "s_cmov_b64 s[0:1], s[2:3]", "s[0:1] s[2:3] scc", "s[0:1]", "", ""),
    ("gfx900", "s_cselect_b64 s[0:1], s[2:3], -1", "s[2:3] scc", "s[0:1]", "", ""),
    ("gfx900", "s_cmp_lg_u64 s[0:1], 0", "s[0:1]", "scc", "", ""),
    ("gfx900", "s_bitset1_b32 s0, s1", "s0 s1", "s0", "", ""),
    ("gfx900", "s_cbranch_vccz 1", "vcc", "", "", ""),
    ("gfx900", "s_cbranch_execnz 1", "exec", "", "", ""),
    ("gfx900", "s_cbranch_scc1 1", "scc", "", "", ""),
    ("gfx900", "s_getpc_b64 s[0:1]", "", "s[0:1]", "", ""),
    ("gfx900", "s_swappc_b64 s[30:31], s[4:5]", "s[4:5]", "s[30:31]", "", ""),
    ("gfx900", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3", "s3", "", "", ""),
    ("gfx900", "s_getreg_b32 s3, hwreg(HW_REG_MODE, 0, 4)", "", "s3", "", ""),
    ("gfx900", "s_movrels_b32 s0, s4", "s4 m0", "s0", "", ""),
    ("gfx900", "s_sendmsg sendmsg(MSG_INTERRUPT)", "m0", "", "", "lgkm"),
    ("gfx900", "s_waitcnt vmcnt(0)", "", "", "", ""),
    ("gfx900", "v_add_f32 v0, v1, s3", "exec v1 s3", "v0", "", ""),
    ("gfx900", "v_add_co_u32 v0, vcc, v1, v2", "exec v1 v2", "v0 vcc", "", ""),
    ("gfx900", "v_addc_co_u32 v0, vcc, v1, v2, vcc", "exec v1 v2 vcc", "v0 vcc", "", ""),
    ("gfx900", "v_add_co_u32_e64 v0, s[6:7], v1, v2", "exec v1 v2", "v0 s[6:7]", "", ""),
    ("gfx900", "v_cndmask_b32 v0, v1, v2, vcc", "exec v1 v2 vcc", "v0", "", ""),
    ("gfx900", "v_cndmask_b32_e64 v0, v1, v2, s[4:5]", "exec v1 v2 s[4:5]", "v0", "", ""),
    ("gfx900", "v_cmp_eq_u32 vcc, v1, v2", "exec v1 v2", "vcc", "", ""),
    ("gfx900", "v_cmp_gt_f32_e64 s[8:9], v1, 1.0", "exec v1", "s[8:9]", "", ""),
    ("gfx900", "v_cmpx_eq_u32 vcc, v1, v2", "exec v1 v2", "vcc exec", "", ""),
    ("gfx900", "v_mac_f32 v3, v1, v2", "exec v1 v2 v3", "v3", "", ""),
    ("gfx900", "v_readlane_b32 s9, v3, s8", "exec v3 s8", "s9", "", ""),
    ("gfx900", "v_writelane_b32 v3, s9, 4", "exec v3 s9", "v3", "", ""),
    ("gfx900", "v_readfirstlane_b32 s0, v1", "exec v1", "s0", "", ""),
    ("gfx900", "v_div_fmas_f32 v0, v1, v2, v3", "exec v[1:3] vcc", "v0", "", ""),
    ("gfx900", "v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]", "exec v[2:7]", "v[0:1]", "", ""),
    ("gfx900", "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
     "exec v1", "v0", "", ""),
    ("gfx900", "v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0x5 bank_mask:0xf",
     "exec v0 v1", "v0", "", ""),
    # a shift leaves lanes without a source: without bound_ctrl they keep v0's old value
    ("gfx900", "v_mov_b32_dpp v0, v1 row_shl:1 row_mask:0xf bank_mask:0xf",
     "exec v0 v1", "v0", "", ""),
    ("gfx900", "v_mov_b32_dpp v0, v1 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:0",
     "exec v1", "v0", "", ""),
    ("gfx900", "v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
               "src0_sel:WORD_0", "exec v0 v1", "v0", "", ""),
    ("gfx900", "v_add_f32_sdwa v0, s1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD "
               "src0_sel:DWORD src1_sel:WORD_1", "exec s1 v2", "v0", "", ""),
    ("gfx900", "v_cmp_eq_f32_sdwa s[4:5], v1, v2 src0_sel:DWORD src1_sel:DWORD",
     "exec v1 v2", "s[4:5]", "", ""),
    ("gfx900", "v_mov_b32 v0, src_scc", "exec scc", "v0", "", ""),
    ("gfx900", "v_pk_fma_f16 v0, v1, v2, v3", "exec v[1:3]", "v0", "", ""),
    ("gfx900", "s_load_dwordx4 s[0:3], s[4:5], 0x10", "s[4:5]", "", "s[0:3]", "lgkm"),
    ("gfx900", "s_load_dword s0, s[4:5], s6", "s[4:5] s6", "", "s0", "lgkm"),
    ("gfx900", "s_buffer_store_dword s0, s[4:7], 0x0", "s0 s[4:7]", "", "", "lgkm"),
    ("gfx900", "s_memtime s[0:1]", "", "", "s[0:1]", "lgkm"),
    ("gfx900", "global_load_dwordx2 v[0:1], v[2:3], off", "exec v[2:3]", "", "v[0:1]", "vm"),
    ("gfx900", "global_load_dword v0, v2, s[4:5] offset:16", "exec v2 s[4:5]", "", "v0", "vm"),
    ("gfx900", "global_store_dword v[2:3], v5, off", "exec v[2:3] v5", "", "", "vm"),
    ("gfx900", "global_atomic_add v0, v[2:3], v5, off glc", "exec v[2:3] v5", "", "v0", "vm"),
    ("gfx900", "global_atomic_add v[2:3], v5, off", "exec v[2:3] v5", "", "", "vm"),
    ("gfx900", "global_load_short_d16_hi v0, v[2:3], off", "exec v0 v[2:3]", "", "v0", "vm"),
    ("gfx900", "scratch_load_dword v0, off, s3", "exec s3", "", "v0", "vm"),
    ("gfx900", "flat_load_dword v0, v[2:3]", "exec v[2:3]", "", "v0", "vm lgkm"),
    ("gfx900", "buffer_load_dwordx4 v[0:3], v4, s[8:11], s12 offen",
     "exec v4 s[8:11] s12", "", "v[0:3]", "vm"),
    ("gfx900", "buffer_load_dword v1, v[2:3], s[8:11], 0 idxen offen",
     "exec v[2:3] s[8:11]", "", "v1", "vm"),
    ("gfx900", "buffer_store_dword v1, off, s[8:11], 0", "exec v1 s[8:11]", "", "", "vm"),
    ("gfx900", "buffer_atomic_cmpswap v[4:5], v1, s[8:11], 0 offen glc",
     "exec v1 v[4:5] s[8:11]", "", "v4", "vm"),
    ("gfx900", "buffer_load_dword off, s[8:11], 0 lds", "exec m0 s[8:11]", "", "", "vm"),
    ("gfx900", "buffer_wbinvl1", "", "", "", "vm"),
    ("gfx900", "ds_read_b32 v0, v1", "exec v1", "", "v0", "lgkm"),
    ("gfx900", "ds_write2_b32 v1, v2, v3 offset1:4", "exec v[1:3]", "", "", "lgkm"),
    ("gfx900", "ds_add_rtn_u32 v0, v1, v2", "exec v1 v2", "", "v0", "lgkm"),
    ("gfx900", "ds_add_u32 v1, v2 gds", "exec m0 v1 v2", "", "", "lgkm"),
    # GFX8 DS instructions all read M0 (the LDS size limit)
    ("gfx803", "ds_read_b32 v0, v1", "exec m0 v1", "", "v0", "lgkm"),
    ("gfx803", "s_load_dword s0, s[4:5], 0x4", "s[4:5]", "", "s0", "lgkm"),
    ("gfx803", "flat_store_dword v[2:3], v4", "exec v[2:3] v4", "", "", "vm lgkm"),
    ("gfx803", "v_movrels_b32 v0, v4", "exec m0 v4", "v0", "", ""),
    # GFX7: SMRD with an SGPR offset
    ("gfx700", "s_load_dword s0, s[4:5], s6", "s[4:5] s6", "", "s0", "lgkm"),
    ("gfx700", "buffer_load_dword v1, v[2:3], s[8:11], 0 addr64",
     "exec v[2:3] s[8:11]", "", "v1", "vm"),
    # GFX6: a store's data is read out of VGPRs after issue, counted by EXP_CNT
    ("gfx600", "buffer_store_dword v1, v2, s[8:11], 0 offen", "exec v1 v2 s[8:11]", "", "",
     "vm exp"),
    ("gfx600", "ds_write_b32 v1, v2", "exec m0 v1 v2", "", "", "lgkm"),
]


@pytest.mark.parametrize("target,text,reads,writes,returns,counters", CASES,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_effects_of_instruction(target, text, reads, writes, returns, counters):
    (inst,) = decoded(text, target)
    effects = effects_of(inst)
    generation = inst.target.generation

    def names(registers):
        return " ".join(register_name(r, generation) for r in sorted(registers))

    assert names(effects.reads) == names(regs(reads)), "reads"
    assert names(effects.writes) == names(regs(writes)), "writes"
    assert names(effects.returns) == names(regs(returns)), "returns"
    assert effects.counters == frozenset(counters.split())


def test_partial_writes_are_reads_too():
    for text in ("v_writelane_b32 v3, s9, 4", "v_mac_f32 v3, v1, v2",
                 "global_load_short_d16_hi v0, v[2:3], off"):
        (inst,) = decoded(text, "gfx900")
        effects = effects_of(inst)
        assert effects.partial and effects.partial <= effects.reads


def test_store_data_is_named():
    (inst,) = decoded("global_store_dwordx4 v[0:1], v[4:7], off", "gfx900")
    assert effects_of(inst).store_data == regs("v[4:7]")


def test_indexed_moves_are_marked():
    for text in ("s_movrels_b32 s0, s4", "s_movreld_b64 s[0:1], s[4:5]"):
        (inst,) = decoded(text, "gfx900")
        assert effects_of(inst).indexed


SAMPLES = __import__("pathlib").Path(__file__).parents[2] / "samples"


def test_executor_changes_only_what_effects_name():
    """The executor as oracle: while the samples run (loads, stores, LDS, a
    barrier, divergent branches), no instruction changes a register its
    effects leave out; AMDGPU_TOOLS_CHECK_EFFECTS=1 runs any test this way."""
    from amdgpu_tools import Device
    device = Device("gfx900")
    rng = np.random.default_rng(5)
    a, b = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    data = rng.random(512, dtype=np.float32)
    with checking_effects() as violations:
        def load(name):
            return device.load(assemble((SAMPLES / name).read_text(), "gfx900", filename=name))
        c = device.zeros(1000, np.float32)
        load("vector_add.s")["vector_add"](device.array(a), device.array(b), c, np.int32(1000),
                                           grid=(1024,), block=(64,))
        partial = device.zeros(2, np.float32)
        load("lds_reduce.s")["lds_reduce"](device.array(data), partial, grid=(512,),
                                           block=(256,))
        device.synchronize()
    from effects_oracle import CHECKED
    assert np.array_equal(c.numpy(), a + b)
    assert np.allclose(partial.numpy(), data.reshape(2, 256).sum(axis=1), rtol=1e-5)
    assert violations == []
    assert {"global_load_dword", "ds_write_b32", "s_barrier", "v_add_f32"} <= set(CHECKED)

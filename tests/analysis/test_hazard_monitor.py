"""Hazard checking while kernels run (Device(check=...), amdgpu-run --check):
missing waits and wait states per wave, LDS races between the waves of a
work-group and global races between work-groups; results never change."""

import pathlib
import subprocess
import sys

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.analysis.hazard_monitor import HazardError
from amdgpu_tools.asm import assemble

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def vector_add(device, source):
    program = device.load(assemble(source, "gfx900"))
    rng = np.random.default_rng(3)
    a, b = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    c = device.zeros(1000, np.float32)
    program["vector_add"](device.array(a), device.array(b), c, np.int32(1000),
                          grid=(1024,), block=(64,))
    device.synchronize()
    return c.numpy(), a + b


def test_correct_kernel_has_no_hazards():
    device = Device("gfx900", check=True)
    result, expected = vector_add(device, (SAMPLES / "vector_add.s").read_text())
    assert np.array_equal(result, expected)
    assert device.hazards == []


def test_missing_wait_is_reported_per_wave_and_results_stay():
    source = (SAMPLES / "vector_add.s").read_text().replace("s_waitcnt vmcnt(0)", "s_nop 0")
    device = Device("gfx900", check=True)
    result, expected = vector_add(device, source)
    assert np.array_equal(result, expected)          # checking never changes results
    found = {(h.rule, h.pc, h.register): h for h in device.hazards}
    # v_add_f32 reads both loads' results, the store reads the sum's v2: all before
    # the waits (the store's own read of v2 is reported against the load: the add's
    # write of v2 is in order, so the pending load still owns it)
    assert set(found) == {("raw", 0x58, "v2"), ("raw", 0x58, "v3"), ("raw", 0x5c, "v2")}
    v2 = found[("raw", 0x58, "v2")]
    assert v2.count == 16 and v2.wave == 0            # 16 waves ran it
    text = v2.describe()
    assert text.startswith("kernel vector_add, wave 0, pc 0x58 'v_add_f32_e32 v2, v2, v3' "
                           "reads v2, loaded by 'global_load_dword v2, v1, s[8:9]' at pc 0x44")
    assert "no s_waitcnt vmcnt(1) between [16 times]" in text


def test_stop_at_the_first_hazard():
    source = (SAMPLES / "vector_add.s").read_text().replace("s_waitcnt vmcnt(0)", "s_nop 0")
    device = Device("gfx900", check="stop")
    with pytest.raises(HazardError, match="hazard: kernel vector_add, wave 0, pc 0x58"):
        vector_add(device, source)


def test_check_argument_is_validated():
    from amdgpu_tools.errors import LaunchError
    with pytest.raises(LaunchError, match="check='yes'"):
        Device("gfx900", check="yes")


KERNEL = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
{body}
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_group_segment_fixed_size {lds}
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 24
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: {lds}
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - {{ .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }}
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata
"""


def run_kernel(body, grid, block, lds=0, words=64):
    device = Device("gfx900", check=True)
    program = device.load(assemble(KERNEL.format(body=body, lds=lds), "gfx900"))
    out = device.zeros(words, np.uint32)
    program["k"](out, grid=(grid,), block=(block,))
    device.synchronize()
    return device, out.numpy()


WAIT_STATES = """
  s_load_dwordx2 s[10:11], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0
  v_mov_b32 v2, 7
  v_mov_b32 v3, s10
  v_readfirstlane_b32 {target}, v3
  global_store_dword v1, v2, s[10:11]"""


def test_wait_states_while_running():
    device, out = run_kernel(WAIT_STATES.format(target="s12"), 64, 64)
    assert out[0] == 7 and device.hazards == []
    # the VALU rewrites s10 (with its own value) one instruction before the store reads it
    device, out = run_kernel(WAIT_STATES.format(target="s10"), 64, 64)
    assert out[0] == 7
    (hazard,) = device.hazards
    assert hazard.rule == "valu-sgpr-vmem" and hazard.register == "s10"
    assert "0 wait states between, 5 needed" in hazard.describe()


LDS_EXCHANGE = """
  s_load_dwordx2 s[10:11], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  ds_write_b32 v1, v0
  s_waitcnt lgkmcnt(0)
  {barrier}
  v_xor_b32 v2, 0x100, v1
  ds_read_b32 v3, v2
  s_lshl_b32 s12, s2, 9
  v_add_u32 v4, s12, v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v4, v3, s[10:11]"""


def test_lds_race_without_barrier():
    expected = np.tile(np.arange(128) ^ 64, 2)
    device, out = run_kernel(LDS_EXCHANGE.format(barrier="s_barrier"), 256, 128, lds=512,
                             words=256)
    assert device.hazards == [] and np.array_equal(out, expected)
    device, out = run_kernel(LDS_EXCHANGE.format(barrier="s_nop 0"), 256, 128, lds=512,
                             words=256)
    assert np.array_equal(out, expected)
    (race,) = device.hazards
    assert race.rule == "lds-race" and race.register.startswith("LDS 0x")
    assert race.text.startswith("ds_read_b32") and race.source_text.startswith("ds_write_b32")
    assert "no s_barrier between them" in race.describe()


READ_THEN_WRITE = {
    # waves 0 and 1 read word 0 in turn, then wave 1 writes it: the race is
    # with wave 0's read, which is no longer the last read of those bytes
    "two reads": """
  v_readfirstlane_b32 s12, v0
  v_mov_b32 v1, 0
  s_cmp_eq_u32 s12, 0
  s_cbranch_scc0 wave1
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  s_branch done
wave1:
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  ds_write_b32 v1, v0
done:""",
    # both waves read word 0 in one access, then wave 1 alone writes it
    "one read": """
  v_mov_b32 v1, 0
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  v_cmp_le_u32 vcc, 64, v0
  s_and_b64 exec, exec, vcc
  ds_write_b32 v1, v0""",
}


@pytest.mark.parametrize("case", sorted(READ_THEN_WRITE))
def test_lds_write_races_with_an_earlier_reader(case):
    device, _ = run_kernel(READ_THEN_WRITE[case], 128, 128, lds=256)
    (race,) = device.hazards
    assert race.rule == "lds-race" and race.register == "LDS 0x0"
    assert race.source_text.startswith("ds_read_b32") and race.text.startswith("ds_write_b32")
    assert "wave 1 writes what wave 0 read; no s_barrier between them [4 times]" in \
        race.describe()
    with_barrier = READ_THEN_WRITE[case].replace("s_waitcnt lgkmcnt(0)\n  v_cmp",
                                                 "s_waitcnt lgkmcnt(0)\n  s_barrier\n  v_cmp")
    if with_barrier != READ_THEN_WRITE[case]:
        device, _ = run_kernel(with_barrier, 128, 128, lds=256)
        assert device.hazards == []


GLOBAL = """
  s_load_dwordx2 s[10:11], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0
  v_mov_b32 v2, 1
  {store}
  s_waitcnt vmcnt(0)"""


def test_global_race_between_work_groups_and_atomics_are_fine():
    device, out = run_kernel(GLOBAL.format(store="global_store_dword v1, v2, s[10:11]"), 256, 64)
    (race,) = device.hazards
    assert race.rule == "global-race" and "different work-groups" in race.describe()
    device, out = run_kernel(GLOBAL.format(store="global_atomic_add v1, v2, s[10:11]"), 256, 64)
    assert device.hazards == [] and out[0] == 256


SCALAR_READ = """
  s_load_dwordx2 s[10:11], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_load_dword s13, s[10:11], 0x4
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 skip
  v_mov_b32 v1, 4
  v_mov_b32 v2, 5
  {store}
  s_waitcnt vmcnt(0)
skip:"""


def test_scalar_loads_race_with_another_work_groups_store():
    """Every work-group reads word 1 with s_load; work-group 0 writes it."""
    device, out = run_kernel(SCALAR_READ.format(store="global_store_dword v1, v2, s[10:11]"),
                             256, 64)
    (race,) = device.hazards
    assert race.rule == "global-race" and race.register.startswith("global 0x")
    assert race.source_text.startswith("global_store_dword")
    assert race.text.startswith("s_load_dword s13")
    assert "reads what wave 0 wrote; different work-groups" in race.describe()
    device, out = run_kernel(SCALAR_READ.format(store="global_atomic_add v1, v2, s[10:11]"),
                             256, 64)
    assert device.hazards == [] and out[1] == 64 * 5


def test_amdgpu_run_check(tmp_path):
    source = tmp_path / "bad.s"
    source.write_text((SAMPLES / "vector_add.s").read_text().replace("s_waitcnt vmcnt(0)",
                                                                      "s_nop 0"))
    np.save(tmp_path / "a.npy", np.arange(64, dtype=np.float32))
    argv = [sys.executable, "-m", "amdgpu_tools.cli.run", str(source), "--kernel", "vector_add",
            "--grid", "64", "--block", "64", "--arg", f"buf:{tmp_path / 'a.npy'}",
            "--arg", f"buf:{tmp_path / 'a.npy'}", "--arg", "buf:float32[64]", "--arg", "i32:64",
            "--check"]
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert "amdgpu-run: hazard: kernel vector_add, wave 0, pc 0x58" in done.stderr
    good = subprocess.run([a if a != str(source) else str(SAMPLES / "vector_add.s")
                           for a in argv], capture_output=True, text=True)
    assert good.returncode == 0 and "hazard" not in good.stderr


def run_lds_reduce(source, check=True):
    device = Device("gfx900", check=check)
    program = device.load(assemble(source, "gfx900"))
    data = np.random.default_rng(4).random(512, dtype=np.float32)
    partial = device.zeros(2, np.float32)
    program["lds_reduce"](device.array(data), partial, grid=(512,), block=(256,))
    device.synchronize()
    assert np.allclose(partial.numpy(), data.reshape(2, 256).sum(axis=1), rtol=1e-5)
    return device.hazards


def test_lds_reduction_without_its_barriers():
    """The sample's tree reduction: correct with its barriers, LDS races without
    them (the executor's lockstep waves still compute the right sum)."""
    source = (SAMPLES / "lds_reduce.s").read_text()
    assert run_lds_reduce(source) == []
    races = run_lds_reduce(source.replace("s_barrier", "s_nop 0"))
    assert races and {h.rule for h in races} == {"lds-race"}


WAIT_RULES = ("raw", "waw", "war", "barrier")


def _without_wait(source, index):
    lines = source.splitlines()
    waits = [i for i, line in enumerate(lines) if line.strip().startswith("s_waitcnt")]
    lines[waits[index]] = "  s_nop 0"
    return "\n".join(lines) + "\n", len(waits)


def test_each_deleted_wait_of_the_samples_is_reported_while_running():
    """Every s_waitcnt of vector_add and lds_reduce deleted in turn: the run reports
    it (and so does the static checker), and the results do not change. The wait
    before lds_reduce's first s_barrier protects no register but the LDS store the
    other waves read after the barrier: the barrier rule finds it."""
    from amdgpu_tools.analysis.hazards import check_elf
    from amdgpu_tools.elf.reader import read_elf
    checked = 0
    for name, run in (("vector_add.s", lambda text: vector_add(Device("gfx900", check=True),
                                                                  text)),
                      ("lds_reduce.s", run_lds_reduce)):
        source = (SAMPLES / name).read_text()
        _, count = _without_wait(source, 0)
        for index in range(count):
            mutant, _ = _without_wait(source, index)
            static = [h for h in check_elf(read_elf(assemble(mutant, "gfx900")))
                      if h.rule in WAIT_RULES]
            if name == "vector_add.s":
                device = Device("gfx900", check=True)
                result, expected = vector_add(device, mutant)
                assert np.array_equal(result, expected)
                dynamic = device.hazards
            else:
                dynamic = run_lds_reduce(mutant)
            dynamic = [h for h in dynamic if h.rule in WAIT_RULES]
            assert static and dynamic, (name, index)
            checked += 1
    assert checked >= 6

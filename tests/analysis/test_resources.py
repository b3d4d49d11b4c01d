"""Resource usage and occupancy (amdgpu_tools.analysis.resources).

(a) The occupancy rules, written out here independently, on hand-made cases
    and at their exact boundaries (one register less gains a wave).
(b) Agreement with clang-19's own remarks (-Rpass-analysis=kernel-resource-usage)
    on every kernel of the e2e OpenCL suite, for gfx803 and gfx900.
(c) amdgpu-objdump --resource-usage, text and --json, on samples/vector_add.s.
"""

import json
import os
import pathlib
import re
import sys

import pytest

from amdgpu_tools.asm import assemble
from amdgpu_tools.link import link
from amdgpu_tools.analysis.resources import (GENERATIONS, limits_of, occupancy,
                                             resource_usage, waves_with_sgprs,
                                             waves_with_vgprs)
from amdgpu_tools.cli.objdump import main as objdump_main
from reftools import ROCM_BITCODE, find_tool, run_tool

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import test_opencl as opencl  # noqa: E402  (its build() and cache)


# --- (a) the rules, written out independently ---------------------------------
def vgpr_waves(vgprs):
    """GFX6-9: 256 VGPRs per lane per SIMD, granule 4, at most 10 waves."""
    if vgprs <= 24:
        return 10
    return min(10, 256 // (-(-vgprs // 4) * 4))


# LLVM's SGPR occupancy tables (GCNSubtarget::getOccupancyWithNumSGPRs)
GFX7_SGPRS = [(48, 10), (56, 9), (64, 8), (72, 7), (80, 6), (104, 5)]
GFX8_SGPRS = [(80, 10), (88, 9), (100, 8), (102, 7)]


def sgpr_waves(table, sgprs):
    return next(waves for most, waves in table if sgprs <= most)


@pytest.mark.parametrize("vgprs", range(1, 257))
def test_vgpr_rule(vgprs):
    assert waves_with_vgprs(GENERATIONS[9], vgprs) == vgpr_waves(vgprs)
    assert waves_with_vgprs(GENERATIONS[6], vgprs) == vgpr_waves(vgprs)


@pytest.mark.parametrize("sgprs", range(1, 105))
def test_sgpr_rule(sgprs):
    assert waves_with_sgprs(GENERATIONS[7], sgprs) == sgpr_waves(GFX7_SGPRS, sgprs)
    assert waves_with_sgprs(GENERATIONS[6], sgprs) == sgpr_waves(GFX7_SGPRS, sgprs)
    if sgprs <= 102:
        assert waves_with_sgprs(GENERATIONS[8], sgprs) == sgpr_waves(GFX8_SGPRS, sgprs)
        assert waves_with_sgprs(GENERATIONS[9], sgprs) == sgpr_waves(GFX8_SGPRS, sgprs)


def test_65_vgprs_gfx9():
    occ = occupancy(limits_of("gfx900"), vgprs=65, sgprs=16, lds_bytes=0, workgroup_size=256)
    assert occ.waves_per_simd == 3                      # 256 // 68
    assert occ.waves_per_cu == 12 and occ.workgroups_per_cu == 3
    assert occ.limited_by == ("vgprs",)
    assert occ.to_gain_one_wave == {"vgprs": 1}         # 64 VGPRs: 4 waves
    boundary = occupancy(limits_of("gfx900"), 64, 16, 0, 256)
    assert boundary.waves_per_simd == 4
    assert boundary.to_gain_one_wave == {"vgprs": 16}   # 48 VGPRs: 5 waves


def test_lds_24k_256_items():
    # 64 KiB per CU // 24 KiB = 2 work-groups of 4 waves: 8 waves per CU, 2 per SIMD
    occ = occupancy(limits_of("gfx900"), 8, 16, 24 * 1024, 256)
    assert (occ.workgroups_per_cu, occ.waves_per_cu, occ.waves_per_simd) == (2, 8, 2)
    assert occ.limited_by == ("lds",)
    # 3 work-groups need at most 65536 // 3 = 21845 -> 21504 (512-byte blocks)
    assert occ.to_gain_one_wave == {"lds_bytes": 24 * 1024 - 21504}
    assert occupancy(limits_of("gfx900"), 8, 16, 21504, 256).waves_per_simd == 3
    assert occupancy(limits_of("gfx900"), 8, 16, 21505, 256).waves_per_simd == 2
    # GFX6 allocates in 256-byte blocks and a work-group takes at most 32 KiB
    assert occupancy(limits_of("gfx600"), 8, 16, 21760, 256).waves_per_simd == 3
    assert occupancy(limits_of("gfx600"), 8, 16, 32 * 1024 + 1, 256).waves_per_simd == 0


def test_sgpr_limited_gfx8_vs_gfx7():
    # 80 SGPRs: 10 waves on GFX8 (800 per SIMD), 6 on GFX7 (512 per SIMD)
    gfx8 = occupancy(limits_of("gfx803"), 8, 80, 0, 64)
    gfx7 = occupancy(limits_of("gfx700"), 8, 80, 0, 64)
    assert gfx8.waves_per_simd == 10 and gfx7.waves_per_simd == 6
    assert gfx7.limited_by == ("sgprs",) and gfx7.to_gain_one_wave == {"sgprs": 8}
    # one SGPR less gains a wave at each boundary
    for most, waves in GFX7_SGPRS[:-1]:
        assert occupancy(limits_of("gfx700"), 8, most, 0, 64).waves_per_simd == waves
        assert occupancy(limits_of("gfx700"), 8, most + 1, 0, 64).waves_per_simd == waves - 1
    for most, waves in GFX8_SGPRS[:-1]:
        assert occupancy(limits_of("gfx803"), 8, most, 0, 64).waves_per_simd == waves
        assert occupancy(limits_of("gfx803"), 8, most + 1, 0, 64).waves_per_simd == waves - 1
    assert occupancy(limits_of("gfx803"), 8, 89, 0, 64).to_gain_one_wave == {"sgprs": 1}


def test_vgpr_boundaries():
    for waves in range(1, 11):
        most = 256 // waves // 4 * 4
        if waves < 10:
            more = occupancy(limits_of("gfx900"), most + 1, 16, 0, 64)
            assert more.waves_per_simd == waves - (waves > 1 and vgpr_waves(most + 1) < waves)
        assert occupancy(limits_of("gfx900"), most, 16, 0, 64).waves_per_simd == min(waves, 10)


def test_workgroup_size_limits():
    # 1024 items = 16 waves: two work-groups fit the 40 wave slots of a CU
    occ = occupancy(limits_of("gfx900"), 8, 16, 0, 1024)
    assert (occ.workgroups_per_cu, occ.waves_per_cu, occ.waves_per_simd) == (2, 32, 8)
    assert occ.limited_by == ("waves",) and occ.to_gain_one_wave is None
    # 128 items = 2 waves: at most 16 work-groups (barriers) -> 32 waves
    occ = occupancy(limits_of("gfx900"), 8, 16, 0, 128)
    assert (occ.workgroups_per_cu, occ.waves_per_simd) == (16, 8)
    assert occ.limited_by == ("barriers",)
    # one-wave work-groups use no barrier: 40 of them
    assert occupancy(limits_of("gfx900"), 8, 16, 0, 64).workgroups_per_cu == 40
    # 65 VGPRs (3 waves per SIMD) with 1024-item groups: 12 slots, no work-group fits
    assert occupancy(limits_of("gfx900"), 65, 16, 0, 1024).waves_per_simd == 0


# --- (b) agreement with clang-19 ------------------------------------------------
CLANG_CONFIGS = [c for c in opencl.CONFIGS if c[0] == "clang-19" and c[1] in ("gfx803", "gfx900")]
SOURCES = sorted(p.name for p in opencl.KERNELS.glob("*.cl"))
REMARK = re.compile(r"remark:\s+(Function Name|SGPRs|VGPRs|ScratchSize \[bytes/lane\]|"
                    r"Occupancy \[waves/SIMD\]|SGPRs Spill|VGPRs Spill|"
                    r"LDS Size \[bytes/block\]): (\S+) \[-Rpass-analysis")


def clang_remarks(config, source):
    """{function: {remark: value}} from clang-19 -Rpass-analysis=kernel-resource-usage,
    with the flags test_opencl.build compiles the same source with."""
    _, cpu, opt, version = config
    clang = find_tool("clang-19")
    argv = [clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-x", "cl",
            "-cl-std=CL2.0", opt, f"-mcode-object-version={version}", "-I",
            str(opencl.KERNELS), f"--rocm-device-lib-path={ROCM_BITCODE}",
            "-Rpass-analysis=kernel-resource-usage", "-c", str(opencl.KERNELS / source),
            "-o", os.devnull]
    stderr = run_tool(argv).stderr
    functions, current = {}, None
    for key, value in REMARK.findall(stderr):
        if key == "Function Name":
            current = functions.setdefault(value, {})
        elif current is not None:
            current[key.split(" [")[0]] = int(value) if value.isdigit() else value
    return functions


@pytest.mark.llvm
@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("config", CLANG_CONFIGS, ids=opencl.config_id)
def test_agrees_with_clang_remarks(config, source):
    hsaco = opencl.build(config, source)          # skips without clang-19/ld.lld-19/device libs
    remarks = clang_remarks(config, source)
    kernels = resource_usage(hsaco.read_bytes())
    assert kernels
    for kernel in kernels:
        said = remarks[kernel.kernel]
        ours = {"SGPRs": kernel.sgprs, "VGPRs": kernel.vgprs, "ScratchSize": kernel.scratch_bytes,
                "Occupancy": kernel.waves_per_simd, "SGPRs Spill": kernel.sgpr_spills,
                "VGPRs Spill": kernel.vgpr_spills, "LDS Size": kernel.lds_bytes}
        assert ours == {k: said[k] for k in ours}, kernel.kernel
        assert kernel.target == config[1] and kernel.counts_from == "metadata"


# --- (c) the command line -------------------------------------------------------
@pytest.fixture(scope="module")
def vector_add(tmp_path_factory):
    source = (ROOT / "samples" / "vector_add.s").read_text()
    path = tmp_path_factory.mktemp("ru") / "vector_add.hsaco"
    path.write_bytes(link([assemble(source, target="gfx900")]))
    return path


def test_cli_text(vector_add, capsys):
    assert objdump_main(["--resource-usage", str(vector_add)]) == 0
    out = capsys.readouterr().out
    assert "kernel vector_add (gfx900, code object v5):" in out
    assert "  VGPRs: 4 used, 4 allocated" in out
    assert "  SGPRs: 24 used, 24 allocated" in out
    assert "8 of 10 waves per SIMD, 32 per CU (2 work-groups)" in out   # 1024-item groups
    assert "limited by: waves" in out


def test_cli_json(vector_add, capsys):
    assert objdump_main(["--resource-usage", "--json", "--lds-dynamic", "24576",
                         "--workgroup-size", "256", str(vector_add)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert {k: record[k] for k in ("kernel", "target", "vgprs", "sgprs", "lds_bytes",
                                   "scratch_bytes", "waves_per_simd")} == {
        "kernel": "vector_add", "target": "gfx900", "vgprs": 4, "sgprs": 24, "lds_bytes": 0,
        "scratch_bytes": 0, "waves_per_simd": 2}
    assert record["lds_dynamic_bytes"] == 24576 and record["limited_by"] == ["lds"]
    assert record["to_gain_one_wave"] == {"lds_bytes": 3072}


def test_cli_errors(vector_add, capsys):
    assert objdump_main(["--json", str(vector_add)]) == 2
    assert "--resource-usage" in capsys.readouterr().err
    assert objdump_main(["--resource-usage", "--json", "-d", str(vector_add)]) == 2
    assert "--json prints only --resource-usage" in capsys.readouterr().err

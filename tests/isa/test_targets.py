"""Processor table: names, aliases, generations, features and ELF mach values."""

import pytest

from amdgpu_tools.errors import TargetError
from amdgpu_tools.isa.targets import ALL_TARGETS, get_target, target_by_mach

from tests.conftest import run_tool

EXPECTED = {  # name: (generation, isa version, mach) from AMDGPUUsage's processor table
    "gfx600": (6, (6, 0, 0), 0x20), "gfx601": (6, (6, 0, 1), 0x21), "gfx602": (6, (6, 0, 2), 0x3A),
    "gfx700": (7, (7, 0, 0), 0x22), "gfx701": (7, (7, 0, 1), 0x23), "gfx702": (7, (7, 0, 2), 0x24),
    "gfx703": (7, (7, 0, 3), 0x25), "gfx704": (7, (7, 0, 4), 0x26), "gfx705": (7, (7, 0, 5), 0x3B),
    "gfx801": (8, (8, 0, 1), 0x28), "gfx802": (8, (8, 0, 2), 0x29), "gfx803": (8, (8, 0, 3), 0x2A),
    "gfx805": (8, (8, 0, 5), 0x3C), "gfx810": (8, (8, 1, 0), 0x2B), "gfx900": (9, (9, 0, 0), 0x2C),
    "gfx902": (9, (9, 0, 2), 0x2D), "gfx904": (9, (9, 0, 4), 0x2E), "gfx906": (9, (9, 0, 6), 0x2F),
    "gfx909": (9, (9, 0, 9), 0x31), "gfx90c": (9, (9, 0, 12), 0x32),
}


def test_every_processor_is_listed_once():
    assert sorted(t.name for t in ALL_TARGETS) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_processor_facts(name):
    target = get_target(name)
    assert (target.generation, target.isa_version, target.mach) == EXPECTED[name]
    assert target_by_mach(target.mach) is target


@pytest.mark.parametrize("alias, name", [
    ("tahiti", "gfx600"), ("pitcairn", "gfx601"), ("verde", "gfx601"), ("oland", "gfx602"),
    ("hainan", "gfx602"), ("kaveri", "gfx700"), ("hawaii", "gfx701"), ("kabini", "gfx703"),
    ("mullins", "gfx703"), ("bonaire", "gfx704"), ("carrizo", "gfx801"), ("iceland", "gfx802"),
    ("tonga", "gfx802"), ("fiji", "gfx803"), ("polaris10", "gfx803"), ("polaris11", "gfx803"),
    ("tongapro", "gfx805"), ("stoney", "gfx810"), ("GFX900", "gfx900"), ("gfx906:xnack-", "gfx906"),
])
def test_aliases(alias, name):
    assert get_target(alias).name == name


def test_unknown_processor_raises_target_error():
    with pytest.raises(TargetError, match="unknown processor 'gfx1030'"):
        get_target("gfx1030")


def test_features_follow_generations():
    assert not get_target("gfx600").has("flat")
    assert get_target("gfx700").has("flat")
    assert get_target("gfx803").has("dpp") and get_target("gfx803").has("inv_2pi_inline")
    assert not get_target("gfx803").has("vop3p")
    assert get_target("gfx900").has("mad_mix") and not get_target("gfx900").has("fma_mix")
    assert get_target("gfx906").has("dot_insts") and get_target("gfx906").has("fma_mix")
    assert get_target("gfx900").has("apertures") and get_target("gfx900").has("global_scratch")
    assert get_target("gfx801").supports_xnack and not get_target("gfx803").supports_xnack


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mach_agrees_with_llvm(name, tmp_path, llvm_mc19, llvm_readelf19):
    obj = tmp_path / "t.o"
    run_tool([llvm_mc19, "-triple=amdgcn-amd-amdhsa", f"-mcpu={name}", "-filetype=obj",
              "-o", str(obj)], stdin="")
    header = run_tool([llvm_readelf19, "-h", str(obj)]).stdout
    flags = next(line for line in header.splitlines() if "Flags:" in line)
    assert int(flags.split()[1].rstrip(","), 16) & 0xFF == get_target(name).mach

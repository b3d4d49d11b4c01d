"""Kernel descriptors (v3+) and amd_kernel_code_t (v2) against llvm-mc 19 / 14, case by case."""

import json

import pytest

from amdgpu_tools.elf.kernel_code import AMD_KERNEL_CODE_T_SIZE, AmdKernelCodeT, KernelCodeError
from amdgpu_tools.elf.kernel_descriptor import DirectiveError, KernelDescriptor
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.runtime.descriptors import kernel_setup
from amdgpu_tools.errors import ToolchainError

from .helpers import data_path, read_bytes

with open(data_path("kd_cases.json")) as _f:
    KD_CASES = json.load(_f)
with open(data_path("akc_cases.json")) as _f:
    AKC_CASES = json.load(_f)


def assemble_kd(case):
    """llvm-mc's -mattr=+xnack / -xnack is the target id's xnack+ / xnack-."""
    target_id = case["mcpu"] + {"+xnack": ":xnack+", "-xnack": ":xnack-"}.get(case.get("mattr"), "")
    kd = KernelDescriptor.defaults(case["mcpu"], case["version"], target_id)
    for line in case["lines"]:
        directive, value = line.split()
        kd.set(directive, int(value, 0))
    kd.finish()
    return kd.to_bytes()


def _case_id(case):
    return f"{case['mcpu']}{case.get('mattr', '')}-v{case.get('version', 2)}-" + "|".join(
        l.replace(".amdhsa_", "") for l in case["lines"])


@pytest.mark.parametrize("case", KD_CASES, ids=[_case_id(c) for c in KD_CASES])
def test_kernel_descriptor_matches_llvm_mc_19(case):
    if "error" in case:
        with pytest.raises(DirectiveError) as caught:
            assemble_kd(case)
        # our message contains llvm-mc's (ours may add the directive and the range)
        core = case["error"].split(" (")[0]
        assert core in str(caught.value), (case["error"], str(caught.value))
    else:
        assert assemble_kd(case).hex() == case["bytes"]


def test_descriptor_decodes_and_describes():
    elf = read_elf(read_bytes("vadd_gfx900_v5.o"))
    symbol = elf.symbol("vadd.kd")
    section = elf.sections[symbol.shndx]
    kd = KernelDescriptor.from_bytes(section.data[symbol.value:symbol.value + 64], "gfx900")
    assert kd.to_bytes() == section.data[symbol.value:symbol.value + 64]
    rows = dict(kd.describe())
    assert rows["kernarg_size"] == kd.fields["kernarg_size"] > 0
    assert rows["  enable_sgpr_kernarg_segment_ptr"] == 1
    assert rows["  user_sgpr_count"] == kd.implied_user_sgprs()
    with pytest.raises(ToolchainError, match="64 bytes"):
        KernelDescriptor.from_bytes(b"\0" * 10)


def test_descriptor_directive_errors_name_the_directive():
    kd = KernelDescriptor.defaults("gfx900", 5)
    with pytest.raises(DirectiveError) as caught:
        kd.set("amdhsa_dx10_clamp", 2)
    assert caught.value.directive == ".amdhsa_dx10_clamp" and "out of range" in str(caught.value)
    with pytest.raises(ToolchainError, match="code object v3"):
        KernelDescriptor.defaults("gfx900", 2)


@pytest.mark.parametrize("case", AKC_CASES, ids=[_case_id(c) for c in AKC_CASES])
def test_amd_kernel_code_t_matches_llvm_mc_14(case):
    code = AmdKernelCodeT.defaults(case["mcpu"])
    if "error" in case:
        with pytest.raises(KernelCodeError) as caught:
            for line in case["lines"]:
                key, value = (part.strip() for part in line.split("="))
                code.set(key, int(value, 0))
        assert case["error"] in str(caught.value)
        return
    for line in case["lines"]:
        key, value = (part.strip() for part in line.split("="))
        code.set(key, int(value, 0))
    assert code.to_bytes().hex() == case["bytes"]
    assert AmdKernelCodeT.from_bytes(bytes.fromhex(case["bytes"])).to_bytes() == code.to_bytes()


def test_amd_kernel_code_t_keys_and_validation():
    code = AmdKernelCodeT.defaults("gfx803")
    assert len(code.to_bytes()) == AMD_KERNEL_CODE_T_SIZE
    code.set("compute_pgm_rsrc2_user_sgpr", 6)
    assert code.get("user_sgpr_count") == 6
    with pytest.raises(KernelCodeError) as caught:
        code.set("enable_sgpr_kernarg_segment_ptr", 2)
    assert caught.value.key == "enable_sgpr_kernarg_segment_ptr" and "1 bits" in str(caught.value)
    with pytest.raises(KernelCodeError, match="call_convention"):
        code.set("call_convention", 1 << 31)
    code.set("call_convention", -5)
    assert code.get("call_convention") == -5


@pytest.mark.parametrize("mcpu", ["gfx600", "gfx700", "gfx803"])
def test_amd_kernel_code_t_defaults_print_as_llvm_mc_14(mcpu):
    with open(data_path("akc_printed.json")) as handle:
        printed = json.load(handle)[mcpu]
    ours = [f"{key} = {value}" for key, value in AmdKernelCodeT.defaults(mcpu).describe()]
    assert ours == printed


def test_v2_kernel_header_in_compiler_output():
    elf = read_elf(read_bytes("vadd_v2_gfx803.o"))
    symbol = elf.symbol("vadd")
    data = elf.sections[symbol.shndx].data[symbol.value:symbol.value + 256]
    code = AmdKernelCodeT.from_bytes(data)
    assert code.get("amd_machine_version_major") == 8
    assert code.get("kernel_code_entry_byte_offset") == 256
    assert code.get("wavefront_sgpr_count") == 9 and code.get("workitem_vgpr_count") == 6
    assert code.get("enable_sgpr_kernarg_segment_ptr") == 1


def test_kernel_setup_from_both_descriptor_kinds():
    kd = KernelDescriptor.defaults("gfx900", 5)
    for line in (".amdhsa_next_free_vgpr 9", ".amdhsa_next_free_sgpr 20",
                 ".amdhsa_user_sgpr_private_segment_buffer 1",
                 ".amdhsa_user_sgpr_kernarg_segment_ptr 1", ".amdhsa_system_vgpr_workitem_id 2",
                 ".amdhsa_system_sgpr_workgroup_id_y 1", ".amdhsa_group_segment_fixed_size 256",
                 ".amdhsa_ieee_mode 0"):
        directive, value = line.split()
        kd.set(directive, int(value))
    kd.finish()
    setup = kernel_setup(kd, 0x1100)
    assert (setup.entry_address, setup.vgpr_count, setup.sgpr_count) == (0x1100, 12, 32)
    assert setup.user_sgpr_count == 6
    assert setup.enable_sgpr_private_segment_buffer and setup.enable_sgpr_kernarg_segment_ptr
    assert not setup.enable_sgpr_dispatch_ptr
    assert setup.enable_sgpr_workgroup_id_x and setup.enable_sgpr_workgroup_id_y
    assert not setup.enable_sgpr_workgroup_id_z and setup.enable_vgpr_workitem_id == 2
    assert setup.float_mode == 0xC0 and not setup.ieee_mode and setup.dx10_clamp
    assert setup.group_segment_fixed_size == 256 and setup.wavefront_size == 64

    code = AmdKernelCodeT.defaults("gfx803")
    for key, value in [("enable_sgpr_dispatch_ptr", 1), ("enable_sgpr_grid_workgroup_count_x", 1),
                       ("user_sgpr_count", 3), ("wavefront_sgpr_count", 13),
                       ("workitem_vgpr_count", 7), ("workgroup_group_segment_byte_size", 64),
                       ("workitem_private_segment_byte_size", 16),
                       ("enable_sgpr_private_segment_wave_byte_offset", 1)]:
        code.set(key, value)
    setup = kernel_setup(code, 0x100)
    assert (setup.sgpr_count, setup.vgpr_count, setup.user_sgpr_count) == (13, 7, 3)
    assert setup.enable_sgpr_dispatch_ptr and setup.enable_sgpr_grid_workgroup_count_x
    assert setup.enable_sgpr_private_segment_wave_offset
    assert (setup.group_segment_fixed_size, setup.private_segment_fixed_size) == (64, 16)
    code.set("wavefront_sgpr_count", 0)
    code.set("granulated_wavefront_sgpr_count", 2)
    assert kernel_setup(code, 0).sgpr_count == 24
    with pytest.raises(TypeError):
        kernel_setup(object(), 0)


@pytest.mark.parametrize("mcpu", ["gfx803", "gfx900"])
def test_empty_kernel_descriptor_matches_fresh_llvm_mc_19(mcpu, tmp_path, llvm_mc19):
    """Assembled now when llvm-mc 19 is installed: an empty .amdhsa_kernel's 64 bytes."""
    from tests.conftest import run_tool
    source = tmp_path / "k.s"
    source.write_text(".text\nk:\ns_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel k\n"
                      ".amdhsa_next_free_vgpr 0\n.amdhsa_next_free_sgpr 0\n.end_amdhsa_kernel\n")
    obj = tmp_path / "k.o"
    run_tool([llvm_mc19, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-filetype=obj",
              str(source), "-o", str(obj)])
    rodata = read_elf(obj.read_bytes()).section(".rodata").data
    kd = KernelDescriptor.defaults(mcpu, 5)
    kd.set(".amdhsa_next_free_vgpr", 0)
    kd.set(".amdhsa_next_free_sgpr", 0)
    kd.finish()
    assert kd.to_bytes() == rodata


@pytest.mark.parametrize("name, mcpu, version", [("kernel_v3_gfx900.o", "gfx900", 3),
                                                 ("kernel_v4_gfx803.o", "gfx803", 4),
                                                 ("kernel_v5_gfx900.o", "gfx900", 5)])
def test_descriptor_of_kernel_source_matches_its_object(name, mcpu, version):
    """kernel_v5.s says next_free_vgpr 1, next_free_sgpr 2 (llvm-mc 14 for v3, 19 for v4/v5)."""
    kd = KernelDescriptor.defaults(mcpu, version)
    kd.set(".amdhsa_next_free_vgpr", 1)
    kd.set(".amdhsa_next_free_sgpr", 2)
    kd.finish()
    elf = read_elf(read_bytes(name))
    assert elf.code_object_version == version
    assert kd.to_bytes() == elf.section(".rodata").data
    entry = elf.relocations[".rodata"][0]
    assert (entry.offset, entry.type_name, entry.symbol.name, entry.addend) == (
        16, "R_AMDGPU_REL64", "k", 16)

"""Legacy code object v2: e_flags 0 or 0x2 (the old EF_AMDGPU_ARCH_GCN), the
processor named only by the NT_AMD_HSA_ISA note. Our assembler writes such a
header on request (``--legacy-e-flags``); objdump, the linker and the loader
accept it and the kernels run."""

import os
import subprocess
from types import SimpleNamespace

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.asm import assemble
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.errors import AsmError, LoadError, TargetError
from amdgpu_tools.isa.targets import target_of_elf
from amdgpu_tools.link import link

HERE = os.path.dirname(__file__)
CLANG_V2 = os.path.join(HERE, "..", "asm", "clang", "kernels_v2_gfx803.s")


@pytest.fixture(scope="module")
def source():
    with open(CLANG_V2) as handle:
        return handle.read()


@pytest.mark.parametrize("flags", [0, 2])
def test_legacy_header_assembles_links_loads_and_runs(source, flags):
    obj = assemble(source, target="gfx803", legacy_e_flags=flags)
    elf = read_elf(obj)
    assert elf.flags == flags and elf.isa_version == (8, 0, 3)
    assert target_of_elf(elf).name == "gfx803"
    shared = link([obj])
    assert read_elf(shared).flags == flags
    for code in (obj, shared):                 # ET_REL is linked on load
        device = Device()
        program = device.load(code)
        assert device.target.name == "gfx803"
        x = device.array(np.arange(128, dtype=np.float32))
        program["scale"](x, np.float32(2.5), grid=128, block=64)
        np.testing.assert_array_equal(x.numpy(), np.arange(128, dtype=np.float32) * 2.5)


def test_only_the_e_flags_differ_from_the_default_object(source):
    default = assemble(source, target="gfx803")
    legacy = assemble(source, target="gfx803", legacy_e_flags=2)
    assert read_elf(default).flags == 0x2A                        # EF_AMDGPU_MACH_AMDGCN_GFX803
    flags_offset = 0x30                                           # Elf64_Ehdr.e_flags
    assert default[:flags_offset] == legacy[:flags_offset]
    assert default[flags_offset + 4:] == legacy[flags_offset + 4:]


def test_a_gfx803_device_loads_it_and_a_gfx900_device_refuses(source):
    obj = link([assemble(source, target="gfx803", legacy_e_flags=0)])
    Device("gfx803").load(obj)
    with pytest.raises(LoadError, match="code object is for gfx803, but the device is gfx900"):
        Device("gfx900").load(obj)


def test_the_isa_name_note_names_the_processor_too():
    text = (".hsa_code_object_version 2,1\n.amd_amdgpu_isa \"amdgcn-amd-amdhsa--gfx803\"\n"
            ".text\nk:\n s_endpgm\n")
    elf = read_elf(assemble(text, target="gfx803", legacy_e_flags=2))
    assert elf.flags == 2 and elf.isa_version is None
    assert elf.isa_name == "amdgcn-amd-amdhsa--gfx803" and target_of_elf(elf).name == "gfx803"
    # the spelling of early ROCm releases (an environment field before the processor)
    old = SimpleNamespace(has_legacy_e_flags=True, isa_version=None, flags=2,
                          isa_name="amdgcn-amd-amdhsa-amdgizcl-gfx803")
    assert target_of_elf(old).name == "gfx803"
    with pytest.raises(TargetError, match="unknown processor 'gfx1234'"):
        target_of_elf(SimpleNamespace(has_legacy_e_flags=True, isa_version=None, flags=0,
                                      isa_name="amdgcn-amd-amdhsa--gfx1234"))


def test_legacy_e_flags_need_v2_and_an_isa_note(source):
    with pytest.raises(AsmError, match="need code object version 2, not 5"):
        assemble(".text\nk:\n s_endpgm\n", target="gfx803", legacy_e_flags=2)
    with pytest.raises(AsmError, match="no .hsa_code_object_isa directive"):
        assemble(".hsa_code_object_version 2,1\n.text\nk:\n s_endpgm\n", target="gfx803",
                 legacy_e_flags=0)
    with pytest.raises(AsmError, match="must be 0 or 0x2"):
        assemble(source, target="gfx803", legacy_e_flags=0x2A)


def test_unknown_isa_version_is_a_load_error(source):
    text = source.replace('.hsa_code_object_isa 8,0,3,"AMD","AMDGPU"',
                          '.hsa_code_object_isa 8,7,7,"AMD","AMDGPU"')
    obj = link([assemble(text, target="gfx803", legacy_e_flags=2)])
    with pytest.raises(LoadError, match="unknown ISA version 8.7.7"):
        Device().load(obj)


def test_clis_accept_the_legacy_header(source, tmp_path, capsys):
    from amdgpu_tools.cli.asm import main as as_main
    from amdgpu_tools.cli.ld import main as ld_main
    from amdgpu_tools.cli.objdump import main as objdump_main
    from amdgpu_tools.cli.run import main as run_main
    src = tmp_path / "k.s"
    src.write_text(source)
    obj, shared = tmp_path / "k.o", tmp_path / "k.hsaco"
    assert as_main(["-mcpu=gfx803", "--amdhsa-code-object-version=2", "--legacy-e-flags=0x2",
                    str(src), "-o", str(obj)]) == 0
    assert ld_main(["-shared", str(obj), "-o", str(shared)]) == 0
    capsys.readouterr()
    assert objdump_main(["-d", str(shared)]) == 0
    text = capsys.readouterr().out
    assert "v_mul_f32_e32 v2, s2, v2" in text and "flat_store_dword v[0:1], v2" in text
    assert run_main([str(shared), "--kernel", "scale", "--grid", "64", "--arg",
                     "buf:float32[64]", "--arg", "f32:2"]) == 0
    assert as_main(["-mcpu=gfx803", "--legacy-e-flags=7", str(src)]) == 2   # click: bad choice


def test_llvm_objdump_reads_our_legacy_object(source, tmp_path, llvm_objdump19):
    """llvm-objdump-19 decodes a legacy header object only when told the triple
    and processor (e_flags 0 is 'unknown', 0x2 r600 to it, even for llvm-mc-14's
    own e_flags-0 output); amdgpu-objdump reads the processor from the note."""
    path = tmp_path / "k.o"
    path.write_bytes(assemble(source, target="gfx803", legacy_e_flags=2))
    out = subprocess.run([llvm_objdump19, "-d", "--triple=amdgcn-amd-amdhsa", "--mcpu=gfx803",
                          str(path)], capture_output=True,
                         text=True, check=True).stdout
    assert "v_mul_f32_e32 v2, s2, v2" in out


def test_llvm_mc14_writes_e_flags_0_for_v2_without_mcpu(tmp_path, llvm_mc14):
    """The fact behind the option: llvm-mc-14 writes a v2 object whose e_flags
    name no processor when it is given none; the ISA note names it."""
    path = tmp_path / "v2.s"
    path.write_text('.hsa_code_object_version 2,1\n.hsa_code_object_isa 8,0,3,"AMD","AMDGPU"\n'
                    ".text\nk:\n s_endpgm\n")
    subprocess.run([llvm_mc14, "-triple=amdgcn-amd-amdhsa", "--amdhsa-code-object-version=2",
                    "-filetype=obj", str(path), "-o", str(tmp_path / "v2.o")], check=True)
    elf = read_elf((tmp_path / "v2.o").read_bytes())
    assert elf.flags == 0 and elf.isa_version == (8, 0, 3)
    assert target_of_elf(elf).name == "gfx803"

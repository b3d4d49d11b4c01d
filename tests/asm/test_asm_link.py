"""amdgpu-as objects link with ld.lld-19 into shared code objects that
llvm-readelf-19 reads without a warning; and the Python API."""

import subprocess

import pytest

import asm_goldens as goldens
from asm_objcompare import assert_same_object
from amdgpu_tools.asm import assemble
from amdgpu_tools.elf.reader import read_elf

SAMPLES = goldens.HERE.parents[1] / "samples"
PROGRAMS = [["vector_add.s"], ["saxpy.s"], ["lds_reduce.s"], ["matmul_tiled.s"],
            ["call_kernel.s", "call_function.s"], ["global_via_got.s"]]


@pytest.mark.llvm
@pytest.mark.parametrize("sources", PROGRAMS, ids=lambda s: "+".join(s))
def test_ld_lld_links_and_readelf_is_silent(sources, tmp_path, ld_lld19, llvm_readelf19):
    objects = []
    for name in sources:
        path = tmp_path / (name[:-2] + ".o")
        path.write_bytes(assemble((SAMPLES / name).read_text(), target="gfx900", filename=name))
        objects.append(str(path))
    linked = tmp_path / "program.hsaco"
    subprocess.run([ld_lld19, "-shared", *objects, "-o", str(linked)], check=True,
                   capture_output=True, text=True)
    result = subprocess.run([llvm_readelf19, "-a", "--notes", str(linked)],
                            capture_output=True, text=True)
    assert result.returncode == 0
    assert "warning" not in result.stderr.lower()
    assert "NT_AMDGPU_METADATA" in result.stdout


def test_api_detects_code_object_v2_from_directives():
    source = (SAMPLES / "hello_world.s").read_text()
    data = assemble(source, target="gfx803", filename="hello_world.s")
    assert read_elf(data).abi_version == 0
    assert_same_object(data, goldens.reference_path(SAMPLES / "hello_world.s").read_bytes())


def test_api_accepts_target_ids_and_aliases():
    data = assemble("s_endpgm\n", target="gfx900:xnack-")
    assert read_elf(data).flags == 0x22C  # gfx900 | xnack off
    assert read_elf(assemble("s_endpgm\n", target="fiji")).flags & 0xFF == 0x2A

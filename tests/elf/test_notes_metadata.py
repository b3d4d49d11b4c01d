"""Notes and metadata against what llvm-mc 14/19 and clang wrote."""

import msgpack
import pytest

from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf import metadata as M
from amdgpu_tools.elf import notes as N
from amdgpu_tools.elf.reader import read_elf

from .helpers import read_bytes, source_block


def notes_of(name):
    return read_elf(read_bytes(name)).notes


def test_v2_notes_match_llvm_mc_14():
    notes = notes_of("kernel_v2_gfx803.o")
    assert [(n.owner, n.type) for n in notes] == [("AMD", 1), ("AMD", 3), ("AMD", 10)]
    assert notes[0] == N.code_object_version_note(2, 1)
    assert notes[1] == N.isa_version_note(8, 0, 3)
    assert N.decode_code_object_version(notes[0].desc) == (2, 1)
    assert N.decode_isa_version(notes[1].desc) == {"vendor": "AMD", "arch": "AMDGPU",
                                                    "major": 8, "minor": 0, "stepping": 3}
    assert N.decode_isa_version(notes_of("kernel_v2_gfx700.o")[1].desc)["major"] == 7


def test_note_section_bytes_round_trip():
    for name in ("kernel_v2_gfx803.o", "kernel_v5_gfx900.o", "v2_metadata_full.o"):
        elf = read_elf(read_bytes(name))
        assert N.encode_notes(elf.notes) == elf.section(".note").data


def test_isa_name_note_round_trip():
    note = N.isa_name_note("amdgcn-amd-amdhsa--gfx803")
    back = N.decode_notes(N.encode_notes([note]))
    assert back == [note] and N.decode_isa_name(back[0].desc) == "amdgcn-amd-amdhsa--gfx803"
    assert note.type_name == "NT_AMD_HSA_ISA_NAME"


@pytest.mark.parametrize("source, obj", [("kernel_v5.s", "kernel_v5_gfx900.o"),
                                         ("kernel_v5.s", "kernel_v3_gfx900.o"),
                                         ("metadata_typing.s", "metadata_typing.o")])
def test_yaml_to_msgpack_matches_llvm_mc_19_bytes(source, obj):
    text = source_block(source, ".amdgpu_metadata", ".end_amdgpu_metadata")
    note = next(n for n in notes_of(obj) if n.type == C.NT_AMDGPU_METADATA)
    assert note.owner == "AMDGPU"
    assert M.yaml_source_to_msgpack(text) == note.desc
    assert N.amdgpu_metadata_note(M.yaml_source_to_msgpack(text)) == note


def test_scalar_typing_follows_llvm():
    doc = M.decode_msgpack(next(n for n in notes_of("metadata_typing.o")).desc)
    kernel = doc["amdhsa.kernels"][0]
    assert kernel[".kernarg_segment_size"] == 16          # quoted '16' is still an integer
    assert kernel[".group_segment_fixed_size"] == 0x10    # hex
    assert kernel[".private_segment_fixed_size"] == 8     # leading 0: octal
    assert kernel[".sgpr_count"] == 5                     # 0b101
    assert (kernel[".t1"], kernel[".t2"], kernel[".t3"]) == (True, False, False)
    assert kernel[".f1"] is None and kernel[".f2"] is None and kernel[".e"] is None
    assert (kernel[".n1"], kernel[".n2"]) == ("~", "null")
    assert (kernel[".neg"], kernel[".neg3"]) == (-3, -40000)
    assert kernel[".big"] == 2 ** 64 - 1
    assert kernel[".mixed"] == [1, "a", "b", True]
    assert M.type_scalar("y") is True and M.type_scalar("n") is False
    assert M.type_scalar("12a") == "12a" and M.type_scalar("0x") == "0x"


def test_metadata_errors_like_llvm_mc():
    base = ("amdhsa.version: [1, 2]\namdhsa.kernels:\n  - .name: k\n    .symbol: k.kd\n"
            "    .kernarg_segment_size: 0\n    .group_segment_fixed_size: 0\n"
            "    .private_segment_fixed_size: 0\n    .kernarg_segment_align: 4\n"
            "    .wavefront_size: 64\n    .sgpr_count: 1\n    .vgpr_count: 1\n"
            "    .max_flat_workgroup_size: 64\n")
    M.yaml_source_to_msgpack(base)
    with pytest.raises(M.MetadataError, match="duplicated mapping key '.name'"):
        M.yaml_source_to_msgpack(base + "    .name: again\n")
    with pytest.raises(M.MetadataError, match="lacks required key '.vgpr_count'"):
        M.yaml_source_to_msgpack(base.replace("    .vgpr_count: 1\n", ""))
    with pytest.raises(M.MetadataError, match=".value_kind"):
        M.yaml_source_to_msgpack(base + "    .args:\n      - .size: 8\n        .offset: 0\n"
                                 "        .value_kind: bogus\n")
    with pytest.raises(M.MetadataError, match="args"):
        M.yaml_source_to_msgpack(base + "    .args: 5\n")
    with pytest.raises(M.MetadataError, match="not valid YAML"):
        M.yaml_source_to_msgpack("amdhsa.version: [1, 2\n")
    with pytest.raises(M.MetadataError, match="amdhsa.version"):
        M.yaml_source_to_msgpack("amdhsa.kernels: []\n")


def test_v2_yaml_matches_llvm_mc_14_text():
    for source, obj in [("v2_metadata_full.s", "v2_metadata_full.o"),
                        ("v2_metadata_quoting.s", "v2_metadata_quoting.o"),
                        ("kernel_v2.s", "kernel_v2_gfx803.o")]:
        text = source_block(source, ".amd_amdgpu_hsa_metadata", ".end_amd_amdgpu_hsa_metadata")
        note = next(n for n in notes_of(obj) if n.type == C.NT_AMD_HSA_METADATA)
        assert N.hsa_metadata_note(M.v2_yaml_source_to_note_text(text)) == note


def test_v2_yaml_schema_errors():
    with pytest.raises(M.MetadataError, match="unknown key 'Bogus'"):
        M.parse_v2_yaml("Version: [1, 0]\nBogus: 1\n")
    with pytest.raises(M.MetadataError, match="lacks required key 'Version'"):
        M.parse_v2_yaml("Kernels: []\n")
    with pytest.raises(M.MetadataError, match="ValueKind"):
        M.parse_v2_yaml("Version: [1, 0]\nKernels:\n  - Name: k\n    SymbolName: k\n"
                        "    Args:\n      - Size: 4\n        Align: 4\n        ValueKind: Nope\n")


def test_v2_metadata_from_clang_14_parses_and_reemits_identically():
    note = next(n for n in notes_of("vadd_v2_gfx803.o") if n.type == C.NT_AMD_HSA_METADATA)
    text = N.decode_hsa_metadata_text(note.desc)
    assert M.v2_yaml_source_to_note_text(text) == text


def test_kernels_from_v5_compiler_output():
    kernels = {k.name: k for k in M.kernels_from_notes(notes_of("vadd_gfx900_v5.hsaco"))}
    vadd = kernels["vadd"]
    assert vadd.symbol == "vadd.kd" and vadd.code_object_version == 5
    explicit = [(a.offset, a.size, a.value_kind, a.address_space)
                for a in vadd.args if not a.is_hidden]
    assert explicit == [(0, 8, "global_buffer", "global"), (8, 8, "global_buffer", "global"),
                        (16, 8, "global_buffer", "global"), (24, 4, "by_value", None)]
    assert vadd.kernarg_segment_size >= 28 and vadd.wavefront_size == 64
    assert any(a.value_kind == "hidden_block_count_x" for a in vadd.args)
    scale = kernels["scale"]
    assert [a.value_kind for a in scale.args[:3]] == ["global_buffer", "by_value",
                                                      "dynamic_shared_pointer"]
    assert scale.args[2].address_space == "local"


def test_kernels_from_v2_compiler_output():
    kernels = M.kernels_from_notes(notes_of("vadd_v2_gfx803.hsaco"))
    assert [k.name for k in kernels] == ["vadd"]
    vadd = kernels[0]
    assert vadd.symbol == "vadd" and vadd.code_object_version == 2
    assert [(a.offset, a.size, a.value_kind) for a in vadd.args[:4]] == [
        (0, 8, "global_buffer"), (8, 8, "global_buffer"), (16, 8, "global_buffer"),
        (24, 4, "by_value")]
    assert len(vadd.args) == 4 and vadd.args[0].type_name == "float*" and vadd.args[0].is_const
    assert (vadd.kernarg_segment_size, vadd.sgpr_count, vadd.vgpr_count) == (28, 9, 6)


def test_kernels_from_v2_full_schema():
    kernel = M.kernels_from_notes(notes_of("v2_metadata_full.o"))[0]
    assert [(a.offset, a.value_kind, a.address_space, a.access) for a in kernel.args] == [
        (0, "global_buffer", "global", "read_write"), (8, "pipe", "global", None),
        (12, "dynamic_shared_pointer", "local", None), (16, "hidden_global_offset_x", None, None)]
    assert kernel.printf == ["1:1:4:%d\\n", "2:0:"]
    assert kernel.reqd_workgroup_size == [64, 1, 1]
    assert (kernel.group_segment_fixed_size, kernel.private_segment_fixed_size) == (16, 4)


def test_merge_documents():
    a = {"amdhsa.version": [1, 2], "amdhsa.kernels": [{".name": "a"}], "amdhsa.printf": ["1:0:x"]}
    b = {"amdhsa.version": [1, 2], "amdhsa.kernels": [{".name": "b"}], "amdhsa.printf": ["2:0:y"],
         "amdhsa.target": "amdgcn-amd-amdhsa--gfx900"}
    merged = M.merge_documents([a, b])
    assert [k[".name"] for k in merged["amdhsa.kernels"]] == ["a", "b"]
    assert merged["amdhsa.printf"] == ["1:0:x", "2:0:y"]
    assert merged["amdhsa.target"] == "amdgcn-amd-amdhsa--gfx900"
    assert msgpack.unpackb(M.encode_msgpack(merged)) == merged
    with pytest.raises(M.MetadataError, match="amdhsa.version"):
        M.merge_documents([a, dict(b, **{"amdhsa.version": [1, 1]})])


def test_describe_note_renders_every_kind():
    texts = [N.describe_note(n) for n in notes_of("kernel_v2_gfx803.o")]
    assert texts[0] == "code object version 2.1"
    assert "ISA 8.0.3" in texts[1] and "Kernels:" in texts[2]
    text = N.describe_note(notes_of("kernel_v5_gfx900.o")[0])
    assert "amdhsa.kernels" in text and "k.kd" in text

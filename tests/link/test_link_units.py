"""Pieces of the linker on their own: its input objects are the ELF layer's
reading (tables only, relocations decoded per section), the hash functions give the published values, target
flags combine as ld.lld combines them, and the metadata of several inputs
becomes one document."""


import pytest

from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf.notes import Note
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.errors import LinkError
from amdgpu_tools.link.dynamic import StringTable, gnu_hash, sysv_hash
from amdgpu_tools.link.objects import load_object
from amdgpu_tools.link.notes import merge_notes
from amdgpu_tools.link.target import merged_identity

from .elfview import DATA

OBJECTS = sorted(p.name for p in DATA.glob("*.o"))


@pytest.mark.parametrize("name", OBJECTS)
def test_input_objects_are_the_elf_layers_reading(name):
    """Tables-only reading gives the full reading's headers, sections and symbols;
    the relocations the linker decodes per section are the full reader's."""
    data = (DATA / name).read_bytes()
    tables, full = read_elf(data, name, contents=False), read_elf(data, name)
    assert (tables.type, tables.flags, tables.osabi, tables.abi_version) == (
        full.type, full.flags, full.osabi, full.abi_version)
    assert tables.sections == full.sections and tables.symbols == full.symbols
    assert (tables.relocations, tables.notes) == ({}, [])
    obj = load_object(data, name)
    for index, section in obj.sections.items():
        target = full.sections[index].name
        expected = [(r.offset, r.type, r.symbol_index, r.addend)
                    for r in full.relocations.get(target, [])]
        assert section.relocations == expected, target


def test_hash_functions_published_values():
    # values from the System V ABI / GNU hash descriptions: hash("") and a known name
    assert gnu_hash("") == 5381
    assert gnu_hash("printf") == 0x156B2BB8
    assert sysv_hash("") == 0
    assert sysv_hash("printf") == 0x077905A6


def test_string_table_modes():
    deduplicated, appended = StringTable(), StringTable(deduplicate=False)
    assert [deduplicated.add(s) for s in ("a", "bc", "a")] == [1, 3, 1]
    assert [appended.add(s) for s in ("a", "bc", "a")] == [1, 3, 6]
    assert appended.data() == b"\0a\0bc\0a\0"


class _Obj:
    def __init__(self, name, flags, version=5):
        self.name, self.flags, self.code_object_version = name, flags, version
        self.osabi, self.abi_version = C.ELFOSABI_AMDGPU_HSA, version - 2
        self.processor = C.processor_of_flags(flags)


def test_v4_feature_settings_combine():
    gfx900 = C.EF_AMDGPU_MACH_AMDGCN["gfx900"]
    any_, on, off = (C.EF_AMDGPU_FEATURE_XNACK_ANY_V4, C.EF_AMDGPU_FEATURE_XNACK_ON_V4,
                     C.EF_AMDGPU_FEATURE_XNACK_OFF_V4)
    objects = [_Obj("a.o", gfx900 | any_), _Obj("b.o", gfx900 | on)]
    assert merged_identity(objects)[2] == gfx900 | on
    with pytest.raises(LinkError, match="incompatible xnack settings: a.o has on but c.o has off"):
        merged_identity([_Obj("a.o", gfx900 | on), _Obj("c.o", gfx900 | off)])


def test_identity_notes_must_agree():
    version = Note("AMD", C.NT_AMD_HSA_ISA_VERSION, b"\x04\x00\x07\x00" + bytes(12) + b"AMD\0AMDGPU\0")
    other = Note("AMD", C.NT_AMD_HSA_ISA_VERSION, b"\x04\x00\x07\x00" + bytes(11) + b"\1AMD\0AMDGPU\0")
    assert merge_notes([(version, "a.o"), (version, "b.o")]) == [version]
    with pytest.raises(LinkError, match="a.o and b.o describe different targets"):
        merge_notes([(version, "a.o"), (other, "b.o")])


def test_bench_skips_without_llvm(monkeypatch, capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_link", DATA.parents[2] / "bench" / "bench_link.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(bench, "_find", lambda names: None)
    bench.main(count=3)
    assert "skipped" in capsys.readouterr().out


def test_bench_sources_reference_each_other():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_link", DATA.parents[2] / "bench" / "bench_link.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    source = bench.object_source(5, 10)
    assert "func_6@rel32@lo" in source and "g_2@gotpcrel32@lo" in source
    assert ".quad g_8" in source and ".amdhsa_kernel kern_5" in source


@pytest.mark.parametrize("names", [["cl_v5.o", "cl_v5_func.o"], ["cl_v4.o", "cl_v4_func.o"],
                                   ["v5_kernel_call.o", "v5_func.o"]])
def test_spliced_metadata_equals_decoded_merge(names):
    """Splicing kernel bytes gives what decoding, merging and re-encoding gives."""
    from amdgpu_tools.elf import metadata
    from amdgpu_tools.link.notes import merge_msgpack_documents

    descriptors = [note.desc for name in names
                   for note in read_elf((DATA / name).read_bytes(), name).notes
                   if note.type == C.NT_AMDGPU_METADATA]
    assert len(descriptors) == 2
    expected = metadata.encode_msgpack(metadata.merge_documents(
        [metadata.decode_msgpack(d) for d in descriptors]))
    assert merge_msgpack_documents(descriptors) == expected


@pytest.mark.parametrize("damage", [lambda d: d[:len(d) // 2], lambda d: d + b"\xc1",
                                    lambda d: b"\x81\x91\x01\x00"])
def test_damaged_metadata_is_a_link_error_naming_messagepack(damage):
    """Truncated, invalid and unhashable-key documents: one LinkError, not a crash."""
    from amdgpu_tools.link.notes import merge_notes as merge

    good = next(note for note in read_elf((DATA / "cl_v5.o").read_bytes(), "cl_v5.o").notes
                if note.type == C.NT_AMDGPU_METADATA)
    bad = Note(good.owner, good.type, damage(good.desc))
    with pytest.raises(LinkError, match="not valid MessagePack"):
        merge([(good, "a.o"), (bad, "b.o")])

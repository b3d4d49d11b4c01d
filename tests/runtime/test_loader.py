"""Loading code objects: properties of real compiler output, and one clear
LoadError for every class of malformed input."""

import struct

import msgpack
import pytest

from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf.metadata import kernels_from_notes
from amdgpu_tools.elf.notes import Note, hsa_metadata_note
from amdgpu_tools.errors import ElfFormatError, LoadError, ToolchainError
from amdgpu_tools.runtime.api import Device
from amdgpu_tools.runtime.codeobject import parse_code_object
from amdgpu_tools.runtime.hsa import Agent

from .conftest import FakeExecutor, read_data


def _load(data, target=None):
    return Agent(target, FakeExecutor()).load(data)


def test_v2_kernel_without_metadata_local_symbol():
    loaded = _load(read_data("hello_world_v2.hsaco"))
    assert loaded.target.name == "gfx803"
    kernel = loaded.kernels["hello_world"]
    assert kernel.code_object_version == 2
    assert kernel.args is None                      # no metadata: arguments unknown
    assert kernel.kernarg_size == 8
    assert kernel.setup.enable_sgpr_kernarg_segment_ptr
    assert kernel.setup.user_sgpr_count == 2
    assert (kernel.sgpr_count, kernel.vgpr_count) == (2, 3)
    assert kernel.setup.entry_address == kernel.kernel_object + 256


def test_v3_clang14_kernels():
    loaded = _load(read_data("kernels_v3_gfx900.hsaco"))
    assert loaded.code.elf.abi_version == 1
    hello = loaded.kernels["hello"]
    assert hello.code_object_version == 3 and hello.symbol == "hello.kd"
    assert {a.value_kind: a.offset for a in hello.hidden_args}["hidden_printf_buffer"] == 40
    assert hello.printf_formats[1].format == "hello %d %f %s\n"


def test_v2_kernels_with_yaml_metadata():
    kernels = _load(read_data("kernels_v2_gfx803.hsaco")).kernels
    assert set(kernels) == {"vadd", "scale", "hello"}
    vadd = kernels["vadd"]
    assert [(a.offset, a.size, a.value_kind) for a in vadd.args] == [
        (0, 8, "global_buffer"), (8, 8, "global_buffer"), (16, 8, "global_buffer"),
        (24, 4, "by_value")]
    assert vadd.setup.enable_sgpr_dispatch_ptr
    hello = kernels["hello"]
    hidden = [(a.offset, a.value_kind) for a in hello.hidden_args]
    assert hidden[:4] == [(16, "hidden_global_offset_x"), (24, "hidden_global_offset_y"),
                          (32, "hidden_global_offset_z"), (40, "hidden_printf_buffer")]
    assert hidden[-1] == (64, "hidden_multigrid_sync_arg")
    assert hello.printf_formats[1].format == "hello %d %f %s\n"
    assert hello.printf_formats[1].arg_sizes == (4, 4, 4)
    assert kernels["scale"].explicit_args[1].size == 8


@pytest.mark.parametrize("name,version,target", [
    ("kernels_v4_gfx900.hsaco", 4, "gfx900"), ("kernels_v5_gfx900.hsaco", 5, "gfx900"),
    ("kernels_v4_gfx803.hsaco", 4, "gfx803")])
def test_v4_v5_kernels(name, version, target):
    loaded = _load(read_data(name))
    assert loaded.target.name == target
    assert set(loaded.kernels) == {"vadd", "saxpy", "reduce", "geometry", "fill64", "lookup",
                                     "generic_pointers"}
    reduce = loaded.kernels["reduce"]
    assert reduce.code_object_version == version
    assert reduce.symbol == "reduce.kd"
    kinds = [a.value_kind for a in reduce.explicit_args]
    assert kinds == ["global_buffer", "global_buffer", "dynamic_shared_pointer"]
    assert reduce.explicit_args[2].size == 4
    assert reduce.wavefront_size == 64 and reduce.max_flat_workgroup_size == 256
    geometry = loaded.kernels["geometry"]
    hidden = {a.value_kind: a.offset for a in geometry.hidden_args}
    if version == 5:
        assert hidden["hidden_block_count_x"] == 8 and hidden["hidden_group_size_x"] == 20
        assert geometry.kernarg_size >= 256
    else:
        assert hidden["hidden_global_offset_x"] == 8


def test_device_target_must_match():
    with pytest.raises(LoadError, match="code object is for gfx803, but the device is gfx900"):
        _load(read_data("hello_world_v2.hsaco"), "gfx900")


def test_default_target_is_the_code_objects():
    device = Device(executor=FakeExecutor())
    device.load(read_data("kernels_v5_gfx900.hsaco"))
    assert device.target.name == "gfx900"
    with pytest.raises(LoadError, match="gfx803"):
        device.load(read_data("kernels_v4_gfx803.hsaco"))


# ------------------------------------------------------------- malformed input
def _patch(data, offset, raw):
    data = bytearray(data)
    data[offset:offset + len(raw)] = raw
    return bytes(data)


V5 = read_data("kernels_v5_gfx900.hsaco")
V2 = read_data("kernels_v2_gfx803.hsaco")


def _metadata_note_offset(data):
    """File offset of the msgpack descriptor of the NT_AMDGPU_METADATA note."""
    code = parse_code_object(data)
    desc = [n.desc for n in code.elf.notes if n.type == C.NT_AMDGPU_METADATA][0]
    return data.index(desc), len(desc)


@pytest.mark.parametrize("data,message", [
    (b"", "code object: truncated file: 0 bytes"),
    (b"\x7fELF", "code object: truncated file: 4 bytes"),
    (V5[:40], "code object: truncated file: .* ELF64 header"),
    (V5[:200], "code object: truncated file: section header table"),
    (b"MZ" + V5[2:], "code object: not an ELF file"),
    (_patch(V5, 4, b"\x01"), "unsupported ELF class 1 .*ELF64"),
    (_patch(V5, 18, struct.pack("<H", 62)), "not an AMDGPU object: e_machine is 62"),
    (_patch(V5, 7, b"\x00"), "wrong OS/ABI 0"),
    (_patch(V5, 8, b"\x09"), "unsupported ABI version 9"),
    (_patch(V5, 16, struct.pack("<H", 2)), "neither a shared nor a relocatable"),
    (_patch(V5, 32, struct.pack("<Q", 1 << 40)), "truncated file: program header table"),
    (_patch(V5, 40, struct.pack("<Q", len(V5) - 10)), "truncated file: section header table"),
    (_patch(V5, 48, struct.pack("<I", 0x2A)), "code object is for gfx803, but the device is gfx900"),
    (_patch(V5, 48, struct.pack("<I", 0x7F)), "unknown processor"),
])
def test_malformed_headers(data, message):
    with pytest.raises(LoadError, match=message):
        _load(data, "gfx900")


def test_segment_past_end_of_file():
    code = parse_code_object(V5)
    # program header 1 (the first PT_LOAD) file size made huge
    ph = struct.unpack_from("<Q", V5, 32)[0]
    for i in range(8):
        p_type = struct.unpack_from("<I", V5, ph + 56 * i)[0]
        if p_type == 1:
            bad = _patch(V5, ph + 56 * i + 32, struct.pack("<Q", 1 << 30))
            break
    with pytest.raises(LoadError, match="segment 1: offset .* past the end of the file"):
        _load(bad)
    assert code.segments


def test_missing_metadata():
    offset, size = _metadata_note_offset(V5)
    # the note header's type field sits 4 bytes before the 8-byte name "AMDGPU\0\0"
    bad = _patch(V5, offset - 8 - 4, struct.pack("<I", 99))
    with pytest.raises(LoadError, match="missing metadata"):
        _load(bad)


def test_malformed_msgpack_metadata():
    offset, size = _metadata_note_offset(V5)
    with pytest.raises(LoadError, match="malformed metadata"):
        _load(_patch(V5, offset, b"\xc1" * size))


def test_metadata_naming_an_undefined_descriptor():
    offset, size = _metadata_note_offset(V5)
    document = msgpack.unpackb(V5[offset:offset + size])
    document["amdhsa.kernels"][0][".symbol"] = "zadd.kd"   # same length, undefined
    raw = msgpack.packb(document)
    assert len(raw) == size
    with pytest.raises(LoadError, match="descriptor symbol 'zadd.kd' is not defined"):
        _load(_patch(V5, offset, raw))


def _v2_kernels(kernel_yaml):
    """The kernels of a v2 metadata note holding one kernel (YAML flow style)."""
    text = f"Version: [ 1, 0 ]\nKernels: [ {kernel_yaml} ]\n"
    return kernels_from_notes([hsa_metadata_note(text)])


@pytest.mark.parametrize("kernel,message", [
    ("{Name: k, SymbolName: k, Args: [ {Size: 4, Align: 3, ValueKind: ByValue} ]}",
     "argument 0 Align 3 is not a power of two"),
    ("{Name: k, SymbolName: k, Args: [ {Align: 4, ValueKind: ByValue} ]}",
     "lacks required key 'Size'"),
    ("{SymbolName: k, Args: []}", "lacks required key 'Name'"),
    ("{Name: k, SymbolName: k, Args: 7}", "Args must be a sequence"),
    ("{Name: k, SymbolName: k, Args: [ {Size: 4, Align: 4} ]}",
     "lacks required key 'ValueKind'"),
    ("{Name: k, SymbolName: k, Args: [ {Size: 4, Align: 4, ValueKind: Bytes} ]}",
     "ValueKind is 'Bytes', expected one of"),
    ("{Name: k, SymbolName: k, CodeProps: {KernargSegmentSize: 0, GroupSegmentFixedSize: 0,"
     " PrivateSegmentFixedSize: 0, KernargSegmentAlign: 8, WavefrontSize: 64,"
     " NumSGPRs: x}}", "NumSGPRs is 'x', expected an unsigned integer"),
    ("{Name: k, SymbolName: k, CodeProps: {NumSGPRs: 8}}",
     "CodeProps lacks required key 'KernargSegmentSize'"),
    ("{Name: [1, 2", "not valid YAML"),
])
def test_malformed_v2_metadata(kernel, message):
    with pytest.raises(ElfFormatError, match=message):
        _v2_kernels(kernel)


def test_malformed_v2_metadata_in_a_code_object_is_a_load_error():
    good, bad = b"ValueKind:       GlobalBuffer", b"ValueKind:       GlobalBuffez"
    assert good in V2
    with pytest.raises(LoadError, match="malformed metadata: NT_AMD_HSA_METADATA: .*"
                                        "GlobalBuffez"):
        _load(V2.replace(good, bad, 1))


def test_v2_metadata_offsets_follow_alignment():
    (kernel,) = _v2_kernels(
        "{Name: k, SymbolName: k, Args: [ {Size: 4, Align: 4, ValueKind: ByValue},"
        " {Size: 8, Align: 8, ValueKind: GlobalBuffer},"
        " {Size: 8, Align: 8, ValueKind: HiddenMultiGridSyncArg} ]}")
    assert [(a.offset, a.value_kind) for a in kernel.args] == [
        (0, "by_value"), (8, "global_buffer"), (16, "hidden_multigrid_sync_arg")]


@pytest.mark.parametrize("change,message", [
    (lambda doc: doc.update({"amdhsa.kernels": 7}), "amdhsa.kernels is 7, expected a list"),
    (lambda doc: doc["amdhsa.kernels"].append(3), "kernel 1 is 3, expected a map"),
    (lambda doc: doc["amdhsa.kernels"][0].pop(".name"), "kernel 0 .name is missing"),
    (lambda doc: doc["amdhsa.kernels"][0].pop(".symbol"), "kernel 'k' .symbol is missing"),
    (lambda doc: doc["amdhsa.kernels"][0][".args"][0].pop(".value_kind"),
     "kernel 'k' argument 0 .value_kind is missing"),
    (lambda doc: doc["amdhsa.kernels"][0][".args"][0].update({".offset": -8}),
     "argument 0 .offset is -8, expected a non-negative integer"),
    (lambda doc: doc["amdhsa.kernels"][0].update({".wavefront_size": True}),
     ".wavefront_size is True"),
    (lambda doc: doc.update({"amdhsa.version": {"a": 1}}),
     r"amdhsa.version is \{'a': 1\}, expected \[major, minor\]"),
    (lambda doc: doc.update({"amdhsa.printf": "1:0:x"}), "amdhsa.printf is '1:0:x'"),
])
def test_malformed_v3_metadata(change, message):
    document = {"amdhsa.version": [1, 2], "amdhsa.kernels": [
        {".name": "k", ".symbol": "k.kd", ".args": [
            {".offset": 0, ".size": 8, ".value_kind": "global_buffer"}]}]}
    change(document)
    with pytest.raises(ElfFormatError, match=message):
        kernels_from_notes([Note("AMDGPU", C.NT_AMDGPU_METADATA, msgpack.packb(document))])


def test_unknown_kernel_is_a_launch_error():
    device = Device(executor=FakeExecutor())
    program = device.load(V2)
    with pytest.raises(ToolchainError, match=r"no kernel named 'nope'.*kernels: hello, scale, vadd"):
        program["nope"]


def test_loading_a_missing_file():
    with pytest.raises(ToolchainError, match="cannot read"):
        Device().load("/nonexistent/k.hsaco")


def test_segments_are_mapped_at_the_load_base():
    agent = Agent(None, FakeExecutor())
    loaded = agent.load(V5)
    code = loaded.code
    relocated = {r.offset + k for r in code.relocations for k in range(8)}
    for segment in code.segments:
        mapped = agent.memory.read(loaded.base + segment.vaddr, segment.filesz)
        original = V5[segment.offset:segment.offset + segment.filesz]
        kept = [i for i in range(segment.filesz) if segment.vaddr + i not in relocated]
        assert [mapped[i] for i in kept] == [original[i] for i in kept]


def test_relative_relocations_are_applied():
    """The constant pointer table of kernel 'lookup' holds load-base-relative addresses."""
    agent = Agent(None, FakeExecutor())
    loaded = agent.load(V5)
    relocations = loaded.code.relocations
    assert [r.type for r in relocations] == [13, 13]          # R_AMDGPU_RELATIVE64
    for reloc in relocations:
        assert agent.memory.read_u64(loaded.base + reloc.offset) == loaded.base + reloc.addend
    # the addends point at the two value tables: 10, 20, 30, 40 and 50, 60, 70, 80
    first = agent.memory.read(loaded.base + relocations[0].addend, 16)
    second = agent.memory.read(loaded.base + relocations[1].addend, 16)
    assert struct.unpack("<4i", first) == (10, 20, 30, 40)
    assert struct.unpack("<4i", second) == (50, 60, 70, 80)


def test_abs64_relocations_resolve_against_dynamic_symbols():
    agent = Agent(None, FakeExecutor())
    loaded = agent.load(read_data("abs64_v5.hsaco"))
    code = loaded.code
    value = code.symbols["value"].value
    table = code.symbols["table"].value
    assert [r.type for r in code.relocations] == [3, 3]         # R_AMDGPU_ABS64
    assert agent.memory.read_u64(loaded.base + table) == loaded.base + value
    assert agent.memory.read_u64(loaded.base + table + 8) == loaded.base + value + 4
    assert struct.unpack("<2i", agent.memory.read(loaded.base + value, 8)) == (1, 2)


@pytest.mark.parametrize("name", ["kernels_v5_gfx900.hsaco", "kernels_v2_gfx803.hsaco",
                                  "abs64_v5.hsaco", "hello_world_v2.hsaco"])
def test_corrupted_code_objects_fail_only_with_toolchain_errors(name):
    """Random byte changes and truncations: a clean load or one LoadError."""
    import random
    data = read_data(name)
    rng = random.Random(name)
    for _ in range(150):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            mutated[rng.randrange(min(len(mutated), 4096))] = rng.randrange(256)
        if rng.random() < 0.2:
            mutated = mutated[:rng.randrange(len(mutated))]
        try:
            Agent(None, FakeExecutor()).load(bytes(mutated))
        except LoadError:
            pass


def test_non_integer_code_property_is_malformed_metadata():
    offset, size = _metadata_note_offset(V5)
    document = msgpack.unpackb(V5[offset:offset + size])
    kernel = document["amdhsa.kernels"][0]
    del kernel[".language"]                 # room for the longer bad value
    kernel[".sgpr_count"] = "x"
    for pad in range(64):                   # same size again, so the note layout holds
        kernel[".pad"] = "p" * pad
        raw = msgpack.packb(document)
        if len(raw) == size:
            break
    assert len(raw) == size
    patched = _patch(V5, offset, raw)
    with pytest.raises(LoadError, match="malformed metadata: NT_AMDGPU_METADATA: kernel "
                                        "'.*' .sgpr_count is 'x', expected a non-negative"):
        _load(patched)


def test_v2_target_from_the_isa_note_when_e_flags_has_none():
    hello = read_data("hello_world_v2.hsaco")
    no_mach = _patch(hello, 48, struct.pack("<I", 0))
    assert _load(no_mach).target.name == "gfx803"
    code = parse_code_object(hello)
    assert code.isa_version == (8, 0, 3)


@pytest.mark.llvm
def test_recorded_code_objects_are_reproducible(tmp_path, clang19, clang14, llvm_mc14,
                                                llvm_mc19, ld_lld19):
    """tests/runtime/data/build.py rebuilds every recorded object byte for byte."""
    import importlib.util
    import os
    from .conftest import DATA
    spec = importlib.util.spec_from_file_location("build", os.path.join(DATA, "build.py"))
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    build.main(str(tmp_path))
    for name in build.OBJECTS:
        assert (tmp_path / name).read_bytes() == read_data(name), name

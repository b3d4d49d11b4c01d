"""What the linked code does, checked from first principles (no LLVM needed):
calls and GOT loads reach their targets, kernel descriptors point at their
kernels, metadata of all inputs is merged into one document, archives and
in-memory inputs link like files."""

import struct

import pytest

from amdgpu_tools.link import link

from .elfview import View, data_path, read_data

R_AMDGPU_ABS64, R_AMDGPU_RELATIVE64 = 3, 13


def literal(view: View, address: int) -> int:
    """The 32-bit literal of the SOP2 instruction at ``address``."""
    return struct.unpack("<I", view.read(address + 4, 4))[0]


def pc_relative_target(view: View, getpc: int) -> int:
    """Where s_getpc_b64 + s_add_u32 sym@rel32@lo+4 + s_addc_u32 sym@rel32@hi+12 point.

    s_getpc_b64 returns its own address + 4; each literal holds S + A - P
    with P its own address, which makes both halves S - (getpc + 4).
    """
    low, high = literal(view, getpc + 4), literal(view, getpc + 12)
    return (getpc + 4 + (low | high << 32)) & (1 << 64) - 1


@pytest.fixture(scope="module")
def call():
    return View(link([data_path("v5_kernel_call.o"), data_path("v5_func.o")]))


def test_kernel_calls_function_in_other_object(call):
    # caller: s_getpc_b64 at +0; the relocation targets helper + 4 from each field
    assert pc_relative_target(call, call.address("caller")) == call.address("helper")


def test_global_through_got_hidden_is_relative(call):
    slot = pc_relative_target(call, call.address("caller") + 0x18)
    relocations = {offset: (kind, name, addend)
                   for offset, kind, name, addend in call.dynamic_relocations()}
    assert relocations[slot] == (R_AMDGPU_RELATIVE64, "", call.address("counter"))


def test_global_through_got_exported_is_symbolic(call):
    slot = pc_relative_target(call, call.address("caller") + 0x34)
    relocations = {offset: (kind, name, addend)
                   for offset, kind, name, addend in call.dynamic_relocations()}
    assert relocations[slot] == (R_AMDGPU_ABS64, "table", 0)


def test_patched_bytes_match_lld_at_the_same_layout():
    """Merged notes move the code; with ld.lld's note layout the bytes are ld.lld's."""
    ours = View(link([data_path("v5_kernel_call.o"), data_path("v5_func.o")], merge_notes=False))
    lld = View(read_data("call.lld.so"))
    assert ours.contents(".text") == lld.contents(".text")
    assert ours.contents(".got") == lld.contents(".got")


def test_metadata_merged_into_one_document(call):
    lld = View(read_data("call.lld.so"))
    documents = call.metadata_documents()
    assert len(documents) == 1
    expected = lld.metadata_documents()
    assert len(expected) == 2  # ld.lld concatenates: the difference we make on purpose
    assert documents[0]["amdhsa.kernels"] == (expected[0]["amdhsa.kernels"]
                                              + expected[1]["amdhsa.kernels"])
    assert documents[0]["amdhsa.version"] == expected[0]["amdhsa.version"]


@pytest.mark.parametrize("inputs,reference", [
    (["cl_v5.o", "cl_v5_func.o"], "cl_v5.lld.so"),
    (["cl_v4.o", "cl_v4_func.o"], "cl_v4.lld.so"),
    (["v5_kernel_call.o", "v5_func.o"], "call.lld.so"),
])
def test_merged_link_agrees_with_lld_on_symbols_and_relocation_kinds(inputs, reference):
    ours = View(link([data_path(name) for name in inputs]))
    lld = View(read_data(reference))
    assert [s[0] for s in ours.symbols(".dynsym")] == [s[0] for s in lld.symbols(".dynsym")]
    assert ([(kind, name) for _, kind, name, _ in ours.dynamic_relocations()]
            == [(kind, name) for _, kind, name, _ in lld.dynamic_relocations()])
    kernels = [k[".name"] for d in ours.metadata_documents() for k in d["amdhsa.kernels"]]
    assert kernels == [k[".name"] for d in lld.metadata_documents() for k in d["amdhsa.kernels"]]


@pytest.mark.parametrize("inputs", [["cl_v5.o", "cl_v5_func.o"], ["cl_v4.o", "cl_v4_func.o"],
                                    ["v5_kernel_call.o", "v5_func.o"]])
def test_kernel_descriptor_entry_offsets(inputs):
    view = View(link([data_path(name) for name in inputs]))
    for document in view.metadata_documents():
        for kernel in document["amdhsa.kernels"]:
            descriptor = view.address(kernel[".symbol"])
            offset = struct.unpack("<q", view.read(descriptor + 16, 8))[0]
            assert descriptor + offset == view.address(kernel[".name"])


def test_v2_amd_kernel_code_t_at_kernel_symbol():
    view = View(link([data_path("v2_kernel.o")]))
    kernel = view.address("kern2")
    assert kernel % 256 == 0
    major, minor = struct.unpack("<II", view.read(kernel, 8))
    entry_offset = struct.unpack("<q", view.read(kernel + 16, 8))[0]
    assert (major, minor, entry_offset) == (1, 2, 256)
    # s_load_dwordx2 s[0:1], s[4:5], 0x0 (GFX8 SMEM) follows the 256-byte header
    assert view.read(kernel + 256, 8) == bytes.fromhex("020006c0" "00000000")


def test_v2_yaml_metadata_merged():
    view = View(link([data_path("cl_v2.o"), data_path("v2_kernel.o")]))
    notes = [(owner, kind) for owner, kind, _ in view.notes()]
    assert notes.count(("AMD", 1)) == 1 and notes.count(("AMD", 3)) == 1
    (document,) = view.metadata_documents()
    assert [k["Name"] for k in document["Kernels"]] == ["add_one"]
    assert document["Version"] == [1, 0]


def test_v2_yaml_documents_of_two_objects_merged():
    view = View(link([data_path("cl_v2.o"), data_path("cl_v2_b.o")]))
    lld = View(read_data("cl_v2_two.lld.so"))
    kinds = [(owner, kind) for owner, kind, _ in view.notes()]
    assert sorted(kinds) == sorted(set(kinds))  # each v2 note once
    assert set(kinds) == {(owner, kind) for owner, kind, _ in lld.notes()}
    (document,) = view.metadata_documents()
    first, second = lld.metadata_documents()
    assert document["Kernels"] == first["Kernels"] + second["Kernels"]
    assert [k["Name"] for k in document["Kernels"]] == ["add_one", "scale_two"]
    assert document["Version"] == first["Version"]


def test_abs32_relocations_against_constants():
    view = View(link([data_path("v5_abs32.o")]))
    start = view.address("k32")
    assert [literal(view, start + 8 * n) for n in range(3)] == [0x23456789, 0x1, 0]
    assert view.contents(".data") == struct.pack("<I", 7)


def test_archive_member_extracted_on_demand():
    from_archive = link([data_path("v5_kernel_call.o"), data_path("libfunc.a")])
    from_objects = link([data_path("v5_kernel_call.o"), data_path("v5_func.o")])
    assert View(from_archive).contents(".text") == View(from_objects).contents(".text")
    assert from_archive == from_objects


def test_unneeded_archive_member_is_not_linked():
    view = View(link([data_path("v5_symbols.o"), data_path("libfunc.a")]))
    assert view.section(".symtab").get_symbol_by_name("helper") is None


def test_bytes_inputs_link_like_paths():
    names = ["cl_v5.o", "cl_v5_func.o"]
    assert link([read_data(n) for n in names]) == link([data_path(n) for n in names])


def test_single_input_notes_are_copied_verbatim():
    ours = View(link([data_path("cl_v2.o")]))
    lld = View(read_data("cl_v2.lld.so"))
    assert ours.contents(".note") == lld.contents(".note")


def test_printf_strings_reached_from_code():
    """Each printf string is kept once (the layout is ld.lld's, see
    test_link_merge); every code reference must still reach its string."""
    from elftools.elf.elffile import ELFFile

    names = ["cl_printf.o", "cl_printf2.o"]
    view = View(link([data_path(n) for n in names]))
    text = view.section(".text")["sh_addr"]
    checked = 0
    for name in names:
        obj = ELFFile(open(data_path(name), "rb"))
        symtab = obj.get_section_by_name(".symtab")
        strings = obj.get_section_by_name(".rodata.str1.1").data()
        for rel in obj.get_section_by_name(".rela.text").iter_relocations():
            symbol = symtab.get_symbol(rel["r_info_sym"])
            if rel["r_info_type"] != 10 or not symbol.name.startswith(".str"):
                continue
            expected = strings[symbol["st_value"]:strings.index(b"\0", symbol["st_value"]) + 1]
            getpc = text + rel["r_offset"] - 8
            target = pc_relative_target(view, getpc) - rel["r_addend"] + 4
            assert view.read(target, len(expected)) == expected
            checked += 1
        text += -(-obj.get_section_by_name(".text")["sh_size"] // 256) * 256
    assert checked == 3


def test_debug_info_relocated_like_lld():
    """DWARF from clang -g: addresses and cross-section offsets patched as ld.lld
    patches them, and every string offset names the same string."""
    ours = View(link([data_path("cl_v5_debug.o"), data_path("cl_v5_func_debug.o")],
                     merge_notes=False))
    lld = View(read_data("cl_v5_debug.lld.so"))
    for name in (".text", ".rodata", ".data", ".dynsym", ".debug_info", ".debug_abbrev",
                 ".debug_addr", ".debug_frame", ".debug_loclists"):
        assert ours.contents(name) == lld.contents(name), name
    assert _debug_strings(ours) == _debug_strings(lld)


def _debug_strings(view: View) -> list[bytes]:
    """The string each .debug_str_offsets entry names (DWARF 5 contributions)."""
    table, strings, found, at = (view.contents(".debug_str_offsets"),
                                 view.contents(".debug_str"), [], 0)
    while at < len(table):
        length = struct.unpack_from("<I", table, at)[0]
        for (offset,) in struct.iter_unpack("<I", table[at + 8:at + 4 + length]):
            found.append(strings[offset:strings.index(b"\0", offset)])
        at += 4 + length
    assert found
    return found


def test_symbol_resolution_rules():
    view = View(link([data_path("sym_weak_a.o"), data_path("sym_strong_b.o")]))
    data = view.section(".data")
    read_int = lambda name: struct.unpack("<I", view.read(view.address(name), 4))[0]
    assert read_int("chosen") == 2          # strong beats weak
    assert read_int("weak_both") == 10      # of two weak definitions the first stays
    common = view.symbol("shared_block")
    assert common["st_size"] == 24 and common["st_value"] % 8 == 0   # largest, strictest
    assert view.section(".bss")["sh_addr"] <= common["st_value"]
    assert data["sh_addr"] <= view.address("guarded") < data["sh_addr"] + data["sh_size"]
    relocations = {name: kind for _, kind, name, _ in view.dynamic_relocations()}
    assert relocations == {"chosen": R_AMDGPU_ABS64, "weak_both": R_AMDGPU_ABS64,
                           "shared_block": R_AMDGPU_ABS64, "": R_AMDGPU_RELATIVE64}

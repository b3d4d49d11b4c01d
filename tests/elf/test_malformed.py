"""Malformed input, class by class: each is one ElfFormatError naming the file."""

import random
import struct

import pytest

from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf.metadata import kernels_from_notes
from amdgpu_tools.elf.notes import Note, decode_notes
from amdgpu_tools.elf.reader import read_elf, read_elf_file
from amdgpu_tools.elf.structs import Elf64_Ehdr, Elf64_Rela, Elf64_Shdr, Elf64_Sym
from amdgpu_tools.errors import ElfFormatError

from .helpers import read_bytes

GOOD = read_bytes("symbols_relocs.o")        # ET_REL with symbols and relocations
LINKED = read_bytes("vadd_gfx900_v5.hsaco")  # ET_DYN with program headers


def header(data):
    return Elf64_Ehdr.unpack(data, 0)


def with_header(data, **fields):
    values = dict(header(data), **fields)
    return Elf64_Ehdr.pack(**values) + data[Elf64_Ehdr.size:]


def section_index(data, name):
    elf = read_elf(data)
    return elf.section(name).index


def with_section(data, index, **fields):
    """``data`` with fields of section header ``index`` replaced."""
    at = header(data)["e_shoff"] + index * Elf64_Shdr.size
    row = dict(Elf64_Shdr.unpack(data, at), **fields)
    return data[:at] + Elf64_Shdr.pack(**row) + data[at + Elf64_Shdr.size:]


def patch(data, offset, raw):
    return data[:offset] + raw + data[offset + len(raw):]


def symbol_offset(data, number):
    symtab = read_elf(data).section(".symtab")
    return symtab.offset + number * Elf64_Sym.size


def expect_error(data, *fragments):
    with pytest.raises(ElfFormatError) as caught:
        read_elf(data, "bad.o")
    message = str(caught.value)
    assert message.startswith("bad.o: "), message
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_empty_and_tiny_files():
    expect_error(b"", "truncated", "too short")
    expect_error(b"\x7fEL", "too short")
    expect_error(GOOD[:10], "truncated", "10 bytes is too short")
    expect_error(b"MZ" + GOOD[2:10], "bad magic")


def test_bad_magic():
    expect_error(b"MZ" + GOOD[2:], "not an ELF file")


def test_elf32_is_refused():
    expect_error(patch(GOOD, 4, b"\x01"), "ELF class 1", "ELF64")


def test_big_endian_is_refused():
    expect_error(patch(GOOD, 5, b"\x02"), "data encoding 2", "little-endian")


def test_wrong_machine():
    expect_error(with_header(GOOD, e_machine=62), "e_machine is 62", "EM_AMDGPU")


def test_unsupported_type():
    expect_error(with_header(GOOD, e_type=4), "unsupported ELF type 4")


def test_truncated_header():
    expect_error(GOOD[:40], "truncated", "ELF64 header")


def test_section_table_past_end():
    expect_error(with_header(GOOD, e_shoff=len(GOOD) - 10), "section header table", "past the end")


def test_truncated_file_cuts_section_table():
    expect_error(GOOD[:-1], "section header table")


def test_bad_section_entry_size():
    expect_error(with_header(GOOD, e_shentsize=40), "e_shentsize 40")


def test_shstrndx_out_of_range():
    expect_error(with_header(GOOD, e_shstrndx=99), "e_shstrndx 99")


def test_section_data_past_end():
    index = section_index(GOOD, ".text")
    expect_error(with_section(GOOD, index, sh_offset=len(GOOD) + 100), "section 2", "past the end")
    expect_error(with_section(GOOD, index, sh_size=1 << 40), "section 2", "past the end")


def test_section_name_past_string_table():
    expect_error(with_section(GOOD, 2, sh_name=100000), "name of section 2", "past the end")


def test_string_without_terminator():
    strtab = read_elf(GOOD).section(".strtab")
    last = strtab.offset + strtab.size - 1
    data = patch(GOOD, last, b"x")
    expect_error(data, "not NUL-terminated")


def test_symbol_table_size_not_multiple():
    index = section_index(GOOD, ".symtab")
    size = read_elf(GOOD).section(".symtab").size
    expect_error(with_section(GOOD, index, sh_size=size - 5), "not a multiple of the symbol size")


def test_symbol_table_link_invalid():
    index = section_index(GOOD, ".symtab")
    expect_error(with_section(GOOD, index, sh_link=77), "sh_link 77")


def test_symbol_name_past_string_table():
    at = symbol_offset(GOOD, 2)
    expect_error(patch(GOOD, at, struct.pack("<I", 99999)), "name of symbol 2", "past the end")


def test_symbol_section_index_out_of_range():
    at = symbol_offset(GOOD, 2) + 6        # st_shndx
    expect_error(patch(GOOD, at, struct.pack("<H", 200)), "section index 200")


def test_relocation_symbol_out_of_range():
    rela = read_elf(GOOD).section(".rela.text")
    info = (500 << 32) | C.R_AMDGPU_REL32_LO
    expect_error(patch(GOOD, rela.offset + 8, struct.pack("<Q", info)), "symbol index 500")


def test_relocation_target_invalid():
    index = section_index(GOOD, ".rela.text")
    expect_error(with_section(GOOD, index, sh_info=60), "sh_info 60")


def test_relocation_size_not_multiple():
    index = section_index(GOOD, ".rela.text")
    expect_error(with_section(GOOD, index, sh_size=Elf64_Rela.size + 3), "not a multiple of the relocation size")


def test_program_headers_past_end():
    expect_error(with_header(LINKED, e_phoff=len(LINKED) - 8), "program header table")


def test_segment_past_end():
    at = header(LINKED)["e_phoff"] + 32   # p_filesz of the first program header
    expect_error(patch(LINKED, at, struct.pack("<Q", 1 << 40)), "segment 0", "past the end")


def test_note_truncated_and_overlong():
    with pytest.raises(ElfFormatError, match="truncated note header"):
        decode_notes(b"\x04\x00\x00\x00\x08")
    with pytest.raises(ElfFormatError, match="past the end"):
        decode_notes(struct.pack("<III", 4, 100, 1) + b"AMD\0" + b"12")
    note_section = read_elf(read_bytes("kernel_v5_gfx900.o")).section(".note")
    data = read_bytes("kernel_v5_gfx900.o")
    expect_error(patch(data, note_section.offset + 4, struct.pack("<I", 5000)), "note", "past the end")


def test_bad_metadata_bytes():
    with pytest.raises(ElfFormatError, match="MessagePack"):
        kernels_from_notes([Note("AMDGPU", C.NT_AMDGPU_METADATA, b"\xc1\xc1")])


def test_unreadable_file(tmp_path):
    with pytest.raises(ElfFormatError, match="cannot read"):
        read_elf_file(tmp_path / "missing.o")


@pytest.mark.parametrize("source", ["symbols_relocs.o", "vadd_gfx900_v5.hsaco", "kernel_v2_gfx803.o"])
def test_random_damage_never_escapes_as_another_exception(source):
    """Truncations and byte flips either parse or raise ElfFormatError."""
    data = read_bytes(source)
    rng = random.Random(source)
    for _ in range(150):
        damaged = bytearray(data)
        if rng.random() < 0.3:
            damaged = damaged[:rng.randrange(len(damaged))]
        for _ in range(rng.randrange(1, 6)):
            if damaged:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        try:
            elf = read_elf(bytes(damaged), "fuzz.o")
            kernels_from_notes(elf.notes)
        except ElfFormatError as error:
            assert str(error).startswith("fuzz.o: ") or "metadata" in str(error).lower() or \
                "NT_" in str(error)


def test_damaged_metadata_documents_are_one_elf_format_error():
    """Values of a real v5 document replaced by other types or removed, a few at a
    time: the kernels parse or one ElfFormatError names the note (never a
    KeyError or TypeError from inside the parser)."""
    import copy

    import msgpack

    from amdgpu_tools.elf.notes import amdgpu_metadata_note
    note = next(n for n in read_elf(LINKED).notes if n.type == C.NT_AMDGPU_METADATA)
    document = msgpack.unpackb(note.desc)
    paths = list(_paths(document))
    rng = random.Random("metadata")
    outcomes = set()
    for _ in range(400):
        damaged = copy.deepcopy(document)
        for _ in range(rng.randint(1, 3)):
            *parents, last = rng.choice(paths)
            node = damaged
            try:
                for key in parents:
                    node = node[key]
                if rng.random() < 0.2:
                    del node[last]
                else:
                    node[last] = rng.choice(["x", -1, 7, [], {}, None, True, 1.5, [1], {"a": 1}])
            except (KeyError, IndexError, TypeError):
                continue     # an earlier change already replaced a parent
        try:
            kernels_from_notes([amdgpu_metadata_note(msgpack.packb(damaged))])
            outcomes.add("parsed")
        except ElfFormatError as error:
            assert "NT_AMDGPU_METADATA" in str(error), error
            outcomes.add("error")
    assert outcomes == {"parsed", "error"}


def _paths(node, path=()):
    """Every key path below the root of a decoded document."""
    children = node.items() if isinstance(node, dict) else \
        enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield path + (key,)
        yield from _paths(child, path + (key,))

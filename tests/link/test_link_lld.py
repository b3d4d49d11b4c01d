"""amdgpu-ld against ld.lld-19: the recorded reference links, field by field.

With ``merge_notes=False`` (notes concatenated, as ld.lld does) the output
must match ld.lld's except for one named difference: the .comment string
(``Linker: amdgpu-ld ...`` instead of ``Linker: Debian LLD ...``), which
moves the file offsets of the non-allocated tail (.comment, .symtab,
.shstrtab, .strtab) and of the section header table. Every allocated byte,
program header, section header and symbol must be the same.

The other differences from ld.lld, each tested elsewhere:
* by default notes are merged into one set with one metadata document
  (test_link_semantics: test_metadata_merged_into_one_document);
* --no-undefined is the default (test_link_errors);
* R_AMDGPU_ABS32_LO/HI are applied against link-time constants, where
  ld.lld reports "unknown relocation" (test_abs32_relocations_against_constants).

COMDAT groups, SHF_MERGE sections and the ld.lld options (-soname, -l, ...)
have their own reference links: test_link_comdat, test_link_merge,
test_link_options.
"""

import pytest

from amdgpu_tools.link import link

from .elfview import View, assert_section_headers_match, data_path, read_data

#: reference link -> its inputs (see data/regen.py)
CASES = {
    "call.lld.so": ["v5_kernel_call.o", "v5_func.o"],
    "call_v3.lld.so": ["v3_kernel_call.o", "v3_func.o"],
    "symbols.lld.so": ["v5_symbols.o"],
    "relocs.lld.so": ["v5_relocs.o"],
    "resolution.lld.so": ["sym_weak_a.o", "sym_strong_b.o"],
    "weak_ref.lld.so": ["weak_ref.o", "libfunc.a"],  # a weak reference extracts nothing
    "v2_kernel.lld.so": ["v2_kernel.o"],
    "cl_v5.lld.so": ["cl_v5.o", "cl_v5_func.o"],
    "cl_v4.lld.so": ["cl_v4.o", "cl_v4_func.o"],
    "cl_v2.lld.so": ["cl_v2.o"],
    "cl_v2_two.lld.so": ["cl_v2.o", "cl_v2_b.o"],
    "cl_v2_globals.lld.so": ["cl_v2_globals.o"],
}


@pytest.fixture(params=sorted(CASES), scope="module")
def pair(request):
    ours = link([data_path(name) for name in CASES[request.param]], merge_notes=False)
    return View(ours), View(read_data(request.param))


def test_elf_header(pair):
    ours, lld = pair
    mine, theirs = ours.header, lld.header
    mine.pop("e_shoff"), theirs.pop("e_shoff")  # after the longer .comment
    assert mine == theirs


def test_program_headers(pair):
    ours, lld = pair
    assert ours.segments() == lld.segments()


def test_section_headers(pair):
    assert_section_headers_match(*pair)


def test_allocated_contents(pair):
    """Instruction bytes after relocation, descriptors, GOT, hash tables, notes."""
    ours, lld = pair
    for section in lld.elf.iter_sections():
        if section["sh_flags"] & 2 and section["sh_type"] != "SHT_NOBITS":
            assert ours.contents(section.name) == section.data(), section.name


def test_symbol_tables(pair):
    ours, lld = pair
    assert ours.symbols(".dynsym") == lld.symbols(".dynsym")
    assert ours.symbols(".symtab") == lld.symbols(".symtab")


def test_dynamic_relocations(pair):
    ours, lld = pair
    assert ours.dynamic_relocations() == lld.dynamic_relocations()


def test_comment_names_the_linker():
    ours = View(link([data_path("cl_v2.o")]))
    strings = ours.contents(".comment").split(b"\0")
    assert strings[0].startswith(b"Linker: amdgpu-ld")
    assert any(s.startswith(b"clang version 14") or b"clang version 14" in s for s in strings)

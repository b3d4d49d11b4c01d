"""SHF_MERGE sections against ld.lld-19: one copy of each string or constant,
in ld.lld's layout (32 shards chosen by XXH3-64, see amdgpu_tools.link.merge).

Recorded references (data/regen.py): hand-written llvm-mc objects with string,
2-byte-string and 4/8/16-byte constant sections (both link orders), two
clang-19 OpenCL printf objects, and clang -g objects whose .debug_str and
.debug_line_str are merged too.
"""

import ctypes
import glob
import random

import pytest

from amdgpu_tools.errors import LinkError
from amdgpu_tools.link import link
from amdgpu_tools.link.xxh3 import xxh3_64

from .elfview import NON_ALLOC_TAIL, View, assert_matches_lld, data_path, read_data

CASES = {
    "merge.lld.so": ["merge_a.o", "merge_b.o"],
    "merge_reversed.lld.so": ["merge_b.o", "merge_a.o"],
    "cl_printf.lld.so": ["cl_printf.o", "cl_printf2.o"],
}


@pytest.mark.parametrize("reference", sorted(CASES))
def test_matches_lld(reference):
    ours = View(link([data_path(n) for n in CASES[reference]], merge_notes=False))
    assert_matches_lld(ours, View(read_data(reference)))


def test_each_piece_kept_once():
    rodata = View(link([data_path("merge_a.o"), data_path("merge_b.o")])).contents(".rodata")
    assert rodata.count(b"hello %d\n\0") == 1 and rodata.count(b"world\0") == 1
    assert rodata.count((6).to_bytes(8, "little") + (5).to_bytes(8, "little")) == 1
    concatenated = sum(len(s.data()) for n in ("merge_a.o", "merge_b.o")
                       for s in View(read_data(n)).elf.iter_sections()
                       if s.name.startswith(".rodata."))
    assert len(rodata) < concatenated


def test_debug_strings_merged_like_lld():
    """Every section of the clang -g link is ld.lld's, .debug_str and
    .debug_str_offsets included (only .comment and what follows it move)."""
    ours = View(link([data_path("cl_v5_debug.o"), data_path("cl_v5_func_debug.o")],
                     merge_notes=False))
    lld = View(read_data("cl_v5_debug.lld.so"))
    names = [s.name for s in lld.elf.iter_sections() if s.name]
    assert ".debug_str" in names and ".debug_line_str" in names
    for name in names:
        if name not in NON_ALLOC_TAIL:
            assert ours.contents(name) == lld.contents(name), name
    assert ours.symbols(".symtab") == lld.symbols(".symtab")


#: XXH3-64 of short and long inputs, as LLVM's xxh3_64bits computes them
KNOWN_HASHES = {b"": 0x2D06800538D394C2, b"a": 0xE6C632B61E964E1F, b"abc": 0x78AF5F94892F3950,
                b"hello world": 0xD447B1EA40E6988B, b"x" * 17: 0x89975E6B7D2F5A11,
                b"x" * 100: 0xC90984FFDF50CE42, b"y" * 200: 0x78C5AE5CF7B1237E,
                b"z" * 1000: 0xCD3A574700EDDF41}


@pytest.mark.parametrize("data", sorted(KNOWN_HASHES), ids=lambda d: f"len{len(d)}")
def test_xxh3_known_values(data):
    assert xxh3_64(data) == KNOWN_HASHES[data]


def test_xxh3_agrees_with_libllvm():
    """Every length class (0-16, 17-128, 129-240, long with partial blocks)
    against the xxh3_64bits that ld.lld itself calls."""
    libraries = sorted(glob.glob("/usr/lib/llvm-19/lib/libLLVM.so.19*"))
    if not libraries:
        pytest.skip("libLLVM 19 is not installed")
    library = ctypes.CDLL(libraries[0])
    function = library["_ZN4llvm11xxh3_64bitsENS_8ArrayRefIhEE"]
    function.restype, function.argtypes = ctypes.c_uint64, [ctypes.c_char_p, ctypes.c_size_t]
    generator = random.Random(7)
    for length in [*range(0, 260), 1023, 1024, 1025, 3000, 5000]:
        data = generator.randbytes(length)
        assert xxh3_64(data) == function(data, length), length


def _with_rodata_str(blob: bytes, replace: bytes, by: bytes) -> bytes:
    assert blob.count(replace) == 1
    return blob.replace(replace, by)


def test_unterminated_string_is_an_error():
    blob = _with_rodata_str(read_data("merge_b.o"), b"hello %d\n\0", b"hello %d\nX")
    with pytest.raises(LinkError, match=r"bad\.o:\(\.rodata\.str1\.1\): string is not null "
                                        r"terminated"):
        link([("bad.o", blob)])


def test_link_map_lists_symbols_under_the_merged_section():
    from amdgpu_tools.link import link_result
    result = link_result([data_path("merge_a.o"), data_path("merge_b.o")])
    lines = result.map_text().splitlines()
    at = next(n for n, line in enumerate(lines) if line.endswith("<internal>:(.rodata.cst8)"))
    assert lines[at + 1].split()[-1] == "cst8_one" and lines[at + 2].split()[-1] == "cst8_two"
    address = View(result.data).address("cst8_two")
    assert int(lines[at + 2].split()[0], 16) == address


def _with_section_field(blob: bytes, section_name: str, field_at: int, value: int) -> bytes:
    """``blob`` with one 8-byte field of a section header replaced."""
    from amdgpu_tools.elf.reader import read_elf
    elf = read_elf(blob)
    index = next(s.index for s in elf.sections if s.name == section_name)
    shoff = int.from_bytes(blob[0x28:0x30], "little")
    at = shoff + 64 * index + field_at
    return blob[:at] + value.to_bytes(8, "little") + blob[at + 8:]


def test_entry_size_not_dividing_the_section_is_an_error():
    blob = _with_section_field(read_data("merge_a.o"), ".rodata.cst16", 56, 12)  # sh_entsize
    with pytest.raises(LinkError, match=r"bad\.o:\(\.rodata\.cst16\): SHF_MERGE section size "
                                        r"\(16\) must be a multiple of sh_entsize \(12\)"):
        link([("bad.o", blob)])


def test_writable_merge_section_is_an_error():
    flags = 0x2 | 0x1 | 0x10  # SHF_ALLOC | SHF_WRITE | SHF_MERGE
    blob = _with_section_field(read_data("merge_a.o"), ".rodata.cst4", 8, flags)  # sh_flags
    with pytest.raises(LinkError, match=r"bad\.o:\(\.rodata\.cst4\): writable SHF_MERGE "
                                        r"section is not supported"):
        link([("bad.o", blob)])

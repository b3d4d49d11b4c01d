"""ld.lld options a build script passes: -soname, -L/-l, --whole-archive,
-Bstatic, thin archives; each output compared with ld.lld-19's for the same
command line (recorded in data/, see OPTION_LINKS in data/regen.py)."""

import os
import shutil

import pytest

from amdgpu_tools.cli.ld import main, translate_args
from amdgpu_tools.errors import ElfFormatError, LinkError
from amdgpu_tools.link import WholeArchive, link
from amdgpu_tools.link.libsearch import find_library

from .elfview import View, assert_matches_lld, data_path, read_data

DATA = os.path.dirname(data_path("libfunc.a"))

#: reference -> ld.lld's arguments (names of files in data/; "." is data/)
OPTION_LINKS = {
    "soname.lld.so": ["-soname", "libk.so.1", "v5_kernel_call.o", "v5_func.o"],
    "lib_search.lld.so": ["-L", ".", "-lfunc", "v5_kernel_call.o"],
    "whole_archive.lld.so": ["v5_kernel_call.o", "--whole-archive", "libextra.a"],
    "thin_archive.lld.so": ["v5_kernel_call.o", "libthin.a"],
    "lazy_order.lld.so": ["lazy_a.o", "liblazy.a", "lazy_b.o"],
}


def _in_data(arguments):
    return [DATA if a == "." else data_path(a) if os.path.exists(data_path(a)) else a
            for a in arguments]


@pytest.mark.parametrize("reference", sorted(OPTION_LINKS))
def test_cli_matches_lld(tmp_path, reference):
    out = tmp_path / "out.so"
    args = ["-shared", "--concatenate-notes", "-o", str(out), *_in_data(OPTION_LINKS[reference])]
    assert main(args) == 0
    assert_matches_lld(View(out.read_bytes()), View(read_data(reference)))


def test_soname_is_the_first_dynamic_entry_and_last_dynstr_string():
    view = View(link([data_path("v5_kernel_call.o"), data_path("v5_func.o")],
                     soname="libk.so.1"))
    dynamic = view.section(".dynamic")
    first = next(dynamic.iter_tags())
    assert first["d_tag"] == "DT_SONAME"
    assert view.contents(".dynstr").endswith(b"\0libk.so.1\0")
    assert first["d_val"] == len(view.contents(".dynstr")) - len(b"libk.so.1\0")


@pytest.mark.parametrize("spelling", [["-soname", "x.so"], ["-soname=x.so"], ["--soname", "x.so"],
                                      ["--soname=x.so"], ["-h", "x.so"]])
def test_soname_spellings(spelling):
    assert translate_args(spelling) == ["--soname", "x.so"]


def test_h_alone_still_asks_for_help():
    assert translate_args(["-h"]) == ["-h"]


@pytest.mark.parametrize("spelling", [["-lfunc"], ["-l", "func"], ["--library", "func"],
                                      ["--library=func"]])
def test_library_spellings_find_the_archive(tmp_path, spelling):
    out = tmp_path / "out.so"
    assert main(["-shared", "-o", str(out), "-L" + DATA, data_path("v5_kernel_call.o"),
                 *spelling]) == 0
    assert out.read_bytes() == link([data_path("v5_kernel_call.o"), data_path("libfunc.a")])


def test_shared_library_found_first_unless_bstatic(tmp_path):
    """ld.lld tries libNAME.so before libNAME.a in each directory; -Bstatic
    only the archive. A shared library is no link input here: a clear error."""
    shutil.copy(data_path("libfunc.a"), tmp_path / "libfunc.a")
    shutil.copy(data_path("soname.lld.so"), tmp_path / "libfunc.so")
    assert find_library("func", [str(tmp_path)]) == str(tmp_path / "libfunc.so")
    assert find_library("func", [str(tmp_path)], static_only=True) == str(tmp_path / "libfunc.a")
    found = find_library(":libfunc.a", ["/nonexistent", str(tmp_path)])
    assert found == str(tmp_path / "libfunc.a")
    out = tmp_path / "out.so"
    assert main(["-shared", "-o", str(out), "-L", str(tmp_path), "-Bstatic", "-lfunc",
                 data_path("v5_kernel_call.o")]) == 0
    with pytest.raises(ElfFormatError, match=r"libfunc\.so: is ET_DYN, expected a relocatable"):
        link([data_path("v5_kernel_call.o"), find_library("func", [str(tmp_path)])])


def test_missing_library_is_named(tmp_path, capsys):
    out = tmp_path / "out.so"
    assert main(["-shared", "-o", str(out), "-L", str(tmp_path), "-lnothere",
                 data_path("v5_kernel_call.o")]) == 1
    assert "amdgpu-ld: error: unable to find library -lnothere" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(LinkError, match="unable to find library -l:x.a"):
        find_library(":x.a", [DATA])


def test_archive_before_its_user_orders_symbols_as_lld():
    """ld.lld inserts an archive's names (lazily) where the archive stands, so
    they come first in .symtab/.dynsym when the archive is named first."""
    first = View(link([data_path("libfunc.a"), data_path("v5_kernel_call.o")], merge_notes=False))
    assert_matches_lld(first, View(read_data("lib_search.lld.so")))
    last = View(link([data_path("v5_kernel_call.o"), data_path("libfunc.a")]))
    assert first.symbols(".dynsym") != last.symbols(".dynsym")


def test_members_extracted_where_lld_extracts_them():
    """lazy_a needs member 2 when the archive is reached; lazy_b needs member 1
    afterwards: .text holds lazy_a, member 2, lazy_b, member 1 in that order."""
    view = View(link([data_path(n) for n in ("lazy_a.o", "liblazy.a", "lazy_b.o")]))
    order = sorted(("ka", "f2", "kb", "f1"), key=view.address)
    assert order == ["ka", "f2", "kb", "f1"]


def test_whole_archive_takes_unneeded_members_and_stops_at_no_whole_archive():
    needed = View(link([data_path("v5_kernel_call.o"), data_path("libextra.a")]))
    whole = View(link([data_path("v5_kernel_call.o"), WholeArchive(data_path("libextra.a"))]))
    assert "cc" not in [r[0] for r in needed.symbols(".symtab")]
    assert "cc" in [r[0] for r in whole.symbols(".symtab")]
    args = translate_args(["--whole-archive", "a.a", "--no-whole-archive", "b.a"])
    from amdgpu_tools.cli.ld import resolve_inputs
    assert resolve_inputs(args, []) == [WholeArchive("a.a"), "b.a"]


def test_thin_archive_member_missing_is_named(tmp_path):
    shutil.copy(data_path("libthin.a"), tmp_path / "libthin.a")
    with pytest.raises(ElfFormatError, match=r"libthin\.a: cannot open thin archive member "
                                             r".*v5_func\.o"):
        link([data_path("v5_kernel_call.o"), str(tmp_path / "libthin.a")])

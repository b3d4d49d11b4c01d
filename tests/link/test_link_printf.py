"""printf format ids when several OpenCL objects are linked (clang-19 with the
printf-buffer lowering, ``-Xclang -mlink-builtin-bitcode-postopt``).

clang numbers each compilation unit's printf formats from 1 and writes the
id into the code (cl_printf.cl's "hello %d\\n" is id 1, so is cl_printf2.cl's
"other\\n"). ld.lld only concatenates the notes: two metadata documents, and
a loader that reads one of them misses the other object's kernels and
formats. The merged document keeps each id's one meaning: repeated entries
once, conflicting ones rejected, naming both objects.
"""

import io

import numpy as np
import pytest

from amdgpu_tools.cli.ld import main
from amdgpu_tools.errors import LinkError
from amdgpu_tools.link import link

from .elfview import View, data_path


def _printf_lists(view: View) -> list:
    return [doc.get("amdhsa.printf") for doc in view.metadata_documents()]


@pytest.mark.parametrize("suffix", ["", "_v4"])
def test_conflicting_ids_are_rejected_naming_both_objects(suffix):
    names = [data_path(f"cl_printf_buf{suffix}.o"), data_path(f"cl_printf2_buf{suffix}.o")]
    with pytest.raises(LinkError) as failure:
        link(names)
    message = str(failure.value)
    assert "printf format id 1 means '1:1:4:hello %d\\\\n' in " + names[0] in message
    assert "'1:0:other\\\\n' in " + names[1] in message
    assert "--concatenate-notes" in message


def test_concatenated_notes_keep_each_document_as_lld_does():
    view = View(link([data_path("cl_printf_buf.o"), data_path("cl_printf2_buf.o")],
                     merge_notes=False))
    assert _printf_lists(view) == [["1:1:4:hello %d\\n"], ["1:0:other\\n", "2:1:4:hello %d\\n"]]


def test_cli_reports_the_conflict_without_output(tmp_path, capsys):
    out = tmp_path / "k.so"
    assert main(["-shared", "-o", str(out), data_path("cl_printf_buf.o"),
                 data_path("cl_printf2_buf.o")]) == 1
    error = capsys.readouterr().err
    assert error.startswith("amdgpu-ld: error: ") and "printf format id 1" in error
    assert "Traceback" not in error and not out.exists()


def test_repeated_format_listed_once():
    view = View(link([data_path("cl_printf_buf.o"), data_path("cl_printf3_buf.o")]))
    assert _printf_lists(view) == [["1:1:4:hello %d\\n"]]
    kernels = [k[".name"] for k in view.metadata_documents()[0]["amdhsa.kernels"]]
    assert sorted(kernels) == ["pf", "pf3"]


def test_linked_kernels_print_through_the_shared_format():
    try:
        from amdgpu_tools import Device
    except ImportError as missing:  # the runtime is another package's job
        pytest.skip(f"runtime not available: {missing}")
    stream = io.StringIO()
    device = Device(printf_stream=stream)
    program = device.load(link([data_path("cl_printf_buf.o"), data_path("cl_printf3_buf.o")]))
    out = device.zeros(1, np.int32)
    program["pf"](out, grid=2, block=2)
    program["pf3"](out, grid=2, block=2)
    device.synchronize()
    assert stream.getvalue() == "hello 0\nhello 1\nhello 3\nhello 4\n"
    assert out.numpy()[0] == 3


def test_unique_printf_formats_keeps_order_and_first_copies():
    from amdgpu_tools.link.notes import unique_printf_formats
    kept = unique_printf_formats([("a.o", ["1:0:x", "2:1:4:%d"]), ("b.o", ["2:1:4:%d", "3:0:y"])])
    assert kept == ["1:0:x", "2:1:4:%d", "3:0:y"]
    with pytest.raises(LinkError, match=r"printf format id 2 means '2:1:4:%d' in a\.o and "
                                        r"'2:0:z' in b\.o"):
        unique_printf_formats([("a.o", ["2:1:4:%d"]), ("b.o", ["2:0:z"])])

"""Each way a link can fail gives one clear message, a non-zero exit and no
output file (the CLI runs in-process on the recorded objects)."""

import struct

import pytest

from amdgpu_tools.cli.ld import main
from amdgpu_tools.errors import ElfFormatError, LinkError
from amdgpu_tools.link import link

from .elfview import data_path, read_data


def run_failing(capsys, tmp_path, *inputs, extra=()):
    output = tmp_path / "out.so"
    status = main(["-shared", "-o", str(output), *inputs, *extra])
    err = capsys.readouterr().err
    assert status == 1, err
    assert not output.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".amdgpu-ld-")]
    assert "Traceback" not in err
    assert err.startswith("amdgpu-ld: error: "), err
    return err


def write(tmp_path, name, data) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_undefined_symbol_names_symbol_object_and_section(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("err_undefined.o"))
    assert "undefined symbol: not_defined_anywhere" in err
    assert "err_undefined.o:(.text+0x8)" in err


def test_every_undefined_symbol_gets_an_error_line(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("v5_kernel_call.o"))
    assert err.count("amdgpu-ld: error: undefined symbol: ") == 3
    for name in ("helper", "counter", "table"):
        assert f"undefined symbol: {name}\n" in err


def test_undefined_allowed_with_z_undefs(tmp_path):
    output = tmp_path / "out.so"
    assert main(["-shared", "-z", "undefs", data_path("err_undefined.o"), "-o", str(output)]) == 1
    assert not output.exists()  # PC-relative call to a preemptible undefined: not linkable


def test_duplicate_symbol_names_both_objects(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("v5_func.o"), data_path("err_duplicate.o"))
    assert "duplicate symbol: helper" in err
    assert "v5_func.o" in err and "err_duplicate.o" in err


def test_target_mismatch(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("v5_func.o"), data_path("v5_gfx803.o"))
    assert "target mismatch" in err and "gfx900" in err and "gfx803" in err
    assert "v5_func.o" in err and "v5_gfx803.o" in err


def test_code_object_version_mismatch(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("v5_func.o"), data_path("v4_gfx900.o"))
    assert "code object version mismatch" in err
    assert "v5_func.o is code object v5" in err and "v4_gfx900.o is code object v4" in err


def test_relocation_overflow(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("err_overflow.o"))
    assert "err_overflow.o:(.data+0x0): relocation R_AMDGPU_REL32 out of range" in err
    assert "is not in [-2147483648, 2147483647]" in err and "far_target" in err


def test_pc_relative_reference_to_preemptible_symbol(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("err_pic.o"))
    assert ("relocation R_AMDGPU_REL32_LO cannot be used against symbol 'exported_func'; "
            "recompile with -fPIC") in err
    assert ">>> referenced by " in err and "err_pic.o:(.text+" in err


def test_dynamic_relocation_in_read_only_data(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("err_readonly.o"))
    assert err.splitlines()[0] == ("amdgpu-ld: error: relocation R_AMDGPU_ABS64 cannot be used "
                                   "against symbol 'gv'; recompile with -fPIC")
    assert err.splitlines()[2].endswith("err_readonly.o:(.rodata+0x0)")


def test_pc_relative_reference_to_absolute_symbol(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("err_absolute_pc.o"))
    assert err.splitlines()[0] == ("amdgpu-ld: error: relocation R_AMDGPU_REL32_LO cannot "
                                   "refer to absolute symbol: big")
    assert "nothere" not in err  # a hidden undefined weak symbol is fine


def test_truncated_object(capsys, tmp_path):
    path = write(tmp_path, "cut.o", read_data("v5_func.o")[:200])
    err = run_failing(capsys, tmp_path, path)
    assert "cut.o" in err and "truncated" in err


def test_section_offset_past_end(capsys, tmp_path):
    data = bytearray(read_data("v5_func.o"))
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    struct.pack_into("<Q", data, shoff + 2 * 64 + 24, 0x7FFFFF)  # section 2's sh_offset
    err = run_failing(capsys, tmp_path, write(tmp_path, "badoff.o", bytes(data)))
    assert "badoff.o" in err and "past the end of the file" in err


def test_section_header_table_past_end(capsys, tmp_path):
    data = bytearray(read_data("v5_func.o"))
    struct.pack_into("<Q", data, 0x28, len(data) + 64)
    err = run_failing(capsys, tmp_path, write(tmp_path, "badshoff.o", bytes(data)))
    assert "badshoff.o" in err and "section header table" in err


def _rela_text_offset(data: bytes) -> int:
    """File offset of the first entry of .rela.text (found through the headers)."""
    shoff, shnum = struct.unpack_from("<Q", data, 0x28)[0], struct.unpack_from("<H", data, 0x3C)[0]
    for index in range(shnum):
        sh_type, = struct.unpack_from("<I", data, shoff + index * 64 + 4)
        sh_info, = struct.unpack_from("<I", data, shoff + index * 64 + 44)
        if sh_type == 4 and sh_info == 2:  # SHT_RELA for section 2 (.text)
            return struct.unpack_from("<Q", data, shoff + index * 64 + 24)[0]
    raise AssertionError("no .rela.text")


def test_relocation_offset_past_section(capsys, tmp_path):
    data = bytearray(read_data("v5_kernel_call.o"))
    struct.pack_into("<Q", data, _rela_text_offset(data), 0x10000)
    err = run_failing(capsys, tmp_path, write(tmp_path, "badrel.o", bytes(data)),
                      data_path("v5_func.o"))
    assert "badrel.o" in err and "past the end of '.text'" in err


def test_relocation_symbol_index_out_of_range(capsys, tmp_path):
    data = bytearray(read_data("v5_kernel_call.o"))
    at = _rela_text_offset(data)
    struct.pack_into("<Q", data, at + 8, (999 << 32) | 10)
    err = run_failing(capsys, tmp_path, write(tmp_path, "badsym.o", bytes(data)),
                      data_path("v5_func.o"))
    assert "badsym.o" in err and "symbol index 999" in err


def test_not_an_elf_file(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, write(tmp_path, "junk.o", b"not an object\n" * 8))
    assert "junk.o" in err and "not an ELF file" in err


def test_shared_object_as_input(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, data_path("call.lld.so"))
    assert "expected a relocatable object" in err


def test_missing_input(capsys, tmp_path):
    err = run_failing(capsys, tmp_path, str(tmp_path / "absent.o"))
    assert "cannot open" in err and "absent.o" in err


def test_no_inputs(capsys, tmp_path):
    err = run_failing(capsys, tmp_path)
    assert "no input files" in err


def test_stale_output_removed_on_error(capsys, tmp_path):
    output = tmp_path / "out.so"
    output.write_bytes(b"old")
    run_failing(capsys, tmp_path, data_path("err_undefined.o"))
    assert not output.exists()


def test_api_raises_toolchain_errors():
    with pytest.raises(LinkError, match="duplicate symbol: helper"):
        link([data_path("v5_func.o"), data_path("err_duplicate.o")])
    with pytest.raises(ElfFormatError, match="truncated"):
        link([read_data("v5_func.o")[:100]])


def test_damaged_objects_fail_cleanly():
    """Random damage to the headers and tables of valid objects: either the link
    still succeeds or it raises a ToolchainError, never anything else."""
    import random

    from amdgpu_tools.errors import ToolchainError

    rng = random.Random(1234)
    originals = [read_data(n) for n in ("v5_kernel_call.o", "cl_v5.o", "v2_kernel.o")]
    outcomes = {"linked": 0, "rejected": 0}
    for _ in range(300):
        data = bytearray(rng.choice(originals))
        for _ in range(rng.randint(1, 4)):
            # damage where the structure lives: ELF header, section headers, tables
            region = rng.choice([(0, 64), (len(data) - 64 * 12, len(data)), (64, len(data))])
            at = rng.randrange(max(region[0], 0), region[1])
            data[at] = rng.randrange(256)
        try:
            link([bytes(data)])
            outcomes["linked"] += 1
        except ToolchainError as failure:
            assert str(failure)
            outcomes["rejected"] += 1
    assert outcomes["rejected"] > 50

"""Every CLI ends bad input with one readable message and a non-zero exit.

Each tool runs as a user would run it (its console script, in a subprocess)
on inputs a user gets wrong: missing files, garbage bytes, truncated ELF
files, unknown options and processors. None may print a Python traceback or
leave an output file behind.
"""

import subprocess
import sys

import pytest

GARBAGE = b"this is not an ELF file\n" * 4
TRUNCATED_ELF = b"\x7fELF\x02\x01\x01\x40" + b"\x00" * 8


def run_tool(tool, *args):
    code = f"import sys; from amdgpu_tools.cli.{tool} import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=120)


def assert_clean_failure(result):
    assert result.returncode != 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert "error" in result.stderr.lower(), result.stderr


@pytest.fixture
def garbage(tmp_path):
    path = tmp_path / "garbage.o"
    path.write_bytes(GARBAGE)
    return path


@pytest.fixture
def truncated(tmp_path):
    path = tmp_path / "truncated.o"
    path.write_bytes(TRUNCATED_ELF)
    return path


@pytest.mark.parametrize("tool, args", [
    ("asm", ["/nonexistent/input.s"]),
    ("asm", ["--mcpu=gfx999", "{garbage}"]),
    ("asm", ["--no-such-option"]),
    ("ld", ["/nonexistent/input.o"]),
    ("ld", ["{garbage}"]),
    ("ld", ["{truncated}"]),
    ("objdump", ["-d", "/nonexistent/file"]),
    ("objdump", ["-d", "{garbage}"]),
    ("objdump", ["--kernels", "{truncated}"]),
    ("run", ["/nonexistent/program.hsaco"]),
    ("run", ["{garbage}"]),
    ("run", ["{truncated}"]),
])
def test_bad_input_is_one_clean_error(tool, args, garbage, truncated, tmp_path):
    args = [a.format(garbage=garbage, truncated=truncated) for a in args]
    output = tmp_path / "out.bin"
    if tool in ("asm", "ld"):
        args += ["-o", str(output)]
    result = run_tool(tool, *args)
    assert_clean_failure(result)
    assert not output.exists()


def test_outputs_get_the_llvm_tools_permissions(tmp_path):
    """Objects are 0644 and shared objects 0755 under a 022 umask, as llvm-mc
    and ld.lld create them (a temporary file alone would leave 0600)."""
    import os

    from amdgpu_tools.cli import asm, ld
    source = tmp_path / "k.s"
    source.write_text(".text\ns_endpgm\n")
    old = os.umask(0o022)
    try:
        assert asm.main(["--mcpu=gfx900", str(source), "-o", str(tmp_path / "k.o")]) == 0
        assert ld.main(["-shared", str(tmp_path / "k.o"), "-o", str(tmp_path / "k.so")]) == 0
    finally:
        os.umask(old)
    assert oct(os.stat(tmp_path / "k.o").st_mode & 0o777) == oct(0o644)
    assert oct(os.stat(tmp_path / "k.so").st_mode & 0o777) == oct(0o755)

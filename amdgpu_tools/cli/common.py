"""What every command-line tool shares: running a click command as
``main(argv=None) -> int`` with one readable message per failure.

A ``ToolchainError`` prints as ``TOOL: error: MESSAGE``; a click usage error
prints click's own usage message; anything else is an internal error, printed
as one line (set AMDGPU_TOOLS_DEBUG=1 to see the traceback). No CLI ever ends
in a Python traceback.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile

import click

from ..errors import ToolchainError


def error(tool: str, message: str) -> None:
    """Print one diagnostic line on stderr in the LLVM tools' style."""
    click.echo(f"{tool}: error: {message}", err=True)


def run_click(command: click.Command, tool: str, argv=None) -> int:
    """Run ``command`` on ``argv`` and turn every outcome into an exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        result = command.main(args=args, prog_name=tool, standalone_mode=False)
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.exceptions.Abort:
        error(tool, "aborted")
        return 1
    except click.ClickException as usage:
        usage.show()
        return usage.exit_code
    except ToolchainError as failure:
        error(tool, str(failure))
        return 1
    except KeyboardInterrupt:
        error(tool, "interrupted")
        return 130
    except BrokenPipeError:
        return 1
    except Exception as bug:  # a bug in the toolchain, reported without a traceback
        if os.environ.get("AMDGPU_TOOLS_DEBUG"):
            raise
        error(tool, f"internal error: {type(bug).__name__}: {bug} "
                    "(set AMDGPU_TOOLS_DEBUG=1 for a traceback)")
        return 70
    return int(result or 0)


def llvm_style_args(args, options_with_values):
    """Accept LLVM's single-dash long options (``-mcpu=gfx900``, ``-o``) for click.

    ``options_with_values`` maps LLVM spellings (without dashes) to our
    long option names, e.g. ``{"mcpu": "mcpu", "triple": "triple"}``.
    """
    out = []
    for arg in args:
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            name, sep, value = arg[1:].partition("=")
            if name in options_with_values:
                target = options_with_values[name]
                out.append(f"--{target}={value}" if sep else f"--{target}")
                continue
        out.append(arg)
    return out


def _is_regular_or_absent(path: str) -> bool:
    """False for devices, pipes and links to them (/dev/stdout): written in place."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def remove_stale_output(path: str | None) -> None:
    """After a failure, leave no older output that looks like this run's result
    (as llvm-mc and GNU ld do); standard output and special files are kept."""
    if not path or path == "-" or not _is_regular_or_absent(path):
        return
    try:
        if stat.S_ISREG(os.lstat(path).st_mode):
            os.remove(path)
    except OSError:
        pass


def write_output(path: str, data: bytes, mode: int = 0o644) -> None:
    """Write an output file so that it appears complete or not at all
    (temporary file + rename), with ``mode`` under the umask as the LLVM tools
    create files; ``-`` is standard output and special files are written in place."""
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        if not _is_regular_or_absent(path):
            with open(path, "wb") as stream:
                stream.write(data)
            return
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)),
                                             prefix=".amdgpu-tools-")
    except OSError as failure:
        raise ToolchainError(f"cannot write output file {path}: {failure.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode & ~_umask())
        os.replace(temporary, path)
    except OSError as failure:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise ToolchainError(f"cannot write output file {path}: {failure.strerror}") from None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current

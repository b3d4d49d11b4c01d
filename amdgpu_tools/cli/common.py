"""What every command-line tool shares: running a click command as
``main(argv=None) -> int`` with one readable message per failure.

A ``ToolchainError`` prints as ``TOOL: error: MESSAGE``; a click usage error
prints click's own usage message; anything else is an internal error, printed
as one line (set AMDGPU_TOOLS_DEBUG=1 to see the traceback). No CLI ever ends
in a Python traceback.
"""

from __future__ import annotations

import os
import sys

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

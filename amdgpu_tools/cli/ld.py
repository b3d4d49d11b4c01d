"""``amdgpu-ld``: link relocatable AMDGPU objects into a shared code object.

Takes ld.lld's spellings used for AMDGPU (``-shared``/``--shared``, ``-o``,
``--no-undefined``, ``-z defs``/``-z undefs``, ``-Map``/``-M``/
``--print-map``, ``-e``/``--entry``, ``@response-file``) so build scripts
written for ld.lld work unchanged. The
output is written through a temporary file and a rename: after an error no
output file is left behind.
"""

from __future__ import annotations

import shlex
import sys

import click

from .. import __version__
from ..errors import LinkError, ToolchainError
from ..link import link_result
from .common import remove_stale_output, run_click, write_output

TOOL = "amdgpu-ld"

#: ld.lld single-dash spellings -> our option names.
_ALIASES = {"-shared": "--shared", "-Bshareable": "--shared", "-M": "--print-map",
            "-print-map": "--print-map", "-no-undefined": "--no-undefined",
            "-e": "--entry", "-entry": "--entry"}


def expand_response_files(args, depth: int = 0) -> list[str]:
    """``@FILE`` arguments replaced by the (shell-quoted) arguments FILE holds."""
    out = []
    for arg in args:
        if not arg.startswith("@") or len(arg) == 1:
            out.append(arg)
            continue
        if depth > 8:
            raise click.UsageError(f"response files nested too deeply at {arg}")
        try:
            with open(arg[1:], encoding="utf-8") as handle:
                text = handle.read()
        except OSError as failure:
            raise click.UsageError(f"cannot open response file {arg[1:]}: "
                                   f"{failure.strerror}") from None
        out += expand_response_files(shlex.split(text), depth + 1)
    return out


def translate_args(args) -> list[str]:
    """Rewrite ld.lld spellings (``-Map=F``, ``-z defs``, ``-oF``) for click."""
    out, items = [], iter(expand_response_files(args))
    for arg in items:
        if arg in _ALIASES:
            out.append(_ALIASES[arg])
        elif arg in ("-Map", "--Map"):
            out += ["--map", next(items, "")]
        elif arg.startswith(("-Map=", "--Map=")):
            out.append("--map=" + arg.split("=", 1)[1])
        elif arg == "-z":
            out.append(_z_option(next(items, "")))
        elif arg.startswith("-z") and len(arg) > 2:
            out.append(_z_option(arg[2:]))
        elif arg.startswith("-o") and len(arg) > 2 and not arg.startswith("--"):
            out += ["-o", arg[2:]]
        else:
            out.append(arg)
    return out


def _z_option(keyword: str) -> str:
    if keyword == "defs":
        return "--no-undefined"
    if keyword == "undefs":
        return "--allow-undefined"
    raise click.UsageError(f"unsupported option: -z {keyword}")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-v", prog_name=TOOL,
                      message="%(prog)s (amdgpu-tools %(version)s) (compatible with GNU linkers)")
@click.argument("inputs", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--shared", is_flag=True, help="Create a shared object (the only output kind).")
@click.option("-o", "--output", default="a.out", show_default=True, help="Output file.")
@click.option("--no-undefined/--allow-undefined", "no_undefined", default=True,
              show_default=True, help="Report undefined symbols (ld.lld's -z defs).")
@click.option("--map", "map_file", default=None, help="Write the link map to this file (-Map).")
@click.option("--print-map", is_flag=True, help="Print the link map on standard output.")
@click.option("--entry", "-e", "entry", default=None, help="Symbol whose address is e_entry.")
@click.option("--concatenate-notes", is_flag=True,
              help="Keep every input note as ld.lld does instead of one merged note set.")
def command(inputs, shared, output, no_undefined, map_file, print_map, entry,
            concatenate_notes):
    """Link relocatable AMDGPU objects (and .a archives) into a shared code object."""
    if not inputs:
        raise LinkError("no input files")
    try:
        result = link_result(list(inputs), no_undefined=no_undefined,
                             merge_notes=not concatenate_notes, entry=entry)
    except ToolchainError as failure:
        remove_stale_output(output)
        diagnostics = getattr(failure, "diagnostics", None)
        if not diagnostics:
            raise
        for message in diagnostics:  # one "error:" line per problem, as ld.lld prints
            click.echo(f"{TOOL}: error: {message}", err=True)
        return 1
    write_output(output, result.data, mode=0o755)
    if map_file or print_map:
        text = result.map_text()
        if print_map:
            click.echo(text, nl=False)
        if map_file:
            write_output(map_file, text.encode())
    return 0


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        translated = translate_args(list(args))
    except click.UsageError as usage:
        click.echo(f"{TOOL}: error: {usage.message}", err=True)
        return 1
    return run_click(command, TOOL, translated)


if __name__ == "__main__":
    raise SystemExit(main())

"""``amdgpu-ld``: link relocatable AMDGPU objects into a shared code object.

Takes ld.lld's spellings used for AMDGPU (``-shared``/``--shared``, ``-o``,
``--no-undefined``, ``-z defs``/``-z undefs``, ``-Map``/``-M``/
``--print-map``, ``-e``/``--entry``, ``-soname``/``-h``, ``-L``/``-l``,
``--whole-archive``, ``-Bstatic``/``-Bdynamic``, ``@response-file``) so build
scripts written for ld.lld work unchanged. Options whose meaning depends on
their place among the inputs (``-l``, ``--whole-archive``, ``-Bstatic``)
travel through click as marked positional arguments, in order. The
output is written through a temporary file and a rename: after an error no
output file is left behind.
"""

from __future__ import annotations

import shlex
import sys

import click

from ..errors import LinkError, ToolchainError
from ..link import WholeArchive, link_result
from ..link.libsearch import find_library
from ..version import __version__
from .common import remove_stale_output, run_click, write_output

TOOL = "amdgpu-ld"

#: ld.lld single-dash spellings -> our option names.
_ALIASES = {"-shared": "--shared", "-Bshareable": "--shared", "-M": "--print-map",
            "-print-map": "--print-map", "-no-undefined": "--no-undefined",
            "-e": "--entry", "-entry": "--entry"}

#: Marks a positional argument that is an option tied to its place among the
#: inputs (no file name starts with this control character in practice).
MARK = "\x1f"
#: ld.lld spellings of the positional options -> their marked token.
_POSITIONAL = {"--whole-archive": "whole", "-whole-archive": "whole",
               "--no-whole-archive": "nowhole", "-no-whole-archive": "nowhole",
               "-Bstatic": "static", "-static": "static", "--static": "static",
               "-dn": "static", "-non_shared": "static",
               "-Bdynamic": "dynamic", "-dy": "dynamic", "-call_shared": "dynamic"}
#: options taking a value (-> our option; None: the value is a library name).
_VALUED = {"-soname": "--soname", "--soname": "--soname", "-h": "--soname",
           "-L": "--library-path", "--library-path": "--library-path",
           "-l": None, "--library": None}


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
        elif arg in _POSITIONAL:
            out.append(MARK + _POSITIONAL[arg])
        elif arg in _VALUED and (arg != "-h" or _has_more(items)):
            out += _valued(arg, next(items, None))
        elif arg.startswith(tuple(f"{o}=" for o in _VALUED if o.startswith("--")) + ("-soname=",)):
            option, value = arg.split("=", 1)
            out += _valued(option, value)
        elif arg.startswith(("-l", "-L")) and len(arg) > 2:
            out += _valued(arg[:2], arg[2:])
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


def _has_more(items) -> bool:
    """Whether -h has a value after it (alone it asks for help)."""
    return getattr(items, "__length_hint__", lambda: 0)() > 0


def _valued(option: str, value: str | None) -> list[str]:
    if value is None:
        raise click.UsageError(f"{option}: missing argument")
    target = _VALUED[option]
    return [MARK + "l" + value] if target is None else [target, value]


def resolve_inputs(arguments, library_dirs) -> list:
    """Input paths in command-line order, with -l names found in the -L
    directories and archives under --whole-archive wrapped in WholeArchive."""
    inputs, whole, static_only = [], False, False
    for argument in arguments:
        if not argument.startswith(MARK):
            inputs.append(WholeArchive(argument) if whole else argument)
            continue
        word = argument[1:]
        if word in ("whole", "nowhole"):
            whole = word == "whole"
        elif word in ("static", "dynamic"):
            static_only = word == "static"
        else:  # "l" + library name
            path = find_library(word[1:], library_dirs, static_only)
            inputs.append(WholeArchive(path) if whole else path)
    return inputs


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
@click.option("--soname", default=None, help="DT_SONAME of the output (-soname, -h).")
@click.option("--library-path", "-L", "library_dirs", multiple=True,
              help="Directory searched by -l NAME (libNAME.so, then libNAME.a).")
def command(inputs, shared, output, no_undefined, map_file, print_map, entry,
            concatenate_notes, soname, library_dirs):
    """Link relocatable AMDGPU objects (and .a archives) into a shared code object.

    -l NAME, --whole-archive / --no-whole-archive and -Bstatic / -Bdynamic
    apply in their place among the inputs, as in ld.lld."""
    try:
        files = resolve_inputs(inputs, library_dirs)
        if not files:
            raise LinkError("no input files")
        result = link_result(files, no_undefined=no_undefined,
                             merge_notes=not concatenate_notes, entry=entry, soname=soname)
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

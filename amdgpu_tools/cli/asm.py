"""``amdgpu-as``: assemble one LLVM-MC-style source file into a relocatable object.

Accepts llvm-mc's spellings too (``-mcpu=``, ``-triple=``, ``-filetype=obj``,
``-show-encoding``, ``--amdhsa-code-object-version=``), so scripts written for
llvm-mc work unchanged. Every diagnostic is printed; the output file is
written (through a temporary file and a rename) only if there is no error.
"""

from __future__ import annotations

import os
import sys

import click

from ..asm import assemble_object
from ..asm.diagnostics import Diagnostic
from ..errors import AsmError, ToolchainError
from .common import llvm_style_args, remove_stale_output, run_click, write_output

TOOL = "amdgpu-as"

_LLVM_SPELLINGS = {
    "mcpu": "mcpu", "triple": "triple", "o": "output", "filetype": "filetype",
    "arch": "arch", "show-encoding": "show-encoding", "mattr": "mattr",
    "amdhsa-code-object-version": "code-object-version",
    "code-object-version": "code-object-version",
}


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("source", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--mcpu", "--cpu", "mcpu", default="gfx900", show_default=True,
              help="Target processor (gfx600..gfx909 or an alias); may carry :xnack+ etc.")
@click.option("--triple", default="amdgcn-amd-amdhsa", show_default=True,
              help="Target triple (amdgcn-amd-amdhsa).")
@click.option("--arch", default=None, help="Architecture (amdgcn).")
@click.option("--mattr", default="", help="Target features, e.g. +xnack,-sramecc.")
@click.option("--code-object-version", "--amdhsa-code-object-version", "code_object_version",
              type=click.IntRange(2, 5), default=None,
              help="Code object version (default: from directives, else 5).")
@click.option("-o", "--output", default=None, help="Output object file (default: SOURCE.o).")
@click.option("--filetype", type=click.Choice(["obj", "null"]), default="obj",
              help="obj writes the object; null only checks the source.")
@click.option("--show-encoding", is_flag=True, help="Print each instruction with its encoding.")
@click.option("-I", "include_dirs", multiple=True, metavar="DIR",
              help="Directory searched by .include and .incbin (after the working directory).")
@click.option("--dwarf-version", type=click.IntRange(2, 5), default=None,
              help="DWARF version of .debug_line/.debug_frame (default 4; .file 0 means 5).")
@click.option("--fdebug-compilation-dir", "compilation_dir", default=None, metavar="DIR",
              help="Compilation directory named in a DWARF 5 line table (default: cwd).")
@click.option("--check", is_flag=True,
              help="Check the code for hazards (missing s_waitcnt, missing wait states): "
                   "each is a warning at its line; exit status 1 when any is found.")
@click.option("--legacy-e-flags", "legacy_e_flags", type=click.Choice(["0", "0x2"]),
              default=None, help="Code object v2 only: write e_flags 0 or 0x2 "
              "(EF_AMDGPU_ARCH_GCN) as early v2 producers did, naming the processor only in "
              "the .hsa_code_object_isa note (default: the processor's EF_AMDGPU_MACH, as "
              "llvm-mc writes it).")
def command(source, mcpu, triple, arch, mattr, code_object_version, output, filetype,
            show_encoding, include_dirs, dwarf_version, compilation_dir, check, legacy_e_flags):
    """Assemble SOURCE (an AMDGPU .s file, '-' for stdin) into an ELF code object."""
    if not triple.startswith("amdgcn") or (arch and arch != "amdgcn"):
        raise ToolchainError(f"unsupported target triple '{triple}' (use amdgcn-amd-amdhsa)")
    text, filename = _read_source(source)
    try:
        data, asm = assemble_object(text, mcpu, filename, code_object_version,
                                    show_encoding, mattr or None, include_dirs, dwarf_version,
                                    compilation_dir,
                                    None if legacy_e_flags is None else int(legacy_e_flags, 0))
    except AsmError as failure:
        for diagnostic in failure.diagnostics:
            click.echo(diagnostic.format(), err=True)
        if not failure.diagnostics:
            click.echo(f"{TOOL}: error: {failure}", err=True)
        remove_stale_output(output if output is not None else
                            (None if show_encoding else _default_output(source)))
        return 1
    for diagnostic in asm.diagnostics:
        click.echo(diagnostic.format(), err=True)
    if show_encoding:
        click.echo("\n".join(asm.listing))
    if filetype == "obj" and not (show_encoding and output is None):
        write_output(output or _default_output(source), data)
    if check:
        return _report_hazards(data, asm, filename)
    return 0


def _report_hazards(data, asm, filename):
    """``amdgpu-as --check``: every hazard as a warning at the line of the
    instruction that suffers it (the object is written all the same)."""
    from ..analysis.hazards import check_elf
    from ..elf.reader import read_elf
    hazards = check_elf(read_elf(data, filename))
    for hazard in hazards:
        message = "hazard: " + hazard.describe()
        where = asm.instruction_locations.get((hazard.section, hazard.pc))
        click.echo(Diagnostic("warning", message, where).format() if where is not None
                   else f"{filename}: warning: {message}", err=True)
    return 1 if hazards else 0


def _read_source(source):
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            return sys.stdin.read(), "<stdin>"
        return stream.read().decode("utf-8", "surrogateescape"), "<stdin>"
    try:
        with open(source, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read(), source
    except OSError as error:
        raise ToolchainError(f"cannot read '{source}': {error.strerror}") from None


def _default_output(source):
    if source == "-":
        return "a.out"
    base, _ = os.path.splitext(source)
    return base + ".o"


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return run_click(command, TOOL, llvm_style_args(args, _LLVM_SPELLINGS))


if __name__ == "__main__":
    sys.exit(main())

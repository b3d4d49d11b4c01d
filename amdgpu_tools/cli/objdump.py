"""``amdgpu-objdump``: look inside AMDGPU code objects (ET_REL and ET_DYN, v2-v5).

``-d`` disassembles every executable section symbol by symbol in
llvm-objdump's layout (``<text>  // ADDRESS: WORDS``); ``--notes`` prints the
notes with decoded metadata, ``--kernels`` every kernel descriptor field by
field, ``--raw HEX --mcpu CPU`` disassembles bytes given on the command line.
An input may also be a clang offload bundle (what hipcc --genco writes), or a
host object holding one in ``.hip_fatbin`` (clang -x hip -c): the bundle's
amdgcn entries are listed one after another (``--mcpu`` picks one).
``-t``/``--syms``, ``--section-headers`` and ``-r``/``--reloc`` print the
tables. ``--resource-usage`` prints each kernel's registers, LDS, scratch,
spills and occupancy (``amdgpu_tools.analysis.resources``; ``--json``: one
JSON object per kernel and line). ``--live-registers`` prints the live VGPR
and SGPR counts at every instruction of each kernel and function, the peak
lines marked (``amdgpu_tools.analysis.liveness``; ``--json`` too). ``--check``
reports hazards (missing ``s_waitcnt``, missing wait states) found statically
on each control-flow graph (``amdgpu_tools.analysis.hazards``), exit status 1
when there are any. ``--cfg -o DIR`` draws the control-flow
graph of each kernel and function as ``DIR/<name>.svg``
(``amdgpu_tools.analysis.cfg``, drawn by Graphviz). The listings themselves are
``amdgpu_tools.elf.listing``; this module parses arguments and prints.
"""

from __future__ import annotations

import io
import json
import sys

import click

from ..elf.listing import (disassembly, instruction_line, kernels_listing, notes_listing,
                           relocation_listing, section_headers, symbol_table)
from ..elf.constants import EM_AMDGPU
from ..elf.reader import ElfFile, read_elf
from ..errors import ElfFormatError, LoadError, ToolchainError
from ..runtime.bundle import ELF_MAGIC, is_offload_bundle, read_bundle, select_entry
from .common import llvm_style_args, run_click

TOOL = "amdgpu-objdump"


@click.command(context_settings={"help_option_names": ["--help"]})
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("-d", "--disassemble", is_flag=True, help="Disassemble executable sections.")
@click.option("--notes", is_flag=True, help="Print notes and decoded metadata.")
@click.option("--kernels", is_flag=True, help="Decode kernel descriptors field by field.")
@click.option("-t", "--syms", is_flag=True, help="Print the symbol table.")
@click.option("-h", "--section-headers", "headers", is_flag=True, help="Print section headers.")
@click.option("-r", "--reloc", is_flag=True, help="Print relocations.")
@click.option("--raw", "raw_hex", default=None,
              help="Disassemble hex dwords (7E0002F2 BF810000) or bytes (f202007e).")
@click.option("--mcpu", default=None,
              help="Processor (default: the object's own); picks a bundle's entry.")
@click.option("--resource-usage", "resource_usage", is_flag=True,
              help="Registers, LDS, scratch, spills and occupancy of each kernel.")
@click.option("--live-registers", "live_registers", is_flag=True,
              help="Live VGPRs and SGPRs at each instruction of each kernel and function, "
                   "peaks marked *.")
@click.option("--check", "check", is_flag=True,
              help="Check each kernel and function for hazards (missing s_waitcnt, missing "
                   "wait states); exit status 1 when any is found.")
@click.option("--json", "as_json", is_flag=True,
              help="With --resource-usage or --live-registers: one JSON object per kernel "
                   "and line.")
@click.option("--lds-dynamic", "lds_dynamic", type=click.IntRange(min=0), default=0,
              metavar="BYTES", help="With --resource-usage: a launch's dynamic LDS per work-group.")
@click.option("--workgroup-size", "workgroup_size", type=click.IntRange(1, 1024), default=None,
              metavar="N", help="With --resource-usage: the launch's work-group size "
                                "(default: the kernel's max flat work-group size).")
@click.option("--cfg", "cfg", is_flag=True,
              help="Draw each kernel's and function's control-flow graph as DIR/<name>.svg "
                   "(with -o DIR; needs Graphviz's dot).")
@click.option("-o", "--output-dir", "output_dir", default=None, metavar="DIR",
              help="With --cfg: the directory for the SVG files (created if need be).")
def command(files, disassemble, notes, kernels, syms, headers, reloc, raw_hex, mcpu,
            resource_usage, live_registers, check, as_json, lds_dynamic, workgroup_size, cfg,
            output_dir):
    """Disassemble and describe AMDGPU code objects.

    FILES may be code objects, clang offload bundles (hipcc --genco) or host
    objects carrying one (.hip_fatbin); a bundle's amdgcn entries are listed
    one by one as FILE(BUNDLE ID), or only the one --mcpu names."""
    if raw_hex is not None:
        click.echo(raw_disassembly(raw_hex, mcpu or "gfx900"), nl=False)
        return 0
    if not files:
        raise click.UsageError("no input files (or use --raw HEX)")
    listings = disassemble or notes or kernels or syms or headers or reloc
    if not (listings or resource_usage or live_registers or cfg or check):
        raise click.UsageError("choose at least one of -d, --notes, --kernels, -t, -h, -r, "
                               "--resource-usage, --live-registers, --cfg, --check")
    if cfg != (output_dir is not None):
        raise click.UsageError("--cfg needs -o DIR (and -o goes with --cfg)")
    if (lds_dynamic or workgroup_size) and not resource_usage:
        raise click.UsageError("--lds-dynamic and --workgroup-size go with --resource-usage")
    if as_json and not (resource_usage or live_registers):
        raise click.UsageError("--json goes with --resource-usage or --live-registers")
    if as_json and listings:
        raise click.UsageError("--json prints only --resource-usage and --live-registers")
    usage = (lds_dynamic, workgroup_size, as_json) if resource_usage else None
    written: set[str] = set()           # SVG names of this run (a repeated name gets .2)
    hazards = 0
    for path in files:
        for name, elf in code_objects(path, mcpu):
            if check:
                hazards += _check(name, elf, mcpu)
            if cfg:
                _cfg_svgs(elf, mcpu, output_dir, written)
            if not (listings or resource_usage or live_registers):
                continue
            if as_json:
                if resource_usage:
                    _resource_json(name, elf, mcpu, lds_dynamic, workgroup_size)
                if live_registers:
                    _liveness_json(name, elf, mcpu)
            else:
                _describe(name, elf, disassemble, notes, kernels, syms, headers, reloc, mcpu,
                          usage, live_registers)
    return 1 if hazards else 0


def _resources(elf, mcpu, lds_dynamic, workgroup_size):
    from ..analysis.resources import resource_usage_of_elf
    _target(elf, mcpu)                      # an unknown processor: one message naming --mcpu
    return resource_usage_of_elf(elf, lds_dynamic=lds_dynamic, workgroup_size=workgroup_size,
                                 target=mcpu or None)


def _cfg_svgs(elf, mcpu, directory, written):
    from ..analysis.cfg import control_flow_graphs
    from ..analysis.cfg_draw import write_svgs
    write_svgs(control_flow_graphs(elf, _target(elf, mcpu)), directory, written)


def _resource_json(name, elf, mcpu, lds_dynamic, workgroup_size):
    for kernel in _resources(elf, mcpu, lds_dynamic, workgroup_size):
        click.echo(json.dumps({"file": name, **kernel.to_dict()}))


def _check(name, elf, mcpu):
    """``--check``: one line per hazard of the code object; how many there were."""
    from ..analysis.hazards import check_elf
    hazards = check_elf(elf, _target(elf, mcpu))
    for hazard in hazards:
        click.echo(f"{name}: hazard: {hazard.describe()}")
    return len(hazards)


def _liveness(elf, mcpu):
    from ..analysis.liveness import liveness_of_elf
    return liveness_of_elf(elf, _target(elf, mcpu))


def _liveness_json(name, elf, mcpu):
    from ..analysis.liveness import as_json
    for liveness in _liveness(elf, mcpu):
        click.echo(json.dumps({"file": name, **as_json(liveness)}))


def _describe(name, elf, disassemble, notes, kernels, syms, headers, reloc, mcpu, usage=None,
              live_registers=False):
    """Every listing asked for, of one code object."""
    click.echo(f"\n{name}:\tfile format elf64-amdgpu")
    if headers:
        click.echo(section_headers(elf), nl=False)
    if syms:
        click.echo(symbol_table(elf), nl=False)
    if reloc:
        click.echo(relocation_listing(elf), nl=False)
    if notes:
        click.echo(notes_listing(elf), nl=False)
    if kernels:
        click.echo(kernels_listing(elf), nl=False)
    if disassemble:
        click.echo(disassembly(elf, _target(elf, mcpu)), nl=False)
    if usage is not None:
        found = _resources(elf, mcpu, usage[0], usage[1])
        for kernel in found:
            click.echo("\n" + kernel.describe())
        if not found:
            click.echo("\nno kernels")
    if live_registers:
        from ..analysis.liveness import listing
        found = _liveness(elf, mcpu)
        for liveness in found:
            click.echo("\n" + listing(liveness), nl=False)
        if not found:
            click.echo("\nno kernels or functions")


# --- inputs -------------------------------------------------------------------
def code_objects(path, mcpu=None) -> list[tuple[str, ElfFile]]:
    """``[(name, ElfFile)]`` of one input file: the code object itself, or the
    device entries of a clang offload bundle (``hipcc --genco``, ``clang -x hip
    --cuda-device-only``, compressed or not; or the one in a host object's
    ``.hip_fatbin``), each named ``PATH(BUNDLE ID)`` as
    llvm-objdump names an archive member. ``--mcpu`` picks the one entry that
    processor (or target ID, ``gfx900:xnack-``) would load; without it every
    amdgcn entry is listed, in bundle order."""
    data = _read(path)
    data = _hip_fatbin(data) or data
    if not is_offload_bundle(data):
        return [(str(path), read_elf(data, str(path)))]
    try:
        entries = read_bundle(data)
        if mcpu:
            entries = [select_entry(entries, mcpu)]
        else:
            entries = [e for e in entries if e.is_device_code] or [select_entry(entries)]
    except LoadError as failure:  # select_entry names what the bundle holds
        raise LoadError(f"{path}: {failure}") from None
    objects = []
    for entry in entries:
        name = f"{path}({entry.bundle_id})"
        if entry.data[:4] != ELF_MAGIC:
            raise LoadError(f"{name}: bundle entry is not an ELF code object (bitcode or "
                            "assembly bundles have nothing to disassemble)")
        objects.append((name, read_elf(entry.data, name)))
    return objects


#: the host object section clang puts a HIP program's offload bundle in
HIP_FATBIN_SECTION = ".hip_fatbin"


def _hip_fatbin(data: bytes) -> bytes | None:
    """The offload bundle inside a host ELF object (``clang -x hip -c``, hipcc
    without --genco), or None: not such an object (its own errors come later)."""
    if data[:4] != ELF_MAGIC or int.from_bytes(data[18:20], "little") == EM_AMDGPU:
        return None
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    try:
        section = ELFFile(io.BytesIO(data)).get_section_by_name(HIP_FATBIN_SECTION)
        bundle = section.data() if section is not None else None
    except (ELFError, ValueError, EOFError, OverflowError):  # malformed: read_elf says what is wrong
        return None
    return bundle if bundle and is_offload_bundle(bundle) else None


def _read(path) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as failure:
        raise ElfFormatError(f"{path}: cannot read: {failure.strerror}") from None


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return run_click(command, TOOL, llvm_style_args(args, {"mcpu": "mcpu"}))


def _target(elf: ElfFile, mcpu):
    from ..isa.targets import get_target, target_of_elf
    if mcpu:
        return get_target(mcpu)
    try:
        return target_of_elf(elf)
    except ToolchainError:
        raise ElfFormatError(f"{elf.name}: unknown processor in e_flags 0x{elf.flags:x}; "
                             "give --mcpu") from None


# --- --raw -------------------------------------------------------------------
def raw_disassembly(hex_text: str, mcpu: str) -> str:
    from ..isa import disassemble
    code = parse_raw_hex(hex_text)
    return "".join(instruction_line(address, inst) for address, inst in disassemble(code, mcpu))


def parse_raw_hex(hex_text: str) -> bytes:
    """Bytes from ``--raw``: dwords as objdump prints them (``7E0002F2 BF810000``,
    ``0x7e0002f2,0xbf810000``, little-endian in memory) or one run of bytes in
    memory order (``f202007e``)."""
    tokens = hex_text.replace(",", " ").split()
    try:
        if len(tokens) > 1 or any(t.lower().startswith("0x") for t in tokens):
            return b"".join(int(t, 16).to_bytes(4, "little") for t in tokens)
        return bytes.fromhex("".join(tokens))
    except (ValueError, OverflowError):
        raise ToolchainError(f"--raw: expected hexadecimal dwords or bytes, got {hex_text!r}") from None

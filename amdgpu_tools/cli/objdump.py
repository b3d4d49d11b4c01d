"""``amdgpu-objdump``: look inside AMDGPU code objects (ET_REL and ET_DYN, v2-v5).

``-d`` disassembles every executable section symbol by symbol in
llvm-objdump's layout (``<text>  // ADDRESS: WORDS``); a v2 kernel's leading
``amd_kernel_code_t`` is shown as a header rather than decoded as code.
``--notes`` prints the notes with decoded metadata, ``--kernels`` every
kernel descriptor field by field, ``--raw HEX --mcpu CPU`` disassembles bytes
given on the command line. ``-t``/``--syms``, ``--section-headers`` and
``-r``/``--reloc`` print the tables.
"""

from __future__ import annotations

import click

from ..elf import constants as C
from ..elf.kernel_code import AMD_KERNEL_CODE_T_SIZE, AmdKernelCodeT
from ..elf.kernel_descriptor import ENTRY_OFFSET_FIELD, KERNEL_DESCRIPTOR_SIZE, KernelDescriptor
from ..elf.metadata import kernels_from_notes
from ..elf.notes import describe_note
from ..elf.reader import ElfFile, read_elf_file
from ..errors import ElfFormatError, ToolchainError
from .common import llvm_style_args, run_click

TOOL = "amdgpu-objdump"
#: llvm-objdump pads the instruction text to this width before ``// ``
TEXT_COLUMN = 59


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
@click.option("--mcpu", default=None, help="Processor (default: the object's own).")
def command(files, disassemble, notes, kernels, syms, headers, reloc, raw_hex, mcpu):
    """Disassemble and describe AMDGPU code objects."""
    if raw_hex is not None:
        click.echo(raw_disassembly(raw_hex, mcpu or "gfx900"), nl=False)
        return 0
    if not files:
        raise click.UsageError("no input files (or use --raw HEX)")
    if not (disassemble or notes or kernels or syms or headers or reloc):
        raise click.UsageError("choose at least one of -d, --notes, --kernels, -t, -h, -r")
    for path in files:
        elf = read_elf_file(path)
        click.echo(f"\n{path}:\tfile format elf64-amdgpu")
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
    return 0


def main(argv=None) -> int:
    import sys
    args = list(sys.argv[1:] if argv is None else argv)
    return run_click(command, TOOL, llvm_style_args(args, {"mcpu": "mcpu"}))


def _target(elf: ElfFile, mcpu):
    from ..isa.targets import get_target, target_by_mach
    if mcpu:
        return get_target(mcpu)
    try:
        return target_by_mach(elf.mach)
    except ToolchainError:
        raise ElfFormatError(f"{elf.name}: unknown processor in e_flags 0x{elf.flags:x}; "
                             "give --mcpu") from None


# --- disassembly ------------------------------------------------------------
def instruction_line(address: int, inst, describe_target=None) -> str:
    """One line as llvm-objdump prints it; branches get `` <symbol+0xoffset>``."""
    words = " ".join(f"{w:08X}" for w in inst.words)
    if getattr(inst, "size", 4) < 4:
        words = " ".join(f"{b:02X}" for b in inst.words[0].to_bytes(4, "little")[:inst.size])
    text = inst.text()
    text = text.ljust(TEXT_COLUMN) if len(text) < TEXT_COLUMN else text + " "
    target = branch_target(address, inst)
    suffix = ""
    if target is not None and describe_target is not None:
        where = describe_target(target)
        suffix = f" <{where}>" if where else ""
    return f"\t{text}// {address:012X}: {words}{suffix}\n"


def branch_target(address: int, inst) -> int | None:
    """Target of an instruction with a 'label' operand (SOPP simm16: pc + 4 + 4 * simm16)."""
    info = getattr(inst, "info", None)
    operands = getattr(info, "operands", None) or ()
    for operand in operands:
        if isinstance(operand, dict) and operand.get("kind") == "label":
            offset = inst.fields.get(operand["field"], 0)
            offset -= 0x10000 if offset & 0x8000 else 0
            return address + 4 + 4 * offset
    return None


def _symbolizer(labels: dict[int, str]):
    """``<name+0xoff>`` for an address: the nearest label at or before it."""
    ordered = sorted(labels.items())

    def describe(address: int) -> str | None:
        best = None
        for start, name in ordered:
            if start <= address:
                best = (start, name)
        if best is None:
            return None
        return best[1] if best[0] == address else f"{best[1]}+0x{address - best[0]:x}"
    return describe


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


def _labels(elf: ElfFile, section) -> dict[int, str]:
    """Address -> label llvm-objdump shows (the last of (addr, type, name) order)."""
    chosen: dict[int, tuple] = {}
    for symbol in elf.symbols or elf.dynamic_symbols:
        if symbol.shndx != section.index or symbol.type in (C.STT_SECTION, C.STT_FILE):
            continue
        key = (symbol.value, symbol.type, symbol.name)
        if symbol.value not in chosen or key > chosen[symbol.value]:
            chosen[symbol.value] = key
    return {address: key[2] for address, key in chosen.items()}


def _kernel_headers(elf: ElfFile, section) -> set[int]:
    """Addresses where a v2 kernel's amd_kernel_code_t starts."""
    return {s.value for s in elf.symbols or elf.dynamic_symbols
            if s.shndx == section.index and s.type == C.STT_AMDGPU_HSA_KERNEL}


def disassembly(elf: ElfFile, target) -> str:
    from ..isa import disassemble
    out = []
    for section in elf.sections:
        if section.type != C.SHT_PROGBITS or not section.flags & C.SHF_EXECINSTR \
                or section.size == 0:
            continue
        out.append(f"\nDisassembly of section {section.name}:\n")
        labels = _labels(elf, section)
        headers = _kernel_headers(elf, section)
        describe = _symbolizer(labels)
        base = section.addr
        starts = sorted({base} | {a for a in labels if base <= a < base + section.size})
        for index, start in enumerate(starts):
            end = starts[index + 1] if index + 1 < len(starts) else base + section.size
            name = labels.get(start, section.name)
            out.append(f"\n{start:016x} <{name}>:\n")
            if start in headers and end - start >= AMD_KERNEL_CODE_T_SIZE:
                out.append(f"\t; amd_kernel_code_t ({AMD_KERNEL_CODE_T_SIZE} bytes, "
                           f"see --kernels)\n")
                start += AMD_KERNEL_CODE_T_SIZE
            code = section.data[start - base:end - base]
            for address, inst in disassemble(code, target, start):
                out.append(instruction_line(address, inst, describe))
    return "".join(out)


# --- tables -------------------------------------------------------------------
def section_headers(elf: ElfFile) -> str:
    lines = ["\nSections:", "Idx Name                 Type       Size     Address          Flags"]
    for s in elf.sections[1:]:
        flags = "".join(ch for bit, ch in ((C.SHF_WRITE, "W"), (C.SHF_ALLOC, "A"),
                                          (C.SHF_EXECINSTR, "X")) if s.flags & bit)
        kind = C.SHT_NAMES.get(s.type, hex(s.type))
        lines.append(f"{s.index:3} {s.name:<20} {kind:<10} {s.size:08x} {s.addr:016x} {flags}")
    return "\n".join(lines) + "\n"


def symbol_table(elf: ElfFile) -> str:
    lines = ["\nSYMBOL TABLE:"]
    for table in (elf.symbols, elf.dynamic_symbols):
        for s in table[1:]:
            where = s.section or ("*UND*" if s.shndx == C.SHN_UNDEF else "*ABS*")
            lines.append(f"{s.value:016x} {C.STB_NAMES.get(s.bind, s.bind):<6} "
                         f"{C.STT_NAMES.get(s.type, s.type):<17} "
                         f"{C.STV_NAMES.get(s.visibility, s.visibility):<9} "
                         f"{where:<12} {s.size:016x} {s.name}")
    return "\n".join(lines) + "\n"


def relocation_listing(elf: ElfFile) -> str:
    lines = []
    for target, relocations in elf.relocations.items():
        lines.append(f"\nRELOCATION RECORDS FOR [{target}]:")
        lines.append("OFFSET           TYPE                     VALUE")
        for r in relocations:
            name = r.symbol.name if r.symbol else ""
            addend = f"+0x{r.addend:x}" if r.addend >= 0 else f"-0x{-r.addend:x}"
            lines.append(f"{r.offset:016x} {r.type_name:<24} {name}{addend}")
    return "\n".join(lines) + "\n" if lines else ""


def notes_listing(elf: ElfFile) -> str:
    lines = ["\nNotes:"]
    for note in elf.notes:
        lines.append(f"  {note.owner:<8} {note.type_name} (type {note.type}, "
                     f"{len(note.desc)} bytes)")
        for text in describe_note(note).rstrip("\n").splitlines():
            lines.append(f"    {text}")
    return "\n".join(lines) + "\n"


def _descriptor_sources(elf: ElfFile):
    """(kernel name, kind, address, bytes) for each kernel descriptor in the file."""
    symbols = elf.symbols or elf.dynamic_symbols
    for symbol in symbols:
        if not symbol.is_defined or symbol.shndx >= len(elf.sections):
            continue
        section = elf.sections[symbol.shndx]
        start = symbol.value - section.addr
        if symbol.type == C.STT_AMDGPU_HSA_KERNEL:
            size, kind = AMD_KERNEL_CODE_T_SIZE, "amd_kernel_code_t"
        elif symbol.name.endswith(".kd") and symbol.type == C.STT_OBJECT:
            size, kind = KERNEL_DESCRIPTOR_SIZE, "kernel descriptor"
        else:
            continue
        data = section.data[start:start + size]
        if start < 0 or len(data) < size:
            raise ElfFormatError(f"{elf.name}: {kind} of '{symbol.name}' lies outside "
                                 f"section '{section.name}'")
        yield symbol.name, kind, symbol.value, data


def _entry_of(elf: ElfFile, kind: str, address: int, data: bytes) -> str:
    """Where the kernel's code starts: an address, or the relocation that will say."""
    if kind == "amd_kernel_code_t":
        offset = AmdKernelCodeT.from_bytes(data).get("kernel_code_entry_byte_offset")
    else:
        offset = KernelDescriptor.from_bytes(data).fields["kernel_code_entry_byte_offset"]
        for relocations in elf.relocations.values():
            for r in relocations:
                if r.offset == address + ENTRY_OFFSET_FIELD and r.symbol is not None:
                    delta = r.addend - ENTRY_OFFSET_FIELD
                    plus = f"+0x{delta:x}" if delta > 0 else (f"-0x{-delta:x}" if delta else "")
                    return f"{r.symbol.name}{plus} (by {r.type_name})"
    return f"0x{address + offset:x}"


def kernels_listing(elf: ElfFile) -> str:
    lines = []
    for name, kind, address, data in _descriptor_sources(elf):
        lines.append(f"\n{kind} of {name} at 0x{address:x}:")
        if kind == "amd_kernel_code_t":
            rows = AmdKernelCodeT.from_bytes(data).describe()
        else:
            descriptor = KernelDescriptor.from_bytes(data)
            rows = descriptor.describe()
            rows.append(("(vgpr_count)", descriptor.vgpr_count))
            rows.append(("(sgpr_count)", descriptor.sgpr_count))
        for key, value in rows:
            shown = f"0x{value:x}" if value > 9 else str(value)
            lines.append(f"  {key} = {shown}")
        lines.append(f"  (entry) = {_entry_of(elf, kind, address, data)}")
    kernels = kernels_from_notes(elf.notes)
    if kernels:
        lines.append("\nkernels in metadata:")
        for kernel in kernels:
            lines.append(f"  {kernel.name} (symbol {kernel.symbol}): kernarg "
                         f"{kernel.kernarg_segment_size} bytes align "
                         f"{kernel.kernarg_segment_align}, group "
                         f"{kernel.group_segment_fixed_size}, private "
                         f"{kernel.private_segment_fixed_size}, sgprs {kernel.sgpr_count}, "
                         f"vgprs {kernel.vgpr_count}, wavefront {kernel.wavefront_size}")
            for arg in kernel.args:
                lines.append(f"    [{arg.offset}:{arg.offset + arg.size}] {arg.value_kind}"
                             f" {arg.address_space or ''} {arg.type_name} {arg.name}".rstrip())
    if not lines:
        lines.append("\nno kernels")
    return "\n".join(lines) + "\n"

"""What ``amdgpu-objdump`` prints, as a library: disassembly per symbol and the
ELF tables (sections, symbols, relocations, notes, kernel descriptors) of a
parsed code object, in llvm-objdump's layout where it has one.

Disassembly shows a v2 kernel's leading ``amd_kernel_code_t`` as a header
rather than decoding it as code; ``kernels_listing`` finds each descriptor
through its symbol (``STT_AMDGPU_HSA_KERNEL`` or ``NAME.kd``) and names where
its code starts, through the entry relocation in a relocatable object.
"""

from __future__ import annotations

from . import constants as C
from ..errors import ElfFormatError
from .kernel_code import AMD_KERNEL_CODE_T_SIZE, AmdKernelCodeT
from .kernel_descriptor import ENTRY_OFFSET_FIELD, KERNEL_DESCRIPTOR_SIZE, KernelDescriptor
from .metadata import kernels_from_notes
from .notes import describe_note
from .reader import ElfFile

#: llvm-objdump pads the instruction text to this width before ``// ``
TEXT_COLUMN = 59


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


def kernel_headers(elf: ElfFile, section) -> set[int]:
    """Addresses where a v2 kernel's amd_kernel_code_t starts."""
    return {s.value for s in elf.symbols or elf.dynamic_symbols
            if s.shndx == section.index and s.type == C.STT_AMDGPU_HSA_KERNEL}


def disassembly(elf: ElfFile, target) -> str:
    """``-d``: every non-empty executable PROGBITS section, symbol by symbol."""
    return "".join(_section_disassembly(elf, section, target) for section in elf.sections
                   if section.type == C.SHT_PROGBITS and section.flags & C.SHF_EXECINSTR
                   and section.size)


def _section_disassembly(elf: ElfFile, section, target) -> str:
    """One section split at its labels (as llvm-objdump splits it), each range decoded;
    a v2 kernel's amd_kernel_code_t is named, not decoded as instructions."""
    from ..isa import disassemble
    labels = _labels(elf, section)
    headers = kernel_headers(elf, section)
    describe = _symbolizer(labels)
    base, end_of_section = section.addr, section.addr + section.size
    starts = sorted({base} | {a for a in labels if base <= a < end_of_section})
    out = [f"\nDisassembly of section {section.name}:\n"]
    for start, end in zip(starts, starts[1:] + [end_of_section]):
        out.append(f"\n{start:016x} <{labels.get(start, section.name)}>:\n")
        if start in headers and end - start >= AMD_KERNEL_CODE_T_SIZE:
            out.append(f"\t; amd_kernel_code_t ({AMD_KERNEL_CODE_T_SIZE} bytes, "
                       f"see --kernels)\n")
            start += AMD_KERNEL_CODE_T_SIZE
        for address, inst in disassemble(section.data[start - base:end - base], target, start):
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


def descriptor_sources(elf: ElfFile):
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
    """``--kernels``: each descriptor field by field, then what the metadata says
    of each kernel (the two can disagree in a hand-written object)."""
    lines = []
    for name, kind, address, data in descriptor_sources(elf):
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

"""``.cfi_*`` directives -> ``.eh_frame`` and/or ``.debug_frame``, as llvm-mc writes them.

Between ``.cfi_startproc`` and ``.cfi_endproc`` each directive records one
call-frame instruction at the current offset. When assembly ends, every
frame becomes an FDE after a CIE, in ``.eh_frame`` unless ``.cfi_sections``
says otherwise (clang names ``.debug_frame`` for AMDGPU). GCN specifics,
from llvm-mc's output: the code alignment factor is 4 (instruction units),
the data alignment factor is +4 (the scratch stack grows up), and the return
address column is 16 (PC of a wave64 target).

``.debug_frame`` has one CIE (version from the DWARF version: 1, 3 or 4) and
FDEs that point at it and at their code with ``R_AMDGPU_ABS32``/``ABS64``;
``.eh_frame`` has "zR" CIEs (one per distinct frame kind) and FDEs whose code
address is PC-relative (``R_AMDGPU_REL32``). The instruction encodings follow
the DWARF standard's DW_CFA_* table and LLVM's FrameEmitterImpl choices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..elf import constants as elfc
from .diagnostics import StatementError
from .dwarf_bytes import DwarfBuffer, append_to_section, temporary_label
from .model import Location
from .syntax import StringLit, parse_arguments

CODE_ALIGNMENT_FACTOR = 4
DATA_ALIGNMENT_FACTOR = 4
RETURN_ADDRESS_REGISTER = 16
ADDRESS_SIZE = 8
#: pointer encoding of .eh_frame FDE addresses: DW_EH_PE_pcrel | DW_EH_PE_sdata4
EH_FDE_ENCODING = 0x1B

DW_CFA_advance_loc, DW_CFA_offset, DW_CFA_restore = 0x40, 0x80, 0xC0
DW_CFA_advance_loc1, DW_CFA_advance_loc2, DW_CFA_advance_loc4 = 0x02, 0x03, 0x04
DW_CFA_offset_extended, DW_CFA_restore_extended, DW_CFA_undefined = 0x05, 0x06, 0x07
DW_CFA_same_value, DW_CFA_register, DW_CFA_remember_state = 0x08, 0x09, 0x0A
DW_CFA_restore_state, DW_CFA_def_cfa, DW_CFA_def_cfa_register = 0x0B, 0x0C, 0x0D
DW_CFA_def_cfa_offset, DW_CFA_offset_extended_sf, DW_CFA_LLVM_def_aspace_cfa = 0x0E, 0x11, 0x30

#: DWARF register numbers llvm-mc gives GCN register names in CFI directives (the
#: same on GFX6-GFX9): sN (N < 64), sN (N >= 64), vN, and single special registers.
#: Other registers (vcc, m0, ttmpN, ranges such as s[30:31]) have none: 0xFFFFFFFF.
_SGPR_LOW, _SGPR_HIGH, _VGPR = 32, 1088, 2560
_SPECIAL_REGISTERS = {"pc": 16, "exec": 17, "exec_lo": 1}
_NO_DWARF_NUMBER = 0xFFFFFFFF
_NUMBERED = re.compile(r"([sv])(\d+)$")
_UNNUMBERED = re.compile(
    r"(exec_hi|vcc|vcc_lo|vcc_hi|m0|scc|vccz|execz|flat_scratch(_lo|_hi)?|xnack_mask(_lo|_hi)?"
    r"|tba(_lo|_hi)?|tma(_lo|_hi)?|ttmp\d+|lds_direct|src_\w+"
    r"|[sv]\[\d+(:\d+)?\]|ttmp\[\d+(:\d+)?\])$")

#: directive -> positions of operands that name a register (a number or a register name)
_REGISTER_OPERANDS = {".cfi_register": (0, 1), ".cfi_def_cfa_offset": (),
                      ".cfi_adjust_cfa_offset": (), ".cfi_remember_state": (),
                      ".cfi_restore_state": ()}

#: directive -> number of register/number operands
_OPERANDS = {
    ".cfi_def_cfa": 2, ".cfi_def_cfa_offset": 1, ".cfi_adjust_cfa_offset": 1,
    ".cfi_def_cfa_register": 1, ".cfi_llvm_def_aspace_cfa": 3, ".cfi_offset": 2,
    ".cfi_rel_offset": 2, ".cfi_register": 2, ".cfi_undefined": 1,
    ".cfi_same_value": 1, ".cfi_restore": 1, ".cfi_remember_state": 0,
    ".cfi_restore_state": 0, ".cfi_return_column": 1,
}


@dataclass
class Frame:
    section: object
    begin: int
    simple: bool = False
    end: int | None = None
    return_column: int = RETURN_ADDRESS_REGISTER
    signal_frame: bool = False
    #: (offset, directive name, operands) in source order
    instructions: list = field(default_factory=list)


@dataclass
class CfiState:
    eh_frame: bool = True
    debug_frame: bool = False
    frames: list = field(default_factory=list)
    open: list = field(default_factory=list)


def _state(ctx) -> CfiState:
    if ctx.debug.cfi is None:
        ctx.debug.cfi = CfiState()
    return ctx.debug.cfi


def _error(message, column=None):
    return StatementError(message, column)


_OUTSIDE = "this directive must appear between .cfi_startproc and .cfi_endproc directives"


def _current_frame(ctx, directive) -> Frame:
    state = _state(ctx)
    if not state.open:
        raise _error(_OUTSIDE, directive.column)
    return state.open[-1]


def directive_sections(ctx, directive):
    """``.cfi_sections [.eh_frame][, .debug_frame]``: which tables to write."""
    names = [part.strip() for part in directive.rest.split(",")] if directive.rest.strip() else []
    state = _state(ctx)  # other names are accepted and ignored, as llvm-mc-19 does
    state.eh_frame = ".eh_frame" in names
    state.debug_frame = ".debug_frame" in names


def directive_startproc(ctx, directive):
    state = _state(ctx)
    word = directive.rest.strip()
    if word and word != "simple":
        raise _error("unexpected token", directive.rest_column + len(directive.rest.rstrip()))
    if state.open and state.open[-1].section is ctx.sections.current:
        ctx.diagnostics.error("starting new .cfi frame before finishing the previous one",
                              where=_next_line(ctx))
        return
    frame = Frame(ctx.sections.current, ctx.sections.current.size, simple=bool(word))
    state.frames.append(frame)
    state.open.append(frame)


def _next_line(ctx):
    """Where llvm-mc reports frame errors: the start of the line after the directive."""
    line = ctx.diagnostics.line
    return Location(line.filename, line.number + 1, 1, "", line.included_from)


def directive_endproc(ctx, directive):
    frame = _current_frame(ctx, directive)
    frame.end = ctx.sections.current.size
    ctx.debug.cfi.open.pop()


def directive_escape(ctx, directive):
    frame = _current_frame(ctx, directive)
    values = [ctx.symbols.absolute(arg) for arg in _arguments(directive)]
    frame.instructions.append((ctx.sections.current.size, ".cfi_escape", bytes(v & 0xFF for v in values)))


def directive_signal_frame(ctx, directive):
    _current_frame(ctx, directive).signal_frame = True


def directive_numeric(ctx, directive):
    """The register/offset CFI directives; operands are numbers (DWARF register numbers)."""
    frame = _current_frame(ctx, directive)
    args = _arguments(directive)
    count = _OPERANDS[directive.name]
    if len(args) < count:  # llvm-mc points at the end of the arguments...
        raise _error("expected comma", directive.rest_column + len(directive.rest.rstrip()))
    if len(args) > count:  # ...or at the first comma too many
        pieces = directive.rest.split(",")
        raise _error("expected newline",
                     directive.rest_column + sum(len(p) + 1 for p in pieces[:count]) - 1)
    registers = _REGISTER_OPERANDS.get(directive.name, (0,))
    texts = _argument_texts(directive)
    values = tuple(_register(ctx, texts[i]) if i in registers and not _is_number(texts[i][0])
                   else ctx.symbols.absolute(arg) for i, arg in enumerate(args))
    if directive.name == ".cfi_return_column":
        frame.return_column = values[0]
        return
    frame.instructions.append((ctx.sections.current.size, directive.name, values))


def _argument_texts(directive):
    """(text, column) of each comma-separated argument."""
    out, column = [], directive.rest_column
    for piece in directive.rest.split(","):
        stripped = piece.strip()
        out.append((stripped, column + len(piece) - len(piece.lstrip())))
        column += len(piece) + 1
    return out


def _is_number(text: str) -> bool:
    """llvm-mc reads an operand starting with a digit as a register number."""
    return text[:1].isdigit()


def _register(ctx, argument) -> int:
    """The DWARF number of a register named in a CFI directive."""
    text, column = argument
    name = text.lower()
    numbered = _NUMBERED.match(name)
    if numbered:
        index = int(numbered.group(2))
        if numbered.group(1) == "v":
            return _VGPR + index
        return _SGPR_LOW + index if index < 64 else _SGPR_HIGH + index - 64
    if name in _SPECIAL_REGISTERS:
        return _SPECIAL_REGISTERS[name]
    if _UNNUMBERED.match(name):
        return _NO_DWARF_NUMBER
    raise _error("invalid register name", column)


def _arguments(directive):
    args = parse_arguments(directive.rest, directive.rest_column - 1) if directive.rest.strip() else []
    if any(isinstance(arg, StringLit) for arg in args):
        raise _error("unexpected token", directive.rest_column)
    return args


HANDLERS = {
    ".cfi_sections": directive_sections,
    ".cfi_startproc": directive_startproc,
    ".cfi_endproc": directive_endproc,
    ".cfi_escape": directive_escape,
    ".cfi_signal_frame": directive_signal_frame,
}
HANDLERS.update({name: directive_numeric for name in _OPERANDS})


# ---- writing the tables ---------------------------------------------------------------

def write_frames(ctx, dwarf_version: int):
    """Append .eh_frame and/or .debug_frame for every finished frame."""
    state = ctx.debug.cfi
    if state.open:
        ctx.diagnostics.error("Unfinished frame!", where=Location(
            ctx.options.filename, ctx.diagnostics.end_line, 1, ""))
        return
    if not state.frames:
        return
    current, previous = ctx.sections.current, ctx.sections.previous
    if state.eh_frame:
        section = ctx.sections.switch(".eh_frame", elfc.SHT_PROGBITS, elfc.SHF_ALLOC)
        _write_table(ctx, section, state.frames, True, dwarf_version)
    if state.debug_frame:
        section = ctx.sections.switch(".debug_frame", elfc.SHT_PROGBITS, 0)
        _write_table(ctx, section, state.frames, False, dwarf_version)
    ctx.sections.current, ctx.sections.previous = current, previous


def _cie_key(frame: Frame):
    """llvm-mc sorts frames by their CIE's properties before writing them."""
    return (frame.signal_frame, frame.simple, frame.return_column)


def _write_table(ctx, section, frames, eh: bool, dwarf_version: int):
    start = len(section.data)
    out = DwarfBuffer()
    ordered = sorted(frames, key=_cie_key)
    cie_at = last_key = None
    for index, frame in enumerate(ordered):
        key = _cie_key(frame)
        if cie_at is None or (eh and key != last_key):
            last_key, cie_at = key, len(out)
            _cie(out, frame, eh, dwarf_version)
        _fde(ctx, out, section, start, frame, cie_at, eh, index == len(ordered) - 1)
    section.alignment = max(section.alignment, ADDRESS_SIZE)
    append_to_section(ctx, section, out)


def _cie_version(eh: bool, dwarf_version: int) -> int:
    if eh:
        return 1
    return {2: 1, 3: 3}.get(dwarf_version, 4)


def _cie(out: DwarfBuffer, frame: Frame, eh: bool, dwarf_version: int):
    begin = len(out)
    out.u32(0)  # length, patched below
    out.u32(0 if eh else 0xFFFFFFFF)  # CIE id
    version = _cie_version(eh, dwarf_version)
    out.u8(version)
    augmentation = (b"zR" + (b"S" if frame.signal_frame else b"")) if eh else b""
    out.raw(augmentation + b"\0")
    if version >= 4:
        out.u8(ADDRESS_SIZE)
        out.u8(0)  # segment selector size
    out.uleb(CODE_ALIGNMENT_FACTOR)
    out.sleb(DATA_ALIGNMENT_FACTOR)
    if version == 1:
        out.u8(frame.return_column)
    else:
        out.uleb(frame.return_column)
    if eh:
        out.uleb(1)  # augmentation data: the FDE pointer encoding
        out.u8(EH_FDE_ENCODING)
    out.pad_to(4 if eh else ADDRESS_SIZE)
    out.data[begin:begin + 4] = (len(out) - begin - 4).to_bytes(4, "little")


def _fde(ctx, out, section, start, frame: Frame, cie_at: int, eh: bool, last: bool):
    length_at = len(out)
    out.u32(0)
    if eh:
        out.u32(len(out) - cie_at)  # distance back to the CIE
    else:
        out.reference(temporary_label(ctx, section, start + cie_at), 4)
    begin = temporary_label(ctx, frame.section, frame.begin)
    size = 4 if eh else ADDRESS_SIZE
    out.reference(begin, size, pc_relative=eh)
    (out.u32 if eh else out.u64)(frame.end - frame.begin)
    if eh:
        out.uleb(0)  # augmentation data length
    _instructions(out, frame)
    out.pad_to(ADDRESS_SIZE if last else size)
    out.data[length_at:length_at + 4] = (len(out) - length_at - 4).to_bytes(4, "little")


def _instructions(out: DwarfBuffer, frame: Frame):
    base = frame.begin
    cfa_offset = 0
    for offset, name, operands in frame.instructions:
        if offset != base:
            _advance(out, offset - base)
            base = offset
        cfa_offset = _instruction(out, name, operands, cfa_offset)


def _advance(out: DwarfBuffer, delta: int):
    step = delta // CODE_ALIGNMENT_FACTOR
    if step == 0:
        return
    if step < 64:
        out.u8(DW_CFA_advance_loc | step)
    elif step < 0x100:
        out.u8(DW_CFA_advance_loc1)
        out.u8(step)
    elif step < 0x10000:
        out.u8(DW_CFA_advance_loc2)
        out.u16(step)
    else:
        out.u8(DW_CFA_advance_loc4)
        out.u32(step)


def _scaled(offset: int) -> int:
    """offset / data alignment factor, truncated toward zero as C++ divides."""
    quotient = abs(offset) // DATA_ALIGNMENT_FACTOR
    return quotient if offset >= 0 else -quotient


def _instruction(out: DwarfBuffer, name: str, operands, cfa_offset: int) -> int:
    """Encode one recorded directive; returns the CFA offset after it."""
    if name == ".cfi_escape":
        out.raw(operands)
    elif name in (".cfi_def_cfa_offset", ".cfi_adjust_cfa_offset"):
        cfa_offset = operands[0] + (cfa_offset if name == ".cfi_adjust_cfa_offset" else 0)
        out.u8(DW_CFA_def_cfa_offset)
        out.uleb(cfa_offset)
    elif name == ".cfi_def_cfa":
        cfa_offset = operands[1]
        out.u8(DW_CFA_def_cfa)
        out.uleb(operands[0])
        out.uleb(cfa_offset)
    elif name == ".cfi_llvm_def_aspace_cfa":
        cfa_offset = operands[1]
        out.u8(DW_CFA_LLVM_def_aspace_cfa)
        for value in (operands[0], cfa_offset, operands[2]):
            out.uleb(value)
    elif name == ".cfi_def_cfa_register":
        out.u8(DW_CFA_def_cfa_register)
        out.uleb(operands[0])
    elif name in (".cfi_offset", ".cfi_rel_offset"):
        _offset(out, operands[0], operands[1] - (cfa_offset if name == ".cfi_rel_offset" else 0))
    elif name == ".cfi_register":
        out.u8(DW_CFA_register)
        out.uleb(operands[0])
        out.uleb(operands[1])
    elif name in (".cfi_undefined", ".cfi_same_value"):
        out.u8(DW_CFA_undefined if name == ".cfi_undefined" else DW_CFA_same_value)
        out.uleb(operands[0])
    elif name == ".cfi_restore":
        if operands[0] < 64:
            out.u8(DW_CFA_restore | operands[0])
        else:
            out.u8(DW_CFA_restore_extended)
            out.uleb(operands[0])
    elif name == ".cfi_remember_state":
        out.u8(DW_CFA_remember_state)
    elif name == ".cfi_restore_state":
        out.u8(DW_CFA_restore_state)
    return cfa_offset


def _offset(out: DwarfBuffer, register: int, offset: int):
    scaled = _scaled(offset)
    if scaled < 0:
        out.u8(DW_CFA_offset_extended_sf)
        out.uleb(register)
        out.sleb(scaled)
    elif register < 64:
        out.u8(DW_CFA_offset + register)
        out.uleb(scaled)
    else:
        out.u8(DW_CFA_offset_extended)
        out.uleb(register)
        out.uleb(scaled)


__all__ = ["HANDLERS", "CfiState", "write_frames"]

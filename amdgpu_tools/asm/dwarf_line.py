"""``.file``/``.loc`` -> ``.debug_line`` (and ``.debug_line_str``), as llvm-mc writes them.

A ``.loc`` only records "the next bytes come from file:line:column"; the row
is made when the next instruction or data lands in a section, at that
offset (a second ``.loc`` first closes a pending one where it stands). When
assembly ends the table is written: a header with the directory and file
tables (DWARF 2-4 inline strings, DWARF 5 ``DW_FORM_line_strp`` offsets into
``.debug_line_str``), then one sequence per section in order of first row,
each opened by ``DW_LNE_set_address`` (an ``R_AMDGPU_ABS64``) and closed by
``DW_LNE_end_sequence`` at the section's end. Address steps are counted in
4-byte units (the minimum GCN instruction size); opcode choices follow
LLVM's ``MCDwarfLineAddr::encode`` (special opcodes, ``DW_LNS_const_add_pc``,
``DW_LNS_advance_pc``/``advance_line``/``copy``).

Facts (header constants and field order) come from the DWARF standard and
LLVM's MCDwarf; files without ``.file``/``.loc`` never reach this module.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..elf import constants as elfc
from .diagnostics import StatementError
from .dwarf_bytes import DwarfBuffer, append_to_section, temporary_label
from .leb128 import encode_leb128
from .syntax import unescape

#: Line program parameters llvm-mc uses for every target.
LINE_BASE, LINE_RANGE, OPCODE_BASE = -5, 14, 13
#: Operand counts of the standard opcodes 1..12 (copy .. set_isa).
STANDARD_OPCODE_LENGTHS = (0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1)
#: GCN instructions are multiples of 4 bytes: addresses advance in 4-byte steps.
MIN_INSTRUCTION_LENGTH = 4
ADDRESS_SIZE = 8
DEFAULT_DWARF_VERSION = 4

DW_LNS_copy, DW_LNS_advance_pc, DW_LNS_advance_line, DW_LNS_set_file = 1, 2, 3, 4
DW_LNS_set_column, DW_LNS_negate_stmt, DW_LNS_set_basic_block = 5, 6, 7
DW_LNS_const_add_pc, DW_LNS_set_prologue_end, DW_LNS_set_epilogue_begin = 8, 10, 11
DW_LNS_set_isa = 12
DW_LNE_end_sequence, DW_LNE_set_address, DW_LNE_set_discriminator = 1, 2, 4
DW_LNCT_path, DW_LNCT_directory_index, DW_LNCT_MD5, DW_LNCT_LLVM_source = 1, 2, 5, 0x2001
DW_FORM_string, DW_FORM_udata, DW_FORM_data16, DW_FORM_line_strp = 0x08, 0x0F, 0x1E, 0x1F

FLAG_IS_STMT, FLAG_BASIC_BLOCK, FLAG_PROLOGUE_END, FLAG_EPILOGUE_BEGIN = 1, 2, 4, 8
_LOC_FLAGS = {"basic_block": FLAG_BASIC_BLOCK, "prologue_end": FLAG_PROLOGUE_END,
              "epilogue_begin": FLAG_EPILOGUE_BEGIN}

#: The largest address step a special opcode can carry (in instruction units).
_MAX_SPECIAL_ADDRESS_STEP = (255 - OPCODE_BASE) // LINE_RANGE


@dataclass
class DwarfFile:
    name: str
    directory_index: int = 0
    md5: bytes | None = None
    source: str | None = None


@dataclass
class Loc:
    """The state a ``.loc`` sets: it applies to the next bytes emitted."""

    file: int = 0
    line: int = 0
    column: int = 0
    flags: int = FLAG_IS_STMT
    isa: int = 0
    discriminator: int = 0


@dataclass
class LineTable:
    """Everything ``.file``/``.loc`` collect for the one compile unit llvm-mc writes."""

    version: int
    default_compilation_dir: str
    compilation_dir: str = ""
    root: DwarfFile | None = None
    files: list = field(default_factory=lambda: [None])  # [0] unused, as in MCDwarfFiles
    directories: list = field(default_factory=list)
    source_ids: dict = field(default_factory=dict)
    all_md5: bool = True
    any_md5: bool = False
    any_source: bool = False
    reported_md5_mix: bool = False
    #: the last .loc (whether it still waits for bytes is ``ctx.debug.loc_pending``)
    loc: Loc = field(default_factory=Loc)
    #: section -> [(offset, Loc)], in order of each section's first row
    rows: dict = field(default_factory=dict)

    # ---- the file table ------------------------------------------------------

    def set_root(self, directory: str, name: str, md5, source):
        self.compilation_dir = directory
        self.root = DwarfFile(name, 0, md5, source)
        self._track(md5, source)

    def _track(self, md5, source):
        self.all_md5 &= md5 is not None
        self.any_md5 |= md5 is not None
        self.any_source |= source is not None

    def add_file(self, number: int, directory: str, name: str, md5, source) -> int:
        """``.file N``: llvm-mc's MCDwarfLineTableHeader::tryGetFile rules."""
        if directory == self.compilation_dir:
            directory = ""
        if not name:
            name, directory = "<stdin>", ""
        if len(self.files) == 1:
            self._track(md5, source)
        if self.version >= 5 and self.root is not None and self.root.name == name \
                and self.root.md5 == md5:
            return 0
        while number >= len(self.files):
            self.files.append(None)
        if self.files[number] is not None:
            raise ValueError("file number already allocated")
        if not directory and "/" in name.rstrip("/"):
            directory, name = name.rsplit("/", 1)
            directory = directory or "/"
        index = 0
        if directory:
            if directory not in self.directories:
                self.directories.append(directory)
            index = self.directories.index(directory) + 1
        self.files[number] = DwarfFile(name, index, md5, source)
        self._track(md5, source)
        return number

    def valid_file(self, number: int) -> bool:
        if number == 0:
            return self.version >= 5
        return number < len(self.files) and self.files[number] is not None

    # ---- rows ------------------------------------------------------------------

    def make_row(self, section, offset: int):
        """A row for the last ``.loc`` at ``section``+``offset`` (MCDwarfLineEntry::make)."""
        self.rows.setdefault(section, []).append((offset, self.loc))


# ---- directives -------------------------------------------------------------------

_TOKEN = re.compile(r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<number>0[xX][0-9a-fA-F]+|\d+)'
                    r'|(?P<name>[A-Za-z_.$][\w.$]*)|(?P<other>\S))')


def _tokens(directive):
    """(kind, text, column) for each token of a ``.file``/``.loc`` argument list."""
    out = []
    text, position = directive.rest, 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            break
        kind = match.lastgroup
        out.append((kind, match.group(kind), directive.rest_column + match.start(kind)))
        position = match.end()
    return out


def _error(message, column):
    return StatementError(message, column)


def _table(ctx) -> LineTable:
    table = ctx.debug.line_table
    if table is None:
        table = ctx.debug.line_table = LineTable(
            ctx.debug.dwarf_version or DEFAULT_DWARF_VERSION,
            ctx.debug.compilation_dir or os.getcwd())
    return table


def _string(token) -> str:
    return unescape(token[1][1:-1]).decode("utf-8", "surrogateescape")


def directive_file(ctx, directive):
    """``.file [N] "dir" "name" [md5 0x...] [source "text"]``."""
    tokens = _tokens(directive)
    end_column = directive.rest_column + len(directive.rest.rstrip())
    number = None
    if tokens and tokens[0][0] == "number":
        number = int(tokens.pop(0)[1], 0)
    if not tokens or tokens[0][0] != "string":
        raise _error("expected string", tokens[0][2] if tokens else end_column)
    path = _string(tokens.pop(0))
    directory, name = "", path
    if tokens and tokens[0][0] == "string":
        if number is None:
            raise _error("explicit path specified, but no file number", tokens[0][2])
        directory, name = path, _string(tokens.pop(0))
    md5 = source = None
    while tokens:
        kind, text, column = tokens.pop(0)
        if kind != "name":
            raise _error("unexpected token in '.file' directive", column)
        if text not in ("md5", "source"):  # llvm-mc points past the unknown keyword
            raise _error("unexpected token in '.file' directive",
                         tokens[0][2] if tokens else end_column)
        if number is None:
            raise _error(f"{'MD5 checksum' if text == 'md5' else 'source'} specified, "
                         "but no file number", column)
        value = tokens.pop(0) if tokens else ("end", "", end_column)
        if text == "md5":
            if value[0] != "number":
                raise _error("unknown token in expression", value[2])
            checksum = int(value[1], 0)
            if checksum >> 128:
                raise _error("out of range literal value", value[2])
            md5 = checksum.to_bytes(16, "big")
        else:
            if value[0] != "string":
                raise _error("unexpected token in '.file' directive", value[2])
            source = _string(value)
    if number is None:
        return  # ``.file "name"``: the STT_FILE form, not a line-table entry
    table = _table(ctx)
    if number == 0:
        table.version = max(table.version, 5)
        table.set_root(directory, name, md5, source)
    else:
        try:
            table.add_file(number, directory, name, md5, source)
        except ValueError as error:
            raise _error(str(error), directive.column) from None
    if table.any_md5 and not table.all_md5 and not table.reported_md5_mix:
        table.reported_md5_mix = True
        ctx.diagnostics.warning("inconsistent use of MD5 checksums", directive.column)


#: llvm-mc's words for a .loc operand that is a symbol rather than a number
_NOT_CONSTANT = {"is_stmt": "is_stmt value not the constant value of 0 or 1",
                 "isa": "isa number not a constant value",
                 "discriminator": "expected absolute expression"}


def directive_loc(ctx, directive):
    """``.loc file [line [column]] [basic_block|prologue_end|epilogue_begin|is_stmt N|isa N|
    discriminator N]...``"""
    tokens = _tokens(directive)
    end_column = directive.rest_column + len(directive.rest.rstrip())
    table = _table(ctx)
    if not tokens or tokens[0][0] != "number":
        raise _error("unexpected token in '.loc' directive", tokens[0][2] if tokens else end_column)
    _, text, column = tokens.pop(0)
    number = int(text, 0)
    if number < 1 and table.version < 5:
        raise _error("file number less than one in '.loc' directive", column)
    if not table.valid_file(number):
        raise _error("unassigned file number in '.loc' directive", column)
    line = column_number = 0
    if tokens and tokens[0][0] == "number":
        line = int(tokens[0][1], 0)
        if line < 0:
            raise _error("line numbers must be positive", tokens[0][2])
        tokens.pop(0)
        if tokens and tokens[0][0] == "number":
            column_number = int(tokens[0][1], 0)
            if column_number < 0:
                raise _error("column position less than zero", tokens[0][2])
            tokens.pop(0)
    flags = table.loc.flags & FLAG_IS_STMT
    isa = discriminator = 0
    while tokens:
        kind, text, column = tokens.pop(0)
        if kind != "name":
            raise _error("unexpected token in '.loc' directive", column)
        if text in _LOC_FLAGS:
            flags |= _LOC_FLAGS[text]
            continue
        if text not in ("is_stmt", "isa", "discriminator"):
            raise _error("unknown sub-directive in '.loc' directive", column)
        if not tokens:
            raise _error("unknown token in expression", end_column)
        kind, value_text, value_column = tokens.pop(0)
        if value_text == "-" and tokens and tokens[0][0] == "number":
            kind, value_text = "number", "-" + tokens.pop(0)[1]
        if kind != "number":
            raise _error(_NOT_CONSTANT[text] if kind == "name" else "unknown token in expression",
                         value_column)
        value = int(value_text, 0)
        if text == "is_stmt":
            if value not in (0, 1):
                raise _error("is_stmt value not 0 or 1", value_column)
            flags = flags | FLAG_IS_STMT if value else flags & ~FLAG_IS_STMT
        elif text == "isa":
            if value < 0:
                raise _error("isa number less than zero", value_column)
            isa = value
        else:
            discriminator = value
    if ctx.debug.loc_pending:  # two .loc in a row: the first gets its row here
        table.make_row(ctx.sections.current, ctx.sections.current.size)
    table.loc = Loc(number, line, column_number, flags, isa, discriminator)
    ctx.debug.loc_pending = True


# ---- writing the table ----------------------------------------------------------------

class _LineStrings:
    """``.debug_line_str``: each distinct string once, in order of first use."""

    def __init__(self):
        self.offsets: dict[bytes, int] = {}
        self.data = bytearray()

    def offset(self, text: str) -> int:
        key = text.encode("utf-8", "surrogateescape")
        if key not in self.offsets:
            self.offsets[key] = len(self.data)
            self.data += key + b"\0"
        return self.offsets[key]


def write_line_table(ctx):
    """Append the finished line table to ``.debug_line`` (created if needed)."""
    table = ctx.debug.line_table
    ctx.debug.loc_pending = False
    strings = _LineStrings() if table.version >= 5 else None
    string_refs: list[tuple[int, int]] = []  # (offset in buffer, offset in .debug_line_str)
    out = DwarfBuffer()
    _header(table, out, strings, string_refs)
    for section, rows in table.rows.items():
        _sequence(ctx, out, section, rows, table.version)
    current, previous = ctx.sections.current, ctx.sections.previous
    line_section = ctx.sections.switch(".debug_line")
    out.data[0:4] = (len(out) - 4).to_bytes(4, "little")
    if strings is not None:
        str_section = ctx.sections.switch(".debug_line_str", elfc.SHT_PROGBITS,
                                          elfc.SHF_MERGE | elfc.SHF_STRINGS, 1)
        start = len(str_section.data)
        str_section.data += strings.data
        labels = {}
        for at, offset in string_refs:
            if offset not in labels:
                labels[offset] = temporary_label(ctx, str_section, start + offset)
            out.references.append((at, 4, labels[offset], False))
        out.references.sort(key=lambda reference: reference[0])
    append_to_section(ctx, line_section, out)
    ctx.sections.current, ctx.sections.previous = current, previous


def _header(table: LineTable, out: DwarfBuffer, strings, string_refs):
    version = table.version
    out.u32(0)  # unit_length, filled in once the program is written
    out.u16(version)
    if version >= 5:
        out.u8(ADDRESS_SIZE)
        out.u8(0)  # segment selector size
    length_at = len(out)
    out.u32(0)  # header_length
    out.u8(MIN_INSTRUCTION_LENGTH)
    if version >= 4:
        out.u8(1)  # maximum_operations_per_instruction
    out.u8(1)  # default_is_stmt
    out.u8(LINE_BASE)
    out.u8(LINE_RANGE)
    out.u8(OPCODE_BASE)
    out.raw(bytes(STANDARD_OPCODE_LENGTHS))
    if version >= 5:
        _v5_tables(table, out, strings, string_refs)
    else:
        _v2_tables(table, out)
    out.data[length_at:length_at + 4] = (len(out) - length_at - 4).to_bytes(4, "little")


def _v2_tables(table: LineTable, out: DwarfBuffer):
    for directory in table.directories:
        out.raw(_bytes(directory) + b"\0")
    out.u8(0)
    for entry in table.files[1:]:
        if entry is None:
            continue
        out.raw(_bytes(entry.name) + b"\0")
        out.uleb(entry.directory_index)
        out.u8(0)  # modification time
        out.u8(0)  # length
    out.u8(0)


def _v5_tables(table: LineTable, out: DwarfBuffer, strings, string_refs):
    def string_ref(text: str):
        string_refs.append((len(out), strings.offset(text)))
        out.u32(0)

    out.u8(1)
    out.uleb(DW_LNCT_path)
    out.uleb(DW_FORM_line_strp)
    out.uleb(len(table.directories) + 1)
    string_ref(table.compilation_dir or table.default_compilation_dir)
    for directory in table.directories:
        string_ref(directory)
    formats = [(DW_LNCT_path, DW_FORM_line_strp), (DW_LNCT_directory_index, DW_FORM_udata)]
    if table.all_md5:
        formats.append((DW_LNCT_MD5, DW_FORM_data16))
    if table.any_source:
        formats.append((DW_LNCT_LLVM_source, DW_FORM_line_strp))
    out.u8(len(formats))
    for content, form in formats:
        out.uleb(content)
        out.uleb(form)
    files = table.files[1:]
    out.uleb(len(table.files) if len(table.files) > 1 else 1)
    for entry in [table.root or table.files[1]] + files:
        entry = entry or DwarfFile("")
        string_ref(entry.name)
        out.uleb(entry.directory_index)
        if table.all_md5:
            out.raw(entry.md5 or bytes(16))
        if table.any_source:
            string_ref(entry.source or "")


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _sequence(ctx, out: DwarfBuffer, section, rows, version: int):
    """One section's rows: MCDwarfLineTable::emitOne, then the end of the sequence."""
    file, last_line, column, flags, isa, discriminator = 1, 1, 0, FLAG_IS_STMT, 0, 0
    previous = None
    for offset, loc in rows:
        if loc.file != file:
            file = loc.file
            out.u8(DW_LNS_set_file)
            out.uleb(file)
        if loc.column != column:
            column = loc.column
            out.u8(DW_LNS_set_column)
            out.uleb(column)
        if loc.discriminator != discriminator and version >= 4:
            discriminator = loc.discriminator
            size = len(encode_leb128(discriminator, False))
            out.u8(0)
            out.uleb(size + 1)
            out.u8(DW_LNE_set_discriminator)
            out.uleb(discriminator)
        if loc.isa != isa:
            isa = loc.isa
            out.u8(DW_LNS_set_isa)
            out.uleb(isa)
        if (loc.flags ^ flags) & FLAG_IS_STMT:
            flags = loc.flags
            out.u8(DW_LNS_negate_stmt)
        if loc.flags & FLAG_BASIC_BLOCK:
            out.u8(DW_LNS_set_basic_block)
        if loc.flags & FLAG_PROLOGUE_END:
            out.u8(DW_LNS_set_prologue_end)
        if loc.flags & FLAG_EPILOGUE_BEGIN:
            out.u8(DW_LNS_set_epilogue_begin)
        line_delta = loc.line - last_line
        if previous is None:
            _set_address(ctx, out, section, offset)
            out.raw(encode_advance(line_delta, 0))
        else:
            out.raw(encode_advance(line_delta, offset - previous))
        discriminator = 0
        last_line = loc.line
        previous = offset
    out.raw(encode_advance(None, section.size - previous))


def _set_address(ctx, out: DwarfBuffer, section, offset: int):
    out.u8(0)
    out.uleb(ADDRESS_SIZE + 1)
    out.u8(DW_LNE_set_address)
    out.reference(temporary_label(ctx, section, offset), ADDRESS_SIZE)


def encode_advance(line_delta, address_delta: int) -> bytes:
    """Bytes that move the row by ``line_delta`` lines and ``address_delta``
    bytes and append a row; ``line_delta`` None ends the sequence instead."""
    out = DwarfBuffer()
    step = address_delta // MIN_INSTRUCTION_LENGTH
    if line_delta is None:
        if step == _MAX_SPECIAL_ADDRESS_STEP:
            out.u8(DW_LNS_const_add_pc)
        elif step:
            out.u8(DW_LNS_advance_pc)
            out.uleb(step)
        out.raw(bytes((0, 1, DW_LNE_end_sequence)))
        return bytes(out.data)
    need_copy = False
    biased = line_delta - LINE_BASE
    if not 0 <= biased < LINE_RANGE or biased + OPCODE_BASE > 255:
        out.u8(DW_LNS_advance_line)
        out.sleb(line_delta)
        line_delta, biased, need_copy = 0, -LINE_BASE, True
    if line_delta == 0 and step == 0:
        out.u8(DW_LNS_copy)
        return bytes(out.data)
    biased += OPCODE_BASE
    if step < 256 + _MAX_SPECIAL_ADDRESS_STEP:
        opcode = biased + step * LINE_RANGE
        if opcode <= 255:
            out.u8(opcode)
            return bytes(out.data)
        opcode = biased + (step - _MAX_SPECIAL_ADDRESS_STEP) * LINE_RANGE
        if opcode <= 255:
            out.u8(DW_LNS_const_add_pc)
            out.u8(opcode)
            return bytes(out.data)
    out.u8(DW_LNS_advance_pc)
    out.uleb(step)
    out.u8(DW_LNS_copy if need_copy else biased)
    return bytes(out.data)


__all__ = ["LineTable", "directive_file", "directive_loc", "write_line_table", "encode_advance"]

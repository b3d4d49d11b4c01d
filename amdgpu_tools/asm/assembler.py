"""The assembler: statements in, a finished object model out.

One pass over the lines does everything that does not depend on later
definitions: sections grow as instructions and data are emitted (GCN code
needs no relaxation, so every size is known at once), and anything that
refers to a value still unknown becomes a ``Fixup``. At the end the fixups are
resolved into bytes or relocations (``fixups.py``).

Each bad line produces one diagnostic and assembly goes on, so a single run
reports every error of a file.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import os

from ..elf import constants as elfc
from ..errors import AsmError, ToolchainError
from ..isa import encode_plan as isa_encoder
from ..isa.targets import get_target
from . import directives as general_directives
from . import amdgpu_directives
from . import cfi, dwarf_line
from .diagnostics import Diagnostic
from .expr import Binary, Const, Evaluator, ExprError, Sym, Unary, Value, symbols_in
from .fixups import resolve_fixups
from .listing import encoding_lines
from .model import Fixup, Location, Section, Symbol
from .objfile import parse_features
from .operands import OperandBuilder
from .control import BLOCKS, ControlFlow  # noqa: F401  (BLOCKS re-exported)
from .diagnostics import StatementError  # noqa: F401  (re-exported)
from .limits import MAX_ALIGNMENT, MAX_REMEMBERED_STATEMENTS, MAX_SECTION_BYTES
from .source import SourceLine, strip_comments
from .syntax import (Assignment, Directive, Instruction, Label, LocalRef, NumericLabel,
                     SyntaxErrorAt, parse_line)

DEFAULT_CODE_OBJECT_VERSION = 5



@contextlib.contextmanager
def _cyclic_gc_paused():
    """Pause the cyclic garbage collector while a file is assembled.

    Assembly builds hundreds of thousands of long-lived objects (statements,
    operand nodes, memoised encodings); every generation-2 collection walks
    them all again, which cost about a third of the time on a 100k-line file,
    and nothing made in the loop waits on cycle collection.  The collector's
    previous state is restored afterwards (reference counting frees as usual).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

class Assembler(ControlFlow):
    """Assembles one source file for one target."""

    def __init__(self, target="gfx900", filename="<stdin>", code_object_version=None,
                 show_encoding=False, features=None, include_dirs=(), dwarf_version=None,
                 compilation_dir=None):
        self.target = get_target(target)
        self.features = parse_features(_target_features(target))
        self.features.update(features or {})
        self.filename = filename
        #: where .include and .incbin look after the working directory (-I)
        self.include_dirs = tuple(include_dirs)
        self.requested_version = code_object_version
        self.code_object_version = code_object_version or DEFAULT_CODE_OBJECT_VERSION
        self.show_encoding = show_encoding
        #: llvm-mc's -dwarf-version (None: 4, raised to 5 by ``.file 0``) and
        #: -fdebug-compilation-dir (None: the working directory)
        self.dwarf_version = dwarf_version
        self.compilation_dir = compilation_dir
        self.line_table = None  # dwarf_line.LineTable once .file/.loc is seen
        self.dwarf_loc_pending = False  # a .loc waits for the next emitted bytes
        self.cfi = None  # cfi.CfiState once a .cfi_* directive is seen
        self.listing: list[str] = []
        self.diagnostics: list[Diagnostic] = []
        self.sections: dict[str, Section] = {}
        self.section_stack: list = []
        self.symbols: dict[str, Symbol] = {}
        self.creation_order: list = []  # sections and symbols, as llvm-mc orders its symtab
        self.addrsig = False
        self.addrsig_symbols: list = []
        self.numeric_labels = collections.Counter()
        self.local_names: dict = {}
        self.temporary_count = 0
        self.macros: dict[str, tuple] = {}
        self.macro_counter = 0
        self.conditions: list = []
        self.pending = collections.deque()
        self.expanded_lines = 0
        self.current: Section = self.switch_section(".text")
        self.previous: Section = self.current
        self.line: SourceLine | None = None
        #: (section name, offset) of each instruction -> its source Location (amdgpu-as --check)
        self.instruction_locations: dict = {}
        self.evaluator = Evaluator(self._resolve, self.symbol, self._difference)
        self.operand_builder = OperandBuilder(self.evaluate, self.freeze, self.is_constant_symbol,
                                             self._resolve)
        self.amdgpu = amdgpu_directives.AmdgpuState(self)
        self.resolving: set = set()
        #: id(statement) -> (statement, operands, encoded) of symbol-free instruction lines
        self.encoded_statements: dict = {}

    # ---- driver ----------------------------------------------------------------

    def assemble(self, source: str):
        """Assemble ``source``; returns the finished state or raises AsmError."""
        with _cyclic_gc_paused():
            self.amdgpu.detect_version(source)
            self.end_line = source.count("\n") + 1  # where end-of-file errors point
            self.pending.extend(strip_comments(source, self.filename))
            while self.pending:
                self.line = self.pending.popleft()
                self._process_line(self.line)
            self.line = None
            self._finish()
        errors = [d for d in self.diagnostics if d.severity == "error"]
        if errors:
            raise AsmError("\n".join(d.format() for d in self.diagnostics), self.diagnostics)
        return self

    def _process_line(self, line: SourceLine):
        text = line.text.strip()
        if not text:
            return
        try:
            plain = text[0] != "." and not self.macros and not self.conditions
            if not plain:  # a directive, a macro call or inside a conditional
                if self._handle_control(line, text):
                    return
                if not self.active:
                    return
            for statement in parse_line(line.text):
                if type(statement) is Instruction:
                    self._instruction(statement)
                else:
                    self._statement(statement)
        except SyntaxErrorAt as error:
            self.error(str(error), error.column)
        except StatementError as error:
            self.error(str(error), error.column)
        except ToolchainError as error:
            self.error(str(error), self._first_column(line))
        except RecursionError:
            self.error("expression or statement nested too deeply", self._first_column(line))

    @staticmethod
    def _first_column(line: SourceLine) -> int:
        return len(line.text) - len(line.text.lstrip()) + 1

    # ---- statements --------------------------------------------------------------

    def _statement(self, statement):
        if type(statement) is Instruction:
            self._instruction(statement)
        elif isinstance(statement, Label):
            self.define_label(statement.name, statement.column)
        elif isinstance(statement, NumericLabel):
            self.define_numeric_label(statement.number)
        elif isinstance(statement, Instruction):
            self._instruction(statement)
        elif isinstance(statement, Directive):
            self._directive(statement)
        elif isinstance(statement, Assignment):
            self.assign(statement.name, statement.expr, statement.column)

    def _directive(self, directive: Directive):
        handler = general_directives.HANDLERS.get(directive.name) or \
            DEBUG_HANDLERS.get(directive.name) or amdgpu_directives.HANDLERS.get(directive.name)
        if handler is None:
            raise StatementError("unknown directive", directive.column)
        try:
            handler(self, directive)
        except StatementError as error:
            if error.column is None:
                error.column = directive.rest_column or directive.column
            raise
        except SyntaxErrorAt:
            raise
        except (ExprError, ToolchainError) as error:
            raise StatementError(str(error), directive.rest_column or directive.column) from None

    def _instruction(self, statement: Instruction):
        known = self.encoded_statements.get(id(statement))
        if known is not None and known[0] is statement:
            self._emit(statement, known[1], known[2])
            return
        try:
            operands = self.operand_builder.build(statement.operands)
        except ToolchainError as error:
            raise StatementError(str(error), statement.column) from None
        encoded = self._encode(statement, operands)
        if self.operand_builder.last_pure and not encoded.fixups:
            # parse_line hands back the same statement for the same text: a line
            # without symbols assembles to the same bytes every time
            if len(self.encoded_statements) < MAX_REMEMBERED_STATEMENTS:
                self.encoded_statements[id(statement)] = (statement, operands, encoded)
        self._emit(statement, operands, encoded)

    def _encode(self, statement: Instruction, operands):
        try:
            return isa_encoder.encode_instruction(statement.mnemonic, operands, self.target)
        except ToolchainError as error:
            index = getattr(error, "operand_index", None)
            column = statement.column
            if index is not None and 0 <= index < len(statement.operand_columns):
                column = statement.operand_columns[index]
            raise StatementError(_message(error), column) from None
        except Exception as bug:  # an encoder bug must not end the whole assembly
            if os.environ.get("AMDGPU_TOOLS_DEBUG"):
                raise
            raise StatementError(f"internal error in the instruction encoder: "
                                 f"{type(bug).__name__}: {bug}", statement.column) from None

    def _emit(self, statement: Instruction, operands, encoded):
        section = self.current
        if section.sh_type == elfc.SHT_NOBITS:
            raise StatementError("cannot emit instructions in a bss section", statement.column)
        start = len(section.data)
        self.instruction_locations[(section.name, start)] = self.location(statement.column)
        if self.dwarf_loc_pending:
            self.line_table.make_row(section, start)
            self.dwarf_loc_pending = False
        section.data += encoded.data
        section.has_instructions = True
        for fix in encoded.fixups:
            self.add_fixup(start + fix.offset, fix.size, fix.kind, fix.expr, statement.column)
        if self.show_encoding:
            self.listing.extend(encoding_lines(encoded, operands, self))

    # ---- symbols -----------------------------------------------------------------

    def symbol(self, name: str) -> Symbol:
        """The symbol called ``name``, created (undefined) on first mention."""
        found = self.symbols.get(name)
        if found is None:
            found = self.symbols[name] = Symbol(name)
            self.creation_order.append(found)
        return found

    def define_label(self, name: str, column: int = 1):
        symbol = self.symbol(name)
        if symbol.defined or symbol.variable is not None:
            raise StatementError(f"invalid symbol redefinition", column)
        symbol.defined = True
        symbol.section = self.current
        symbol.offset = self.current.size
        symbol.where = self.location(column)
        self.amdgpu.label_defined(symbol)
        return symbol

    def define_numeric_label(self, number: int):
        count = self.numeric_labels[number]
        self.numeric_labels[number] = count + 1
        self.define_label(self._instance_name(number, count))

    def local_label_name(self, number: int, forward: bool) -> str:
        count = self.numeric_labels[number]
        if not forward and count == 0:
            raise StatementError(f"directional label '{number}b' has no previous definition", None)
        return self._instance_name(number, count if forward else count - 1)

    def _instance_name(self, number: int, instance: int) -> str:
        """``.LtmpN`` names in creation order, as llvm-mc names directional labels."""
        key = (number, instance)
        name = self.local_names.get(key)
        if name is None:
            name = self.local_names[key] = self.temporary_name()
        return name

    def temporary_name(self) -> str:
        self.temporary_count += 1
        return f".Ltmp{self.temporary_count - 1}"

    def assign(self, name: str, expr, column: int = 1):
        """``.set``/``.equ``/``=``: constants are folded now, like llvm-mc."""
        symbol = self.symbol(name)
        if symbol.defined and symbol.variable is None:
            raise StatementError("redefinition of a label", column)
        value = self.evaluate(expr)
        if value.is_absolute:
            symbol.variable = Const(value.constant)
        elif value.sub is None and value.add is not None and value.add.defined \
                and value.add.variable is None and value.specifier is None:
            symbol.variable = None
            symbol.defined = True
            symbol.section = value.add.section
            symbol.offset = value.add.offset + value.constant
            symbol.alias_of = value.add
            return
        else:
            symbol.variable = expr
        symbol.defined = True
        symbol.section = None
        symbol.where = self.location(column)

    def _resolve(self, name: str):
        if name == ".":
            return self.dot_value()
        symbol = self.symbols.get(name)
        if symbol is None:
            return None
        if symbol.variable is not None:
            if name in self.resolving:
                raise ExprError(f"cyclic dependency in the definition of '{name}'")
            self.resolving.add(name)
            try:
                return self.evaluator.value(symbol.variable)
            finally:
                self.resolving.discard(name)
        if symbol.defined:
            return Value(0, symbol)
        return None

    def is_constant_symbol(self, name: str) -> bool:
        """True for a ``.set`` symbol whose value is a plain number (no label in it)."""
        symbol = self.symbols.get(name)
        if symbol is None or symbol.variable is None or name in self.resolving:
            return False
        self.resolving.add(name)
        try:
            return all(self.is_constant_symbol(inner) for inner in symbols_in(symbol.variable))
        finally:
            self.resolving.discard(name)

    def dot_value(self) -> Value:
        """``.``: a temporary label at the current location."""
        dot = Symbol(self.temporary_name(), self.current, self.current.size, True)
        return Value(0, dot)

    @staticmethod
    def _difference(a: Symbol, b: Symbol):
        if a is None or b is None:
            return None
        if a.defined and b.defined and a.section is not None and a.section is b.section \
                and a.variable is None and b.variable is None and a.common_size == 0:
            return a.offset - b.offset
        return None

    def freeze(self, expr):
        """Bind ``.`` and ``1b``/``1f`` to concrete labels at the current place."""
        return _freeze(expr, self)

    def evaluate(self, expr) -> Value:
        try:
            return self.evaluator.value(self.freeze(expr))
        except RecursionError:
            raise ExprError("expression nested too deeply") from None

    def absolute(self, expr) -> int:
        value = self.evaluate(expr)
        if not value.is_absolute:
            raise ExprError("expected absolute expression")
        return value.constant

    # ---- sections and emission -----------------------------------------------------

    def switch_section(self, name, sh_type=None, flags=None, entsize=0) -> Section:
        section = self.sections.get(name)
        if section is None:
            default_type, default_flags = _section_defaults(name)
            section = Section(name, default_type if sh_type is None else sh_type,
                              default_flags if flags is None else flags, entsize)
            self.sections[name] = section
            self.creation_order.append(section)
        self.previous = getattr(self, "current", section)
        self.current = section
        return section

    def emit(self, data: bytes):
        if self.dwarf_loc_pending:  # data takes a pending .loc as instructions do
            self.line_table.make_row(self.current, self.current.size)
            self.dwarf_loc_pending = False
        self.emit_fill(data)

    def emit_fill(self, data: bytes):
        """Bytes that leave a pending .loc waiting, as llvm-mc's fill fragments
        (alignment padding, ``.zero``/``.skip``) do."""
        section = self.current
        if section.size + len(data) > MAX_SECTION_BYTES:
            raise StatementError(f"section '{section.name}' would exceed {MAX_SECTION_BYTES} bytes", None)
        if section.sh_type == elfc.SHT_NOBITS:
            if any(data):
                raise StatementError("cannot have initialized data in a bss section", None)
            section.nobits_size += len(data)
        else:
            section.data += data

    def emit_value(self, expr, size: int, column=None):
        """A data directive's value: bytes now if absolute, else a fixup."""
        value = self.evaluate(expr)
        if value.is_absolute:
            self.emit(_truncate(value.constant, size))
            return
        self.add_fixup(self.current.size, size, "data", expr, column)
        self.emit(bytes(size))

    def add_fixup(self, offset, size, kind, expr, column=None):
        expr = _freeze(expr, self)
        self.current.fixups.append(
            Fixup(self.current, offset, size, kind, expr, self.location(column)))

    def align(self, alignment: int, fill=None, max_skip=None):
        if alignment <= 0 or alignment & (alignment - 1):
            raise StatementError("alignment must be a power of 2", None)
        if alignment > MAX_ALIGNMENT:
            raise StatementError(f"alignment {alignment} is larger than {MAX_ALIGNMENT}", None)
        section = self.current
        section.alignment = max(section.alignment, alignment)
        padding = (-section.size) % alignment
        if section.size + padding > MAX_SECTION_BYTES:
            raise StatementError(f"section '{section.name}' would exceed {MAX_SECTION_BYTES} bytes", None)
        if max_skip is not None and padding > max_skip:
            return
        if fill is None and section.is_code:
            self.emit_fill(_nop_fill(padding))
        else:
            byte = (fill or 0) & 0xFF
            self.emit_fill(bytes([byte]) * padding)

    # ---- diagnostics -------------------------------------------------------------

    def location(self, column=None) -> Location:
        line = self.line
        if line is None:
            return Location(self.filename, 0, 1, "")
        return Location(line.filename, line.number, column or self._first_column(line), line.raw,
                        line.included_from)

    def error(self, message, column=None, where: Location | None = None):
        where = where or self.location(column)
        self.diagnostics.append(Diagnostic("error", message, where))

    def warning(self, message, column=None, where: Location | None = None):
        where = where or self.location(column)
        self.diagnostics.append(Diagnostic("warning", message, where))

    # ---- finishing -----------------------------------------------------------------

    def _finish(self):
        if self.conditions:
            self.error("unmatched .if at end of file", 1, Location(self.filename, 0, 1, ""))
        self._debug_sections()
        self._bind_section_names()
        resolve_fixups(self)
        self._symbol_sizes()
        self.amdgpu.finish()

    def _debug_sections(self):
        """Frame tables, then the line table, in the order llvm-mc creates them."""
        version = self.line_table.version if self.line_table is not None \
            else self.dwarf_version or dwarf_line.DEFAULT_DWARF_VERSION
        if self.cfi is not None:
            cfi.write_frames(self, version)
        if self.line_table is not None:
            dwarf_line.write_line_table(self)

    def _bind_section_names(self):
        """A section's name used as a symbol (``.long .debug_abbrev``) means the
        section's start, as in llvm-mc where an ELF section's begin symbol carries
        its name; relocations then go through the section symbol."""
        for name, section in self.sections.items():
            symbol = self.symbols.get(name)
            if symbol is not None and not symbol.defined and symbol.variable is None \
                    and symbol.binding is None:
                symbol.defined, symbol.section, symbol.offset = True, section, 0
                symbol.is_section = True

    def _symbol_sizes(self):
        """``.size`` values, once every label is placed; each bad one is a diagnostic."""
        for symbol in list(self.symbols.values()):
            if symbol.size_expr is None:
                continue
            try:
                symbol.size = self.absolute(symbol.size_expr)
            except ToolchainError as error:
                where = symbol.size_where or self.location()
                self.error(f".size of '{symbol.name}': {error}", where.column, where)


#: .file/.loc and the .cfi_* directives (llvm-mc's debug-information directives)
DEBUG_HANDLERS = {".file": dwarf_line.directive_file, ".loc": dwarf_line.directive_loc,
                  **cfi.HANDLERS}


def _message(error) -> str:
    return str(error.args[0]) if getattr(error, "args", None) else str(error)


def _target_features(target) -> str:
    """The ``:xnack+:sramecc-`` part of a target id given as the processor."""
    text = str(target) if not hasattr(target, "name") else ""
    return text.partition(":")[2]


def _truncate(value: int, size: int) -> bytes:
    return (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def _nop_fill(padding: int) -> bytes:
    """Code padding as llvm-mc writes it: s_nop 0 words, zero bytes for a remainder."""
    words, rest = divmod(padding, 4)
    return bytes(rest) + b"\x00\x00\x80\xbf" * words


def _freeze(expr, asm):
    """Replace ``.`` and numeric local references by the labels they mean now."""
    if isinstance(expr, (Const, Sym)) and not (isinstance(expr, Sym) and expr.name == "."):
        return expr
    if isinstance(expr, Sym):
        dot = asm.dot_value().add
        asm.symbols[dot.name] = dot
        return Sym(dot.name, expr.specifier)
    if isinstance(expr, LocalRef):
        return Sym(asm.local_label_name(expr.number, expr.forward))
    if isinstance(expr, Unary):
        return Unary(expr.op, _freeze(expr.operand, asm))
    if isinstance(expr, Binary):
        return Binary(expr.op, _freeze(expr.left, asm), _freeze(expr.right, asm))
    return expr


def _section_defaults(name: str):
    """Type and flags llvm-mc gives a section from its name alone."""
    known = {
        ".text": (elfc.SHT_PROGBITS, elfc.SHF_ALLOC | elfc.SHF_EXECINSTR),
        ".data": (elfc.SHT_PROGBITS, elfc.SHF_ALLOC | elfc.SHF_WRITE),
        ".rodata": (elfc.SHT_PROGBITS, elfc.SHF_ALLOC),
        ".bss": (elfc.SHT_NOBITS, elfc.SHF_ALLOC | elfc.SHF_WRITE),
        ".note": (elfc.SHT_NOTE, 0),
        ".comment": (elfc.SHT_PROGBITS, elfc.SHF_MERGE | elfc.SHF_STRINGS),
    }
    for prefix, (sh_type, flags) in known.items():
        if name == prefix or name.startswith(prefix + "."):
            return sh_type, flags
    if name.startswith(".debug"):
        return elfc.SHT_PROGBITS, 0
    return elfc.SHT_PROGBITS, 0

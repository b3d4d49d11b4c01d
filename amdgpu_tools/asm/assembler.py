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
from . import amdgpu_directives, cfi, dwarf_line
from . import directives as general_directives
from .context import DebugInfo, DirectiveContext, Options, Sections, Symbols
from .control import BLOCKS, ControlFlow  # noqa: F401  (BLOCKS re-exported)
from .diagnostics import Diagnostics, StatementError, first_column
from .expr import ExprError
from .fixups import resolve_fixups
from .limits import MAX_REMEMBERED_STATEMENTS
from .listing import encoding_lines
from .model import Location
from .objfile import parse_features
from .operands import OperandBuilder
from .source import SourceLine, strip_comments
from .syntax import (Assignment, Directive, Instruction, Label, NumericLabel, SyntaxErrorAt,
                     parse_line)

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
        #: what the command line chose: code object version, -I directories (where
        #: .include and .incbin look after the working directory)
        self.options = Options(filename, code_object_version or DEFAULT_CODE_OBJECT_VERSION,
                               code_object_version, tuple(include_dirs))
        self.show_encoding = show_encoding
        self.listing: list[str] = []
        self.creation_order: list = []  # sections and symbols, as llvm-mc orders its symtab
        self.diagnostics = Diagnostics(filename)
        self.debug = DebugInfo(dwarf_version, compilation_dir)
        self.sections = Sections(self.creation_order, self.debug)
        self.symbols = Symbols(self.sections, self.diagnostics, self.creation_order)
        self.macros: dict[str, tuple] = {}
        self.macro_counter = 0
        self.conditions: list = []
        self.pending = collections.deque()
        self.expanded_lines = 0
        self.sections.switch(".text")
        self.sections.previous = self.sections.current
        #: (section name, offset) of each instruction -> its source Location (amdgpu-as --check)
        self.instruction_locations: dict = {}
        self.context = DirectiveContext(self.target, self.features, self.options, self.symbols,
                                        self.sections, self.diagnostics, self.debug, self.pending)
        self.amdgpu = self.context.amdgpu = amdgpu_directives.AmdgpuState(self.context)
        symbols = self.symbols
        self.operand_builder = OperandBuilder(symbols.evaluate, symbols.freeze,
                                              symbols.is_constant, symbols.resolve)
        #: id(statement) -> (statement, operands, encoded) of symbol-free instruction lines
        self.encoded_statements: dict = {}

    # ---- driver ----------------------------------------------------------------

    def assemble(self, source: str):
        """Assemble ``source``; returns the finished state or raises AsmError."""
        with _cyclic_gc_paused():
            self.amdgpu.detect_version(source)
            self.diagnostics.end_line = source.count("\n") + 1
            self.pending.extend(strip_comments(source, self.filename))
            diagnostics = self.diagnostics
            while self.pending:
                diagnostics.line = line = self.pending.popleft()
                self._process_line(line)
            diagnostics.line = None
            self._finish()
        errors = [d for d in self.diagnostics if d.severity == "error"]
        if errors:
            raise AsmError("\n".join(d.format() for d in self.diagnostics), self.diagnostics)
        return self

    @property
    def code_object_version(self) -> int:
        return self.options.code_object_version

    @property
    def line(self) -> SourceLine | None:
        """The line being assembled."""
        return self.diagnostics.line

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
            self.diagnostics.error(str(error), error.column)
        except StatementError as error:
            self.diagnostics.error(str(error), error.column)
        except ToolchainError as error:
            self.diagnostics.error(str(error), self._first_column(line))
        except RecursionError:
            self.diagnostics.error("expression or statement nested too deeply", self._first_column(line))

    _first_column = staticmethod(first_column)

    # ---- statements --------------------------------------------------------------

    def _statement(self, statement):
        if type(statement) is Instruction:
            self._instruction(statement)
        elif isinstance(statement, Label):
            self.symbols.define_label(statement.name, statement.column)
        elif isinstance(statement, NumericLabel):
            self.symbols.define_numeric_label(statement.number)
        elif isinstance(statement, Instruction):
            self._instruction(statement)
        elif isinstance(statement, Directive):
            self._directive(statement)
        elif isinstance(statement, Assignment):
            self.symbols.assign(statement.name, statement.expr, statement.column)

    def _directive(self, directive: Directive):
        handler = general_directives.HANDLERS.get(directive.name) or \
            DEBUG_HANDLERS.get(directive.name) or amdgpu_directives.HANDLERS.get(directive.name)
        if handler is None:
            raise StatementError("unknown directive", directive.column)
        try:
            handler(self.context, directive)
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
        section = self.sections.current
        if section.sh_type == elfc.SHT_NOBITS:
            raise StatementError("cannot emit instructions in a bss section", statement.column)
        start = len(section.data)
        self.instruction_locations[(section.name, start)] = \
            self.diagnostics.location(statement.column)
        if self.debug.loc_pending:
            self.debug.place_pending_loc(section, start)
        section.data += encoded.data
        section.has_instructions = True
        for fix in encoded.fixups:
            self.context.add_fixup(start + fix.offset, fix.size, fix.kind, fix.expr,
                                   statement.column)
        if self.show_encoding:
            self.listing.extend(encoding_lines(encoded, operands, self.symbols))

    # ---- finishing -----------------------------------------------------------------

    def _finish(self):
        if self.conditions:
            self.diagnostics.error("unmatched .if at end of file", 1,
                                   Location(self.filename, 0, 1, ""))
        self._debug_sections()
        self._bind_section_names()
        resolve_fixups(self.context)
        self._symbol_sizes()
        self.amdgpu.finish()

    def _debug_sections(self):
        """Frame tables, then the line table, in the order llvm-mc creates them."""
        debug = self.debug
        version = debug.line_table.version if debug.line_table is not None \
            else debug.dwarf_version or dwarf_line.DEFAULT_DWARF_VERSION
        if debug.cfi is not None:
            cfi.write_frames(self.context, version)
        if debug.line_table is not None:
            dwarf_line.write_line_table(self.context)

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
                symbol.size = self.symbols.absolute(symbol.size_expr)
            except ToolchainError as error:
                where = symbol.size_where or self.diagnostics.location()
                self.diagnostics.error(f".size of '{symbol.name}': {error}", where.column, where)


#: .file/.loc and the .cfi_* directives (llvm-mc's debug-information directives)
DEBUG_HANDLERS = {".file": dwarf_line.directive_file, ".loc": dwarf_line.directive_loc,
                  **cfi.HANDLERS}


def _message(error) -> str:
    return str(error.args[0]) if getattr(error, "args", None) else str(error)


def _target_features(target) -> str:
    """The ``:xnack+:sramecc-`` part of a target id given as the processor."""
    text = str(target) if not hasattr(target, "name") else ""
    return text.partition(":")[2]

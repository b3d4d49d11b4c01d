"""What directive handlers work on: the ``DirectiveContext`` of one file.

The assembler owns one context per file and calls every directive handler
(directives.py, amdgpu_directives.py, dwarf_line.py, cfi.py) as
``handler(ctx, directive)``; a handler reaches the assembler's state only
through it:

- ``ctx.symbols``      ``Symbols``: the symbol table (a dict by name) with labels,
  ``.set``, temporaries, directional labels, and expression evaluation
  (``evaluate``, ``absolute``, ``freeze``)
- ``ctx.sections``     ``Sections``: the sections (a dict by name), the current and
  previous one, ``.pushsection``'s stack, emission and alignment
- ``ctx.diagnostics``  ``diagnostics.Diagnostics``: errors and warnings (a list), the
  line being assembled and ``location(column)``
- ``ctx.debug``        ``DebugInfo``: ``.file``/``.loc``'s line table, ``.cfi_*``
  frames, the DWARF options
- ``ctx.amdgpu``       ``amdgpu_directives.AmdgpuState``: notes, kernel blocks
- ``ctx.target``, ``ctx.features``, ``ctx.options`` (``Options``: code object
  version, include directories, file name), ``ctx.pending`` (the lines still
  to assemble), and ``emit_value``/``add_fixup``, which need symbols and
  sections together.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

from ..elf import constants as elfc
from .diagnostics import Diagnostics, StatementError
from .expr import Binary, Const, Evaluator, ExprError, Sym, Unary, Value, symbols_in
from .limits import MAX_ALIGNMENT, MAX_SECTION_BYTES
from .model import Fixup, Section, Symbol
from .syntax import LocalRef


@dataclass
class Options:
    """What the command line (or ``assemble``'s caller) chose, and the code object
    version in force (``.amdhsa_code_object_version`` may change it)."""

    filename: str
    code_object_version: int
    requested_version: int | None = None
    include_dirs: tuple = ()


class DebugInfo:
    """``.file``/``.loc`` and ``.cfi_*`` state, created when first used."""

    def __init__(self, dwarf_version=None, compilation_dir=None):
        #: llvm-mc's -dwarf-version (None: 4, raised to 5 by ``.file 0``) and
        #: -fdebug-compilation-dir (None: the working directory)
        self.dwarf_version = dwarf_version
        self.compilation_dir = compilation_dir
        self.line_table = None    # dwarf_line.LineTable once .file/.loc is seen
        self.loc_pending = False  # a .loc waits for the next emitted bytes
        self.cfi = None           # cfi.CfiState once a .cfi_* directive is seen

    def place_pending_loc(self, section, offset):
        """The row of a waiting ``.loc``, at the first bytes emitted after it."""
        if self.loc_pending:
            self.line_table.make_row(section, offset)
            self.loc_pending = False


class Sections(dict):
    """The sections by name, in creation order; ``current`` receives what is emitted."""

    def __init__(self, creation_order: list, debug: DebugInfo):
        super().__init__()
        self._creation_order = creation_order
        self._debug = debug
        self.stack: list = []     # .pushsection's saved (current, previous)
        self.current: Section | None = None
        self.previous: Section | None = None

    def switch(self, name, sh_type=None, flags=None, entsize=0) -> Section:
        section = self.get(name)
        if section is None:
            default_type, default_flags = _section_defaults(name)
            section = Section(name, default_type if sh_type is None else sh_type,
                              default_flags if flags is None else flags, entsize)
            self[name] = section
            self._creation_order.append(section)
        self.previous = self.current if self.current is not None else section
        self.current = section
        return section

    def emit(self, data: bytes):
        """Data bytes: a pending .loc gets its row here, as for instructions."""
        self._debug.place_pending_loc(self.current, self.current.size)
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


class Symbols(dict):
    """The symbols by name; labels, ``.set``, temporaries and directional labels,
    and the evaluation of expressions over them (``.`` is the current section's end)."""

    def __init__(self, sections: Sections, diagnostics: Diagnostics, creation_order: list):
        super().__init__()
        self._sections = sections
        self._diagnostics = diagnostics
        self._creation_order = creation_order  # sections and symbols, as llvm-mc orders its symtab
        self.addrsig = False
        self.addrsig_symbols: list = []
        self.numeric_labels = collections.Counter()
        self._local_names: dict = {}
        self._temporary_count = 0
        self._resolving: set = set()
        self.evaluator = Evaluator(self.resolve, self.named, _difference)

    # ---- names -------------------------------------------------------------------

    def named(self, name: str) -> Symbol:
        """The symbol called ``name``, created (undefined) on first mention."""
        found = self.get(name)
        if found is None:
            found = self[name] = Symbol(name)
            self._creation_order.append(found)
        return found

    def define_label(self, name: str, column: int = 1):
        symbol = self.named(name)
        if symbol.defined or symbol.variable is not None:
            raise StatementError("invalid symbol redefinition", column)
        current = self._sections.current
        symbol.defined = True
        symbol.section = current
        symbol.offset = current.size
        symbol.where = self._diagnostics.location(column)
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
        name = self._local_names.get(key)
        if name is None:
            name = self._local_names[key] = self.temporary_name()
        return name

    def temporary_name(self) -> str:
        self._temporary_count += 1
        return f".Ltmp{self._temporary_count - 1}"

    def assign(self, name: str, expr, column: int = 1):
        """``.set``/``.equ``/``=``: constants are folded now, like llvm-mc."""
        symbol = self.named(name)
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
        symbol.where = self._diagnostics.location(column)

    # ---- values ------------------------------------------------------------------

    def resolve(self, name: str):
        """The value of the symbol called ``name`` (None while it is undefined)."""
        if name == ".":
            return self.dot_value()
        symbol = self.get(name)
        if symbol is None:
            return None
        if symbol.variable is not None:
            if name in self._resolving:
                raise ExprError(f"cyclic dependency in the definition of '{name}'")
            self._resolving.add(name)
            try:
                return self.evaluator.value(symbol.variable)
            finally:
                self._resolving.discard(name)
        if symbol.defined:
            return Value(0, symbol)
        return None

    def is_constant(self, name: str) -> bool:
        """True for a ``.set`` symbol whose value is a plain number (no label in it)."""
        symbol = self.get(name)
        if symbol is None or symbol.variable is None or name in self._resolving:
            return False
        self._resolving.add(name)
        try:
            return all(self.is_constant(inner) for inner in symbols_in(symbol.variable))
        finally:
            self._resolving.discard(name)

    def dot_value(self) -> Value:
        """``.``: a temporary label at the current location."""
        current = self._sections.current
        dot = Symbol(self.temporary_name(), current, current.size, True)
        return Value(0, dot)

    def freeze(self, expr):
        """Bind ``.`` and ``1b``/``1f`` to concrete labels at the current place."""
        if isinstance(expr, (Const, Sym)) and not (isinstance(expr, Sym) and expr.name == "."):
            return expr
        if isinstance(expr, Sym):
            dot = self.dot_value().add
            self[dot.name] = dot
            return Sym(dot.name, expr.specifier)
        if isinstance(expr, LocalRef):
            return Sym(self.local_label_name(expr.number, expr.forward))
        if isinstance(expr, Unary):
            return Unary(expr.op, self.freeze(expr.operand))
        if isinstance(expr, Binary):
            return Binary(expr.op, self.freeze(expr.left), self.freeze(expr.right))
        return expr

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


class DirectiveContext:
    """The one object directive handlers get (see the module docstring)."""

    def __init__(self, target, features, options: Options, symbols: Symbols,
                 sections: Sections, diagnostics: Diagnostics, debug: DebugInfo, pending):
        self.target = target
        self.features = features
        self.options = options
        self.symbols = symbols
        self.sections = sections
        self.diagnostics = diagnostics
        self.debug = debug
        #: the lines still to assemble (a block given up after an error goes back here)
        self.pending = pending
        self.amdgpu = None   # amdgpu_directives.AmdgpuState, set by the assembler

    def emit_value(self, expr, size: int, column=None):
        """A data directive's value: bytes now if absolute, else a fixup."""
        value = self.symbols.evaluate(expr)
        if value.is_absolute:
            self.sections.emit(_truncate(value.constant, size))
            return
        self.add_fixup(self.sections.current.size, size, "data", expr, column)
        self.sections.emit(bytes(size))

    def add_fixup(self, offset, size, kind, expr, column=None):
        current = self.sections.current
        expr = self.symbols.freeze(expr)
        current.fixups.append(
            Fixup(current, offset, size, kind, expr, self.diagnostics.location(column)))


def _difference(a: Symbol, b: Symbol):
    if a is None or b is None:
        return None
    if a.defined and b.defined and a.section is not None and a.section is b.section \
            and a.variable is None and b.variable is None and a.common_size == 0:
        return a.offset - b.offset
    return None


def _truncate(value: int, size: int) -> bytes:
    return (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def _nop_fill(padding: int) -> bytes:
    """Code padding as llvm-mc writes it: s_nop 0 words, zero bytes for a remainder."""
    words, rest = divmod(padding, 4)
    return bytes(rest) + b"\x00\x00\x80\xbf" * words


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

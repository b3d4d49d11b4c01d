"""Symbol resolution: one global symbol per name, ld.lld's rules.

Global and weak symbols of all inputs meet in one table, in the order their
names first appear (ld.lld's insertion order, which decides the order of
.symtab and .dynsym). A strong definition beats a weak one and a COMMON
block, two strong definitions are an error, COMMON blocks of one name merge
(largest size, strictest alignment), and visibility becomes the most
constraining one any input asked for. Whether a symbol is preemptible (may
be interposed by the loader, so references must go through the dynamic
symbol table) follows ld.lld for ``-shared``: default visibility and not
local.
"""

from __future__ import annotations

from ..elf import constants as C
from ..errors import LinkError

DEFINED, UNDEFINED, COMMON, ABSOLUTE, DISCARDED = "defined", "undefined", "common", "absolute", "discarded"


class Symbol:
    """A resolved symbol; ``section`` is the InputSection of a definition."""

    __slots__ = ("name", "bind", "type", "visibility", "size", "value", "section", "kind",
                 "discarded_with",
                 "file", "preemptible", "got_index", "dynsym_index", "output_binding")

    def __init__(self, name, bind, type_, visibility, size, value, section, kind, file):
        self.name = name
        self.bind = bind
        self.type = type_
        self.visibility = visibility
        self.size = size
        self.value = value
        self.section = section
        self.kind = kind
        self.file = file
        self.preemptible = False
        self.got_index = None
        self.dynsym_index = 0
        #: the binding written to the output (final once resolution is done)
        self.output_binding = self.final_binding()
        #: the DiscardedSection of a local defined in a losing COMDAT group
        self.discarded_with = None

    @property
    def is_defined(self) -> bool:
        return self.kind in (DEFINED, ABSOLUTE, COMMON)

    def final_binding(self) -> int:
        """Hidden and internal symbols become local in the output, as in ld.lld."""
        if self.bind == C.STB_LOCAL or self.visibility in (C.STV_HIDDEN, C.STV_INTERNAL):
            return C.STB_LOCAL
        return self.bind

    @property
    def address(self) -> int:
        """The symbol's value in the output (0 for undefined symbols)."""
        if self.kind == DEFINED:
            return self.section.address_of(self.value)
        if self.kind == ABSOLUTE:
            return self.value
        return 0

    @property
    def is_link_time_constant(self) -> bool:
        """An address the loader need not touch: absolute, or an unresolved weak 0."""
        if self.preemptible:
            return False
        return self.kind in (ABSOLUTE, UNDEFINED, DISCARDED)

    def defined_in(self) -> str:
        return self.file.name if self.file is not None else "<internal>"


class SymbolTable:
    """Every global symbol by name, plus each object's local symbols."""

    def __init__(self):
        self.globals: dict[str, Symbol] = {}
        #: each object's local symbols (those .symtab lists), by object
        self.locals: dict = {}
        #: every global name in the order ld.lld first inserts it (archive
        #: members' definitions count where the archive stands: lazy symbols)
        self._first_seen: dict[str, int] = {}

    def reserve(self, names) -> None:
        """Names an archive offers: a place in the symbol order, no symbol yet."""
        for name in names:
            self._first_seen.setdefault(name, len(self._first_seen))

    def put_in_insertion_order(self) -> None:
        """Order the globals as ld.lld's symbol table (lazy names included)."""
        order = self._first_seen
        self.globals = dict(sorted(self.globals.items(), key=lambda item: order[item[0]]))

    def add_object(self, obj) -> None:
        """Resolve ``obj``'s symbols against the table; fills ``obj.symbol_refs``."""
        refs, locals_ = [], []
        sections = obj.sections
        discarded = obj.comdat_discarded
        for esym in obj.elf.symbols:
            kind, section = _classify(esym, sections)
            if kind == DISCARDED and esym.shndx in discarded and esym.bind != C.STB_LOCAL:
                kind = UNDEFINED  # a reference to the copy of the group that was kept
            if esym.bind == C.STB_LOCAL:
                symbol = Symbol(esym.name, C.STB_LOCAL, esym.type, esym.visibility, esym.size,
                                esym.value, section, kind, obj)
                if kind == DISCARDED:
                    symbol.discarded_with = discarded.get(esym.shndx)
                if esym.index and esym.type != C.STT_SECTION and kind != DISCARDED \
                        and not _assembler_temporary_in_merge(esym, section):
                    locals_.append(symbol)
                refs.append(symbol)
                continue
            refs.append(self._resolve(obj, esym, kind, section))
        obj.symbol_refs = refs
        self.locals[obj] = locals_

    def _resolve(self, obj, esym, kind, section) -> Symbol:
        existing = self.globals.get(esym.name)
        if existing is None:
            self._first_seen.setdefault(esym.name, len(self._first_seen))
            symbol = Symbol(esym.name, esym.bind, esym.type, esym.visibility, esym.size,
                            esym.value, section, kind, obj)
            self.globals[esym.name] = symbol
            return symbol
        _merge_visibility(existing, esym.visibility)
        if kind == UNDEFINED:
            if existing.kind == UNDEFINED and esym.bind != C.STB_WEAK:
                existing.bind = C.STB_GLOBAL
            return existing
        if kind == COMMON:
            self._add_common(existing, obj, esym)
            return existing
        if existing.kind == UNDEFINED or (existing.kind == COMMON and esym.bind != C.STB_WEAK):
            _take_definition(existing, obj, esym, kind, section)
        elif existing.kind in (DEFINED, ABSOLUTE) and existing.bind != C.STB_WEAK:
            if esym.bind != C.STB_WEAK:
                raise LinkError(f"duplicate symbol: {esym.name}\n"
                                f">>> defined in {existing.defined_in()}\n"
                                f">>> defined in {obj.name}")
        elif existing.kind in (DEFINED, ABSOLUTE) and esym.bind != C.STB_WEAK:
            _take_definition(existing, obj, esym, kind, section)
        return existing

    @staticmethod
    def _add_common(existing, obj, esym) -> None:
        if existing.kind == UNDEFINED or (existing.kind in (DEFINED, ABSOLUTE)
                                          and existing.bind == C.STB_WEAK):
            _take_definition(existing, obj, esym, COMMON, None)
        elif existing.kind == COMMON:
            existing.size = max(existing.size, esym.size)
            existing.value = max(existing.value, esym.value)  # a COMMON's value is its alignment

    def compute_preemption(self) -> None:
        """ld.lld's rule for -shared: default-visibility non-local symbols may be interposed."""
        for symbol in self.globals.values():
            symbol.preemptible = symbol.visibility == C.STV_DEFAULT and symbol.kind != DISCARDED
            symbol.output_binding = symbol.final_binding()


def _assembler_temporary_in_merge(esym, section) -> bool:
    """A ``.L`` label the assembler kept only because it points into a SHF_MERGE
    section: ld.lld leaves it out of .symtab (its default discard policy)."""
    return (esym.name.startswith(".L") and section is not None
            and bool(section.flags & C.SHF_MERGE))


def _classify(esym, sections):
    shndx = esym.shndx
    if shndx == C.SHN_UNDEF:
        return UNDEFINED, None
    if shndx == C.SHN_ABS:
        return ABSOLUTE, None
    if shndx == C.SHN_COMMON:
        return COMMON, None
    section = sections.get(shndx)
    return (DEFINED, section) if section is not None else (DISCARDED, None)


def _merge_visibility(symbol: Symbol, visibility: int) -> None:
    if visibility != C.STV_DEFAULT:
        symbol.visibility = (visibility if symbol.visibility == C.STV_DEFAULT
                             else min(symbol.visibility, visibility))


def _take_definition(symbol: Symbol, obj, esym, kind, section) -> None:
    symbol.kind = kind
    symbol.section = section
    symbol.value = esym.value
    symbol.size = esym.size
    symbol.type = esym.type
    symbol.bind = esym.bind
    symbol.file = obj

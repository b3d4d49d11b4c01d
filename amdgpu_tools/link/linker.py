"""The link itself: inputs -> resolved symbols -> layout -> shared object.

``link()`` is the Python API (the runtime links relocatable objects on load
with it); ``Linker`` holds the state of one link so that each stage is a
short method reading what the previous one produced.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass

from ..elf import constants as C
from ..elf.structs import Elf64_Dyn, Elf64_Rela, Elf64_Sym, align_up
from ..errors import LinkError
from ..version import __version__
from . import layout as L
from .archive import WholeArchive, is_archive, read_archive
from .comdat import ComdatGroups
from .dynamic import DynamicSymbols, dynamic_bytes, dynamic_entries, rela_dyn
from .mapfile import render_map
from .merge import MergedSection, is_mergeable, merge_key
from .notes import merge_note_sections
from .objects import InputSection, load_object
from .relocate import (RelocationPlan, apply, check_discarded_references, got_contents,
                       got_dynamic_relocations, scan)
from .symbols import ABSOLUTE, COMMON, DEFINED, DISCARDED, UNDEFINED, Symbol, SymbolTable
from .target import merged_identity
from .writer import write_shared_object

LINKER_COMMENT = f"Linker: amdgpu-ld (amdgpu-tools {__version__})"


@dataclass
class LinkResult:
    """The output bytes and the link's state (what ``--print-map`` describes)."""

    data: bytes
    linker: "Linker"

    def map_text(self) -> str:
        return render_map(self.linker)


def link(inputs, *, no_undefined: bool = True, merge_notes: bool = True,
         entry: str | None = None, soname: str | None = None) -> bytes:
    """Link relocatable AMDGPU objects (paths, bytes or (name, bytes); archives;
    ``WholeArchive(item)`` to take every member) into a shared object.
    ``merge_notes=False`` keeps every input note as ld.lld does; ``entry``
    names the symbol whose address becomes e_entry; ``soname`` is DT_SONAME."""
    return link_result(inputs, no_undefined=no_undefined, merge_notes=merge_notes,
                       entry=entry, soname=soname).data


def link_result(inputs, *, no_undefined: bool = True, merge_notes: bool = True,
                entry: str | None = None, soname: str | None = None) -> LinkResult:
    """``link`` that also keeps the finished ``Linker``, for the link map."""
    linker = Linker(no_undefined=no_undefined, merge_notes=merge_notes, entry=entry,
                    soname=soname)
    collecting = gc.isenabled()
    gc.disable()  # a link allocates many small, long-lived objects and frees none
    try:
        return LinkResult(linker.run(inputs), linker)
    finally:
        if collecting:
            gc.enable()


def _read_input(item, number: int) -> tuple[str, bytes]:
    if isinstance(item, (bytes, bytearray, memoryview)):
        return f"<input {number}>", bytes(item)
    if isinstance(item, tuple):
        name, data = item
        return str(name), bytes(data)
    path = os.fspath(item)
    try:
        with open(path, "rb") as handle:
            return str(path), handle.read()
    except OSError as failure:
        raise LinkError(f"cannot open {path}: {failure.strerror}") from None


class Linker:
    """One link: call ``run(inputs)`` once."""

    def __init__(self, *, no_undefined: bool = True, merge_notes: bool = True,
                 entry: str | None = None, soname: str | None = None):
        self.soname = soname
        self.no_undefined = no_undefined
        self.entry = entry
        self.merge_notes = merge_notes
        self.symbols = SymbolTable()
        self.objects = []
        self.outputs: list[L.OutputSection] = []
        self.synthetic: dict[str, InputSection] = {}
        self.plan = RelocationPlan()
        self.comdat = ComdatGroups()
        self._lazy: dict = {}

    # --- stages -----------------------------------------------------------
    def run(self, inputs) -> bytes:
        self._load(inputs)
        if not self.objects:
            raise LinkError("no input files")
        self.identity = merged_identity(self.objects)
        self._check_undefined()
        self.symbols.compute_preemption()
        self._allocate_commons()
        self._create_output_sections()
        scan([s for o in self.outputs for s in o.sections if s.obj is not None], self.plan)
        check_discarded_references(self.plan)
        self.plan.allocate_got(self._symbols_in_table_order())
        self._create_dynamic_sections()
        self._layout()
        self._fill_contents()
        return write_shared_object(self)

    def _load(self, inputs) -> None:
        """Objects in command-line order; archive members where ld.lld extracts
        them: when the archive is reached, for names already needed, or later,
        as soon as an object needs a name a pending member offers."""
        self._lazy = {}   # name -> the first unextracted archive member offering it
        for number, item in enumerate(inputs):
            whole = isinstance(item, WholeArchive)
            name, data = _read_input(item.item if whole else item, number)
            if not is_archive(data):
                self._add(load_object(data, name, self.comdat))
            elif whole:
                for member in read_archive(data, name):
                    self._add(load_object(member.data, member.name, self.comdat))
            else:
                self._offer(read_archive(data, name))
        self.symbols.put_in_insertion_order()

    def _offer(self, members) -> None:
        """An archive's members become lazy: each defined name takes its place in
        the symbol order, and a name some object already needs pulls its member in."""
        for member in members:
            for name in member.names:
                self.symbols.reserve([name])
                if member.extracted:
                    continue
                if self._needed(name):
                    self._extract(member)
                else:
                    self._lazy.setdefault(name, member)

    def _needed(self, name: str) -> bool:
        """A strong reference waits for ``name`` (a weak one alone extracts nothing)."""
        symbol = self.symbols.globals.get(name)
        return symbol is not None and symbol.kind == UNDEFINED and symbol.bind != C.STB_WEAK

    def _extract(self, member) -> None:
        member.extracted = True
        self._add(load_object(member.data, member.name, self.comdat))

    def _add(self, obj) -> None:
        """Add an object; then, in its symbol-table order, each strong undefined
        reference that a pending archive member defines extracts that member
        (depth first, as ld.lld resolves a reference against a lazy symbol)."""
        self.objects.append(obj)
        self.symbols.add_object(obj)
        if not self._lazy:
            return
        for esym in obj.elf.symbols:
            if esym.shndx == C.SHN_UNDEF and esym.bind == C.STB_GLOBAL and esym.name:
                member = self._lazy.get(esym.name)
                if member is not None and not member.extracted and self._needed(esym.name):
                    self._extract(member)

    def _symbols_in_table_order(self):
        """Global symbols, then each object's locals (only read as far as needed)."""
        yield from self.symbols.globals.values()
        for obj in self.objects:
            yield from self.symbols.locals[obj]
            yield from (s for s in obj.symbol_refs if s.bind == C.STB_LOCAL)

    def _check_undefined(self) -> None:
        """--no-undefined: every strong reference must be defined by some input."""
        missing = [s for s in self.symbols.globals.values()
                   if s.kind == UNDEFINED and s.bind != C.STB_WEAK
                   and (self.no_undefined or s.visibility != C.STV_DEFAULT)]
        if not missing:
            return
        names = {s.name for s in missing}
        places = _first_references(self.objects, names)
        messages = []
        for symbol in missing:
            where = places.get(symbol.name, symbol.file.name)
            messages.append(f"undefined symbol: {symbol.name}\n>>> referenced by {where}")
        failure = LinkError("\n".join(messages))
        failure.diagnostics = messages
        raise failure

    def _allocate_commons(self) -> None:
        commons = [s for s in self.symbols.globals.values() if s.kind == COMMON]
        if not commons:
            return
        section = InputSection(None, 0, "COMMON", C.SHT_NOBITS, C.SHF_ALLOC | C.SHF_WRITE, 1, 0, b"")
        for symbol in commons:
            alignment = max(symbol.value, 1)
            offset = align_up(section.size, alignment)
            section.align = max(section.align, alignment)
            section.size = offset + symbol.size
            symbol.kind, symbol.section, symbol.value = DEFINED, section, offset
        self.synthetic["COMMON"] = section

    def _create_output_sections(self) -> None:
        """Input sections into output sections by name, in first-appearance order;
        .comment sections and (when merging) the second and later note sections of
        one name are set aside and joined afterwards; SHF_MERGE sections give their
        pieces to one merged section per kind, placed where the first of them was."""
        by_name: dict[str, L.OutputSection] = {}

        def output_for(section) -> L.OutputSection:
            name = ".bss" if section.name == "COMMON" else L.output_name(section.name)
            out = by_name.get(name)
            if out is None:
                out = by_name[name] = L.OutputSection(name, section.type, 0)
                self.outputs.append(out)
            return out

        commons = self.synthetic.get("COMMON")
        if commons is not None:
            output_for(commons).add(commons)
        notes: dict[str, list] = {}
        comments = []
        merges: dict[tuple, MergedSection] = {}
        for obj in self.objects:
            for section in obj.sections.values():
                if section.name == ".comment" and not section.is_alloc:
                    if not comments:  # .comment keeps the place of the first input one
                        self._synthetic(".comment", C.SHT_PROGBITS, C.SHF_MERGE | C.SHF_STRINGS,
                                        1, entsize=1)
                    comments.append(section)
                    continue
                if section.type == C.SHT_NOTE and self.merge_notes:
                    group = notes.setdefault(L.output_name(section.name), [])
                    group.append(section)
                    if len(group) > 1:  # its notes join the first note section's
                        group[0].output.flags |= section.flags
                        section.output, section.out_offset = group[0].output, 0
                        continue
                if is_mergeable(section):
                    self._add_to_merge(output_for(section), section, merges)
                    continue
                output_for(section).add(section)
        for merged in merges.values():
            merged.finalize()
        for out in {id(m.section.output): m.section.output for m in merges.values()}.values():
            out.reflow()
        for group in notes.values():
            if len(group) > 1:
                _merge_into_first(group)
        self._add_comment(comments)

    @staticmethod
    def _add_to_merge(out, section, merges) -> None:
        """``section``'s pieces join the merged section of its kind in ``out``
        (created in its place when it is the first of that kind)."""
        key = (out.name, *merge_key(section))
        merged = merges.get(key)
        if merged is None:
            merged = merges[key] = MergedSection(section)
            out.add(merged.section)
        out.flags |= section.flags & ~C.SHF_GROUP
        section.output = out
        merged.add(section)

    def _add_comment(self, inputs) -> None:
        """.comment: our identification, then each distinct input string once."""
        strings = [LINKER_COMMENT]
        for section in inputs:
            for text in section.data.rstrip(b"\0").split(b"\0") if section.data else ():
                decoded = text.decode("utf-8", errors="replace")
                if decoded not in strings:
                    strings.append(decoded)
        data = b"".join(s.encode() + b"\0" for s in strings)
        section = self.synthetic.get(".comment") or self._synthetic(
            ".comment", C.SHT_PROGBITS, C.SHF_MERGE | C.SHF_STRINGS, 1, entsize=1)
        section.data, section.size = data, len(data)
        section.output.size = len(data)

    def _synthetic(self, name, type_, flags, align, data=b"", size=None, entsize=0):
        section = InputSection(None, 0, name, type_, flags, align,
                               len(data) if size is None else size, data, entsize)
        out = L.OutputSection(name, type_, flags, align, entsize)
        out.add(section)
        out.entsize = entsize
        self.outputs.append(out)
        self.synthetic[name] = section
        return section

    def _create_dynamic_sections(self) -> None:
        exported = [s for s in self.symbols.globals.values()
                    if s.output_binding != C.STB_LOCAL and s.kind != DISCARDED
                    and (s.kind == UNDEFINED or s.visibility in (C.STV_DEFAULT, C.STV_PROTECTED))]
        self.dynsyms = DynamicSymbols(exported)
        soname_offset = self.dynsyms.strings.append(self.soname) if self.soname else 0
        count = len(exported) + 1
        defined = sum(1 for s in exported if s.is_defined)
        rodata = C.SHF_ALLOC
        self._synthetic(".dynsym", C.SHT_DYNSYM, rodata, 8, size=Elf64_Sym.size * count,
                        entsize=Elf64_Sym.size)
        self._synthetic(".gnu.hash", C.SHT_GNU_HASH, rodata, 8,
                        size=DynamicSymbols.gnu_hash_size(defined))
        self._synthetic(".hash", C.SHT_HASH, rodata, 4, size=4 * (2 + 2 * count), entsize=4)
        self._synthetic(".dynstr", C.SHT_STRTAB, rodata, 1, size=self.dynsyms.strings.size)
        writable = C.SHF_ALLOC | C.SHF_WRITE
        if self.plan.got_symbols:
            got = self._synthetic(".got", C.SHT_PROGBITS, writable, 8,
                                  size=8 * len(self.plan.got_symbols))
            got_dynamic_relocations(self.plan, got)
        relocations = self.plan.dynamic
        if relocations:
            self._synthetic(".rela.dyn", C.SHT_RELA, rodata, 8,
                            size=Elf64_Rela.size * len(relocations), entsize=Elf64_Rela.size)
        relative = sum(1 for r in relocations if r.type == C.R_AMDGPU_RELATIVE64)
        self.dynamic_shape = {"rela_size": Elf64_Rela.size * len(relocations),
                              "relative_count": relative, "soname_offset": soname_offset}
        entries = len(dynamic_entries({**self.dynamic_shape, "rela_addr": 0, "dynsym_addr": 0,
                                       "dynstr_addr": 0, "dynstr_size": 0, "gnu_hash_addr": 0,
                                       "hash_addr": 0}))
        dynamic = self._synthetic(".dynamic", C.SHT_DYNAMIC, writable, 8,
                                  size=Elf64_Dyn.size * entries, entsize=Elf64_Dyn.size)
        self._synthetic(".relro_padding", C.SHT_NOBITS, writable, 1, size=0)
        self.dynamic_symbol = Symbol("_DYNAMIC", C.STB_WEAK, C.STT_NOTYPE, C.STV_HIDDEN, 0, 0,
                                     dynamic, DEFINED, None)

    def _layout(self) -> None:
        alloc = [o for o in self.outputs if o.is_alloc]
        order = {id(o): n for n, o in enumerate(alloc)}
        alloc.sort(key=lambda o: (L.rank(o), order[id(o)]))
        rest = [o for o in self.outputs if not o.is_alloc]
        self.groups = L.load_groups(alloc)
        self.phnum = L.count_program_headers(self.groups, alloc)
        header_size = L.EHDR_SIZE + L.PHDR_SIZE * self.phnum
        self.alloc_end = L.assign_addresses(self.groups, header_size)
        self.outputs = alloc + rest
        for index, out in enumerate(self.outputs, start=1):
            out.index = index
        self.segments = L.build_segments(self.groups, alloc, header_size, self.phnum)

    def _fill_contents(self) -> None:
        """Relocated input sections, then the synthetic tables that need addresses."""
        got = self.synthetic.get(".got")
        got_address = got.address if got is not None else 0
        for section, patches in self.plan.static.items():
            if patches:
                section.data = apply(section, patches, got_address)
        if got is not None:
            got.data = got_contents(self.plan)
        self._fill_dynamic_tables()

    def _fill_dynamic_tables(self) -> None:
        syn = self.synthetic
        syn[".dynsym"].data = self.dynsyms.dynsym(self.section_index)
        syn[".gnu.hash"].data = self.dynsyms.gnu_hash_table()
        syn[".hash"].data = self.dynsyms.sysv_hash_table()
        syn[".dynstr"].data = self.dynsyms.strings.data()
        for name, target in ((".dynsym", ".dynstr"), (".gnu.hash", ".dynsym"),
                             (".hash", ".dynsym"), (".rela.dyn", ".dynsym"),
                             (".dynamic", ".dynstr")):
            if name in syn:
                syn[name].output.link = syn[target].output.index
        syn[".dynsym"].output.info = 1
        tables = dict(self.dynamic_shape)
        if ".rela.dyn" in syn:
            syn[".rela.dyn"].data = rela_dyn(self.plan.dynamic)
            tables["rela_addr"] = syn[".rela.dyn"].address
        tables.update(dynsym_addr=syn[".dynsym"].address, dynstr_addr=syn[".dynstr"].address,
                      dynstr_size=syn[".dynstr"].size, gnu_hash_addr=syn[".gnu.hash"].address,
                      hash_addr=syn[".hash"].address)
        syn[".dynamic"].data = dynamic_bytes(dynamic_entries(tables))

    # --- queries used by the writer and the map ----------------------------
    def entry_address(self) -> int:
        """e_entry: 0 for a shared object unless an entry symbol is named."""
        if not self.entry:
            return 0
        symbol = self.symbols.globals.get(self.entry)
        if symbol is None or not symbol.is_defined:
            raise LinkError(f"cannot find entry symbol {self.entry}")
        return symbol.address

    def section_index(self, symbol) -> int:
        if symbol.kind == DEFINED:
            return symbol.section.output.index
        if symbol.kind == ABSOLUTE:
            return C.SHN_ABS
        return C.SHN_UNDEF

    def symtab_symbols(self) -> tuple[list, list]:
        """(local, global) symbols of .symtab in ld.lld's order."""
        groups: dict = {}
        for obj in self.objects:
            for symbol in self.symbols.locals[obj]:
                groups.setdefault(id(obj), []).append(symbol)
        hidden = [s for s in self.symbols.globals.values()
                  if s.output_binding == C.STB_LOCAL and s.kind != DISCARDED]
        for symbol in hidden + [self.dynamic_symbol]:
            key = id(symbol.file) if symbol.file is not None else "internal"
            groups.setdefault(key, []).append(symbol)
        local = [symbol for group in groups.values() for symbol in group]
        global_ = [s for s in self.symbols.globals.values()
                   if s.output_binding != C.STB_LOCAL and s.kind != DISCARDED]
        return local, global_


def _merge_into_first(group) -> None:
    """The first note section of a name takes the merged notes of the whole group
    (one metadata document); the others stay out of the output."""
    first = group[0]
    first.data = merge_note_sections(group)
    first.size = len(first.data)
    first.relocations = []
    first.output.size = first.out_offset + first.size


def _first_references(objects, names) -> dict:
    """Where each named symbol is first used by a relocation (for diagnostics)."""
    places = {}
    for obj in objects:
        for section in obj.sections.values():
            for offset, _, index, _ in section.relocations:
                name = obj.symbol_refs[index].name
                if name in names and name not in places:
                    places[name] = section.where(offset)
    return places


__all__ = ["link", "link_result", "Linker", "LinkResult", "LINKER_COMMENT", "WholeArchive"]

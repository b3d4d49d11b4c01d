"""Where everything goes: output sections, their order, segments, addresses.

The rules reproduce ld.lld's default layout for a shared AMDGPU object:

* input sections go to the output section named by their prefix (``.text.f``
  -> ``.text``); output sections are ranked read-only (notes first, then the
  dynamic-linking tables), executable, RELRO (``.data.rel.ro``, ``.dynamic``,
  ``.got``, then ``.relro_padding`` up to the page end), writable data,
  and zero-fill last; equal ranks keep their first-appearance order;
* one PT_LOAD per run of sections with the same permissions (RELRO gets its
  own); the ELF and program headers start the first, read-only, one;
* a PT_LOAD after the first starts at ``align(dot, page) + dot % page`` so the
  file needs no padding, and its file offset is congruent to its address
  modulo the segment alignment.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from ..elf import constants as C
from ..elf.structs import Elf64_Ehdr, Elf64_Phdr, align_up

#: AMDGPU's max and common page size in ld.lld.
PAGE_SIZE = 0x1000
EHDR_SIZE = Elf64_Ehdr.size
PHDR_SIZE = Elf64_Phdr.size

#: Output section of an input section, by name prefix (checked in order).
_OUTPUT_PREFIXES = (".text", ".rodata", ".data.rel.ro", ".data", ".bss.rel.ro", ".bss",
                    ".ldata", ".lrodata", ".lbss", ".init_array", ".fini_array",
                    ".gcc_except_table")
_RELRO_NAMES = {".data.rel.ro", ".bss.rel.ro", ".init_array", ".fini_array",
                ".preinit_array", ".ctors", ".dtors", ".dynamic", ".got", ".relro_padding"}
_RELRO_TYPES = {C.SHT_INIT_ARRAY, C.SHT_FINI_ARRAY, C.SHT_PREINIT_ARRAY}


@functools.lru_cache(maxsize=4096)
def output_name(name: str) -> str:
    """The output section an input section joins (ld.lld's default names)."""
    for prefix in _OUTPUT_PREFIXES:
        if name == prefix or name.startswith(prefix + "."):
            return prefix
    return "COMMON" if name == "COMMON" else name


@dataclass(eq=False)
class OutputSection:
    name: str
    type: int
    flags: int
    align: int = 1
    entsize: int = 0
    sections: list = field(default_factory=list)
    size: int = 0
    addr: int = 0
    offset: int = 0
    index: int = 0
    link: int = 0
    info: int = 0
    #: contents of a synthetic section (set when the linker builds it)
    data: bytes | None = None

    @property
    def is_alloc(self) -> bool:
        return bool(self.flags & C.SHF_ALLOC)

    @property
    def is_nobits(self) -> bool:
        return self.type == C.SHT_NOBITS

    @property
    def is_relro(self) -> bool:
        return (self.is_alloc and bool(self.flags & C.SHF_WRITE)
                and (self.name in _RELRO_NAMES or self.type in _RELRO_TYPES))

    @property
    def segment_flags(self) -> int:
        flags = C.PF_R
        if self.flags & C.SHF_WRITE:
            flags |= C.PF_W
        if self.flags & C.SHF_EXECINSTR:
            flags |= C.PF_X
        return flags

    def add(self, section) -> None:
        """Append an input section at its alignment and merge its attributes."""
        if not self.sections:
            self.type = section.type
            self.entsize = section.entsize
        else:
            if self.type == C.SHT_NOBITS and section.type != C.SHT_NOBITS:
                self.type = section.type
            if section.entsize != self.entsize:
                self.entsize = 0
        self.flags |= section.flags & ~C.SHF_GROUP
        self.align = max(self.align, section.align)
        section.out_offset = align_up(self.size, section.align)
        section.output = self
        self.size = section.out_offset + section.size
        self.sections.append(section)


    def reflow(self) -> None:
        """Place the input sections again (after a synthetic one changed size)."""
        sections, self.sections, self.size = self.sections, [], 0
        for section in sections:
            section.out_offset = align_up(self.size, section.align)
            self.size = section.out_offset + section.size
            self.sections.append(section)


#: Order of the synthetic sections ld.lld puts in the read-only segment.
SYNTHETIC_READONLY = (".dynsym", ".gnu.hash", ".hash", ".dynstr", ".rela.dyn")


def rank(section: OutputSection) -> int:
    """ld.lld's coarse section rank for the default layout (smaller first)."""
    if not section.is_alloc:
        return 100
    writable = section.flags & C.SHF_WRITE
    if not writable and not section.flags & C.SHF_EXECINSTR:
        if section.type == C.SHT_NOTE:
            return 0
        if section.name in SYNTHETIC_READONLY:
            return 1 + SYNTHETIC_READONLY.index(section.name)
        return 10
    if not writable:
        return 20
    if section.is_relro:
        return {".dynamic": 31, ".got": 32, ".relro_padding": 33}.get(section.name, 30)
    return 41 if section.is_nobits else 40


@dataclass
class Segment:
    type: int
    flags: int
    sections: list
    align: int = PAGE_SIZE
    offset: int = 0
    vaddr: int = 0
    filesz: int = 0
    memsz: int = 0


def load_groups(sections) -> list[list[OutputSection]]:
    """Alloc sections split into PT_LOADs: one per run of equal permissions."""
    groups, key = [], None
    for section in sections:
        new_key = (section.segment_flags, section.is_relro)
        if new_key != key:
            groups.append([])
            key = new_key
        groups[-1].append(section)
    if groups and groups[0][0].segment_flags != C.PF_R:
        groups.insert(0, [])  # the headers always get a read-only PT_LOAD
    return groups


def is_empty(group) -> bool:
    """A PT_LOAD of only empty sections. ld.lld lays it out and reserves room
    for its program header (PT_PHDR keeps that size), then drops the header."""
    return all(s.size == 0 for s in group)


def count_program_headers(groups, sections) -> int:
    """Program headers ld.lld reserves room for before laying out: PT_PHDR, one
    PT_LOAD per group (empty ones included), PT_DYNAMIC, PT_GNU_RELRO,
    PT_GNU_STACK and one PT_NOTE per run of note sections."""
    notes = sum(1 for run in note_runs(sections))
    relro = any(s.is_relro for s in sections)
    dynamic = any(s.name == ".dynamic" for s in sections)
    return 1 + len(groups) + int(dynamic) + int(relro) + 1 + notes


def note_runs(sections):
    """Contiguous runs of alloc SHT_NOTE sections (one PT_NOTE each)."""
    run = []
    for section in sections:
        if section.is_alloc and section.type == C.SHT_NOTE:
            run.append(section)
        elif run:
            yield run
            run = []
    if run:
        yield run


def assign_addresses(groups, header_size: int) -> int:
    """Give every alloc section its address and file offset; returns the file end."""
    dot = off = header_size
    previous_end = None
    for number, group in enumerate(groups):
        if not group:
            continue
        segment_align = max([PAGE_SIZE] + [s.align for s in group])
        start_off = start_va = None
        for section in group:
            if section is group[0] and number > 0:
                base = previous_end if previous_end is not None else dot
                dot = align_up(base, PAGE_SIZE) + base % PAGE_SIZE
                dot = align_up(dot, section.align)
                off = off + (dot - off) % segment_align
                start_off, start_va = off, dot
            else:
                dot = align_up(dot, section.align)
                if start_va is None:
                    start_off, start_va = 0, 0
                if not section.is_nobits:
                    off = start_off + (dot - start_va)
            section.addr, section.offset = dot, off
            if section.name == ".relro_padding":
                previous_end = dot
                section.size = align_up(dot, PAGE_SIZE) - dot
            else:
                previous_end = None
            dot += section.size
            if not section.is_nobits:
                off += section.size
    return off


def build_segments(groups, sections, header_size: int, phnum: int) -> list[Segment]:
    """The program headers in ld.lld's order, from the laid-out sections."""
    segments = [Segment(C.PT_PHDR, C.PF_R, [], 8, EHDR_SIZE, EHDR_SIZE,
                        phnum * PHDR_SIZE, phnum * PHDR_SIZE)]
    for number, group in enumerate(groups):
        if number > 0 and is_empty(group):
            continue
        flags = group[0].segment_flags if group else C.PF_R
        load = _span(C.PT_LOAD, flags, group, max([PAGE_SIZE] + [s.align for s in group]))
        if number == 0:
            end = max([header_size] + [s.offset + (0 if s.is_nobits else s.size) for s in group])
            mem_end = max([header_size] + [s.addr + s.size for s in group])
            load.offset = load.vaddr = 0
            load.filesz, load.memsz = end, mem_end
        segments.append(load)
    dynamic = [s for s in sections if s.name == ".dynamic"]
    if dynamic:
        segments.append(_span(C.PT_DYNAMIC, C.PF_R | C.PF_W, dynamic, 8))
    relro = [s for s in sections if s.is_relro]
    if relro:
        segments.append(_span(C.PT_GNU_RELRO, C.PF_R, relro, 1))
    segments.append(Segment(C.PT_GNU_STACK, C.PF_R | C.PF_W, [], 0))
    for run in note_runs(sections):
        segments.append(_span(C.PT_NOTE, C.PF_R, run, max(s.align for s in run)))
    return segments


def _span(ptype, flags, sections, align) -> Segment:
    segment = Segment(ptype, flags, list(sections), align)
    if not sections:
        return segment
    first = sections[0]
    segment.offset, segment.vaddr = first.offset, first.addr
    file_end = max(s.offset + (0 if s.is_nobits else s.size) for s in sections)
    segment.filesz = file_end - first.offset
    segment.memsz = max(s.addr + s.size for s in sections) - first.addr
    return segment

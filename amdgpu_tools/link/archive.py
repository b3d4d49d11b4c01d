"""Static archives (``ar`` format, as llvm-ar writes them).

A linker extracts an archive member only when it defines a symbol that is
still undefined, as ld.lld does (or every member, for an archive wrapped in
``WholeArchive``: ld.lld's --whole-archive); so the archive is read into a
list of members and the symbol names each one defines (taken from the
members' own symbol tables rather than the archive index, which may be
absent). A thin archive (``llvm-ar T``) stores only member paths, relative
to the archive's directory; the members are read from there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..elf import constants as C
from ..elf.reader import read_elf
from ..errors import ElfFormatError

ARCHIVE_MAGIC = b"!<arch>\n"
THIN_ARCHIVE_MAGIC = b"!<thin>\n"
_HEADER_SIZE = 60


@dataclass
class ArchiveMember:
    name: str
    data: bytes
    #: global symbols the member defines, in its symbol-table order
    names: tuple
    #: set once the link has taken the member in
    extracted: bool = False

    @property
    def defines(self) -> frozenset:
        return frozenset(self.names)


@dataclass(frozen=True)
class WholeArchive:
    """A link input (path, bytes or (name, bytes)) whose archive members are all
    linked, needed or not (ld.lld's --whole-archive)."""

    item: object


def is_archive(data: bytes) -> bool:
    return data[:8] in (ARCHIVE_MAGIC, THIN_ARCHIVE_MAGIC)


def read_archive(data: bytes, name: str) -> list[ArchiveMember]:
    """The ELF members of an archive; each one is named ``archive(member)``
    (``name`` is the archive's path: a thin archive's members are found from it)."""
    thin = data[:8] == THIN_ARCHIVE_MAGIC
    members, long_names, offset = [], b"", 8
    while offset + _HEADER_SIZE <= len(data):
        header = data[offset:offset + _HEADER_SIZE]
        if header[58:60] != b"`\n":
            raise ElfFormatError(f"{name}: malformed archive member header at offset {offset}")
        raw_name = header[0:16].decode("latin-1").rstrip()
        try:
            size = int(header[48:58].decode("latin-1").strip() or "0")
        except ValueError:
            raise ElfFormatError(f"{name}: bad member size at offset {offset}") from None
        start = offset + _HEADER_SIZE
        stored = raw_name in ("/", "/SYM64/", "//") or not thin  # thin: tables only
        if stored and start + size > len(data):
            raise ElfFormatError(f"{name}: archive member at offset {offset} extends past "
                                 "the end of the file")
        body = data[start:start + size] if stored else b""
        offset = start + (size + (size & 1) if stored else 0)
        if raw_name == "//":
            long_names = body
            continue
        if raw_name in ("/", "/SYM64/"):
            continue
        member = _member_name(raw_name, long_names, name)
        if thin:
            body = _thin_member(name, member)
        members.append(ArchiveMember(f"{name}({member})", body, _defined_globals(body, name, member)))
    return members


def _member_name(raw: str, long_names: bytes, archive: str) -> str:
    if raw.startswith("/") and raw[1:].isdigit():
        start = int(raw[1:])
        end = long_names.find(b"/\n", start)
        if start >= len(long_names) or end < 0:
            raise ElfFormatError(f"{archive}: bad long member name reference {raw}")
        return long_names[start:end].decode("latin-1")
    return raw[:-1] if raw.endswith("/") else raw


def _thin_member(archive: str, member: str) -> bytes:
    """A thin archive's member, read from its path relative to the archive."""
    path = os.path.join(os.path.dirname(archive), member)
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as failure:
        raise ElfFormatError(f"{archive}: cannot open thin archive member {path}: "
                             f"{failure.strerror}") from None


def _defined_globals(body: bytes, archive: str, member: str) -> tuple:
    elf = read_elf(body, f"{archive}({member})", contents=False)
    return tuple(s.name for s in elf.symbols
                 if s.bind != C.STB_LOCAL and s.shndx != C.SHN_UNDEF)

"""ELF string tables built as LLVM's StringTableBuilder builds them.

Strings are sorted by their reversed text (longest first among those
sharing a suffix) so that a string which is a suffix of the previous one
reuses its bytes (".rodata" inside ".rela.rodata"). This reproduces the
layout llvm-mc writes, byte for byte.
"""

from __future__ import annotations


class StringTable:
    """Collects strings, then assigns offsets once with ``finalize``."""

    def __init__(self):
        self._strings: set[str] = set()
        self._offsets: dict[str, int] | None = None
        self._data = b"\0"

    def add(self, text: str) -> None:
        if self._offsets is not None:
            raise RuntimeError("string table already finalized")
        if text:
            self._strings.add(text)

    def finalize(self) -> bytes:
        offsets, data, previous = {}, bytearray(b"\0"), None
        for text in sorted(self._strings, key=lambda s: s.encode()[::-1], reverse=True):
            encoded = text.encode()
            if previous is not None and previous.endswith(encoded):
                offsets[text] = len(data) - len(encoded) - 1
                continue
            offsets[text] = len(data)
            data += encoded + b"\0"
            previous = encoded
        self._offsets, self._data = offsets, bytes(data)
        return self._data

    def offset(self, text: str) -> int:
        if not text:
            return 0
        if self._offsets is None:
            raise RuntimeError("string table not finalized")
        return self._offsets[text]

    @property
    def data(self) -> bytes:
        return self._data

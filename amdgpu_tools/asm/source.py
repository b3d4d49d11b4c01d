"""Source text to logical lines: comment removal with line numbers kept.

llvm-mc's AMDGPU dialect has ``;`` and ``//`` line comments, ``/* */`` block
comments (which may span lines) and ``#`` comments when ``#`` starts a line.
Comment characters inside string literals are text. Lines keep their original
numbering so diagnostics point at the right place.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple


class SourceLine(NamedTuple):
    """One logical line: ``text`` without comments, ``raw`` as written (for carets).

    A named tuple: immutable like a frozen dataclass, and several times cheaper
    to create (a file makes one per line).
    """

    filename: str
    number: int
    text: str
    raw: str
    depth: int = 0  # macro / repetition nesting that produced this line
    #: the .include lines that brought this file in, outermost first: ((file, line), ...)
    included_from: tuple = ()


#: Characters that may start a comment or a string: lines without any are taken as they are.
_SPECIAL = re.compile(r'[/;#"*]')


def strip_comments(source: str, filename: str, included_from: tuple = ()) -> list:
    """Every line of ``source`` with comments replaced by nothing."""
    lines = []
    in_block = False
    for number, raw in enumerate(source.splitlines(), start=1):
        if not in_block and _SPECIAL.search(raw) is None:
            lines.append(SourceLine(filename, number, raw, raw, 0, included_from))
            continue
        text, in_block = _strip_line(raw, in_block)
        lines.append(SourceLine(filename, number, text, raw, 0, included_from))
    return lines


def find_include(name: str, include_dirs) -> str | None:
    """The path ``.include``/``.incbin`` of ``name`` opens, as llvm-mc looks for it:
    the name as given (relative to the working directory), then each ``-I``
    directory in order. None when no such file exists."""
    for candidate in (name, *(os.path.join(folder, name) for folder in include_dirs)):
        if os.path.isfile(candidate):
            return candidate
    return None


def _strip_line(raw: str, in_block: bool):
    """Remove comments from one line; returns (text, still inside /* */)."""
    out = []
    i, n = 0, len(raw)
    if not in_block and raw.lstrip().startswith("#"):
        return "", False
    while i < n:
        if in_block:
            end = raw.find("*/", i)
            if end < 0:
                return "".join(out), True
            out.append(" ")
            i = end + 2
            in_block = False
            continue
        ch = raw[i]
        if ch == '"':
            j = i + 1
            while j < n and raw[j] != '"':
                j += 2 if raw[j] == "\\" else 1
            out.append(raw[i:j + 1])
            i = j + 1
        elif ch == ";" or raw.startswith("//", i):
            break
        elif raw.startswith("/*", i):
            in_block = True
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out), in_block


def split_arguments(text: str) -> list:
    """Split macro-call or .irp arguments on commas/spaces outside quotes and brackets."""
    args, current, depth, quote = [], [], 0, False
    for ch in text:
        if quote:
            current.append(ch)
            quote = ch != '"'
            continue
        if ch == '"':
            quote = True
            current.append(ch)
        elif ch in "([":
            depth += 1
            current.append(ch)
        elif ch in ")]":
            depth -= 1
            current.append(ch)
        elif ch == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    tail = "".join(current).strip()
    if tail or args:
        args.append(tail)
    return args

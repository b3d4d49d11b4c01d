"""OpenCL printf through the printf buffer, formatted by the host after a dispatch.

The compiler replaces each ``printf`` by a call to ``__printf_alloc(n)``
and stores a record in the returned space: the format's 32-bit id, then each
argument's bytes (sizes as the metadata lists them). The metadata ("Printf"
in v2, ``amdhsa.printf`` in v3+) gives, per id, ``ID:N:S1:...:SN:FORMAT``.

The buffer handed to the kernel through the hidden printf-buffer argument
starts with two 32-bit words, the bytes used so far (the allocator's atomic
counter) and the capacity; records follow from byte 8.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

from ..errors import LoadError

PRINTF_HEADER_BYTES = 8
DEFAULT_PRINTF_BUFFER_BYTES = 1 << 20

_SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                   r"(?P<vector>v\d+)?(?P<length>hh|hl|h|ll|l|L|z|j|t)?(?P<conv>[diouxXeEfFgGaAcsp%])")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "a": "\a",
            "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


@dataclass(frozen=True)
class PrintfFormat:
    id: int
    arg_sizes: tuple
    format: str


def _unescape(text: str) -> str:
    """The metadata keeps C escapes (``\\n``) as two characters; the host expands them."""
    return re.sub(r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)", _expand_escape, text)


def _expand_escape(match) -> str:
    token = match.group(1)
    if token[0] == "x":
        return chr(int(token[1:], 16))
    if token[0] in "01234567" and token != "0":
        return chr(int(token, 8))
    return _ESCAPES.get(token, token)


def parse_printf_formats(entries) -> dict:
    """``{id: PrintfFormat}`` from the metadata's printf strings."""
    formats = {}
    for entry in entries:
        head = str(entry).split(":", 2)
        try:
            printf_id, count = int(head[0]), int(head[1])
            fields = str(entry).split(":", 2 + count)
            sizes = tuple(int(s) for s in fields[2:2 + count])
            text = fields[2 + count]
        except (ValueError, IndexError):
            raise LoadError(f"malformed printf metadata entry {entry!r}") from None
        formats[printf_id] = PrintfFormat(printf_id, sizes, _unescape(text))
    return formats


def decode_printf_buffer(raw: bytes, formats: dict) -> str:
    """The text the records in a printf buffer print, in buffer order."""
    used, capacity = struct.unpack_from("<II", raw, 0)
    end = PRINTF_HEADER_BYTES + min(used, capacity, len(raw) - PRINTF_HEADER_BYTES)
    offset, out = PRINTF_HEADER_BYTES, []
    while offset + 4 <= end:
        (printf_id,) = struct.unpack_from("<I", raw, offset)
        offset += 4
        fmt = formats.get(printf_id)
        if fmt is None:
            out.append(f"<printf record with unknown id {printf_id}>\n")
            break
        args = []
        for size in fmt.arg_sizes:
            args.append(raw[offset:offset + size])
            offset += size
        out.append(format_printf(fmt.format, args))
    return "".join(out)


def format_printf(fmt: str, args: list) -> str:
    """Apply a C format string to raw argument bytes."""
    pieces, position, next_arg = [], 0, 0
    for match in _SPEC.finditer(fmt):
        pieces.append(fmt[position:match.start()])
        position = match.end()
        if match["conv"] == "%":
            pieces.append("%")
            continue
        raw = args[next_arg] if next_arg < len(args) else b""
        next_arg += 1
        pieces.append(_format_one(match, raw))
    pieces.append(fmt[position:])
    return "".join(pieces)


def _format_one(match, raw: bytes) -> str:
    conv = match["conv"]
    spec = "%" + match["flags"] + (match["width"] or "") + \
        ("." + match["prec"] if match["prec"] else "")
    if conv == "s":
        return (spec + "s") % raw.split(b"\0", 1)[0].decode("utf-8", "replace")
    if conv in "eEfFgGaA":
        value = struct.unpack("<d", raw[:8])[0] if len(raw) >= 8 else \
            struct.unpack("<f", raw[:4].ljust(4, b"\0"))[0]
        if conv in "aA":
            text = value.hex()
            return text.upper() if conv == "A" else text
        return (spec + conv) % value
    unsigned = int.from_bytes(raw, "little") if raw else 0
    bits = 8 * len(raw) if raw else 32
    if conv == "p":
        return "0x%x" % unsigned
    if conv == "c":
        return (spec + "c") % chr(unsigned & 0xFF)
    if conv in "di":
        signed = unsigned - (1 << bits) if unsigned >> (bits - 1) else unsigned
        return (spec + "d") % signed
    return (spec + conv) % unsigned

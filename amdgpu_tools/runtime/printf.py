"""OpenCL printf through the printf buffer, formatted by the host after a dispatch.

The compiler replaces each ``printf`` by a call to ``__printf_alloc(n)``
and stores a record in the returned space: the format's 32-bit id, then each
argument's bytes (sizes as the metadata lists them). The metadata ("Printf"
in v2, ``amdhsa.printf`` in v3+) gives, per id, ``ID:N:S1:...:SN:FORMAT``.

The buffer handed to the kernel through the hidden printf-buffer argument
starts with two 32-bit words, the bytes used so far (the allocator's atomic
counter) and the capacity; records follow from byte 8.

``format_printf`` (C/OpenCL conversions on raw argument bytes, vectors
included) is shared with the hostcall printf service (``hostcall.py``).
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


def printf_conversions(fmt: str):
    """The conversion specifications of ``fmt`` that take arguments (not ``%%``)."""
    return [m for m in _SPEC.finditer(fmt) if m["conv"] != "%"]


def format_printf(fmt: str, args: list) -> str:
    """Apply a C (OpenCL) format string to raw argument bytes.

    A ``*`` width or precision takes a 4-byte int argument before the value;
    a vector conversion (``%v4f``) takes one argument holding all elements
    and prints them separated by commas.
    """
    pieces, position = [], 0
    remaining = iter(args)
    for match in _SPEC.finditer(fmt):
        pieces.append(fmt[position:match.start()])
        position = match.end()
        if match["conv"] == "%":
            pieces.append("%")
            continue
        flags, width, prec = match["flags"], match["width"], match["prec"]
        if width == "*":
            width = _signed(next(remaining, b""))
            flags, width = (flags + "-", -width) if width < 0 else (flags, width)
        if prec == "*":
            prec = _signed(next(remaining, b""))
            prec = None if prec < 0 else prec
        spec = _Spec(match["conv"], flags, None if width is None else int(width),
                     None if prec is None else int(prec))
        raw = next(remaining, b"")
        count = int(match["vector"][1:]) if match["vector"] else 1
        if count > 1 and raw:
            size = max(1, len(raw) // count)
            pieces.append(",".join(_format_one(spec, raw[i * size:(i + 1) * size])
                                   for i in range(count)))
        else:
            pieces.append(_format_one(spec, raw))
    pieces.append(fmt[position:])
    return "".join(pieces)


@dataclass(frozen=True)
class _Spec:
    conv: str
    flags: str
    width: int | None
    prec: int | None

    def python(self, conv: str, flags: str | None = None) -> str:
        """The equivalent Python %-format (same flags, width and precision)."""
        return "%" + (self.flags if flags is None else flags) + \
            ("" if self.width is None else str(self.width)) + \
            ("" if self.prec is None else "." + str(self.prec)) + conv


def _signed(raw: bytes) -> int:
    value = int.from_bytes(raw, "little") if raw else 0
    bits = 8 * len(raw) if raw else 32
    return value - (1 << bits) if value >> (bits - 1) else value


_FLOAT_FORMATS = {2: "<e", 4: "<f", 8: "<d"}


def _format_one(spec: _Spec, raw: bytes) -> str:
    conv = spec.conv
    if conv == "s":
        return spec.python("s") % raw.split(b"\0", 1)[0].decode("utf-8", "replace")
    if conv in "eEfFgGaA":
        code = _FLOAT_FORMATS.get(len(raw), "<d" if len(raw) > 8 else "<f")
        value = struct.unpack(code, raw[:struct.calcsize(code)].ljust(struct.calcsize(code),
                                                                       b"\0"))[0]
        if conv in "aA":
            return _pad(_hex_float(value, spec, conv == "A"), spec)
        return spec.python(conv) % value
    unsigned = int.from_bytes(raw, "little") if raw else 0
    if conv == "p":
        return _pad("0x%x" % unsigned, spec)
    if conv == "c":
        return spec.python("c", spec.flags.replace("0", "")) % chr(unsigned & 0xFF)
    if conv in "di":
        return spec.python("d") % _signed(raw)
    if conv == "o" and "#" in spec.flags:
        digits = ("%" + ("" if spec.prec is None else "." + str(spec.prec)) + "o") % unsigned
        return _pad(digits if digits.startswith("0") else "0" + digits, spec)
    flags = spec.flags.replace("#", "") if unsigned == 0 else spec.flags
    return spec.python("d" if conv == "u" else conv, flags) % unsigned


def _hex_float(value: float, spec: _Spec, upper: bool) -> str:
    """C's %a: 0x1.8p+0 (Python's float.hex keeps trailing zeros: 0x1.8000000000000p+0)."""
    if value != value or value in (float("inf"), float("-inf")):
        text = "%f" % value
    else:
        sign = "-" if str(value).startswith("-") else ("+" if "+" in spec.flags else
                                                      " " if " " in spec.flags else "")
        mantissa, exponent = abs(value).hex()[2:].split("p")
        whole, _, fraction = mantissa.partition(".")
        fraction = fraction.rstrip("0") if spec.prec is None else \
            fraction[:spec.prec].ljust(spec.prec, "0")
        point = "." if fraction or "#" in spec.flags else ""
        text = f"{sign}0x{whole}{point}{fraction}p{int(exponent):+d}"
    return text.upper() if upper else text


def _pad(text: str, spec: _Spec) -> str:
    """Apply a width: left-justify with '-', else pad with spaces on the left."""
    if spec.width is None or len(text) >= spec.width:
        return text
    return text.ljust(spec.width) if "-" in spec.flags else text.rjust(spec.width)

"""Bit-field declarations of encoding formats, and generic encode/decode over them.

A format is declared once, as the ISA manuals write it::

    Format("SOP1", "gfx6+", 1, "encoding[31:23]=0b101111101 sdst[22:16] op[15:8] ssrc0[7:0]")

Bit positions count across the whole instruction (bit 32 is bit 0 of the
second dword), so a 64-bit format is one string.  ``name[hi:lo]=value``
declares a fixed field that identifies the format; the decoder is built from
those by mask and match (see ``decoder.py``), and ``tests/isa/test_formats.py``
checks every format is reachable and no two overlap unless one explicitly
refines the other.
"""

import re
import struct
from dataclasses import dataclass

_FIELD_RE = re.compile(r"(\w+)\[(\d+)(?::(\d+))?\](?:=(0b[01]+|0x[0-9a-fA-F]+|\d+))?$")


@dataclass(frozen=True)
class Field:
    """``name[hi:lo]``: a run of bits of the instruction (little-endian dwords)."""

    name: str
    hi: int
    lo: int

    @property
    def width(self):
        return self.hi - self.lo + 1

    @property
    def mask(self):
        return ((1 << self.width) - 1) << self.lo

    def get(self, value):
        return (value >> self.lo) & ((1 << self.width) - 1)

    def put(self, value, field_value):
        if field_value < 0 or field_value >> self.width:
            raise ValueError(f"{field_value} does not fit {self.name}[{self.hi}:{self.lo}]")
        return (value & ~self.mask) | (field_value << self.lo)


class Format:
    """One encoding format of one generation range.

    ``generations`` is the set of generations (6..9) the layout applies to;
    ``words`` the dword count without literal; ``refines`` names the format(s)
    whose match this one narrows (e.g. VOP3P inside VOP3's opcode space).
    """

    def __init__(self, name, generations, words, layout, refines=None, encoding=None):
        self.name = name
        self.encoding = encoding or name
        self.generations = frozenset(generations)
        self.words = words
        self.refines = (refines,) if isinstance(refines, str) else tuple(refines or ())
        self.fields = {}
        self.fixed = {}
        for token in layout.split():
            field, fixed = _parse_field(token)
            if fixed is None:
                self.fields[field.name] = field
            else:
                self.fixed[field] = fixed
        # (name, shift, mask) per field: unpack is on the disassembler's hot path, so
        # it is compiled once from this layout into one dict display
        self._extract = tuple((name, f.lo, (1 << f.width) - 1) for name, f in self.fields.items())
        self.unpack = _compile_unpack(self._extract)
        #: ``read_words(code, offset)``: the format's dwords (struct.error past the end)
        self.read_words = struct.Struct(f"<{words}I").unpack_from
        op = self.fields.get("op")
        self._op_shift, self._op_mask = (op.lo, (1 << op.width) - 1) if op else (0, 0)
        self.match_mask = 0
        self.match_value = 0
        for field, fixed in self.fixed.items():
            self.match_mask |= field.mask
            self.match_value |= fixed << field.lo

    def __repr__(self):
        return f"Format({self.name}, gfx{min(self.generations)}-{max(self.generations)})"

    def matches(self, value):
        return value & self.match_mask == self.match_value

    def opcode_of(self, value):
        """The ``op`` field of ``value`` (0 when the format has none)."""
        return (value >> self._op_shift) & self._op_mask

    def pack(self, fields):
        """An int holding the fixed bits and the given field values (others 0)."""
        value = self.match_value
        for name, field_value in fields.items():
            value = self.fields[name].put(value, field_value)
        return value


def _compile_unpack(extract):
    """``unpack(value) -> {name: field value}`` for ``(name, shift, mask)`` triples,
    as one generated dict display (twice as fast as a loop over the triples)."""
    items = ", ".join(f"{name!r}: (value >> {shift}) & {mask}" for name, shift, mask in extract)
    unpack = eval(f"lambda value: {{{items}}}")  # pylint: disable=eval-used
    unpack.__doc__ = "Every named field of ``value`` (an int of ``words`` dwords)."
    return unpack


def _parse_field(token):
    match = _FIELD_RE.match(token)
    if not match:
        raise ValueError(f"bad field declaration {token!r}")
    name, hi, lo, fixed = match.groups()
    hi = int(hi)
    lo = hi if lo is None else int(lo)
    return Field(name, hi, lo), (None if fixed is None else int(fixed, 0))


def words_to_int(words):
    value = 0
    for i, word in enumerate(words):
        value |= word << (32 * i)
    return value


def int_to_words(value, count):
    return tuple((value >> (32 * i)) & 0xFFFFFFFF for i in range(count))

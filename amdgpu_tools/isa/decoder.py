"""Mask/match decoding: find the format of a word, then ask its family for the op.

The match table is built from the ``Format`` declarations of every registered
family (``isa.families``): for each generation, formats are tried from the
most specific (most fixed bits) to the least, so a refinement (SOP1 inside
SOPK, VOP3P inside VOP3, DPP inside VOP1) wins over the format it refines.
"""

import struct
from functools import lru_cache

from ..errors import DecodeError
from .families import families
from .fields import words_to_int
from .instruction import Instruction
from .targets import Target, get_target


@lru_cache(maxsize=None)
def match_table(generation):
    """``[(format, family module)]`` of one generation, most specific first."""
    entries = []
    for module in families():
        for fmt in module.FORMATS:
            if generation in fmt.generations and getattr(fmt, "matchable", True):
                entries.append((fmt, module))
    entries.sort(key=lambda e: -bin(e[0].match_mask).count("1"))
    return tuple(entries)


@lru_cache(maxsize=65536)
def _candidates(generation, high_bits):
    """Formats whose fixed bits in [31:16] agree with ``high_bits`` (a decode cache)."""
    word = high_bits << 16
    return tuple((fmt, module) for fmt, module in match_table(generation)
                 if (word ^ fmt.match_value) & fmt.match_mask & 0xFFFF0000 == 0)


def find_format(word0, generation):
    """The (format, family) whose fixed bits match ``word0``, or None."""
    for fmt, module in _candidates(generation, word0 >> 16):
        if fmt.matches(word0):
            return fmt, module
    return None


_DWORDS = tuple(struct.Struct(f"<{n}I") for n in range(4))


def read_words(code, offset, count):
    """``count`` little-endian dwords at ``offset``; DecodeError when truncated."""
    if offset + 4 * count > len(code):
        raise DecodeError(f"truncated instruction at offset {offset}: need {4 * count} bytes,"
                          f" have {len(code) - offset}")
    if count < len(_DWORDS):
        return _DWORDS[count].unpack_from(code, offset)
    return struct.unpack_from(f"<{count}I", code, offset)


#: {(generation, word0[31:16]): ((format, family, its decode_instruction hook), ...)}
_ROUTES = {}


def _routes(generation, high_bits):
    """The candidate formats of a word's high half with each family's decode hook."""
    key = (generation, high_bits)
    routes = _ROUTES.get(key)
    if routes is None:
        routes = _ROUTES[key] = tuple(
            (fmt, module, getattr(module, "decode_instruction", None))
            for fmt, module in _candidates(generation, high_bits))
    return routes


def decode(code, offset, target):
    """Decode the instruction at ``code[offset:]`` for ``target``."""
    if not isinstance(target, Target):
        target = get_target(target)
    return _decode(code, offset, target)


def _decode(code, offset, target):
    """``decode`` for a ``Target`` (the disassembler's loop resolves it once)."""
    try:
        word0, = _DWORDS[1].unpack_from(code, offset)
    except struct.error:
        read_words(code, offset, 1)  # names the truncation
        raise
    routes = _ROUTES.get((target.generation, word0 >> 16))
    if routes is None:
        routes = _routes(target.generation, word0 >> 16)
    for fmt, module, hook in routes:
        if word0 & fmt.match_mask == fmt.match_value:
            break
    else:
        raise DecodeError(f"no {target.name} encoding format matches 0x{word0:08x}")
    if hook is not None:
        return hook(fmt, code, offset, target)
    words = read_words(code, offset, fmt.words)
    value = words_to_int(words)
    fields = fmt.unpack(value)
    info = module.decode_fields(fields, target, value)
    return Instruction(op=info.name, encoding=getattr(info, "encoding", fmt.encoding),
                       base_encoding=getattr(info, "base_encoding", fmt.encoding),
                       opcode=fields.get("op"), words=words, fields=fields, info=info,
                       target=target, family=module, format=fmt)


class DataWord:
    """An undecodable dword shown as data (``.long 0x...``), never an exception."""

    op = ".long"
    encoding = "DATA"
    base_encoding = "DATA"
    opcode = None
    literal = None
    info = None

    def __init__(self, word, size, reason):
        self.words = (word,)
        self.size = size
        self.fields = {}
        self.reason = reason

    def text(self):
        if self.size == 4:
            return f".long 0x{self.words[0]:08x}"
        return ".byte " + ", ".join(f"0x{b:02x}" for b in
                                     self.words[0].to_bytes(4, "little")[:self.size])

    def __repr__(self):
        return f"<DataWord {self.text()} ({self.reason})>"


def disassemble(code, target, base_address=0):
    """Yield ``(address, instruction)`` over ``code``; bad words come out as ``DataWord``."""
    target = get_target(target)
    code = bytes(code)
    offset = 0
    while offset < len(code):
        try:
            inst = _decode(code, offset, target)
        except DecodeError as error:
            size = min(4, len(code) - offset)
            word = int.from_bytes(code[offset:offset + size], "little")
            inst = DataWord(word, size, str(error))
        yield base_address + offset, inst
        offset += inst.size

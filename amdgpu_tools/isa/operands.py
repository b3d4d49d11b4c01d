"""The one codec for GCN source/destination operand fields.

The 9-bit source operand (VOP*), the 8-bit scalar source (SOP*) and the 7-bit
scalar destination share one value space: SGPRs, trap temporaries, named
registers, inline constants, the literal marker, DPP/SDWA markers and VGPRs
(256-511).  ``decode_operand`` names what a field value means,
``operand_text`` prints it as llvm-objdump does, ``encode_register`` and
``inline_code`` go the other way.  The decoder, printer, encoder and the
executor's operand fetch all use these functions.
"""

import math
import struct
from dataclasses import dataclass
from functools import lru_cache

LITERAL = 255
NULL_CODE = 125
DPP_MARKER = 250
SDWA_MARKER = 249
VGPR_BASE = 256

#: inline float constants: code -> value (1/(2*pi) only on GFX8+)
INLINE_FLOATS = {240: 0.5, 241: -0.5, 242: 1.0, 243: -1.0, 244: 2.0, 245: -2.0, 246: 4.0,
                 247: -4.0}
INV_2PI_CODE = 248
INV_2PI = 1.0 / (2.0 * math.pi)

#: bit patterns of the inline float constants per operand size
_FLOAT_BITS = {
    16: {0x3800: 240, 0xB800: 241, 0x3C00: 242, 0xBC00: 243, 0x4000: 244, 0xC000: 245,
         0x4400: 246, 0xC400: 247, 0x3118: 248},
    32: {0x3F000000: 240, 0xBF000000: 241, 0x3F800000: 242, 0xBF800000: 243,
         0x40000000: 244, 0xC0000000: 245, 0x40800000: 246, 0xC0800000: 247,
         0x3E22F983: 248},
    64: {0x3FE0000000000000: 240, 0xBFE0000000000000: 241, 0x3FF0000000000000: 242,
         0xBFF0000000000000: 243, 0x4000000000000000: 244, 0xC000000000000000: 245,
         0x4010000000000000: 246, 0xC010000000000000: 247, 0x3FC45F306DC9C882: 248},
}
_F16_BITS_OF = {code: bits for bits, code in _FLOAT_BITS[16].items()}
_FLOAT_TEXT = {240: "0.5", 241: "-0.5", 242: "1.0", 243: "-1.0", 244: "2.0", 245: "-2.0",
               246: "4.0", 247: "-4.0"}

#: named scalar registers: code -> (name of the 32-bit half, name of the 64-bit pair)
_NAMED_VI = {102: ("flat_scratch_lo", "flat_scratch"), 103: ("flat_scratch_hi", None),
             104: ("xnack_mask_lo", "xnack_mask"), 105: ("xnack_mask_hi", None),
             106: ("vcc_lo", "vcc"), 107: ("vcc_hi", None), 108: ("tba_lo", "tba"),
             109: ("tba_hi", None), 110: ("tma_lo", "tma"), 111: ("tma_hi", None),
             124: ("m0", None), 126: ("exec_lo", "exec"), 127: ("exec_hi", None)}
_NAMED_SI = {104: ("flat_scratch_lo", "flat_scratch"), 105: ("flat_scratch_hi", None),
             106: ("vcc_lo", "vcc"), 107: ("vcc_hi", None), 108: ("tba_lo", "tba"),
             109: ("tba_hi", None), 110: ("tma_lo", "tma"), 111: ("tma_hi", None),
             124: ("m0", None), 126: ("exec_lo", "exec"), 127: ("exec_hi", None)}
_NAMED_GFX9 = {k: v for k, v in _NAMED_VI.items() if not 108 <= k <= 111}

_SOURCE_ONLY = {235: "src_shared_base", 236: "src_shared_limit", 237: "src_private_base",
                238: "src_private_limit", 239: "src_pops_exiting_wave_id", 251: "src_vccz",
                252: "src_execz", 253: "src_scc", 254: "src_lds_direct"}
_GFX9_ONLY_SOURCES = {235, 236, 237, 238, 239}


@dataclass(frozen=True)
class Layout:
    """Where the register classes sit in the operand space of one generation."""

    sgpr_count: int
    ttmp_base: int
    ttmp_count: int
    named: dict


_LAYOUTS = {
    6: Layout(104, 112, 12, {k: v for k, v in _NAMED_SI.items() if k not in (104, 105)}),
    7: Layout(104, 112, 12, _NAMED_SI),
    8: Layout(102, 112, 12, _NAMED_VI),
    9: Layout(102, 108, 16, _NAMED_GFX9),
}


def layout(generation):
    return _LAYOUTS[generation]


@dataclass(frozen=True)
class OperandValue:
    """What a field value denotes: kind is 'sgpr', 'ttmp', 'vgpr', 'named',
    'int' (inline integer), 'float' (inline float), 'literal', 'source'
    (src_* read-only values), 'dpp', 'sdwa' or 'invalid'."""

    kind: str
    index: int = 0
    name: str = None
    value: object = None


@lru_cache(maxsize=None)
def decode_operand(code, generation):
    """Name the meaning of an operand field value (9-bit space); memoised: the
    answer is a frozen value of a bounded key space, asked once per operand printed."""
    lay = _LAYOUTS[generation]
    if code >= VGPR_BASE:
        return OperandValue("vgpr", code - VGPR_BASE)
    if code < lay.sgpr_count:
        return OperandValue("sgpr", code)
    if lay.ttmp_base <= code < lay.ttmp_base + lay.ttmp_count:
        return OperandValue("ttmp", code - lay.ttmp_base)
    if code in lay.named:
        return OperandValue("named", code, lay.named[code][0])
    if code == 128:
        return OperandValue("int", code, value=0)
    if 129 <= code <= 192:
        return OperandValue("int", code, value=code - 128)
    if 193 <= code <= 208:
        return OperandValue("int", code, value=192 - code)
    if code in INLINE_FLOATS:
        return OperandValue("float", code, value=INLINE_FLOATS[code])
    if code == INV_2PI_CODE and generation >= 8:
        return OperandValue("float", code, value=INV_2PI)
    if code == LITERAL:
        return OperandValue("literal", code)
    if code == DPP_MARKER and generation >= 8:
        return OperandValue("dpp", code)
    if code == SDWA_MARKER and generation >= 8:
        return OperandValue("sdwa", code)
    if code == NULL_CODE and generation >= 8:
        return OperandValue("source", code, "null")  # llvm names GFX10's null register
    if code in _SOURCE_ONLY and (generation >= 8 or code not in _GFX9_ONLY_SOURCES):
        # llvm also names the GFX9 apertures on GFX8 (where they read as zero)
        return OperandValue("source", code, _SOURCE_ONLY[code])
    return OperandValue("invalid", code)


def register_text(file, first, count):
    """``v7``, ``s[4:5]``, ``ttmp[0:3]``."""
    if count == 1:
        return f"{file}{first}"
    return f"{file}[{first}:{first + count - 1}]"


@lru_cache(maxsize=16384)
def operand_text(code, generation, width=1, size=32, literal=None, is_float=False,
                 int16=False):
    """The text llvm-objdump prints for an operand field value.

    ``width`` is the register count in dwords; ``size`` the value's bit size
    (16, 32, 64) for constants; ``literal`` the literal dword when ``code`` is
    the literal marker; ``is_float`` for 64-bit float operands (literal = high half).
    Memoised (bounded: literals make the key space open): the disassembler asks
    the same few hundred register/constant texts over and over.
    """
    op = decode_operand(code, generation)
    kind = op.kind
    if kind == "vgpr":
        return register_text("v", op.index, width)
    if kind in ("sgpr", "ttmp"):
        # a scalar tuple is aligned (2 dwords to 2, 4+ to 4): llvm ignores the low bits
        align = 1 if width == 1 else (2 if width == 2 else 4)
        return register_text("s" if kind == "sgpr" else "ttmp", op.index - op.index % align,
                             width)
    if kind == "named":
        if width == 1:
            return op.name
        pair = _LAYOUTS[generation].named[code][1]
        if width == 2 and pair:
            return pair
        return f"{op.name}/*invalid width*/"
    if kind == "int":
        return str(op.value)
    if kind == "float":
        if int16:
            return f"0x{_F16_BITS_OF[code]:x}"
        return float_text(code, size)
    if kind == "literal":
        if int16:
            return "<missing literal>" if literal is None else f"0x{literal & 0xFFFF:x}"
        return literal_text(literal, size, generation, is_float)
    if kind == "source":
        return op.name
    if kind in ("dpp", "sdwa"):
        return op.kind
    return f"invalid_operand_{code}"


def float_text(code, size):
    if code == INV_2PI_CODE:
        return "0.15915494309189532" if size == 64 else "0.15915494"
    return _FLOAT_TEXT[code]


def literal_text(literal, size, generation, is_float=False):
    """A literal as llvm prints it: an inline-constant spelling when its bits are
    one, else hex (16-bit operands use the low half; f64 the high half)."""
    if literal is None:
        return "<missing literal>"
    if size == 16:
        value = literal & 0xFFFF
        code = inline_code_for_bits(value, 16, generation, allow_float=is_float)
    elif size == 64 and is_float:
        value = literal
        code = inline_code_for_bits(literal << 32, 64, generation)
    else:
        value = literal
        code = inline_code_for_bits(literal, size, generation)
    if code is not None:
        return operand_text(code, generation, size=size)
    return f"0x{value:x}"


def inline_code_for_bits(bits, size, generation, allow_float=True):
    """The inline-constant code whose value has these bits at this size, or None."""
    mask = (1 << size) - 1
    bits &= mask
    signed = bits - (1 << size) if bits >> (size - 1) else bits
    if 0 <= signed <= 64:
        return 128 + signed
    if -16 <= signed <= -1:
        return 192 - signed
    if allow_float:
        code = _FLOAT_BITS[size].get(bits)
        if code is not None and (code != INV_2PI_CODE or generation >= 8):
            return code
    return None


def inline_code_for_int(value, generation):
    """Inline code for an integer constant (-16..64), else None."""
    if 0 <= value <= 64:
        return 128 + value
    if -16 <= value <= -1:
        return 192 - value
    return None


def inline_code_for_float(value, size, generation):
    """Inline code for a floating-point constant at this operand size, else None."""
    for code, inline in INLINE_FLOATS.items():
        if value == inline:
            return code
    if generation >= 8:
        for bits_size in (size, 64, 32, 16):
            try:
                bits = float_bits(value, bits_size)
            except OverflowError:
                continue
            if _FLOAT_BITS[bits_size].get(bits) == INV_2PI_CODE:
                return INV_2PI_CODE
    return None


def float_bits(value, size):
    """IEEE bits of ``value`` rounded to ``size`` (16, 32, 64)."""
    if size == 16:
        return struct.unpack("<H", struct.pack("<e", value))[0]
    if size == 32:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def encode_register(file, index, count, generation):
    """Operand code of a register range (``file`` 's', 'ttmp' or 'v'), or None."""
    lay = _LAYOUTS[generation]
    if file == "v":
        return VGPR_BASE + index if 0 <= index and index + count <= 256 else None
    if file == "s":
        return index if 0 <= index and index + count <= lay.sgpr_count else None
    if file == "ttmp":
        return lay.ttmp_base + index if 0 <= index and index + count <= lay.ttmp_count else None
    return None


def encode_named(name, generation):
    """Operand code and dword count of a named register (``vcc``, ``m0``, ...), or None."""
    lay = _LAYOUTS[generation]
    for code, (half, pair) in lay.named.items():
        if name == half:
            return code, 1
        if name == pair:
            return code, 2
    for code, source in _SOURCE_ONLY.items():
        if name in (source, source[4:]) and (generation >= 9 or code not in _GFX9_ONLY_SOURCES):
            return code, 1
    return None

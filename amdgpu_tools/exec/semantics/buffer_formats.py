"""Typed buffer data: memory bytes <-> register values of the *_format_* instructions.

A typed access (buffer_load_format_*, tbuffer_*) names a data format (how
many channels, how many bits each, how they are packed) and a numeric format
(how a channel's bits read as a number).  Both come from the GCN manuals'
"Buffer Data Formats" tables (LLVM spells them BUF_DATA_FORMAT_* and
BUF_NUM_FORMAT_*).  A channel's bits are first isolated as an unsigned
*code*; the numeric format then turns codes into 32-bit register values and
back.  The packed formats (10_11_11, 2_10_10_10, ...) are named most
significant channel first: in 10_11_11, X is bits [10:0], Y [21:11] and
Z [31:22].

The d16 forms move 16-bit register values: float-like numeric formats as
IEEE half floats, integer formats as the low 16 bits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_U32 = np.uint32


@dataclass(frozen=True)
class DataFormat:
    """Channel widths in bits, X first (lowest bits first in a packed dword)."""

    widths: tuple

    @property
    def channels(self) -> int:
        return len(self.widths)

    @property
    def nbytes(self) -> int:
        return sum(self.widths) // 8

    @property
    def packed(self) -> bool:
        """True when channels share a dword (not every channel is 8, 16 or 32 bits)."""
        return any(width not in (8, 16, 32) for width in self.widths)


#: BUF_DATA_FORMAT code -> channel widths (0 invalid, 15 reserved).
DATA_FORMATS = {
    1: DataFormat((8,)), 2: DataFormat((16,)), 3: DataFormat((8, 8)),
    4: DataFormat((32,)), 5: DataFormat((16, 16)), 6: DataFormat((11, 11, 10)),
    7: DataFormat((10, 11, 11)), 8: DataFormat((2, 10, 10, 10)),
    9: DataFormat((10, 10, 10, 2)), 10: DataFormat((8, 8, 8, 8)),
    11: DataFormat((32, 32)), 12: DataFormat((16, 16, 16, 16)),
    13: DataFormat((32, 32, 32)), 14: DataFormat((32, 32, 32, 32)),
}
#: BUF_NUM_FORMAT code -> name.  Code 6 (LLVM: RESERVED_6) is the GFX6-8
#: manuals' SNORM_OGL: the whole signed range maps onto [-1, 1].
NUM_FORMATS = {0: "unorm", 1: "snorm", 2: "uscaled", 3: "sscaled", 4: "uint", 5: "sint",
               6: "snorm_ogl", 7: "float"}
#: Numeric formats the hardware can only read.
READ_ONLY_NUM_FORMATS = frozenset({"uscaled", "sscaled", "snorm_ogl"})
#: Numeric formats whose register values are integers (the rest are f32 / f16).
INTEGER_NUM_FORMATS = frozenset({"uint", "sint"})
#: Channel widths with a float encoding: IEEE f16/f32 and the unsigned
#: 11-bit (5-bit exponent, 6-bit mantissa) and 10-bit (5e5m) floats.
FLOAT_WIDTHS = frozenset({10, 11, 16, 32})


def layout(dfmt: int, nfmt: int, store: bool):
    """(DataFormat, numeric format name) of a typed access, or None when the
    pair is invalid: an unknown code, float on a width without a float
    encoding, or a read-only numeric format on a store."""
    fmt, name = DATA_FORMATS.get(dfmt), NUM_FORMATS.get(nfmt)
    if fmt is None or name is None:
        return None
    if name == "float" and not all(width in FLOAT_WIDTHS for width in fmt.widths):
        return None
    if store and name in READ_ONLY_NUM_FORMATS:
        return None
    return fmt, name


# ------------------------------------------------------------ bytes <-> codes
_UNIFORM_TYPES = {8: np.uint8, 16: np.uint16, 32: np.uint32}


def unpack(raw: np.ndarray, fmt: DataFormat) -> np.ndarray:
    """(..., nbytes) uint8 -> (..., channels) uint32 channel codes."""
    raw = np.ascontiguousarray(raw, np.uint8)
    if not fmt.packed:
        kind = _UNIFORM_TYPES[fmt.widths[0]]
        return raw.view(kind).astype(_U32)
    word = raw.view(_U32)[..., 0]
    codes, shift = [], 0
    for width in fmt.widths:
        codes.append((word >> _U32(shift)) & _U32((1 << width) - 1))
        shift += width
    return np.stack(codes, axis=-1)


def pack(codes: np.ndarray, fmt: DataFormat) -> np.ndarray:
    """(..., channels) uint32 codes -> (..., nbytes) uint8 memory bytes."""
    codes = np.asarray(codes, _U32)
    if not fmt.packed:
        kind = _UNIFORM_TYPES[fmt.widths[0]]
        narrow = np.ascontiguousarray(codes.astype(kind))
        return narrow.view(np.uint8).reshape(codes.shape[:-1] + (-1,))
    word = np.zeros(codes.shape[:-1], _U32)
    shift = 0
    for channel, width in enumerate(fmt.widths):
        word |= (codes[..., channel] & _U32((1 << width) - 1)) << _U32(shift)
        shift += width
    return np.ascontiguousarray(word).view(np.uint8).reshape(word.shape + (4,))


# ------------------------------------------------------ codes <-> registers
def _signed(codes, width):
    """Two's-complement value of ``width``-bit codes, as int64."""
    values = codes.astype(np.int64)
    return np.where(values >> (width - 1) & 1, values - (1 << width), values)


def _small_float_value(codes, width):
    """Unsigned 11/10-bit float codes (5-bit exponent, bias 15) -> float64."""
    mantissa_bits = width - 5
    exponent = (codes >> mantissa_bits).astype(np.int64)
    mantissa = (codes & ((1 << mantissa_bits) - 1)).astype(np.float64)
    scale = float(1 << mantissa_bits)
    normal = np.ldexp(1.0 + mantissa / scale, exponent - 15)
    tiny = np.ldexp(mantissa / scale, -14)
    special = np.where(mantissa == 0, np.inf, np.nan)
    return np.where(exponent == 0, tiny, np.where(exponent == 31, special, normal))


def _small_float_code(values, width):
    """float64 -> unsigned 11/10-bit float codes, rounding to nearest even.

    Negative values and -inf become 0 (the formats have no sign); values
    past the largest finite one become +inf; NaN stays NaN.
    """
    mantissa_bits = width - 5
    infinity = 31 << mantissa_bits
    with np.errstate(invalid="ignore", over="ignore"):
        positive = np.where(np.isnan(values), 0.0, np.maximum(values, 0.0))
        fraction, exponent = np.frexp(positive)            # positive = f * 2**e, f in [0.5, 1)
        exponent = np.maximum(exponent - 1, -14)           # denormals share exponent -14
        step = np.ldexp(1.0, exponent - mantissa_bits)
        units = np.rint(np.where(np.isinf(positive), 0.0, positive / step))
        biased = np.where(positive < 2.0 ** -14, 0, exponent + 15)
        code = biased.astype(np.int64) * (1 << mantissa_bits) + units.astype(np.int64) - \
            np.where(biased > 0, 1 << mantissa_bits, 0)
    code = np.where(np.isinf(positive) | (code >= infinity), infinity, code)
    code = np.where(np.isnan(values), infinity | (1 << (mantissa_bits - 1)), code)
    return code.astype(_U32)


def _f32_bits(values):
    return np.asarray(values, np.float64).astype(np.float32).view(_U32)


def channel_to_register(codes: np.ndarray, width: int, num_format: str) -> np.ndarray:
    """One channel's codes -> 32-bit register values (f32 bits or integers)."""
    if num_format == "uint":
        return codes.astype(_U32)
    if num_format == "sint":
        return _signed(codes, width).astype(_U32)
    if num_format == "float":
        if width == 32:
            return codes.astype(_U32)
        if width == 16:
            return codes.astype(np.uint16).view(np.float16).astype(np.float32).view(_U32)
        return _f32_bits(_small_float_value(codes, width))
    top = float((1 << width) - 1)
    half = float((1 << (width - 1)) - 1)
    if num_format == "unorm":
        return _f32_bits(codes.astype(np.float64) / top)
    if num_format == "snorm":
        return _f32_bits(np.maximum(_signed(codes, width) / half, -1.0))
    if num_format == "snorm_ogl":
        return _f32_bits((2.0 * _signed(codes, width) + 1.0) / top)
    if num_format == "uscaled":
        return _f32_bits(codes.astype(np.float64))
    return _f32_bits(_signed(codes, width).astype(np.float64))          # sscaled


def channel_from_register(words: np.ndarray, width: int, num_format: str) -> np.ndarray:
    """32-bit register values -> one channel's codes (the store direction).

    Integer formats keep the low ``width`` bits; unorm/snorm clamp to their
    range and round to nearest; floats round to the channel's float format.
    """
    words = np.asarray(words, _U32)
    mask = _U32((1 << width) - 1) if width < 32 else _U32(0xFFFFFFFF)
    if num_format in INTEGER_NUM_FORMATS:
        return words & mask
    floats = words.view(np.float32).astype(np.float64)
    if num_format == "float":
        if width == 32:
            return words
        if width == 16:
            with np.errstate(over="ignore"):
                return floats.astype(np.float16).view(np.uint16).astype(_U32)
        return _small_float_code(floats, width)
    if num_format == "unorm":
        scale, low = float((1 << width) - 1), 0.0
    else:                                                                # snorm
        scale, low = float((1 << (width - 1)) - 1), -1.0
    with np.errstate(invalid="ignore"):
        scaled = np.rint(np.clip(np.nan_to_num(floats), low, 1.0) * scale)
    return scaled.astype(np.int64).astype(_U32) & mask


def to_registers(codes: np.ndarray, fmt: DataFormat, num_format: str) -> np.ndarray:
    """(..., channels) codes -> (..., channels) uint32 register values."""
    return np.stack([channel_to_register(codes[..., c], width, num_format)
                     for c, width in enumerate(fmt.widths)], axis=-1)


def from_registers(words: np.ndarray, fmt: DataFormat, num_format: str) -> np.ndarray:
    """(..., channels) uint32 register values -> (..., channels) codes."""
    return np.stack([channel_from_register(words[..., c], width, num_format)
                     for c, width in enumerate(fmt.widths)], axis=-1)


# ---------------------------------------------------------------- d16 forms
def narrow16(words: np.ndarray, num_format: str) -> np.ndarray:
    """32-bit register values -> the 16-bit values a d16 load returns (uint32)."""
    words = np.asarray(words, _U32)
    if num_format in INTEGER_NUM_FORMATS:
        return words & _U32(0xFFFF)
    with np.errstate(over="ignore"):
        halves = words.view(np.float32).astype(np.float16)
    return halves.view(np.uint16).astype(_U32)


def widen16(halves: np.ndarray, num_format: str) -> np.ndarray:
    """16-bit values a d16 store takes -> the 32-bit register values they stand for."""
    halves = np.asarray(halves, _U32) & _U32(0xFFFF)
    if num_format == "uint":
        return halves
    if num_format == "sint":
        return halves.astype(np.uint16).view(np.int16).astype(np.int32).view(_U32)
    return halves.astype(np.uint16).view(np.float16).astype(np.float32).view(_U32)

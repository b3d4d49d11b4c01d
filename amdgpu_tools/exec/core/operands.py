"""Operand access bound at pre-decode time: the 9-bit source operand code
(registers, inline constants, literal, special values) turned once into a
getter, so the run loop never looks at bits.

A getter is ``get(state, sel) -> raw bits`` (uint32 for 8/16/32-bit types,
uint64 for 64-bit types): an (n,) array for SALU operands; for VALU operands
an (n, 64) array for VGPRs, (n, 1) for SGPRs (broadcast over the lanes) or a
NumPy scalar for constants. ``typed(bits, type)`` then views the bits
as the operand's value type.
"""

from __future__ import annotations

import numpy as np

from .state import EXEC_HI, EXEC_LO, VCC_HI, VCC_LO

#: Bit width of each value type.
TYPE_BITS = {"b32": 32, "u32": 32, "i32": 32, "f32": 32, "b16": 16, "u16": 16, "i16": 16,
             "f16": 16, "b64": 64, "u64": 64, "i64": 64, "f64": 64, "u8": 8, "u24": 32,
             "i24": 32, "v2f16": 32, "v2i16": 32, "v2u16": 32, "b1": 32}
FLOAT_TYPES = {"f16": 16, "f32": 32, "f64": 64}
SIGN_BIT = {16: 0x8000, 32: 0x80000000, 64: 0x8000_0000_0000_0000}

_F16 = {240: 0x3800, 241: 0xB800, 242: 0x3C00, 243: 0xBC00, 244: 0x4000, 245: 0xC000,
        246: 0x4400, 247: 0xC400, 248: 0x3118}
_F32 = {240: 0x3F000000, 241: 0xBF000000, 242: 0x3F800000, 243: 0xBF800000,
        244: 0x40000000, 245: 0xC0000000, 246: 0x40800000, 247: 0xC0800000,
        248: 0x3E22F983}
_F64 = {240: 0x3FE0000000000000, 241: 0xBFE0000000000000, 242: 0x3FF0000000000000,
        243: 0xBFF0000000000000, 244: 0x4000000000000000, 245: 0xC000000000000000,
        246: 0x4010000000000000, 247: 0xC010000000000000, 248: 0x3FC45F306DC9C882}

LITERAL = 255
VCCZ, EXECZ, SCC_CODE, LDS_DIRECT = 251, 252, 253, 254
SHARED_BASE, SHARED_LIMIT, PRIVATE_BASE, PRIVATE_LIMIT = 235, 236, 237, 238


class OperandError(Exception):
    """An operand code the executor cannot read or write (reported as a KernelError)."""


def bits_of(type_):
    return TYPE_BITS.get(type_, 32)


def constant_bits(code: int, type_: str, literal):
    """The raw bits of an inline constant or literal as read by a ``type_`` operand."""
    width = bits_of(type_)
    if 128 <= code <= 192:
        value = code - 128
    elif 193 <= code <= 208:
        value = 192 - code
    elif 240 <= code <= 248:
        table = _F64 if width == 64 else _F16 if type_ in ("f16", "v2f16") else _F32
        value = table[code]
        return np.uint64(value) if width == 64 else np.uint32(value)
    elif code == LITERAL:
        value = int(literal or 0) & 0xFFFFFFFF
        if width == 64:
            if type_ == "f64":
                return np.uint64(value << 32)
            if type_ == "i64" and value & 0x80000000:
                return np.uint64(value | 0xFFFFFFFF_00000000)
            return np.uint64(value)
        return np.uint32(value)
    else:
        raise OperandError(f"operand code {code} is not a constant")
    if width == 64:
        return np.uint64(value & 0xFFFF_FFFF_FFFF_FFFF)
    if width == 16 and type_ not in ("v2f16", "v2i16", "v2u16"):
        return np.uint32(value & 0xFFFF)
    return np.uint32(value & 0xFFFFFFFF)


def is_constant(code):
    return 128 <= code <= 208 or 240 <= code <= 248 or code == LITERAL


def _pair(rows, code, sel):
    high = rows[code + 1, sel].astype(np.uint64) << np.uint64(32)
    return rows[code, sel].astype(np.uint64) | high


def scalar_getter(code: int, type_: str, literal=None, aperture=None):
    """Getter for an SALU source (or a scalar VALU source before broadcast): (n,) bits."""
    wide = bits_of(type_) == 64
    if is_constant(code):
        value = constant_bits(code, type_, literal)
        return lambda state, sel: value
    if code <= 127:
        if wide:
            return lambda state, sel: _pair(state.sgpr, code, sel)
        return lambda state, sel: state.sgpr[code, sel]
    if code == SCC_CODE:
        return _widen(lambda state, sel: state.scc[sel].astype(np.uint32), wide)
    if code == VCCZ:
        return _widen(lambda state, sel: ((state.sgpr[VCC_LO, sel] | state.sgpr[VCC_HI, sel])
                                          == 0).astype(np.uint32), wide)
    if code == EXECZ:
        return _widen(lambda state, sel: ((state.sgpr[EXEC_LO, sel] | state.sgpr[EXEC_HI, sel])
                                          == 0).astype(np.uint32), wide)
    if SHARED_BASE <= code <= PRIVATE_LIMIT and aperture is not None:
        value = aperture(code)
        value = np.uint64(value << 32) if wide else np.uint32(value)
        return lambda state, sel: value
    raise OperandError(f"scalar source operand {code} is not supported")


def _widen(getter, wide):
    if not wide:
        return getter
    return lambda state, sel: getter(state, sel).astype(np.uint64)


def vector_getter(code: int, type_: str, literal=None, aperture=None):
    """Getter for a VALU source: (n, 64) VGPR bits, (n, 1) scalar bits or a constant."""
    wide = bits_of(type_) == 64
    if code >= 256:
        reg = code - 256
        if wide:
            return lambda state, sel: _pair(state.vgpr, reg, sel)
        return lambda state, sel: state.vgpr[reg, sel]
    scalar = scalar_getter(code, type_, literal, aperture)
    if is_constant(code) or SHARED_BASE <= code <= PRIVATE_LIMIT:
        return scalar
    return lambda state, sel: scalar(state, sel)[:, None]


_VIEW = {"f32": np.float32, "i32": np.int32, "f64": np.float64, "i64": np.int64}


def typed(bits, type_):
    """View raw operand bits as the value type (no copy for 32/64-bit types)."""
    view = _VIEW.get(type_)
    if view is not None:
        return bits.view(view)
    if type_ == "f16":
        return np.asarray(bits).astype(np.uint16).view(np.float16)
    if type_ == "i16":
        return np.asarray(bits).astype(np.uint16).view(np.int16)
    if type_ in ("u16", "b16"):
        return np.asarray(bits).astype(np.uint16)
    return bits


_BITS_OUT = {"f32": (np.float32, np.uint32), "i32": (np.int32, np.uint32),
             "u32": (np.uint32, np.uint32), "b32": (np.uint32, np.uint32),
             "f64": (np.float64, np.uint64), "i64": (np.int64, np.uint64),
             "u64": (np.uint64, np.uint64), "b64": (np.uint64, np.uint64),
             "f16": (np.float16, np.uint16), "i16": (np.int16, np.uint16),
             "u16": (np.uint16, np.uint16), "b16": (np.uint16, np.uint16)}


def to_bits(values, type_):
    """A result of ``type_`` -> raw bits: uint32 (16-bit values zero-extended) or uint64."""
    value_dtype, bits_dtype = _BITS_OUT.get(type_, (np.uint32, np.uint32))
    values = np.asarray(values)
    if values.dtype != value_dtype:
        values = values.astype(value_dtype)
    bits = values.view(bits_dtype)
    if bits_dtype is np.uint16:
        bits = bits.astype(np.uint32)
    return bits


def bits_converter(type_):
    """``to_bits`` for results of one type, chosen at pre-decode: a result
    already held in the type's own dtype (most are) is viewed as bits
    directly, without asarray/astype; anything else goes through ``to_bits``."""
    value_dtype, bits_dtype = _BITS_OUT.get(type_, (np.uint32, np.uint32))
    if bits_dtype is np.uint16:
        return lambda values: to_bits(values, type_)
    value_dtype, bits_dtype = np.dtype(value_dtype), np.dtype(bits_dtype)
    ndarray = np.ndarray
    if value_dtype == bits_dtype:
        def convert(values):
            if type(values) is ndarray and values.dtype is value_dtype:
                return values
            return to_bits(values, type_)
    else:
        def convert(values):
            if type(values) is ndarray and values.dtype is value_dtype:
                return values.view(bits_dtype)
            return to_bits(values, type_)
    return convert


def split64(bits):
    """uint64 bits -> (low, high) uint32 halves."""
    bits = np.asarray(bits, dtype=np.uint64)
    low = (bits & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    return low, (bits >> np.uint64(32)).astype(np.uint32)


def field(inst, *names, default=0):
    """The first of ``names`` present in the instruction's fields."""
    fields = inst.fields
    for name in names:
        if name in fields:
            return fields[name]
    return default


def source_modifier(type_, use_abs, use_neg):
    """Apply VOP3/DPP/SDWA abs and neg to raw float bits (exact, NaN-safe)."""
    width = FLOAT_TYPES.get(type_)
    if width is None or not (use_abs or use_neg):
        return None
    dtype = np.uint64 if width == 64 else np.uint32
    sign = dtype(SIGN_BIT[width])
    keep = dtype(~SIGN_BIT[width] & ((1 << (64 if width == 64 else 32)) - 1))

    def modify(bits):
        bits = np.asarray(bits, dtype=dtype)
        if use_abs:
            bits = bits & keep
        if use_neg:
            bits = bits ^ sign
        return bits
    return modify

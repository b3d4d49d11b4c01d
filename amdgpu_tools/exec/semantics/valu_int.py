"""Vector ALU integer and bit semantics (VOP1/VOP2/VOP3, 16/32/64-bit).

Sources arrive viewed as their declared type; shift amounts use only their
low bits as the ISA manual specifies (``& 31`` for 32-bit, ``& 15`` for
16-bit, ``& 63`` for 64-bit results).
"""

from __future__ import annotations

import numpy as np

from ..core.registry import row_source_types, valu
from .salu import (bitfield_extract, find_first_one_high, first_opposite_of_sign,
                   lowest_bit_index, popcount_32, popcount_64, reverse_bits_32)

U16, U32, U64 = np.uint16, np.uint32, np.uint64
I32, I64 = np.int32, np.int64


def u32(x):
    return np.asarray(x, dtype=U32)


def u64(x):
    return np.asarray(x, dtype=U64)


def s32(x):
    return np.asarray(x).astype(U32).view(I32) if np.asarray(x).dtype != I32 else np.asarray(x)


# ------------------------------------------------------------------ moves
@valu("v_mov_b32", "b32")
def v_mov_b32(a):
    return a


@valu("v_not_b32", "b32")
def v_not_b32(a):
    return ~u32(a)


@valu("v_bfrev_b32", "b32")
def v_bfrev_b32(a):
    return reverse_bits_32(u32(a))


@valu("v_cndmask_b32", "b32", "b32", "b32", carry_in=True, sign_modifiers=True)
def v_cndmask_b32(a, b, condition):
    """A bit-exact select; VOP3/DPP/SDWA abs/neg still act on bit 31 (see
    ``formats.modifier_type``), which is how compilers select -x or |x|."""
    return np.where(condition, b, a)


# ------------------------------------------------------------ add and sub
@valu("v_add_u32", "u32", int_clamp="u32")
def v_add_u32(a, b):
    return a.astype(I64) + b


@valu("v_sub_u32", "u32", int_clamp="u32")
def v_sub_u32(a, b):
    return a.astype(I64) - b


@valu("v_subrev_u32", "u32", int_clamp="u32")
def v_subrev_u32(a, b):
    return b.astype(I64) - a


# The carry forms compute the exact (64-bit) result: the carry/borrow is read
# from it, and the VOP3b clamp bit (GFX8+) saturates it to [0, 2**32 - 1]
# instead of letting it wrap, as the ISA manual's integer clamp defines.
@valu("v_add_co_u32", "u32", carry_out=True, int_clamp="u32")
def v_add_co_u32(a, b):
    total = a.astype(I64) + b
    return total, total > 0xFFFFFFFF


@valu("v_sub_co_u32", "u32", carry_out=True, int_clamp="u32")
def v_sub_co_u32(a, b):
    difference = a.astype(I64) - b
    return difference, difference < 0


@valu("v_subrev_co_u32", "u32", carry_out=True, int_clamp="u32")
def v_subrev_co_u32(a, b):
    difference = b.astype(I64) - a
    return difference, difference < 0


@valu("v_addc_co_u32", "u32", carry_in=True, carry_out=True, int_clamp="u32")
def v_addc_co_u32(a, b, carry):
    total = a.astype(I64) + b + carry
    return total, total > 0xFFFFFFFF


@valu("v_subb_co_u32", "u32", carry_in=True, carry_out=True, int_clamp="u32")
def v_subb_co_u32(a, b, borrow):
    difference = a.astype(I64) - b - borrow
    return difference, difference < 0


@valu("v_subbrev_co_u32", "u32", carry_in=True, carry_out=True, int_clamp="u32")
def v_subbrev_co_u32(a, b, borrow):
    difference = b.astype(I64) - a - borrow
    return difference, difference < 0


@valu("v_add3_u32", "u32")
def v_add3_u32(a, b, c):
    return u32(a) + u32(b) + u32(c)


@valu("v_xad_u32", "u32")
def v_xad_u32(a, b, c):
    return (u32(a) ^ u32(b)) + u32(c)


@valu("v_lshl_add_u32", "u32")
def v_lshl_add_u32(a, b, c):
    return (u32(a) << (u32(b) & U32(31))) + u32(c)


@valu("v_add_lshl_u32", "u32")
def v_add_lshl_u32(a, b, c):
    return (u32(a) + u32(b)) << (u32(c) & U32(31))


@valu("v_lshl_or_b32", "b32")
def v_lshl_or_b32(a, b, c):
    return (u32(a) << (u32(b) & U32(31))) | u32(c)


@valu("v_and_or_b32", "b32")
def v_and_or_b32(a, b, c):
    return (u32(a) & u32(b)) | u32(c)


@valu("v_or3_b32", "b32")
def v_or3_b32(a, b, c):
    return u32(a) | u32(b) | u32(c)


# ------------------------------------------------------------------ logic
@valu("v_and_b32", "b32")
def v_and_b32(a, b):
    return u32(a) & u32(b)


@valu("v_or_b32", "b32")
def v_or_b32(a, b):
    return u32(a) | u32(b)


@valu("v_xor_b32", "b32")
def v_xor_b32(a, b):
    return u32(a) ^ u32(b)


@valu("v_xnor_b32", "b32")
def v_xnor_b32(a, b):
    return ~(u32(a) ^ u32(b))


@valu("v_lshlrev_b32", "b32")
def v_lshlrev_b32(a, b):
    return u32(b) << (u32(a) & U32(31))


@valu("v_lshrrev_b32", "b32")
def v_lshrrev_b32(a, b):
    return u32(b) >> (u32(a) & U32(31))


@valu("v_ashrrev_i32", "i32", "u32", "i32")
def v_ashrrev_i32(a, b):
    return b >> (u32(a) & U32(31)).astype(I32)


@valu("v_lshl_b32", "b32")
def v_lshl_b32(a, b):
    return u32(a) << (u32(b) & U32(31))


@valu("v_lshr_b32", "b32")
def v_lshr_b32(a, b):
    return u32(a) >> (u32(b) & U32(31))


@valu("v_ashr_i32", "i32", "i32", "u32")
def v_ashr_i32(a, b):
    return a >> (u32(b) & U32(31)).astype(I32)


@valu("v_lshlrev_b64", "b64")
def v_lshlrev_b64(a, b):
    return u64(b) << (u32(a) & U32(63)).astype(U64)


@valu("v_lshrrev_b64", "b64")
def v_lshrrev_b64(a, b):
    return u64(b) >> (u32(a) & U32(63)).astype(U64)


@valu("v_ashrrev_i64", "i64", "u32", "i64")
def v_ashrrev_i64(a, b):
    return b >> (u32(a) & U32(63)).astype(I64)


@valu("v_bfm_b32", "b32")
def v_bfm_b32(a, b):
    return (((U64(1) << (u64(a) & U64(31))) - U64(1)) << (u64(b) & U64(31))).astype(U32)


@valu("v_bfe_u32", "u32")
def v_bfe_u32(a, b, c):
    return _bfe(a, b, c, signed=False)


@valu("v_bfe_i32", "i32")
def v_bfe_i32(a, b, c):
    return _bfe(a, b, c, signed=True)


def _bfe(value, offset, width, signed):
    """v_bfe: offset = src1[4:0], width = src2[4:0] (a width of 0 gives 0)."""
    control = (u32(offset) & U32(31)).astype(U64) | ((u32(width) & U32(31)).astype(U64) << U64(16))
    return bitfield_extract(u32(value), control, 32, signed).astype(U32)


@valu("v_bfi_b32", "b32")
def v_bfi_b32(mask, a, b):
    return (u32(mask) & u32(a)) | (~u32(mask) & u32(b))


@valu("v_alignbit_b32", "b32")
def v_alignbit_b32(a, b, c):
    joined = (u64(a) << U64(32)) | u64(b)
    return (joined >> (u32(c) & U32(31)).astype(U64)).astype(U32)


@valu("v_alignbyte_b32", "b32")
def v_alignbyte_b32(a, b, c):
    joined = (u64(a) << U64(32)) | u64(b)
    return (joined >> ((u32(c) & U32(3)) * U32(8)).astype(U64)).astype(U32)


def _sign_byte(pool, byte):
    """0xFF where byte ``byte`` of the permute's pool is negative, else 0."""
    return np.where(((pool >> U64(8 * byte + 7)) & U64(1)) != 0, U32(0xFF), U32(0))


def _permuted_byte(pool, select):
    """The byte one selector byte picks: 0-7 a byte of the pool, 8-11 the
    sign of byte 1, 3, 5 or 7 spread, 12 zero, 13 and up 0xFF."""
    picked = ((pool >> (np.minimum(select, U32(7)).astype(U64) * U64(8))) & U64(0xFF)).astype(U32)
    value = np.where(select < 8, picked, U32(0))
    value = np.where(select == 8, _sign_byte(pool, 1), value)
    value = np.where(select == 9, _sign_byte(pool, 3), value)
    value = np.where(select == 10, _sign_byte(pool, 5), value)
    value = np.where(select == 11, _sign_byte(pool, 7), value)
    return np.where(select >= 13, U32(0xFF), value)


@valu("v_perm_b32", "b32")
def v_perm_b32(a, b, selector):
    """Each selector byte picks a byte of {a, b} (b = bytes 0-3) or a constant."""
    pool = (u64(a) << U64(32)) | u64(b)
    selector = u32(selector)
    low = _permuted_byte(pool, selector & U32(0xFF)) | \
        (_permuted_byte(pool, (selector >> U32(8)) & U32(0xFF)) << U32(8))
    high = _permuted_byte(pool, (selector >> U32(16)) & U32(0xFF)) | \
        (_permuted_byte(pool, selector >> U32(24)) << U32(8))
    return (low | (high << U32(16))).astype(U32)


@valu("v_bcnt_u32_b32", "u32")
def v_bcnt_u32_b32(a, b):
    return (popcount_32(u32(a)) + u32(b)).astype(U32)


@valu("v_ffbh_u32", "u32")
def v_ffbh_u32(a):
    return find_first_one_high(u32(a), 32)


@valu("v_ffbl_b32", "u32")
def v_ffbl_b32(a):
    return lowest_bit_index(u32(a))


@valu("v_ffbh_i32", "u32", "i32")
def v_ffbh_i32(a):
    """s_flbit_i32's count (int32 or uint32 sources alike)."""
    return first_opposite_of_sign(np.asarray(a).astype(I64).astype(U32), 32)


@valu("v_mbcnt_lo_u32_b32", "u32", lane_fn=True)
def v_mbcnt_lo_u32_b32(mask, addend, lane):
    """The set bits of the mask below this lane (``lane``: each lane's
    number; lanes 32-63 count all 32), plus the addend."""
    below = np.where(lane >= U64(32), U64(0xFFFFFFFF), (U64(1) << (lane & U64(31))) - U64(1))
    return (popcount_64(u64(mask) & below) + u32(addend)).astype(U32)


@valu("v_mbcnt_hi_u32_b32", "u32", lane_fn=True)
def v_mbcnt_hi_u32_b32(mask, addend, lane):
    """The set bits of the mask below this lane's place among lanes 32-63
    (lanes 0-31 count none), plus the addend."""
    below = np.where(lane < U64(32), U64(0), (U64(1) << (lane & U64(31))) - U64(1))
    return (popcount_64(u64(mask) & below) + u32(addend)).astype(U32)


# -------------------------------------------------------------- min / max
def _register_minmax(name, combine, view):
    """Register ``combine`` on the sources (two or three) as the row types them,
    or as ``view`` where the row cannot say (signed 32-bit, unsigned 16-bit:
    the row types i32/u32 'b32' and i16/u16 'i16'); the result has that type."""
    types = row_source_types(name)
    result = view or types[0]
    explicit = (view,) * len(types) if view else ()
    valu(name, result, *explicit)(combine)


def _minmax(name, pick, view=None):
    _register_minmax(name, lambda a, b: pick(a, b), view)


def _three(name, combine, view=None):
    _register_minmax(name, lambda a, b, c: combine(a, b, c), view)


def min3(a, b, c):
    return np.minimum(np.minimum(a, b), c)


def max3(a, b, c):
    return np.maximum(np.maximum(a, b), c)


def median3(a, b, c):
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


_minmax("v_min_i32", np.minimum, view="i32")
_minmax("v_max_i32", np.maximum, view="i32")
_minmax("v_min_u32", np.minimum)
_minmax("v_max_u32", np.maximum)
_minmax("v_min_i16", np.minimum)
_minmax("v_max_i16", np.maximum)
_minmax("v_min_u16", np.minimum, view="u16")
_minmax("v_max_u16", np.maximum, view="u16")
_three("v_min3_i32", min3, view="i32")
_three("v_max3_i32", max3, view="i32")
_three("v_med3_i32", median3, view="i32")
_three("v_min3_u32", min3)
_three("v_max3_u32", max3)
_three("v_med3_u32", median3)
_three("v_min3_i16", min3)
_three("v_max3_i16", max3)
_three("v_med3_i16", median3)
_three("v_min3_u16", min3, view="u16")
_three("v_max3_u16", max3, view="u16")
_three("v_med3_u16", median3, view="u16")


# ---------------------------------------------------------------- multiply
@valu("v_mul_lo_u32", "u32")
def v_mul_lo_u32(a, b):
    return u32(a) * u32(b)


@valu("v_mul_hi_u32", "u32")
def v_mul_hi_u32(a, b):
    return ((u64(a) * u64(b)) >> U64(32)).astype(U32)


@valu("v_mul_lo_i32", "i32", "i32", "i32")
def v_mul_lo_i32(a, b):
    return (a.astype(I64) * b.astype(I64)).astype(I32)


@valu("v_mul_hi_i32", "i32", "i32", "i32")
def v_mul_hi_i32(a, b):
    return ((a.astype(I64) * b.astype(I64)) >> 32).astype(I32)


def u24(x):
    return (u32(x) & U32(0xFFFFFF)).astype(U64)


def i24(x):
    """The low 24 bits of x (int32 or uint32 alike) as a signed number."""
    value = np.asarray(x).astype(I64) & I64(0xFFFFFF)
    return (value ^ I64(0x800000)) - I64(0x800000)


@valu("v_mul_u32_u24", "u32")
def v_mul_u32_u24(a, b):
    return (u24(a) * u24(b)).astype(U32)


@valu("v_mul_hi_u32_u24", "u32")
def v_mul_hi_u32_u24(a, b):
    return ((u24(a) * u24(b)) >> U64(32)).astype(U32)


@valu("v_mul_i32_i24", "i32")
def v_mul_i32_i24(a, b):
    return (i24(a) * i24(b)).astype(I32)


@valu("v_mul_hi_i32_i24", "i32")
def v_mul_hi_i32_i24(a, b):
    return ((i24(a) * i24(b)) >> 32).astype(I32)


@valu("v_mad_u32_u24", "u32")
def v_mad_u32_u24(a, b, c):
    return (u24(a) * u24(b) + u64(c)).astype(U32)


@valu("v_mad_i32_i24", "i32", "u32", "u32", "i32")
def v_mad_i32_i24(a, b, c):
    return (i24(a) * i24(b) + c.astype(I64)).astype(I32)


@valu("v_mad_u64_u32", "u64", carry_out=True)
def v_mad_u64_u32(a, b, c):
    product = u64(a) * u64(b)
    total = product + u64(c)
    return total, total < product


@valu("v_mad_i64_i32", "i64", "i32", "i32", "i64", carry_out=True)
def v_mad_i64_i32(a, b, c):
    product = a.astype(I64) * b.astype(I64)
    total = product + c
    overflow = ((product ^ total) & (c ^ total)) < 0
    return total, overflow


@valu("v_mad_u32_u16", "u32", "u32", "u32", "u32")
def v_mad_u32_u16(a, b, c):
    return (u32(a) & U32(0xFFFF)) * (u32(b) & U32(0xFFFF)) + u32(c)


@valu("v_mad_i32_i16", "i32", "u32", "u32", "i32")
def v_mad_i32_i16(a, b, c):
    low = lambda x: u32(x).astype(U16).view(np.int16).astype(I32)
    return low(a) * low(b) + c


# ------------------------------------------------------------- 16-bit ints
@valu("v_add_u16", "u16", "u16", "u16", int_clamp="u16")
def v_add_u16(a, b):
    return a.astype(I32) + b


@valu("v_sub_u16", "u16", "u16", "u16", int_clamp="u16")
def v_sub_u16(a, b):
    return a.astype(I32) - b


@valu("v_subrev_u16", "u16", "u16", "u16", int_clamp="u16")
def v_subrev_u16(a, b):
    return b.astype(I32) - a


@valu("v_mul_lo_u16", "u16", "u16", "u16")
def v_mul_lo_u16(a, b):
    return a * b


@valu("v_add_i16", "i16", int_clamp="i16")
def v_add_i16(a, b):
    return a.astype(I32) + b


@valu("v_sub_i16", "i16", int_clamp="i16")
def v_sub_i16(a, b):
    return a.astype(I32) - b


@valu("v_lshlrev_b16", "u16", "u16", "u16")
def v_lshlrev_b16(a, b):
    return b << (a & U16(15))


@valu("v_lshrrev_b16", "u16", "u16", "u16")
def v_lshrrev_b16(a, b):
    return b >> (a & U16(15))


@valu("v_ashrrev_i16", "i16", "u16", "i16")
def v_ashrrev_i16(a, b):
    return b >> (a & U16(15)).astype(np.int16)


@valu("v_mad_u16", "u16", "u16", "u16", "u16")
def v_mad_u16(a, b, c):
    return a * b + c


@valu("v_mad_i16", "i16")
def v_mad_i16(a, b, c):
    return a * b + c


@valu("v_mad_legacy_u16", "u16", "u16", "u16", "u16")
def v_mad_legacy_u16(a, b, c):
    return a * b + c


@valu("v_mad_legacy_i16", "i16")
def v_mad_legacy_i16(a, b, c):
    return a * b + c


# --------------------------------------------------------------- SAD family
def _bytes(x):
    return [(u32(x) >> U32(8 * i)) & U32(0xFF) for i in range(4)]


def _absdiff(a, b):
    return np.where(a > b, a - b, b - a)


@valu("v_sad_u8", "u32")
def v_sad_u8(a, b, c):
    total = u32(c)
    for x, y in zip(_bytes(a), _bytes(b)):
        total = total + _absdiff(x, y)
    return total


@valu("v_sad_hi_u8", "u32")
def v_sad_hi_u8(a, b, c):
    total = U32(0)
    for x, y in zip(_bytes(a), _bytes(b)):
        total = total + _absdiff(x, y)
    return (total << U32(16)) + u32(c)


@valu("v_sad_u16", "u32")
def v_sad_u16(a, b, c):
    halves = lambda x: ((u32(x) & U32(0xFFFF)), u32(x) >> U32(16))
    (a0, a1), (b0, b1) = halves(a), halves(b)
    return _absdiff(a0, b0) + _absdiff(a1, b1) + u32(c)


@valu("v_sad_u32", "u32")
def v_sad_u32(a, b, c):
    return _absdiff(u32(a), u32(b)) + u32(c)


@valu("v_msad_u8", "u32")
def v_msad_u8(a, b, c):
    """Masked SAD: reference bytes of 0 do not count."""
    total = u32(c)
    for x, y in zip(_bytes(a), _bytes(b)):
        total = total + np.where(y == 0, U32(0), _absdiff(x, y))
    return total


@valu("v_lerp_u8", "u32")
def v_lerp_u8(a, b, c):
    """Per byte: (a + b + (c & 1)) >> 1."""
    result = U32(0)
    for i, (x, y, z) in enumerate(zip(_bytes(a), _bytes(b), _bytes(c))):
        result = result | (((x + y + (z & U32(1))) >> U32(1)) << U32(8 * i))
    return result


@valu("v_cvt_pk_u16_u32", "b32")
def v_cvt_pk_u16_u32(a, b):
    return (u32(a) & U32(0xFFFF)) | (u32(b) << U32(16))


@valu("v_cvt_pk_i16_i32", "b32", "i32", "i32")
def v_cvt_pk_i16_i32(a, b):
    clip = lambda x: np.clip(x, -32768, 32767).astype(np.int16).view(U16).astype(U32)
    return clip(a) | (clip(b) << U32(16))


@valu("v_sat_pk_u8_i16", "b32")
def v_sat_pk_u8_i16(a):
    low = u32(a).astype(U16).view(np.int16)
    high = (u32(a) >> U32(16)).astype(U16).view(np.int16)
    sat = lambda x: np.clip(x, 0, 255).astype(U32)
    return sat(low) | (sat(high) << U32(8))


@valu("v_add_i32", "i32", "i32", "i32", int_clamp="i32")
def v_add_i32(a, b):
    return a.astype(np.int64) + b


@valu("v_sub_i32", "i32", "i32", "i32", int_clamp="i32")
def v_sub_i32(a, b):
    return a.astype(np.int64) - b


def sad_bytes(pattern, reference_pair, shift, masked=False):
    """SAD of the pattern's 4 bytes against reference bytes [shift, shift + 4)
    of the 64-bit reference, skipping pattern bytes that are 0 when
    ``masked`` (the "masked" SAD of v_mqsad/v_mqsad_u32)."""
    total = U64(0) * u64(pattern) * u64(reference_pair)     # (the broadcast shape, or a scalar)
    for i in range(4):
        x = (u64(reference_pair) >> U64(8 * (i + shift))) & U64(0xFF)
        y = (u64(pattern) >> U64(8 * i)) & U64(0xFF)
        difference = np.where(x > y, x - y, y - x)
        total = total + (np.where(y == 0, U64(0), difference) if masked else difference)
    return total


def _quad_sads(reference, pattern, accumulate, masked):
    """Four 16-bit SAD accumulators, one per byte offset of the reference."""
    result = U64(0) * u64(accumulate)
    for shift in range(4):
        part = (sad_bytes(pattern, reference, shift, masked) +
                ((u64(accumulate) >> U64(16 * shift)) & U64(0xFFFF))) & U64(0xFFFF)
        result = result | (part << U64(16 * shift))
    return result


@valu("v_qsad_pk_u16_u8", "u64")
def v_qsad_pk_u16_u8(reference, pattern, accumulate):
    return _quad_sads(reference, pattern, accumulate, False)


@valu("v_mqsad_pk_u16_u8", "u64")
def v_mqsad_pk_u16_u8(reference, pattern, accumulate):
    return _quad_sads(reference, pattern, accumulate, True)


# GFX6/GFX7 spell the 64-bit shifts with the shift amount second.
@valu("v_lshl_b64", "b64", "b64", "u32")
def v_lshl_b64(a, b):
    return u64(a) << (u32(b) & U32(63)).astype(U64)


@valu("v_lshr_b64", "b64", "b64", "u32")
def v_lshr_b64(a, b):
    return u64(a) >> (u32(b) & U32(63)).astype(U64)


@valu("v_ashr_i64", "i64", "i64", "u32")
def v_ashr_i64(a, b):
    return a >> (u32(b) & U32(63)).astype(I64)

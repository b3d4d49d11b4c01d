"""Scalar ALU semantics (SOP1, SOP2, SOPK, SOPC): one short function per op.

Sources arrive as uint32 (32-bit ops) or uint64 (64-bit ops) arrays of shape
(n,) or NumPy scalars; results wrap modulo 2**32 / 2**64 as on hardware.
"""

from __future__ import annotations

import numpy as np

from ..core.registry import salu

U32 = np.uint32
U64 = np.uint64
_M32 = 0xFFFFFFFF
_M64 = 0xFFFF_FFFF_FFFF_FFFF


def i32(x):
    return np.asarray(x, dtype=np.uint32).view(np.int32)


def i64(x):
    return np.asarray(x, dtype=np.uint64).view(np.int64)


def nonzero(x):
    return np.asarray(x) != 0


def sext16(imm):
    """SOPK's 16-bit immediate, sign-extended to 32 bits."""
    imm = np.asarray(imm, dtype=np.uint32) & U32(0xFFFF)
    return ((imm ^ U32(0x8000)) - U32(0x8000)).astype(np.uint32)


# ------------------------------------------------------------- arithmetic
@salu("s_add_u32", "u32", "u32", "u32", scc_out=True)
def s_add_u32(a, b):
    wide = np.asarray(a, U64) + np.asarray(b, U64)
    return wide.astype(U32), wide > U64(_M32)


@salu("s_sub_u32", "u32", "u32", "u32", scc_out=True)
def s_sub_u32(a, b):
    return (np.asarray(a, U32) - np.asarray(b, U32)), np.asarray(b, U32) > np.asarray(a, U32)


@salu("s_addc_u32", "u32", "u32", "u32", scc_in=True, scc_out=True)
def s_addc_u32(a, b, scc):
    wide = np.asarray(a, U64) + np.asarray(b, U64) + np.asarray(scc, U64)
    return wide.astype(U32), wide > U64(_M32)


@salu("s_subb_u32", "u32", "u32", "u32", scc_in=True, scc_out=True)
def s_subb_u32(a, b, scc):
    borrow = np.asarray(b, np.int64) + np.asarray(scc, np.int64)
    return (np.asarray(a, np.int64) - borrow).astype(U32), borrow > np.asarray(a, np.int64)


def _signed_overflow(a, b, result):
    """SCC of s_add_i32: both operands share a sign the result lacks."""
    return ((~(a ^ b)) & (a ^ result)) < 0


def _wrapped_i32(value):
    """A sum or difference of two int32 values wrapped to 32 bits (the
    explicit cast keeps it so where the values are scalars, whose arithmetic
    Numba widens: compiled blocks' scalar forms)."""
    return np.asarray(value, np.int32)


@salu("s_add_i32", "i32", "i32", "i32", scc_out=True)
def s_add_i32(a, b):
    a, b = i32(a), i32(b)
    result = _wrapped_i32(a + b)
    return result, _signed_overflow(a, b, result)


@salu("s_sub_i32", "i32", "i32", "i32", scc_out=True)
def s_sub_i32(a, b):
    a, b = i32(a), i32(b)
    result = _wrapped_i32(a - b)
    return result, ((a ^ b) & (a ^ result)) < 0


@salu("s_mul_i32", "i32", "i32", "i32")
def s_mul_i32(a, b):
    return np.asarray(a, U32) * np.asarray(b, U32)


@salu("s_mul_hi_u32", "u32", "u32", "u32")
def s_mul_hi_u32(a, b):
    return ((np.asarray(a, U64) * np.asarray(b, U64)) >> U64(32)).astype(U32)


@salu("s_mul_hi_i32", "i32", "i32", "i32")
def s_mul_hi_i32(a, b):
    return ((i32(a).astype(np.int64) * i32(b).astype(np.int64)) >> 32).astype(U32)


@salu("s_absdiff_i32", "u32", "i32", "i32", scc_out=True)
def s_absdiff_i32(a, b):
    """(The difference wraps to 32 bits first, as the ISA's D.i = S0 - S1;
    asarray keeps a scalar form's widened difference from escaping.)"""
    result = np.abs(np.asarray(i32(a) - i32(b), np.int32)).astype(U32)
    return result, result != 0


@salu("s_abs_i32", "u32", "i32", scc_out=True)
def s_abs_i32(a):
    result = np.abs(i32(a)).astype(U32)
    return result, result != 0


def _min_max(name, pick, signed):
    view = i32 if signed else (lambda x: np.asarray(x, U32))

    @salu(name, "u32", "u32", "u32", scc_out=True)
    def fn(a, b):
        a, b = view(a), view(b)
        chosen = pick(a, b)
        return np.where(chosen, a, b), chosen
    fn.__name__ = name
    return fn


for _name, _pick, _signed in (("s_min_i32", np.less, True), ("s_min_u32", np.less, False),
                              ("s_max_i32", np.greater, True), ("s_max_u32", np.greater, False)):
    _min_max(_name, _pick, _signed)


@salu("s_lshl1_add_u32", "u32", "u32", "u32", scc_out=True)
def s_lshl1_add_u32(a, b):
    return _shift_add(a, b, 1)


@salu("s_lshl2_add_u32", "u32", "u32", "u32", scc_out=True)
def s_lshl2_add_u32(a, b):
    return _shift_add(a, b, 2)


@salu("s_lshl3_add_u32", "u32", "u32", "u32", scc_out=True)
def s_lshl3_add_u32(a, b):
    return _shift_add(a, b, 3)


@salu("s_lshl4_add_u32", "u32", "u32", "u32", scc_out=True)
def s_lshl4_add_u32(a, b):
    return _shift_add(a, b, 4)


def _shift_add(a, b, shift):
    """GFX9 s_lshlN_add_u32: SCC is the unsigned overflow of the whole sum."""
    wide = (np.asarray(a, U64) << U64(shift)) + np.asarray(b, U64)
    return wide.astype(U32), wide > U64(_M32)


# ------------------------------------------------------------------ bits
def _logic(name, width, op):
    """A bitwise op on ``width``-bit sources; SCC: the result is not 0."""
    kind, dtype = ("b64", U64) if width == 64 else ("b32", U32)

    @salu(name, kind, kind, kind, scc_out=True)
    def fn(a, b):
        # (the outer asarray: a no-op on arrays; it narrows a scalar form's
        # widened complement, ~(a & b), before SCC tests it)
        result = np.asarray(op(np.asarray(a, dtype), np.asarray(b, dtype)), dtype)
        return result, nonzero(result)
    fn.__name__ = name


def _and(a, b):
    return a & b


def _or(a, b):
    return a | b


def _xor(a, b):
    return a ^ b


def _andn2(a, b):
    return a & ~b


def _orn2(a, b):
    return a | ~b


def _nand(a, b):
    return ~(a & b)


def _nor(a, b):
    return ~(a | b)


def _xnor(a, b):
    return ~(a ^ b)


_logic("s_and_b32", 32, _and)
_logic("s_and_b64", 64, _and)
_logic("s_or_b32", 32, _or)
_logic("s_or_b64", 64, _or)
_logic("s_xor_b32", 32, _xor)
_logic("s_xor_b64", 64, _xor)
_logic("s_andn2_b32", 32, _andn2)
_logic("s_andn2_b64", 64, _andn2)
_logic("s_orn2_b32", 32, _orn2)
_logic("s_orn2_b64", 64, _orn2)
_logic("s_nand_b32", 32, _nand)
_logic("s_nand_b64", 64, _nand)
_logic("s_nor_b32", 32, _nor)
_logic("s_nor_b64", 64, _nor)
_logic("s_xnor_b32", 32, _xnor)
_logic("s_xnor_b64", 64, _xnor)


@salu("s_lshl_b32", "b32", "b32", "u32", scc_out=True)
def s_lshl_b32(a, b):
    # (asarray: a no-op on the uint32 array; it wraps a scalar form's widened shift)
    result = np.asarray(np.asarray(a, U32) << (np.asarray(b, U32) & U32(31)), U32)
    return result, nonzero(result)


@salu("s_lshr_b32", "b32", "b32", "u32", scc_out=True)
def s_lshr_b32(a, b):
    result = np.asarray(a, U32) >> (np.asarray(b, U32) & U32(31))
    return result, nonzero(result)


@salu("s_ashr_i32", "i32", "i32", "u32", scc_out=True)
def s_ashr_i32(a, b):
    result = i32(a) >> (np.asarray(b, U32) & U32(31)).astype(np.int32)
    return result, nonzero(result)


@salu("s_lshl_b64", "b64", "b64", "u32", scc_out=True)
def s_lshl_b64(a, b):
    result = np.asarray(a, U64) << (np.asarray(b, U64) & U64(63))
    return result, nonzero(result)


@salu("s_lshr_b64", "b64", "b64", "u32", scc_out=True)
def s_lshr_b64(a, b):
    result = np.asarray(a, U64) >> (np.asarray(b, U64) & U64(63))
    return result, nonzero(result)


@salu("s_ashr_i64", "i64", "i64", "u32", scc_out=True)
def s_ashr_i64(a, b):
    result = i64(a) >> (np.asarray(b, U64) & U64(63)).astype(np.int64)
    return result, nonzero(result)


@salu("s_bfm_b32", "b32", "u32", "u32")
def s_bfm_b32(a, b):
    width = np.asarray(a, U64) & U64(31)
    return (((U64(1) << width) - U64(1)) << (np.asarray(b, U64) & U64(31))).astype(U32)


@salu("s_bfm_b64", "b64", "u32", "u32")
def s_bfm_b64(a, b):
    width = np.asarray(a, U64) & U64(63)
    mask = np.where(width == 0, U64(0), (U64(1) << width) - U64(1))
    return mask << (np.asarray(b, U64) & U64(63))


def bitfield_extract(value, control, bits, signed):
    """s_bfe: offset = control[5:0] (or [4:0]), width = control[22:16]; the
    field as uint64 whatever ``bits`` (a 32-bit op keeps its low half: one
    type for arrays and scalars alike in compiled code).

    A signed 32-bit source is sign-extended first, so that a field reaching
    past bit 31 reads copies of the sign bit (the manual's arithmetic shift).
    """
    if signed and bits == 32:
        wide = np.asarray(value).astype(U32).view(np.int32).astype(np.int64).view(U64)
    else:
        wide = np.asarray(value, U64)
    control = np.asarray(control, U64)
    offset = control & U64(bits - 1)
    width = np.minimum((control >> U64(16)) & U64(0x7F), U64(bits))
    mask = np.where(width >= U64(64), U64(0xFFFF_FFFF_FFFF_FFFF),
                    (U64(1) << np.minimum(width, U64(63))) - U64(1))
    field_ = (wide >> offset) & mask
    if signed:
        sign = U64(1) << np.maximum(width, U64(1)) - U64(1)
        extended = ((field_ ^ sign) - sign)
        field_ = np.where(width == 0, U64(0), extended)
    return field_


@salu("s_bfe_u32", "u32", "u32", "u32", scc_out=True)
def s_bfe_u32(a, b):
    result = bitfield_extract(a, b, 32, False).astype(U32)
    return result, nonzero(result)


@salu("s_bfe_i32", "i32", "u32", "u32", scc_out=True)
def s_bfe_i32(a, b):
    result = bitfield_extract(a, b, 32, True).astype(U32)
    return result, nonzero(result)


@salu("s_bfe_u64", "u64", "u64", "u32", scc_out=True)
def s_bfe_u64(a, b):
    result = bitfield_extract(a, b, 64, False)
    return result, nonzero(result)


@salu("s_bfe_i64", "i64", "u64", "u32", scc_out=True)
def s_bfe_i64(a, b):
    result = bitfield_extract(a, b, 64, True)
    return result, nonzero(result)


@salu("s_pack_ll_b32_b16", "b32", "b32", "b32")
def s_pack_ll_b32_b16(a, b):
    return (np.asarray(a, U32) & U32(0xFFFF)) | (np.asarray(b, U32) << U32(16))


@salu("s_pack_lh_b32_b16", "b32", "b32", "b32")
def s_pack_lh_b32_b16(a, b):
    return (np.asarray(a, U32) & U32(0xFFFF)) | (np.asarray(b, U32) & U32(0xFFFF0000))


@salu("s_pack_hh_b32_b16", "b32", "b32", "b32")
def s_pack_hh_b32_b16(a, b):
    return (np.asarray(a, U32) >> U32(16)) | (np.asarray(b, U32) & U32(0xFFFF0000))


# ---------------------------------------------------------------- select
@salu("s_cselect_b32", "b32", "b32", "b32", scc_in=True)
def s_cselect_b32(a, b, scc):
    return np.where(scc, a, b)


@salu("s_cselect_b64", "b64", "b64", "b64", scc_in=True)
def s_cselect_b64(a, b, scc):
    return np.where(scc, a, b)


# ------------------------------------------------------------------ SOP1
@salu("s_mov_b32", "b32", "b32")
def s_mov_b32(a):
    return a


@salu("s_mov_b64", "b64", "b64")
def s_mov_b64(a):
    return a


@salu("s_not_b32", "b32", "b32", scc_out=True)
def s_not_b32(a):
    result = ~np.asarray(a, U32)
    return result, nonzero(result)


@salu("s_not_b64", "b64", "b64", scc_out=True)
def s_not_b64(a):
    result = ~np.asarray(a, U64)
    return result, nonzero(result)


def _whole_quad(value, width):
    """s_wqm: every 4-bit group becomes all ones if any of its bits is set."""
    value = np.asarray(value, U64)
    result = np.zeros_like(value)
    for quad in range(0, width, 4):
        any_set = (value >> U64(quad)) & U64(15)
        result |= np.where(any_set != 0, U64(15 << quad), U64(0))
    return result


@salu("s_wqm_b32", "b32", "b32", scc_out=True)
def s_wqm_b32(a):
    result = _whole_quad(a, 32).astype(U32)
    return result, nonzero(result)


@salu("s_wqm_b64", "b64", "b64", scc_out=True)
def s_wqm_b64(a):
    result = _whole_quad(a, 64)
    return result, nonzero(result)


def _quadmask(value, width):
    value = np.asarray(value, U64)
    result = np.zeros_like(value)
    for quad in range(width // 4):
        any_set = ((value >> U64(4 * quad)) & U64(15)) != 0
        result |= any_set.astype(U64) << U64(quad)
    return result


@salu("s_quadmask_b32", "b32", "b32", scc_out=True)
def s_quadmask_b32(a):
    result = _quadmask(a, 32).astype(U32)
    return result, nonzero(result)


@salu("s_quadmask_b64", "b64", "b64", scc_out=True)
def s_quadmask_b64(a):
    result = _quadmask(a, 64)
    return result, nonzero(result)


def reverse_bits_32(value):
    """The 32 bits of each value in reverse order, by halves swapped in turn
    (pairs, nibbles, bytes, half-words): arithmetic of any shape, arrays or
    one lane's scalar alike (each step's result fits in 32 bits, but the last
    shift, masked for a scalar Numba widens)."""
    x = np.asarray(value, U32)
    x = ((x >> U32(1)) & U32(0x55555555)) | ((x & U32(0x55555555)) << U32(1))
    x = ((x >> U32(2)) & U32(0x33333333)) | ((x & U32(0x33333333)) << U32(2))
    x = ((x >> U32(4)) & U32(0x0F0F0F0F)) | ((x & U32(0x0F0F0F0F)) << U32(4))
    x = ((x >> U32(8)) & U32(0x00FF00FF)) | ((x & U32(0x00FF00FF)) << U32(8))
    return ((x >> U32(16)) | ((x << U32(16)) & U32(0xFFFFFFFF))).astype(U32)


def reverse_bits_64(value):
    """The 64 bits of each value in reverse order (``reverse_bits_32``'s halves)."""
    x = np.asarray(value, U64)
    low = reverse_bits_32((x & U64(0xFFFFFFFF)).astype(U32)).astype(U64)
    high = reverse_bits_32((x >> U64(32)).astype(U32)).astype(U64)
    return (low << U64(32)) | high


@salu("s_brev_b32", "b32", "b32")
def s_brev_b32(a):
    return reverse_bits_32(a)


@salu("s_brev_b64", "b64", "b64")
def s_brev_b64(a):
    return reverse_bits_64(a)


def popcount_32(value):
    """The set bits of each 32-bit value (counted in pairs, nibbles, then
    bytes summed by a multiply: arithmetic of any shape, arrays or one
    lane's scalar alike; the product masked, for a scalar Numba widens)."""
    x = np.asarray(value, U32)
    x = x - ((x >> U32(1)) & U32(0x55555555))
    x = (x & U32(0x33333333)) + ((x >> U32(2)) & U32(0x33333333))
    x = (x + (x >> U32(4))) & U32(0x0F0F0F0F)
    return (((x * U32(0x01010101)) & U32(0xFFFFFFFF)) >> U32(24)).astype(U32)


def popcount_64(value):
    """The set bits of each 64-bit value (its halves' ``popcount_32``)."""
    x = np.asarray(value, U64)
    return (popcount_32((x & U64(0xFFFFFFFF)).astype(U32)) +
            popcount_32((x >> U64(32)).astype(U32))).astype(U32)


@salu("s_bcnt0_i32_b32", "u32", "b32", scc_out=True)
def s_bcnt0_i32_b32(a):
    result = U32(32) - popcount_32(a)
    return result, nonzero(result)


@salu("s_bcnt0_i32_b64", "u32", "b64", scc_out=True)
def s_bcnt0_i32_b64(a):
    result = U32(64) - popcount_64(a)
    return result, nonzero(result)


@salu("s_bcnt1_i32_b32", "u32", "b32", scc_out=True)
def s_bcnt1_i32_b32(a):
    result = popcount_32(a)
    return result, nonzero(result)


@salu("s_bcnt1_i32_b64", "u32", "b64", scc_out=True)
def s_bcnt1_i32_b64(a):
    result = popcount_64(a)
    return result, nonzero(result)


def find_first_one_high(value, width):
    """Count of leading zeros from the MSB, or -1 when the value is zero (of
    any shape, a lane's scalar too)."""
    value = np.asarray(value, U64)
    return np.where(value == U64(0), -1, (width - 1) - _highest_bit(value)) \
        .astype(np.int32).view(U32)


def _highest_bit(value):
    """The index of the highest set bit of each uint64 (0 for 0), by halving
    the span it lies in: selections and shifts only."""
    highest = (value & U64(0)).astype(np.int64)
    remaining = value
    for shift in (32, 16, 8, 4, 2, 1):
        big = remaining >= (U64(1) << U64(shift))
        highest = highest + np.where(big, shift, 0)
        remaining = np.where(big, remaining >> U64(shift), remaining)
    return highest


def lowest_bit_index(value):
    """The index of the lowest set bit, or -1 when the value is zero."""
    value = np.asarray(value, U64)
    isolated = value & (~value + U64(1))
    return np.where(value == U64(0), -1, _highest_bit(isolated)).astype(np.int32).view(U32)


@salu("s_ff1_i32_b32", "u32", "b32")
def s_ff1_i32_b32(a):
    return lowest_bit_index(np.asarray(a, U64))


@salu("s_ff1_i32_b64", "u32", "b64")
def s_ff1_i32_b64(a):
    return lowest_bit_index(a)


@salu("s_ff0_i32_b32", "u32", "b32")
def s_ff0_i32_b32(a):
    return lowest_bit_index(np.asarray(~np.asarray(a, U32), U64))


@salu("s_ff0_i32_b64", "u32", "b64")
def s_ff0_i32_b64(a):
    return lowest_bit_index(~np.asarray(a, U64))


@salu("s_flbit_i32_b32", "u32", "b32")
def s_flbit_i32_b32(a):
    return find_first_one_high(np.asarray(a, U64), 32)


@salu("s_flbit_i32_b64", "u32", "b64")
def s_flbit_i32_b64(a):
    return find_first_one_high(a, 64)


def first_opposite_of_sign(value, width):
    """s_flbit_i32: leading bits equal to the sign bit, -1 for 0 and all ones."""
    value = np.asarray(value, U64)
    top = U64(1) << U64(width - 1)             # (uint64 shifts: defined for 32 and 64 alike,
    all_ones = U64(_M64) >> U64(64 - width)    # as Python's 1 << 64 is not in compiled code)
    flipped = np.where((value & top) != 0, ~value & all_ones, value)
    result = find_first_one_high(flipped, width)
    return np.where((value == 0) | (value == all_ones), U32(_M32), result)


@salu("s_flbit_i32", "u32", "i32")
def s_flbit_i32(a):
    return first_opposite_of_sign(np.asarray(a, U32).astype(U64), 32)


@salu("s_flbit_i32_i64", "u32", "i64")
def s_flbit_i32_i64(a):
    return first_opposite_of_sign(a, 64)


@salu("s_sext_i32_i8", "i32", "b32")
def s_sext_i32_i8(a):
    return np.asarray(a, U32).astype(np.uint8).view(np.int8).astype(np.int32)


@salu("s_sext_i32_i16", "i32", "b32")
def s_sext_i32_i16(a):
    return np.asarray(a, U32).astype(np.uint16).view(np.int16).astype(np.int32)


@salu("s_cmov_b32", "b32", "b32", scc_in=True, dst_in=True)
def s_cmov_b32(a, scc, old):
    return np.where(scc, a, old)


@salu("s_cmov_b64", "b64", "b64", scc_in=True, dst_in=True)
def s_cmov_b64(a, scc, old):
    return np.where(scc, a, old)


@salu("s_bitset0_b32", "b32", "u32", dst_in=True)
def s_bitset0_b32(a, old):
    return np.asarray(old, U32) & ~(U32(1) << (np.asarray(a, U32) & U32(31)))


@salu("s_bitset1_b32", "b32", "u32", dst_in=True)
def s_bitset1_b32(a, old):
    return np.asarray(old, U32) | (U32(1) << (np.asarray(a, U32) & U32(31)))


@salu("s_bitset0_b64", "b64", "u32", dst_in=True)
def s_bitset0_b64(a, old):
    return np.asarray(old, U64) & ~(U64(1) << (np.asarray(a, U64) & U64(63)))


@salu("s_bitset1_b64", "b64", "u32", dst_in=True)
def s_bitset1_b64(a, old):
    return np.asarray(old, U64) | (U64(1) << (np.asarray(a, U64) & U64(63)))


# ------------------------------------------------------------------ SOPC
def _compare(name, kind, op):
    view = {"i32": i32, "u32": lambda x: np.asarray(x, U32),
            "u64": lambda x: np.asarray(x, U64)}[kind]

    @salu(name, None, kind, kind, scc_out=True)
    def fn(a, b):
        return None, op(view(a), view(b))
    fn.__name__ = name


_compare("s_cmp_eq_i32", "i32", np.equal)
_compare("s_cmp_lg_i32", "i32", np.not_equal)
_compare("s_cmp_gt_i32", "i32", np.greater)
_compare("s_cmp_ge_i32", "i32", np.greater_equal)
_compare("s_cmp_lt_i32", "i32", np.less)
_compare("s_cmp_le_i32", "i32", np.less_equal)
_compare("s_cmp_eq_u32", "u32", np.equal)
_compare("s_cmp_lg_u32", "u32", np.not_equal)
_compare("s_cmp_gt_u32", "u32", np.greater)
_compare("s_cmp_ge_u32", "u32", np.greater_equal)
_compare("s_cmp_lt_u32", "u32", np.less)
_compare("s_cmp_le_u32", "u32", np.less_equal)
_compare("s_cmp_eq_u64", "u64", np.equal)
_compare("s_cmp_lg_u64", "u64", np.not_equal)


@salu("s_bitcmp0_b32", None, "b32", "u32", scc_out=True)
def s_bitcmp0_b32(a, b):
    return None, ((np.asarray(a, U32) >> (np.asarray(b, U32) & U32(31))) & U32(1)) == 0


@salu("s_bitcmp1_b32", None, "b32", "u32", scc_out=True)
def s_bitcmp1_b32(a, b):
    return None, ((np.asarray(a, U32) >> (np.asarray(b, U32) & U32(31))) & U32(1)) == 1


@salu("s_bitcmp0_b64", None, "b64", "u32", scc_out=True)
def s_bitcmp0_b64(a, b):
    return None, ((np.asarray(a, U64) >> (np.asarray(b, U64) & U64(63))) & U64(1)) == 0


@salu("s_bitcmp1_b64", None, "b64", "u32", scc_out=True)
def s_bitcmp1_b64(a, b):
    return None, ((np.asarray(a, U64) >> (np.asarray(b, U64) & U64(63))) & U64(1)) == 1


# ------------------------------------------------------------------ SOPK
@salu("s_movk_i32", "i32", "u32")
def s_movk_i32(imm):
    return sext16(imm)


@salu("s_cmovk_i32", "i32", "b32", "u32", scc_in=True)
def s_cmovk_i32(old, imm, scc):
    return np.where(scc, sext16(imm), np.asarray(old, U32))


@salu("s_addk_i32", "i32", "i32", "u32", scc_out=True)
def s_addk_i32(old, imm):
    a, b = i32(old), sext16(imm).view(np.int32)
    result = _wrapped_i32(a + b)
    return result, _signed_overflow(a, b, result)


@salu("s_mulk_i32", "i32", "i32", "u32")
def s_mulk_i32(old, imm):
    return np.asarray(old, U32) * sext16(imm)


def _compare_k(name, signed, op):
    @salu(name, None, "b32", "u32", scc_out=True)
    def fn(value, imm):
        if signed:
            return None, op(i32(value), sext16(imm).view(np.int32))
        return None, op(np.asarray(value, U32), np.asarray(imm, U32) & U32(0xFFFF))
    fn.__name__ = name


_compare_k("s_cmpk_eq_i32", True, np.equal)
_compare_k("s_cmpk_lg_i32", True, np.not_equal)
_compare_k("s_cmpk_gt_i32", True, np.greater)
_compare_k("s_cmpk_ge_i32", True, np.greater_equal)
_compare_k("s_cmpk_lt_i32", True, np.less)
_compare_k("s_cmpk_le_i32", True, np.less_equal)
_compare_k("s_cmpk_eq_u32", False, np.equal)
_compare_k("s_cmpk_lg_u32", False, np.not_equal)
_compare_k("s_cmpk_gt_u32", False, np.greater)
_compare_k("s_cmpk_ge_u32", False, np.greater_equal)
_compare_k("s_cmpk_lt_u32", False, np.less)
_compare_k("s_cmpk_le_u32", False, np.less_equal)


@salu("s_bitreplicate_b64_b32", "b64", "b32")
def s_bitreplicate_b64_b32(a):
    """Each bit i of the source becomes bits 2i and 2i+1 of the result."""
    a = np.asarray(a, U64)
    result = np.zeros_like(a)
    for bit in range(32):
        result |= ((a >> U64(bit)) & U64(1)) * U64(3 << (2 * bit))
    return result

"""The one-wave fast variants of the scalar ALU semantics, on Python ints.

A NumPy operation costs about as much on one element as on a thousand, so a
single wave (small grids, serial loops, -O0 code) spends most of an SALU
instruction in NumPy call overhead; plain Python ints do the same arithmetic
several times faster. Each variant is registered with its reference, the
NumPy semantic in semantics/salu.py (``registry.one_wave``: it becomes the
reference's ``Semantic.one_wave``); ``formats.build_salu`` uses it when the
group has exactly one wave.

A variant takes what the reference takes, as raw bit patterns (u32 for
32-bit operand types, u64 for 64-bit ones; SCC as 0/1) and returns what it
returns: the result (masked to the destination width by the caller; None
for compares) and, for ``scc_out`` ops, the SCC as a bool.
tests/exec/test_perf_salu_int.py checks every variant against its reference.
"""

from __future__ import annotations

import operator

from . import salu  # noqa: F401  (the references are registered first)
from ..core.registry import one_wave

M32 = 0xFFFFFFFF
M64 = 0xFFFF_FFFF_FFFF_FFFF


def s32(value):
    """u32 bits -> signed int."""
    return value - (1 << 32) if value & 0x8000_0000 else value


def s64(value):
    return value - (1 << 64) if value >> 63 else value


def sext16(imm):
    """SOPK's 16-bit immediate as a signed int."""
    imm &= 0xFFFF
    return imm - 0x10000 if imm & 0x8000 else imm


def _fits_i32(value):
    return -(1 << 31) <= value < (1 << 31)


# ------------------------------------------------------------- arithmetic
@one_wave("s_add_u32")
def s_add_u32(a, b):
    wide = a + b
    return wide, wide > M32


@one_wave("s_sub_u32")
def s_sub_u32(a, b):
    return a - b, b > a


@one_wave("s_addc_u32")
def s_addc_u32(a, b, scc):
    wide = a + b + scc
    return wide, wide > M32


@one_wave("s_subb_u32")
def s_subb_u32(a, b, scc):
    borrow = b + scc
    return a - borrow, borrow > a


@one_wave("s_add_i32")
def s_add_i32(a, b):
    total = s32(a) + s32(b)
    return total, not _fits_i32(total)


@one_wave("s_sub_i32")
def s_sub_i32(a, b):
    difference = s32(a) - s32(b)
    return difference, not _fits_i32(difference)


@one_wave("s_addk_i32")
def s_addk_i32(old, imm):
    total = s32(old) + sext16(imm)
    return total, not _fits_i32(total)


@one_wave("s_mul_i32")
def s_mul_i32(a, b):
    return a * b


@one_wave("s_mulk_i32")
def s_mulk_i32(old, imm):
    return old * sext16(imm)


def _shift_add(shift):
    def fn(a, b):
        wide = (a << shift) + b
        return wide, wide > M32
    return fn


one_wave("s_lshl1_add_u32")(_shift_add(1))
one_wave("s_lshl2_add_u32")(_shift_add(2))
one_wave("s_lshl3_add_u32")(_shift_add(3))
one_wave("s_lshl4_add_u32")(_shift_add(4))


def _min_max(name, signed, smaller):
    def fn(a, b):
        x, y = (s32(a), s32(b)) if signed else (a, b)
        chosen = x < y if smaller else x > y
        return (a if chosen else b), chosen
    one_wave(name)(fn)


for _name, _signed, _smaller in (("s_min_i32", True, True), ("s_min_u32", False, True),
                                 ("s_max_i32", True, False), ("s_max_u32", False, False)):
    _min_max(_name, _signed, _smaller)


# ------------------------------------------------------------------- bits
def _logic(name, mask, op):
    def fn(a, b):
        result = op(a, b) & mask
        return result, result != 0
    one_wave(name)(fn)


# the bitwise functions are the references' own (they work on ints too)
_logic("s_and_b32", M32, salu._and)
_logic("s_and_b64", M64, salu._and)
_logic("s_or_b32", M32, salu._or)
_logic("s_or_b64", M64, salu._or)
_logic("s_xor_b32", M32, salu._xor)
_logic("s_xor_b64", M64, salu._xor)
_logic("s_andn2_b32", M32, salu._andn2)
_logic("s_andn2_b64", M64, salu._andn2)
_logic("s_orn2_b32", M32, salu._orn2)
_logic("s_orn2_b64", M64, salu._orn2)
_logic("s_nand_b32", M32, salu._nand)
_logic("s_nand_b64", M64, salu._nand)
_logic("s_nor_b32", M32, salu._nor)
_logic("s_nor_b64", M64, salu._nor)
_logic("s_xnor_b32", M32, salu._xnor)
_logic("s_xnor_b64", M64, salu._xnor)


def _scc_nonzero(name, mask, compute):
    def fn(a, b):
        result = compute(a, b) & mask
        return result, result != 0
    one_wave(name)(fn)


_scc_nonzero("s_lshl_b32", M32, lambda a, b: a << (b & 31))
_scc_nonzero("s_lshr_b32", M32, lambda a, b: a >> (b & 31))
_scc_nonzero("s_ashr_i32", M32, lambda a, b: s32(a) >> (b & 31))
_scc_nonzero("s_lshl_b64", M64, lambda a, b: a << (b & 63))
_scc_nonzero("s_lshr_b64", M64, lambda a, b: a >> (b & 63))
_scc_nonzero("s_ashr_i64", M64, lambda a, b: s64(a) >> (b & 63))


@one_wave("s_bfm_b32")
def s_bfm_b32(a, b):
    return ((1 << (a & 31)) - 1) << (b & 31)


def bitfield_extract(value, control, bits, signed):
    """s_bfe: offset = control[5:0] (or [4:0]), width = min(control[22:16], bits);
    a signed 32-bit source is sign-extended to 64 bits first."""
    if signed and bits == 32:
        value = s32(value) & M64
    offset = control & (bits - 1)
    width = min((control >> 16) & 0x7F, bits)
    field_ = (value >> offset) & ((1 << width) - 1)
    if signed and width:
        sign = 1 << (width - 1)
        field_ = ((field_ ^ sign) - sign) & M64
    return field_


def _bfe(name, bits, signed):
    mask = M64 if bits == 64 else M32

    def fn(a, b):
        result = bitfield_extract(a, b, bits, signed) & mask
        return result, result != 0
    one_wave(name)(fn)


_bfe("s_bfe_u32", 32, False)
_bfe("s_bfe_i32", 32, True)
_bfe("s_bfe_u64", 64, False)
_bfe("s_bfe_i64", 64, True)


@one_wave("s_pack_ll_b32_b16")
def s_pack_ll_b32_b16(a, b):
    return (a & 0xFFFF) | (b << 16)


@one_wave("s_pack_lh_b32_b16")
def s_pack_lh_b32_b16(a, b):
    return (a & 0xFFFF) | (b & 0xFFFF0000)


@one_wave("s_pack_hh_b32_b16")
def s_pack_hh_b32_b16(a, b):
    return (a >> 16) | (b & 0xFFFF0000)


def _bitcmp(name, width, value):
    def fn(a, b):
        return None, ((a >> (b & (width - 1))) & 1) == value
    one_wave(name)(fn)


_bitcmp("s_bitcmp0_b32", 32, 0)
_bitcmp("s_bitcmp1_b32", 32, 1)
_bitcmp("s_bitcmp0_b64", 64, 0)
_bitcmp("s_bitcmp1_b64", 64, 1)


def _bcnt(name, width, ones):
    def fn(a):
        result = a.bit_count() if ones else width - a.bit_count()
        return result, result != 0
    one_wave(name)(fn)


_bcnt("s_bcnt1_i32_b32", 32, True)
_bcnt("s_bcnt0_i32_b32", 32, False)
_bcnt("s_bcnt1_i32_b64", 64, True)
_bcnt("s_bcnt0_i32_b64", 64, False)


# ------------------------------------------------------- moves and selects
def _identity(a):
    return a


for _name in ("s_mov_b32", "s_mov_b64"):
    one_wave(_name)(_identity)


@one_wave("s_not_b32")
def s_not_b32(a):
    result = ~a & M32
    return result, result != 0


@one_wave("s_not_b64")
def s_not_b64(a):
    result = ~a & M64
    return result, result != 0


def _select(a, b, scc):
    return a if scc else b


def _conditional_move(a, scc, old):
    return a if scc else old


for _name in ("s_cselect_b32", "s_cselect_b64"):
    one_wave(_name)(_select)
for _name in ("s_cmov_b32", "s_cmov_b64"):
    one_wave(_name)(_conditional_move)


@one_wave("s_movk_i32")
def s_movk_i32(imm):
    return sext16(imm)


@one_wave("s_cmovk_i32")
def s_cmovk_i32(old, imm, scc):
    return sext16(imm) if scc else old


@one_wave("s_sext_i32_i8")
def s_sext_i32_i8(a):
    a &= 0xFF
    return a - 0x100 if a & 0x80 else a


@one_wave("s_sext_i32_i16")
def s_sext_i32_i16(a):
    return sext16(a)


# ------------------------------------------------------------------ SOPC
def _compare(name, signed, op):
    if signed:
        def fn(a, b):
            return None, op(s32(a), s32(b))
    else:
        def fn(a, b):
            return None, op(a, b)
    one_wave(name)(fn)


def _compare_k(name, signed, op):
    if signed:
        def fn(value, imm):
            return None, op(s32(value), sext16(imm))
    else:
        def fn(value, imm):
            return None, op(value, imm & 0xFFFF)
    one_wave(name)(fn)


_compare("s_cmp_eq_i32", True, operator.eq)
_compare("s_cmp_lg_i32", True, operator.ne)
_compare("s_cmp_gt_i32", True, operator.gt)
_compare("s_cmp_ge_i32", True, operator.ge)
_compare("s_cmp_lt_i32", True, operator.lt)
_compare("s_cmp_le_i32", True, operator.le)
_compare("s_cmp_eq_u32", False, operator.eq)
_compare("s_cmp_lg_u32", False, operator.ne)
_compare("s_cmp_gt_u32", False, operator.gt)
_compare("s_cmp_ge_u32", False, operator.ge)
_compare("s_cmp_lt_u32", False, operator.lt)
_compare("s_cmp_le_u32", False, operator.le)
_compare("s_cmp_eq_u64", False, operator.eq)
_compare("s_cmp_lg_u64", False, operator.ne)
_compare_k("s_cmpk_eq_i32", True, operator.eq)
_compare_k("s_cmpk_lg_i32", True, operator.ne)
_compare_k("s_cmpk_gt_i32", True, operator.gt)
_compare_k("s_cmpk_ge_i32", True, operator.ge)
_compare_k("s_cmpk_lt_i32", True, operator.lt)
_compare_k("s_cmpk_le_i32", True, operator.le)
_compare_k("s_cmpk_eq_u32", False, operator.eq)
_compare_k("s_cmpk_lg_u32", False, operator.ne)
_compare_k("s_cmpk_gt_u32", False, operator.gt)
_compare_k("s_cmpk_ge_u32", False, operator.ge)
_compare_k("s_cmpk_lt_u32", False, operator.lt)
_compare_k("s_cmpk_le_u32", False, operator.le)

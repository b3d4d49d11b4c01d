"""Python-int twins of the common scalar ALU semantics, for a wave running alone.

A NumPy operation costs about as much on one element as on a thousand, so a
single wave (small grids, serial loops, -O0 code) spends most of an SALU
instruction in NumPy call overhead; plain Python ints do the same arithmetic
several times faster. ``formats.build_salu`` uses a twin when the group has
exactly one wave and keeps the NumPy semantic (semantics/salu.py, the reference)
for every other case.

A twin takes what the NumPy semantic takes, as raw bit patterns (u32 for
32-bit operand types, u64 for 64-bit ones; SCC as 0/1) and returns what it
returns: the result (masked to the destination width by the caller; None
for compares) and, for ``scc_out`` ops, the SCC as a bool.
tests/exec/test_perf_salu_int.py checks every twin against its reference.
"""

from __future__ import annotations

M32 = 0xFFFFFFFF
M64 = 0xFFFF_FFFF_FFFF_FFFF

#: mnemonic -> Python-int twin of the registered NumPy semantic
INT_SALU: dict = {}


def _twin(op):
    def decorate(fn):
        INT_SALU[op] = fn
        return fn
    return decorate


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
@_twin("s_add_u32")
def s_add_u32(a, b):
    wide = a + b
    return wide, wide > M32


@_twin("s_sub_u32")
def s_sub_u32(a, b):
    return a - b, b > a


@_twin("s_addc_u32")
def s_addc_u32(a, b, scc):
    wide = a + b + scc
    return wide, wide > M32


@_twin("s_subb_u32")
def s_subb_u32(a, b, scc):
    borrow = b + scc
    return a - borrow, borrow > a


@_twin("s_add_i32")
def s_add_i32(a, b):
    total = s32(a) + s32(b)
    return total, not _fits_i32(total)


@_twin("s_sub_i32")
def s_sub_i32(a, b):
    difference = s32(a) - s32(b)
    return difference, not _fits_i32(difference)


@_twin("s_addk_i32")
def s_addk_i32(old, imm):
    total = s32(old) + sext16(imm)
    return total, not _fits_i32(total)


@_twin("s_mul_i32")
def s_mul_i32(a, b):
    return a * b


@_twin("s_mulk_i32")
def s_mulk_i32(old, imm):
    return old * sext16(imm)


def _shift_add(shift):
    def fn(a, b):
        wide = (a << shift) + b
        return wide, wide > M32
    return fn


for _shift in (1, 2, 3, 4):
    INT_SALU[f"s_lshl{_shift}_add_u32"] = _shift_add(_shift)


def _min_max(name, signed, smaller):
    def fn(a, b):
        x, y = (s32(a), s32(b)) if signed else (a, b)
        chosen = x < y if smaller else x > y
        return (a if chosen else b), chosen
    INT_SALU[name] = fn


for _name, _signed, _smaller in (("s_min_i32", True, True), ("s_min_u32", False, True),
                                 ("s_max_i32", True, False), ("s_max_u32", False, False)):
    _min_max(_name, _signed, _smaller)


# ------------------------------------------------------------------- bits
_LOGIC = {"and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
          "andn2": lambda a, b: a & ~b, "orn2": lambda a, b: a | ~b,
          "nand": lambda a, b: ~(a & b), "nor": lambda a, b: ~(a | b),
          "xnor": lambda a, b: ~(a ^ b)}


def _logic(name, mask, op):
    def fn(a, b):
        result = op(a, b) & mask
        return result, result != 0
    INT_SALU[name] = fn


for _op, _fn in _LOGIC.items():
    _logic(f"s_{_op}_b32", M32, _fn)
    _logic(f"s_{_op}_b64", M64, _fn)


def _scc_nonzero(name, mask, compute):
    def fn(a, b):
        result = compute(a, b) & mask
        return result, result != 0
    INT_SALU[name] = fn


_scc_nonzero("s_lshl_b32", M32, lambda a, b: a << (b & 31))
_scc_nonzero("s_lshr_b32", M32, lambda a, b: a >> (b & 31))
_scc_nonzero("s_ashr_i32", M32, lambda a, b: s32(a) >> (b & 31))
_scc_nonzero("s_lshl_b64", M64, lambda a, b: a << (b & 63))
_scc_nonzero("s_lshr_b64", M64, lambda a, b: a >> (b & 63))
_scc_nonzero("s_ashr_i64", M64, lambda a, b: s64(a) >> (b & 63))


@_twin("s_bfm_b32")
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
    INT_SALU[name] = fn


for _bits in (32, 64):
    _bfe(f"s_bfe_u{_bits}", _bits, False)
    _bfe(f"s_bfe_i{_bits}", _bits, True)


@_twin("s_pack_ll_b32_b16")
def s_pack_ll_b32_b16(a, b):
    return (a & 0xFFFF) | (b << 16)


@_twin("s_pack_lh_b32_b16")
def s_pack_lh_b32_b16(a, b):
    return (a & 0xFFFF) | (b & 0xFFFF0000)


@_twin("s_pack_hh_b32_b16")
def s_pack_hh_b32_b16(a, b):
    return (a >> 16) | (b & 0xFFFF0000)


def _bitcmp(name, width, value):
    def fn(a, b):
        return None, ((a >> (b & (width - 1))) & 1) == value
    INT_SALU[name] = fn


for _value in (0, 1):
    _bitcmp(f"s_bitcmp{_value}_b32", 32, _value)
    _bitcmp(f"s_bitcmp{_value}_b64", 64, _value)


def _bcnt(name, width, ones):
    def fn(a):
        result = a.bit_count() if ones else width - a.bit_count()
        return result, result != 0
    INT_SALU[name] = fn


for _width in (32, 64):
    _bcnt(f"s_bcnt1_i32_b{_width}", _width, True)
    _bcnt(f"s_bcnt0_i32_b{_width}", _width, False)


# ------------------------------------------------------- moves and selects
def _identity(a):
    return a


for _name in ("s_mov_b32", "s_mov_b64"):
    INT_SALU[_name] = _identity


@_twin("s_not_b32")
def s_not_b32(a):
    result = ~a & M32
    return result, result != 0


@_twin("s_not_b64")
def s_not_b64(a):
    result = ~a & M64
    return result, result != 0


def _select(a, b, scc):
    return a if scc else b


def _conditional_move(a, scc, old):
    return a if scc else old


for _name in ("s_cselect_b32", "s_cselect_b64"):
    INT_SALU[_name] = _select
for _name in ("s_cmov_b32", "s_cmov_b64"):
    INT_SALU[_name] = _conditional_move


@_twin("s_movk_i32")
def s_movk_i32(imm):
    return sext16(imm)


@_twin("s_cmovk_i32")
def s_cmovk_i32(old, imm, scc):
    return sext16(imm) if scc else old


@_twin("s_sext_i32_i8")
def s_sext_i32_i8(a):
    a &= 0xFF
    return a - 0x100 if a & 0x80 else a


@_twin("s_sext_i32_i16")
def s_sext_i32_i16(a):
    return sext16(a)


# ------------------------------------------------------------------ SOPC
_COMPARE = {"eq": lambda a, b: a == b, "lg": lambda a, b: a != b,
            "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
            "lt": lambda a, b: a < b, "le": lambda a, b: a <= b}


def _compare(name, signed, op):
    if signed:
        def fn(a, b):
            return None, op(s32(a), s32(b))
    else:
        def fn(a, b):
            return None, op(a, b)
    INT_SALU[name] = fn


def _compare_k(name, signed, op):
    if signed:
        def fn(value, imm):
            return None, op(s32(value), sext16(imm))
    else:
        def fn(value, imm):
            return None, op(value, imm & 0xFFFF)
    INT_SALU[name] = fn


for _cond, _op in _COMPARE.items():
    _compare(f"s_cmp_{_cond}_i32", True, _op)
    _compare(f"s_cmp_{_cond}_u32", False, _op)
    _compare_k(f"s_cmpk_{_cond}_i32", True, _op)
    _compare_k(f"s_cmpk_{_cond}_u32", False, _op)
_compare("s_cmp_eq_u64", False, _COMPARE["eq"])
_compare("s_cmp_lg_u64", False, _COMPARE["lg"])

"""XXH3-64 (seed 0, default secret): the hash ld.lld gives each piece of a
SHF_MERGE section. ld.lld spreads pieces over 32 shards by the top bits of
the hash's low 32 bits, so the output order of merged strings depends on it.

Written from the published XXH3 specification (the 192-byte default secret
is its constant data); four length classes, each with its own mixing.
"""

from __future__ import annotations

import struct

MASK64 = (1 << 64) - 1
PRIME32_1, PRIME32_2, PRIME32_3 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D
PRIME64_1, PRIME64_2, PRIME64_3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
PRIME64_4, PRIME64_5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5
PRIME_MX1, PRIME_MX2 = 0x165667919E3779F9, 0x9FB21C651E98DF25

SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
    "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
    "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e")
STRIPE, CONSUME_RATE, MIDSIZE_MAX = 64, 8, 240


def _u64(data, at: int) -> int:
    return struct.unpack_from("<Q", data, at)[0]


def _u32(data, at: int) -> int:
    return struct.unpack_from("<I", data, at)[0]


def _rotl(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (64 - bits))) & MASK64


def _fold(lhs: int, rhs: int) -> int:
    """The 128-bit product of two 64-bit values, halves XORed."""
    product = lhs * rhs
    return (product ^ (product >> 64)) & MASK64


def _xxh64_avalanche(value: int) -> int:
    value ^= value >> 33
    value = value * PRIME64_2 & MASK64
    value ^= value >> 29
    value = value * PRIME64_3 & MASK64
    return value ^ (value >> 32)


def _avalanche(value: int) -> int:
    value ^= value >> 37
    value = value * PRIME_MX1 & MASK64
    return value ^ (value >> 32)


def _up_to_16(data: bytes) -> int:
    length = len(data)
    if length > 8:
        low = (_u64(SECRET, 24) ^ _u64(SECRET, 32)) ^ _u64(data, 0)
        high = (_u64(SECRET, 40) ^ _u64(SECRET, 48)) ^ _u64(data, length - 8)
        swapped = int.from_bytes(low.to_bytes(8, "little"), "big")
        return _avalanche((length + swapped + high + _fold(low, high)) & MASK64)
    if length >= 4:
        combined = _u32(data, length - 4) | (_u32(data, 0) << 32)
        acc = (_u64(SECRET, 8) ^ _u64(SECRET, 16)) ^ combined
        acc ^= _rotl(acc, 49) ^ _rotl(acc, 24)
        acc = acc * PRIME_MX2 & MASK64
        acc ^= ((acc >> 35) + length) & MASK64
        acc = acc * PRIME_MX2 & MASK64
        return acc ^ (acc >> 28)
    if length:
        combined = (data[0] << 16) | (data[length >> 1] << 24) | data[-1] | (length << 8)
        return _xxh64_avalanche(combined ^ (_u32(SECRET, 0) ^ _u32(SECRET, 4)))
    return _xxh64_avalanche(_u64(SECRET, 56) ^ _u64(SECRET, 64))


def _mix16(data, at: int, secret_at: int) -> int:
    return _fold(_u64(SECRET, secret_at) ^ _u64(data, at),
                 _u64(SECRET, secret_at + 8) ^ _u64(data, at + 8))


def _up_to_128(data: bytes) -> int:
    length = len(data)
    acc = length * PRIME64_1
    rounds = 1 + (length > 32) + (length > 64) + (length > 96)
    for i in range(rounds):
        acc += _mix16(data, 16 * i, 32 * i) + _mix16(data, length - 16 * (i + 1), 32 * i + 16)
    return _avalanche(acc & MASK64)


def _up_to_240(data: bytes) -> int:
    length = len(data)
    acc = length * PRIME64_1
    for i in range(8):
        acc += _mix16(data, 16 * i, 16 * i)
    acc = _avalanche(acc & MASK64)
    for i in range(8, length // 16):
        acc += _mix16(data, 16 * i, 16 * (i - 8) + 3)
    acc += _mix16(data, length - 16, 136 - 17)
    return _avalanche(acc & MASK64)


def _accumulate(acc: list, data, at: int, secret_at: int) -> None:
    for i in range(8):
        value = _u64(data, at + 8 * i)
        keyed = value ^ _u64(SECRET, secret_at + 8 * i)
        acc[i ^ 1] = (acc[i ^ 1] + value) & MASK64
        acc[i] = (acc[i] + (keyed & 0xFFFFFFFF) * (keyed >> 32)) & MASK64


def _long(data: bytes) -> int:
    length = len(data)
    stripes_per_block = (len(SECRET) - STRIPE) // CONSUME_RATE
    block = STRIPE * stripes_per_block
    acc = [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1]
    blocks = (length - 1) // block
    for n in range(blocks):
        for stripe in range(stripes_per_block):
            _accumulate(acc, data, n * block + stripe * STRIPE, stripe * CONSUME_RATE)
        for i in range(8):  # scramble
            value = acc[i] ^ (acc[i] >> 47) ^ _u64(SECRET, len(SECRET) - STRIPE + 8 * i)
            acc[i] = value * PRIME32_1 & MASK64
    stripes = (length - 1 - block * blocks) // STRIPE
    for stripe in range(stripes):
        _accumulate(acc, data, blocks * block + stripe * STRIPE, stripe * CONSUME_RATE)
    _accumulate(acc, data, length - STRIPE, len(SECRET) - STRIPE - 7)
    result = length * PRIME64_1
    for i in range(4):
        result += _fold(acc[2 * i] ^ _u64(SECRET, 11 + 16 * i),
                        acc[2 * i + 1] ^ _u64(SECRET, 11 + 16 * i + 8))
    return _avalanche(result & MASK64)


def xxh3_64(data: bytes) -> int:
    """XXH3_64bits(data) with seed 0."""
    length = len(data)
    if length <= 16:
        return _up_to_16(data)
    if length <= 128:
        return _up_to_128(data)
    if length <= MIDSIZE_MAX:
        return _up_to_240(data)
    return _long(data)

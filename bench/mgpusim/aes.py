"""Hetero-Mark AES-256 (MGPUSim ``aes -length N``): kernel Encrypt.

One launch, one work-item a 16-byte block (grid N/16, work-groups of 64),
encrypting random bytes in place (ECB) with the key 0, 1, ..., 31; the
host passes the expanded key (60 big-endian words) and the S-box, both
computed here from their definitions. The reference is the `cryptography`
package's AES-256-ECB (the benchmark is skipped without it).
"""

from __future__ import annotations

import numpy as np

from bench.mgpusim import Skip

GROUP = 64
KEY = bytes(range(32))


def _gmul(a: int, b: int) -> int:
    """Product in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1."""
    result = 0
    while b:
        if b & 1:
            result ^= a
        a = ((a << 1) ^ 0x1B) & 0xFF if a & 0x80 else a << 1
        b >>= 1
    return result


def sbox() -> np.ndarray:
    """The AES S-box: the multiplicative inverse, then the affine map."""
    inverse = [0] + [next(y for y in range(1, 256) if _gmul(x, y) == 1) for x in range(1, 256)]
    rotl = lambda v, n: ((v << n) | (v >> (8 - n))) & 0xFF  # noqa: E731
    return np.array([b ^ rotl(b, 1) ^ rotl(b, 2) ^ rotl(b, 3) ^ rotl(b, 4) ^ 0x63
                     for b in inverse], np.uint8)


def expand_key(key: bytes, box: np.ndarray) -> np.ndarray:
    """The AES-256 key schedule: 60 words, each four key bytes big-endian."""
    words = [int.from_bytes(key[i:i + 4], "big") for i in range(0, 32, 4)]
    sub = lambda w: int.from_bytes(bytes(box[b] for b in w.to_bytes(4, "big")), "big")  # noqa: E731
    rcon = 1
    for i in range(8, 60):
        t = words[i - 1]
        if i % 8 == 0:
            t = sub(((t << 8) | (t >> 24)) & 0xFFFFFFFF) ^ (rcon << 24)
            rcon = _gmul(rcon, 2)
        elif i % 8 == 4:
            t = sub(t)
        words.append(words[i - 8] ^ t)
    return np.array(words, np.uint32)


def reference(data: bytes) -> bytes:
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    except ImportError as error:
        raise Skip("the reference needs the cryptography package") from error
    encryptor = Cipher(algorithms.AES(KEY), modes.ECB()).encryptor()
    return encryptor.update(data) + encryptor.finalize()


def run(session, length: int = 65536):
    if length % 16:
        raise ValueError(f"aes: the length must be a multiple of 16 bytes, got {length}")
    data = np.random.default_rng(13).integers(0, 256, length, dtype=np.uint8)
    want = reference(data.tobytes())            # first: skip before launching without it
    box = sbox()
    device = session.device
    d_data, d_key, d_box = device.array(data), device.array(expand_key(KEY, box)), device.array(box)
    session.launch("Encrypt", d_data, d_key, d_box, grid=(length // 16,), block=(GROUP,))
    got = d_data.numpy().tobytes()
    for buffer in (d_data, d_key, d_box):
        buffer.free()
    return session.outcome("aes", f"-length {length}", got == want)

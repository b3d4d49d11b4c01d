"""LEB128, as DWARF and the .uleb128/.sleb128 directives write it."""


def encode_leb128(value: int, signed: bool) -> bytes:
    """LEB128 as DWARF writes it (unsigned values are taken modulo 2**64)."""
    out = bytearray()
    if not signed:
        value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        done = (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40) if signed \
            else value == 0
        out.append(byte if done else byte | 0x80)
        if done:
            return bytes(out)

"""A Zstandard decoder (RFC 8878), for compressed offload bundles.

clang-offload-bundler ``--compress`` (clang-19's ``--offload-compress``)
writes zstd when LLVM was built with it, as Debian's is; Python's standard
library has no zstd, and the project takes no new dependency, so this module
decodes the format itself. It favours clarity over speed: code objects are
small (a few hundred KB decode in well under a second).

Supported: Zstandard and skippable frames, raw/RLE/compressed blocks, raw/RLE/
Huffman (1 or 4 streams, FSE-compressed or direct weights, treeless) literals,
predefined/RLE/FSE/repeat sequence tables, repeat offsets. Not supported
(a clear ZstdError): dictionaries. The optional content checksum (xxh64) is
skipped; the bundle's own MD5 checks the result.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ToolchainError

FRAME_MAGIC = 0xFD2FB528
SKIPPABLE_MAGIC_MASK, SKIPPABLE_MAGIC = 0xFFFFFFF0, 0x184D2A50
MAX_BLOCK_SIZE = 128 * 1024

# Literals length codes 0-35 and match length codes 0-52: (baseline, extra bits)
LITERALS_LENGTH_CODES = [(n, 0) for n in range(16)] + list(zip(
    [16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
     8192, 16384, 32768, 65536],
    [1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]))
MATCH_LENGTH_CODES = [(n + 3, 0) for n in range(32)] + list(zip(
    [35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
     4099, 8195, 16387, 32771, 65539],
    [1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]))

# Default distributions (Predefined_Mode): (accuracy log, normalised counts)
DEFAULT_LITERALS_LENGTHS = (6, [4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
                                2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
                                -1, -1, -1, -1])
DEFAULT_MATCH_LENGTHS = (6, [1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1]
                         + [1] * 30 + [-1] * 7)
DEFAULT_OFFSETS = (5, [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
                       1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1])
#: largest accuracy log of an FSE table in a block: literals/match lengths, offsets, weights
MAX_ACCURACY = {"literals lengths": 9, "match lengths": 9, "offsets": 8, "weights": 6}
MAX_HUFFMAN_BITS = 11


class ZstdError(ToolchainError):
    """Corrupt or unsupported zstd data."""


def decompress(data: bytes, max_size: int | None = None) -> bytes:
    """The concatenated content of every frame of ``data``; more than ``max_size``
    bytes (when given) is an error, checked block by block (a few bytes of RLE
    blocks can claim gigabytes)."""
    data = bytes(data)
    out = bytearray()
    position = 0
    while position < len(data):
        if len(data) - position < 4:
            raise ZstdError(f"truncated frame magic at offset {position}")
        magic = int.from_bytes(data[position:position + 4], "little")
        if magic & SKIPPABLE_MAGIC_MASK == SKIPPABLE_MAGIC:
            size = int.from_bytes(_slice(data, position + 4, 4), "little")
            position += 8 + size
        elif magic == FRAME_MAGIC:
            position = _Frame(data, position + 4, out, max_size).decode()
        else:
            raise ZstdError(f"bad frame magic 0x{magic:08x} at offset {position}")
    return bytes(out)


def _slice(data: bytes, start: int, size: int) -> bytes:
    if start < 0 or size < 0 or start + size > len(data):
        raise ZstdError(f"truncated data: {size} bytes at offset {start} of {len(data)}")
    return data[start:start + size]


# ------------------------------------------------------------------ bit readers
class ForwardBits:
    """Little-endian bits read from the start (FSE table descriptions)."""

    def __init__(self, data: bytes, start: int):
        self.data, self.start, self.bit = data, start, 0

    def read(self, count: int) -> int:
        first = self.start + (self.bit >> 3)
        window = int.from_bytes(self.data[first:first + 8], "little")
        if (self.bit + count + 7) >> 3 > len(self.data) - self.start:
            raise ZstdError("truncated FSE table description")
        value = (window >> (self.bit & 7)) & ((1 << count) - 1)
        self.bit += count
        return value

    def peek(self, count: int) -> int:
        value = self.read(count)
        self.bit -= count
        return value

    @property
    def bytes_used(self) -> int:
        return (self.bit + 7) >> 3


class BackwardBits:
    """The bitstreams of FSE and Huffman codes: written forwards, read from the
    end; the highest set bit of the last byte marks where the bits start.
    Reading past the beginning yields zeros and sets ``overflowed``."""

    def __init__(self, data: bytes):
        if not data or data[-1] == 0:
            raise ZstdError("bitstream without its end marker")
        self.data = data
        self.position = 8 * (len(data) - 1) + data[-1].bit_length() - 1

    def read(self, count: int) -> int:
        value = self.peek(count)
        self.position -= count
        return value

    def peek(self, count: int) -> int:
        if count == 0:
            return 0
        low = self.position - count
        if low < 0:                              # past the beginning: zeros
            return self._bits(0, self.position) << -low if self.position > 0 else 0
        return self._bits(low, count)

    def _bits(self, low: int, count: int) -> int:
        first = low >> 3
        window = int.from_bytes(self.data[first:first + 9], "little")
        return (window >> (low & 7)) & ((1 << count) - 1)

    @property
    def overflowed(self) -> bool:
        return self.position < 0

    @property
    def finished(self) -> bool:
        return self.position == 0


# ------------------------------------------------------------------------ FSE
@dataclass(frozen=True)
class FseTable:
    """A decoding table: per state its symbol, bits to read and next-state baseline."""

    accuracy: int
    symbols: tuple
    bits: tuple
    baselines: tuple

    @classmethod
    def from_counts(cls, accuracy: int, counts: list) -> "FseTable":
        size = 1 << accuracy
        symbols = [0] * size
        high = size - 1
        next_state = []
        for symbol, count in enumerate(counts):
            if count == -1:                       # "less than 1": one cell at the end
                symbols[high] = symbol
                high -= 1
                next_state.append(1)
            else:
                next_state.append(count)
        step, position = (size >> 1) + (size >> 3) + 3, 0
        for symbol, count in enumerate(counts):
            for _ in range(max(count, 0)):
                symbols[position] = symbol
                position = (position + step) & (size - 1)
                while position > high:
                    position = (position + step) & (size - 1)
        if position != 0:
            raise ZstdError("FSE distribution does not fill its table")
        bits, baselines = [0] * size, [0] * size
        for state in range(size):
            value = next_state[symbols[state]]
            next_state[symbols[state]] += 1
            bits[state] = accuracy - (value.bit_length() - 1)
            baselines[state] = (value << bits[state]) - size
        return cls(accuracy, tuple(symbols), tuple(bits), tuple(baselines))

    @classmethod
    def single(cls, symbol: int) -> "FseTable":
        """RLE_Mode: every state decodes ``symbol`` and reads nothing."""
        return cls(0, (symbol,), (0,), (0,))


def read_fse_description(data: bytes, start: int, max_accuracy: int, what: str):
    """(FseTable, bytes used) of the table description at ``start``."""
    bits = ForwardBits(data, start)
    accuracy = bits.read(4) + 5
    if accuracy > max_accuracy:
        raise ZstdError(f"{what}: accuracy log {accuracy} above {max_accuracy}")
    remaining = (1 << accuracy) + 1
    threshold, width = 1 << accuracy, accuracy + 1
    counts = []
    while remaining > 1:
        if len(counts) > 255:
            raise ZstdError(f"{what}: FSE description has too many symbols")
        limit = 2 * threshold - 1 - remaining
        low = bits.peek(width - 1) & (threshold - 1)
        if low < limit:
            value = bits.read(width - 1)
        else:
            value = bits.read(width)
            if value >= threshold:
                value -= limit
        count = value - 1
        remaining -= abs(count)
        counts.append(count)
        if count == 0:
            counts.extend([0] * _zero_run(bits))
        while remaining < threshold:
            width -= 1
            threshold >>= 1
    if remaining != 1:
        raise ZstdError(f"{what}: FSE distribution exceeds its total")
    return FseTable.from_counts(accuracy, counts), bits.bytes_used


def _zero_run(bits: ForwardBits) -> int:
    run = 0
    while True:
        repeat = bits.read(2)
        run += repeat
        if repeat != 3:
            return run


class FseState:
    """One decoder state walking an FseTable over a backward bitstream."""

    def __init__(self, table: FseTable, bits: BackwardBits):
        self.table, self.bits = table, bits
        self.state = bits.read(table.accuracy)

    @property
    def symbol(self) -> int:
        return self.table.symbols[self.state]

    def update(self) -> None:
        table = self.table
        self.state = table.baselines[self.state] + self.bits.read(table.bits[self.state])


# -------------------------------------------------------------------- Huffman
@dataclass(frozen=True)
class HuffmanTable:
    """A lookup table indexed by the next ``max_bits`` bits: (symbol, code length)."""

    max_bits: int
    symbols: tuple
    lengths: tuple

    @classmethod
    def from_weights(cls, weights: list) -> "HuffmanTable":
        total = sum(1 << (w - 1) for w in weights if w)
        if total == 0:
            raise ZstdError("Huffman weights are all zero")
        max_bits = total.bit_length()
        rest = (1 << max_bits) - total
        if rest & (rest - 1) or max_bits > MAX_HUFFMAN_BITS:
            raise ZstdError("Huffman weights do not complete a tree")
        if len(weights) > 255:
            raise ZstdError("Huffman weights for more than 256 symbols")
        weights = list(weights) + [rest.bit_length()]
        if sum(1 for w in weights if w) < 2:
            raise ZstdError("a Huffman tree needs two symbols")
        symbols, lengths = [], []
        for weight, symbol in sorted((w, s) for s, w in enumerate(weights) if w):
            symbols += [symbol] * (1 << (weight - 1))
            lengths += [max_bits + 1 - weight] * (1 << (weight - 1))
        return cls(max_bits, tuple(symbols), tuple(lengths))

    def decode(self, stream: bytes, count: int) -> bytes:
        bits = BackwardBits(stream)
        out = bytearray(count)
        symbols, lengths, max_bits = self.symbols, self.lengths, self.max_bits
        for index in range(count):
            code = bits.peek(max_bits)
            out[index] = symbols[code]
            bits.position -= lengths[code]
        if not bits.finished:
            raise ZstdError("Huffman stream not consumed exactly")
        return bytes(out)


def read_huffman_description(data: bytes, start: int):
    """(HuffmanTable, bytes used) of the tree description at ``start``."""
    header = _slice(data, start, 1)[0]
    if header >= 128:
        count = header - 127
        packed = _slice(data, start + 1, (count + 1) // 2)
        weights = [packed[i // 2] >> 4 if i % 2 == 0 else packed[i // 2] & 15
                   for i in range(count)]
        return HuffmanTable.from_weights(weights), 1 + len(packed)
    body = _slice(data, start + 1, header)
    table, used = read_fse_description(body, 0, MAX_ACCURACY["weights"], "Huffman weights")
    return HuffmanTable.from_weights(_fse_weights(table, body[used:])), 1 + header


def _fse_weights(table: FseTable, stream: bytes) -> list:
    """Two interleaved states over one stream, until it runs out."""
    bits = BackwardBits(stream)
    states = [FseState(table, bits), FseState(table, bits)]
    weights = []
    turn = 0
    while len(weights) < 255:
        state = states[turn]
        weights.append(state.symbol)
        state.update()
        if bits.overflowed:
            weights.append(states[1 - turn].symbol)
            return weights
        turn = 1 - turn
    raise ZstdError("too many Huffman weights")


# ---------------------------------------------------------------- frames/blocks
class _Frame:
    """One Zstandard frame: header, blocks, optional checksum; state shared by its
    blocks (window, repeat offsets, previous tables)."""

    def __init__(self, data: bytes, position: int, out: bytearray, max_size=None):
        self.data, self.position, self.out, self.max_size = data, position, out, max_size
        self.frame_start = len(out)
        self.offsets = [1, 4, 8]
        self.huffman = None
        self.tables = {}

    def decode(self) -> int:
        checksum = self._header()
        last = False
        while not last:
            header = int.from_bytes(_slice(self.data, self.position, 3), "little")
            self.position += 3
            last, kind, size = header & 1, (header >> 1) & 3, header >> 3
            if size > MAX_BLOCK_SIZE:
                raise ZstdError(f"block of {size} bytes exceeds 128 KB")
            if kind == 0:
                self.out += _slice(self.data, self.position, size)
                self.position += size
            elif kind == 1:
                self.out += _slice(self.data, self.position, 1) * size
                self.position += 1
            elif kind == 2:
                self._compressed_block(_slice(self.data, self.position, size))
                self.position += size
            else:
                raise ZstdError("reserved block type")
            if self.max_size is not None and len(self.out) > self.max_size:
                raise ZstdError(f"more than the expected {self.max_size} bytes")
        if self.content_size is not None and \
                len(self.out) - self.frame_start != self.content_size:
            raise ZstdError(f"frame decoded to {len(self.out) - self.frame_start} bytes, its "
                            f"header states {self.content_size}")
        return self.position + (4 if checksum else 0)

    def _header(self) -> bool:
        descriptor = _slice(self.data, self.position, 1)[0]
        self.position += 1
        size_flag, single_segment = descriptor >> 6, (descriptor >> 5) & 1
        if descriptor & 8:
            raise ZstdError("reserved bit set in the frame header")
        if not single_segment:
            self.position += 1                    # Window_Descriptor: any size is fine here
        dictionary_bytes = (0, 1, 2, 4)[descriptor & 3]
        dictionary = int.from_bytes(_slice(self.data, self.position, dictionary_bytes),
                                    "little")
        if dictionary:
            raise ZstdError(f"frame needs dictionary {dictionary}; dictionaries are not "
                            "supported")
        self.position += dictionary_bytes
        size_bytes = (1 if single_segment else 0, 2, 4, 8)[size_flag]
        self.content_size = None
        if size_bytes:
            value = int.from_bytes(_slice(self.data, self.position, size_bytes), "little")
            self.content_size = value + (256 if size_bytes == 2 else 0)
            self.position += size_bytes
        return bool(descriptor & 4)

    # ------------------------------------------------------------- blocks
    def _compressed_block(self, block: bytes) -> None:
        literals, used = self._literals(block)
        self._sequences(block, used, literals)

    def _literals(self, block: bytes):
        first = _slice(block, 0, 1)[0]
        kind, size_format = first & 3, (first >> 2) & 3
        if kind in (0, 1):
            header_bytes = (1, 2, 1, 3)[size_format]
            header = int.from_bytes(_slice(block, 0, header_bytes), "little")
            size = header >> (3 if header_bytes == 1 else 4)
            if kind == 0:
                return _slice(block, header_bytes, size), header_bytes + size
            return _slice(block, header_bytes, 1) * size, header_bytes + 1
        header_bytes, field = ((3, 10), (3, 10), (4, 14), (5, 18))[size_format]
        header = int.from_bytes(_slice(block, 0, header_bytes), "little")
        size = (header >> 4) & ((1 << field) - 1)
        compressed = (header >> (4 + field)) & ((1 << field) - 1)
        body = _slice(block, header_bytes, compressed)
        start = 0
        if kind == 2:
            self.huffman, start = read_huffman_description(body, 0)
        elif self.huffman is None:
            raise ZstdError("treeless literals without a previous Huffman table")
        streams = body[start:]
        if size_format == 0:
            literals = self.huffman.decode(streams, size)
        else:
            literals = self._four_streams(streams, size)
        return literals, header_bytes + compressed

    def _four_streams(self, streams: bytes, size: int) -> bytes:
        if len(streams) < 10:
            raise ZstdError("4-stream literals shorter than their jump table")
        sizes = [int.from_bytes(streams[i:i + 2], "little") for i in (0, 2, 4)]
        sizes.append(len(streams) - 6 - sum(sizes))
        if sizes[3] < 1:
            raise ZstdError("4-stream literals: jump table exceeds the streams")
        quarter = (size + 3) // 4
        counts = [quarter, quarter, quarter, size - 3 * quarter]
        out, start = bytearray(), 6
        for length, count in zip(sizes, counts):
            out += self.huffman.decode(streams[start:start + length], count)
            start += length
        return bytes(out)

    def _sequences(self, block: bytes, position: int, literals: bytes) -> None:
        count, position = _sequence_count(block, position)
        if count == 0:
            self.out += literals
            return
        modes = _slice(block, position, 1)[0]
        position += 1
        if modes & 3:
            raise ZstdError("reserved bits set in the sequence compression modes")
        tables = {}
        for name, shift, default in (("literals lengths", 6, DEFAULT_LITERALS_LENGTHS),
                                     ("offsets", 4, DEFAULT_OFFSETS),
                                     ("match lengths", 2, DEFAULT_MATCH_LENGTHS)):
            tables[name], position = self._table(block, position, (modes >> shift) & 3,
                                                 name, default)
        self.tables = tables
        self._execute(block[position:], count, tables, literals)

    def _table(self, block, position, mode, name, default):
        if mode == 0:
            return FseTable.from_counts(*default), position
        if mode == 1:
            return FseTable.single(_slice(block, position, 1)[0]), position + 1
        if mode == 2:
            table, used = read_fse_description(block, position, MAX_ACCURACY[name], name)
            return table, position + used
        if name not in self.tables:
            raise ZstdError(f"repeated {name} table without a previous one")
        return self.tables[name], position

    def _execute(self, stream: bytes, count: int, tables: dict, literals: bytes) -> None:
        bits = BackwardBits(stream)
        lengths = FseState(tables["literals lengths"], bits)
        offsets = FseState(tables["offsets"], bits)
        matches = FseState(tables["match lengths"], bits)
        out, used = self.out, 0
        for index in range(count):
            offset_code = offsets.symbol
            if offset_code > 31:
                raise ZstdError(f"offset code {offset_code} out of range")
            offset_value = (1 << offset_code) + bits.read(offset_code)
            base, extra = _code(MATCH_LENGTH_CODES, matches.symbol, "match length")
            match_length = base + bits.read(extra)
            base, extra = _code(LITERALS_LENGTH_CODES, lengths.symbol, "literals length")
            literal_length = base + bits.read(extra)
            if index + 1 < count:
                lengths.update()
                matches.update()
                offsets.update()
            if used + literal_length > len(literals):
                raise ZstdError("sequence copies more literals than the block has")
            out += literals[used:used + literal_length]
            used += literal_length
            self._copy_match(self._offset(offset_value, literal_length), match_length)
        if not bits.finished:
            raise ZstdError("sequence bitstream not consumed exactly")
        out += literals[used:]

    def _offset(self, value: int, literal_length: int) -> int:
        """The match offset, updating the three repeat offsets (most recent first)."""
        recent = self.offsets
        if value > 3:
            offset = value - 3
            self.offsets = [offset, recent[0], recent[1]]
            return offset
        index = value - 1 + (literal_length == 0)
        if index == 0:
            return recent[0]
        offset = recent[index] if index < 3 else recent[0] - 1
        if offset <= 0:
            raise ZstdError("repeat offset of zero")
        self.offsets = [offset, recent[0], recent[2]] if index == 1 else \
            [offset, recent[0], recent[1]]
        return offset

    def _copy_match(self, offset: int, length: int) -> None:
        out = self.out
        start = len(out) - offset
        if start < self.frame_start:
            raise ZstdError(f"match offset {offset} reaches before the frame")
        if offset >= length:
            out += out[start:start + length]
        else:                                    # overlapping: the pattern repeats
            pattern = bytes(out[start:])
            out += (pattern * (length // offset + 1))[:length]


def _sequence_count(block: bytes, position: int):
    first = _slice(block, position, 1)[0]
    if first < 128:
        return first, position + 1
    if first < 255:
        return ((first - 128) << 8) + _slice(block, position + 1, 1)[0], position + 2
    return int.from_bytes(_slice(block, position + 1, 2), "little") + 0x7F00, position + 3


def _code(codes: list, code: int, what: str):
    if code >= len(codes):
        raise ZstdError(f"{what} code {code} out of range")
    return codes[code]

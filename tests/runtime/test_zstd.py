"""The Zstandard decoder (runtime.zstd) against frames written by the zstd tool.

Recorded frames (data/zstd/record.py) cover raw, RLE and compressed blocks,
several blocks per frame, raw/Huffman (1 and 4 streams, FSE and direct
weights, treeless) literals, predefined/FSE/RLE/repeat sequence tables and
frames with and without a content size; the expected bytes are the same
samples compressed by Python's zlib. With the zstd tool installed, random
inputs at random levels are round-tripped too.
"""

import os
import random
import subprocess
import zlib

import pytest

from amdgpu_tools.runtime.zstd import FRAME_MAGIC, ZstdError, decompress
from reftools import find_tool

from .conftest import data_path, read_data

SAMPLES = sorted(name[:-4] for name in os.listdir(data_path("zstd")) if name.endswith(".zst"))


def frame(blocks: bytes, content_size: int) -> bytes:
    """A single-segment frame (1-byte content size, no checksum) around ``blocks``."""
    return FRAME_MAGIC.to_bytes(4, "little") + bytes([0x20, content_size]) + blocks


def block(kind: int, body: bytes, last=True, size=None) -> bytes:
    header = int(last) | kind << 1 | (len(body) if size is None else size) << 3
    return header.to_bytes(3, "little") + body


@pytest.mark.parametrize("name", SAMPLES)
def test_recorded_frames(name):
    expected = zlib.decompress(read_data(f"zstd/{name}.zlib"))
    assert decompress(read_data(f"zstd/{name}.zst")) == expected


def test_samples_cover_the_forms():
    assert len(SAMPLES) == 9
    assert {"random-l3", "runs-l3", "text-l19", "x-runs-l19", "three-symbols-l1"} <= set(SAMPLES)


def test_random_round_trips_through_the_zstd_tool():
    tool = find_tool("zstd")
    if tool is None:
        pytest.skip("the zstd tool is not installed")
    generator = random.Random(20261122)
    for _ in range(12):
        alphabet = generator.choice([2, 3, 17, 256])
        runs = [bytes([generator.randrange(alphabet)]) * generator.choice([1, 1, 2, 9])
                for _ in range(generator.randrange(1, 40000))]
        data = b"".join(runs)
        level = str(generator.randrange(1, 20))
        compressed = subprocess.run([tool, "-q", "-c", f"-{level}"], input=data, check=True,
                                    capture_output=True).stdout
        assert decompress(compressed) == data, (alphabet, len(data), level)


def test_hand_built_blocks():
    """Raw and RLE blocks, RLE literals with no sequences, and a skippable frame."""
    rle_literals = block(2, bytes([1 | 7 << 3, ord("z")]) + bytes([0]))   # 7 x 'z', 0 sequences
    data = frame(block(0, b"abc", last=False) + block(1, b"-", size=4, last=False)
                 + rle_literals, 14)
    skippable = (0x184D2A55).to_bytes(4, "little") + (2).to_bytes(4, "little") + b"??"
    assert decompress(skippable + data + data) == b"abc----zzzzzzz" * 2


@pytest.mark.parametrize("data, message", [
    (b"\x28\xb5\x2f", "truncated frame magic"),
    (b"\x00\x00\x00\x00", "bad frame magic 0x00000000"),
    (frame(block(3, b""), 0), "reserved block type"),
    (frame(block(0, b"ab"), 5), "frame decoded to 2 bytes, its header states 5"),
    (frame(block(0, b"ab"), 2)[:-1], "truncated data"),
    (FRAME_MAGIC.to_bytes(4, "little") + bytes([0x21, 9, 0]), "needs dictionary 9"),
    (FRAME_MAGIC.to_bytes(4, "little") + bytes([0x28, 0]), "reserved bit"),
    (frame(block(2, bytes([3 | 0 << 2, 0x10, 0]) + b"\x80"), 1), "treeless literals"),
])
def test_corrupt_frames(data, message):
    with pytest.raises(ZstdError, match=message):
        decompress(data)


def test_damaged_recorded_frames_fail_cleanly():
    """Every single-byte change of a compressed frame either decodes to something
    or raises ZstdError: never another exception."""
    original = read_data("zstd/x-runs-l19.zst")
    generator = random.Random(7)
    for _ in range(150):
        damaged = bytearray(original)
        damaged[generator.randrange(len(damaged))] ^= 1 << generator.randrange(8)
        try:
            decompress(bytes(damaged))
        except ZstdError:
            pass


def test_output_limit():
    """Three bytes of RLE block claim 128 KB: the limit stops such bombs early."""
    bomb = FRAME_MAGIC.to_bytes(4, "little") + bytes([0x00, 0x00]) \
        + block(1, b"\0", last=False, size=128 * 1024) * 100 + block(0, b"")
    assert len(decompress(bomb[:6 + 4 * 4] + block(0, b""))) == 4 * 128 * 1024
    with pytest.raises(ZstdError, match="more than the expected 1000 bytes"):
        decompress(bomb, max_size=1000)

"""tools/png.py, the PNG reader/writer the browser tests and the README
pictures use: every row filter decoded against a byte-by-byte reference
encoder, palette pictures, round trips, and clear errors."""

import os
import struct
import sys
import zlib

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from tools.png import PngError, crop_to_content, read_png, write_png  # noqa: E402


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def reference_png(pixels, filters, colour_type=2, extra=b""):
    """A PNG written byte by byte as the specification says, row y filtered
    with ``filters[y]`` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth)."""
    height, width, channels = pixels.shape
    flat = pixels.reshape(height, width * channels).astype(int)
    out = bytearray()
    for y in range(height):
        kind = filters[y]
        out.append(kind)
        for i in range(width * channels):
            x = int(flat[y, i])
            a = int(flat[y, i - channels]) if i >= channels else 0
            b = int(flat[y - 1, i]) if y else 0
            c = int(flat[y - 1, i - channels]) if y and i >= channels else 0
            predictor = [0, a, b, (a + b) // 2, _paeth(a, b, c)][kind]
            out.append((x - predictor) % 256)
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra
            + chunk(b"IDAT", zlib.compress(bytes(out))) + chunk(b"IEND", b""))


@pytest.mark.parametrize("channels,colour_type", [(3, 2), (4, 6), (1, 0)])
def test_every_row_filter_decodes(channels, colour_type):
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, size=(15, 13, channels), dtype=np.uint8)
    pixels[5:9] = pixels[4]                 # smooth stretches as well as noise
    filters = [0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 4, 1, 3, 2, 4]
    assert (read_png(reference_png(pixels, filters, colour_type)) == pixels).all()
    # None/Up only: the column running-sum path
    assert (read_png(reference_png(pixels, [0, 2, 2, 0] * 3 + [2, 2, 2], colour_type))
            == pixels).all()


def test_palette_picture_expands_with_transparency():
    palette = np.array([[255, 255, 255], [242, 43, 13], [0, 0, 0]], np.uint8)
    indices = np.array([[0, 1, 2], [2, 1, 0]], np.uint8)[:, :, None]
    data = reference_png(indices, [0, 4], colour_type=3,
                         extra=chunk(b"PLTE", palette.tobytes()) + chunk(b"tRNS", b"\x00"))
    picture = read_png(data)
    assert picture.shape == (2, 3, 4)
    assert picture[0, 1].tolist() == [242, 43, 13, 255]
    assert picture[0, 0].tolist() == [255, 255, 255, 0]


def test_write_read_round_trip_and_crop():
    rng = np.random.default_rng(3)
    picture = np.full((40, 50, 3), 255, np.uint8)
    picture[10:20, 12:30] = rng.integers(0, 256, size=(10, 18, 3), dtype=np.uint8)
    data = write_png(picture)
    assert (read_png(data) == picture).all()
    cropped = crop_to_content(picture, margin=2)
    assert cropped.shape == (14, 22, 3)
    assert (read_png(write_png(cropped)) == cropped).all()


def test_errors_are_clear():
    good = write_png(np.zeros((2, 2, 3), np.uint8))
    with pytest.raises(PngError, match="signature"):
        read_png(b"GIF89a" + good[6:])
    broken = bytearray(good)
    broken[-20] ^= 0xFF                     # inside IDAT: its CRC no longer matches
    with pytest.raises(PngError, match="CRC"):
        read_png(bytes(broken))
    sixteen = bytearray(good)
    sixteen[24] = 16                        # bit depth 16: not read
    body = bytes(sixteen[12:29])
    sixteen[29:33] = struct.pack(">I", zlib.crc32(body))
    with pytest.raises(PngError, match="bit depth 16"):
        read_png(bytes(sixteen))

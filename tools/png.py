"""PNG pictures as NumPy arrays, without Pillow: ``read_png`` decodes the
8-bit, non-interlaced PNGs that Chromium's ``--screenshot`` and Graphviz's
``-Tpng`` write (greyscale, RGB, palette, with or without alpha; every row
filter), ``write_png`` encodes an RGB(A) array (the smallest of libpng's
per-row filter heuristic and one filter for every row, zlib level 9),
``crop_to_content`` trims uniform margins. Dev-time and test helpers (tests/analysis/test_browser.py,
tools/readme_pictures.py), not part of the package.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class PngError(ValueError):
    """A PNG this module cannot read (malformed, or a format it leaves out)."""


def _chunks(data: bytes):
    if data[:8] != SIGNATURE:
        raise PngError("not a PNG file (bad signature)")
    pos = 8
    while pos + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length:
            raise PngError(f"truncated {kind.decode('latin-1')} chunk")
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise PngError(f"bad CRC in {kind.decode('latin-1')} chunk")
        yield kind, body
        if kind == b"IEND":
            return
        pos += 12 + length
    raise PngError("no IEND chunk")


def _unfilter(raw: bytes, width: int, height: int, channels: int) -> np.ndarray:
    """Undo the row filters. Each pixel depends on its left, upper and
    upper-left neighbours (Sub, Up, Average, Paeth), so the pixels of one
    anti-diagonal (y + x constant) are computed together, all filter types at
    once: height + width - 1 NumPy steps."""
    stride = width * channels + 1
    if len(raw) < stride * height:
        raise PngError("image data shorter than the header says")
    rows = np.frombuffer(raw, np.uint8, count=stride * height).reshape(height, stride)
    kinds = rows[:, 0]
    if kinds.max(initial=0) > 4:
        raise PngError(f"unknown row filter {int(kinds.max())}")
    filtered = rows[:, 1:].reshape(height, width, channels).astype(np.int16)
    if np.isin(kinds, (0, 2)).all():
        # None and Up only (Graphviz's usual output): a running sum down the columns
        out = np.empty((height, width, channels), np.int16)
        previous = np.zeros((width, channels), np.int16)
        for y in range(height):
            previous = filtered[y] if kinds[y] == 0 else (filtered[y] + previous) & 255
            out[y] = previous
        return out.astype(np.uint8)
    # flat, with a zero row above and a zero column left of the picture
    row = width + 1
    out = np.zeros(((height + 1) * row, channels), np.int16)
    filtered = filtered.reshape(height * width, channels)
    kind = kinds.astype(np.int8)
    ys = np.arange(height)
    for d in range(height + width - 1):
        y = ys[max(0, d - width + 1):min(height, d + 1)]
        x = d - y
        at = (y + 1) * row + x + 1
        a, b, c = out[at - 1], out[at - row], out[at - row - 1]   # left, up, up-left
        pa, pb, pc = np.abs(b - c), np.abs(a - c), np.abs(a + b - 2 * c)
        paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
        k = kind[y][:, None]
        predictor = np.where(k == 4, paeth, np.where(k == 2, b, np.where(
            k == 1, a, np.where(k == 3, (a + b) >> 1, 0))))
        out[at] = (filtered[y * width + x] + predictor) & 255
    return out.reshape(height + 1, row, channels)[1:, 1:].astype(np.uint8)


def read_png(data: bytes) -> np.ndarray:
    """The picture as an array of shape (height, width, channels), uint8:
    RGB or RGBA (palette pictures expanded, greyscale as one or two channels)."""
    header = None
    palette = None
    transparency = None
    idat = []
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"tRNS":
            transparency = np.frombuffer(body, np.uint8)
        elif kind == b"IDAT":
            idat.append(body)
    if header is None:
        raise PngError("no IHDR chunk")
    width, height, depth, colour, _compression, _filter, interlace = header
    if depth != 8 or colour not in _CHANNELS:
        raise PngError(f"unsupported PNG format (bit depth {depth}, colour type {colour})")
    if interlace:
        raise PngError("interlaced PNGs are not supported")
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error as failure:
        raise PngError(f"bad image data: {failure}") from None
    pixels = _unfilter(raw, width, height, _CHANNELS[colour])
    if colour == 3:
        if palette is None:
            raise PngError("palette picture without a PLTE chunk")
        indices = pixels[:, :, 0]
        if transparency is not None:
            alpha = np.full(len(palette), 255, np.uint8)
            alpha[:len(transparency)] = transparency[:len(palette)]
            return np.dstack([palette[indices], alpha[indices]])
        return palette[indices]
    return pixels


def _filter_choices(pixels: np.ndarray):
    """The filtered rows, several ways: each row with the filter (None, Sub,
    Up, Paeth) whose output has the smallest sum of absolute values (as signed
    bytes: libpng's heuristic), and every row with one filter (None is often
    best for screenshots: long runs of one colour)."""
    p = pixels.astype(np.int16)
    height = p.shape[0]
    left = np.zeros_like(p)
    left[:, 1:] = p[:, :-1]
    up = np.zeros_like(p)
    up[1:] = p[:-1]
    upleft = np.zeros_like(p)
    upleft[1:, 1:] = p[:-1, :-1]
    pa, pb, pc = np.abs(up - upleft), np.abs(left - upleft), np.abs(left + up - 2 * upleft)
    paeth = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, upleft))
    candidates = np.stack([p, p - left, p - up, p - paeth]) & 255       # filters 0, 1, 2, 4
    codes = np.array([0, 1, 2, 4], np.uint8)
    signed = np.where(candidates > 127, 256 - candidates, candidates)
    best = signed.reshape(4, height, -1).sum(axis=2).argmin(axis=0)
    for choice in [best] + [np.full(height, k) for k in range(4)]:
        chosen = candidates[choice, np.arange(height)].reshape(height, -1).astype(np.uint8)
        yield np.hstack([codes[choice][:, None], chosen]).tobytes()


def write_png(pixels: np.ndarray) -> bytes:
    """An RGB or RGBA uint8 array (height, width, 3 or 4) as PNG bytes."""
    pixels = np.ascontiguousarray(pixels, np.uint8)
    if pixels.ndim != 3 or pixels.shape[2] not in (3, 4):
        raise PngError(f"expected an RGB or RGBA array, got shape {pixels.shape}")
    height, width, channels = pixels.shape

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2 if channels == 3 else 6, 0, 0, 0)
    data = min((zlib.compress(rows, 9) for rows in _filter_choices(pixels)), key=len)
    return SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def crop_to_content(pixels: np.ndarray, margin: int = 8) -> np.ndarray:
    """The picture without the rows and columns at its edges that are all the
    colour of its top-left pixel, keeping ``margin`` pixels of it."""
    background = pixels[0, 0]
    differs = (pixels != background).any(axis=2)
    rows = np.flatnonzero(differs.any(axis=1))
    cols = np.flatnonzero(differs.any(axis=0))
    if not len(rows):
        return pixels
    top, bottom = max(rows[0] - margin, 0), min(rows[-1] + margin + 1, pixels.shape[0])
    left, right = max(cols[0] - margin, 0), min(cols[-1] + margin + 1, pixels.shape[1])
    return pixels[top:bottom, left:right]

"""Clang offload bundles: the container hipcc and ``clang -x hip`` write.

``hipcc --genco`` and ``clang --cuda-device-only`` do not write a code object
but a bundle of them, one entry per offload target (plus an empty host entry),
so that one file can serve several GPUs. The HIP runtime picks the entry whose
target ID fits the device; this module does the same, so that compiler output
loads unchanged.

Layout (clang's ClangOffloadBundler documentation; all integers little-endian):
the 24-byte magic ``__CLANG_OFFLOAD_BUNDLE__``, a u64 entry count, then per
entry a u64 offset (from the start of the bundle), u64 size, u64 ID length and
the ID itself, ``<offload kind>-<triple>[-<target ID>]``, e.g.
``hipv4-amdgcn-amd-amdhsa--gfx900:xnack-``.

A compressed bundle (``clang-offload-bundler --compress``) is a ``CCOB`` header
(version 1-3: sizes and a truncated MD5 of the uncompressed bytes) followed by
the ordinary bundle compressed with zlib or zstd (``runtime.zstd``).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from dataclasses import dataclass

from ..errors import LoadError, TargetError
from ..isa.targets import TargetId, get_target
from . import zstd

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_MAGIC = b"CCOB"
ELF_MAGIC = b"\x7fELF"

#: the architecture component of the triples whose entries are GCN code objects
DEVICE_ARCH = "amdgcn"

#: CCOB: magic, version, method; then the version's fields (struct format, names)
COMPRESSED_COMMON = struct.Struct("<4sHH")
COMPRESSED_HEADERS = {
    1: (struct.Struct("<IQ"), ("uncompressed_size", "hash")),
    2: (struct.Struct("<IIQ"), ("file_size", "uncompressed_size", "hash")),
    3: (struct.Struct("<QQQ"), ("file_size", "uncompressed_size", "hash")),
}
#: llvm::compression::Format values of the CCOB method field
ZLIB, ZSTD = 0, 1
METHOD_NAMES = {ZLIB: "zlib", ZSTD: "zstd"}


@dataclass(frozen=True)
class BundleEntry:
    """One bundled file: its bundle ID and bytes."""

    bundle_id: str
    data: bytes

    @property
    def kind(self) -> str:
        return self.bundle_id.split("-", 1)[0]

    @property
    def triple(self) -> tuple:
        return tuple(self.bundle_id.split("-")[1:5])

    @property
    def is_device_code(self) -> bool:
        """A non-empty GCN code object (the host entry of a --genco bundle is empty)."""
        return len(self.triple) > 1 and self.triple[0] == DEVICE_ARCH and bool(self.data)

    @property
    def target_id(self) -> TargetId | None:
        """The target ID after the triple: the 4-part triple's form
        (``amdgcn-amd-amdhsa--gfx900``) and the older 3-part one
        (``amdgcn-amd-amdhsa-gfx900``)."""
        parts = self.bundle_id.split("-")[1:]
        if len(parts) >= 5:
            text = "-".join(parts[4:])
        elif len(parts) == 4:
            text = parts[3]
        else:
            return None
        if not text:
            return None
        try:
            return TargetId.parse(text)
        except TargetError as error:
            raise LoadError(f"bundle entry '{self.bundle_id}': {error}") from None


def is_offload_bundle(data: bytes) -> bool:
    return data[:len(BUNDLE_MAGIC)] == BUNDLE_MAGIC or data[:4] == COMPRESSED_MAGIC


def read_bundle(data: bytes) -> list[BundleEntry]:
    """The entries of a bundle, compressed or not; LoadError if malformed."""
    data = bytes(data)
    if data[:4] == COMPRESSED_MAGIC:
        data = decompress_bundle(data)
    if data[:len(BUNDLE_MAGIC)] != BUNDLE_MAGIC:
        raise LoadError("not a clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)")
    position = len(BUNDLE_MAGIC)
    (count,) = _unpack("<Q", data, position, "entry count")
    position += 8
    entries = []
    for index in range(count):
        offset, size, id_length = _unpack("<QQQ", data, position, f"entry {index} header")
        position += 24
        if position + id_length > len(data):
            raise LoadError(f"truncated offload bundle: ID of entry {index} ends past the "
                            f"file ({len(data)} bytes)")
        bundle_id = data[position:position + id_length].decode("ascii", "replace")
        position += id_length
        if offset + size > len(data):
            raise LoadError(f"truncated offload bundle: entry '{bundle_id}' (offset {offset}, "
                            f"size {size}) ends past the file ({len(data)} bytes)")
        entries.append(BundleEntry(bundle_id, data[offset:offset + size]))
    return entries


def _unpack(layout: str, data: bytes, position: int, what: str) -> tuple:
    if position + struct.calcsize(layout) > len(data):
        raise LoadError(f"truncated offload bundle: {what} at offset {position} ends past "
                        f"the file ({len(data)} bytes)")
    return struct.unpack_from(layout, data, position)


def decompress_bundle(data: bytes) -> bytes:
    """The ordinary bundle inside a CCOB one, checked against its size and hash."""
    if len(data) < COMPRESSED_COMMON.size:
        raise LoadError("truncated compressed offload bundle header")
    _, version, method = COMPRESSED_COMMON.unpack_from(data)
    if version not in COMPRESSED_HEADERS:
        raise LoadError(f"compressed offload bundle version {version} is not supported "
                        f"(known: {sorted(COMPRESSED_HEADERS)})")
    layout, names = COMPRESSED_HEADERS[version]
    start = COMPRESSED_COMMON.size + layout.size
    if len(data) < start:
        raise LoadError(f"truncated compressed offload bundle header (version {version})")
    header = dict(zip(names, layout.unpack_from(data, COMPRESSED_COMMON.size)))
    end = header.get("file_size") or len(data)
    if end > len(data) or end < start:
        raise LoadError(f"compressed offload bundle states {end} bytes, the file has "
                        f"{len(data)}")
    payload = _decompress(method, data[start:end], header["uncompressed_size"])
    if len(payload) != header["uncompressed_size"]:
        raise LoadError(f"compressed offload bundle: {len(payload)} bytes decompressed, the "
                        f"header states {header['uncompressed_size']}")
    if bundle_hash(payload) != header["hash"]:
        raise LoadError("compressed offload bundle: hash of the decompressed bytes differs "
                        "from the header's (corrupt file)")
    return payload


def bundle_hash(payload: bytes) -> int:
    """The CCOB header's hash: the first 8 bytes of the MD5 digest, little-endian."""
    return struct.unpack("<Q", hashlib.md5(payload).digest()[:8])[0]


def _decompress(method: int, compressed: bytes, size: int) -> bytes:
    """At most ``size`` bytes (plus one, to tell a longer payload) of ``compressed``."""
    if method == ZLIB:
        try:
            return zlib.decompressobj().decompress(compressed, size + 1)
        except zlib.error as failure:
            raise LoadError(f"compressed offload bundle: bad zlib data ({failure})") from None
    if method == ZSTD:
        try:
            return zstd.decompress(compressed, size + 1)
        except zstd.ZstdError as failure:
            raise LoadError(f"compressed offload bundle: bad zstd data ({failure})") from None
    raise LoadError(f"compressed offload bundle uses unknown compression method {method} "
                    f"(known: {', '.join(f'{k} {v}' for k, v in METHOD_NAMES.items())})")


def select_entry(entries: list[BundleEntry], target=None) -> BundleEntry:
    """The device code entry for ``target`` (a processor name, target ID such as
    ``gfx900:xnack-``, ``Target``, or None: the only device entry).

    An entry fits when its processor is the device's and every feature both
    state has the same setting; of several, the one stating the same features
    as the device (no more, no fewer) wins, as the HIP runtime prefers. A device
    that leaves a feature open takes either setting, and prefers it off: the
    executor has no XNACK replay and no SRAM ECC.
    """
    device_entries = [e for e in entries if e.is_device_code]
    listing = ", ".join(e.bundle_id for e in entries) or "none"
    if not device_entries:
        raise LoadError(f"offload bundle has no amdgcn code object (entries: {listing})")
    if target is None:
        if len(device_entries) == 1:
            return device_entries[0]
        raise LoadError(f"offload bundle has code objects for several targets ({listing}): "
                        "choose one with the device target (Device('gfx900'), --mcpu)")
    wanted = TargetId.of_device(target)
    fitting = [e for e in device_entries if _fits(e.target_id, wanted)]
    if not fitting:
        raise LoadError(f"offload bundle has no code object for {wanted} (entries: {listing})")
    best = max(_preference(e.target_id, wanted) for e in fitting)
    chosen = [e for e in fitting if _preference(e.target_id, wanted) == best]
    if len(chosen) > 1:
        raise LoadError(f"offload bundle has several code objects for {wanted} ("
                        f"{', '.join(e.bundle_id for e in chosen)}): name the features, "
                        f"e.g. {chosen[0].target_id}")
    return chosen[0]


def _canonical_processor(target_id: TargetId | None) -> str | None:
    if target_id is None:
        return None
    try:
        return get_target(target_id.processor).name
    except TargetError:
        return None                  # a processor outside GFX6-GFX9 fits no device here


def _fits(entry: TargetId | None, device: TargetId) -> bool:
    if _canonical_processor(entry) != device.processor:
        return False
    return all(device.setting(name) in (None, on) for name, on in entry.features)


def _preference(entry: TargetId, device: TargetId) -> tuple:
    """First the fewest features (of either) that the entry and device state
    differently, "any" included; then the most features the entry turns off."""
    names = {n for n, _ in entry.features} | {n for n, _ in device.features}
    differing = sum(entry.setting(n) != device.setting(n) for n in names)
    return -differing, sum(not on for _, on in entry.features)


def unbundle(data: bytes, target=None) -> bytes:
    """``data`` itself unless it is an offload bundle; else the code object of
    the entry for ``target`` (see ``select_entry``)."""
    if not is_offload_bundle(data):
        return data
    entry = select_entry(read_bundle(data), target)
    if entry.data[:4] != ELF_MAGIC:
        raise LoadError(f"offload bundle entry '{entry.bundle_id}' is not an ELF code object "
                        "(bitcode or assembly bundles are not loadable)")
    return entry.data

"""Address computation for vector memory instructions, vectorised over lanes.

Every function here works on whole batches of waves at once: per-lane values
are arrays shaped ``(waves, 64)`` and per-wave values arrays shaped
``(waves,)``.  Nothing here touches memory; it only turns register contents
into addresses and tells which lanes are in range.  The three address spaces
a GCN kernel can reach are:

* global memory: a 64-bit device address (``DeviceMemory``);
* LDS (the group segment): a 32-bit byte offset into the work-group's LDS;
* private (scratch) memory: a 32-bit byte offset into the lane's private
  segment, stored lane-interleaved ("swizzled") in a per-dispatch backing
  allocation, exactly as the private segment buffer V# describes.

A flat address selects one of the three by its high 32 bits (the apertures).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .memo import read_only_memo

WAVE_SIZE = 64

#: Segment codes returned by ``classify_flat``.
SEGMENT_GLOBAL = 0
SEGMENT_LDS = 1
SEGMENT_PRIVATE = 2

#: V# ELEMENT_SIZE and INDEX_STRIDE field encodings -> bytes / elements.
ELEMENT_SIZES = (2, 4, 8, 16)
INDEX_STRIDES = (8, 16, 32, 64)

_U32 = np.uint32
_U64 = np.uint64
_MASK32 = np.uint64(0xFFFFFFFF)

#: Lane numbers of one wave, broadcastable against (waves, 64).
LANE_IDS = np.arange(WAVE_SIZE, dtype=np.uint64)


def _bits(word: np.ndarray, low: int, width: int) -> np.ndarray:
    return (word >> _U32(low)) & _U32((1 << width) - 1)


# ----------------------------------------------------------------- V# resource
@dataclass
class BufferResource:
    """The fields of a buffer resource descriptor (V#), one entry per wave.

    The layout is that of the GCN ISA manuals' "Buffer Resource" table:
    dword0 base[31:0]; dword1 base[47:32], stride[29:16], cache_swizzle[30],
    swizzle_enable[31]; dword2 num_records; dword3 dst_sel_x/y/z/w[11:0],
    num_format[14:12], data_format[18:15], element_size[20:19],
    index_stride[22:21], add_tid_enable[23].
    """

    base: np.ndarray            # uint64
    stride: np.ndarray          # uint64, bytes
    num_records: np.ndarray     # uint64
    swizzle_enable: np.ndarray  # bool
    element_size: np.ndarray    # uint64, bytes
    index_stride: np.ndarray    # uint64, elements
    add_tid_enable: np.ndarray  # bool
    num_format: np.ndarray      # uint32
    data_format: np.ndarray     # uint32
    dst_sel: np.ndarray         # uint32, (waves, 4)


#: Where the V# fields other than the whole dwords (base[31:0] is dword 0,
#: num_records dword 2) lie: name -> (dword, lowest bit, width). The
#: interpreter decodes whole batches by it (``decode_buffer_resource``), a
#: compiled block one wave's descriptor (exec/compiled/kernels.py).
V_SHARP_FIELDS = {"base_high": (1, 0, 16), "stride": (1, 16, 14), "swizzle_enable": (1, 31, 1),
                  "num_format": (3, 12, 3), "data_format": (3, 15, 4),
                  "element_size": (3, 19, 2), "index_stride": (3, 21, 2),
                  "add_tid_enable": (3, 23, 1)}


#: Decoded V#s by (dwords, generation): a kernel uses a few descriptors again
#: and again (-O0 code reaches scratch through one V# at every spill), and
#: decoding one costs far more than looking it up. The fields are read-only.
_DECODED_RESOURCES = {}
_DECODED_RESOURCES_LIMIT = 256


def decode_buffer_resource(words: np.ndarray, generation: int = 9) -> BufferResource:
    """Split V# dwords (shape ``(waves, 4)``, uint32) into their fields
    (memoised; see ``_split_buffer_resource``)."""
    words = np.asarray(words, dtype=_U32)
    return read_only_memo(_DECODED_RESOURCES, _DECODED_RESOURCES_LIMIT,
                          (words.tobytes(), generation),
                          lambda: _split_buffer_resource(words, generation))


def _split_buffer_resource(words: np.ndarray, generation: int) -> BufferResource:
    """Split V# dwords (shape ``(waves, 4)``, uint32) into their fields, the
    stride and swizzle element by ``record_stride`` and ``swizzle_element``."""
    words = np.asarray(words, dtype=_U32).reshape(-1, 4)

    def bits(name):
        dword, low, width = V_SHARP_FIELDS[name]
        return _bits(words[:, dword], low, width).astype(_U64)
    base = words[:, 0].astype(_U64) | (bits("base_high") << _U64(32))
    add_tid = bits("add_tid_enable")
    data_format = bits("data_format")
    dst_sel = np.stack([_bits(words[:, 3], 3 * i, 3) for i in range(4)], axis=1)
    return BufferResource(
        base=base,
        stride=record_stride(bits("stride"), data_format, add_tid, generation),
        num_records=words[:, 2].astype(_U64),
        swizzle_enable=bits("swizzle_enable").astype(bool),
        element_size=np.broadcast_to(swizzle_element(bits("element_size"), generation),
                                     base.shape),
        index_stride=INDEX_STRIDE_TABLE[bits("index_stride")],
        add_tid_enable=add_tid.astype(bool),
        num_format=bits("num_format").astype(_U32),
        data_format=data_format.astype(_U32),
        dst_sel=dst_sel,
    )


#: ELEMENT_SIZES and INDEX_STRIDES as arrays a field's code indexes, in the
#: interpreter's decode and in a compiled block alike.
ELEMENT_SIZE_TABLE = np.asarray(ELEMENT_SIZES, _U64)
INDEX_STRIDE_TABLE = np.asarray(INDEX_STRIDES, _U64)


def record_stride(stride, data_format, add_tid, generation):
    """A V#'s record stride in bytes from its STRIDE, DATA_FORMAT and
    ADD_TID_ENABLE fields (uint64): on GFX8/GFX9 a descriptor with
    ADD_TID_ENABLE takes stride bits [17:14] from DATA_FORMAT, which is why
    LLVM clears DATA_FORMAT in its scratch V#. Element by element on arrays
    or on one wave's scalars: compiled blocks call it too."""
    if generation == 8 or generation == 9:
        return stride | ((data_format * add_tid) << _U64(14))
    return stride


def swizzle_element(element_size, generation):
    """The swizzle element in bytes for the ELEMENT_SIZE field's code
    (uint64): GFX9 has no such field, its element is always 4 bytes. Element
    by element on arrays or scalars, as ``record_stride``."""
    if generation >= 9:
        return _U64(4)
    return ELEMENT_SIZE_TABLE[element_size]


def range_checked_by_bytes(stride, swizzled, idxen, generation):
    """Whether an access is range-checked as a raw buffer, by byte offset
    against NUM_RECORDS, rather than as a structured one, by record index:
    GFX9 decides by the instruction's IDXEN bit; before GFX9 the V# does, a
    stride of 0 or a swizzled layout making it raw. Element by element on
    arrays or scalars, as ``record_stride``."""
    if generation >= 9:
        return not idxen
    return (stride == 0) | swizzled


def encode_buffer_resource(base: int, *, stride: int = 0, num_records: int = 0xFFFFFFFF,
                           swizzle_enable: bool = False, element_size: int = 4,
                           index_stride: int = 64, add_tid_enable: bool = False,
                           num_format: int = 0, data_format: int = 0,
                           dst_sel: tuple = (4, 5, 6, 7)) -> tuple:
    """The four dwords of a V#; the inverse of ``decode_buffer_resource``."""
    word0 = base & 0xFFFFFFFF
    word1 = ((base >> 32) & 0xFFFF) | ((stride & 0x3FFF) << 16) | (int(swizzle_enable) << 31)
    word3 = 0
    for i, sel in enumerate(dst_sel):
        word3 |= (sel & 7) << (3 * i)
    word3 |= (num_format & 7) << 12
    word3 |= (data_format & 0xF) << 15
    word3 |= ELEMENT_SIZES.index(element_size) << 19
    word3 |= INDEX_STRIDES.index(index_stride) << 21
    word3 |= int(add_tid_enable) << 23
    return (word0, word1, num_records & 0xFFFFFFFF, word3)


@dataclass
class BufferAccess:
    """Per-lane, per-component addresses of a buffer access and their validity.

    ``addresses`` has shape ``(waves, 64, components)``; ``in_range`` the same.
    """

    addresses: np.ndarray
    in_range: np.ndarray


def buffer_addresses(rsrc: BufferResource, *, index: np.ndarray | None,
                     offset: np.ndarray | None, soffset: np.ndarray,
                     inst_offset: int, components: int, component_bytes: int,
                     whole_access: bool = False,
                     addr64: np.ndarray | None = None,
                     generation: int) -> BufferAccess:
    """MUBUF/MTBUF addressing as the GCN manuals' "Buffer Addressing" gives it.

    ``index`` / ``offset`` are the per-lane VGPR values (None when IDXEN /
    OFFEN is clear), ``soffset`` the per-wave SGPR offset.  A linear buffer
    addresses ``base + soffset + offset + inst_offset + stride * index``; a
    swizzled one interleaves elements of consecutive indices.  Range checks
    leave out ``soffset``, as the hardware does: raw buffers check the byte
    offset against ``num_records``, structured buffers the index (and that
    the offset starts inside the ``stride``-byte record), which of the two
    by ``range_checked_by_bytes`` for the ``generation`` (IDXEN: an index).
    ``whole_access`` makes the check all-or-nothing (format loads and
    atomics); otherwise each component is checked alone.
    ``addr64`` (GFX6/7) replaces index/offset with a 64-bit VGPR address and
    disables range checking.
    """
    waves = rsrc.base.shape[0]
    shape = (waves, WAVE_SIZE)
    base = rsrc.base[:, None]
    sgpr = np.asarray(soffset, dtype=_U64).reshape(waves, 1)
    comp = (np.arange(components, dtype=_U64) * _U64(component_bytes))
    if addr64 is not None:
        start = base + np.asarray(addr64, _U64) + sgpr + _U64(inst_offset)
        addresses = start[:, :, None] + comp
        return BufferAccess(addresses, np.ones(addresses.shape, bool))
    idx = _lane_indices(rsrc, index, shape)
    off = (np.zeros(shape, _U64) if offset is None else np.asarray(offset, _U64) & _MASK32)
    off = (off + _U64(inst_offset)) & _MASK32
    comp_off = off[:, :, None] + comp                      # (waves, 64, components)
    swizzle = rsrc.swizzle_enable
    if swizzle.all():              # the private segment V#: no linear layout to mix in
        addresses = _swizzle(rsrc, base + sgpr, idx, comp_off)
    else:
        linear = base + sgpr + rsrc.stride[:, None] * idx
        addresses = linear[:, :, None] + comp_off
        if swizzle.any():
            swizzled = _swizzle(rsrc, base + sgpr, idx, comp_off)
            addresses = np.where(swizzle[:, None, None], swizzled, addresses)
    raw = np.broadcast_to(
        range_checked_by_bytes(rsrc.stride, swizzle, index is not None, generation), (waves,))
    in_range = _buffer_in_range(rsrc, raw, idx, comp_off, component_bytes, whole_access)
    return BufferAccess(addresses, in_range)


def _lane_indices(rsrc, index, shape):
    """Each lane's index: the IDXEN VGPR (else 0) plus, with ADD_TID_ENABLE, its
    lane number (the common cases, all or no waves adding it, skip the select)."""
    idx = np.zeros(shape, _U64) if index is None else np.asarray(index, _U64) & _MASK32
    add_tid = rsrc.add_tid_enable
    if add_tid.all():
        return idx + LANE_IDS[None, :]
    if not add_tid.any():
        return idx
    return idx + np.where(add_tid[:, None], LANE_IDS[None, :], _U64(0))


def _swizzle(rsrc, start, idx, comp_off):
    """Swizzled layout: element-sized pieces of consecutive indices interleave."""
    return swizzled_address(start[:, :, None], idx[:, :, None], comp_off,
                            rsrc.element_size[:, None, None], rsrc.index_stride[:, None, None],
                            rsrc.stride[:, None, None])


def swizzled_address(start, index, offset, element, index_stride, stride):
    """The backing address of byte ``offset`` of record ``index`` in a
    swizzled buffer from ``start`` (the manuals' swizzled "Buffer
    Addressing"): records come in runs of ``index_stride``, each ``stride``
    bytes, whose ``element``-sized pieces interleave. Element by element on
    arrays (uint64) or on one lane's scalars: compiled blocks call it too."""
    inner = ((index // index_stride) * stride + (offset // element) * element) * index_stride
    return start + inner + (index % index_stride) * element + offset % element


def _buffer_in_range(rsrc, raw, idx, comp_off, component_bytes, whole_access):
    """Which components are in range: raw buffers check bytes, structured ones
    the index (each check computed only when some wave needs it)."""
    records = rsrc.num_records[:, None, None]
    all_raw = raw.all()
    if all_raw or raw.any():
        raw_ok = comp_off + _U64(component_bytes) <= records
        if whole_access:
            raw_ok = np.broadcast_to(raw_ok.all(axis=2, keepdims=True), raw_ok.shape)
        if all_raw:
            return raw_ok
    # a structured access must also start inside its record
    start_ok = comp_off[:, :, :1] < rsrc.stride[:, None, None]
    structured_ok = np.broadcast_to((idx[:, :, None] < records) & start_ok, comp_off.shape)
    if not raw.any():
        return structured_ok
    return np.where(raw[:, None, None], raw_ok, structured_ok)


# ------------------------------------------------------------ private memory
def swizzled_private_address(wave_base: np.ndarray, offset: np.ndarray,
                             element_size: int = 4, index_stride: int = 64) -> np.ndarray:
    """Backing address of private byte ``offset`` of each lane.

    ``wave_base`` (per wave) is where the wave's private area starts; lanes'
    private segments are interleaved in ``element_size`` pieces, the layout
    of the private segment buffer V# (swizzled, ADD_TID_ENABLE, stride 0).
    """
    offset = np.asarray(offset, _U64)
    lanes = LANE_IDS.reshape((1, WAVE_SIZE) + (1,) * (offset.ndim - 2))
    wave_base = np.asarray(wave_base, _U64).reshape((-1,) + (1,) * (offset.ndim - 1))
    return swizzled_address(wave_base, lanes, offset, _U64(element_size), _U64(index_stride),
                            _U64(0))


# ------------------------------------------------------------ flat apertures
def classify_flat(addresses: np.ndarray, shared_base: int, private_base: int) -> np.ndarray:
    """Which segment each flat address falls in (SEGMENT_GLOBAL/LDS/PRIVATE).

    An aperture is the 4 GiB range whose high 32 bits equal the aperture
    base's high 32 bits; every other address is global.
    """
    high = np.asarray(addresses, _U64) >> _U64(32)
    segment = np.full(high.shape, SEGMENT_GLOBAL, np.uint8)
    segment[high == _U64(shared_base >> 32)] = SEGMENT_LDS
    segment[high == _U64(private_base >> 32)] = SEGMENT_PRIVATE
    return segment


def flat_scratch_wave_base(flat_scratch: np.ndarray, generation: int,
                           hidden_private_base: int) -> np.ndarray:
    """Start of each wave's private area, from its FLAT_SCRATCH register.

    GFX9 holds a 64-bit address in FLAT_SCRATCH.  GFX7/8 hold the per-lane
    size in FLAT_SCRATCH_LO and, in FLAT_SCRATCH_HI, the wave's offset from
    the queue's hidden private base in 256-byte units.
    """
    flat_scratch = np.asarray(flat_scratch, _U64)
    if generation >= 9:
        return flat_scratch
    return _U64(hidden_private_base) + ((flat_scratch >> _U64(32)) << _U64(8))

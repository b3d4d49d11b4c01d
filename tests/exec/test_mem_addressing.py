"""Buffer descriptors, buffer address computation and range checks, apertures."""

import numpy as np

from amdgpu_tools.exec import addressing as ad

BASE = 0x1_2345_6700


def rsrc(**kwargs):
    words = np.array([ad.encode_buffer_resource(BASE, **kwargs)], np.uint32)
    return ad.decode_buffer_resource(words, generation=9)


def lanes(values):
    return np.asarray(values, np.uint64).reshape(1, 64)


def test_descriptor_round_trip_and_known_words():
    words = ad.encode_buffer_resource(0x0000_8765_4321_0000, stride=16, num_records=100,
                                      swizzle_enable=True, element_size=4, index_stride=64,
                                      add_tid_enable=True, num_format=4, data_format=4)
    # word1: base[47:32] | stride << 16 | swizzle << 31
    assert words[1] == 0x8765 | (16 << 16) | (1 << 31)
    assert words[2] == 100
    assert words[3] == 0xFAC | (4 << 12) | (4 << 15) | (1 << 19) | (3 << 21) | (1 << 23)
    decoded = ad.decode_buffer_resource(np.array([words], np.uint32), generation=7)
    assert int(decoded.base[0]) == 0x8765_4321_0000
    assert int(decoded.stride[0]) == 16
    assert decoded.dst_sel[0].tolist() == [4, 5, 6, 7]
    # GFX8/9: with ADD_TID_ENABLE, DATA_FORMAT supplies stride bits [17:14]
    gfx9 = ad.decode_buffer_resource(np.array([words], np.uint32), generation=9)
    assert int(gfx9.stride[0]) == 16 | (4 << 14)


def test_raw_buffer_offset_and_per_component_range():
    r = rsrc(num_records=260)
    offset = lanes(np.arange(64) * 4)
    access = ad.buffer_addresses(r, index=None, offset=offset, soffset=np.array([0x100]),
                                 inst_offset=8, components=2, component_bytes=4,
                                 generation=9)
    assert access.addresses[0, 3].tolist() == [BASE + 0x100 + 12 + 8, BASE + 0x100 + 12 + 12]
    # range ignores soffset: component bytes [o, o + 4) must lie below 260
    ends = (np.arange(64) * 4 + 8)[:, None] + np.array([4, 8])
    assert access.in_range[0].tolist() == (ends <= 260).tolist()


def test_whole_access_range_is_all_or_nothing():
    r = rsrc(num_records=10)
    access = ad.buffer_addresses(r, index=None, offset=lanes(np.arange(64)), soffset=[0],
                                 inst_offset=0, components=2, component_bytes=4,
                                 whole_access=True,
                                 generation=9)
    assert access.in_range[0, :3].tolist() == [[True, True], [True, True], [True, True]]
    assert access.in_range[0, 3].tolist() == [False, False]


def test_structured_buffer_checks_index():
    r = rsrc(stride=12, num_records=5)
    index = lanes(np.arange(64))
    access = ad.buffer_addresses(r, index=index, offset=lanes(np.full(64, 4)), soffset=[0],
                                 inst_offset=0, components=1, component_bytes=4,
                                 generation=9)
    assert access.addresses[0, :, 0].tolist() == (BASE + 12 * np.arange(64) + 4).tolist()
    assert access.in_range[0, :, 0].tolist() == (np.arange(64) < 5).tolist()


def test_swizzled_private_buffer_interleaves_lanes():
    """The private segment V#: 4-byte elements of the 64 lanes interleave."""
    r = rsrc(swizzle_enable=True, add_tid_enable=True, element_size=4, index_stride=64)
    offset = lanes(np.full(64, 8))
    access = ad.buffer_addresses(r, index=None, offset=offset, soffset=[0x400],
                                 inst_offset=4, components=2, component_bytes=4,
                                 generation=9)
    lane = np.arange(64)
    # byte 12 of a lane is element 3: base + soffset + 3 * 4 * 64 + lane * 4
    assert access.addresses[0, :, 0].tolist() == (BASE + 0x400 + 3 * 256 + lane * 4).tolist()
    assert access.addresses[0, :, 1].tolist() == (BASE + 0x400 + 4 * 256 + lane * 4).tolist()
    same = ad.swizzled_private_address(np.array([BASE + 0x400]), lanes(np.full(64, 12)))
    assert same[0].tolist() == access.addresses[0, :, 0].tolist()


def test_gfx9_swizzle_element_is_always_four_bytes():
    words = np.array([ad.encode_buffer_resource(BASE, element_size=16)], np.uint32)
    assert int(ad.decode_buffer_resource(words, generation=9).element_size[0]) == 4
    assert int(ad.decode_buffer_resource(words, generation=8).element_size[0]) == 16


def test_swizzled_structured_with_index_stride():
    words = np.array([ad.encode_buffer_resource(BASE, swizzle_enable=True, stride=16,
                                                element_size=8, index_stride=8)], np.uint32)
    r = ad.decode_buffer_resource(words, generation=8)
    index = lanes(np.arange(64))
    access = ad.buffer_addresses(r, index=index, offset=lanes(np.full(64, 12)), soffset=[0],
                                 inst_offset=0, components=1, component_bytes=4,
                                 generation=8)
    i = np.arange(64)
    # manual formula: (index_msb * stride + offset_msb * elem) * index_stride
    #                 + index_lsb * elem + offset_lsb
    expected = BASE + ((i // 8) * 16 + (12 // 8) * 8) * 8 + (i % 8) * 8 + 12 % 8
    assert access.addresses[0, :, 0].tolist() == expected.tolist()


def test_addr64_skips_range_checks():
    r = rsrc(num_records=0)
    access = ad.buffer_addresses(r, index=None, offset=None, soffset=[4], inst_offset=16,
                                 components=1, component_bytes=4,
                                 addr64=lanes(np.arange(64) * 0x10000),
                                 generation=9)
    assert access.addresses[0, 1, 0] == BASE + 0x10000 + 4 + 16
    assert access.in_range.all()


def test_classify_flat_apertures():
    shared, private = 0x1_0000_0000_0000, 0x2_0000_0000_0000
    addresses = np.array([[shared + 4, private + 8, 0x1_0000_0000, shared - 1]], np.uint64)
    assert ad.classify_flat(addresses, shared, private).tolist() == [
        [ad.SEGMENT_LDS, ad.SEGMENT_PRIVATE, ad.SEGMENT_GLOBAL, ad.SEGMENT_GLOBAL]]


def test_flat_scratch_wave_base_per_generation():
    assert ad.flat_scratch_wave_base(np.array([0x1_0000_0400], np.uint64), 9, 0)[0] == \
        0x1_0000_0400
    # GFX8: HI holds the offset in 256-byte units, LO the per-lane size
    value = np.array([(3 << 32) | 16], np.uint64)
    assert ad.flat_scratch_wave_base(value, 8, 0x5000_0000)[0] == 0x5000_0000 + 3 * 256


def test_gfx9_idxen_decides_raw_or_structured():
    r = rsrc(stride=16, num_records=3)
    offset = lanes(np.arange(64))
    raw = ad.buffer_addresses(r, index=None, offset=offset, soffset=[0], inst_offset=0,
                              components=1, component_bytes=1, generation=9)
    assert raw.in_range[0, :, 0].tolist() == (np.arange(64) < 3).tolist()
    index = lanes(np.arange(64) % 5)
    structured = ad.buffer_addresses(r, index=index, offset=None, soffset=[0], inst_offset=0,
                                     components=1, component_bytes=4, generation=9)
    assert structured.in_range[0, :, 0].tolist() == (np.arange(64) % 5 < 3).tolist()

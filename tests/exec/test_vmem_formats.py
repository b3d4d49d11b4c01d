"""Typed buffer access with the packed data formats (10_11_11, 11_11_10,
10_10_10_2, 2_10_10_10) under every numeric format that applies.

Expected values are computed here from the format tables (channel widths,
X in the lowest bits; LLVM names the formats most significant channel
first) with NumPy and math, not with the executor's conversion code.
"""

import math

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from .test_mem_support import make_state, run
from .test_mem_vmem import dispatch_state, flat, mubuf, with_buffer

LANE = np.arange(64)
#: dfmt code -> channel widths, X first (from the manuals' data format table)
PACKED = {6: (11, 11, 10), 7: (10, 11, 11), 8: (2, 10, 10, 10), 9: (10, 10, 10, 2)}
UNORM, SNORM, USCALED, SSCALED, UINT, SINT, FLOAT = 0, 1, 2, 3, 4, 5, 7


def pack_words(codes, widths):
    """Channel codes (64, channels) -> dwords, X in the low bits."""
    words = np.zeros(codes.shape[0], np.uint64)
    shift = 0
    for c, width in enumerate(widths):
        words |= codes[:, c].astype(np.uint64) << np.uint64(shift)
        shift += width
    return words.astype(np.uint32)


def unpack_words(words, widths):
    out, shift = [], 0
    for width in widths:
        out.append([(int(w) >> shift) & ((1 << width) - 1) for w in words])
        shift += width
    return np.array(out).T


def signed(code, width):
    return code - (1 << width) if code >> (width - 1) else code


def small_float(code, width):
    """Unsigned float with a 5-bit exponent (bias 15) and width-5 mantissa bits."""
    mbits = width - 5
    exponent, mantissa = code >> mbits, code & ((1 << mbits) - 1)
    if exponent == 31:
        return math.inf if mantissa == 0 else math.nan
    if exponent == 0:
        return math.ldexp(mantissa, -14 - mbits)
    return math.ldexp((1 << mbits) + mantissa, exponent - 15 - mbits)


def expected_register(code, width, nfmt):
    """One channel's 32-bit register value for a code, as the tables define it."""
    if nfmt == UINT:
        return code
    if nfmt == SINT:
        return signed(code, width) & 0xFFFFFFFF
    value = {UNORM: lambda: code / ((1 << width) - 1),
             SNORM: lambda: max(signed(code, width) / ((1 << (width - 1)) - 1), -1.0),
             USCALED: lambda: float(code),
             SSCALED: lambda: float(signed(code, width)),
             FLOAT: lambda: small_float(code, width)}[nfmt]()
    return int(np.array(value, np.float32).view(np.uint32))


def load_xyzw(state, buf, dfmt, nfmt, count=4):
    op = {1: "x", 2: "xy", 3: "xyz", 4: "xyzw"}[count]
    run(state, f"tbuffer_load_format_{op}", "MTBUF",
        mubuf(vaddr=0, vdata=4, offen=1, dfmt=dfmt, nfmt=nfmt))
    return np.stack([state.vgpr[4 + c, 0] for c in range(count)], axis=1)


def setup_buffer(words):
    state = make_state(waves=1)
    buf = with_buffer(state, 256, words)
    state.sgpr[8:12] = np.array([buf & 0xFFFFFFFF, buf >> 32, 256, 0xFAC], np.uint32)[:, None]
    state.vgpr[0] = LANE * 4
    return state, buf


@pytest.mark.parametrize("dfmt", sorted(PACKED))
@pytest.mark.parametrize("nfmt", [UNORM, SNORM, USCALED, SSCALED, UINT, SINT])
def test_packed_format_loads(dfmt, nfmt):
    widths = PACKED[dfmt]
    rng = np.random.default_rng(dfmt * 10 + nfmt)
    codes = np.stack([rng.integers(0, 1 << w, 64) for w in widths], axis=1)
    codes[0] = [(1 << w) - 1 for w in widths]            # all ones: max / -1
    codes[1] = [1 << (w - 1) for w in widths]            # most negative for signed
    codes[2] = 0
    state, _ = setup_buffer(pack_words(codes, widths))
    got = load_xyzw(state, None, dfmt, nfmt)
    for lane in range(64):
        want = [expected_register(int(codes[lane, c]), w, nfmt) for c, w in enumerate(widths)]
        if len(widths) == 3:                             # a missing W reads as 1
            want.append(1 if nfmt in (UINT, SINT) else 0x3F800000)
        assert got[lane].tolist() == want, (lane, codes[lane])


def test_snorm_of_the_most_negative_code_clamps_to_minus_one():
    state, _ = setup_buffer(pack_words(np.array([[2, 512, 512, 512]] * 64), PACKED[8]))
    got = load_xyzw(state, None, 8, SNORM).view(np.float32)
    assert got[0].tolist() == [-1.0, -1.0, -1.0, -1.0]


@pytest.mark.parametrize("dfmt", [6, 7])
def test_small_float_loads_cover_denormals_infinity_and_nan(dfmt):
    widths = PACKED[dfmt]
    table = []
    for width in widths:
        mbits = width - 5
        table.append([15 << mbits, 14 << mbits, 1, (1 << mbits) - 1, 31 << mbits,
                      (31 << mbits) | 1, (30 << mbits) | ((1 << mbits) - 1), 0])
    codes = np.array(table).T
    codes = np.resize(codes, (64, 3))
    state, _ = setup_buffer(pack_words(codes, widths))
    got = load_xyzw(state, None, dfmt, FLOAT, count=3).view(np.float32)
    for lane in range(8):
        for c, width in enumerate(widths):
            want = small_float(int(codes[lane, c]), width)
            if math.isnan(want):
                assert np.isnan(got[lane, c])
            else:
                assert got[lane, c] == np.float32(want), (lane, c)
    assert got[0].tolist() == [1.0, 1.0, 1.0] and got[1].tolist() == [0.5, 0.5, 0.5]
    assert got[6, 0] == (65024.0 if widths[0] == 11 else 64512.0)   # largest finite


def store_xyzw(state, values, dfmt, nfmt, count=4):
    op = {1: "x", 2: "xy", 3: "xyz", 4: "xyzw"}[count]
    for c in range(count):
        state.vgpr[10 + c] = np.asarray(values[:, c]).astype(np.int64).astype(np.uint32)
    run(state, f"tbuffer_store_format_{op}", "MTBUF",
        mubuf(vaddr=0, vdata=10, offen=1, dfmt=dfmt, nfmt=nfmt))
    words = np.frombuffer(state.memory.read(state.buf, 256), np.uint32)
    return unpack_words(words, PACKED[dfmt])


def store_state():
    state, buf = setup_buffer(np.zeros(64, np.uint32))
    state.buf = buf
    return state


@pytest.mark.parametrize("dfmt", sorted(PACKED))
def test_unorm_and_snorm_stores_clamp_and_round(dfmt):
    widths = PACKED[dfmt]
    floats = np.resize(np.array([0.0, 1.0, 0.25, -0.5, 1.5, np.nan, 0.7, -1.0], np.float32),
                       (64, len(widths)))
    bits = floats.view(np.uint32)
    for nfmt in (UNORM, SNORM):
        got = store_xyzw(store_state(), bits, dfmt, nfmt, len(widths))
        for lane in range(8):
            for c, width in enumerate(widths):
                value = float(floats[lane, c])
                value = 0.0 if math.isnan(value) else value
                if nfmt == UNORM:
                    want = round(min(max(value, 0.0), 1.0) * ((1 << width) - 1))
                else:
                    want = round(min(max(value, -1.0), 1.0) * ((1 << (width - 1)) - 1))
                    want &= (1 << width) - 1
                assert got[lane, c] == want, (nfmt, lane, c, value)


@pytest.mark.parametrize("dfmt", sorted(PACKED))
def test_integer_stores_keep_the_low_bits(dfmt):
    widths = PACKED[dfmt]
    values = np.random.default_rng(dfmt).integers(-2 ** 31, 2 ** 31, (64, len(widths)))
    for nfmt in (UINT, SINT):
        got = store_xyzw(store_state(), values, dfmt, nfmt, len(widths))
        want = np.stack([values[:, c] & ((1 << w) - 1) for c, w in enumerate(widths)], axis=1)
        assert got.tolist() == want.tolist()


@pytest.mark.parametrize("dfmt", [6, 7])
def test_small_float_stores_round_to_nearest_even(dfmt):
    widths = PACKED[dfmt]
    values = np.array([1.0, 0.5, 2.0 ** -20, 1 + 1 / 128, 1 + 3 / 128, -3.0, np.inf, 1e6,
                       np.nan, 0.0, 65024.0, 2.0 ** -14], np.float32)
    floats = np.resize(values, (64, 3))
    floats[:12] = values[:, None]
    got = store_xyzw(store_state(), floats.view(np.uint32), dfmt, FLOAT, 3)
    for c, width in enumerate(widths):
        mbits = width - 5
        inf = 31 << mbits
        want = [15 << mbits, 14 << mbits, (1 << (mbits - 6)) if mbits == 6 else None,
                15 << mbits,                     # 1 + 1/128: a tie (11-bit) or below half
                None, 0, inf, inf, None, 0, None, 1 << mbits]
        if mbits == 6:
            want[4] = (15 << mbits) | 2          # 1 + 3/128: tie between m=1 and m=2 -> even
            want[10] = (30 << mbits) | 63        # the largest finite 11-bit float
        else:
            want[2] = 0                          # 2**-20 is below half the 10-bit denormal step
            want[4] = (15 << mbits) | 1          # 1 + 3/128 -> nearest 1 + 1/32
            want[10] = inf                       # 65024 rounds past the 10-bit maximum
        for lane, code in enumerate(want):
            if lane == 8:
                assert got[lane, c] >> mbits == 31 and got[lane, c] & ((1 << mbits) - 1)
            elif code is not None:
                assert got[lane, c] == code, (c, lane, values[lane], got[lane, c])


def test_packed_store_then_load_round_trips():
    rng = np.random.default_rng(5)
    codes = np.stack([rng.integers(0, 1 << w, 64) for w in PACKED[9]], axis=1)
    state = store_state()
    got = store_xyzw(state, codes, 9, UINT)
    assert got.tolist() == codes.tolist()
    assert load_xyzw(state, None, 9, UINT).tolist() == codes.tolist()


def test_invalid_pairs_fault_with_the_codes():
    state = store_state()
    with pytest.raises(KernelError, match="data format 8 / numeric format 7"):
        load_xyzw(state, None, 8, FLOAT)                 # no 2-bit float
    with pytest.raises(KernelError, match="not supported for stores"):
        store_xyzw(state, np.zeros((64, 4)), 9, USCALED)


def test_out_of_range_lanes_read_zero_for_packed_formats():
    state, _ = setup_buffer(np.full(64, 0xFFFFFFFF, np.uint32))
    state.sgpr[10] = 40                                   # num_records: lanes 0-9 in range
    got = load_xyzw(state, None, 6, UNORM)
    assert (got[:10, :3] == 0x3F800000).all() and (got[:10, 3] == 0x3F800000).all()
    assert (got[10:] == 0).all()                          # W = 1 only inside the range


def test_typed_access_through_the_swizzled_private_buffer():
    """Private memory is interleaved per dword: a 2-dword typed element of a lane
    lies in two dword slots 256 bytes apart, as scratch_* sees them."""
    state, layout, init = dispatch_state(waves=2, private=64)
    state.sgpr[8:12] = np.array(layout.private_segment_buffer, np.uint32)[:, None]
    state.sgpr[5] = init.private_wave_offset
    state.vgpr[0] = 16
    state.vgpr[10] = np.arange(128).reshape(2, 64) + 1
    state.vgpr[11] = np.arange(128).reshape(2, 64) + 1001
    fields = mubuf(vaddr=0, vdata=10, offen=1, soffset=5, dfmt=11, nfmt=UINT)
    run(state, "tbuffer_store_format_xy", "MTBUF", fields)
    state.vgpr[1] = 16
    run(state, "scratch_load_dword", "SCRATCH", flat(addr=1, vdst=2))
    state.vgpr[1] = 20
    run(state, "scratch_load_dword", "SCRATCH", flat(addr=1, vdst=3))
    assert state.vgpr[2].tolist() == state.vgpr[10].tolist()
    assert state.vgpr[3].tolist() == state.vgpr[11].tolist()
    fields = mubuf(vaddr=0, vdata=12, offen=1, soffset=5, dfmt=11, nfmt=UINT)
    run(state, "tbuffer_load_format_xy", "MTBUF", fields)
    assert state.vgpr[12].tolist() == state.vgpr[10].tolist()
    assert state.vgpr[13].tolist() == state.vgpr[11].tolist()

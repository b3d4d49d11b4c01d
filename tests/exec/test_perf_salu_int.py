"""The Python-int SALU variants (``Semantic.one_wave``, registered from
exec/semantics/salu_int.py and used for single waves) against the NumPy
semantics they stand in for: same result bits and SCC on edge values and
random values, as the executor writes them. Every registered variant is
checked."""

import numpy as np
import pytest

from amdgpu_tools.exec import semantics  # noqa: F401  (registers every semantic)
from amdgpu_tools.exec.core.formats import _scalar_bits
from amdgpu_tools.exec.core.operands import bits_of
from amdgpu_tools.exec.core.registry import SEMANTICS

#: every SALU semantic registered with a one-wave Python-int variant
INT_SALU = {op: s.one_wave for op, s in SEMANTICS.items() if s.one_wave is not None}

EDGES32 = [0, 1, 2, 31, 32, 33, 63, 64, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000,
           0x1F0005, 0x200010, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF]
EDGES64 = EDGES32 + [1 << 32, (1 << 32) + 1, 0x7FFF_FFFF_FFFF_FFFF, 1 << 63,
                     0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000]


def operand_values(type_, rng, count):
    """Edge values of the operand width, then random ones (and short ones,
    which make shifts, bitfield controls and SOPK immediates interesting)."""
    wide = bits_of(type_) == 64
    edges = EDGES64 if wide else EDGES32
    top = 1 << (64 if wide else 32)
    random = [int(v) for v in rng.integers(0, top, count, dtype=np.uint64 if wide else np.int64)]
    small = [int(v) for v in rng.integers(0, 1 << 23, count)]
    return edges + random + small


def cases(semantic, rng):
    """Rows of argument ints: every pair of source values (edge x edge and
    random), then SCC and old destination when the op reads them."""
    flags = semantic.flags
    columns = [operand_values(t, rng, 40) for t in semantic.srcs]
    rows = []
    for i in range(len(columns[0])):
        for j in range(len(columns[1]) if len(columns) > 1 else 1):
            rows.append([columns[0][i]] + ([columns[1][j]] if len(columns) > 1 else []))
    extra = []
    if flags["scc_in"]:
        extra.append([0, 1])
    if flags.get("dst_in"):
        extra.append(operand_values(semantic.dst, rng, 4)[-6:])
    for values in extra:
        rows = [row + [v] for row in rows for v in values]
    return rows


def numpy_outcome(semantic, rows):
    """Result bits and SCC of the NumPy semantic over all rows at once."""
    types = list(semantic.srcs)
    if semantic.flags["scc_in"]:
        types.append("scc")
    if semantic.flags.get("dst_in"):
        types.append(semantic.dst)
    args = []
    for k, type_ in enumerate(types):
        column = [row[k] for row in rows]
        if type_ == "scc":
            args.append(np.array(column, np.bool_))
        else:
            args.append(np.array(column, np.uint64 if bits_of(type_) == 64 else np.uint32))
    with np.errstate(all="ignore"):
        result = semantic.fn(*args)
    scc = None
    if semantic.flags["scc_out"]:
        result, scc = result
        scc = np.broadcast_to(np.asarray(scc, np.bool_), (len(rows),))
    if result is not None:
        wide = bits_of(semantic.dst) == 64
        result = np.broadcast_to(_scalar_bits(result, wide), (len(rows),))
    return result, scc


@pytest.mark.parametrize("op", sorted(INT_SALU))
def test_twin_matches_numpy_semantic(op):
    semantic = SEMANTICS[op]
    rng = np.random.default_rng(sum(map(ord, op)))
    rows = cases(semantic, rng)
    expected, expected_scc = numpy_outcome(semantic, rows)
    mask = (1 << bits_of(semantic.dst)) - 1 if semantic.dst else None
    for k, row in enumerate(rows):
        got = INT_SALU[op](*row)
        if semantic.flags["scc_out"]:
            got, scc = got
            assert bool(scc) == bool(expected_scc[k]), f"{op}{tuple(row)}: SCC"
        if expected is None:
            assert got is None
        else:
            assert got & mask == int(expected[k]), f"{op}{tuple(map(hex, row))}"


def test_twins_cover_the_common_ops():
    """The ops compilers emit most in scalar code all have twins."""
    common = {"s_mov_b32", "s_mov_b64", "s_add_u32", "s_addc_u32", "s_add_i32",
              "s_and_b64", "s_or_b64", "s_xor_b64", "s_andn2_b64", "s_lshl_b32",
              "s_cmp_eq_u32", "s_cmp_lg_u32", "s_cmp_lt_i32", "s_cselect_b32", "s_bfe_u32"}
    assert common <= set(INT_SALU)
    assert set(INT_SALU) <= {op for op, s in SEMANTICS.items() if s.kind == "salu"}

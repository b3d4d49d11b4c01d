"""Decodetree discipline: every declared format is reachable, and none overlap unless
one explicitly refines the other (its fixed bits narrow the other's space) or their
intersection is itself a declared format refining both (DPP_VOP1 = VOP1 and DPP_VOP2)."""

import itertools

import pytest

from amdgpu_tools.isa.decoder import find_format, match_table
from amdgpu_tools.isa.fields import Format


def _refines(a, b, by_name):
    """True when ``a`` refines ``b`` directly or through a chain of refinements."""
    seen = set()
    todo = list(a.refines)
    while todo:
        name = todo.pop()
        if name == b.name:
            return True
        if name not in seen and name in by_name:
            seen.add(name)
            todo.extend(by_name[name].refines)
    return False


@pytest.mark.parametrize("generation", [6, 7, 8, 9])
def test_no_two_formats_overlap(generation):
    entries = [fmt for fmt, _ in match_table(generation)]
    by_name = {fmt.name: fmt for fmt in entries}
    for a, b in itertools.combinations(entries, 2):
        common = a.match_mask & b.match_mask
        if (a.match_value ^ b.match_value) & common:
            continue  # disjoint: some fixed bit differs
        if _refines(a, b, by_name) or _refines(b, a, by_name):
            continue
        # otherwise their intersection must be exactly a format refining both
        mask, value = a.match_mask | b.match_mask, a.match_value | b.match_value
        resolved = [c for c in entries if c.match_mask == mask and c.match_value == value
                    and _refines(c, a, by_name) and _refines(c, b, by_name)]
        assert resolved, f"{a} and {b} overlap on gfx{generation} without a declared refinement"


@pytest.mark.parametrize("generation", [6, 7, 8, 9])
def test_every_format_is_reachable(generation):
    for fmt, _ in match_table(generation):
        assert find_format(fmt.match_value, generation)[0] is fmt


@pytest.mark.parametrize("generation", [6, 7, 8, 9])
def test_core_encodings_are_covered(generation):
    names = {fmt.name for fmt, _ in match_table(generation)}
    expected = {"SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "VOP1", "VOP2", "VOPC", "VOP3"}
    expected |= {"SMRD"} if generation < 8 else {"SMEM", "DPP_VOP1", "DPP_VOP2", "SDWA_VOP1",
                                                 "SDWA_VOP2", "SDWA_VOPC"}
    expected |= {"VOP3P"} if generation == 9 else set()
    assert expected <= names


def test_field_declarations_round_trip():
    fmt = Format("T", (9,), 2, "encoding[31:30]=0b10 a[29:16] b[15:0] c[63:32]")
    value = fmt.pack({"a": 0x1234, "b": 0xBEEF, "c": 0xDEADBEEF})
    assert fmt.matches(value)
    assert fmt.unpack(value) == {"a": 0x1234, "b": 0xBEEF, "c": 0xDEADBEEF}
    with pytest.raises(ValueError):
        fmt.pack({"a": 1 << 14})


def test_manual_layouts_match_known_words():
    from amdgpu_tools.isa.families import formats_core as F
    # s_mov_b32 s0, s1 = 0xbe800001 ; v_add_f32_e32 v1, v2, v3 = 0x02020702
    assert F.SOP1.unpack(0xBE800001) == {"sdst": 0, "op": 0, "ssrc0": 1}
    assert F.VOP2.unpack(0x02020702) == {"op": 1, "vdst": 1, "vsrc1": 3, "src0": 258}


@pytest.mark.parametrize("generation", [6, 7, 8, 9])
def test_compiled_unpack_agrees_with_each_field(generation):
    """Format.unpack is generated code: it must read every field exactly as the
    field's own declaration does, for all-ones, alternating and random words."""
    import random
    rng = random.Random(generation)
    for fmt, _ in match_table(generation):
        bits = 32 * fmt.words
        for value in ((1 << bits) - 1, int("10" * (bits // 2), 2), rng.getrandbits(bits)):
            assert fmt.unpack(value) == {name: field.get(value)
                                         for name, field in fmt.fields.items()}
            if "op" in fmt.fields:
                assert fmt.opcode_of(value) == fmt.fields["op"].get(value)
        words = tuple(rng.getrandbits(32) for _ in range(fmt.words))
        data = b"".join(w.to_bytes(4, "little") for w in words)
        assert fmt.read_words(b"\0" + data, 1) == words

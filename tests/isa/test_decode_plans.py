"""Decode and print plans are memoised per (target, format, opcode) and per (row,
generation): the answer for one word must not depend on what was decoded before,
nor leak from one target to another that shares the opcode."""

from amdgpu_tools.isa import decode, disassemble, get_target
from amdgpu_tools.isa.families import vop


def text(hex_words, cpu):
    data = b"".join(int(w, 16).to_bytes(4, "little") for w in hex_words.split())
    return [inst.text() for _, inst in disassemble(data, cpu)]


def test_same_opcode_reads_per_target():
    # VOP2 opcode 25 is v_add_co_u32 on gfx9 and v_add_u32 on gfx8 (llvm-mc-19 encodings);
    # SOPP opcode 1 is s_endpgm on both (a shared plan must not mix the two tables)
    words = "32000006 BF810000"
    assert text(words, "gfx900") == ["v_add_co_u32_e32 v0, vcc, s6, v0", "s_endpgm"]
    assert text(words, "gfx803") == ["v_add_u32_e32 v0, vcc, s6, v0", "s_endpgm"]
    assert text(words, "gfx900") == ["v_add_co_u32_e32 v0, vcc, s6, v0", "s_endpgm"]


def test_modifier_bits_are_read_per_instruction():
    # one VOP3 row, printed with and without neg/abs/clamp: the print plan is shared
    plain = "D1010000 00020302"      # v_add_f32_e64 v0, v2, v1
    wrapped = "D1018300 40020302"    # abs on src0 and src1, neg on src1, clamp (llvm-mc-19)
    assert text(plain, "gfx900") == ["v_add_f32_e64 v0, v2, v1"]
    assert text(wrapped, "gfx900") == ["v_add_f32_e64 v0, |v2|, -|v1| clamp"]
    assert text(plain, "gfx900") == ["v_add_f32_e64 v0, v2, v1"]


def test_literal_follows_only_when_marked():
    # s_mov_b32 s0, 0x12345678 (literal) and s_mov_b32 s0, s1 share a plan
    assert text("BE8000FF 12345678 BE800001", "gfx900") == [
        "s_mov_b32 s0, 0x12345678", "s_mov_b32 s0, s1"]


def test_decode_is_repeatable_and_fields_are_fresh():
    data = (0xD1010000).to_bytes(4, "little") + (0x00020302).to_bytes(4, "little")
    first = decode(data, 0, get_target("gfx900"))
    first.fields["src0"] = 0x100 + 7          # the executor may rewrite its copy
    second = decode(data, 0, "gfx900")
    assert second.fields["src0"] == 0x102 and second.text() == "v_add_f32_e64 v0, v2, v1"
    assert vop.FAMILY.print_plan(first.info, 9) is vop.FAMILY.print_plan(second.info, 9)

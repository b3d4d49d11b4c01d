"""The generated memory-family tables: provenance, shape, and no ambiguity.

The tables are written by tools/isa_gen/{ds,flat,buffer,mimg,export,vintrp}.py
from llvm sweeps; these checks need no LLVM.  (test_mem_live.py re-checks the
recorded encodings against the installed llvm-mc.)
"""

import importlib
import json
import re
import sys
from importlib import resources

import pytest

from amdgpu_tools.isa.families.formats_mem import format_for
from amdgpu_tools.isa.targets import ALL_TARGETS

TABLES = {"ds": "ds.json", "flat": "flat.json", "buffer": "buffer.json", "mimg": "mimg.json",
          "export": "export.json", "vintrp": "vintrp.json"}


def document(filename):
    return json.loads(resources.files("amdgpu_tools.isa.data").joinpath(filename).read_text())


@pytest.mark.parametrize("family", TABLES)
def test_table_says_how_it_was_generated(family):
    doc = document(TABLES[family])
    assert doc["generated_by"].startswith(f"tools/isa_gen/{family}.py")
    assert "do not edit" in doc["generated_by"]
    expected = {"gfx700", "gfx803", "gfx900"} | ({"gfx600"} if family != "flat" else set())
    assert expected <= set(doc["sweep_targets"])


@pytest.mark.parametrize("family", ["ds", "flat", "buffer", "mimg", "vintrp"])
def test_opcodes_fit_their_fields_and_are_unique(family):
    module = importlib.import_module(f"amdgpu_tools.isa.families.{family}")
    for target in ALL_TARGETS:
        seen = {}
        for info in module.instructions(target):
            fmt = next(f for f in module.FORMATS if target.generation in f.generations
                       and info.format in (f.name, f.encoding)
                       and (f.name not in ("MUBUF", "MTBUF") or f.name == info.encoding))
            assert 0 <= info.opcode < 1 << fmt.fields["op"].width, info.name
            key = (info.encoding, info.props.get("seg", 0), info.opcode)
            assert key not in seen, f"{target.name}: {info.name} and {seen[key]} share {key}"
            seen[key] = info.name


def test_generations_have_the_expected_instruction_sets():
    """Facts read back from the tables: FLAT from GFX7, GLOBAL/SCRATCH and D16 from GFX9."""
    from amdgpu_tools.isa.families import buffer, ds, flat
    by_name = {t.name: t for t in ALL_TARGETS}
    assert flat.lookup("flat_load_dword", by_name["gfx600"]) is None
    assert flat.lookup("flat_load_dword", by_name["gfx700"]).opcode == 12
    assert flat.lookup("flat_load_dword", by_name["gfx803"]).opcode == 20
    assert flat.lookup("global_load_dword", by_name["gfx803"]) is None
    assert flat.lookup("global_load_dword", by_name["gfx900"]).props["seg"] == 2
    assert flat.lookup("scratch_store_dword", by_name["gfx906"]).props["seg"] == 1
    assert ds.lookup("ds_read_u8_d16", by_name["gfx803"]) is None
    assert ds.lookup("ds_read_b128", by_name["gfx600"]) is None
    assert ds.lookup("ds_read_b128", by_name["gfx700"]).opcode == 255
    assert buffer.lookup("buffer_wbinvl1_vol", by_name["gfx600"]) is None
    unpacked = buffer.lookup("buffer_load_format_d16_xyzw", by_name["gfx803"])
    packed = buffer.lookup("buffer_load_format_d16_xyzw", by_name["gfx810"])
    assert (unpacked.operands[0].width, packed.operands[0].width) == (4, 2)


@pytest.mark.parametrize("family", TABLES)
def test_every_generation_gets_a_format(family):
    module = importlib.import_module(f"amdgpu_tools.isa.families.{family}")
    for generation in (6, 7, 8, 9):
        fmt = format_for(module.FORMATS, generation)
        assert fmt is not None or (family == "flat" and generation == 6)


OPS_FAMILIES = ("ds", "flat", "buffer", "mimg", "vintrp")
_TYPE = re.compile(r"[biuf](8|16|32|64|96|128)")


@pytest.mark.parametrize("family", OPS_FAMILIES)
def test_ops_rows_are_typed_and_restricted_to_swept_processors(family):
    """The memory families use the ops schema of isa/table.py: opcodes per
    generation, typed operands (MIMG's vdata width 0: dmask, d16 and tfe decide
    it), and targets naming only swept processors of a generation the row has."""
    doc = document(TABLES[family])
    assert doc["family"] == family and "instructions" not in doc
    swept = set(doc["sweep_targets"])
    for row in doc["ops"]:
        assert row["opcodes"] and set(row["opcodes"]) <= {"6", "7", "8", "9"}, row["name"]
        for name in row.get("targets", ()):
            assert name in swept and name[3] in row["opcodes"], (row["name"], name)
        for key in ("operands", "operands_glc"):
            for operand in row.get(key, ()):
                assert set(operand) == {"field", "kind", "width", "type"}, row["name"]
                varies = family == "mimg" and operand["field"] == "vdata"
                assert operand["width"] == 0 if varies else operand["width"] >= 1, row["name"]
                assert _TYPE.fullmatch(operand["type"]), row["name"]


@pytest.mark.parametrize("family", OPS_FAMILIES)
def test_each_swept_processor_has_one_row_per_op(family):
    """The rows of one op never overlap on a processor, and every op has a row
    on some swept processor."""
    from amdgpu_tools.isa.families.mem_common import table_rows
    doc = document(TABLES[family])
    names, seen = set(), {}
    for row in table_rows(TABLES[family], family):
        names.add(row.name)
        for mcpu in doc["sweep_targets"]:
            if row.listed_for(mcpu, int(mcpu[3])):
                assert (row.name, mcpu) not in seen, (row.name, mcpu)
                seen[row.name, mcpu] = row
    assert names == {name for name, _ in seen}


def test_rows_differing_within_a_generation_carry_targets():
    """D16 packing (gfx803 unpacked, gfx810 packed like GFX9) and gfx908's float
    atomics are rows restricted to their processors."""
    doc = document("buffer.json")
    rows = [row for row in doc["ops"] if row["name"] == "buffer_load_format_d16_xyzw"]
    by_targets = {tuple(row.get("targets", ())): row["operands"][0]["width"] for row in rows}
    assert by_targets == {("gfx803",): 4, ("gfx810",): 2}
    (f32,) = [row for row in doc["ops"] if row["name"] == "buffer_atomic_add_f32"]
    assert f32["targets"] == ["gfx908"] and f32["operands"][0]["type"] == "f32"
    from amdgpu_tools.isa.families import buffer
    by_name = {t.name: t for t in ALL_TARGETS}
    assert buffer.lookup("buffer_atomic_add_f32", by_name["gfx906"]) is None


def test_the_generators_write_ops_rows(monkeypatch):
    """tools/isa_gen/mem_sweep.ops_rows: processors whose sub-rows agree share a
    row (opcodes per generation); a generation whose processors differ gets
    rows restricted to them."""
    monkeypatch.setattr(sys, "path", list(sys.path))     # mem_sweep puts tools/isa_gen on it
    from tools.isa_gen import mem_sweep
    tables = {"gfx803": {"op_a": {"opcode": 1, "w": 4}}, "gfx810": {"op_a": {"opcode": 1, "w": 2}},
              "gfx900": {"op_a": {"opcode": 2, "w": 2}, "op_b": {"opcode": 5, "w": 1}},
              "gfx908": {"op_a": {"opcode": 2, "w": 2}}}
    rows = mem_sweep.ops_rows(tables, lambda name, sub: {"encoding": "X", "w": sub["w"]})
    assert rows == [
        {"name": "op_a", "encoding": "X", "opcodes": {"8": 1}, "targets": ["gfx803"], "w": 4},
        {"name": "op_a", "encoding": "X", "opcodes": {"8": 1, "9": 2}, "targets": ["gfx810"], "w": 2},
        {"name": "op_b", "encoding": "X", "opcodes": {"9": 5}, "targets": ["gfx900"], "w": 1}]


@pytest.mark.parametrize("family", ["ds", "flat", "buffer"])
def test_memory_properties_of_the_rows(family):
    """Sub-dword ops name their element (data_bytes 1/2, signed on loads) and
    the d16 ops the VGPR half; a sub-dword element sits in a one-dword data
    operand."""
    for row in document(TABLES[family])["ops"]:
        if "data_bytes" in row:
            assert row["data_bytes"] in (1, 2), row["name"]
            data = [o for o in row["operands"] if o["field"] in ("vdata", "vdst", "data", "data0")]
            assert [o["width"] for o in data] == [1], row["name"]
        if "signed" in row:
            assert "data_bytes" in row and ("_load_" in row["name"] or "_read_" in row["name"])
        assert row.get("d16", "lo") in ("lo", "hi"), row["name"]
    rows = {row["name"]: row for row in document(TABLES[family])["ops"]}
    expected = {"ds": {"ds_read_i8_d16_hi": (1, True, "hi"), "ds_write_b16": (2, None, None),
                       "ds_read_u16": (2, False, None), "ds_read_b32": (None, None, None)},
                "flat": {"global_load_sshort": (2, True, None), "flat_store_byte_d16_hi": (1, None, "hi"),
                         "scratch_load_short_d16": (2, False, "lo")},
                "buffer": {"buffer_load_ubyte": (1, False, None), "buffer_load_format_d16_hi_x":
                           (None, None, "hi"), "tbuffer_store_format_d16_xy": (None, None, "lo")}}
    for name, facts in expected[family].items():
        row = rows[name]
        assert (row.get("data_bytes"), row.get("signed"), row.get("d16")) == facts, name


def test_the_generators_name_memory_properties(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))
    from tools.isa_gen.mem_sweep import memory_properties
    assert memory_properties("buffer_load_sbyte_d16_hi") == {"data_bytes": 1, "signed": True, "d16": "hi"}
    assert memory_properties("ds_write_b8") == {"data_bytes": 1}
    assert memory_properties("tbuffer_load_format_d16_xyzw") == {"d16": "lo"}
    assert memory_properties("global_load_dwordx2") == {} == memory_properties("ds_add_u16")

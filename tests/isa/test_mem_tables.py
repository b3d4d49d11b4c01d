"""The generated memory-family tables: provenance, shape, and no ambiguity.

The tables are written by tools/isa_gen/{ds,flat,buffer,mimg,export,vintrp}.py
from llvm sweeps; these checks need no LLVM.  (test_mem_live.py re-checks the
recorded encodings against the installed llvm-mc.)
"""

import importlib
import json
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

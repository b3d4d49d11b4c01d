"""One description per instruction (issue 11).

- Every mnemonic of every target's tables is found by grepping its literal
  name: its semantic is registered under the quoted mnemonic in the module
  that defines it (a generation rename names both literals), or the literal
  is declared unsupported; only the graphics encodings are rejected as a
  whole, by a rule on the row's encoding (their mnemonics are in
  isa/data/mimg.json, export.json, vintrp.json).
- No fact stated twice between tables and code: what a semantic states about
  its operands agrees with the table row it runs for (operand types and
  widths of the ALU ops, data widths of the memory ops).
"""

import importlib
import inspect
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from amdgpu_tools.exec import semantics  # noqa: F401  (registers everything)
from amdgpu_tools.exec.core.operands import FLOAT_TYPES, bits_of
from amdgpu_tools.exec.core.registry import GENERATION_RENAMES, semantic_for
from amdgpu_tools.exec.core.registry import SEMANTICS, UNSUPPORTED, row_source_types
from amdgpu_tools.exec.semantics.memory import table_facts
from amdgpu_tools.isa.families import families
from amdgpu_tools.isa.targets import ALL_TARGETS

EXEC = Path(importlib.import_module("amdgpu_tools.exec").__file__).parent
REGISTRY = EXEC / "core" / "registry.py"


@lru_cache(maxsize=None)
def source_of(module_name):
    return inspect.getsource(sys.modules[module_name])


@lru_cache(maxsize=None)
def exec_source():
    return "\n".join(path.read_text() for path in EXEC.rglob("*.py"))


def quoted(name):
    return (f'"{name}"', f"'{name}'")


def defined_in(name, module_name):
    return any(text in source_of(module_name) for text in quoted(name))


class _Op:
    def __init__(self, name, encoding):
        self.op = name
        self.encoding = encoding


def table_ops():
    """(target name, generation, row info) of every op of every target."""
    for target in ALL_TARGETS:
        for family in families():
            for info in family.instructions(target):
                yield target, info


def _where_is(target, info):
    """None when ``info.name`` is found by its literal, else why not."""
    name = info.name
    semantic = semantic_for(_Op(name, info.encoding), target.generation)
    if semantic is None:
        if name in UNSUPPORTED:
            return None if any(q in exec_source() for q in quoted(name)) else \
                f"{name}: unsupported, but its literal is nowhere in exec/"
        if info.encoding in UNSUPPORTED:
            return None                 # graphics encodings: a rule on the row
        return f"{name} ({info.encoding}): no semantic and not unsupported"
    module = getattr(semantic.fn, "__module__", None)
    if not module or not module.startswith("amdgpu_tools.exec."):
        return f"{name}: registered from {module!r}, not an executor module"
    renamed = GENERATION_RENAMES.get(target.generation, {}).get(name)
    if renamed is not None:
        if not any(text in REGISTRY.read_text() for text in quoted(name)):
            return f"{name}: renamed to {renamed}, but not literally in core/registry.py"
        name = renamed
    if not defined_in(name, module):
        return f"{name}: not registered under its literal name in {module}"
    return None


def test_every_table_mnemonic_is_found_by_its_literal_name():
    missing = set()
    for target, info in table_ops():
        why = _where_is(target, info)
        if why is not None:
            missing.add(f"{target.name}: {why}")
    assert not missing, sorted(missing)[:50]


def test_every_registered_name_is_in_a_table():
    """Registration lists literal names only for ops some table has (no
    names made up by formatting strings)."""
    in_tables = {info.name for _, info in table_ops()}
    renamed = {new for renames in GENERATION_RENAMES.values() for new in renames.values()}
    known = in_tables | renamed
    memory = set()
    for name in SEMANTICS:
        try:
            table_facts(name)
            memory.add(name)
        except KeyError:
            pass
    stray = sorted(set(SEMANTICS) - known - memory)
    assert not stray, stray


# ------------------------------------------------------------ operand types
#: Where a semantic's view of a source differs from the row in more than
#: signedness, and why (the row types an operand for its inline constants).
TYPE_EXCEPTIONS = {
    "v_ldexp_f16": "LLVM types the exponent operand f16; the semantic reads an i16",
    "v_cndmask_b32": "LLVM types the sources f32 (abs/neg apply); the op moves raw bits "
                     "(sign_modifiers) and flushes no denormal",
    "v_lshl_b64": "the row's types are swapped (src0 'b32' two dwords wide, src1 'b64' one); "
                  "widths agree with the semantic",
    "v_lshr_b64": "as v_lshl_b64",
    "v_ashr_i64": "as v_lshl_b64",
    "v_mad_u32_u16": "LLVM types the 16-bit sources i16; the semantic reads the dword and "
                     "uses its low half",
    "v_mad_i32_i16": "as v_mad_u32_u16",
}


def _comparable(semantic, row_types):
    types = tuple(row_types)
    flags = semantic.flags
    if flags.get("carry_in") and not flags.get("vcc_in") and len(types) == len(semantic.srcs) + 1:
        types = types[:-1]
    if flags.get("layout") == "mac" and len(types) + 1 == len(semantic.srcs):
        types = types + (semantic.dst,)
    return types


def _agree(view, row_type):
    """A view refines the row's type: same width; a float only as that float."""
    if bits_of(view) != bits_of(row_type):
        return False
    if view in FLOAT_TYPES or row_type in FLOAT_TYPES:
        return view == row_type
    return True


@pytest.mark.parametrize("kind", ["valu", "vcmp"])
def test_alu_operand_types_agree_with_the_row(kind):
    wrong = []
    for name, semantic in sorted(SEMANTICS.items()):
        if semantic.kind != kind or name in TYPE_EXCEPTIONS:
            continue
        row_types = row_source_types(name)
        if row_types is None:
            continue
        row_types = _comparable(semantic, row_types)
        if len(row_types) != len(semantic.srcs) or \
                not all(_agree(v, r) for v, r in zip(semantic.srcs, row_types)):
            wrong.append((name, semantic.srcs, row_types))
    assert not wrong, wrong


def test_packed_operand_types_agree_with_the_row():
    """VOP3P packed ops: as many sources as the row; f16x2 rows give f16 halves,
    the integer rows ('b32') 16-bit integer halves."""
    wrong = []
    for name, semantic in sorted(SEMANTICS.items()):
        if semantic.kind != "packed":
            continue
        row_types = row_source_types(name)
        halves = {"f16x2": ("f16",), "b32": ("u16", "i16")}
        if len(row_types) != len(semantic.srcs) or \
                not all(src in halves[row] for src, row in zip(semantic.srcs, row_types)):
            wrong.append((name, semantic.srcs, row_types))
    assert not wrong, wrong


def test_type_exceptions_are_still_needed():
    for name in TYPE_EXCEPTIONS:
        semantic = SEMANTICS[name]
        row_types = _comparable(semantic, row_source_types(name))
        assert not all(_agree(v, r) for v, r in zip(semantic.srcs, row_types)), name


def _sop_rows():
    from amdgpu_tools.isa.families.sop import FAMILY
    return FAMILY.rows


def test_salu_operand_widths_agree_with_the_row():
    """SALU sources and destination as wide (32/64 bits) as the row's operands."""
    wrong = []
    for row in _sop_rows():
        semantic = SEMANTICS.get(row.name)
        if semantic is None or semantic.kind != "salu" or row.encoding == "SOPK":
            continue
        widths = {spec.get("field"): spec.get("width") for spec in row.operands}
        for field, type_ in zip(("ssrc0", "ssrc1"), semantic.srcs):
            if widths.get(field) and bits_of(type_) != 32 * widths[field]:
                wrong.append((row.name, field, type_, widths[field]))
        if semantic.dst not in (None, "none") and widths.get("sdst") and \
                bits_of(semantic.dst) != 32 * widths["sdst"]:
            wrong.append((row.name, "sdst", semantic.dst, widths["sdst"]))
    assert not wrong, wrong


# -------------------------------------------------------------- data widths
DATA_SLOTS = ("vdata", "vdst", "data", "data0")


def test_memory_data_widths_agree_with_the_row():
    """Each memory op moves what its row's data operand holds: whole dwords as
    wide as it (two elements for read2/write2, two values for the
    compare-swaps), or one sub-dword element in a one-dword register."""
    wrong = []
    for name, semantic in sorted(SEMANTICS.items()):
        nbytes = semantic.flags.get("data_bytes")
        if nbytes is None or name.startswith("s_"):
            continue
        widths = table_facts(name).widths
        sizes = {4 * width for slot, width in widths.items() if slot in DATA_SLOTS}
        if not sizes:                   # the src2 ops: no data operand
            continue
        flags = semantic.flags
        moved = {nbytes, nbytes * flags.get("elements", 1), nbytes * flags.get("values", 1)}
        ok = 4 in sizes if nbytes < 4 else bool(moved & sizes)
        if not ok:
            wrong.append((name, nbytes, sorted(sizes)))
    assert not wrong, wrong


def test_scalar_memory_data_widths_agree_with_the_row():
    from amdgpu_tools.isa.families.smem import FAMILY
    wrong = []
    for row in FAMILY.rows:
        semantic = SEMANTICS.get(row.name)
        nbytes = semantic.flags.get("data_bytes") if semantic else None
        if nbytes is None:
            continue
        widths = {spec["field"]: spec.get("width") for spec in row.operands}
        dwords = widths.get("sdata") or widths.get("sdst")
        if 4 * dwords not in (nbytes, 2 * nbytes):       # cmpswap: two values
            wrong.append((row.name, nbytes, dwords))
    assert not wrong, wrong


def test_typed_access_component_counts_agree_with_the_row():
    """buffer/tbuffer *_format_* move as many components as vdata is wide; the
    d16 forms state their count, which the row halves where d16 is packed."""
    counted = {name: semantic.flags for name, semantic in SEMANTICS.items()
               if "components" in semantic.flags}
    wrong, seen = [], 0
    for target, info in table_ops():
        flags = counted.get(info.name)
        if flags is None:
            continue
        seen += 1
        count, vdata = flags["components"], info.operand("vdata").width
        ok = vdata in (count, (count + 1) // 2) if flags.get("d16") else vdata == count
        if not ok:
            wrong.append((target.name, info.name, count, vdata))
    assert seen and not wrong, wrong


def test_sub_dword_semantics_take_their_element_from_the_row():
    """The element size and sign the memory semantics use are the row's."""
    checked = 0
    for name, semantic in sorted(SEMANTICS.items()):
        try:
            facts = table_facts(name)
        except KeyError:
            continue
        if facts.data_bytes is None:
            continue
        assert semantic.flags["data_bytes"] == facts.data_bytes, name
        assert semantic.flags.get("signed", False) == facts.signed, name
        checked += 1
    assert checked >= 60

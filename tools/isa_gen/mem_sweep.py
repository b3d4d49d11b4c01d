"""Shared machinery of the memory-family generators (dev-time only).

How the facts are learned:
- GFX8/GFX9: every opcode of a format is disassembled with llvm-mc 19, once
  per subset of the optional operand fields (each set to a distinctive
  register number); the largest subset that decodes tells which fields the
  instruction uses, and the printed text gives the canonical mnemonic and the
  operand order and widths.
- GFX6/GFX7 (llvm-mc cannot disassemble them): every known mnemonic is
  assembled with a list of operand templates; the first one llvm-mc accepts
  gives the opcode (read back from the bytes) and the operand signature.
"""

import itertools
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import mem_oracle  # noqa: E402
from amdgpu_tools.isa.fields import int_to_words, words_to_int  # noqa: E402

DATA_DIR = os.path.join(ROOT, "amdgpu_tools", "isa", "data")

#: Oracle processors: one per generation, plus sub-targets whose tables differ
#: (gfx810 packs D16 data like GFX9; gfx908 adds float atomics).
SWEEP_TARGETS = {6: "gfx600", 7: "gfx700", 8: "gfx803", 9: "gfx900"}
DISASSEMBLY_TARGETS = ("gfx803", "gfx810", "gfx900", "gfx908")
ASSEMBLY_TARGETS = ("gfx600", "gfx700")

_REG = re.compile(r"^(v|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")


def candidate_names(prefixes):
    """Mnemonics LLVM 19 knows (from its string table) that start with a prefix."""
    import subprocess
    strings = subprocess.run(["strings", "-n", "4", "/usr/lib/llvm-19/lib/libLLVM.so.19.1"],
                             capture_output=True, text=True).stdout.split()
    pattern = re.compile(r"^(%s)[a-z0-9_]+$" % "|".join(re.escape(p) for p in prefixes))
    return sorted({name for name in strings if pattern.match(name)})


def parse_register(text):
    """'v[4:7]' -> ('v', 4, 4); 's3' -> ('s', 3, 1); None if not a register."""
    m = _REG.match(text)
    if not m:
        return None
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1
    lo, hi = int(m.group(3)), int(m.group(4))
    return m.group(1), lo, hi - lo + 1


def split_text(text):
    """'op a, b, c mod1 mod2' -> ('op', ['a', 'b', 'c'], ['mod1', 'mod2'])."""
    head, _, rest = text.partition(" ")
    rest = rest.strip()
    if not rest:
        return head, [], []
    parts = [p.strip() for p in rest.split(",")]
    # modifiers follow the last operand, separated by spaces (format:[a,b] has a comma)
    merged = []
    for part in parts:
        if merged and (merged[-1].count("[") > merged[-1].count("]")
                       or merged[-1].count("(") > merged[-1].count(")")):
            merged[-1] += "," + part
        else:
            merged.append(part)
    last = merged[-1].split(" ")
    operands = merged[:-1] + [last[0]]
    modifiers = last[1:]
    if operands and (_MODIFIER.match(operands[-1]) or operands[-1] in MODIFIER_WORDS):
        modifiers.insert(0, operands.pop())
    return head, operands, modifiers


_MODIFIER = re.compile(r"^[a-z_0-9]+:")
MODIFIER_WORDS = {"gds", "glc", "slc", "tfe", "lds", "offen", "idxen", "addr64", "unorm",
                  "da", "r128", "a16", "lwe", "d16", "done", "compr", "vm", "nv"}


def sweep(fmt, mcpu, fixed, optional, opcodes, extra_variants=()):
    """Disassemble every opcode with every subset of ``optional`` fields set.

    Returns {opcode: (used_field_names, text, fields_of_reencoding)} for the
    decodable opcodes, keeping the variant with the most fields set.
    """
    subsets = [s for n in range(len(optional) + 1) for s in itertools.combinations(optional, n)]
    items = []
    for op in opcodes:
        for subset in subsets:
            values = dict(fixed)
            values["op"] = op
            values.update({name: optional[name] for name in subset})
            items.append((op, subset, values))
    words = [int_to_words(fmt.pack(values), fmt.words) for _, _, values in items]
    results = mem_oracle.disassemble_words(words, mcpu)
    best = {}
    for (op, subset, _), result in zip(items, results):
        if result is None:
            continue
        if op not in best or len(subset) > len(best[op][0]):
            text, enc = result
            value = words_to_int([int.from_bytes(enc[i:i + 4], "little") for i in range(0, len(enc), 4)])
            best[op] = (subset, text, fmt.unpack(value))
    return best


def disassemble_fields(fmt, mcpu, field_sets):
    """Disassemble one instruction per dict of field values; text or None each."""
    words = [int_to_words(fmt.pack(values), fmt.words) for values in field_sets]
    return [r[0] if r else None for r in mem_oracle.disassemble_words(words, mcpu)]


def probe_by_assembly(names, templates, mcpu, fmt_for_bytes, version="19"):
    """Assemble ``name + ' ' + template`` for each template until one is accepted.

    Returns {name: (canonical text, fields decoded from the bytes)}.
    """
    lines, keys = [], []
    for name in names:
        for template in templates:
            lines.append(f"{name} {template}".strip())
            keys.append(name)
    found = {}
    for key, line, (text, data) in zip(keys, lines, mem_oracle.assemble(lines, mcpu, version)):
        if text is None or key in found:
            continue
        value = words_to_int([int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)])
        found[key] = (text, fmt_for_bytes.unpack(value))
    return found


def write_json(path, generator, payload):
    """Write a generated data file with its provenance header."""
    document = {"generated_by": f"{generator} (from llvm-mc sweeps); do not edit"}
    document.update(payload)
    with open(path, "w") as out:
        json.dump(document, out, indent=1, sort_keys=False)
        out.write("\n")


def vreg_text(index, width):
    return f"v{index}" if width == 1 else f"v[{index}:{index + width - 1}]"


def ops_rows(tables, fields_of):
    """{processor: {name: sub-row}} as rows of the ``ops`` schema (isa/table.py):
    one row per mnemonic and distinct content, with ``opcodes`` {generation:
    opcode} and ``targets`` listing the swept processors of each generation the
    row is restricted to (those where the sub-rows of one generation differ, or
    the op is missing on some of them). ``fields_of(name, sub_row)`` gives a
    sub-row's fields other than name and opcode (encoding, format, typed
    operands, family keys)."""
    generation = {mcpu: int(mcpu[3]) for mcpu in tables}     # gfxN..: GCN generation N
    swept = {}
    for mcpu, gen in generation.items():
        swept.setdefault(gen, set()).add(mcpu)
    groups = {}                       # name -> [(fields, {gen: opcode}, {gen: [mcpu]})]
    for mcpu, rows in tables.items():
        gen = generation[mcpu]
        for name, sub in rows.items():
            fields = fields_of(name, sub)
            entries = groups.setdefault(name, [])
            for have, opcodes, members in entries:
                if have == fields and opcodes.get(gen, sub["opcode"]) == sub["opcode"]:
                    break
            else:
                opcodes, members = {}, {}
                entries.append((fields, opcodes, members))
            opcodes[gen] = sub["opcode"]
            members.setdefault(gen, []).append(mcpu)
    ops = []
    for name in sorted(groups):
        for fields, opcodes, members in groups[name]:
            row = {"name": name}
            row.update((key, fields[key]) for key in ("encoding", "format") if key in fields)
            row["opcodes"] = {str(gen): opcodes[gen] for gen in sorted(opcodes)}
            restricted = [mcpu for gen in sorted(members) for mcpu in members[gen]
                          if set(members[gen]) != swept[gen]]
            if restricted:
                row["targets"] = restricted
            row.update((key, value) for key, value in fields.items() if key not in row)
            ops.append(row)
    return ops


#: Sub-dword elements as llvm's mnemonics name them: (bytes, sign-extended on
#: load; None for stores, which take the low bytes).
_ELEMENTS = {"ubyte": (1, False), "sbyte": (1, True), "ushort": (2, False), "sshort": (2, True),
             "u8": (1, False), "i8": (1, True), "u16": (2, False), "i16": (2, True),
             "byte": (1, None), "short": (2, None), "b8": (1, None), "b16": (2, None)}
_SUB_DWORD = re.compile(r"^(?:buffer|global|flat|scratch|ds)_(load|store|read|write)_"
                        r"([a-z]+[0-9]*)(_d16(_hi)?)?$")
_D16_FORMAT = re.compile(r"_format_d16(_hi)?_[xyzw]+$")


def memory_properties(name):
    """What a memory op's mnemonic says its data is, as row keys: ``data_bytes``
    (1 or 2) of a sub-dword element, ``signed`` (loads: sign-extended to the
    dword), ``d16`` ("lo" or "hi": the VGPR half a d16 element or component
    takes). Whole-dword and other ops get none."""
    props = {}
    match = _SUB_DWORD.match(name)
    if match and match.group(2) in _ELEMENTS:
        nbytes, signed = _ELEMENTS[match.group(2)]
        props["data_bytes"] = nbytes
        if match.group(1) in ("load", "read"):
            props["signed"] = bool(signed)
        if match.group(3):
            props["d16"] = "hi" if match.group(4) else "lo"
    match = _D16_FORMAT.search(name)
    if match:
        props["d16"] = "hi" if match.group(1) else "lo"
    return props


def with_memory_properties(rows):
    """``rows`` (ops schema) with memory_properties added to each."""
    return [dict(row, **memory_properties(row["name"])) for row in rows]


def write_ops_table(filename, generator, family, tables, fields_of, extra=None):
    """Write {processor: {name: sub-row}} in the ``ops`` schema that isa/table.py
    loads (see ops_rows, with memory_properties); ``sweep_targets`` lists the
    processors swept."""
    payload = {"family": family, "sweep_targets": list(tables),
               "ops": with_memory_properties(ops_rows(tables, fields_of))}
    payload.update(extra or {})
    write_json(os.path.join(DATA_DIR, filename), generator, payload)


def tables_of(document):
    """{processor: {name: sub-row}} of a table in the earlier per-mnemonic
    schema (``instructions``: name and per-processor sub-rows); what
    tools/isa_gen/mem_ops.py converts."""
    tables = {mcpu: {} for mcpu in document["sweep_targets"]}
    for entry in document["instructions"]:
        for mcpu, sub in entry["targets"].items():
            tables[mcpu][entry["name"]] = sub
    return tables


def typed_operand(field, width, kind="vgpr", type_=None, name=None):
    """One operand of the ``ops`` schema; its type defaults to what the mnemonic
    ``name`` moves (mem_common.value_type)."""
    from amdgpu_tools.isa.families.mem_common import value_type
    return {"field": field, "kind": kind, "width": width,
            "type": type_ if type_ is not None else value_type(name, width)}

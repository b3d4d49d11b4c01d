"""Record the differential corpus of the memory families under tests/isa/data/.

For every instruction of a family on every oracle processor, words with
randomised operand fields are disassembled by llvm-objdump-19 (GFX8/9), and
llvm-mc re-assembles what it printed; GFX6/7 (no LLVM disassembler) texts are
printed from random fields by our own printer and assembled by llvm-mc 19 and
llvm-mc 14.  The tests then check bytes->text and text->bytes without LLVM.
Run from the repository root:  python tools/isa_gen/mem_corpus.py [family ...]
"""

import importlib
import json
import os
import random
import sys

import mem_oracle
import mem_sweep as sw
from amdgpu_tools.errors import DecodeError
from amdgpu_tools.isa.fields import int_to_words
from amdgpu_tools.isa.targets import get_target

FAMILIES = ("ds", "flat", "buffer", "mimg", "export", "vintrp")
DECODE_TARGETS = ("gfx803", "gfx810", "gfx900")
ASSEMBLE_ONLY_TARGETS = ("gfx600", "gfx700")
VARIANTS = 3
CLEAN_VARIANTS = 2
REGISTER_FIELDS = {"vdst", "addr", "data", "data0", "data1"}
RANDOM_WORDS = 300
OUT_DIR = os.path.join(sw.ROOT, "tests", "isa", "data")


def random_fields(fmt, rnd, opcode_fields):
    """Random values for a format's fields: flags set rarely, registers anywhere."""
    fields = {}
    for name, field in fmt.fields.items():
        if field.width == 1:
            fields[name] = int(rnd.random() < 0.25)
        elif rnd.random() < 0.15:
            fields[name] = 0
        else:
            fields[name] = rnd.getrandbits(field.width)
    fields.update(opcode_fields)
    return fields


def opcode_fields(info, fmt):
    fields = {"op": info.opcode} if "op" in fmt.fields else {}
    if "seg" in fmt.fields:
        fields["seg"] = info.props["seg"]
    return fields


def family_words(family, target, rnd):
    """Structured words for every instruction plus random words of the family's formats."""
    words = []
    for fmt in family.FORMATS:
        if target.generation not in fmt.generations:
            continue
        for info in family.instructions(target):
            if getattr(info, "format", info.encoding) not in (fmt.name, fmt.encoding):
                continue
            if fmt.name == "MTBUF" and info.encoding != "MTBUF":
                continue
            if fmt.name == "MUBUF" and info.encoding != "MUBUF":
                continue
            for variant in range(VARIANTS + CLEAN_VARIANTS):
                fields = random_fields(fmt, rnd, opcode_fields(info, fmt))
                if variant >= VARIANTS:  # operand fields the op does not use left clear
                    used = {spec.slot for spec in info.operands}
                    for name in REGISTER_FIELDS & set(fields) - used:
                        fields[name] = 0
                words.append((fmt, fmt.pack(fields)))
        for _ in range(RANDOM_WORDS // len(family.FORMATS)):
            op = {"op": rnd.getrandbits(fmt.fields["op"].width)} if "op" in fmt.fields else {}
            if fmt.name == "VOP3_INTERP":  # stay inside the interpolation slice of VOP3
                op = {"op": 0x270 | rnd.getrandbits(4)}
            words.append((fmt, fmt.pack(random_fields(fmt, rnd, op))))
    return words


def hexbytes(fmt, value):
    return b"".join(w.to_bytes(4, "little") for w in int_to_words(value, fmt.words)).hex()


def decode_corpus(family, mcpu, rnd):
    target = get_target(mcpu)
    words = family_words(family, target, rnd)
    results = mem_oracle.disassemble_words([int_to_words(v, fmt.words) for fmt, v in words], mcpu)
    rows = [[mcpu, hexbytes(fmt, value), result[0] if result else None]
            for (fmt, value), result in zip(words, results)]
    texts = sorted({text for _, _, text in rows if text})
    return rows, encode_rows(mcpu, texts, "19")


def encode_rows(mcpu, texts, version):
    rows = []
    for text, (canonical, data) in zip(texts, mem_oracle.assemble(texts, mcpu, version)):
        if canonical is None:
            rows.append([mcpu, version, text, None, data])
        else:
            rows.append([mcpu, version, text, data.hex(), canonical])
    return rows


def self_printed_texts(family, mcpu, rnd):
    """GFX6/7: texts our printer makes from random fields (llvm-mc then judges them)."""
    target = get_target(mcpu)
    texts = set()
    for fmt, value in family_words(family, target, rnd):
        fields = fmt.unpack(value)
        try:
            info = family.decode_fields(fields, target, value)
        except DecodeError:
            continue
        texts.add(family.text(info, fields, target))
    return sorted(texts)


def build(name):
    family = importlib.import_module(f"amdgpu_tools.isa.families.{name}")
    rnd = random.Random(f"mem-corpus-{name}")
    decode, encode = [], []
    for mcpu in DECODE_TARGETS:
        rows, enc = decode_corpus(family, mcpu, rnd)
        decode += rows
        encode += enc
    for mcpu in ASSEMBLE_ONLY_TARGETS:
        texts = self_printed_texts(family, mcpu, rnd)
        for version in ("19", "14"):
            encode += encode_rows(mcpu, texts, version)
    document = {"generated_by": "tools/isa_gen/mem_corpus.py (llvm-objdump-19, llvm-mc 19/14);"
                                " do not edit",
                "decode": decode, "encode": encode}
    path = os.path.join(OUT_DIR, f"mem_{name}.json")
    with open(path, "w") as out:
        out.write('{"generated_by": ' + json.dumps(document["generated_by"]) + ',\n')
        for key in ("decode", "encode"):
            out.write(f' "{key}": [\n')
            out.write(",\n".join("  " + json.dumps(row) for row in document[key]))
            out.write("\n ]" + (",\n" if key == "decode" else "\n"))
        out.write("}\n")
    print(f"{path}: {len(decode)} decode rows, {len(encode)} encode rows")


def main(argv):
    for name in argv or FAMILIES:
        build(name)


if __name__ == "__main__":
    main(sys.argv[1:])

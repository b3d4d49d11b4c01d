"""Measure how far the memory families agree with LLVM (dev-time report).

For each family and processor, N words with random fields (opcodes mostly
drawn from the family's table) are decoded by us and by llvm-objdump-19;
every text llvm-objdump prints is then assembled by llvm-mc 19 and by our
encoder.  Prints agreement counts and the first differences.
Run from the repository root:  python tools/isa_gen/mem_agreement.py [N]
"""

import importlib
import os
import random
import sys

import mem_oracle
import mem_sweep as sw  # noqa: F401  (puts the repository on sys.path)
from amdgpu_tools.errors import DecodeError
from amdgpu_tools.isa.encoder import InstructionError, encode_instruction
from amdgpu_tools.isa.fields import int_to_words
from amdgpu_tools.isa.targets import get_target

sys.path.insert(0, os.path.join(sw.ROOT, "tests", "isa"))
from mem_syntax import parse_line  # noqa: E402

FAMILIES = ("ds", "flat", "buffer", "mimg", "export", "vintrp")
TARGETS = tuple(sys.argv[2].split(",")) if len(sys.argv) > 2 else ("gfx803", "gfx810", "gfx900")


def random_words(family, target, count, rnd):
    formats = [f for f in family.FORMATS if target.generation in f.generations]
    words = []
    for _ in range(count):
        fmt = rnd.choice(formats)
        fields = {k: rnd.getrandbits(f.width) if rnd.random() < 0.4 else 0
                  for k, f in fmt.fields.items()}
        infos = [i for i in family.instructions(target) if i.format in (fmt.name, fmt.encoding)
                 and (fmt.name not in ("MUBUF", "MTBUF") or fmt.name == i.encoding)]
        info = rnd.choice(infos)
        if fmt.name == "VOP3_INTERP":  # stay inside the interpolation slice of VOP3
            fields["op"] = 0x270 | fields["op"] & 15
        if "op" in fields and rnd.random() < 0.9:
            fields["op"] = info.opcode % (1 << fmt.fields["op"].width)
            if "seg" in fields:
                fields["seg"] = info.props.get("seg", 0)
        words.append((fmt, fmt.pack(fields)))
    return words


def ours(family, target, fmt, value):
    fields = fmt.unpack(value)
    try:
        return family.text(family.decode_fields(fields, target, value), fields, target)
    except DecodeError:
        return None


def measure(name, mcpu, count, rnd):
    family = importlib.import_module(f"amdgpu_tools.isa.families.{name}")
    target = get_target(mcpu)
    words = random_words(family, target, count, rnd)
    theirs = mem_oracle.disassemble_words([int_to_words(v, f.words) for f, v in words], mcpu)
    decode_ok, valid, diffs = 0, 0, []
    for (fmt, value), result in zip(words, theirs):
        expected = result[0] if result else None
        valid += expected is not None
        got = ours(family, target, fmt, value)
        if got == expected:
            decode_ok += 1
        elif len(diffs) < 3:
            diffs.append((hex(value), got, expected))
    texts = sorted({r[0] for r in theirs if r and "/*" not in r[0]})
    encode_ok, encode_total = 0, 0
    for text, (canonical, data) in zip(texts, mem_oracle.assemble(texts, mcpu)):
        mnemonic, operands = parse_line(text)
        try:
            mine = encode_instruction(mnemonic, operands, target).data
        except InstructionError:
            mine = None
        encode_total += 1
        encode_ok += mine == (data if canonical else None)
        if mine != (data if canonical else None) and len(diffs) < 6:
            diffs.append((text, mine and mine.hex(), data.hex() if canonical else data))
    print(f"{name:7} {mcpu}: decode {decode_ok}/{count} agree ({valid} valid words);"
          f" encode {encode_ok}/{encode_total} agree")
    for diff in diffs:
        print("    ", diff)


def main(argv):
    count = int(argv[0]) if argv else 5000  # argv[1]: comma-separated processors
    rnd = random.Random(7)
    for name in FAMILIES:
        for mcpu in TARGETS:
            measure(name, mcpu, count, rnd)


if __name__ == "__main__":
    main(sys.argv[1:])

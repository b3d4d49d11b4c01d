"""Print agreement with llvm-mc per processor and encoding format (for reports).

Counts come from the recorded corpora (tests/isa/data/{corpus,spellings,compiled}_<cpu>.txt):
bytes->text (decode), text->bytes (encode) and rejection of what llvm-mc rejects.
"""

import collections
import os
import sys

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "isa"))


def main():
    from amdgpu_tools.errors import ToolchainError
    from amdgpu_tools.isa import decode, encode_instruction, get_target
    from asm_text import parse_instruction
    from test_corpus import CPUS, DATA, corpus
    for cpu in CPUS:
        target = get_target(cpu)
        table = collections.defaultdict(lambda: [0, 0, 0, 0])
        rejects = [0, 0]
        kinds = ["corpus", "spellings"] + [k for k in ("compiled", "fuzz") if os.path.exists(
            os.path.join(DATA, f"{k}_{cpu}.txt"))]
        for kind in kinds:
            for text, hexbytes, expected in corpus(cpu, kind):
                if hexbytes == "ERROR":
                    rejects[1] += 1
                    try:
                        encode_instruction(*parse_instruction(text), target)
                    except ToolchainError:
                        rejects[0] += 1
                    continue
                data = bytes.fromhex(hexbytes)
                try:
                    inst = decode(data, 0, target)
                    encoding, ok = inst.encoding, inst.text() == expected
                except ToolchainError:
                    encoding, ok = "?", False
                row = table[encoding]
                row[0] += ok
                row[1] += 1
                if text == "-":  # random words: decode only
                    continue
                try:
                    row[2] += encode_instruction(*parse_instruction(text), target).data == data
                except ToolchainError:
                    pass
                row[3] += 1
        print(f"{cpu}: " + ", ".join(f"{enc} {d}/{n} dec {e}/{m} enc"
                                    for enc, (d, n, e, m) in sorted(table.items()))
              + f"; rejects {rejects[0]}/{rejects[1]}")


if __name__ == "__main__":
    main()

"""Batch access to the LLVM oracles for the memory-family generators.

Dev-time only: the generators under tools/isa_gen call llvm-mc here to learn
facts (opcodes, canonical spellings) that they then write into committed JSON.
Disassembling thousands of swept words one process at a time is slow, so words
are sent in one batch and llvm-mc's output is re-synchronised with the input
using the byte-exact encodings it echoes and the line:column of its warnings.
"""

import os
import re
import subprocess
import tempfile

LLVM_MC = {"14": "/usr/bin/llvm-mc", "19": "/usr/lib/llvm-19/bin/llvm-mc"}

_OUT = re.compile(r"^\s+(.*?)\s*; encoding: \[(.*)\]\s*$")
_WARN = re.compile(r"^<stdin>:(\d+):(\d+): (warning|error): (.*)$")


def _words_to_bytes(words):
    return b"".join(w.to_bytes(4, "little") for w in words)


OBJDUMP = "/usr/lib/llvm-19/bin/llvm-objdump"
_NOP = 0xBF800000
_PAD = 3  # s_nop dwords after each item: no garbage decode can run into the next item
_DUMP = re.compile(r"^\s+(.*?)\s*// ([0-9A-F]+): ([0-9A-F ]+)$")


def disassemble(codes, mcpu, version="19"):
    """Disassemble each byte string of ``codes`` exactly as llvm-objdump-19 does.

    Returns per item ``(text, bytes)`` or None: an item decodes only when
    llvm-objdump turns all of its bytes into one instruction.  Items are laid
    out in an object file at known addresses, each followed by s_nop padding,
    so every item's fate is read from the address column.
    """
    del version
    lines, addresses, address = [".text"], [], 0
    for code in codes:
        words = [int.from_bytes(code[i:i + 4], "little") for i in range(0, len(code), 4)]
        words += [_NOP] * _PAD
        lines.append(".long " + ", ".join(f"0x{w:08x}" for w in words))
        addresses.append(address)
        address += 4 * len(words)
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "sweep.o")
        subprocess.run([LLVM_MC["19"], "-triple=amdgcn", f"-mcpu={mcpu}", "-filetype=obj",
                        "-o", obj], input="\n".join(lines) + "\n", text=True, check=True)
        dump = subprocess.run([OBJDUMP, "-d", f"--mcpu={mcpu}", obj], capture_output=True,
                              text=True).stdout
    found = {}
    for line in dump.splitlines():
        m = _DUMP.match(line)
        if m:
            raw = b"".join(int(w, 16).to_bytes(4, "little") for w in m.group(3).split())
            found[int(m.group(2), 16)] = (m.group(1), raw)
    results = []
    for code, start in zip(codes, addresses):
        hit = found.get(start)
        ok = hit and hit[1] == code and not hit[0].startswith(("<unknown>", ".long", ".byte"))
        results.append(hit if ok else None)
    return results


def disassemble_words(word_lists, mcpu, version="19"):
    """Like disassemble() for instructions given as lists of 32-bit words."""
    return disassemble([_words_to_bytes(w) for w in word_lists], mcpu, version)


def assemble(texts, mcpu, version="19"):
    """Assemble each line; return (canonical text, bytes) or (None, error) per line."""
    proc = subprocess.run(
        [LLVM_MC[version], "-show-encoding", "-triple=amdgcn", f"-mcpu={mcpu}"],
        input="\n".join(texts) + "\n", capture_output=True, text=True)
    errors = {}
    for line in proc.stderr.splitlines():
        m = _WARN.match(line)
        if m and m.group(3) == "error":
            errors.setdefault(int(m.group(1)), m.group(4))
    outputs = [(m.group(1), bytes(int(x, 16) for x in m.group(2).split(",")))
               for m in map(_OUT.match, proc.stdout.splitlines()) if m]
    results = []
    cursor = 0
    for lineno, text in enumerate(texts, start=1):
        if not text.strip():
            results.append((None, "empty"))
        elif lineno in errors:
            results.append((None, errors[lineno]))
        else:
            results.append(outputs[cursor])
            cursor += 1
    return results

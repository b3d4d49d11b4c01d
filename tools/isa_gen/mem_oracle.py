"""Batch access to the LLVM oracles for the memory-family generators.

Dev-time only: the generators under tools/isa_gen call llvm-mc here to learn
facts (opcodes, canonical spellings) that they then write into committed JSON.
Disassembling thousands of swept words one process at a time is slow, so words
are sent in one batch and llvm-mc's output is re-synchronised with the input
using the byte-exact encodings it echoes and the line:column of its warnings.
"""

import re
import subprocess

LLVM_MC = {"14": "/usr/bin/llvm-mc", "19": "/usr/lib/llvm-19/bin/llvm-mc"}

_OUT = re.compile(r"^\s+(.*?)\s*; encoding: \[(.*)\]\s*$")
_WARN = re.compile(r"^<stdin>:(\d+):(\d+): (warning|error): (.*)$")


def _words_to_bytes(words):
    return b"".join(w.to_bytes(4, "little") for w in words)


def disassemble(codes, mcpu, version="19"):
    """Disassemble each byte string of ``codes``.

    Returns per item ``(text, re-encoded bytes)`` or None: an item decodes only
    when llvm-mc turns all of its bytes into one instruction. The echoed bytes
    are llvm-mc's re-encoding of the text, so ignored bits come back as zero.
    """
    lines = [",".join(f"0x{b:02x}" for b in code) for code in codes]
    proc = subprocess.run(
        [LLVM_MC[version], "-disassemble", "-show-encoding", "-triple=amdgcn", f"-mcpu={mcpu}"],
        input="\n".join(lines) + "\n", capture_output=True, text=True)
    outputs = []
    for line in proc.stdout.splitlines():
        m = _OUT.match(line)
        if m:
            enc = bytes(int(x, 16) for x in m.group(2).split(",")) if m.group(2) else b""
            outputs.append((m.group(1), enc))
    warnings = set()
    for line in proc.stderr.splitlines():
        m = _WARN.match(line)
        if m:
            warnings.add((int(m.group(1)), int(m.group(2))))
    results = []
    cursor = 0
    for lineno, code in enumerate(codes, start=1):
        pos = 0
        pieces = []
        while pos < len(code):
            if (lineno, 1 + 5 * pos) in warnings:
                pieces.append(None)
                pos += 4
                continue
            text, enc = outputs[cursor]
            cursor += 1
            if not enc or pos + len(enc) > len(code):
                raise RuntimeError(f"lost sync at line {lineno}: {text} {enc.hex()} vs {code.hex()}")
            pieces.append((text, enc))
            pos += len(enc)
        results.append(pieces[0] if len(pieces) == 1 and pieces[0] else None)
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

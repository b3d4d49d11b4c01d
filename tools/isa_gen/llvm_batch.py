"""Run llvm-mc over many inputs at once and map every answer back to its input.

One process per batch keeps table generation fast.  Disassembly: each
candidate sits on its own input line, followed by a marker line
(``s_movk_i32 s101, <index>`` twice); llvm-mc reports invalid encodings with the input
line number on stderr, and the text between markers belongs to the candidate.
Assembly: one statement per line, errors carry their line number.
"""

import re
import subprocess

LLVM_MC_19 = "/usr/lib/llvm-19/bin/llvm-mc"
LLVM_MC_14 = "/usr/lib/llvm-14/bin/llvm-mc"

_WARN_RE = re.compile(r"<stdin>:(\d+):\d+: (?:warning|error): (.*)")
_MARKER_RE = re.compile(r"^s_movk_i32 s101, (0x[0-9a-f]+|\d+)$")
_ENC_RE = re.compile(r"^(.*?)\s*; encoding: \[([^\]]*)\]")


def _marker(index):
    word = 0xB0000000 | (101 << 16) | index  # s_movk_i32 s101, index
    return ",".join(f"0x{b:02x}" for b in word.to_bytes(4, "little"))


def disassemble_words(candidates, mcpu, mc=LLVM_MC_19, chunk=4000, trailing=False):
    """``candidates``: list of tuples of uint32.  Returns text (or None) per candidate.

    With ``trailing``, the last dword of a candidate is padding a literal may
    use: the candidate's text is the first line printed for it, and only an
    invalid first word rejects it.
    """
    results = []
    for start in range(0, len(candidates), chunk):
        results.extend(_disassemble_chunk(candidates[start:start + chunk], mcpu, mc, trailing))
    return results


_WARN_POS_RE = re.compile(r"<stdin>:(\d+):(\d+): (?:warning|error)")


def _disassemble_chunk(candidates, mcpu, mc, trailing=False):
    lines = []
    line_of = []
    for index, words in enumerate(candidates):
        marker = _marker(index + 1)
        line_of.append(len(lines) + 1)
        lines.append(",".join(f"0x{b:02x}" for w in words for b in w.to_bytes(4, "little")))
        lines.append(marker)
        lines.append(marker)
    proc = subprocess.run([mc, "-disassemble", "-triple=amdgcn--amdhsa", f"-mcpu={mcpu}"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    bad_lines = {int(m.group(1)) for m in _WARN_POS_RE.finditer(proc.stderr)
                 if not trailing or m.group(2) == "1"}
    out = [ln.strip() for ln in proc.stdout.splitlines()]
    out = [ln for ln in out if ln and not ln.startswith(".")]
    texts = [None] * len(candidates)
    pending = []
    seen = set()
    for line in out:
        m = _MARKER_RE.match(line)
        if m:
            index = int(m.group(1), 0) - 1
            if 0 <= index < len(candidates) and index not in seen:
                seen.add(index)
                if line_of[index] not in bad_lines and (len(pending) == 1 or
                                                         (trailing and pending)):
                    texts[index] = pending[0]
                pending = []
                continue
            pending = []
            continue
        pending.append(line)
    return texts


def assemble_lines(lines, mcpu, mc=LLVM_MC_19, chunk=3000):
    """Assemble statements; returns per line (bytes, text) or (None, error message)."""
    results = []
    for start in range(0, len(lines), chunk):
        results.extend(_assemble_chunk(lines[start:start + chunk], mcpu, mc))
    return results


def _assemble_chunk(lines, mcpu, mc):
    proc = subprocess.run([mc, "-show-encoding", "-triple=amdgcn--amdhsa", f"-mcpu={mcpu}"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    errors = {}
    for m in _WARN_RE.finditer(proc.stderr):
        line = int(m.group(1))
        if "error" in m.group(0).split(":")[3]:
            errors.setdefault(line, m.group(2))
    encoded = []
    for line in proc.stdout.splitlines():
        m = _ENC_RE.match(line.strip())
        if m:
            data = bytes(int(b, 16) for b in m.group(2).split(",") if b.strip())
            encoded.append((data, m.group(1).strip()))
    results = []
    it = iter(encoded)
    for number, _ in enumerate(lines, 1):
        if number in errors:
            results.append((None, errors[number]))
        else:
            results.append(next(it, (None, "no output")))
    return results

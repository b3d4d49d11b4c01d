"""Differential tests against recorded llvm-mc results (no LLVM needed).

Each line of ``data/corpus_<cpu>.txt`` is ``input, bytes, disassembly`` as
llvm-mc-19 produced them (tools/isa_gen/gen_corpus.py), or ``input, ERROR,
message``.  GFX6/7 have no LLVM disassembler: their third column is
llvm-mc-14's printing of what it assembled, so the check is a round trip
(our text of llvm's bytes is llvm's text).  We check text -> bytes (our encoder on the same input), bytes ->
text (our printer against llvm's disassembly), and that inputs llvm rejects are
rejected.  Every disagreement must be listed, with its reason, in
``data/known_differences.txt``: the test fails on new differences AND on
listed ones that no longer occur.
"""

import os
import sys

import pytest

from amdgpu_tools.errors import ToolchainError
from amdgpu_tools.isa import decode, encode_instruction, get_target

sys.path.insert(0, os.path.dirname(__file__))
from asm_text import parse_instruction  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "data")
CPUS = ["gfx600", "gfx700", "gfx803", "gfx900", "gfx906"]


def corpus(cpu, kind="corpus"):
    """Recorded lines of ``<kind>_<cpu>.txt`` (kind: 'corpus' generated from the tables,
    'spellings' hand-written aliases and special forms, 'compiled' clang-19 output,
    'fuzz' random words llvm-mc disassembles, decode only)."""
    path = os.path.join(DATA, f"{kind}_{cpu}.txt")
    with open(path) as fh:
        return [line.rstrip("\n").split("\t") for line in fh if not line.startswith("#")]


def known_differences():
    known = set()
    with open(os.path.join(DATA, "known_differences.txt")) as fh:
        for line in fh:
            if line.strip() and not line.startswith("#"):
                cpu, check, text = line.rstrip("\n").split("\t")[:3]
                known.add((cpu, check, text))
    return known


def differences(cpu):
    """Every (cpu, check, input) where we disagree with llvm-mc, and the counts."""
    target = get_target(cpu)
    found = set()
    counts = {"decode": 0, "encode": 0, "reject": 0}
    lines = corpus(cpu) + corpus(cpu, "spellings")
    for extra in ("compiled", "fuzz"):
        if os.path.exists(os.path.join(DATA, f"{extra}_{cpu}.txt")):
            lines += corpus(cpu, extra)
    for text, hexbytes, expected in lines:
        if text == "-":
            text = f"[{hexbytes}] {expected}"  # decode-only lines are known by their bytes
        if hexbytes == "ERROR":
            counts["reject"] += 1
            try:
                encode_instruction(*parse_instruction(text), target)
            except ToolchainError:
                continue
            found.add((cpu, "accepts", text))
            continue
        data = bytes.fromhex(hexbytes)
        if expected != "-":
            counts["decode"] += 1
            try:
                ok = decode(data, 0, target).text() == expected
            except ToolchainError:
                ok = False
            if not ok:
                found.add((cpu, "decode", text))
        if text.startswith("["):  # decode-only line (random words llvm accepted)
            continue
        counts["encode"] += 1
        try:
            ok = encode_instruction(*parse_instruction(text), target).data == data
        except ToolchainError:
            ok = False
        if not ok:
            found.add((cpu, "encode", text))
    return found, counts


@pytest.mark.parametrize("cpu", CPUS)
def test_agreement_with_llvm_mc(cpu):
    found, counts = differences(cpu)
    known = {k for k in known_differences() if k[0] == cpu}
    new = sorted(found - known)
    fixed = sorted(known - found)
    assert not new, f"{len(new)} new differences from llvm-mc on {cpu}, e.g. {new[:5]}"
    assert not fixed, f"{len(fixed)} listed differences no longer occur on {cpu}: {fixed[:5]}"
    assert counts["decode"] > 15000 and counts["encode"] > 15000 and counts["reject"] > 5000

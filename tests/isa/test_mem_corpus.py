"""Memory families against the recorded LLVM corpus (no LLVM needed).

tests/isa/data/mem_<family>.json is written by tools/isa_gen/mem_corpus.py:
``decode`` rows (target, bytes, llvm-objdump-19 text or null when it refuses
the word) and ``encode`` rows (target, llvm-mc version, text, bytes or null,
canonical text or llvm-mc's error).
"""

import json
import os
import sys

import pytest

from amdgpu_tools.errors import DecodeError
from amdgpu_tools.isa.decoder import decode
from amdgpu_tools.isa.encoder import InstructionError, encode_instruction

sys.path.insert(0, os.path.dirname(__file__))
from mem_syntax import parse_line  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "data")
FAMILIES = ("ds", "flat", "buffer", "mimg", "export", "vintrp")


def corpus(family):
    path = os.path.join(DATA, f"mem_{family}.json")
    if not os.path.exists(path):
        pytest.skip(f"no corpus recorded for {family}")
    with open(path) as handle:
        return json.load(handle)


def our_text(target, data):
    try:
        inst = decode(data, 0, target)
    except DecodeError:
        return None
    return inst.text() if inst.size == len(data) else None


@pytest.mark.parametrize("family", FAMILIES)
def test_decode_matches_llvm_objdump(family):
    rows = corpus(family)["decode"]
    wrong = [(target, code, text, our_text(target, bytes.fromhex(code)))
             for target, code, text in rows]
    wrong = [w for w in wrong if w[2] != w[3]]
    assert not wrong, f"{len(wrong)}/{len(rows)} differ, e.g. {wrong[:5]}"


def encode_text(target, text):
    mnemonic, operands = parse_line(text)
    return encode_instruction(mnemonic, operands, target)


@pytest.mark.parametrize("family", FAMILIES)
def test_encode_matches_llvm_mc(family):
    encode_rows = corpus(family)["encode"]
    refused_by_19 = {(r[0], r[2]) for r in encode_rows if r[1] == "19" and r[3] is None}
    # llvm-mc 14 accepts a few texts llvm-mc 19 refuses (attr33..63); 19 is the reference
    rows = [r for r in encode_rows if r[3] is not None and (r[0], r[2]) not in refused_by_19]
    wrong = []
    for target, version, text, code, canonical in rows:
        encoded = encode_text(target, text)
        if encoded.data.hex() != code or encoded.text != canonical:
            wrong.append((target, version, text, code, encoded.data.hex(), encoded.text))
    assert rows
    assert not wrong, f"{len(wrong)}/{len(rows)} differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("family", FAMILIES)
def test_encode_rejects_what_llvm_mc_19_rejects(family):
    rows = [r for r in corpus(family)["encode"] if r[3] is None and r[1] == "19"]
    accepted = []
    for target, _, text, _, error in rows:
        try:
            encoded = encode_text(target, text)
        except InstructionError:
            continue
        accepted.append((target, text, error, encoded.data.hex()))
    assert not accepted, f"{len(accepted)}/{len(rows)} accepted, e.g. {accepted[:5]}"


@pytest.mark.parametrize("family", FAMILIES)
def test_decoded_bytes_print_as_llvm_mc_assembled_them(family):
    """bytes -> text for what llvm-mc assembled (GFX6/7 included, via llvm-mc 19 and 14)."""
    rows = [r for r in corpus(family)["encode"] if r[3] is not None]
    wrong = [(target, code, canonical, our_text(target, bytes.fromhex(code)))
             for target, _, _, code, canonical in rows]
    wrong = [w for w in wrong if w[2] != w[3]]
    assert not wrong, f"{len(wrong)}/{len(rows)} differ, e.g. {wrong[:5]}"

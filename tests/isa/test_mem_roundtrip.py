"""Every instruction of the memory families, on every processor: text -> bytes -> text.

For each table row a few random field values are packed until one decodes
(the decoder's validity rules pick it), then its printed text is parsed,
encoded and decoded again; the text must come back unchanged and encoding
the same text twice must give the same bytes.
"""

import importlib
import os
import random
import sys

import pytest

from amdgpu_tools.errors import DecodeError
from amdgpu_tools.isa.decoder import decode
from amdgpu_tools.isa.encoder import InstructionError, encode_instruction
from amdgpu_tools.isa.targets import ALL_TARGETS

sys.path.insert(0, os.path.dirname(__file__))
from mem_syntax import parse_line  # noqa: E402

FAMILIES = ("ds", "flat", "buffer", "mimg", "export", "vintrp")
TARGETS = ("gfx600", "gfx700", "gfx803", "gfx810", "gfx900", "gfx906")


def family_module(name):
    try:
        return importlib.import_module(f"amdgpu_tools.isa.families.{name}")
    except ModuleNotFoundError:
        pytest.skip(f"family {name} not present")


def formats_of(family, info, generation):
    wanted = getattr(info, "format", info.encoding)
    return [f for f in family.FORMATS if generation in f.generations and
            wanted in (f.name, f.encoding) and (f.name != "MUBUF" or info.encoding == "MUBUF")
            and (f.name != "MTBUF" or info.encoding == "MTBUF")]


def example_text(family, info, target, rnd):
    """The printed text of some valid encoding of ``info`` that llvm-mc's rules
    also accept (None if none found)."""
    for fmt in formats_of(family, info, target.generation):
        for attempt in range(200):
            fields = {name: (int(rnd.random() < 0.3) if f.width == 1 else
                             rnd.getrandbits(min(f.width, 6)) if rnd.random() < 0.5 else 0)
                      for name, f in fmt.fields.items()}
            for small in ("srsrc", "ssamp"):  # s[100:103] and up print but do not assemble
                if small in fields:
                    fields[small] &= 15
            if "store" in info.name and "tfe" in fields:  # llvm-mc refuses tfe on stores
                fields["tfe"] = 0
            if fields.get("addr64") and (fields.get("offen") or fields.get("idxen")):
                fields["addr64"] = 0  # llvm-mc refuses addr64 with offen/idxen
            for slot in ("src1", "src2"):  # VOP3 interpolation: VGPR sources (256+)
                if slot in fields:
                    spec = info.operand(slot)
                    fields[slot] = 0 if spec is None else \
                        fields[slot] | 0x100 if spec.kind == "vgpr" else fields[slot] & 3
            if "op" in fmt.fields:
                fields["op"] = info.opcode
            if "seg" in fmt.fields:
                fields["seg"] = info.props.get("seg", 0)
            value = fmt.pack(fields)
            unpacked = fmt.unpack(value)
            try:
                if family.decode_fields(unpacked, target, value) is not info:
                    continue
            except DecodeError:
                continue
            text = family.text(info, unpacked, target)
            if "/*" in text:  # llvm prints some refused registers with a remark: not assemblable
                continue
            try:  # some decodable forms are refused by the assembler (as by llvm-mc)
                mnemonic, operands = parse_line(text)
                encode_instruction(mnemonic, operands, target)
            except InstructionError:
                continue
            return text, value, fmt
    return None, None, None


def canonical_fixpoint(encoded, target):
    """Re-encoding llvm's canonical spelling gives the same bytes and text."""
    mnemonic, operands = parse_line(encoded.text)
    again = encode_instruction(mnemonic, operands, target)
    return again.data == encoded.data and again.text == encoded.text


@pytest.mark.parametrize("family_name", FAMILIES)
@pytest.mark.parametrize("cpu", TARGETS)
def test_every_instruction_round_trips(family_name, cpu):
    family = family_module(family_name)
    target = next(t for t in ALL_TARGETS if t.name == cpu)
    rnd = random.Random(f"{family_name}-{cpu}")
    infos = family.instructions(target)
    missing, wrong = [], []
    for info in infos:
        text, value, fmt = example_text(family, info, target, rnd)
        if text is None:
            missing.append(info.name)
            continue
        mnemonic, operands = parse_line(text)
        encoded = encode_instruction(mnemonic, operands, target)
        again = decode(encoded.data, 0, target)
        if again.text() != encoded.text:
            wrong.append((text, encoded.data.hex(), again.text()))
        elif encoded.text != text and not canonical_fixpoint(encoded, target):
            # only swizzle(BITMASK_PERM) of constant bits re-prints differently, as in llvm
            wrong.append((text, encoded.data.hex(), encoded.text))
        elif encode_instruction(mnemonic, operands, target).data != encoded.data:
            wrong.append((text, "not deterministic"))
    assert not missing, f"no valid example found for {missing[:10]}"
    assert not wrong, f"{len(wrong)}/{len(infos)} do not round-trip, e.g. {wrong[:5]}"


@pytest.mark.parametrize("family_name", FAMILIES)
def test_instruction_missing_on_target_is_reported(family_name):
    """A mnemonic of another processor names the processor in the error."""
    family = family_module(family_name)
    from amdgpu_tools.isa.encoder import InstructionError
    gfx9 = next(t for t in ALL_TARGETS if t.name == "gfx900")
    gfx6 = next(t for t in ALL_TARGETS if t.name == "gfx600")
    only_gfx9 = [i for i in family.instructions(gfx9) if family.lookup(i.name, gfx6) is None]
    if not only_gfx9:
        pytest.skip("every instruction exists on gfx600")
    with pytest.raises(InstructionError, match="not supported on this GPU"):
        encode_instruction(only_gfx9[0].name, [], gfx6)

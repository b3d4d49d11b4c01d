"""Every memory instruction, decoded from real encodings, runs through its semantics.

For each op of the ISA's memory tables and each generation that has it, the
instruction word is packed from the format declaration (all fields zero but
the opcode), decoded by ``amdgpu_tools.isa`` and executed on a small batch
whose registers point at valid memory.  This checks that the semantics read
exactly the field names the decoder produces; any op the executor rejects
must be listed in ``UNSUPPORTED``.
"""

import json
from importlib import resources

import numpy as np
import pytest

from amdgpu_tools.errors import DecodeError, KernelError, UnsupportedInstruction
from amdgpu_tools.exec import semantics  # noqa: F401  (registers everything)
from amdgpu_tools.exec.addressing import encode_buffer_resource
from amdgpu_tools.exec.core.context import Context
from amdgpu_tools.exec.core.formats import BUILDERS
from amdgpu_tools.exec.core.program import Program, semantic_for
from amdgpu_tools.exec.core.registry import UNSUPPORTED
from amdgpu_tools.isa.decoder import decode
from amdgpu_tools.isa.families import formats_core, formats_mem
from amdgpu_tools.isa.fields import int_to_words
from amdgpu_tools.isa.targets import get_target

from .test_mem_support import make_state

GENERATION_TARGET = {6: "gfx600", 7: "gfx700", 8: "gfx803", 9: "gfx900"}
FORMATS = {
    "DS": (formats_mem.DS_SI, formats_mem.DS_VI),
    "MUBUF": (formats_mem.MUBUF_SI, formats_mem.MUBUF_VI),
    "MTBUF": (formats_mem.MTBUF_SI, formats_mem.MTBUF_VI),
    "FLAT": (formats_mem.FLAT_CI, formats_mem.FLAT_GFX9),
    "SMRD": (formats_core.SMRD,),
    "SMEM": (formats_core.SMEM_GFX8, formats_core.SMEM_GFX9),
}
SEGMENTS = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}


def _document(filename):
    data = resources.files("amdgpu_tools.isa.data").joinpath(filename)
    return json.loads(data.read_text()) if data.is_file() else None


def cases():
    """(name, generation, format key, opcode, extra fields) for every memory op."""
    found = []
    for filename in ("ds.json", "buffer.json", "flat.json"):
        document = _document(filename) or {"ops": []}
        for row in document["ops"]:
            for generation, opcode in row["opcodes"].items():
                generation = int(generation)
                restricted = [t for t in row.get("targets", ()) if t.startswith(f"gfx{generation}")]
                if restricted and GENERATION_TARGET[generation] not in restricted:
                    continue                    # a row of other processors of the generation
                encoding = row["encoding"]
                key = "FLAT" if encoding in SEGMENTS else encoding
                extra = {"seg": SEGMENTS[encoding]} if generation == 9 and key == "FLAT" else {}
                found.append((row["name"], generation, key, opcode, extra))
    document = _document("smem.json") or {"ops": []}
    for row in document["ops"]:
        for generation, opcode in row["opcodes"].items():
            generation = int(generation)
            key = "SMRD" if generation <= 7 else "SMEM"
            found.append((row["name"], generation, key, opcode, {}))
    return sorted(found)


def encode(name, key, generation, opcode, extra):
    fmt = next(f for f in FORMATS[key] if generation in f.generations)
    fields = {"op": opcode, **extra}
    if name.startswith(("ds_gws", "ds_ordered")):
        fields["gds"] = 1                       # these exist only as GDS operations
    if key in ("MUBUF", "MTBUF"):
        fields["soffset"] = 128                 # inline constant 0
    if key == "FLAT" and generation == 9 and fields.get("seg"):
        fields["saddr"] = 0x7F                  # off (GLOBAL and SCRATCH)
    if key == "SMEM" and generation == 9:
        fields["soffset"] = 0
    return b"".join(w.to_bytes(4, "little") for w in int_to_words(fmt.pack(fields), fmt.words))


_BATCHES = {}


def batch(target):
    """One wave: v[0:1] and s[0:1] hold a buffer address, s[0:3] a V# of it.

    The state is made once per target and its registers reset for each case.
    """
    from amdgpu_tools.exec import setup
    if target not in _BATCHES:
        state = make_state(target, waves=1, vgprs=64, lds_bytes=1024)
        buffer = state.memory.allocate(1 << 16)
        state.request.private_segment_size = 64
        state.layout = setup.prepare_dispatch(state.request)
        init = setup.initial_wave_state(state.layout, setup.all_workgroup_ids(state.layout))
        _BATCHES[target] = (state, buffer, init)
    state, buffer, init = _BATCHES[target]
    state.vgpr[:] = 0
    state.vgpr[0] = buffer & 0xFFFFFFFF
    state.vgpr[1] = buffer >> 32
    state.sgpr[:124] = 0
    state.sgpr[0:4, 0] = encode_buffer_resource(buffer, num_records=1 << 16, data_format=4,
                                                num_format=4)
    state.sgpr[124] = 0xFFFFFFFF
    if state.target.generation >= 7:
        state.write_sgpr64(slice(None), setup.flat_scratch_code(state.target.generation),
                           init.flat_scratch)
    return state


ALL_CASES = cases()


@pytest.mark.skipif(not ALL_CASES, reason="the ISA package has no memory tables yet")
@pytest.mark.parametrize("name,generation,key,opcode,extra", ALL_CASES,
                         ids=[f"{c[0]}-gfx{c[1]}" for c in ALL_CASES])
def test_decoded_memory_op_runs(name, generation, key, opcode, extra):
    target = get_target(GENERATION_TARGET[generation])
    try:
        inst = decode(encode(name, key, generation, opcode, extra), 0, target)
    except DecodeError as error:
        pytest.skip(f"decoder cannot decode {name} yet: {error}")
    assert inst.op == name
    state = batch(target.name)
    semantic = semantic_for(inst, generation)
    if semantic is None:
        assert name in UNSUPPORTED
        return
    run = BUILDERS[semantic.kind](inst, semantic, Program(state.memory, target, state.request))
    ctx = Context(state, slice(0, 1), 1, type("R", (), {"pc": 0x1000, "inst": inst,
                                                       "text": name, "size": inst.size})())
    try:
        run(ctx)
    except UnsupportedInstruction:
        assert name in UNSUPPORTED
    except KernelError as error:
        # GDS and deliberately unmodelled variants explain themselves
        assert name in UNSUPPORTED or "not supported" in str(error), str(error)

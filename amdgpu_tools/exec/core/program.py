"""Decode once, run many: code in device memory -> pre-decoded records.

Instructions are decoded lazily the first time a wave reaches their address
(functions called through s_swappc may live anywhere in the code object) and
cached by address. A ``Record`` binds the decoded instruction to the closure
its format wrapper built, so the run loop only calls ``record.run(ctx)``.

Binding (building the closure) costs far more than running it once, and a
kernel launched many times, or device-library code shared by kernels, would
pay it on every dispatch: the closures are therefore shared by every
dispatch through ``_BOUND``, keyed by everything a builder may read (the
instruction bytes, the target, the decoder and the flat apertures), and
used only while the registry still holds the semantic it was built from
(tests replace semantics). A closure never depends on its address
(branches read ``ctx.record.pc``).
"""

from __future__ import annotations

import copy

from ...errors import DecodeError, KernelError, MemoryFault, UnsupportedInstruction
from ...isa import decode as isa_decode
from ...isa.effects import SALU_ENCODINGS, SMEM_ENCODINGS, is_valu
from . import gpr_index
from .. import semantics  # noqa: F401  (registers every semantic)
from .formats import BUILDERS
from .operands import OperandError
from .registry import SEMANTICS, UNSUPPORTED

#: Longest GCN instruction: 8 bytes + a 4-byte literal; read a little more.
_FETCH_BYTES = 16

#: Mnemonics whose meaning moved between generations: the executor keys
#: semantics by what the op *does*, the decoder names it as the target does.
GENERATION_RENAMES = {
    6: {"v_add_i32": "v_add_co_u32", "v_sub_i32": "v_sub_co_u32",
        "v_subrev_i32": "v_subrev_co_u32", "v_addc_u32": "v_addc_co_u32",
        "v_subb_u32": "v_subb_co_u32", "v_subbrev_u32": "v_subbrev_co_u32"},
    8: {"v_add_u32": "v_add_co_u32", "v_sub_u32": "v_sub_co_u32",
        "v_subrev_u32": "v_subrev_co_u32", "v_addc_u32": "v_addc_co_u32",
        "v_subb_u32": "v_subb_co_u32", "v_subbrev_u32": "v_subbrev_co_u32"},
}
GENERATION_RENAMES[7] = GENERATION_RENAMES[6]


class Record:
    """One pre-decoded instruction."""

    __slots__ = ("pc", "size", "inst", "_text", "op", "run", "next_pc", "is_vector")

    def __init__(self, pc, inst, run):
        self.pc = pc
        self.inst = inst
        self.size = inst.size
        self.next_pc = pc + inst.size
        self.op = inst.op
        self._text = None
        self.run = run
        self.is_vector = inst.encoding not in _SCALAR_ENCODINGS

    @property
    def text(self):
        """The instruction's assembly text, printed on first use (messages and
        traces only need it: most records never do)."""
        if self._text is None:
            self._text = _text(self.inst)
        return self._text


_SCALAR_ENCODINGS = SALU_ENCODINGS | SMEM_ENCODINGS


def _text(inst):
    try:
        return inst.text()
    except Exception:  # a printer gap must not hide the real error
        return inst.op


def semantic_for(inst, generation):
    """The registered semantic of ``inst`` (after generation renames), or None."""
    op = GENERATION_RENAMES.get(generation, {}).get(inst.op, inst.op)
    return SEMANTICS.get(op)


#: Decoded instructions shared by every dispatch: (target, bytes) -> Instruction.
#: Keyed by the bytes themselves, so rewritten or reloaded code never hits a
#: stale entry; bounded so a long session cannot grow it without limit.
_DECODED = {}
_DECODED_LIMIT = 1 << 16
#: Bound closures shared by every dispatch: (binding key, bytes) -> (inst,
#: semantic, run), under the bytes fetched at an address and under the
#: instruction's own bytes.
_BOUND = {}


class Program:
    """The decode cache of one dispatch (or one loaded code object)."""

    #: the compiled-block tier of the dispatch (``dispatch.block_tier``), once
    #: asked for: a BlockTier, or False where blocks run interpreted
    block_tier = None

    def __init__(self, memory, target, request=None, decode=None):
        self.memory = memory
        self.target = target
        self.request = request
        self.generation = getattr(target, "generation", 9)
        if decode is None:
            decode = isa_decode
        self._decode = decode
        self._records = {}
        #: what a builder may read besides the instruction (see ``_BOUND``)
        self._binding_key = (getattr(target, "name", None), self.generation, decode,
                             getattr(request, "shared_aperture_base", 0) or 0,
                             getattr(request, "private_aperture_base", 0) or 0)

    def at(self, pc: int) -> Record:
        record = self._records.get(pc)
        if record is None:
            record = self._records[pc] = self._build(pc)
        return record

    @property
    def binding_key(self):
        """What decoding and binding depend on besides the bytes (target,
        generation, decoder, apertures): code read under equal keys at equal
        bytes decodes and binds the same."""
        return self._binding_key

    def code(self, start: int, end: int):
        """The code bytes start:end, or None where they are not mapped (in one
        allocation)."""
        try:
            allocation = self.memory.allocation_at(start, end - start)
        except MemoryFault:
            return None
        offset = start - allocation.address
        return bytes(allocation.buffer[offset:offset + end - start])

    def _fetch(self, pc):
        try:
            allocation = self.memory.allocation_at(pc, 4)
        except MemoryFault as fault:
            raise KernelError(f"instruction fetch from unmapped address 0x{pc:x}",
                              pc=pc, address=pc) from fault
        start = pc - allocation.address
        return bytes(allocation.buffer[start:start + _FETCH_BYTES])

    def _build(self, pc):
        code = self._fetch(pc)
        bound = _BOUND.get((self._binding_key, code))
        if bound is None or semantic_for(bound[0], self.generation) is not bound[1]:
            bound = self._decode_and_bind(code, pc)
        return Record(pc, bound[0], bound[2])

    def _decode_and_bind(self, code, pc):
        """(instruction, semantic, run closure) of ``code``, remembered in ``_BOUND``."""
        key = (getattr(self.target, "name", None), code)
        inst = _DECODED.get(key)
        if inst is None:
            try:
                inst = self._decode(code, 0, self.target)
            except DecodeError as error:
                raise KernelError(f"illegal instruction: {error}", pc=pc) from error
            if len(_DECODED) >= _DECODED_LIMIT:
                _DECODED.clear()
            _DECODED[key] = inst
        semantic = semantic_for(inst, self.generation)
        # the same instruction recurs at many addresses (-O0 code above all):
        # its closure is also kept under its own bytes, without what follows
        own_key = (self._binding_key, code[:inst.size])
        shared = _BOUND.get(own_key)
        if shared is not None and shared[1] is semantic:
            run = shared[2]
        else:
            run = self._bind(inst, pc)
        if len(_BOUND) >= _DECODED_LIMIT:
            _BOUND.clear()
        bound = _BOUND[(self._binding_key, code)] = _BOUND[own_key] = (inst, semantic, run)
        return bound

    def variant(self, record, key):
        """The record waves in the modes ``key`` = (index, enables, vskip) of
        ``gpr_index`` run at this PC: under MODE.VSKIP a vector instruction does
        nothing; with VGPR indexing its enabled VGPR operands move by the index."""
        index, enables, vskip = key
        if vskip and record.is_vector:
            return Record(record.pc, record.inst, _skipped)
        inst = record.inst
        if not enables or not is_valu(inst):
            return record
        semantic = semantic_for(inst, self.generation)
        writes_vgpr = inst.op not in gpr_index.SGPR_DESTINATION_OPS and not (
            semantic is not None and semantic.kind == "vcmp")
        variant = copy.copy(inst)
        variant.fields = gpr_index.indexed_fields(inst, index, enables, writes_vgpr)
        variant._text = None
        return Record(record.pc, variant, self._bind(variant, record.pc))

    def _bind(self, inst, pc):
        semantic = semantic_for(inst, self.generation)
        if semantic is None:
            return _rejecting(inst)
        try:
            return BUILDERS[semantic.kind](inst, semantic, self)
        except OperandError as error:
            return _failing(str(error))


def _skipped(ctx):
    """A vector instruction under MODE.VSKIP: nothing happens."""
    return None


def _rejecting(inst):
    reason = UNSUPPORTED.get(inst.op) or UNSUPPORTED.get(inst.encoding)

    def run(ctx):
        if reason:
            raise ctx.fault(f"unsupported instruction: {reason}", error=UnsupportedInstruction)
        raise ctx.fault(f"the executor has no semantics for '{inst.op}'"
                        f" ({inst.encoding})", error=UnsupportedInstruction)
    return run


def _failing(message):
    def run(ctx):
        raise ctx.fault(message)
    return run

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

A Program itself may outlive its dispatch (``keep``/``unchanged``): a kernel
launched again runs on the records, compiled-block slots and code scans its
last dispatch made, once the code they were decoded from is found unchanged.
The hardware reads code through an instruction cache the packet processor
invalidates at every dispatch; comparing the bytes is that invalidation.
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
from .registry import GENERATION_RENAMES, UNSUPPORTED, semantic_for  # noqa: F401

#: Longest GCN instruction: 8 bytes + a 4-byte literal; read a little more.
_FETCH_BYTES = 16
#: A kept Program remembers its code by pages of this many bytes (the bits
#: of an address below the page number)...
CODE_PAGE_BITS = 12
#: ... and is kept only while its pages hold at most this many bytes: each
#: later dispatch compares them all (~10 GB/s).
KEPT_CODE_BYTES = 256 << 10

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
        #: pc -> Record: every instruction decoded so far (the scheduler reads
        #: it directly, and calls ``at`` where it has none)
        self.records = {}
        #: what a builder may read besides the instruction (see ``_BOUND``)
        self._binding_key = self.key_for(target, request, decode)
        #: page -> (start, end) of the allocation of the code records were
        #: decoded from there; the (pc, bytes) of those decoded since ``keep``
        #: last looked
        self._pages = {}
        self._decoded_since = []
        #: [(address, bytes)]: the code as ``keep`` saw it
        self._snapshot = ()

    @staticmethod
    def key_for(target, request=None, decode=None) -> tuple:
        """The binding key (``binding_key``) of a Program made with these arguments."""
        return (getattr(target, "name", None), getattr(target, "generation", 9),
                decode if decode is not None else isa_decode,
                getattr(request, "shared_aperture_base", 0) or 0,
                getattr(request, "private_aperture_base", 0) or 0)

    def at(self, pc: int) -> Record:
        record = self.records.get(pc)
        if record is None:
            record = self.records[pc] = self._build(pc)
        return record

    # ------------------------------------------------- outliving a dispatch
    def keep(self) -> bool:
        """Ready this Program to serve a later dispatch (``unchanged``): save
        the code of the pages its records came from and drop what names this
        dispatch. False when it should not be kept: too much code to compare,
        or code rewritten since it was decoded (the kernel wrote it)."""
        if self._decoded_since:
            # the pages saved before must still hold what their records came
            # from: the new snapshot takes them as they are now
            if not self.unchanged(self.memory):
                return False
            spans = _spans(self._pages)
            if sum(end - start for start, end in spans) > KEPT_CODE_BYTES:
                return False
            snapshot = []
            for start, end in spans:
                code = self.code(start, end)
                if code is None:
                    return False
                snapshot.append((start, code))
            if not all(_holds(snapshot, pc, code) for pc, code in self._decoded_since):
                return False
            self._snapshot = snapshot
            self._decoded_since = []
        self.memory = self.request = None
        return True

    def unchanged(self, memory) -> bool:
        """Whether the code this Program decoded is in ``memory`` as ``keep``
        saw it (then it may serve a dispatch there: ``rebind``)."""
        for start, code in self._snapshot:
            try:
                allocation = memory.allocation_at(start, len(code))
            except MemoryFault:
                return False
            offset = start - allocation.address
            # (bytes first: comparing a memoryview goes byte by byte, ~30x slower)
            if bytes(allocation.buffer[offset:offset + len(code)]) != code:
                return False
        return True

    def rebind(self, memory, request) -> None:
        """Serve the dispatch ``request`` (after ``unchanged``)."""
        self.memory = memory
        self.request = request

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
        return bytes(allocation.buffer[start:start + _FETCH_BYTES]), allocation

    def _build(self, pc):
        code, allocation = self._fetch(pc)
        bound = _BOUND.get((self._binding_key, code))
        if bound is None or semantic_for(bound[0], self.generation) is not bound[1]:
            bound = self._decode_and_bind(code, pc)
        inst = bound[0]
        extent = (allocation.address, allocation.end)
        self._pages[pc >> CODE_PAGE_BITS] = extent
        self._pages[(pc + inst.size - 1) >> CODE_PAGE_BITS] = extent
        self._decoded_since.append((pc, code[:inst.size]))
        return Record(pc, inst, bound[2])

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


def _spans(pages):
    """[(start, end)] addresses of the runs of consecutive code ``pages``
    (page -> its allocation's (start, end)), each within its allocation."""
    spans = []
    size = 1 << CODE_PAGE_BITS
    for page in sorted(pages):
        low, high = pages[page]
        start, end = max(page << CODE_PAGE_BITS, low), min((page << CODE_PAGE_BITS) + size, high)
        if spans and spans[-1][1] == start and spans[-1][2] == (low, high):
            spans[-1][1] = end
        else:
            spans.append([start, end, (low, high)])
    return [(start, end) for start, end, _ in spans]


def _holds(snapshot, pc, code) -> bool:
    """Whether ``snapshot`` has ``code`` at ``pc``."""
    for start, saved in snapshot:
        if start <= pc and pc + len(code) <= start + len(saved):
            return saved[pc - start:pc - start + len(code)] == code
    return False


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

"""A basic block of pre-decoded instructions -> the source of one Numba function.

The generated function runs the block from its instruction ``start`` for
the contiguous waves ``w0:w1`` of a batch, following its branches, for at
most ``max_steps`` steps and until the next PC is at or past ``limit``; it
returns the steps it ran, the lanes it executed (the scheduler's count:
EXEC's popcount for a vector instruction, one per wave for a scalar one)
and the PC where the waves go on::

    def block(vgpr, sgpr, scc, lds, wave_group, w0, w1, start, max_steps, limit,
              barrier_ok, base, memory) -> (steps, lanes, next_pc)

``base`` is the PC of the block's first instruction: the code is position
independent, so the cache serves a code object wherever it is loaded.
``memory`` is the device's address space for a block that moves global
memory (``tier.memory_view``), else None.

Each instruction becomes a call of its registered semantic function (its
compiled copy: ``jitcopy.py``) between operand reads and an EXEC-masked
write-back (``kernels.py``), decided here once: which register, constant,
modifier and MODE flush, exactly as ``exec/core/formats.py`` binds them for
the interpreter. What this module cannot express ends the block (``why_not``
says why), and the interpreter runs it: scalar stores, atomics and loads
with an SGPR offset, indexed, addr64, sub-dword and typed buffer accesses,
GFX9 scratch_* accesses, MUBUF atomics, the packed f16 atomic add,
s_endpgm and control flow other than branches and calls, op_sel, DPP compares, DPP and SDWA ops
with a carry, f16 operands (Numba has no float16), MODE's directed
rounding. (DPP and SDWA VALU ops compile from the interpreter's own lane
maps and selections, ``lanes.DppModifiers``, ``lanes.sdwa_selector``/
``sdwa_placer``; output modifiers from its ``formats.integer_saturation``
and ``formats.float_result_modifier``;
the float min/max/med3 family compiles since its NaN rules are the
semantics'. MUBUF dword moves without IDXEN/ADDR64, -O0 code's scratch,
compile from the interpreter's V# field places and swizzled layout,
``addressing.V_SHARP_FIELDS`` and ``swizzled_address``.)
Some instructions compile with a
condition checked as they run (an LDS access must be aligned and in range,
a global or scalar load's inside one allocation, a barrier must have its
whole work-group in the group); when it fails the function returns before
the instruction and the interpreter takes it.

A lane loop has a second copy without EXEC tests for the waves whose lanes
are all active, which LLVM vectorises (``_lane_loops``). A block longer
than WHOLE_MAX_INSTRUCTIONS is written as one function per
PART_INSTRUCTIONS instructions, which the block function calls in turn
(``_block_in_parts``): Numba's compile time grows faster than a function's
length.
"""

from __future__ import annotations

import re


from ...isa.effects import SALU_ENCODINGS, SMEM_ENCODINGS
from ..core import operands as ops
from ..core.formats import (_ALLOW_INPUT, _ALLOW_OUTPUT, _source_codes, compare_destination,
                            modifier_type)
from ..core.lanes import DppModifiers, SdwaModifiers, source_modifiers
from ..core.operands import field
from ..core.registry import semantic_for
from ..core.registry import ieee_form
from ..core.state import EXEC_HI, EXEC_LO, VCC_LO
from ..semantics.control import branch_offset
from ..semantics.ds import element_offsets, offset16, swizzle_sources
from ..semantics.lane import LANE_SELECT_MASK
from ..semantics.memory import ATOMIC_OPS, COMPARE_AND_SWAPS, TWO_OPERAND_ATOMICS
from ..semantics.smem import immediate_offset
from ..semantics.vmem import address_offset
from .fusion import MASK_BIT, Body, LaneOp, fused_clause, runs, used_constants

#: Changing the generated code changes this, and so every cache key.
CODEGEN_VERSION = 12

#: The longest block written as one function; a longer one is written in
#: parts (``_block_in_parts``). Measured on MGPUSim's nw: its blocks of ~200
#: instructions took ~7 min each to compile as one function with both lane
#: loop paths; in parts, all of nw's blocks compile in 110 s with both (86 s
#: with only the loop testing each lane, which ran kmeans 2.6x slower).
WHOLE_MAX_INSTRUCTIONS = 64
#: Instructions per function of a block longer than that (``_block_in_parts``;
#: a shorter one gains little: 64 instructions compiled in 34 s as parts, 39 s
#: whole), and the most a part grows to keep a loop whole: entering a part
#: costs a call and a fresh read of EXEC, which a loop would pay every turn.
PART_INSTRUCTIONS = 16
LOOP_PART_INSTRUCTIONS = 64

#: Value types a compiled operand may have, with their NumPy view of the bits
#: (a 16-bit integer operand: the register's low half, as ``ops.typed`` reads
#: it; f16 has no Numba type).
_VIEWS = {"u32": None, "b32": None, "i32": "np.int32", "f32": "np.float32",
          "u64": None, "b64": None, "i64": "np.int64", "f64": "np.float64",
          "u16": "astype(np.uint16)", "b16": "astype(np.uint16)",
          "i16": "astype(np.uint16).view(np.int16)"}
#: Result type -> the helper turning a result into its raw bits (kernels.py)
_RESULTS = {"u32": "rt.bits_u32", "b32": "rt.bits_u32", "i32": "rt.bits_i32",
            "f32": "rt.bits_f32", "u64": "rt.bits_u64", "b64": "rt.bits_u64",
            "i64": "rt.bits_i64", "f64": "rt.bits_f64", "u16": "rt.bits_u16",
            "b16": "rt.bits_u16", "i16": "rt.bits_i16"}
_VECTOR_ENCODINGS = frozenset({"VOP1", "VOP2", "VOP3", "VOPC"})

#: source type -> the kernels.py helper viewing one lane's bits as it
LANE_VIEWS = {"u32": "rt.lane_u32", "b32": "rt.lane_u32", "i32": "rt.lane_i32",
              "f32": "rt.lane_f32", "u64": "rt.lane_u64", "b64": "rt.lane_u64",
              "i64": "rt.lane_i64", "f64": "rt.lane_f64", "u16": "rt.lane_u16",
              "b16": "rt.lane_u16", "i16": "rt.lane_i16"}
#: result type -> the kernels.py helper turning one lane's result into bits
LANE_RESULTS = {"u32": "rt.lane_bits_u32", "b32": "rt.lane_bits_u32", "i32": "rt.lane_bits_i32",
                "f32": "rt.lane_bits_f32", "u64": "rt.lane_bits_u64", "b64": "rt.lane_bits_u64",
                "i64": "rt.lane_bits_i64", "f64": "rt.lane_bits_f64", "u16": "rt.lane_bits_u16",
                "b16": "rt.lane_bits_u16", "i16": "rt.lane_bits_i16"}


class NotCompilable(Exception):
    """This instruction ends a compiled block (the message says why)."""


class Modes:
    """What a block is compiled for besides its code: the batch's float MODE
    bits (flush and rounding, DX10_CLAMP, IEEE mode), the VGPRs a wave has."""

    def __init__(self, state):
        self.float_mode_bits = state.float_mode_bits
        self.round_f32 = state.round_f32
        self.round_f64_f16 = state.round_f64_f16
        self.denorm_f32 = state.denorm_f32
        self.denorm_f64_f16 = state.denorm_f64_f16
        self.dx10_clamp = state.dx10_clamp
        self.ieee_mode = state.ieee_mode
        self.vgprs = state.vgpr.shape[0]


class _Emitter:
    """Collects the lines of one block function and its constant prologue."""

    def __init__(self, modes, generation, lane_ops=frozenset()):
        self.modes = modes
        self.generation = generation
        #: ops applied lane by lane (their scalar forms: lanewise.py)
        self.lane_ops = lane_ops
        #: ops that could be, were their scalar forms admitted
        self.lane_candidates = set()
        self.semantics = []         # ops whose compiled copies the block calls
        self.parts = []             # (kind, facts, lanes) of the helpers it calls (jitcopy.part)
        self.prologue = []
        self.lines = []
        self._constants = {}
        #: the block's PCs (then the PC after it); None while only checking
        self.pcs = None
        #: whether the block moves global memory (it then takes the address space)
        self.uses_memory = False
        #: (branch, target) indices of the branches to an earlier instruction
        self.back_edges = []
        #: whether the block is written in parts (``_block_in_parts``)
        self.in_parts = False
        #: the per-wave reads of the lane loops being emitted (``per_wave``)
        self.wave_reads = []
        self._wave_values = 0
        #: the lane op the instruction being emitted is (``fusion.LaneOp``), if one
        self.lane_op = None
        #: the indices of the instructions a branch inside the block goes to
        self.targets = set()

    def leave(self, offset, steps="steps"):
        """The statement ending the block's run at the PC ``offset`` bytes
        from its start (negative: a branch back before it); a part returns
        its ``i`` too (``_block_in_parts``)."""
        return self.leave_to(f"base + {offset}", steps)

    def leave_to(self, pc, steps="steps"):
        """The statement ending the block's run at ``pc`` (an int64
        expression: an address wherever it is)."""
        return f"return {steps}, lanes, i, {pc}" if self.in_parts else \
            f"return {steps}, lanes, {pc}"

    def relative(self, index):
        """The offset of instruction ``index`` from the block's start: the
        generated code is the same wherever the code object is loaded."""
        return self.pcs[index] - self.pcs[0] if self.pcs else 0

    def semantic_name(self, op, lanes=False):
        if (op, lanes) not in self.semantics:
            self.semantics.append((op, lanes))
        return f"f{self.semantics.index((op, lanes))}"

    def part_name(self, kind, *facts, lanes=False):
        """The name of an interpreter helper's compiled copy (``jitcopy.part``:
        an SDWA select or placement, an integer saturation)."""
        key = (kind, facts, bool(lanes))
        if key not in self.parts:
            self.parts.append(key)
        return f"g{self.parts.index(key)}"

    def lanewise(self, semantic):
        """Whether ``semantic`` is applied lane by lane in this block (its op
        is a candidate either way)."""
        self.lane_candidates.add(semantic.op)
        return semantic.op in self.lane_ops

    def per_wave(self, expression):
        """A name for ``expression`` (of wave ``ww``, not of a lane) read once
        per wave before the lane loops (``_lane_loops``). Read inside them, an
        SGPR is read again every lane: LLVM cannot tell it from the VGPRs the
        loop writes, and such a loop stays scalar (v_addc_co_u32's carry-in
        mask read per lane: 1.1 ns a lane, against 0.3 hoisted)."""
        name = f"x{self._wave_values}"
        self._wave_values += 1
        self.wave_reads.append(f"{name} = {expression}")
        return name

    def opaque_sign(self, width):
        """A hoisted sign mask of a ``width``-bit float (32 or 64) that LLVM
        cannot see as one (``kernels.opaque_sign_32``): the neg modifier's."""
        return self._hoisted(("sign", width), f"rt.opaque_sign_{width}(sgpr)")

    def constant(self, value, dtype, shape):
        """A hoisted constant (made once per call) holding ``value``: an array
        of ``shape``, or a scalar where ``shape`` is None."""
        made = f"{dtype}({int(value)})" if shape is None else \
            f"np.full({shape}, {dtype}({int(value)}))"
        return self._hoisted((int(value), dtype, shape), made)

    def _hoisted(self, key, expression):
        """The name of ``expression``, computed once per call before the
        waves' loops; one name per ``key``."""
        name = self._constants.get(key)
        if name is None:
            name = self._constants[key] = f"k{len(self._constants)}"
            self.prologue.append(f"    {name} = {expression}")
        return name


def why_not(inst, generation, modes):
    """Why the code generator cannot compile ``inst`` (a sentence), or None
    when it can (whether Numba compiles the semantic it calls is the tier's
    to remember)."""
    try:
        emit_instruction(_Emitter(modes, generation), inst, 0)
    except NotCompilable as reason:
        return str(reason)
    return None


#: The temporaries of an instruction's lines: renamed per instruction, so that
#: every variable of the block function has one type (Numba types a loop's
#: variables once for the whole loop; a name holding an array in one branch
#: and a tuple in another makes it slow to type and to compile).
_TEMPORARY = re.compile(r"\b(r|carry|bits|s|t|old|new)\b")


def block_source(insts, pcs, generation, modes, lane_ops=frozenset()):
    """(source, uses memory, lane candidates): the module text of the block
    of ``insts`` (at ``pcs``, then the PC after the last); whether it moves
    global memory, when its ``memory`` argument must be the address space
    (``tier.memory_view``; None otherwise); the ops it could apply lane by
    lane. Every instruction must be compilable: ``why_not`` is None. The
    candidates in ``lane_ops`` are applied lane by lane (``lanewise.probe``
    found their scalar forms exact), the others to whole arrays of lanes."""
    out = _Emitter(modes, generation, lane_ops)
    out.pcs = list(pcs)
    out.in_parts = len(insts) > WHOLE_MAX_INSTRUCTIONS
    bodies = []
    for index, inst in enumerate(insts):
        mark = len(out.lines)
        emit_instruction(out, inst, index)

        def rename(line, index=index):
            return _TEMPORARY.sub(rf"\g<0>_{index}", line)
        bodies.append(Body(index, inst.op, [rename(line) for line in out.lines[mark:]],
                           out.lane_op, rename))
    header = ["import numpy as np", "from numba import njit",
              "from amdgpu_tools.exec.compiled import kernels as rt",
              "from amdgpu_tools.exec.compiled.jitcopy import part, semantic", "",
              f"PCS = ({', '.join(str(pc - out.pcs[0]) for pc in out.pcs)},)",
              f"USES_MEMORY = {out.uses_memory}"]
    header += [f"f{i} = semantic({op!r}{', lanes=True' if lanes else ''})"
               for i, (op, lanes) in enumerate(out.semantics)]
    header += [f"g{i} = part({', '.join(repr(x) for x in (kind,) + facts)}"
               f"{', lanes=True' if lanes else ''})"
               for i, (kind, facts, lanes) in enumerate(out.parts)]
    functions = _block_in_parts(out.prologue, bodies, out.back_edges, out.targets) \
        if out.in_parts else _whole_block(out.prologue, bodies, out.targets)
    return "\n".join(header + functions), out.uses_memory, frozenset(out.lane_candidates)


#: The opening of the block function (EXEC's masks and the constants follow
#: in a block of one function, in each part otherwise).
_BLOCK_HEADER = [
    "", "", "@njit(cache=True, error_model=\"numpy\")",
    "def block(vgpr, sgpr, scc, lds, wave_group, w0, w1, start, max_steps, limit,",
    "          barrier_ok, base, memory):",
    "    lanes = np.int64(0)",     # (not the literal 0: a part would be compiled twice)
    "    steps = np.int64(0)",
    "    i = start"]
#: EXEC as the lane masks the instructions test (``e``; ``full``: waves with
#: every lane on), read again after each EXEC write. Each part has its own:
#: passed in, they made nbody's loop (inside one part) run 1.6x slower, as
#: LLVM cannot tell that they are not the registers the loop writes.
_MASKS = [
    "    n = w1 - w0",
    "    e = np.empty((n, 64), np.bool_)",
    "    full = np.empty(n, np.bool_)",
    f"    active = rt.read_mask_into(e, full, sgpr, {EXEC_LO}, w0, w1)"]


def _chain(bodies, targets, prologue):
    """The instructions' clauses (``fusion.Body``) as one if/elif chain on
    ``i``, each run of per-wave instructions preceded by its fused clause
    (``fusion.fused_clause``; ``targets``: the branch targets, where runs
    are cut); and the functions of the fused clauses' wave loops."""
    lines, functions = [], []
    for run in runs(bodies, targets):
        if len(run) > 1:
            clause, function = fused_clause(run, prologue)
            lines += clause
            functions += function
        lines += [line for body in run for line in body.lines]
    lines[0] = lines[0].replace("elif", "if", 1)
    return lines, functions


def _whole_block(prologue, bodies, targets):
    """The lines of a block function holding every instruction itself
    (after the functions of its fused clauses)."""
    chain, functions = _chain(bodies, targets, prologue)
    return functions + _BLOCK_HEADER + _MASKS + prologue + ["    while steps < max_steps:"] + \
        chain + [
        "        else:",
        "            break",
        "        steps += 1",
        "        if base + PCS[i] >= limit:",
        "            break",
        "    return steps, lanes, base + PCS[i]", ""]


_PART_ARGUMENTS = ("vgpr, sgpr, scc, lds, wave_group, w0, w1, i, steps, max_steps, limit, "
                   "barrier_ok, base, memory, lanes")


def _part_starts(count, back_edges):
    """Where the parts of a block of ``count`` instructions start: every
    PART_INSTRUCTIONS, but a loop (a back edge's target to its branch) is
    kept in one part where it fits in LOOP_PART_INSTRUCTIONS."""
    starts = [0]
    end = PART_INSTRUCTIONS
    while end < count:
        start = starts[-1]
        for branch, target in sorted(back_edges, key=lambda edge: edge[1]):
            if target < end <= branch:                 # the loop crosses the cut
                if target > start:
                    end = target                       # the loop starts the next part
                elif target == start and branch + 1 - start <= LOOP_PART_INSTRUCTIONS:
                    end = branch + 1                   # the part holds the whole loop
        if end >= count:
            break
        starts.append(end)
        end += PART_INSTRUCTIONS
    return starts


def _block_in_parts(prologue, bodies, back_edges, targets):
    """The lines of a block function that calls one function per
    PART_INSTRUCTIONS instructions. Each part runs while its instructions
    follow each other and returns ``(steps, lanes, i, pc)``: ``pc``
    the block's answer, or -1 when ``i`` left the part (the block then
    calls the part holding ``i``). Numba's compile time grows faster than
    a function's length (typing, SSA reconstruction): fft's first 128
    instructions took 46 s to compile as parts, 78 s as one function, and
    nw's blocks of 94-206 instructions ~3 min in all against ~5, running as
    fast."""
    lines = []
    calls = _BLOCK_HEADER + ["    while True:"]
    starts = _part_starts(len(bodies), back_edges)
    for number, (first, end) in enumerate(zip(starts, starts[1:] + [len(bodies)])):
        part, functions = _chain(bodies[first:end], targets, prologue)
        lines += functions + ["", "", "@njit(error_model=\"numpy\")",
                              f"def part{number}({_PART_ARGUMENTS}):"] + \
            _MASKS + used_constants(prologue, part) + [
            "    while steps < max_steps:"] + part + [
            "        else:",
            "            return steps, lanes, i, -1",
            "        steps += 1",
            "        if base + PCS[i] >= limit:",
            "            break",
            "    return steps, lanes, i, base + PCS[i]"]
        calls += [f"        {'if' if number == 0 else 'elif'} i < {end}:",
                  f"            steps, lanes, i, pc = part{number}({_PART_ARGUMENTS})"]
    calls += ["        else:",
              "            return steps, lanes, base + PCS[i]",
              "        if pc >= 0:",
              "            return steps, lanes, pc", ""]
    return lines + calls


def emit_instruction(out, inst, index):
    out.wave_reads = []
    out.lane_op = None
    if inst.encoding == "VOP3P":
        raise NotCompilable(f"{inst.encoding} operands")
    semantic = semantic_for(inst, out.generation)
    if semantic is None:
        raise NotCompilable("no semantics")
    if not _registered_here(semantic):
        raise NotCompilable("a semantic registered outside the executor (a test's)")
    if semantic.flags.get("no_effect"):
        # (a vector op's lanes are its active ones, as the interpreter counts)
        counted = "n" if inst.encoding in SALU_ENCODINGS | SMEM_ENCODINGS else "active"
        out.lines.append(f"        lanes += {counted}")
        return
    if semantic.kind == "valu" and inst.encoding in _VECTOR_ENCODINGS | {"DPP", "SDWA"}:
        return _valu(out, inst, semantic)
    if semantic.kind == "vcmp" and inst.encoding in ("VOPC", "VOP3", "SDWA"):
        return _vcmp(out, inst, semantic)
    if inst.encoding in ("DPP", "SDWA"):
        raise NotCompilable(f"{inst.encoding} operands of a compare")
    if semantic.kind == "salu" and inst.encoding in SALU_ENCODINGS:
        return _salu(out, inst, semantic)
    if semantic.kind == "builder" and "combine" in semantic.flags and inst.encoding == "SOP1":
        return _saveexec(out, inst, semantic)
    if semantic.kind == "builder" and "tests" in semantic.flags and inst.encoding == "SOPP":
        return _branch(out, inst, semantic, index)
    if semantic.kind == "builder" and semantic.flags.get("program_counter"):
        return _program_counter(out, inst, semantic, index)
    if semantic.kind == "builder" and semantic.flags.get("lane_move"):
        return _lane_move(out, inst, semantic)
    if semantic.kind == "builder" and semantic.flags.get("lane_gather"):
        return _lane_gather(out, inst, semantic)
    if semantic.kind == "builder" and semantic.flags.get("lds_move") and inst.encoding == "DS":
        return _lds_move(out, inst, semantic, index)
    if semantic.kind == "builder" and semantic.flags.get("lds_atomic") and inst.encoding == "DS":
        return _lds_atomic(out, inst, semantic, index)
    if semantic.kind == "raw" and semantic.flags.get("work_group_barrier"):
        return _barrier(out, index)
    if semantic.kind == "builder" and semantic.flags.get("vector_move") and \
            inst.encoding in ("FLAT", "GLOBAL"):
        return _global_move(out, inst, semantic, index)
    if semantic.kind == "builder" and semantic.flags.get("vector_atomic") and \
            inst.encoding in ("FLAT", "GLOBAL"):
        return _global_atomic(out, inst, semantic, index)
    if semantic.kind == "builder" and semantic.flags.get("vector_move") and \
            inst.encoding == "MUBUF":
        return _buffer_move(out, inst, semantic, index)
    if semantic.kind == "builder" and semantic.flags.get("scalar_load") and \
            inst.encoding in ("SMEM", "SMRD"):
        return _scalar_load(out, inst, semantic, index)
    raise NotCompilable(f"{semantic.kind} semantics in {inst.encoding}")


def _registered_here(semantic):
    """Whether ``semantic`` is the executor's own: compiled code is cached
    by the block's text, which names the op, not the function a test may
    have registered in its place."""
    return getattr(semantic.fn, "__module__", "").startswith("amdgpu_tools.exec.semantics")


# -------------------------------------------------------------------- VALU
def _vgpr(out, reg, wide, lane=False):
    """VGPR ``reg`` (a pair: ``wide``) of the waves, or of lane ``l`` of wave ``ww``."""
    if not 0 <= reg < out.modes.vgprs - (1 if wide else 0):
        raise NotCompilable(f"v{reg} is past the kernel's VGPRs")
    if lane:
        return f"rt.lane_pair(vgpr, {reg}, ww, l)" if wide else f"vgpr[{reg}, ww, l]"
    return f"rt.vgpr_pair(vgpr, {reg}, w0, w1)" if wide else f"rt.vgpr_rows(vgpr, {reg}, w0, w1)"


def _sgpr(code, wide, lane=False):
    """SGPR ``code`` (a pair: ``wide``) of the waves, or of wave ``ww``."""
    if code + (1 if wide else 0) > 127:
        raise NotCompilable(f"scalar operand {code}")
    if lane:
        return f"rt.lane_sgpr_pair(sgpr, {code}, ww)" if wide else f"sgpr[{code}, ww]"
    return f"rt.sgpr_pair_column(sgpr, {code}, w0, w1)" if wide else \
        f"rt.sgpr_column(sgpr, {code}, w0, w1)"


def _vector_source(out, inst, semantic, position, code, type_, abs_, neg, lane, modifiers=None):
    """The expression of one VALU source, typed as the semantic sees it: of
    its (n, 64) or (n, 1) array, or with ``lane``, of lane ``l`` of wave
    ``ww`` (a scalar); ``modifiers``: the instruction's DPP or SDWA ones
    (``lanes.source_modifiers``): DPP permutes source 0, SDWA selects from
    sources 0 and 1."""
    if type_ not in _VIEWS:
        raise NotCompilable(f"{type_} operands")
    wide = ops.bits_of(type_) == 64
    bits_dtype = "np.uint64" if wide else "np.uint32"
    if isinstance(modifiers, DppModifiers) and position == 0:
        if wide or not 0 <= code - 256 < out.modes.vgprs:
            raise NotCompilable("a DPP source that is not one VGPR")
        bits, flushable = _dpp_source(out, code - 256, modifiers, lane), True
    elif ops.is_constant(code):
        bits = out.constant(ops.constant_bits(code, type_, inst.literal), bits_dtype,
                            None if lane else "(1, 1)")
        flushable = False
    elif code >= 256:
        bits, flushable = _vgpr(out, code - 256, wide, lane), True
    elif code <= 127:
        bits, flushable = _sgpr(code, wide, lane), True
    else:
        raise NotCompilable(f"source operand {code}")
    if isinstance(modifiers, SdwaModifiers) and position < 2:
        sel, sext = modifiers.sel[position], bool(modifiers.sext[position])
        if wide:
            raise NotCompilable("a 64-bit SDWA source")
        if sel != 6 or sext:
            bits = f"{out.part_name('sdwa_select', int(sel), sext, lanes=lane)}({bits})"
    if flushable and not semantic.flags.get("no_flush"):
        if type_ == "f32" and not out.modes.denorm_f32 & _ALLOW_INPUT:
            bits = f"rt.{'lane_flush_f32' if lane else 'flush_f32'}({bits})"
        elif type_ == "f64" and not out.modes.denorm_f64_f16 & _ALLOW_INPUT:
            raise NotCompilable("f64 denormal flush")
    # (abs/neg act on float operands only, as ops.source_modifier applies them)
    width = ops.FLOAT_TYPES.get(modifier_type(semantic, type_))
    use_abs, use_neg = bool(abs_ >> position & 1), bool(neg >> position & 1)
    if width is not None and (use_abs or use_neg):
        sign = ops.SIGN_BIT[width]
        if use_abs:
            bits = f"({bits} & {bits_dtype}({~sign & ((1 << width) - 1)}))"
        if use_neg:
            mask = out.opaque_sign(width) if width in (32, 64) else f"{bits_dtype}({sign})"
            bits = f"({bits} ^ {mask})"
    if lane:
        value = f"{LANE_VIEWS[type_]}({bits})"
        return value if code >= 256 else out.per_wave(value)
    view = _VIEWS[type_]
    if view is None:
        return bits
    return f"{bits}.{view}" if view.startswith("astype") else f"{bits}.view({view})"


def _vector_sources(out, inst, semantic, lane, modifiers=None):
    """The expressions of a VALU or compare's sources, in the semantic's order
    (``modifiers``: DPP's or SDWA's, whose abs/neg bits are fields of their own)."""
    is_vop3 = inst.encoding == "VOP3"
    neg = field(inst, "neg") if is_vop3 else 0
    abs_ = field(inst, "abs") if is_vop3 else 0
    if modifiers is not None:
        neg = int(bool(modifiers.neg[0])) | int(bool(modifiers.neg[1])) << 1
        abs_ = int(bool(modifiers.abs[0])) | int(bool(modifiers.abs[1])) << 1
    codes = _source_codes(inst, semantic)
    sources = [_vector_source(out, inst, semantic, i, code, type_, abs_, neg, lane, modifiers)
               for i, (code, type_) in enumerate(zip(codes, semantic.srcs))]
    if semantic.flags.get("lane_fn"):           # (the registry's ``lane`` argument)
        sources.append("np.uint64(l)" if lane else
                       out._hoisted(("lane numbers",), "np.arange(64).astype(np.uint64)"))
    return sources


def _valu(out, inst, semantic):
    flags = semantic.flags
    is_vop3 = inst.encoding == "VOP3"
    if is_vop3 and field(inst, "op_sel"):
        raise NotCompilable("op_sel")
    # (formats.build_valu's output modifiers: an int_clamp op saturates with
    # the clamp bit; a float result takes omod and clamp)
    clamp = field(inst, "clamp") if is_vop3 or inst.encoding == "SDWA" else 0
    omod = field(inst, "omod") if is_vop3 or inst.encoding == "SDWA" else 0
    if flags.get("ieee_nan") and out.modes.ieee_mode:
        semantic = ieee_form(semantic)        # its signalling-NaN quieting
        flags = semantic.flags
    dst_type = semantic.dst
    if dst_type not in _RESULTS:
        raise NotCompilable(f"{dst_type} result")
    if flags.get("rounded") is not None:
        mode = out.modes.round_f32 if dst_type == "f32" else out.modes.round_f64_f16
        if mode:
            raise NotCompilable("directed rounding")
    modifiers = source_modifiers(inst) if inst.encoding in ("DPP", "SDWA") else None
    if modifiers is not None and (flags["carry_in"] or flags["carry_out"]):
        raise NotCompilable(f"{inst.encoding} with a carry")
    lane = out.lanewise(semantic)
    args = _vector_sources(out, inst, semantic, lane, modifiers)
    modifier = _result_modifier(out, semantic, clamp, omod, lane)
    place = None
    if inst.encoding == "SDWA" and field(inst, "dst_sel", default=6) != 6:
        place = out.part_name("sdwa_place", int(field(inst, "dst_sel", default=6)),
                              int(field(inst, "dst_unused", default=0)), lanes=lane)
    if flags["carry_in"]:
        code = field(inst, "src2") if is_vop3 and not flags.get("vcc_in") else VCC_LO
        if code > 126:
            raise NotCompilable("carry-in from a special operand")
        args.append(f"rt.mask_bit({out.per_wave(f'rt.lane_sgpr_pair(sgpr, {code}, ww)')}, l)"
                    if lane else
                    f"rt.read_mask(sgpr, {code}, w0, w1)")
    wide = ops.bits_of(dst_type) == 64
    dst = field(inst, "vdst")
    _vgpr(out, dst, wide)
    carry_to = None
    if flags["carry_out"]:
        carry_to = field(inst, "sdst") if is_vop3 else VCC_LO
        if carry_to > 126 or carry_to in (EXEC_LO - 1, EXEC_LO):
            raise NotCompilable("carry-out to EXEC or a special operand")
    flush = dst_type == "f32" and not flags.get("no_flush") and \
        not out.modes.denorm_f32 & _ALLOW_OUTPUT
    if dst_type == "f64" and not flags.get("no_flush") and \
            not out.modes.denorm_f64_f16 & _ALLOW_OUTPUT:
        raise NotCompilable("f64 denormal flush")
    call = f"{out.semantic_name(semantic.op, lane)}({', '.join(args)})  # op:{semantic.op}"
    if lane:
        reads_lanes = any(code >= 256 for code in _source_codes(inst, semantic))
        writes = _dpp_writes(out, modifiers, lane) if isinstance(modifiers, DppModifiers) else None
        return _lane_valu(out, call, dst_type, dst, carry_to, flush, reads_lanes, writes, place,
                          modifier)
    emit = out.lines.append
    emit(f"        r = {call}")
    if carry_to is not None:
        emit("        r, carry = r")
        emit(f"        rt.write_mask(sgpr, {carry_to}, w0, w1, np.asarray(carry), e)")
    if modifier is not None:
        emit(f"        r = {modifier}(r)")
    emit(f"        bits = {_RESULTS[dst_type]}(r)")
    if flush:
        emit("        bits = rt.flush_f32(bits)")
    if place is not None:       # (SDWA's dst_sel: the old value's other bits, maybe)
        emit(f"        bits = {place}(bits, rt.vgpr_rows(vgpr, {dst}, w0, w1))")
    written = _dpp_writes(out, modifiers, lane) if isinstance(modifiers, DppModifiers) else "e"
    emit(f"        rt.{'store64' if wide else 'store32'}(vgpr, {dst}, w0, w1, bits, {written})")
    emit("        lanes += active")


def _result_modifier(out, semantic, clamp, omod, lane):
    """The name of the compiled copy of the interpreter's output modifier of
    a VALU result (an int_clamp op's saturation by the clamp bit; a float
    result's omod and clamp, with the block's DX10_CLAMP), or None."""
    int_clamp = semantic.flags.get("int_clamp")
    if int_clamp:
        return out.part_name("saturate", int_clamp, lanes=lane) if clamp else None
    if semantic.dst in ops.FLOAT_TYPES and (clamp or omod):
        return out.part_name("float_result", semantic.dst, int(omod), int(clamp),
                             bool(out.modes.dx10_clamp), lanes=lane)
    return None


def _dpp_tables(out, dpp):
    """Hoisted constants of a DPP instruction (from lanes.DppModifiers, the
    interpreter's own): each lane's source lane, whether it has one, and
    whether its row and bank are enabled."""
    def table(name, values, dtype):
        listed = ", ".join(str(int(value)) for value in values)
        return out._hoisted((name, tuple(int(value) for value in values)),
                            f"np.array([{listed}], {dtype})")
    return (table("dpp sources", dpp.sources, "np.int64"),
            table("dpp valid", dpp.valid, "np.bool_"),
            table("dpp enabled", dpp.enabled, "np.bool_"))


def _dpp_source(out, reg, dpp, lane):
    """DPP's source 0: VGPR ``reg`` read from each lane's source lane (0 with
    bound_ctrl where that lane has none or is off), as the waves' (n, 64)
    array or, lane by lane, from the wave's row as it was before the op."""
    sources, valid, _ = _dpp_tables(out, dpp)
    if not lane:
        return f"rt.dpp_rows(vgpr, {reg}, w0, w1, {sources}, {valid}, e, {dpp.bound_ctrl})"
    row = out.per_wave(f"vgpr[{reg}, ww].copy()")
    read = f"{row}[{sources}[l]]"
    if dpp.bound_ctrl:
        return f"({read} if {valid}[l] and e[w, {sources}[l]] else np.uint32(0))"
    return read


def _dpp_writes(out, dpp, lane):
    """The lanes a DPP op writes besides EXEC's (``DppModifiers.lanes``): its
    enabled rows and banks, and without bound_ctrl only lanes whose source
    lane exists and is on; a condition on lane ``l``, or the (n, 64) mask."""
    sources, valid, enabled = _dpp_tables(out, dpp)
    if not lane:        # (made at the op: EXEC, ``e``, may have changed since the block began)
        return f"rt.dpp_lanes(e, {sources}, {valid}, {enabled}, {dpp.bound_ctrl})"
    if dpp.bound_ctrl:
        return f"{enabled}[l]"
    return f"{enabled}[l] and {valid}[l] and e[w, {sources}[l]]"


def _lane_valu(out, call, dst_type, dst, carry_to, flush, reads_lanes, only=None,
               place=None, modifier=None):
    """A VALU op lane by lane: the result of each active lane written as it
    is made (a lane reads only its own lanes, or, with DPP, the wave's row
    as it was), the carry-out mask after the wave's lanes, so that a
    carry-in from the same SGPRs reads the old one; ``reads_lanes``: a
    source is a VGPR; ``only``: a further condition on the lanes written;
    ``place``: SDWA's placement of the result in the register; ``modifier``:
    the output modifier of the result (``_result_modifier``)."""
    body = [f"r = {call}"]
    if carry_to is not None:
        body += ["r, carry = r", MASK_BIT.format("carry")]
    if modifier is not None:
        body.append(f"r = {modifier}(r)")
    body.append(f"bits = {LANE_RESULTS[dst_type]}(r)")
    if flush:
        body.append("bits = rt.lane_flush_f32(bits)")
    if place is not None:
        body.append(f"bits = {place}(bits, vgpr[{dst}, ww, l])")
    if ops.bits_of(dst_type) == 64:
        body.append(f"rt.lane_store64(vgpr, {dst}, ww, l, bits)")
    else:
        body.append(f"vgpr[{dst}, ww, l] = bits")
    if only is not None:
        body = [f"if {only}:"] + ["    " + line for line in body]
    # a result made from per-wave operands alone (v_mov_b32 v1, s9): LLVM
    # vectorised its stores only in a loop of unknown length (~7 against
    # ~18 us for 1,024 waves), while ops reading lanes ran faster unrolled
    broadcast = carry_to is None and not reads_lanes
    _lane_loops(out, body, () if carry_to is None else (carry_to,),
                full_lanes="vgpr.shape[2]" if broadcast else "64")
    out.lines.append("        lanes += active")


def _lane_loops(out, body, masks=(), full_lanes="64"):
    """The loops over the active lanes of waves ``ww`` running ``body``
    (lines, indented as a statement), two: one without a test for a wave
    whose lanes are all active (``full``; LLVM vectorises it, ~3x faster
    than the loop testing each lane), one testing each lane's EXEC bit for
    the other waves (a long block has both too, in each of its parts: with
    one loop only, MGPUSim's kmeans ran 2.6x slower once its loop of 82
    instructions became one block); ``full_lanes``: the first's lane count as
    written (64, or the array's, which LLVM does not unroll). The operands read once per wave
    (``out.per_wave``) are read before them. With ``masks``, the body sets bits of
    ``mask`` (``fusion.MASK_BIT``), started per wave and stored after its lanes to
    the SGPR pair at each code of ``masks``."""
    op = out.lane_op = LaneOp(out.wave_reads, body, masks)
    out.wave_reads = []
    emit = out.lines.append
    emit("        for w in range(n):")
    emit("            ww = w0 + w")
    lines = op.wave(["if full[w]:"] + ["    " + line for line in op.full_loop(full_lanes)] +
                    ["else:"] + ["    " + line for line in op.masked_loop()])
    for line in lines:
        emit(" " * 12 + line)


def _vcmp(out, inst, semantic):
    is_vop3 = inst.encoding == "VOP3"
    if is_vop3 and (field(inst, "op_sel") or field(inst, "clamp")):
        raise NotCompilable("op_sel or clamp on a compare")
    lane = out.lanewise(semantic)
    modifiers = source_modifiers(inst) if inst.encoding == "SDWA" else None
    args = _vector_sources(out, inst, semantic, lane, modifiers)
    dst = compare_destination(inst)
    if dst > 126:
        raise NotCompilable("a compare into a special operand")
    call = f"{out.semantic_name(semantic.op, lane)}({', '.join(args)})"
    if lane:
        return _lane_vcmp(out, call, semantic.op, dst, semantic.flags["exec_write"])
    emit = out.lines.append
    emit(f"        r = np.asarray({call})  # op:{semantic.op}")
    if semantic.flags["exec_write"]:
        emit(f"        rt.write_mask(sgpr, {EXEC_LO}, w0, w1, r, e)")
        if dst != EXEC_LO:
            emit(f"        rt.write_mask(sgpr, {dst}, w0, w1, r, e)")
        emit("        lanes += active")
        _exec_changed(emit)
    else:
        emit(f"        rt.write_mask(sgpr, {dst}, w0, w1, r, e)")
        emit("        lanes += active")


def _lane_vcmp(out, call, op, dst, exec_write):
    """A compare lane by lane, its mask written after each wave's lanes (to
    EXEC too for v_cmpx)."""
    emit = out.lines.append
    masks = (EXEC_LO, dst) if exec_write and dst != EXEC_LO else (dst,)
    _lane_loops(out, [MASK_BIT.format(call) + f"  # op:{op}"], masks)
    emit("        lanes += active")
    if exec_write:
        _exec_changed(emit)


def _exec_changed(emit):
    """EXEC was written: its lanes (``e``, rewritten in place) and their
    count (``active``) again."""
    emit(f"        active = rt.read_mask_into(e, full, sgpr, {EXEC_LO}, w0, w1)")


def _lane_move(out, inst, semantic):
    """v_readlane_b32 (an SGPR = one lane's VGPR), v_readfirstlane_b32 (an
    SGPR = the source in the lowest active lane: ``np.argmax`` of the wave's
    EXEC lanes, as the interpreter's) and v_writelane_b32 (one lane's VGPR =
    an SGPR or constant), wave by wave, whatever EXEC holds: readlane's and
    writelane's lane is the lane operand's low bits (lane.LANE_SELECT_MASK)."""
    kind = semantic.flags["lane_move"]
    lane = "np.argmax(e[w])" if kind == "first" else _lane_operand(inst)
    emit = out.lines.append
    if kind == "write":
        dst = field(inst, "vdst")
        _vgpr(out, dst, False)
        value = _scalar_source(out, inst, field(inst, "src0"), "b32", lane=True)
        move = f"vgpr[{dst}, ww, {lane}] = {value}"
    else:
        source, dst = field(inst, "src0"), field(inst, "vdst", "sdst")
        if source < 256 or dst > 127:
            raise NotCompilable("a readlane of a non-VGPR or into a special operand")
        _vgpr(out, source - 256, False)
        move = f"sgpr[{dst}, ww] = vgpr[{source - 256}, ww, {lane}]"
    emit("        for w in range(n):")
    emit("            ww = w0 + w")
    emit(f"            {move}  # op:{semantic.op}")
    emit("        lanes += active")
    if kind != "write" and dst in (EXEC_LO, EXEC_HI):
        _exec_changed(emit)


def _lane_operand(inst):
    """The lane a readlane or writelane names: its constant or SGPR's low bits."""
    lane_code = field(inst, "src1", "vsrc1")
    if ops.is_constant(lane_code):
        return str(int(ops.constant_bits(lane_code, "u32", inst.literal)) & LANE_SELECT_MASK)
    if lane_code <= 127:
        return f"sgpr[{lane_code}, ww] & np.uint32({LANE_SELECT_MASK})"
    raise NotCompilable(f"lane operand {lane_code}")


# -------------------------------------------------------------------- SALU
def _scalar_source(out, inst, code, type_, lane=False):
    """An SALU source's raw bits: (n,) for the waves, or with ``lane`` the
    scalar of wave ``ww``."""
    if type_ not in _VIEWS:
        raise NotCompilable(f"{type_} operands")
    wide = ops.bits_of(type_) == 64
    if ops.is_constant(code):
        return out.constant(ops.constant_bits(code, type_, inst.literal),
                            "np.uint64" if wide else "np.uint32", None if lane else "1")
    if code <= 127 - (1 if wide else 0):
        if lane:
            return f"rt.lane_sgpr_pair(sgpr, {code}, ww)" if wide else \
                f"rt.lane_u32(sgpr[{code}, ww])"
        return f"rt.sgpr_pair_row(sgpr, {code}, w0, w1)" if wide else \
            f"rt.sgpr_row(sgpr, {code}, w0, w1)"
    if code == ops.SCC_CODE:
        bits = "rt.lane_scc_bits(scc, ww)" if lane else "rt.scc_bits(scc, w0, w1)"
        if wide:
            return f"np.uint64({bits})" if lane else f"{bits}.astype(np.uint64)"
        return bits
    raise NotCompilable(f"scalar operand {code}")


def _salu(out, inst, semantic):
    flags = semantic.flags
    dst_type = semantic.dst
    has_dst = dst_type not in (None, "none")
    if has_dst and dst_type not in _RESULTS:
        raise NotCompilable(f"{dst_type} result")
    lane = out.lanewise(semantic)
    if inst.encoding == "SOPK":
        dst = field(inst, "sdst")
        args = []
        if len(semantic.srcs) == 2:
            args.append(_scalar_source(out, inst, dst, semantic.srcs[0], lane))
        args.append(out.constant(field(inst, "simm16"), "np.uint32", None if lane else "1"))
    else:
        args = [_scalar_source(out, inst, field(inst, name), type_, lane)
                for name, type_ in zip(("ssrc0", "ssrc1"), semantic.srcs)]
        dst = field(inst, "sdst") if has_dst else None
    if flags["scc_in"]:
        args.append("scc[ww]" if lane else "scc[w0:w1].copy()")
    wide = has_dst and ops.bits_of(dst_type) == 64
    if has_dst and dst + (1 if wide else 0) > 127:
        raise NotCompilable(f"scalar destination {dst}")
    if flags.get("dst_in"):
        if not has_dst:
            raise NotCompilable("an old destination without a destination")
        args.append(_scalar_source(out, inst, dst, dst_type, lane))
    call = f"{out.semantic_name(semantic.op, lane)}({', '.join(args)})  # op:{semantic.op}"
    if lane:
        return _lane_salu(out, call, flags["scc_out"], dst if has_dst else None, wide)
    emit = out.lines.append
    emit(f"        r = {call}")
    if flags["scc_out"]:
        emit("        r, s = r")
        emit("        rt.write_scc(scc, w0, w1, np.atleast_1d(np.asarray(s)))")
    if has_dst:
        store = "sstore64" if wide else "sstore32"
        emit(f"        rt.{store}(sgpr, {dst}, w0, w1, np.atleast_1d(np.asarray(r)))")
        if dst in (EXEC_LO, EXEC_HI) or (wide and dst == EXEC_LO - 1):
            _exec_changed(emit)
    emit("        lanes += n")


def _lane_salu(out, call, scc_out, dst, wide):
    """An SALU op wave by wave on scalars (its raw result bits stored as the
    interpreter's writer stores them; SCC = the flag's truth)."""
    emit = out.lines.append
    emit("        for w in range(n):")
    emit("            ww = w0 + w")
    emit(f"            r = {call}")
    if scc_out:
        emit("            r, s = r")
        emit("            scc[ww] = True if s else False")
    if dst is not None:
        if wide:
            emit(f"            rt.lane_sstore64(sgpr, {dst}, ww, rt.lane_bits_u64(r))")
        else:
            emit(f"            sgpr[{dst}, ww] = rt.lane_bits_u32(r)")
    emit("        lanes += n")
    if dst is not None and (dst in (EXEC_LO, EXEC_HI) or (wide and dst == EXEC_LO - 1)):
        _exec_changed(emit)


def _saveexec(out, inst, semantic):
    """s_and_saveexec_b64 and its kin: EXEC = combine(source, EXEC), the
    destination gets the old EXEC (or the new: wrexec), SCC = EXEC != 0."""
    dst = field(inst, "sdst", "sdata")
    if dst + 1 > 127:
        raise NotCompilable(f"scalar destination {dst}")
    lane = out.lanewise(semantic)
    source = _scalar_source(out, inst, field(inst, "ssrc0"), "b64", lane)
    emit = out.lines.append
    saved = "old" if semantic.flags["saves_old_exec"] else "new"
    if lane:
        emit("        for w in range(n):")
        emit("            ww = w0 + w")
        emit(f"            old = rt.lane_sgpr_pair(sgpr, {EXEC_LO}, ww)")
        emit(f"            new = rt.lane_bits_u64({out.semantic_name(semantic.op, True)}"
             f"(rt.lane_u64({source}), rt.lane_u64(old)))  # op:{semantic.op}")
        emit(f"            rt.lane_sstore64(sgpr, {dst}, ww, {saved})")
        emit(f"            rt.lane_sstore64(sgpr, {EXEC_LO}, ww, new)")
        emit("            scc[ww] = new != 0")
        _exec_changed(emit)
        emit("        lanes += n")
        return
    emit(f"        old = rt.sgpr_pair_row(sgpr, {EXEC_LO}, w0, w1)")
    emit(f"        new = np.atleast_1d(np.asarray({out.semantic_name(semantic.op)}({source}, old)))"
         f"  # op:{semantic.op}")
    emit(f"        rt.sstore64(sgpr, {dst}, w0, w1, {saved})")
    emit(f"        rt.sstore64(sgpr, {EXEC_LO}, w0, w1, new)")
    emit("        rt.write_scc(scc, w0, w1, new)")
    _exec_changed(emit)
    emit("        lanes += n")


#: What a conditional branch tests, per wave: (n,) values for its predicate.
_BRANCH_VALUES = {"scc": "scc[w0:w1].copy()",
                  "vcc": f"sgpr[{VCC_LO}, w0:w1] | sgpr[{VCC_LO + 1}, w0:w1]",
                  "exec": f"sgpr[{EXEC_LO}, w0:w1] | sgpr[{EXEC_HI}, w0:w1]"}
#: The same for wave ``ww`` alone (the predicate's scalar form).
_LANE_BRANCH_VALUES = {"scc": "scc[ww]",
                       "vcc": f"rt.lane_u32(sgpr[{VCC_LO}, ww] | sgpr[{VCC_LO + 1}, ww])",
                       "exec": f"rt.lane_u32(sgpr[{EXEC_LO}, ww] | sgpr[{EXEC_HI}, ww])"}


def _branch(out, inst, semantic, index):
    """s_branch and s_cbranch_*: to another instruction of the block, out of
    it (the function returns the target), or, when the waves disagree, back
    to the interpreter before the branch (it splits the group)."""
    if out.pcs is None:
        return                           # (why_not: every branch is compilable)
    target = out.pcs[index] + branch_offset(inst)
    inside = target in out.pcs[:-1]
    if inside:
        out.targets.add(out.pcs.index(target))
    if inside and out.pcs.index(target) <= index:
        out.back_edges.append((index, out.pcs.index(target)))
    go = f"i = {out.pcs.index(target)}" if inside else \
        out.leave(target - out.pcs[0], steps="steps + 1")
    emit = out.lines.append
    tests = semantic.flags["tests"]
    if tests is None:
        emit("        lanes += n")
        emit(f"        {go}")
        return
    lane = out.lanewise(semantic)
    predicate = out.semantic_name(semantic.op, lane)
    if lane:                            # t: how many waves take it
        emit("        t = 0")
        emit("        for w in range(n):")
        emit("            ww = w0 + w")
        emit(f"            if {predicate}({_LANE_BRANCH_VALUES[tests]}):  # op:{semantic.op}")
        emit("                t += 1")
        emit("        if t == n:")
    else:
        emit(f"        t = np.atleast_1d(np.asarray({predicate}({_BRANCH_VALUES[tests]})))"
             f"  # op:{semantic.op}")
        emit("        if t.all():")
    emit("            lanes += n")
    emit(f"            {go}")
    emit("        elif t.any():" if not lane else "        elif t:")
    emit(f"            {out.leave(out.relative(index))}")
    emit("        else:")
    emit("            lanes += n")
    emit(f"            i = {index + 1}")


def _program_counter(out, inst, semantic, index):
    """s_getpc_b64 (an SGPR pair = the next instruction's address: the
    block's base plus its offset), s_setpc_b64 and s_swappc_b64 (returns and
    calls): out of the block to the address in an SGPR pair where every wave
    goes to the same one, as the interpreter's branch does; otherwise back
    to the interpreter before the instruction (it parts the waves)."""
    kind = semantic.flags["program_counter"]
    dst = None if kind == "set" else field(inst, "sdst", "sdata")
    source = None if kind == "get" else field(inst, "ssrc0")
    if (dst is not None and dst + 1 >= EXEC_LO) or (source is not None and source + 1 > 127):
        raise NotCompilable("a program counter in or from a special operand")
    emit = out.lines.append
    next_pc = f"np.uint64(base + {out.relative(index) + inst.size})"
    if kind != "get":
        emit(f"        t = rt.lane_sgpr_pair(sgpr, {source}, w0)")
        emit("        for w in range(n):")
        emit(f"            if rt.lane_sgpr_pair(sgpr, {source}, w0 + w) != t:"
             f"  # op:{semantic.op}")
        emit(f"                {out.leave(out.relative(index))}")
    if kind != "set":
        emit("        for w in range(n):")
        emit(f"            rt.lane_sstore64(sgpr, {dst}, w0 + w, {next_pc})  # op:{semantic.op}")
    emit("        lanes += n")
    if kind != "get":
        emit(f"        {out.leave_to('np.int64(t)', steps='steps + 1')}")


def _lds_move(out, inst, semantic, index):
    """ds_read/ds_write(2)_b32/_b64 and ds_read/ds_write_b128: whole aligned
    dwords natively (each access aligned to its size); any other
    access (unaligned, out of range, wrapping) goes back to the interpreter
    before the instruction."""
    facts = semantic.flags
    nbytes = facts["data_bytes"]
    if nbytes not in (4, 8, 16) or facts.get("signed") or int(inst.fields.get("gds", 0)):
        raise NotCompilable("a sub-dword, three-dword, signed or GDS access")
    elements = facts.get("elements", 1)
    offsets = element_offsets(inst, nbytes, elements, facts.get("stride64", False))
    dwords = nbytes // 4
    write = facts["lds_move"] == "write"
    if write:
        registers = tuple(int(inst.fields[name]) for name in ("data0", "data1")[:elements])
    else:
        first = int(inst.fields["vdst"])
        registers = tuple(first + k * dwords for k in range(elements))
    addr = int(inst.fields["addr"])
    _vgpr(out, addr, False)
    for register in registers:
        _vgpr(out, register + dwords - 1, False)          # the last dword it moves
    emit = out.lines.append
    emit(f"        if not rt.lds_move_b{8 * nbytes}(vgpr, sgpr, lds, wave_group, w0, w1, e, full, "
         f"{addr}, {offsets!r}, {registers!r}, {write}, {out.generation >= 9}):"
         f"  # op:{semantic.op}")
    emit(f"            {out.leave(out.relative(index))}")
    emit("        lanes += active")


#: The LDS and global atomics a block applies itself (memory.ATOMIC_OPS
#: names): all but the packed f16 add, whose lanes NumPy reshapes.
NATIVE_ATOMICS = frozenset(ATOMIC_OPS) - {"pk_fadd16"}


def _lds_atomic(out, inst, semantic, index):
    """ds_add_u32, ds_cmpst_rtn_b64, ds_add_f32 and the other LDS atomics
    (NATIVE_ATOMICS) lane by lane, in the interpreter's order (wave by
    wave, lane by lane: each lane sees what the lanes before it left), each
    lane's address aligned down to the element, as there
    (``ds._build_atomic``). When an active lane's element is out of range
    (``kernels.lds_atomic_in_range``) the interpreter takes the instruction
    before anything changed: its out-of-range lanes do nothing."""
    facts, fields = semantic.flags, inst.fields
    op, width = facts["lds_atomic"], facts["data_bytes"]
    if op not in NATIVE_ATOMICS or width not in (4, 8) or int(fields.get("gds", 0)):
        raise NotCompilable(f"the LDS atomic {op} of {width} bytes, or a GDS one")
    wide = width == 8
    addr, data = int(fields["addr"]), int(fields["data0"])
    _vgpr(out, addr, False)
    _vgpr(out, data, wide)
    sources = [data]
    if op in TWO_OPERAND_ATOMICS:
        second = int(fields["data1"])
        _vgpr(out, second, wide)
        # (DATA0 compares, DATA1 is stored: the atomic's data is DATA1)
        sources = [second, data] if op in COMPARE_AND_SWAPS else [data, second]
    vdst = int(fields["vdst"]) if facts["returns"] else None
    args = _atomic_arguments(out, sources, width, vdst)
    words, row, at = f"words_{index}", f"row_{index}", f"at_{index}"
    emit = out.lines.append
    emit(f"        if not rt.lds_atomic_in_range(vgpr, sgpr, lds, w0, w1, e, full, {addr}, "
         f"{offset16(inst)}, {width}, {out.generation >= 9}):  # op:{semantic.op}")
    emit(f"            {out.leave(out.relative(index))}")
    emit(f"        {words} = lds.reshape(-1).view({'np.uint64' if wide else 'np.uint32'})")
    _atomic_lanes(out, f"{row} = np.int64(wave_group[ww]) * (lds.shape[1] // {width})",
                  f"{at} = {row} + (np.int64(vgpr[{addr}, ww, l]) + {offset16(inst)}) // {width}")
    _apply_atomic(out, semantic, op, wide, f"{words}[{at}]", f"{words}[{at}] = {{}}", args, vdst)


def _atomic_lanes(out, per_wave, address):
    """The head of an atomic's loops over the waves and their active lanes,
    in order: ``per_wave`` (a statement, or None) for each wave, ``address``
    (a statement naming the lane's element) for each active lane."""
    emit = out.lines.append
    emit("        for w in range(n):")
    emit("            ww = w0 + w")
    if per_wave is not None:
        emit(f"            {per_wave}")
    emit("            for l in range(64):")
    emit("                if e[w, l]:")
    emit(f"                    {address}")


def _atomic_arguments(out, sources, width, vdst):
    """The arguments of an atomic's op (memory.ATOMIC_OPS) for lane ``l``
    of wave ``ww``: the old value, the data (VGPRs ``sources``), the width;
    its registers, ``vdst`` too (unless None), checked against the kernel's."""
    wide = width == 8
    for reg in sources + ([] if vdst is None else [vdst]):
        _vgpr(out, reg, wide)
    view = "rt.lane_u64" if wide else "rt.lane_u32"
    read = [f"{view}({_vgpr(out, reg, wide, lane=True)})" for reg in sources]
    return [f"{view}(old)", read[0], str(width)] + read[1:]


def _apply_atomic(out, semantic, op, wide, load, store, args, vdst):
    """The end of an atomic's lane loop: the old value read (``load``, an
    expression), the op's compiled copy (``jitcopy.part``) applied to
    ``args``, its result's bits written back (``store``, a statement whose
    ``{}`` takes them), the old value returned to ``vdst`` (unless None)
    after the lane's operands were read."""
    emit = out.lines.append
    emit(f"                    old = {load}")
    emit(f"                    new = {out.part_name('atomic', op, lanes=True)}({', '.join(args)})"
         f"  # op:{semantic.op}")
    emit("                    " + store.format(f"rt.lane_bits_{'u64' if wide else 'u32'}(new)"))
    if vdst is not None:
        emit(f"                    rt.lane_store64(vgpr, {vdst}, ww, l, old)" if wide else
             f"                    vgpr[{vdst}, ww, l] = old")
    emit("        lanes += active")


def _global_atomic(out, inst, semantic, index):
    """FLAT/GLOBAL atomics (NATIVE_ATOMICS) lane by lane in the
    interpreter's order (wave by wave, lane by lane), returning the old
    value with glc, as ``vmem._atomic_action`` does: natively when no other
    process shares the memory and every active lane's element is in one
    writable allocation, aligned (``kernels.global_atomic_host``);
    otherwise the interpreter takes the instruction, with its locks."""
    facts, fields = semantic.flags, inst.fields
    op, width, family = facts["vector_atomic"], facts["data_bytes"], facts["address_family"]
    if op not in NATIVE_ATOMICS or width not in (4, 8) or family not in ("flat", "global"):
        raise NotCompilable(f"the {family} atomic {op} of {width} bytes")
    wide = width == 8
    addr, saddr = _address_operands(out, fields, family)
    data, step = int(fields["data"]), width // 4
    sources = [data, data + step] if op in COMPARE_AND_SWAPS else [data]
    vdst = int(fields["vdst"]) if int(fields.get("glc", 0)) else None
    args = _atomic_arguments(out, sources, width, vdst)
    offset = f"np.uint64({address_offset(family, inst, out.generation)})"
    out.uses_memory = True
    ok, host, cell = f"ok_{index}", f"host_{index}", f"cell_{index}"
    emit = out.lines.append
    emit(f"        {ok}, {host} = rt.global_atomic_host(vgpr, sgpr, w0, w1, e, full, {addr}, "
         f"{saddr}, {offset}, {width}, {family == 'flat'}, memory)  # op:{semantic.op}")
    emit(f"        if not {ok}:")
    emit(f"            {out.leave(out.relative(index))}")
    _atomic_lanes(out, None, f"{cell} = {host} + "
                  f"rt.lane_address(vgpr, sgpr, {addr}, {saddr}, {offset}, ww, l)")
    if wide:
        _apply_atomic(out, semantic, op, wide, f"rt.qword_at({cell})",
                      f"rt.store_qword_at({cell}, {{}})", args, vdst)
    else:
        _apply_atomic(out, semantic, op, wide, f"rt.dwords_at({cell})[0]",
                      f"rt.dwords_at({cell})[0] = {{}}", args, vdst)


def _lane_gather(out, inst, semantic):
    """ds_swizzle_b32 and ds_bpermute_b32: each active lane takes the VGPR of
    the lane its pattern (``ds.swizzle_sources``, a hoisted table) or its
    address (``ds.permute_lane``) names, 0 from a lane EXEC leaves off."""
    fields = inst.fields
    dst, offset = int(fields["vdst"]), offset16(inst)
    _vgpr(out, dst, False)
    addr = int(fields["addr"])
    _vgpr(out, addr, False)
    if semantic.flags["lane_gather"] == "swizzle":
        # (the value travels in ADDR, as ds._build_swizzle reads it)
        listed = ", ".join(str(int(lane)) for lane in swizzle_sources(offset))
        table = out._hoisted(("swizzle", offset), f"np.array([{listed}], np.int64)")
        call = f"rt.swizzle_lanes(vgpr, w0, w1, e, {addr}, {dst}, {table})"
    else:
        source = int(fields["data0"])
        _vgpr(out, source, False)
        call = f"rt.bpermute_lanes(vgpr, w0, w1, e, {addr}, np.uint64({offset}), {source}, {dst})"
    out.lines.append(f"        {call}  # op:{semantic.op}")
    out.lines.append("        lanes += active")


def _address_operands(out, fields, family):
    """(ADDR, SADDR or -1) of a FLAT/GLOBAL access, checked: a VGPR pair
    address, or with an SGPR pair base (GLOBAL's saddr) a VGPR offset."""
    addr = int(fields["addr"])
    saddr = int(fields.get("saddr", 0x7F)) if family == "global" else 0x7F
    if saddr == 0x7F:
        _vgpr(out, addr, True)
        return addr, -1
    _vgpr(out, addr, False)
    _sgpr(saddr, True)
    return addr, saddr


def _global_move(out, inst, semantic, index):
    """FLAT/GLOBAL loads and stores of whole dwords, bytes and shorts:
    natively when every active lane's access is plain global memory inside
    an allocation (the function gets the address space as an argument);
    otherwise back to the interpreter before the instruction, which takes
    apertures and faults."""
    facts = semantic.flags
    family = facts["address_family"]
    nbytes = facts["data_bytes"]
    fields = inst.fields
    if family not in ("flat", "global") or (nbytes % 4 and nbytes not in (1, 2)) or \
            int(fields.get("lds", 0)) or int(fields.get("tfe", 0)):
        raise NotCompilable("an LDS-bit, tfe or non-global vector memory access")
    dwords = max(1, nbytes // 4)
    addr, saddr = _address_operands(out, fields, family)
    store = facts["vector_move"] == "store"
    data = int(fields["data"] if store else fields["vdst"])
    _vgpr(out, data + dwords - 1, False)
    offset = address_offset(family, inst, out.generation)
    out.uses_memory = True
    emit = out.lines.append
    if dwords > 4:
        raise NotCompilable("a vector access of more than four dwords")
    if nbytes < 4:
        emit(f"        if not rt.global_move_narrow(vgpr, sgpr, w0, w1, e, {addr}, {saddr}, "
             f"np.uint64({offset}), {data}, {nbytes}, {bool(facts.get('signed'))}, {store}, "
             f"{family == 'flat'}, memory):  # op:{semantic.op}")
    else:
        emit(f"        if not rt.global_move_x{dwords}(vgpr, sgpr, w0, w1, e, full, {addr}, "
             f"{saddr}, np.uint64({offset}), {data}, {store}, {family == 'flat'}, memory):"
             f"  # op:{semantic.op}")
    emit(f"            {out.leave(out.relative(index))}")
    emit("        lanes += active")


def _buffer_move(out, inst, semantic, index):
    """MUBUF loads and stores of whole dwords without IDXEN, ADDR64, the lds
    bit or tfe (scratch through the private segment V#, above all):
    natively when every active lane's dwords are in range and in an
    allocation (``kernels.buffer_move_x*``); otherwise back to the
    interpreter before the instruction."""
    fields = inst.fields
    nbytes = semantic.flags["data_bytes"]
    if nbytes % 4 or nbytes > 16 or any(int(fields.get(name, 0))
                                       for name in ("idxen", "addr64", "lds", "tfe")):
        raise NotCompilable("a sub-dword, indexed, addr64, LDS-bit or tfe buffer access")
    rsrc = int(fields["srsrc"]) * 4
    soffset = int(fields.get("soffset", 128))
    if rsrc + 3 > 127 or not (soffset <= 127 or ops.is_constant(soffset)):
        raise NotCompilable(f"a buffer access through s{rsrc} or soffset {soffset}")
    constant = int(ops.constant_bits(soffset, "u32", inst.literal)) if soffset > 127 else 0
    dwords = nbytes // 4
    offen, vaddr = bool(int(fields.get("offen", 0))), int(fields.get("vaddr", 0))
    if offen:
        _vgpr(out, vaddr, False)
    data = int(fields["vdata"])
    _vgpr(out, data + dwords - 1, False)
    out.uses_memory = True
    emit = out.lines.append
    emit(f"        if not rt.buffer_move_x{dwords}(vgpr, sgpr, w0, w1, e, {rsrc}, "
         f"{soffset if soffset <= 127 else -1}, np.uint64({constant}), {vaddr}, {offen}, "
         f"np.uint64({int(fields.get('offset', 0)) & 0xFFF}), {data}, "
         f"{semantic.flags['vector_move'] == 'store'}, {out.generation}, memory):"
         f"  # op:{semantic.op}")
    emit(f"            {out.leave(out.relative(index))}")
    emit("        lanes += active")


def _scalar_load(out, inst, semantic, index):
    """s_load_dword(xN) with a constant offset: natively when every wave's
    dwords lie in one allocation; otherwise back to the interpreter before
    the instruction, which takes the faults."""
    offset = immediate_offset(inst, out.generation)
    if offset is None:
        raise NotCompilable("a scalar load with an SGPR offset")
    dwords = semantic.flags["data_bytes"] // 4
    base = int(inst.fields["sbase"]) * 2
    data = int(inst.fields["sdata"] if "sdata" in inst.fields else inst.fields["sdst"])
    if base + 1 > VCC_LO - 1 or data + dwords > VCC_LO:
        raise NotCompilable("a scalar load from or to a special register")
    out.uses_memory = True
    emit = out.lines.append
    emit(f"        if not rt.scalar_load(sgpr, w0, w1, {base}, np.uint64({int(offset)}), {data}, "
         f"{dwords}, memory):  # op:{semantic.op}")
    emit(f"            {out.leave(out.relative(index))}")
    emit("        lanes += n")


def _barrier(out, index):
    """s_barrier: passed natively when the scheduler says the group holds every
    live wave of its work-groups and none waits elsewhere (``barrier_ok``:
    the interpreter would park them and release them at once); otherwise
    back to the interpreter before it."""
    emit = out.lines.append
    emit("        if not barrier_ok:")
    emit(f"            {out.leave(out.relative(index))}")
    emit("        lanes += n")


__all__ = ["block_source", "why_not", "Modes", "NotCompilable", "CODEGEN_VERSION"]

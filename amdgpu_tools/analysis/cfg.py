"""Control-flow graphs of the kernels and functions of a code object.

``control_flow_graphs(elf)`` gives one ``ControlFlowGraph`` per kernel and
function (ET_DYN or ET_REL, code object v2-v5); ``build_cfg(code, entry, end)``
builds one from any ``(address, instruction)`` sequence, so a checker can use
it on code that has no symbol.

A graph is a list of ``BasicBlock`` s in address order. A block is a maximal
run of instructions entered only at its first one and left only after its
last one: blocks start at the entry, at every branch target inside the code
and after every instruction that changes the flow of control; they end before
the next start. Each block lists its successors as ``Edge`` s:

* ``taken``: a branch to a known (pc-relative) target;
* ``fall-through``: to the next instruction (after a conditional branch, or a
  block that ends only because the next one is a branch target);
* ``call``: a call to a known target (``s_call_b64``); the call returns, so the
  block also falls through;
* ``unknown``: to a target held in registers (``s_setpc_b64``,
  ``s_swappc_b64``, ``s_cbranch_g_fork``, ``s_cbranch_join``, ``s_rfe_b64``):
  its ``target`` is None, never a guess (a ``s_getpc_b64``/``s_add``/
  ``s_setpc_b64`` sequence stays unknown too).

``s_endpgm`` (and ``s_endpgm_saved``, ``s_endpgm_ordered_ps_done``) ends a
block with no successor. An edge whose target is outside the code (a tail
jump into another function, a fall-through past the symbol's end) keeps the
target address; ``graph.block_at(target)`` is None for it.

Back edges (``edge.back``) are found by a depth-first search from the entry:
an edge to a block still on the search's path closes a loop. Blocks the entry
cannot reach have ``reachable`` False and no back edges.

Which instructions change the flow of control is ``CONTROL_FLOW``, keyed by the
decoded instruction's canonical op name (``Instruction.op``, the ISA table's
``name``): the ISA tables give the operands (a ``label`` operand is a
pc-relative target, read by ``elf.listing.branch_target``) but do not say how
an instruction continues, so this table is the one place that does.
Instructions not in it (``s_trap``, whose handler returns; ``s_sethalt``)
continue with the next instruction. Undecodable words (``DataWord``) are kept
as instructions of their block.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator

from ..elf import constants as C
from ..elf.kernel_code import AMD_KERNEL_CODE_T_SIZE
from ..elf.listing import kernel_headers, branch_target
from ..elf.reader import ElfFile

TAKEN = "taken"
FALL_THROUGH = "fall-through"
CALL = "call"
UNKNOWN = "unknown"
EDGE_KINDS = (TAKEN, FALL_THROUGH, CALL, UNKNOWN)


@dataclass(frozen=True)
class ControlFlow:
    """How an instruction leaves its block.

    ``target``: ``"label"`` (a pc-relative target in its ``label`` operand),
    ``"register"`` (an address in registers: not known statically) or None;
    ``falls_through``: whether execution may continue with the next
    instruction; ``call``: the target is a callee (the next instruction is
    where it returns)."""

    target: str | None
    falls_through: bool
    call: bool = False


_BRANCH = ControlFlow("label", False)
_CONDITIONAL = ControlFlow("label", True)
_END = ControlFlow(None, False)

#: canonical op name -> ControlFlow, for every GFX6-GFX9 instruction that does
#: not simply continue with the next one (the AMD GCN3/Vega ISA manuals'
#: "program control" instructions)
CONTROL_FLOW: dict[str, ControlFlow] = {
    "s_branch": _BRANCH,
    **{name: _CONDITIONAL for name in (
        "s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz", "s_cbranch_vccnz",
        "s_cbranch_execz", "s_cbranch_execnz", "s_cbranch_cdbgsys", "s_cbranch_cdbguser",
        "s_cbranch_cdbgsys_or_user", "s_cbranch_cdbgsys_and_user",
        # fork to the label; the other path runs first, from the next instruction
        "s_cbranch_i_fork")},
    "s_endpgm": _END,
    "s_endpgm_saved": _END,
    "s_endpgm_ordered_ps_done": _END,
    "s_setpc_b64": ControlFlow("register", False),
    "s_swappc_b64": ControlFlow("register", True, call=True),
    "s_call_b64": ControlFlow("label", True, call=True),
    # fork to an address in SGPRs / join a pending path (or continue when none is left)
    "s_cbranch_g_fork": ControlFlow("register", True),
    "s_cbranch_join": ControlFlow("register", True),
    # return from the trap handler to a saved PC
    "s_rfe_b64": ControlFlow("register", False),
    "s_rfe_restore_b64": ControlFlow("register", False),
}


def control_flow(inst) -> ControlFlow | None:
    """How ``inst`` leaves its block, or None: it continues with the next instruction."""
    return CONTROL_FLOW.get(getattr(inst, "op", None))


@dataclass(frozen=True)
class Edge:
    """One successor of a block: ``source`` and ``target`` are block start
    addresses (``target`` None for ``unknown``); ``back`` marks a loop's back edge."""

    source: int
    target: int | None
    kind: str
    back: bool = False


@dataclass
class BasicBlock:
    """Instructions ``[start, end)``: ``instructions`` are ``(address, Instruction)``."""

    start: int
    end: int
    instructions: list = field(default_factory=list)
    successors: list[Edge] = field(default_factory=list)
    predecessors: list[Edge] = field(default_factory=list)
    reachable: bool = True

    @property
    def terminator(self):
        """The block's last instruction."""
        return self.instructions[-1][1]

    def __repr__(self):
        succ = ", ".join(f"{e.kind}->{'?' if e.target is None else hex(e.target)}"
                         f"{' (back)' if e.back else ''}" for e in self.successors)
        return f"<BasicBlock 0x{self.start:x}-0x{self.end:x} [{succ}]>"


@dataclass
class ControlFlowGraph:
    """The blocks of one kernel or function, in address order; ``entry`` is the
    address where execution starts (the first block's start)."""

    name: str
    entry: int
    blocks: list[BasicBlock]
    kind: str = "function"          # "kernel" or "function"
    section: str = ""

    def __post_init__(self):
        self._by_start = {block.start: block for block in self.blocks}

    def block_at(self, address: int) -> BasicBlock | None:
        """The block starting at ``address``, or None (not a block start of this graph)."""
        return self._by_start.get(address)

    def block_containing(self, address: int) -> BasicBlock | None:
        for block in self.blocks:
            if block.start <= address < block.end:
                return block
        return None

    @property
    def entry_block(self) -> BasicBlock:
        return self._by_start[self.entry]

    def edges(self) -> Iterator[Edge]:
        for block in self.blocks:
            yield from block.successors

    def back_edges(self) -> list[Edge]:
        return [edge for edge in self.edges() if edge.back]

    def instructions(self) -> Iterator[tuple]:
        """Every ``(address, Instruction)`` in address order."""
        for block in self.blocks:
            yield from block.instructions

    @property
    def generation(self) -> int:
        """The GCN generation its instructions were decoded for (9 when none says)."""
        for _, inst in self.instructions():
            target = getattr(inst, "target", None)
            if target is not None:
                return target.generation
        return 9


# --- building ---------------------------------------------------------------
def build_cfg(code: Iterable[tuple], entry: int | None = None, end: int | None = None,
              name: str = "", kind: str = "function", section: str = "") -> ControlFlowGraph:
    """The graph of ``code``, ``(address, Instruction)`` in address order with no
    gap (what ``isa.disassemble`` yields). ``entry`` defaults to the first
    address, ``end`` (the address after the code) to the end of the last
    instruction; a fall-through at ``end`` leaves the code."""
    code = list(code)
    if not code:
        raise ValueError(f"{name or 'code'}: no instructions")
    if entry is None:
        entry = code[0][0]
    if end is None:
        end = code[-1][0] + code[-1][1].size
    addresses = {address for address, _ in code}
    if entry not in addresses:
        raise ValueError(f"{name or 'code'}: entry 0x{entry:x} is not an instruction start")

    # where blocks start: the entry, branch targets inside the code, after each flow change
    leaders = {code[0][0], entry}
    for address, inst in code:
        flow = control_flow(inst)
        if flow is None:
            continue
        target = branch_target(address, inst) if flow.target == "label" else None
        if target is not None and target in addresses and not flow.call:
            leaders.add(target)
        leaders.add(address + inst.size)

    blocks: list[BasicBlock] = []
    for address, inst in code:
        if address in leaders or not blocks:
            blocks.append(BasicBlock(address, address))
        block = blocks[-1]
        block.instructions.append((address, inst))
        block.end = address + inst.size

    for block in blocks:
        address, inst = block.instructions[-1]
        flow = control_flow(inst)
        next_address = block.end
        if flow is None:
            block.successors.append(Edge(block.start, next_address, FALL_THROUGH))
            continue
        if flow.target == "label":
            block.successors.append(Edge(block.start, branch_target(address, inst),
                                         CALL if flow.call else TAKEN))
        elif flow.target == "register":
            block.successors.append(Edge(block.start, None, UNKNOWN))
        if flow.falls_through:
            block.successors.append(Edge(block.start, next_address, FALL_THROUGH))

    graph = ControlFlowGraph(name, entry, blocks, kind, section)
    _mark_back_edges(graph)
    for block in blocks:
        for edge in block.successors:
            target = graph.block_at(edge.target) if edge.target is not None else None
            if target is not None and edge.kind != CALL:
                target.predecessors.append(edge)
    return graph


def _followed(edge: Edge) -> bool:
    """Whether the search follows ``edge``: control reaches its target in this code
    (a call's target is the callee; execution continues at the fall-through)."""
    return edge.target is not None and edge.kind != CALL


def _mark_back_edges(graph: ControlFlowGraph) -> None:
    """Iterative depth-first search from the entry; an edge to a block on the
    current path is a back edge. Sets ``reachable`` and ``Edge.back``."""
    for block in graph.blocks:
        block.reachable = False
    on_path: set[int] = set()
    back: set[tuple[int, int]] = set()     # (source block, index of the edge)
    entry = graph.entry_block
    entry.reachable = True
    on_path.add(entry.start)
    stack = [(entry, 0)]
    while stack:
        block, index = stack[-1]
        if index == len(block.successors):
            stack.pop()
            on_path.discard(block.start)
            continue
        stack[-1] = (block, index + 1)
        edge = block.successors[index]
        if not _followed(edge):
            continue
        target = graph.block_at(edge.target)
        if target is None:
            continue
        if target.start in on_path:
            back.add((block.start, index))
        elif not target.reachable:
            target.reachable = True
            on_path.add(target.start)
            stack.append((target, 0))
    for block in graph.blocks:
        block.successors = [replace(edge, back=True) if (block.start, i) in back else edge
                            for i, edge in enumerate(block.successors)]


# --- the kernels and functions of a code object -------------------------------
@dataclass(frozen=True)
class CodeRange:
    """One kernel or function: its code is ``[start, end)`` of ``section``
    (``start`` is past a v2 kernel's amd_kernel_code_t)."""

    name: str
    kind: str
    section: object
    start: int
    end: int


def code_ranges(elf: ElfFile) -> list[CodeRange]:
    """Every kernel and function of the executable sections, in address order.

    Functions are the ``STT_FUNC`` and ``STT_AMDGPU_HSA_KERNEL`` symbols (a
    local label is not one); each extends over its ``st_size`` or, without
    one, to the next such symbol (or the section's end). A kernel is a
    ``STT_AMDGPU_HSA_KERNEL`` symbol (v2) or a function with a ``NAME.kd``
    descriptor (v3-v5). Aliases (two symbols at one address) give one range,
    named by the first name in sorted order."""
    symbols = [s for s in (elf.symbols or elf.dynamic_symbols)
               if s.is_defined and s.shndx < len(elf.sections)]
    descriptors = {s.name[:-3] for s in symbols
                   if s.type == C.STT_OBJECT and s.name.endswith(".kd")}
    ranges = []
    for section in elf.sections:
        if not (section.type == C.SHT_PROGBITS and section.flags & C.SHF_EXECINSTR
                and section.size):
            continue
        base, section_end = section.addr, section.addr + section.size
        headers = kernel_headers(elf, section)
        starts: dict[int, object] = {}
        for s in sorted((s for s in symbols if s.shndx == section.index
                         and s.type in (C.STT_FUNC, C.STT_AMDGPU_HSA_KERNEL)
                         and base <= s.value < section_end), key=lambda s: (s.value, s.name)):
            starts.setdefault(s.value, s)
        ordered = sorted(starts)
        for i, address in enumerate(ordered):
            symbol = starts[address]
            following = ordered[i + 1] if i + 1 < len(ordered) else section_end
            end = min(address + symbol.size, section_end) if symbol.size else following
            start = address
            if address in headers:
                start += AMD_KERNEL_CODE_T_SIZE
            if start >= end:
                continue
            kind = ("kernel" if symbol.type == C.STT_AMDGPU_HSA_KERNEL
                    or symbol.name in descriptors else "function")
            ranges.append(CodeRange(symbol.name, kind, section, start, end))
    return ranges


def control_flow_graphs(elf: ElfFile, target=None) -> list[ControlFlowGraph]:
    """One graph per kernel and function of ``elf`` (``target``: a processor
    name or ``Target``; default: the code object's own)."""
    from ..isa import disassemble
    from ..isa.targets import target_of_elf
    if target is None:
        target = target_of_elf(elf)
    graphs = []
    for r in code_ranges(elf):
        base = r.section.addr
        code = disassemble(r.section.data[r.start - base:r.end - base], target, r.start)
        graphs.append(build_cfg(code, r.start, r.end, r.name, r.kind, r.section.name))
    return graphs

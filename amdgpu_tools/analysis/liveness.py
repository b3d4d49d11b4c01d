"""Live registers at every instruction of a kernel or function.

A register is live at a point when some path from there reads it before
writing it. ``live_registers(graph)`` solves that backwards over the
control-flow graph (``analysis.cfg``) with each instruction's reads and writes
from ``isa.effects``, iterating to the fixed point, so loops carry their
values around the back edge.

What one instruction costs is its *pressure*: the registers that must hold a
value while it runs: those live into it (its sources among them), those live
after it, and what it writes (a result nobody reads still needs a register). The peak pressure is what the allocator had to
fit, and the lines at the peak are where freeing registers gains occupancy.

Counted as VGPRs: v0-v255. Counted as SGPRs: the allocatable ones (s0-s101 on
GFX8/9, s0-s103 on GFX6/7) and VCC, which the hardware allocates from the same
file; EXEC, M0, SCC and trap registers are not allocated and not counted.

What the analysis cannot see, it says: a return or indirect jump
(``s_setpc_b64``) leaves with nothing assumed live; a call (``s_swappc_b64``,
``s_call_b64``) is assumed to read only its operands and to preserve the rest,
as the AMDGPU calling convention's callee-saved registers are; a partial write
(one lane, half a register) keeps the old value live; an M0-indexed move
(``s_movrel*``, ``v_movrel*``) may touch any register from its operand on, so
it kills nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..isa.effects import VCC, effects_of
from ..isa.operands import layout

VGPR_BASE = 256


@dataclass(frozen=True)
class LiveLine:
    """One instruction: ``live_in``/``live_out`` are register sets (isa.effects
    numbering); ``vgprs``/``sgprs`` its pressure (see the module docstring)."""

    address: int
    instruction: object
    live_in: frozenset
    live_out: frozenset
    vgprs: int
    sgprs: int


@dataclass(frozen=True)
class Liveness:
    """The live registers of one graph, instruction by instruction in address order."""

    name: str
    kind: str
    lines: tuple

    @property
    def peak_vgprs(self) -> int:
        return max((line.vgprs for line in self.lines), default=0)

    @property
    def peak_sgprs(self) -> int:
        return max((line.sgprs for line in self.lines), default=0)

    def peak_vgpr_lines(self) -> list[LiveLine]:
        return [line for line in self.lines if line.vgprs == self.peak_vgprs]

    def peak_sgpr_lines(self) -> list[LiveLine]:
        return [line for line in self.lines if line.sgprs == self.peak_sgprs]


def _transfer(effects):
    """(registers read, registers killed) of one instruction."""
    if effects is None:                      # an undecodable word: no data flow
        return frozenset(), frozenset()
    written = effects.all_writes
    if effects.indexed:
        written = frozenset()
    return effects.reads, written - effects.partial


def live_registers(graph) -> Liveness:
    """The live registers at every instruction of ``graph`` (an ``analysis.cfg``
    ``ControlFlowGraph``)."""
    effects = {address: _effects(inst) for address, inst in graph.instructions()}
    transfer = {address: _transfer(e) for address, e in effects.items()}
    live_in_of_block = {block.start: frozenset() for block in graph.blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(graph.blocks):
            live = _block_live_out(graph, block, live_in_of_block)
            for address, _ in reversed(block.instructions):
                reads, kills = transfer[address]
                live = (live - kills) | reads
            if live != live_in_of_block[block.start]:
                live_in_of_block[block.start] = live
                changed = True
    generation = graph.generation
    counted_sgprs = _counted_sgprs(generation)
    lines = []
    for block in graph.blocks:
        live = _block_live_out(graph, block, live_in_of_block)
        block_lines = []
        for address, inst in reversed(block.instructions):
            reads, kills = transfer[address]
            live_out = live
            live = (live - kills) | reads
            held = live | live_out | (effects[address].all_writes if effects[address] else frozenset())
            block_lines.append(LiveLine(
                address, inst, live, live_out,
                vgprs=sum(1 for r in held if r >= VGPR_BASE),
                sgprs=sum(1 for r in held if r in counted_sgprs)))
        lines.extend(reversed(block_lines))
    return Liveness(graph.name, graph.kind, tuple(lines))


def _block_live_out(graph, block, live_in_of_block):
    live = frozenset()
    for edge in block.successors:
        if edge.target is None or edge.kind == "call":
            continue            # an unknown target or a callee: nothing assumed live
        successor = graph.block_at(edge.target)
        if successor is not None:
            live |= live_in_of_block[successor.start]
    return live


def _effects(inst):
    if getattr(inst, "info", None) is None:
        return None
    return effects_of(inst)


def _counted_sgprs(generation) -> frozenset:
    return frozenset(range(layout(generation).sgpr_count)) | frozenset(VCC)


def liveness_of_elf(elf, target=None) -> list[Liveness]:
    """The live registers of every kernel and function of a code object."""
    from .cfg import control_flow_graphs
    return [live_registers(graph) for graph in control_flow_graphs(elf, target)]


def listing(liveness: Liveness) -> str:
    """The text ``amdgpu-objdump --live-registers`` prints for one kernel or
    function: a summary line, then per instruction its live VGPR and SGPR
    counts, ``*`` marking the lines at a peak."""
    peak_v, peak_s = liveness.peak_vgprs, liveness.peak_sgprs
    out = [f"{liveness.kind} {liveness.name}: peak {peak_v} live VGPRs "
           f"({_lines(len(liveness.peak_vgpr_lines()))}), peak {peak_s} live SGPRs "
           f"({_lines(len(liveness.peak_sgpr_lines()))})",
           "  VGPRs SGPRs  address  instruction"]
    for line in liveness.lines:
        mark_v = "*" if line.vgprs == peak_v and peak_v else " "
        mark_s = "*" if line.sgprs == peak_s and peak_s else " "
        text = line.instruction.text() if hasattr(line.instruction, "text") else \
            str(line.instruction)
        out.append(f"  {line.vgprs:4d}{mark_v} {line.sgprs:4d}{mark_s}  "
                   f"{line.address:08x}  {text}")
    return "\n".join(out) + "\n"


def _lines(count):
    return f"{count} line" if count == 1 else f"{count} lines"


def as_json(liveness: Liveness) -> dict:
    """One kernel's live registers as plain data (``--live-registers --json``)."""
    return {"name": liveness.name, "kind": liveness.kind,
            "peak_vgprs": liveness.peak_vgprs, "peak_sgprs": liveness.peak_sgprs,
            "lines": [{"address": line.address, "vgprs": line.vgprs, "sgprs": line.sgprs,
                       "instruction": line.instruction.text()
                       if hasattr(line.instruction, "text") else str(line.instruction)}
                      for line in liveness.lines]}

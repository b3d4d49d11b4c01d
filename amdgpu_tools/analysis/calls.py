"""Direct calls and tail jumps through registers, worked out where the code
says exactly where they go.

The control-flow graph keeps every ``s_swappc_b64``/``s_setpc_b64`` target
unknown (``cfg``: an address in registers is never guessed). Compilers call
a function of the same code object by computing its address from the PC,
all in the calling block:

    s_getpc_b64 s[16:17]                 ; address of the next instruction
    s_add_u32   s16, s16, func@rel32@lo+4
    s_addc_u32  s17, s17, func@rel32@hi+12
    ...                                  ; nothing else writes s[16:17]
    s_swappc_b64 s[30:31], s[16:17]      ; (s_setpc_b64 s[16:17]: a tail jump)

In a linked code object the two literals are resolved, so the target is the
64-bit sum: arithmetic on values the block holds, not a guess.
``direct_targets`` finds such sequences; any other way of forming the
address leaves the target unknown.
"""

from __future__ import annotations

from ..isa.effects import SCC, effects_of

_LITERAL = 255
_MASK64 = (1 << 64) - 1
_JUMPS = ("s_swappc_b64", "s_setpc_b64")


def _constant(inst, code):
    """The value of source operand ``code`` when it is a constant (literal or
    inline integer), else None."""
    if code == _LITERAL:
        return inst.literal
    if 128 <= code <= 192:
        return code - 128
    if 193 <= code <= 208:
        return (192 - code) & 0xFFFFFFFF
    return None


def _addend(inst, op, register):
    """The constant ``inst`` (``op`` ``register``, ``register``, constant) adds, or None."""
    if inst.op != op or inst.fields.get("sdst") != register:
        return None
    first, second = inst.fields.get("ssrc0"), inst.fields.get("ssrc1")
    if first == register:
        return _constant(inst, second)
    if second == register:
        return _constant(inst, first)
    return None


def _target_before(instructions, index, pair):
    """The address in SGPRs ``pair``/``pair + 1`` at ``instructions[index]``, or None.

    Walking back: the s_addc_u32 of the high half, the s_add_u32 of the low
    half (no SCC writer between them: the carry must be the add's), then the
    s_getpc_b64, with no other write of the pair on the way."""
    wanted = [("s_addc_u32", pair + 1), ("s_add_u32", pair)]
    addends = {}
    for address, inst in reversed(instructions[:index]):
        if getattr(inst, "info", None) is None:
            return None
        if wanted:
            op, register = wanted[0]
            value = _addend(inst, op, register)
            if value is not None:
                addends[register] = value
                wanted.pop(0)
                continue
        elif inst.op == "s_getpc_b64" and inst.fields.get("sdst") == pair:
            offset = addends[pair + 1] << 32 | addends[pair]
            return (address + inst.size + offset) & _MASK64
        writes = effects_of(inst).writes
        if pair in writes or pair + 1 in writes or (len(wanted) == 1 and SCC in writes):
            return None
    return None


def computed_target(instructions, index) -> int | None:
    """The target of the s_swappc_b64/s_setpc_b64 at ``instructions[index]``
    (``(address, instruction)`` pairs of its block, up to it) when the block
    computes it from the PC, else None (the executor's scan of a kernel for
    its worker processes follows calls with it)."""
    return _target_before(instructions, index, instructions[index][1].fields.get("ssrc0"))


def direct_targets(graph) -> dict[int, int]:
    """``{address of the s_swappc_b64 or s_setpc_b64: target}`` for the calls and
    tail jumps of ``graph`` whose target the block computes from the PC."""
    found = {}
    for block in graph.blocks:
        instructions = block.instructions
        for index, (address, inst) in enumerate(instructions):
            if getattr(inst, "op", None) in _JUMPS:
                target = computed_target(instructions, index)
                if target is not None:
                    found[address] = target
    return found

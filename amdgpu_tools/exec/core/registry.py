"""The semantics registry: one short function per operation, keyed by mnemonic.

A semantic function only computes; the per-format wrappers in
``exec/core/formats.py`` do operand fetch, modifiers, EXEC masking and write-back,
so that e.g. ``v_add_f32`` is written once and runs as VOP2, VOP3, DPP or SDWA.

Kinds of registration:

``salu(op, dst, *srcs, scc_in=False, scc_out=False)``
    ``fn(*sources[, scc]) -> result`` or ``(result, scc)`` when ``scc_out``.
    Types: 'b32','u32','i32','b64','u64','i64' ('b64' family read and write
    SGPR pairs as uint64), None for no destination.
``valu(op, dst, *srcs, carry_in=False, carry_out=False, lane_fn=False)``
    ``fn(*sources[, carry_in]) -> result`` or ``(result, carry_out)``; sources
    arrive viewed as their type ('f32' float32, 'i32' int32, 'u32' uint32,
    'f16' float16, 'u16'/'i16', 'f64', 'u64', 'i64', 'b32' = uint32), shaped
    (n, 64) or broadcastable to it; carries are (n, 64) bool arrays.
``vcmp(op, type)`` for compares: ``fn(a, b) -> bool (n, 64)``.
``instruction(op)``: raw ``fn(ctx) -> outcome`` for anything that does its own
    operand handling (memory instructions, SOPP, lane ops); ``ctx`` is an
    ``exec.context.Context``.
``builder(op)``: ``fn(inst, program) -> run(ctx) -> outcome``: like
    ``instruction`` but called once at pre-decode time so the run-time
    closure can bind everything it needs (fields, offsets, register numbers).

Ops the executor deliberately rejects are listed in ``UNSUPPORTED`` with a
reason (graphics-only instructions).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Semantic:
    """One registered operation."""

    op: str
    kind: str                      # 'salu' 'valu' 'vcmp' 'raw' 'builder'
    fn: object
    dst: str | None = None
    srcs: tuple = ()
    flags: dict = field(default_factory=dict)


#: mnemonic -> Semantic
SEMANTICS: dict[str, Semantic] = {}
#: mnemonic or encoding name -> why the executor rejects it
UNSUPPORTED: dict[str, str] = {
    "EXP": "export is a graphics-only instruction",
    "VINTRP": "parameter interpolation is a graphics-only instruction",
    "MIMG": "image instructions are graphics-only",
}


def _register(semantic: Semantic):
    SEMANTICS[semantic.op] = semantic
    return semantic.fn


def salu(op, dst, *srcs, scc_in=False, scc_out=False, dst_in=False):
    """Register a scalar ALU semantic (SOP1/SOP2/SOPK/SOPC).

    Arguments arrive as ``(*sources, [scc], [old destination])``.
    """
    def decorate(fn):
        return _register(Semantic(op, "salu", fn, dst, srcs,
                                  {"scc_in": scc_in, "scc_out": scc_out, "dst_in": dst_in}))
    return decorate


def valu(op, dst, *srcs, carry_in=False, carry_out=False, **flags):
    """Register a vector ALU semantic (VOP1/VOP2/VOP3/VOP3P, DPP, SDWA)."""
    def decorate(fn):
        return _register(Semantic(op, "valu", fn, dst, srcs,
                                  {"carry_in": carry_in, "carry_out": carry_out, **flags}))
    return decorate


def vcmp(op, type_):
    """Register a vector compare (VOPC or its VOP3 form); v_cmpx also writes EXEC."""
    def decorate(fn):
        return _register(Semantic(op, "vcmp", fn, "mask", (type_, type_),
                                  {"exec_write": op.startswith(("v_cmpx", "v_cmpsx"))}))
    return decorate


def instruction(op):
    """Register a raw semantic ``fn(ctx) -> outcome``."""
    def decorate(fn):
        return _register(Semantic(op, "raw", fn))
    return decorate


def builder(op):
    """Register a pre-decode builder ``fn(inst, program) -> run(ctx)``."""
    def decorate(fn):
        return _register(Semantic(op, "builder", fn))
    return decorate


def unsupported(op, reason):
    """Declare ``op`` deliberately unimplemented (it ends with UnsupportedInstruction)."""
    UNSUPPORTED[op] = reason

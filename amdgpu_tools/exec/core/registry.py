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
    ``fn(*sources[, lane][, carry_in]) -> result`` or ``(result, carry_out)``
    (``lane_fn``: the op reads each lane's number, a uint64 ``lane``: the 64
    numbers to whole waves, one in a compiled block's lane loop); sources
    arrive viewed as their type ('f32' float32, 'i32' int32, 'u32' uint32,
    'f16' float16, 'u16'/'i16', 'f64', 'u64', 'i64', 'b32' = uint32), shaped
    (n, 64) or broadcastable to it; carries are (n, 64) bool arrays.
    Source types are the table's: without ``srcs`` they are read from the
    op's row in isa/data/vop.json (``row_source_types``). ``srcs`` is written
    only where the semantic views its sources otherwise than the row types
    them (signedness the row cannot state: 'i32' for a row's 'b32');
    tests/exec/test_semantics_by_name.py checks each such view against the row.
``vcmp(op, type=None)`` for compares: ``fn(a, b) -> bool (n, 64)``; the type
    likewise comes from the row unless given.
``instruction(op)``: raw ``fn(ctx) -> outcome`` for anything that does its own
    operand handling (memory instructions, SOPP, lane ops); ``ctx`` is an
    ``exec.core.context.Context``.
``one_wave(op)``: the Python-int fast variant of an SALU semantic (one wave).
``builder(op, **facts)``: ``fn(inst, program) -> run(ctx) -> outcome``: like
    ``instruction`` but called once at pre-decode time so the run-time
    closure can bind everything it needs (fields, offsets, register numbers).

Ops the executor deliberately rejects are listed in ``UNSUPPORTED`` with a
reason (graphics-only instructions).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Semantic:
    """One registered operation."""

    op: str
    kind: str                      # 'salu' 'valu' 'vcmp' 'raw' 'builder'
    fn: object
    dst: str | None = None
    srcs: tuple = ()
    flags: dict = field(default_factory=dict)
    #: SALU only: the same operation on Python ints, used for a group of one
    #: wave (see ``one_wave``), or None
    one_wave: object = None


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


#: Row precedence for source types: the VOP3/VOP3P form types every source;
#: VOP2's vsrc1 and DPP's sources carry no type.
_TYPED_FORMS = ("VOP3", "VOP3P", "SDWA", "VOP1", "VOPC", "VOP2")
_SOURCE_FIELDS = ("src0", "src1", "src2", "vsrc1")


def row_source_types(op):
    """The source operand types the table rows of ``op`` state (isa/data/vop.json:
    the first form, in ``_TYPED_FORMS`` order, whose every source has a type),
    or None when no row types them all."""
    from ...isa.families.vop import FAMILY
    rows = [row for row in FAMILY.rows_named(op) if row.name == op]
    for form in _TYPED_FORMS:
        for row in rows:
            if row.encoding != form:
                continue
            types = tuple(spec.get("type") for spec in row.operands
                          if spec.get("field") in _SOURCE_FIELDS)
            if types and all(types):
                return types
    return None


def _sources_of(op, srcs):
    if srcs:
        return srcs
    types = row_source_types(op)
    if types is None:
        raise ValueError(f"{op}: no table row types its sources; state them")
    return types


def valu(op, dst, *srcs, carry_in=False, carry_out=False, **flags):
    """Register a vector ALU semantic (VOP1/VOP2/VOP3/VOP3P, DPP, SDWA); without
    ``srcs`` the sources are typed as the op's table row types them (less a
    carry-in op's last, the carry mask), and a ``layout="mac"`` op's third
    source (the old destination) as ``dst``."""
    def decorate(fn):
        sources = _sources_of(op, srcs)
        if not srcs and carry_in and not flags.get("vcc_in"):
            sources = sources[:-1]          # the row's last source is the carry mask
        if not srcs and flags.get("layout") == "mac":
            sources = sources + (dst,)
        return _register(Semantic(op, "valu", fn, dst, sources,
                                  {"carry_in": carry_in, "carry_out": carry_out, **flags}))
    return decorate


def vcmp(op, type_=None):
    """Register a vector compare (VOPC or its VOP3 form); v_cmpx also writes EXEC.
    Both sources have ``type_``, else the type the op's table row gives them."""
    def decorate(fn):
        sources = (type_, type_) if type_ else _sources_of(op, ())
        return _register(Semantic(op, "vcmp", fn, "mask", sources,
                                  {"exec_write": op.startswith(("v_cmpx", "v_cmpsx"))}))
    return decorate


def instruction(op, **facts):
    """Register a raw semantic ``fn(ctx) -> outcome``; ``facts`` (the
    semantic's flags) say what compiled blocks may rely on, e.g. s_barrier's
    ``work_group_barrier``."""
    def decorate(fn):
        return _register(Semantic(op, "raw", fn, flags=facts))
    return decorate


def builder(op, **facts):
    """Register a pre-decode builder ``fn(inst, program) -> run(ctx)``; ``facts``
    (kept as the semantic's flags) record what the registration read from the
    table row or stated itself, e.g. a memory op's ``data_bytes``, for tests."""
    def decorate(fn):
        return _register(Semantic(op, "builder", fn, flags=facts))
    return decorate


def one_wave(op):
    """Register ``fn`` as the fast variant of ``op``'s SALU semantic for a group
    of one wave: the same operation on Python ints (raw bits: u32/u64 by operand
    width, SCC 0/1) returning what the reference returns. A NumPy call costs as
    much on one element as on a thousand, so one wave runs several times
    faster on ints. tests/exec/test_perf_salu_int.py checks every registered
    variant against its reference."""
    def decorate(fn):
        reference = SEMANTICS.get(op)
        if reference is None or reference.kind != "salu":
            raise ValueError(f"{op}: a one-wave variant needs its SALU semantic first")
        SEMANTICS[op] = replace(reference, one_wave=fn)
        return fn
    return decorate


#: What an op's IEEE-mode form is named after its op (``ieee_form``).
IEEE_SUFFIX = "@ieee"


def ieee_form(semantic: Semantic) -> Semantic:
    """The Semantic of a float min/max/med3 as MODE.IEEE runs it (its
    ``ieee_nan`` flag's function), named ``op@ieee`` so that compiled
    blocks compile and probe it as an op of its own (``semantic_named``)."""
    return replace(semantic, op=semantic.op + IEEE_SUFFIX, fn=semantic.flags["ieee_nan"],
                   flags={**semantic.flags, "ieee_nan": None})


def semantic_named(op: str) -> Semantic:
    """The registered Semantic ``op`` names, or the IEEE-mode form an
    ``op@ieee`` names."""
    if op.endswith(IEEE_SUFFIX):
        return ieee_form(SEMANTICS[op[:-len(IEEE_SUFFIX)]])
    return SEMANTICS[op]


def semantic_for(inst, generation):
    """The registered semantic of ``inst`` (after generation renames), or None."""
    op = GENERATION_RENAMES.get(generation, {}).get(inst.op, inst.op)
    return SEMANTICS.get(op)


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


def unsupported(op, reason):
    """Declare ``op`` deliberately unimplemented (it ends with UnsupportedInstruction)."""
    UNSUPPORTED[op] = reason

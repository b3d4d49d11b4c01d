"""Per-format wrappers: bind a decoded instruction to its semantic function.

Each ``build_*`` runs once per instruction (pre-decode) and returns
``run(ctx) -> outcome``: the closure already holds the operand getters, the
destination and the modifiers, so executing it is a handful of NumPy calls.
"""

from __future__ import annotations

from functools import lru_cache, partial
from operator import attrgetter

import numpy as np

from . import lanes as lane_ops
from . import operands as ops
from .operands import field
from .registry import SEMANTICS
from .state import (EXEC_HI, EXEC_LO, TOWARD_NEGATIVE, TOWARD_POSITIVE, TOWARD_ZERO, VCC_LO,
                    lanes_to_mask)

_NO_DST = (None, "none")


# ------------------------------------------------------------------ helpers
def _aperture_reader(program):
    request = program.request
    shared = getattr(request, "shared_aperture_base", 0) or 0
    private = getattr(request, "private_aperture_base", 0) or 0

    def aperture(code):
        return {ops.SHARED_BASE: shared >> 32, ops.SHARED_LIMIT: (shared >> 32),
                ops.PRIVATE_BASE: private >> 32, ops.PRIVATE_LIMIT: private >> 32}[code]
    return aperture


def write_scalar(state, sel, code, bits, wide):
    """Write SALU result bits to the scalar destination ``code``."""
    if wide:
        bits = np.asarray(bits, dtype=np.uint64)
        state.sgpr[code, sel] = bits & np.uint64(0xFFFFFFFF)
        state.sgpr[code + 1, sel] = bits >> np.uint64(32)
    else:
        state.sgpr[code, sel] = bits


def _scalar_bits(result, wide):
    result = np.asarray(result)
    if wide:
        return result.astype(np.uint64) if result.dtype != np.uint64 else result
    if result.dtype == np.bool_:
        return result.astype(np.uint32)
    return result.astype(np.uint32) if result.dtype != np.uint32 else result


# --------------------------------------------------------------------- SALU
def build_salu(inst, semantic, program):
    """SOP1 / SOP2 / SOPC / SOPK with a pure semantic function."""
    fn = semantic.fn
    flags = semantic.flags
    scc_in, scc_out = flags["scc_in"], flags["scc_out"]
    aperture = _aperture_reader(program)
    encoding = inst.encoding
    dst_type = semantic.dst
    getters = []
    if encoding == "SOPK":
        dst_code = field(inst, "sdst")
        imm = np.uint32(field(inst, "simm16"))
        if len(semantic.srcs) == 2:
            getters.append(ops.scalar_getter(dst_code, semantic.srcs[0]))
        getters.append(lambda state, sel: imm)
    else:
        names = ("ssrc0", "ssrc1")
        for name, type_ in zip(names, semantic.srcs):
            getters.append(ops.scalar_getter(field(inst, name), type_, inst.literal, aperture))
        dst_code = field(inst, "sdst") if dst_type not in _NO_DST else None
    wide = ops.bits_of(dst_type) == 64 if dst_type not in _NO_DST else False
    writes_exec = dst_code in (EXEC_LO, EXEC_HI) or (wide and dst_code == EXEC_LO - 1)
    if dst_type in _NO_DST:
        dst_code = None
    old_dst = ops.scalar_getter(dst_code, dst_type) if flags.get("dst_in") else None
    move = _register_move(inst, semantic, dst_code, wide, writes_exec) or \
        _bitwise_by_halves(inst, semantic, dst_code, writes_exec)
    if move is not None:
        run = move
    elif not scc_in and old_dst is None and not wide and not writes_exec and len(getters) <= 2:
        run = _plain_salu(fn, getters, scc_out, dst_code)
    else:
        run = _general_salu(fn, getters, scc_in, old_dst, scc_out, dst_code, wide, writes_exec)
    one_wave = _one_wave_salu(inst, semantic, aperture, dst_code, wide, writes_exec)
    return run if one_wave is None else by_wave_count(one_wave, run)


#: Moves whose source may be copied row by row (s_mov_b64 saves and restores
#: EXEC around every divergent region; -O0 code moves pairs constantly).
_MOVES = {"s_mov_b32": 1, "s_mov_b64": 2}


def _register_move(inst, semantic, dst_code, wide, writes_exec):
    """s_mov_b32/b64 from SGPRs as one copy of 1 or 2 register rows, without
    widening to 64 bits and splitting again; None for other ops and sources."""
    rows = _MOVES.get(semantic.op)
    source = field(inst, "ssrc0")
    if rows is None or dst_code is None or inst.encoding != "SOP1" or \
            max(source, dst_code) + rows > 128:    # (a pair past s127 is a fault)
        return None

    def run(ctx):
        sgpr = ctx.state.sgpr
        sgpr[dst_code:dst_code + rows, ctx.sel] = sgpr[source:source + rows, ctx.sel]
        if writes_exec:
            ctx.exec_changed()
    return run


#: 64-bit bitwise ops: every bit of the result depends on the same bit of the
#: sources only, so the 32-bit semantic applied to both halves is the 64-bit op.
_BITWISE_B64 = {"s_and_b64": "s_and_b32", "s_or_b64": "s_or_b32", "s_xor_b64": "s_xor_b32",
                "s_andn2_b64": "s_andn2_b32", "s_orn2_b64": "s_orn2_b32",
                "s_nand_b64": "s_nand_b32", "s_nor_b64": "s_nor_b32", "s_xnor_b64": "s_xnor_b32"}


def row_pair(code, literal):
    """``read(state, sel) -> (2, n)`` low/high dwords of a 64-bit source read
    as two register rows (or a constant as a (2, 1) column), or None."""
    if ops.is_constant(code):
        value = int(ops.constant_bits(code, "b64", literal))
        column = np.array([[value & 0xFFFFFFFF], [value >> 32]], np.uint32)
        return lambda state, sel: column
    if code + 2 <= 128:
        return lambda state, sel: state.sgpr[code:code + 2, sel]
    return None


def _bitwise_by_halves(inst, semantic, dst_code, writes_exec):
    """s_and_b64 and its kin on two rows at a time with the 32-bit semantic:
    no widening to uint64 and splitting again. SCC: the 64-bit result is not 0."""
    narrow = _BITWISE_B64.get(semantic.op)
    if narrow is None or dst_code is None or dst_code + 2 > 128 or inst.encoding != "SOP2":
        return None
    fn = SEMANTICS[narrow].fn
    first = row_pair(field(inst, "ssrc0"), inst.literal)
    second = row_pair(field(inst, "ssrc1"), inst.literal)
    if first is None or second is None:
        return None

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        result, _ = fn(first(state, sel), second(state, sel))
        state.scc[sel] = (result[0] | result[1]) != 0
        state.sgpr[dst_code:dst_code + 2, sel] = result
        if writes_exec:
            ctx.exec_changed()
    return run


def _general_salu(fn, getters, scc_in, old_dst, scc_out, dst_code, wide, writes_exec):
    """The run closure of any SALU op: sources, SCC and old destination in,
    result (32 or 64 bits, maybe EXEC) and SCC out."""
    def run(ctx):
        state, sel = ctx.state, ctx.sel
        args = [get(state, sel) for get in getters]
        if scc_in:
            args.append(state.scc[sel])
        if old_dst is not None:
            args.append(old_dst(state, sel))
        result = fn(*args)
        if scc_out:
            result, scc = result
            state.scc[sel] = scc
        if dst_code is not None:
            write_scalar(state, sel, dst_code, _scalar_bits(result, wide), wide)
            if writes_exec:
                ctx.exec_changed()
        return None
    return run


def by_wave_count(one_wave, run):
    """Run ``one_wave(ctx, state, wave)`` for a group of one wave, else ``run``."""
    def run_by_count(ctx):
        sel = ctx.sel
        if ctx.n == 1 and type(sel) is slice:
            return one_wave(ctx, ctx.state, sel.start)
        return run(ctx)
    return run_by_count


def int_reader(code, type_, literal=None, aperture=None):
    """``read(state, wave) -> int`` bits of a scalar source for one wave (what
    ``ops.scalar_getter`` reads, as a Python int), or None for the operands
    only the getter reads (VCCZ, EXECZ, apertures)."""
    if ops.is_constant(code):
        value = int(ops.constant_bits(code, type_, literal))
        return lambda state, wave: value
    if code <= 127:
        if ops.bits_of(type_) == 64:
            return lambda state, wave: (state.sgpr.item(code, wave)
                                        | state.sgpr.item(code + 1, wave) << 32)
        return lambda state, wave: state.sgpr.item(code, wave)
    if code == ops.SCC_CODE:
        return lambda state, wave: int(state.scc.item(wave))
    return None


def _one_wave_salu(inst, semantic, aperture, dst_code, wide, writes_exec):
    """``run(ctx, state, wave)`` of an SALU op for a single wave with its
    Python-int variant (``Semantic.one_wave``), or None when it has none or an
    operand only the NumPy getters read."""
    twin = semantic.one_wave
    if twin is None:
        return None
    flags = semantic.flags
    if inst.encoding == "SOPK":
        imm = field(inst, "simm16")
        readers = [lambda state, wave: imm]
        if len(semantic.srcs) == 2:
            readers.insert(0, int_reader(field(inst, "sdst"), semantic.srcs[0]))
    else:
        readers = [int_reader(field(inst, name), type_, inst.literal, aperture)
                   for name, type_ in zip(("ssrc0", "ssrc1"), semantic.srcs)]
    if flags["scc_in"]:
        readers.append(lambda state, wave: int(state.scc.item(wave)))
    if flags.get("dst_in"):
        readers.append(int_reader(dst_code, semantic.dst) if dst_code is not None else None)
    if None in readers:
        return None
    return _int_salu_run(twin, readers, flags["scc_out"], dst_code, wide, writes_exec)


def _int_salu_run(twin, readers, scc_out, dst_code, wide, writes_exec):
    """The one-wave run closure: read ints, call the twin, write SCC and the
    destination (masked to its width; 64-bit results as two dwords)."""
    mask = 0xFFFF_FFFF_FFFF_FFFF if wide else 0xFFFFFFFF
    if len(readers) == 1:
        first, = readers
        read = lambda state, wave: twin(first(state, wave))    # noqa: E731
    elif len(readers) == 2:
        first, second = readers
        read = lambda state, wave: twin(first(state, wave), second(state, wave))  # noqa: E731
    else:
        read = lambda state, wave: twin(*[get(state, wave) for get in readers])  # noqa: E731

    def run(ctx, state, wave):
        result = read(state, wave)
        if scc_out:
            result, scc = result
            state.scc[wave] = scc
        if dst_code is not None:
            result &= mask
            if wide:
                state.sgpr[dst_code, wave] = result & 0xFFFFFFFF
                state.sgpr[dst_code + 1, wave] = result >> 32
            else:
                state.sgpr[dst_code, wave] = result
            if writes_exec:
                ctx.exec_changed()
        return None
    return run


def _plain_salu(fn, getters, scc_out, dst_code):
    """The run closure of the common SALU op (one or two sources, no SCC or old
    destination input, a 32-bit destination other than EXEC, or none): the
    general closure's steps with the per-step decisions taken at build time."""
    first, second = (tuple(getters) + (None, None))[:2]

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        if second is not None:
            result = fn(first(state, sel), second(state, sel))
        elif first is not None:
            result = fn(first(state, sel))
        else:
            result = fn()
        if scc_out:
            result, scc = result
            state.scc[sel] = scc
        if dst_code is not None:
            state.sgpr[dst_code, sel] = _scalar_bits(result, False)
        return None
    return run


# --------------------------------------------------------------------- VALU
def mode_reader(result_type):
    """``state -> round mode`` for a result of ``result_type`` ('f32', 'f64',
    'f16'); None for results no float rounding applies to."""
    if result_type == "f32":
        return attrgetter("round_f32")
    if result_type in ("f64", "f16"):
        return attrgetter("round_f64_f16")
    return None


def mode_picker(fn, rounded, result_type):
    """``state -> function`` computing an op in the state's round mode: ``fn``
    (NumPy, nearest even) in mode 0, else ``rounded`` with the mode bound.
    A tuple index, no branch: the executor's per-instruction cost of MODE."""
    choices = (fn,) + tuple(partial(rounded, mode) for mode in
                            (TOWARD_POSITIVE, TOWARD_NEGATIVE, TOWARD_ZERO))
    if result_type == "f32":
        return lambda state: choices[state.round_f32]
    return lambda state: choices[state.round_f64_f16]


_OMOD = {1: 2.0, 2: 4.0, 3: 0.5}


def _source_codes(inst, semantic):
    """The operand codes of the sources, in the semantic's argument order."""
    base = inst.base_encoding if inst.encoding in ("DPP", "SDWA") else inst.encoding
    layout = semantic.flags.get("layout")
    if base in ("VOP3", "VOP3P"):
        codes = [field(inst, "src0"), field(inst, "src1"), field(inst, "src2")]
        if layout == "mac":
            codes[2] = 256 + field(inst, "vdst")
        return codes[:len(semantic.srcs)]
    src0 = field(inst, "src0")
    if inst.encoding in ("DPP", "SDWA"):
        src0 = 256 + field(inst, "src0_vgpr", "vsrc0", "src0")
        if inst.encoding == "SDWA" and field(inst, "s0"):
            src0 = field(inst, "src0_vgpr", "vsrc0", "src0")
    vsrc1 = 256 + field(inst, "vsrc1")
    if inst.encoding == "SDWA" and field(inst, "s1"):     # GFX9: an SGPR or constant src1
        vsrc1 = field(inst, "vsrc1")
    if base == "VOP1":
        return [src0][:len(semantic.srcs)]
    if layout == "madmk":
        return [src0, ops.LITERAL, vsrc1]
    if layout == "madak":
        return [src0, vsrc1, ops.LITERAL]
    if layout == "mac":
        return [src0, vsrc1, 256 + field(inst, "vdst")]
    return [src0, vsrc1][:len(semantic.srcs)]


_EXPONENT_F32 = np.uint32(0x7F800000)
_MAGNITUDE_F32 = np.uint32(0x7FFFFFFF)
_SIGN_F32 = np.uint32(0x80000000)


# MODE.FP_DENORM per type: bit 0 set allows denormal inputs, bit 1 denormal
# outputs (0 flush both, 1 flush outputs, 2 flush inputs, 3 allow both).
_ALLOW_INPUT, _ALLOW_OUTPUT = 1, 2


def _flush_wide(bits, type_):
    """Denormal f64 / f16 bits -> signed zero (MODE.FP_DENORM f64/f16 flushes)."""
    bits = np.asarray(bits)
    if type_ == "f64":
        exponent, magnitude, sign = (np.uint64(0x7FF0_0000_0000_0000),
                                     np.uint64(0x7FFF_FFFF_FFFF_FFFF),
                                     np.uint64(0x8000_0000_0000_0000))
    else:
        exponent, magnitude, sign = np.uint32(0x7C00), np.uint32(0x7FFF), np.uint32(0x8000)
    tiny = ((bits & exponent) == 0) & ((bits & magnitude) != 0)
    if not tiny.any():
        return bits
    return np.where(tiny, bits & (sign | ~magnitude if type_ == "f16" else sign), bits)


def _flush_f32(bits):
    """Denormal f32 bits -> signed zero (MODE.FP_DENORM f32 flushes).

    Denormals are rare, so first check cheaply whether any exponent is zero.
    """
    bits = np.asarray(bits)
    exponent = bits & _EXPONENT_F32
    if exponent.all():
        return bits
    tiny = (exponent == 0) & ((bits & _MAGNITUDE_F32) != 0)
    if not tiny.any():
        return bits
    return np.where(tiny, bits & _SIGN_F32, bits)


def _result_modifiers(type_, clamp, omod):
    """Output modifiers on a float result (``float_result_modifier``), with
    MODE.DX10_CLAMP read from the waves' state when they run."""
    if type_ not in ops.FLOAT_TYPES or not (clamp or omod):
        return None
    choices = (float_result_modifier(type_, omod, clamp, False),
               float_result_modifier(type_, omod, clamp, True))
    return lambda values, state: choices[state.dx10_clamp](values)


@lru_cache(maxsize=None)
def float_result_modifier(type_, omod, clamp, dx10_clamp):
    """``modify(values)``: the output modifiers of a ``type_`` float result,
    applied to the result rounded to its type: omod's scale (x2, x4, x0.5),
    then the clamp bit to [0, 1], where with MODE.DX10_CLAMP a NaN becomes 0
    and without it stays the NaN it was (selections, so -0 and a NaN keep
    their bits as np.clip keeps them). One function per case, plain NumPy,
    which a compiled block calls too (``jitcopy.part``)."""
    dtype = np.dtype(f"float{ops.FLOAT_TYPES[type_]}").type
    scale = dtype(_OMOD.get(omod, 1.0))
    zero, one = dtype(0.0), dtype(1.0)
    scaled, clamped = omod in _OMOD, bool(clamp)

    def modify(values):
        values = np.asarray(values, dtype)
        if scaled:
            values = values * scale
        if clamped:
            clipped = np.where(values < zero, zero, np.where(values > one, one, values))
            values = np.where(values != values, zero, clipped) if dx10_clamp else clipped
        return values
    return modify


_INT_LIMITS = {"i32": (-2 ** 31, 2 ** 31 - 1), "u32": (0, 2 ** 32 - 1),
               "i16": (-2 ** 15, 2 ** 15 - 1), "u16": (0, 2 ** 16 - 1)}


@lru_cache(maxsize=None)
def integer_saturation(kind):
    """``saturate(values)``: a wide integer result clamped to ``kind``'s range
    (the clamp bit of an ``int_clamp`` op); one function per kind, which a
    compiled block calls too (``jitcopy.part``)."""
    low, high = _INT_LIMITS[kind]

    def saturate(values):
        return np.clip(values, low, high)
    return saturate


def _integer_result(kind, clamp):
    """Wide integer results: saturate with the clamp bit, else wrap (by the cast)."""
    if not clamp:
        return None
    saturate = integer_saturation(kind)
    return lambda values, state: saturate(values)


def _op_sel_source(getter):
    """GFX9 VOP3 op_sel: a 16-bit source read from the high half."""
    return lambda state, sel: np.asarray(getter(state, sel), np.uint32) >> np.uint32(16)


def _op_sel_writer(dst):
    """GFX9 VOP3 op_sel[3]: a 16-bit result written to the high half, low half kept."""
    def write(state, sel, bits, lanes):
        merged = (state.vgpr[dst, sel] & np.uint32(0xFFFF)) | \
            ((np.asarray(bits, np.uint32) & np.uint32(0xFFFF)) << np.uint32(16))
        state.write_vgpr(sel, dst, merged, lanes)
    return write


def modifier_type(semantic, type_):
    """The type abs/neg act on: an op declared ``sign_modifiers`` (v_cndmask_b32)
    moves raw 32-bit values, yet the hardware applies abs/neg to them as to an
    f32 (clear/flip bit 31); compilers fold fneg/fabs into its sources."""
    if type_ == "b32" and semantic.flags.get("sign_modifiers"):
        return "f32"
    return type_


def source_getters(inst, semantic, program, src_mods=None, op_sel=0):
    """(getter, type) per source of a VALU op, with every source modifier bound:
    DPP/SDWA selection, MODE's f32 denormal flush, GFX9 op_sel, VOP3 abs/neg."""
    is_vop3 = inst.encoding == "VOP3"
    neg = field(inst, "neg") if is_vop3 else 0
    abs_ = field(inst, "abs") if is_vop3 else 0
    flush = not semantic.flags.get("no_flush")
    aperture = _aperture_reader(program)
    fetch = []
    for i, (code, type_) in enumerate(zip(_source_codes(inst, semantic), semantic.srcs)):
        getter = ops.vector_getter(code, type_, inst.literal, aperture)
        if src_mods is not None:
            getter = src_mods.wrap(i, getter, modifier_type(semantic, type_))
        if type_ == "f32" and flush and not ops.is_constant(code):
            getter = _flushing(getter)
        elif type_ in ("f64", "f16") and flush and not ops.is_constant(code):
            getter = _flushing_wide(getter, type_)
        if op_sel >> i & 1 and ops.bits_of(type_) == 16:
            getter = _op_sel_source(getter)
        modify = ops.source_modifier(modifier_type(semantic, type_), bool(abs_ >> i & 1),
                              bool(neg >> i & 1))
        if modify is not None:
            getter = _compose(modify, getter)
        fetch.append((getter, type_))
    if semantic.flags.get("lane_fn"):
        fetch.append((_lane_numbers, "u64"))
    return fetch


_LANE_NUMBERS = np.arange(64, dtype=np.uint64)
_LANE_NUMBERS.flags.writeable = False


def _lane_numbers(state, sel):
    """The ``lane`` argument of a ``lane_fn`` op: each lane's number."""
    return _LANE_NUMBERS


def build_valu(inst, semantic, program):
    """VOP1/VOP2/VOP3 (and their DPP/SDWA forms) with a pure semantic function."""
    fn = semantic.fn
    flags = semantic.flags
    is_vop3 = inst.encoding == "VOP3"
    op_sel = field(inst, "op_sel") if is_vop3 else 0
    src_mods = lane_ops.source_modifiers(inst) if inst.encoding in ("DPP", "SDWA") else None
    fetch = source_getters(inst, semantic, program, src_mods, op_sel)
    dst_type = semantic.dst
    # VOP3 and SDWA both carry the clamp bit (SDWA: integer saturation too, as
    # in clang's v_sub_u16_sdwa ... clamp for sub_sat on uchar); omod likewise.
    has_output_modifiers = is_vop3 or inst.encoding == "SDWA"
    clamp = field(inst, "clamp") if has_output_modifiers else 0
    if flags.get("int_clamp"):
        post = _integer_result(flags["int_clamp"], clamp)
    else:
        post = _result_modifiers(dst_type, clamp,
                                 field(inst, "omod") if has_output_modifiers else 0)
    dst = field(inst, "vdst")
    wide = ops.bits_of(dst_type) == 64
    carry_in_code = carry_out_code = None
    if flags["carry_in"]:
        carry_in_code = field(inst, "src2") if is_vop3 and not flags.get("vcc_in") else VCC_LO
    if flags["carry_out"]:
        carry_out_code = field(inst, "sdst") if is_vop3 else VCC_LO
    ieee_form = flags.get("ieee_nan")
    flush_out = dst_type == "f32" and not flags.get("no_flush")
    flush_wide_out = dst_type in ("f64", "f16") and not flags.get("no_flush")
    rounded = flags.get("rounded")
    pick = mode_picker(fn, rounded, dst_type) if rounded is not None else None
    writer = lane_ops.sdwa_writer(inst, dst) if inst.encoding == "SDWA" else None
    if op_sel >> 3 & 1 and ops.bits_of(dst_type) == 16:
        writer = _op_sel_writer(dst)
    if carry_in_code is None and carry_out_code is None and ieee_form is None and post is None \
            and writer is None and not wide and src_mods is None:
        return _plain_valu(fn, fetch, dst, dst_type, flush_out, flush_wide_out, pick)

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        args = [ops.typed(get(state, sel), type_) for get, type_ in fetch]
        if carry_in_code is not None:
            args.append(state.read_mask(sel, carry_in_code))
        if ieee_form is not None and state.ieee_mode:
            result = ieee_form(*args)
        else:
            result = fn(*args) if pick is None else pick(state)(*args)
        if carry_out_code is not None:
            result, carry = result
            carry = np.broadcast_to(carry, (ctx.n, 64))   # (sources all SGPRs or constants)
            active = ctx.write_lanes()
            state.write_mask(sel, carry_out_code, carry if active is None else carry & active)
        if post is not None:
            result = post(result, state)
        bits = ops.to_bits(result, dst_type)
        if flush_out and not state.denorm_f32 & _ALLOW_OUTPUT:
            bits = _flush_f32(bits)
        elif flush_wide_out and not state.denorm_f64_f16 & _ALLOW_OUTPUT:
            bits = _flush_wide(bits, dst_type)
        lanes = ctx.write_lanes() if src_mods is None else src_mods.lanes(ctx, ctx.exec_lanes())
        if writer is not None:
            writer(state, sel, bits, lanes)
        elif wide:
            low, high = ops.split64(bits)
            state.write_vgpr(sel, dst, low, lanes)
            state.write_vgpr(sel, dst + 1, high, lanes)
        else:
            state.write_vgpr(sel, dst, bits, lanes)
        return None
    return run


#: Operand types ``ops.typed`` hands back unchanged (raw bits).
_RAW_TYPES = frozenset({"u32", "b32", "u64", "b64"})
#: Operand types ``ops.typed`` reinterprets with a view.
_VIEW_TYPES = {"f32": np.float32, "i32": np.int32, "f64": np.float64, "i64": np.int64}


def _typed_getter(get, type_):
    """``get`` followed by ``ops.typed``, with the conversion chosen once."""
    if type_ in _RAW_TYPES:
        return get
    view = _VIEW_TYPES.get(type_)
    if view is not None:
        return lambda state, sel: get(state, sel).view(view)
    return lambda state, sel: ops.typed(get(state, sel), type_)


def _plain_valu(fn, fetch, dst, dst_type, flush_out, flush_wide_out, pick=None):
    """The run closure of the common VALU op: no carry, no output modifier, no
    SDWA/op_sel/DPP, one 32-bit (or narrower) destination.

    The same steps as the general closure with the per-step decisions taken
    at build time: this is the per-instruction overhead of most VALU code.
    An op whose result MODE.FP_ROUND rounds has ``pick(state) -> function``
    (``mode_picker``) instead of the fixed ``fn``.
    """
    getters = tuple(_typed_getter(get, type_) for get, type_ in fetch)
    to_bits = ops.bits_converter(dst_type)

    def finish(ctx, state, sel, result):
        bits = to_bits(result)
        if flush_out and not state.denorm_f32 & _ALLOW_OUTPUT:
            bits = _flush_f32(bits)
        elif flush_wide_out and not state.denorm_f64_f16 & _ALLOW_OUTPUT:
            bits = _flush_wide(bits, dst_type)
        lanes = ctx.write_lanes()
        if lanes is None:
            state.vgpr[dst, sel] = bits
        else:
            state.write_vgpr(sel, dst, bits, lanes)
        return None

    if len(getters) == 1:
        first, = getters
        if pick is None:
            def run(ctx):
                state, sel = ctx.state, ctx.sel
                return finish(ctx, state, sel, fn(first(state, sel)))
        else:
            def run(ctx):
                state, sel = ctx.state, ctx.sel
                return finish(ctx, state, sel, pick(state)(first(state, sel)))
    elif len(getters) == 2:
        first, second = getters
        if pick is None:
            def run(ctx):
                state, sel = ctx.state, ctx.sel
                return finish(ctx, state, sel, fn(first(state, sel), second(state, sel)))
        else:
            def run(ctx):
                state, sel = ctx.state, ctx.sel
                return finish(ctx, state, sel, pick(state)(first(state, sel), second(state, sel)))
    elif len(getters) == 3 and pick is None:
        first, second, third = getters

        def run(ctx):
            state, sel = ctx.state, ctx.sel
            return finish(ctx, state, sel, fn(first(state, sel), second(state, sel),
                                              third(state, sel)))
    else:
        def run(ctx):
            state, sel = ctx.state, ctx.sel
            compute = fn if pick is None else pick(state)
            return finish(ctx, state, sel, compute(*[get(state, sel) for get in getters]))
    return run


def _flushing_wide(getter, type_):
    """``getter`` with MODE's f64/f16 input denormal flush (FP_DENORM 0 and 2)."""
    def get(state, sel):
        bits = getter(state, sel)
        return bits if state.denorm_f64_f16 & _ALLOW_INPUT else _flush_wide(bits, type_)
    return get


def _flushing(getter):
    """``getter`` with MODE's f32 input denormal flush (FP_DENORM 0 and 2)."""
    def get(state, sel):
        bits = getter(state, sel)
        return bits if state.denorm_f32 & _ALLOW_INPUT else _flush_f32(bits)
    return get


def _compose(modify, getter):
    return lambda state, sel: modify(getter(state, sel))


# ------------------------------------------------------------------ compare
def compare_destination(inst):
    """The SGPR pair a compare's mask goes to: VOP3's SDST, a GFX9 SDWA
    compare's SDST when its SD bit is set, else VCC (compiled blocks ask
    too)."""
    if inst.encoding == "VOP3":
        return field(inst, "sdst", "vdst")
    if inst.encoding == "SDWA" and field(inst, "sd"):
        return field(inst, "sdst")
    return VCC_LO


def build_vcmp(inst, semantic, program):
    """VOPC or VOP3-encoded compare: a lane mask to VCC/SGPR pair (and EXEC)."""
    fn = semantic.fn
    is_vop3 = inst.encoding == "VOP3"
    src_mods = lane_ops.source_modifiers(inst) if inst.encoding in ("DPP", "SDWA") else None
    fetch = source_getters(inst, semantic, program, src_mods)
    dst_code = compare_destination(inst)
    exec_write = semantic.flags["exec_write"]

    def run(ctx):
        state, sel = ctx.state, ctx.sel
        args = [ops.typed(get(state, sel), type_) for get, type_ in fetch]
        lanes = ctx.exec_lanes() if src_mods is None else src_mods.lanes(ctx, ctx.exec_lanes())
        result = np.broadcast_to(fn(*args), (ctx.n, 64)) & lanes
        lo, hi = lanes_to_mask(result)
        if exec_write:
            state.sgpr[EXEC_LO, sel] = lo
            state.sgpr[EXEC_HI, sel] = hi
            ctx.exec_changed()
        if dst_code not in (EXEC_LO,) or not exec_write:
            state.sgpr[dst_code, sel] = lo
            state.sgpr[dst_code + 1, sel] = hi
        return None
    return run


# ----------------------------------------------------------------------- raw
def build_raw(inst, semantic, program):
    fn = semantic.fn
    return fn


def build_builder(inst, semantic, program):
    return semantic.fn(inst, program)


BUILDERS = {"salu": build_salu, "valu": build_valu, "vcmp": build_vcmp,
            "raw": build_raw, "builder": build_builder}

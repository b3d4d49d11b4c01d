"""Semantics of the vector memory instructions: FLAT, GLOBAL, SCRATCH, MUBUF, MTBUF.

Each instruction is reduced to an *address plan* (which lanes reach which
memory at which addresses, which chunks are in range) and one of three
actions shared by every family: load, store, atomic.

- FLAT: a 64-bit VGPR address per lane; the apertures send a lane to LDS,
  to its private segment (through FLAT_SCRATCH) or to global memory.
- GLOBAL (GFX9): a 64-bit VGPR address, or SGPR pair base + 32-bit VGPR offset.
- SCRATCH (GFX9): a private byte offset from a VGPR or an SGPR.
- MUBUF/MTBUF: a V# plus index/offset VGPRs, soffset and the immediate offset,
  range-checked as the hardware does.
Private memory is lane-interleaved (dword elements, 64 lanes), so private
accesses move one dword chunk at a time.
"""

from __future__ import annotations

import numpy as np

from .addressing import (SEGMENT_GLOBAL, SEGMENT_LDS, SEGMENT_PRIVATE, buffer_addresses,
                         classify_flat, decode_buffer_resource, flat_scratch_wave_base,
                         swizzled_private_address)
from .launch import PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE
from .memory_ops import (Piece, atomic_pieces, bytes_to_words, join64, load_pieces,
                         split64, store_pieces, words_to_bytes)
from .memory_ops_ds import lds_piece
from .operands import scalar_getter
from .registry import SEMANTICS, builder, unsupported
from .setup import dispatch_layout, flat_scratch_code

_U32 = np.uint32
_U64 = np.uint64
_OFF = 0x7F                       # GFX9 saddr value meaning "no SGPR address"
_MASK32 = _U64(0xFFFFFFFF)

#: Load/store size suffixes -> (bytes, signed)
LOAD_SIZES = {"ubyte": (1, False), "sbyte": (1, True), "ushort": (2, False),
              "sshort": (2, True), "dword": (4, False), "dwordx2": (8, False),
              "dwordx3": (12, False), "dwordx4": (16, False)}
STORE_SIZES = {"byte": 1, "short": 2, "dword": 4, "dwordx2": 8, "dwordx3": 12, "dwordx4": 16}
#: GFX9 d16 loads: suffix -> (bytes, signed, half)
D16_LOADS = {"ubyte_d16": (1, False, "lo"), "ubyte_d16_hi": (1, False, "hi"),
             "sbyte_d16": (1, True, "lo"), "sbyte_d16_hi": (1, True, "hi"),
             "short_d16": (2, False, "lo"), "short_d16_hi": (2, False, "hi")}
D16_STORES = {"byte_d16_hi": 1, "short_d16_hi": 2}
#: Vector atomic stem -> ATOMIC_OPS name
ATOMIC_STEMS = {"swap": "swap", "cmpswap": "cmpswap", "add": "add", "sub": "sub",
                "smin": "smin", "umin": "umin", "smax": "smax", "umax": "umax",
                "and": "and", "or": "or", "xor": "xor", "inc": "inc", "dec": "dec",
                "fcmpswap": "fcmpswap", "fmin": "fmin", "fmax": "fmax", "add_f32": "fadd",
                "pk_add_f16": "pk_fadd16"}
#: Atomics without a 64-bit (_x2) form.
NO_X2 = frozenset({"add_f32", "pk_add_f16"})


# ------------------------------------------------------------------ context
def _layout_values(state):
    """Apertures, generation-specific scratch base and hidden base of the dispatch."""
    layout = dispatch_layout(state)
    if layout is not None:
        return (layout.shared_aperture_base, layout.private_aperture_base,
                layout.hidden_private_base)
    request = state.request
    return (getattr(request, "shared_aperture_base", SHARED_APERTURE_BASE),
            getattr(request, "private_aperture_base", PRIVATE_APERTURE_BASE), 0)


def _scratch_wave_base(ctx, generation):
    _, _, hidden = _layout_values(ctx.state)
    flat_scratch = ctx.state.read_sgpr64(ctx.sel, flat_scratch_code(generation))
    return flat_scratch_wave_base(flat_scratch, generation, hidden)


def _chunking(nbytes):
    """Private accesses move dword elements one at a time."""
    return (1, nbytes) if nbytes <= 4 else (nbytes // 4, 4)


def _global_piece(memory, addresses, lanes, nbytes):
    if lanes.all():                     # the common case: a view, no selection copy
        selected = addresses.reshape(-1)
        return Piece(memory, lanes, selected[:, None], _all_valid(selected.size), nbytes)
    selected = addresses[lanes]
    return Piece(memory, lanes, selected[:, None], np.ones((selected.size, 1), bool), nbytes)


def _private_piece(ctx, generation, offsets, lanes, nbytes):
    """Lanes' private byte ``offsets`` -> swizzled backing addresses, chunk by chunk."""
    chunks, chunk_bytes = _chunking(nbytes)
    wave_base = _scratch_wave_base(ctx, generation)
    offsets = offsets[:, :, None] + np.arange(chunks, dtype=_U64) * _U64(chunk_bytes)
    physical = swizzled_private_address(wave_base, offsets)
    return Piece(ctx.state.memory, lanes, physical[lanes],
                 np.ones((int(lanes.sum()), chunks), bool), chunk_bytes)


def flat_pieces(ctx, generation, addresses, lanes, nbytes):
    """Split the lanes of a FLAT access by aperture into LDS/private/global pieces."""
    shared, private, _ = _layout_values(ctx.state)
    segment = classify_flat(addresses, shared, private)
    if not (segment != SEGMENT_GLOBAL).any():
        return [_global_piece(ctx.state.memory, addresses, lanes, nbytes)]
    pieces = []
    global_lanes = lanes & (segment == SEGMENT_GLOBAL)
    if global_lanes.any():
        pieces.append(_global_piece(ctx.state.memory, addresses, global_lanes, nbytes))
    lds_lanes = lanes & (segment == SEGMENT_LDS)
    if lds_lanes.any():
        pieces.append(lds_piece(ctx, 9, addresses & _MASK32, nbytes, lds_lanes))
    private_lanes = lanes & (segment == SEGMENT_PRIVATE)
    if private_lanes.any():
        pieces.append(_private_piece(ctx, generation, addresses & _MASK32, private_lanes,
                                     nbytes))
    return pieces


# ------------------------------------------------------------ address plans
def _all_valid(count):
    """(count, 1) all-True validity flags, as a broadcast view (never written)."""
    return np.broadcast_to(np.ones((1, 1), bool), (count, 1))


def _vgpr64(state, sel, reg):
    """The 64-bit value in VGPRs reg, reg+1: the two halves interleaved in one pass."""
    low = state.vgpr[reg, sel]
    out = np.empty(low.shape, _U64)
    halves = out.view(_U32).reshape(low.shape + (2,))
    halves[..., 0] = low
    halves[..., 1] = state.vgpr[reg + 1, sel]
    return out


def _sign_extend(value, bits):
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _flat_plan(inst, program):
    """FLAT: 64-bit VGPR address (+ unsigned 12-bit offset on GFX9) through the apertures."""
    generation = program.generation
    reg = int(inst.fields["addr"])
    offset = _U64(int(inst.fields.get("offset", 0)) & 0xFFF) if generation >= 9 else _U64(0)

    def plan(ctx, nbytes, whole):
        lanes = ctx.exec_lanes()
        addresses = _vgpr64(ctx.state, ctx.sel, reg) + offset
        return flat_pieces(ctx, generation, addresses, lanes, nbytes)
    return plan


def _global_plan(inst, program):
    """GLOBAL: VGPR pair + signed 13-bit offset, or SGPR pair + VGPR dword + offset."""
    reg = int(inst.fields["addr"])
    saddr = int(inst.fields.get("saddr", _OFF))
    offset = _sign_extend(int(inst.fields.get("offset", 0)), 13)

    def plan(ctx, nbytes, whole):
        lanes = ctx.exec_lanes()
        state = ctx.state
        if saddr == _OFF:
            addresses = _vgpr64(state, ctx.sel, reg)
        else:
            base = state.read_sgpr64(ctx.sel, saddr)
            addresses = base[:, None] + state.vgpr[reg, ctx.sel].astype(_U64)
        if offset:
            addresses += _U64(offset & 0xFFFF_FFFF_FFFF_FFFF)
        return [_global_piece(state.memory, addresses, lanes, nbytes)]
    return plan


def _scratch_plan(inst, program):
    """SCRATCH: private offset = VGPR (or SGPR) + signed 13-bit offset."""
    generation = program.generation
    reg = int(inst.fields.get("addr", 0))
    saddr = int(inst.fields.get("saddr", _OFF))
    offset = _sign_extend(int(inst.fields.get("offset", 0)), 13)
    sgpr = scalar_getter(saddr, "u32") if saddr != _OFF else None

    def plan(ctx, nbytes, whole):
        lanes = ctx.exec_lanes()
        if sgpr is None:
            base = ctx.state.vgpr[reg, ctx.sel].astype(_U64)
        else:
            value = np.asarray(sgpr(ctx.state, ctx.sel), _U64).reshape(-1, 1)
            base = np.broadcast_to(value, lanes.shape)
        offsets = (base + _U64(offset & 0xFFFF_FFFF_FFFF_FFFF)) & _MASK32
        return [_private_piece(ctx, generation, offsets, lanes, nbytes)]
    return plan


def _buffer_plan(inst, program):
    """MUBUF/MTBUF: V# + vaddr index/offset (or addr64) + soffset + offset."""
    fields = inst.fields
    generation = program.generation
    rsrc_code = int(fields["srsrc"]) * 4
    vaddr = int(fields.get("vaddr", 0))
    idxen, offen = int(fields.get("idxen", 0)), int(fields.get("offen", 0))
    addr64 = int(fields.get("addr64", 0))
    soffset = scalar_getter(int(fields.get("soffset", 128)), "u32")
    inst_offset = int(fields.get("offset", 0)) & 0xFFF
    structured = bool(idxen) if generation >= 9 else None

    def plan(ctx, nbytes, whole):
        state, sel = ctx.state, ctx.sel
        lanes = ctx.exec_lanes()
        rsrc = decode_buffer_resource(state.read_sgpr(sel, rsrc_code, 4), generation)
        index = state.vgpr[vaddr, sel] if idxen else None
        offset = state.vgpr[vaddr + idxen, sel] if offen else None
        wide = _vgpr64(state, sel, vaddr) if addr64 else None
        chunks, chunk_bytes = (1, nbytes) if whole or nbytes <= 4 else (nbytes // 4, 4)
        sgpr_offset = np.broadcast_to(np.asarray(soffset(state, sel), _U64), (ctx.n,))
        access = buffer_addresses(rsrc, index=index, offset=offset, soffset=sgpr_offset,
                                  inst_offset=inst_offset, components=chunks,
                                  component_bytes=chunk_bytes, whole_access=whole,
                                  addr64=wide, structured=structured)
        return [Piece(state.memory, lanes, access.addresses[lanes], access.in_range[lanes],
                      chunk_bytes)]
    return plan


# ------------------------------------------------------------------ actions
def _read_vgprs(state, sel, first, count):
    return np.stack([state.vgpr[first + i, sel] for i in range(count)], axis=-1)


def _write_vgprs(ctx, first, words):
    lanes = ctx.write_lanes()
    for i in range(words.shape[-1]):
        ctx.state.write_vgpr(ctx.sel, first + i, words[..., i], lanes)


def _load_action(plan, dst, nbytes, signed, d16=None, tfe=False):
    def run(ctx):
        lanes = ctx.exec_lanes()
        raw = load_pieces(ctx, plan(ctx, nbytes, False), lanes.shape, nbytes)
        words = bytes_to_words(raw, signed=signed)
        if d16 is not None:
            current = ctx.state.vgpr[dst, ctx.sel]
            low = words[..., 0] & _U32(0xFFFF)
            words = ((current & _U32(0xFFFF0000)) | low if d16 == "lo"
                     else (current & _U32(0xFFFF)) | (low << _U32(16)))[..., None]
        if tfe:
            words = np.concatenate([words, np.zeros(words.shape[:-1] + (1,), _U32)], axis=-1)
        _write_vgprs(ctx, dst, words)
    return run


def _store_action(plan, src, nbytes, high_half=False):
    dwords = max(1, nbytes // 4)

    def run(ctx):
        words = _read_vgprs(ctx.state, ctx.sel, src, dwords)
        if high_half:
            words = words >> _U32(16)
        store_pieces(ctx, plan(ctx, nbytes, False), words_to_bytes(words, nbytes))
    return run


def _atomic_action(plan, data_reg, dst, op, width, returns):
    two = op in ("cmpswap", "fcmpswap")
    step = width // 4

    def run(ctx):
        state, lanes = ctx.state, ctx.exec_lanes()
        count = step * (2 if two else 1)
        words = _read_vgprs(state, ctx.sel, data_reg, count)
        if width == 4:
            data = words[..., 0]
            data2 = words[..., 1] if two else None
        else:
            data = join64(words[..., 0:2])
            data2 = join64(words[..., 2:4]) if two else None
        old = atomic_pieces(ctx, plan(ctx, width, True), lanes.shape, op, width, data, data2)
        if returns:
            _write_vgprs(ctx, dst, old[..., None] if width == 4 else split64(old))
    return run


# ------------------------------------------------------------ format access
#: BUF_DATA_FORMAT -> (channels, bits per channel); packed formats are absent.
DATA_FORMATS = {1: (1, 8), 2: (1, 16), 3: (2, 8), 4: (1, 32), 5: (2, 16), 10: (4, 8),
                11: (2, 32), 12: (4, 16), 13: (3, 32), 14: (4, 32)}
NUM_FORMATS = {0: "unorm", 1: "snorm", 2: "uscaled", 3: "sscaled", 4: "uint", 5: "sint",
               6: "snorm_ogl", 7: "float"}


def _decode_channels(raw, bits, num_format):
    """Channel bytes -> 32-bit register values for a numeric format."""
    kind = {8: (np.uint8, np.int8), 16: (np.uint16, np.int16, np.float16),
            32: (np.uint32, np.int32, np.float32)}[bits]
    unsigned, signed = kind[0], kind[1]
    values = np.ascontiguousarray(raw)
    if num_format == "float":
        return values.view(kind[2]).astype(np.float32).view(_U32)
    if num_format in ("uint", "sint"):
        view = values.view(signed if num_format == "sint" else unsigned)
        return view.astype(np.int64).astype(_U32)
    top = float((1 << bits) - 1)
    if num_format == "unorm":
        return (values.view(unsigned).astype(np.float64) / top).astype(np.float32).view(_U32)
    if num_format == "snorm":
        half = float((1 << (bits - 1)) - 1)
        scaled = np.maximum(values.view(signed).astype(np.float64) / half, -1.0)
        return scaled.astype(np.float32).view(_U32)
    if num_format == "snorm_ogl":        # the whole signed range maps onto [-1, 1]
        scaled = (2.0 * values.view(signed).astype(np.float64) + 1.0) / top
        return scaled.astype(np.float32).view(_U32)
    view = values.view(signed if num_format == "sscaled" else unsigned)
    return view.astype(np.float32).view(_U32)


def _encode_channels(words, bits, num_format):
    """32-bit register values -> channel bytes for a numeric format."""
    words = np.ascontiguousarray(words, _U32)
    if num_format == "float":
        out = words.view(np.float32).astype({16: np.float16, 32: np.float32}[bits])
    elif num_format in ("uint", "sint"):
        out = words.astype({8: np.uint8, 16: np.uint16, 32: np.uint32}[bits])
    else:
        floats = words.view(np.float32).astype(np.float64)
        top = float((1 << bits) - 1) if num_format == "unorm" else \
            float((1 << (bits - 1)) - 1) if num_format == "snorm" else 1.0
        low, high = {"unorm": (0, 1), "snorm": (-1, 1)}.get(num_format, (-np.inf, np.inf))
        with np.errstate(invalid="ignore"):
            values = np.rint(np.clip(floats, low, high) * top)
        kind = {8: np.int8, 16: np.int16, 32: np.int32}[bits] if num_format in (
            "snorm", "sscaled") else {8: np.uint8, 16: np.uint16, 32: np.uint32}[bits]
        out = np.nan_to_num(values).astype(np.int64).astype(kind)
    return out.view(np.uint8).reshape(words.shape[:-1] + (-1,))


def _format_of(inst, program, ctx):
    """(data format, num format) of a typed access: MTBUF's fields, else the V#'s."""
    if "dfmt" in inst.fields:
        return int(inst.fields["dfmt"]), int(inst.fields.get("nfmt", 0))
    rsrc = decode_buffer_resource(ctx.state.read_sgpr(ctx.sel, int(inst.fields["srsrc"]) * 4, 4),
                                  program.generation)
    return int(rsrc.data_format[0]), int(rsrc.num_format[0])


#: Numeric formats the hardware can only read.
READ_ONLY_NUM_FORMATS = frozenset({"uscaled", "sscaled", "snorm_ogl"})


def _format_layout(ctx, inst, program, store=False):
    """(channels, bits per channel, numeric format) of a typed access, or a fault."""
    dfmt, nfmt = _format_of(inst, program, ctx)
    name = NUM_FORMATS.get(nfmt)
    channels, bits = DATA_FORMATS.get(dfmt, (0, 0))
    if not channels or name is None or (name == "float" and bits == 8) or \
            (store and name in READ_ONLY_NUM_FORMATS):
        raise ctx.fault(f"buffer data format {dfmt} / numeric format {nfmt} is not "
                        f"supported for {'stores' if store else 'loads'}")
    return channels, bits, name


def _format_load(plan, inst, program, dst, count):
    """Typed load: convert the format's channels, then route them by the V#'s DST_SEL."""
    rsrc_code = int(inst.fields["srsrc"]) * 4

    def run(ctx):
        lanes = ctx.exec_lanes()
        channels, bits, nfmt = _format_layout(ctx, inst, program)
        nbytes = channels * bits // 8
        pieces = plan(ctx, nbytes, True)
        raw = load_pieces(ctx, pieces, lanes.shape, nbytes)
        values = _decode_channels(raw, bits, nfmt).reshape(lanes.shape + (channels,))
        one = np.float32(1.0).view(_U32) if nfmt not in ("uint", "sint") else _U32(1)
        rgba = np.zeros(lanes.shape + (4,), _U32)
        rgba[..., 3] = one
        rgba[..., :channels] = values
        in_range = np.zeros(lanes.shape, bool)
        for piece in pieces:
            in_range[piece.lanes] = piece.valid.all(axis=1)
        dst_sel = decode_buffer_resource(ctx.state.read_sgpr(ctx.sel, rsrc_code, 4),
                                         program.generation).dst_sel
        _write_vgprs(ctx, dst, apply_dst_sel(rgba, dst_sel, one, in_range)[..., :count])
    return run


def apply_dst_sel(rgba, dst_sel, one, in_range):
    """Route channels by DST_SEL (0: 0, 1: 1, 4-7: X/Y/Z/W); out-of-range lanes read 0
    except for components selecting the constant 1, as the manuals specify."""
    choices = np.zeros(rgba.shape[:-1] + (8,), _U32)
    choices[..., 1] = one
    choices[..., 4:8] = rgba
    select = np.broadcast_to(dst_sel.astype(np.int64)[:, None, :], rgba.shape)
    routed = np.take_along_axis(choices, select, axis=-1)
    outside = np.where(select == 1, one, _U32(0)).astype(_U32)
    return np.where(in_range[..., None], routed, outside)


def _format_store(plan, inst, program, src, count):
    def run(ctx):
        channels, bits, nfmt = _format_layout(ctx, inst, program, store=True)
        used = min(channels, count)
        words = np.zeros(ctx.exec_lanes().shape + (channels,), _U32)
        words[..., :used] = _read_vgprs(ctx.state, ctx.sel, src, used)
        data = _encode_channels(words, bits, nfmt)
        store_pieces(ctx, plan(ctx, channels * bits // 8, True), data)
    return run


# ------------------------------------------------------------ registration
PLANS = {"flat": _flat_plan, "global": _global_plan, "scratch": _scratch_plan,
         "buffer": _buffer_plan}


def _operands(family, inst):
    """(data source VGPR, load/return destination VGPR) of the family's encoding."""
    fields = inst.fields
    if family == "buffer":
        return int(fields["vdata"]), int(fields["vdata"])
    return int(fields.get("data", 0)), int(fields.get("vdst", 0))


def _memory_builder(family, make):
    """A registry builder: binds the address plan and operand registers once."""
    def build(inst, program):
        if int(inst.fields.get("lds", 0)):
            def reject(ctx):
                raise ctx.fault("loads into LDS (the lds bit) are not supported")
            return reject
        plan = PLANS[family](inst, program)
        src, dst = _operands(family, inst)
        return make(inst, program, plan, src, dst)
    return build


def _register_family(family, atomics):
    prefix = family + "_"
    for suffix, (nbytes, signed) in LOAD_SIZES.items():
        builder(f"{prefix}load_{suffix}")(_memory_builder(family, lambda i, p, plan, s, d,
                                          n=nbytes, g=signed: _load_action(
                                              plan, d, n, g, tfe=bool(i.fields.get("tfe")))))
    for suffix, (nbytes, signed, half) in D16_LOADS.items():
        builder(f"{prefix}load_{suffix}")(_memory_builder(family, lambda i, p, plan, s, d,
                                          n=nbytes, g=signed, h=half: _load_action(
                                              plan, d, n, g, d16=h)))
    for suffix, nbytes in STORE_SIZES.items():
        builder(f"{prefix}store_{suffix}")(_memory_builder(
            family, lambda i, p, plan, s, d, n=nbytes: _store_action(plan, s, n)))
    for suffix, nbytes in D16_STORES.items():
        builder(f"{prefix}store_{suffix}")(_memory_builder(
            family, lambda i, p, plan, s, d, n=nbytes: _store_action(plan, s, n, True)))
    if not atomics:
        return
    for stem, op in ATOMIC_STEMS.items():
        for wide in (False, True) if stem not in NO_X2 else (False,):
            name = f"{prefix}atomic_{stem}{'_x2' if wide else ''}"
            builder(name)(_memory_builder(family, lambda i, p, plan, s, d, o=op, w=wide:
                                          _atomic_action(plan, s, d, o, 8 if w else 4,
                                                         bool(i.fields.get("glc")))))


def _register_formats():
    for count, suffix in enumerate(("x", "xy", "xyz", "xyzw"), start=1):
        for prefix in ("buffer", "tbuffer"):
            builder(f"{prefix}_load_format_{suffix}")(_memory_builder(
                "buffer", lambda i, p, plan, s, d, c=count: _format_load(plan, i, p, d, c)))
            builder(f"{prefix}_store_format_{suffix}")(_memory_builder(
                "buffer", lambda i, p, plan, s, d, c=count: _format_store(plan, i, p, s, c)))
            for d16 in ("d16", "d16_hi"):
                unsupported(f"{prefix}_load_format_{d16}_{suffix}",
                            "d16 format loads are not modelled")
                unsupported(f"{prefix}_store_format_{d16}_{suffix}",
                            "d16 format stores are not modelled")


def _build_nop(inst, program):
    def run(ctx):
        return None
    return run


def _register_all():
    _register_family("flat", atomics=True)
    _register_family("global", atomics=True)
    _register_family("scratch", atomics=False)
    _register_family("buffer", atomics=True)
    _register_formats()
    unsupported("buffer_store_lds_dword", "stores from LDS (the lds bit) are not modelled")
    for name in ("buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_wbinvl1_sc",
                 "buffer_gl0_inv", "buffer_gl1_inv"):
        if name not in SEMANTICS:
            builder(name)(_build_nop)


_register_all()

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

Typed (*_format_*) accesses convert through ``buffer_formats``; their d16
forms hold one 16-bit value per VGPR on GFX8.0 and two on later targets.
Loads with the lds bit send their dword to a per-lane LDS slot addressed by
M0, and buffer_store_lds_dword moves such slots to memory.

Every mnemonic is registered on one line at the end of this module, stating
only what its table row does not (lds form, a d16 format's component count):
the address family, data widths, sub-dword element (bytes, sign) and d16 half
are read from the row.
"""

from __future__ import annotations

import numpy as np

from ..addressing import (SEGMENT_GLOBAL, SEGMENT_LDS, SEGMENT_PRIVATE, buffer_addresses,
                         classify_flat, decode_buffer_resource, flat_scratch_wave_base,
                         swizzled_private_address)
from ..launch import PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE
from . import buffer_formats
from .memory import (TWO_OPERAND_ATOMICS, Piece, atomic_pieces, bytes_to_words, join64,
                     lds_memory, load_pieces, split64, store_pieces, table_facts, words_to_bytes)
from .ds import lds_piece
from ..core.operands import scalar_getter
from ..core.registry import builder
from ..setup import dispatch_layout, flat_scratch_code

_U32 = np.uint32
_U64 = np.uint64
_OFF = 0x7F                       # GFX9 saddr value meaning "no SGPR address"
_MASK32 = _U64(0xFFFFFFFF)

# ------------------------------------------------------------------ context
def layout_values(state):
    """Apertures, generation-specific scratch base and hidden base of the dispatch."""
    layout = dispatch_layout(state)
    if layout is not None:
        return (layout.shared_aperture_base, layout.private_aperture_base,
                layout.hidden_private_base)
    request = state.request
    return (getattr(request, "shared_aperture_base", SHARED_APERTURE_BASE),
            getattr(request, "private_aperture_base", PRIVATE_APERTURE_BASE), 0)


def _scratch_wave_base(ctx, generation):
    _, _, hidden = layout_values(ctx.state)
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
    shared, private, _ = layout_values(ctx.state)
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


def address_offset(family, inst, generation) -> int:
    """The byte offset a FLAT or GLOBAL instruction adds to its address, as a
    64-bit two's complement: FLAT's unsigned 12 bits on GFX9 (none before),
    GLOBAL's signed 13 bits."""
    if family == "flat":
        return int(inst.fields.get("offset", 0)) & 0xFFF if generation >= 9 else 0
    return _sign_extend(int(inst.fields.get("offset", 0)), 13) & 0xFFFF_FFFF_FFFF_FFFF


def _flat_plan(inst, program):
    """FLAT: 64-bit VGPR address (+ unsigned 12-bit offset on GFX9) through the apertures."""
    generation = program.generation
    reg = int(inst.fields["addr"])
    offset = _U64(address_offset("flat", inst, generation))

    def plan(ctx, nbytes, whole):
        lanes = ctx.exec_lanes()
        addresses = _vgpr64(ctx.state, ctx.sel, reg) + offset
        return flat_pieces(ctx, generation, addresses, lanes, nbytes)
    return plan


def _global_plan(inst, program):
    """GLOBAL: VGPR pair + signed 13-bit offset, or SGPR pair + VGPR dword + offset."""
    reg = int(inst.fields["addr"])
    saddr = int(inst.fields.get("saddr", _OFF))
    offset = address_offset("global", inst, program.generation)

    def plan(ctx, nbytes, whole):
        lanes = ctx.exec_lanes()
        state = ctx.state
        if saddr == _OFF:
            addresses = _vgpr64(state, ctx.sel, reg)
        else:
            base = state.read_sgpr64(ctx.sel, saddr)
            addresses = base[:, None] + state.vgpr[reg, ctx.sel].astype(_U64)
        if offset:
            addresses += _U64(offset)
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

    def plan(ctx, nbytes, whole):
        state, sel = ctx.state, ctx.sel
        lanes = ctx.exec_lanes()
        rsrc = decode_buffer_resource(state.read_sgpr(sel, rsrc_code, 4), generation)
        index = state.vgpr[vaddr, sel] if idxen else None
        offset = state.vgpr[vaddr + idxen, sel] if offen else None
        wide = _vgpr64(state, sel, vaddr) if addr64 else None
        chunks, chunk_bytes = _buffer_chunking(nbytes, whole, rsrc)
        sgpr_offset = np.broadcast_to(np.asarray(soffset(state, sel), _U64), (ctx.n,))
        access = buffer_addresses(rsrc, index=index, offset=offset, soffset=sgpr_offset,
                                  inst_offset=inst_offset, components=chunks,
                                  component_bytes=chunk_bytes, whole_access=whole,
                                  addr64=wide, generation=generation)
        return [Piece(state.memory, lanes, access.addresses[lanes], access.in_range[lanes],
                      chunk_bytes)]
    return plan


def _buffer_chunking(nbytes, whole, rsrc):
    """(chunks, bytes per chunk) of a buffer access.  Plain accesses move dwords
    (each range-checked alone); a whole access (typed, atomic) moves one piece,
    except through a swizzled V#, whose consecutive dwords are not adjacent."""
    if nbytes <= 4 or (whole and not rsrc.swizzle_enable.any()):
        return 1, nbytes
    return nbytes // 4, 4


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
def _format_of(inst, program, ctx):
    """(data format, num format) of a typed access: MTBUF's fields, else the V#'s."""
    if "dfmt" in inst.fields:
        return int(inst.fields["dfmt"]), int(inst.fields.get("nfmt", 0))
    rsrc = decode_buffer_resource(ctx.state.read_sgpr(ctx.sel, int(inst.fields["srsrc"]) * 4, 4),
                                  program.generation)
    return int(rsrc.data_format[0]), int(rsrc.num_format[0])


def _format_layout(ctx, inst, program, store=False):
    """(DataFormat, numeric format name) of a typed access, or a fault."""
    dfmt, nfmt = _format_of(inst, program, ctx)
    found = buffer_formats.layout(dfmt, nfmt, store)
    if found is None:
        raise ctx.fault(f"buffer data format {dfmt} / numeric format {nfmt} is not "
                        f"supported for {'stores' if store else 'loads'}")
    return found


def _format_values(ctx, plan, inst, program):
    """Typed load: the four routed components (n, 64, 4) and the numeric format.

    Channels are converted, missing ones read 0 (W reads 1), then the V#'s
    DST_SEL routes them; lanes out of range read 0 except for components
    selecting the constant 1, as the manuals specify.
    """
    lanes = ctx.exec_lanes()
    fmt, nfmt = _format_layout(ctx, inst, program)
    pieces = plan(ctx, fmt.nbytes, True)
    raw = load_pieces(ctx, pieces, lanes.shape, fmt.nbytes)
    codes = buffer_formats.unpack(raw, fmt)
    values = buffer_formats.to_registers(codes, fmt, nfmt)
    integer = nfmt in buffer_formats.INTEGER_NUM_FORMATS
    one = _U32(1) if integer else np.float32(1.0).view(_U32)
    rgba = np.zeros(lanes.shape + (4,), _U32)
    rgba[..., 3] = one
    rgba[..., :fmt.channels] = values
    in_range = np.zeros(lanes.shape, bool)
    for piece in pieces:
        in_range[piece.lanes] = piece.valid.all(axis=1)
    rsrc_code = int(inst.fields["srsrc"]) * 4
    dst_sel = decode_buffer_resource(ctx.state.read_sgpr(ctx.sel, rsrc_code, 4),
                                     program.generation).dst_sel
    return apply_dst_sel(rgba, dst_sel, one, in_range), nfmt


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


def _write_tfe_status(ctx, inst, reg):
    """With the tfe bit the VGPR after the data receives the fetch status: 0,
    since the executor's accesses do not fail partially (faults stop the kernel)."""
    if int(inst.fields.get("tfe", 0)):
        _write_vgprs(ctx, reg, np.zeros(ctx.exec_lanes().shape + (1,), _U32))


def _format_load(plan, inst, program, dst, count):
    def run(ctx):
        values, _ = _format_values(ctx, plan, inst, program)
        _write_vgprs(ctx, dst, values[..., :count])
        _write_tfe_status(ctx, inst, dst + count)
    return run


def _store_format_words(ctx, fmt, nfmt, words, count, plan):
    """Encode ``count`` components ((n, 64, count) register values) and store them;
    channels the instruction does not supply store as 0."""
    used = min(fmt.channels, count)
    full = np.zeros(ctx.exec_lanes().shape + (fmt.channels,), _U32)
    full[..., :used] = words[..., :used]
    codes = buffer_formats.from_registers(full, fmt, nfmt)
    store_pieces(ctx, plan(ctx, fmt.nbytes, True), buffer_formats.pack(codes, fmt))


def _format_store(plan, inst, program, src, count):
    def run(ctx):
        fmt, nfmt = _format_layout(ctx, inst, program, store=True)
        words = _read_vgprs(ctx.state, ctx.sel, src, min(fmt.channels, count))
        _store_format_words(ctx, fmt, nfmt, words, count, plan)
    return run


# ------------------------------------------------------------ d16 formats
def d16_unpacked(target) -> bool:
    """GFX8.0 keeps one 16-bit value per VGPR (LLVM's unpacked-d16-vmem); GFX8.1
    and GFX9 pack two.  Read from the ISA table: how many VGPRs llvm-mc gives
    buffer_load_format_d16_xyzw on this target."""
    from ...isa.families import buffer as buffer_family
    info = buffer_family.lookup("buffer_load_format_d16_xyzw", target)
    return info is not None and info.operands[0].width == 4


def _d16_layout(program, half):
    """How 16-bit components sit in VGPRs: (one per VGPR?, first one in a high half?).
    The d16_hi forms exist on GFX9 only, which packs."""
    if half == "hi":
        return False, True
    return d16_unpacked(program.target), False


def _d16_load(plan, inst, program, dst, count, half):
    """d16 typed load: components narrowed to 16 bits; packed targets put two in
    each VGPR (X low) and keep the half they do not write."""
    unpacked, high = _d16_layout(program, half)
    regs = count if unpacked else (count + 1) // 2

    def run(ctx):
        values, nfmt = _format_values(ctx, plan, inst, program)
        halves = buffer_formats.narrow16(values[..., :count], nfmt)
        if unpacked:
            _write_vgprs(ctx, dst, halves)
        else:
            current = _read_vgprs(ctx.state, ctx.sel, dst, regs)
            _write_vgprs(ctx, dst, _pack_halves(halves, current, high))
        _write_tfe_status(ctx, inst, dst + regs)
    return run


def _pack_halves(halves, current, high):
    """16-bit values -> VGPR words, two per word; unwritten halves keep ``current``."""
    words = current.copy()
    for index in range(halves.shape[-1]):
        reg, upper = divmod(index + high, 2)
        if upper:
            words[..., reg] = (words[..., reg] & _U32(0xFFFF)) | (halves[..., index] << _U32(16))
        else:
            words[..., reg] = (words[..., reg] & _U32(0xFFFF0000)) | halves[..., index]
    return words


def _unpack_halves(words, count, high):
    """VGPR words -> ``count`` 16-bit values, two per word (the inverse of _pack_halves)."""
    halves = []
    for index in range(count):
        reg, upper = divmod(index + high, 2)
        halves.append((words[..., reg] >> _U32(16 * upper)) & _U32(0xFFFF))
    return np.stack(halves, axis=-1)


def _d16_store(plan, inst, program, src, count, half):
    """d16 typed store: 16-bit components widened, then encoded like a full store."""
    unpacked, high = _d16_layout(program, half)
    regs = count if unpacked else (count + high + 1) // 2

    def run(ctx):
        fmt, nfmt = _format_layout(ctx, inst, program, store=True)
        words = _read_vgprs(ctx.state, ctx.sel, src, regs)
        halves = words & _U32(0xFFFF) if unpacked else _unpack_halves(words, count, high)
        _store_format_words(ctx, fmt, nfmt, buffer_formats.widen16(halves, nfmt), count, plan)
    return run


# ------------------------------------------------------------ LDS transfers
_M0 = 124
_LANE_BYTES = np.arange(64, dtype=_U64) * _U64(4)      # lane * 4: each lane's LDS slot


def _lds_inst_offset(family, inst):
    """The instruction offset, which the LDS address adds too."""
    if family == "buffer":
        return int(inst.fields.get("offset", 0)) & 0xFFF
    return _sign_extend(int(inst.fields.get("offset", 0)), 13)


def _lds_lane_piece(ctx, inst_offset):
    """A Piece for each active lane's LDS dword of an LDS-bit transfer.

    The manuals' rule: LDS_ADDR = LDS base + M0[15:0] + inst_offset +
    lane * 4 (one dword slot per lane whatever the access size).  A slot
    past the work-group's LDS allocation is not touched.
    """
    state = ctx.state
    lanes = ctx.exec_lanes()
    size = state.lds.shape[1]
    m0 = (state.sgpr[_M0, ctx.sel] & _U32(0xFFFF)).astype(_U64)
    offset = _U64(inst_offset & 0xFFFF_FFFF_FFFF_FFFF)
    addresses = (m0[:, None] + offset + _LANE_BYTES) & _MASK32
    valid = addresses + _U64(4) <= _U64(size)
    linear = state.wave_group[ctx.sel].astype(_U64)[:, None] * _U64(size) + addresses
    return Piece(lds_memory(state), lanes, linear[lanes][:, None], valid[lanes][:, None], 4)


def _lds_load(values_of, inst_offset):
    """A load with the lds bit: the data go to the lane's LDS dword slot instead
    of VGPRs; sub-dword values are zero-extended to the dword (CLRX's GCN
    memory notes: "stored 4-byte value will be zero-extended"), signed or not."""
    def run(ctx):
        words = values_of(ctx)
        store_pieces(ctx, [_lds_lane_piece(ctx, inst_offset)], words_to_bytes(words[..., None], 4))
    return run


def _loaded_words(plan, nbytes, signed):
    """fn(ctx) -> (n, 64) uint32: the loaded value, extended to a dword."""
    def values(ctx):
        raw = load_pieces(ctx, plan(ctx, nbytes, False), ctx.exec_lanes().shape, nbytes)
        return bytes_to_words(raw, signed=signed)[..., 0]
    return values


def _store_from_lds(inst, program, plan):
    """buffer_store_lds_dword: each active lane stores its LDS dword (the slot the
    lds-bit loads fill) to its buffer address; no VGPR takes part."""
    inst_offset = _lds_inst_offset("buffer", inst)

    def run(ctx):
        piece = _lds_lane_piece(ctx, inst_offset)
        data = load_pieces(ctx, [piece], ctx.exec_lanes().shape, 4)
        store_pieces(ctx, plan(ctx, 4, False), data)
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


def _reject_lds(name):
    def reject(ctx):
        raise ctx.fault(f"{name} has no form that moves data to or from LDS (the lds bit)")
    return reject


def _memory_builder(family, make, lds_values=None):
    """A registry builder: binds the address plan and operand registers once.

    ``lds_values(inst, program, plan) -> fn(ctx)`` gives the dwords an
    lds-bit form sends to LDS; without it the lds bit is refused.
    """
    def build(inst, program):
        plan = PLANS[family](inst, program)
        if int(inst.fields.get("lds", 0)):
            if lds_values is None:
                return _reject_lds(inst.op)
            return _lds_load(lds_values(inst, program, plan), _lds_inst_offset(family, inst))
        src, dst = _operands(family, inst)
        return make(inst, program, plan, src, dst)
    return build


#: Address plan of each encoding the tables give the vector memory ops.
_FAMILY_OF_ENCODING = {"MUBUF": "buffer", "MTBUF": "buffer", "FLAT": "flat", "GLOBAL": "global",
                       "SCRATCH": "scratch"}


def _row(name):
    """(address family, {operand: dwords}) of ``name`` from its table row."""
    facts = table_facts(name)
    return _FAMILY_OF_ENCODING[facts.encoding], facts.widths


def _data_dwords(widths, *slots):
    for slot in slots:
        if slot in widths:
            return widths[slot]
    raise KeyError(slots)


def load(name, lds=False):
    """A load of the row's sub-dword element (data_bytes, signed) extended to a
    dword, or of whole dwords as the row's vdata/vdst is wide. ``lds``: it has
    an lds-bit form, which sends the (zero-extended) dword to LDS instead.
    Its facts (``vector_move``, ``address_family``, ``data_bytes``,
    ``signed``) let compiled blocks move plain dwords (exec/compiled)."""
    family, widths = _row(name)
    facts = table_facts(name)
    nbytes, signed = facts.data_bytes or 4 * _data_dwords(widths, "vdata", "vdst"), facts.signed
    lds_values = (lambda i, p, plan: _loaded_words(plan, nbytes, False)) if lds else None
    builder(name, data_bytes=nbytes, signed=signed, vector_move="load",
            address_family=family)(_memory_builder(
        family, lambda i, p, plan, s, d: _load_action(
            plan, d, nbytes, signed, tfe=bool(i.fields.get("tfe"))), lds_values))


def load_d16(name):
    """GFX9 d16 load: the row's sub-dword element into the VGPR half its d16 names."""
    family, _ = _row(name)
    facts = table_facts(name)
    nbytes, signed, half = facts.data_bytes, facts.signed, facts.d16
    builder(name, data_bytes=nbytes, signed=signed)(_memory_builder(
        family, lambda i, p, plan, s, d: _load_action(plan, d, nbytes, signed, d16=half)))


def store(name):
    """A store of the row's sub-dword element (data_bytes), or of whole dwords
    as the row's vdata/data is wide."""
    family, widths = _row(name)
    nbytes = table_facts(name).data_bytes or 4 * _data_dwords(widths, "vdata", "data")
    builder(name, data_bytes=nbytes, vector_move="store", address_family=family)(
        _memory_builder(family, lambda i, p, plan, s, d: _store_action(plan, s, nbytes)))


def store_high_half(name):
    """GFX9 d16_hi store: the row's sub-dword element from the high half of the VGPR."""
    family, _ = _row(name)
    nbytes = table_facts(name).data_bytes
    builder(name, data_bytes=nbytes)(_memory_builder(
        family, lambda i, p, plan, s, d: _store_action(plan, s, nbytes, True)))


def atomic(name, op):
    """An atomic ``op`` (memory.ATOMIC_OPS) on values as wide as the row's data
    operand (half of it for the compare-swaps, whose data holds two values).
    Its facts ``vector_atomic`` (the op) and ``address_family`` let compiled
    blocks apply the FLAT/GLOBAL ones (exec/compiled)."""
    family, widths = _row(name)
    data = _data_dwords(widths, "vdata", "data")
    values = 2 if op in TWO_OPERAND_ATOMICS else 1
    width = 4 * data // values
    builder(name, data_bytes=width, values=values, vector_atomic=op,
            address_family=family)(_memory_builder(family, lambda i, p, plan, s, d: _atomic_action(
        plan, s, d, op, width, bool(i.fields.get("glc")))))


def _format_x_lds(inst, program, plan):
    return lambda ctx: _format_values(ctx, plan, inst, program)[0][..., 0]


def format_load(name, lds=False):
    """A typed load (buffer_load_format_*, tbuffer_*) of as many components as
    the row's vdata is wide; ``lds``: its lds-bit form sends component x to LDS."""
    family, widths = _row(name)
    count = widths["vdata"]
    builder(name, components=count)(_memory_builder(
        family, lambda i, p, plan, s, d: _format_load(plan, i, p, d, count),
        _format_x_lds if lds else None))


def format_store(name):
    family, widths = _row(name)
    count = widths["vdata"]
    builder(name, components=count)(_memory_builder(
        family, lambda i, p, plan, s, d: _format_store(plan, i, p, s, count)))


def format_load_d16(name, count):
    """A typed d16 load of ``count`` 16-bit components (stated: the row's vdata
    is count dwords on unpacked-d16 processors, half that on packed ones), the
    first into the VGPR half the row's d16 names."""
    family, _ = _row(name)
    half = table_facts(name).d16
    builder(name, components=count, d16=True)(_memory_builder(
        family, lambda i, p, plan, s, d: _d16_load(plan, i, p, d, count, half)))


def format_store_d16(name, count):
    family, _ = _row(name)
    half = table_facts(name).d16
    builder(name, components=count, d16=True)(_memory_builder(
        family, lambda i, p, plan, s, d: _d16_store(plan, i, p, s, count, half)))


def _build_nop(inst, program):
    def run(ctx):
        return None
    return run


def cache_control(name):
    """Cache write-back/invalidate: nothing to do, the executor has no caches
    (the fact, ``no_effect``, lets a compiled block run it)."""
    builder(name, no_effect=True)(_build_nop)


# ------------------------------------------------------------ the mnemonics
# buffer
load("buffer_load_ubyte", lds=True)
load("buffer_load_sbyte", lds=True)
load("buffer_load_ushort", lds=True)
load("buffer_load_sshort", lds=True)
load("buffer_load_dword", lds=True)
load("buffer_load_dwordx2")
load("buffer_load_dwordx3")
load("buffer_load_dwordx4")
load_d16("buffer_load_ubyte_d16")
load_d16("buffer_load_ubyte_d16_hi")
load_d16("buffer_load_sbyte_d16")
load_d16("buffer_load_sbyte_d16_hi")
load_d16("buffer_load_short_d16")
load_d16("buffer_load_short_d16_hi")
store("buffer_store_byte")
store("buffer_store_short")
store("buffer_store_dword")
store("buffer_store_dwordx2")
store("buffer_store_dwordx3")
store("buffer_store_dwordx4")
store_high_half("buffer_store_byte_d16_hi")
store_high_half("buffer_store_short_d16_hi")
atomic("buffer_atomic_swap", "swap")
atomic("buffer_atomic_swap_x2", "swap")
atomic("buffer_atomic_cmpswap", "cmpswap")
atomic("buffer_atomic_cmpswap_x2", "cmpswap")
atomic("buffer_atomic_add", "add")
atomic("buffer_atomic_add_x2", "add")
atomic("buffer_atomic_sub", "sub")
atomic("buffer_atomic_sub_x2", "sub")
atomic("buffer_atomic_smin", "smin")
atomic("buffer_atomic_smin_x2", "smin")
atomic("buffer_atomic_umin", "umin")
atomic("buffer_atomic_umin_x2", "umin")
atomic("buffer_atomic_smax", "smax")
atomic("buffer_atomic_smax_x2", "smax")
atomic("buffer_atomic_umax", "umax")
atomic("buffer_atomic_umax_x2", "umax")
atomic("buffer_atomic_and", "and")
atomic("buffer_atomic_and_x2", "and")
atomic("buffer_atomic_or", "or")
atomic("buffer_atomic_or_x2", "or")
atomic("buffer_atomic_xor", "xor")
atomic("buffer_atomic_xor_x2", "xor")
atomic("buffer_atomic_inc", "inc")
atomic("buffer_atomic_inc_x2", "inc")
atomic("buffer_atomic_dec", "dec")
atomic("buffer_atomic_dec_x2", "dec")
atomic("buffer_atomic_fcmpswap", "fcmpswap")
atomic("buffer_atomic_fcmpswap_x2", "fcmpswap")
atomic("buffer_atomic_fmin", "fmin")
atomic("buffer_atomic_fmin_x2", "fmin")
atomic("buffer_atomic_fmax", "fmax")
atomic("buffer_atomic_fmax_x2", "fmax")
atomic("buffer_atomic_add_f32", "fadd")
atomic("buffer_atomic_pk_add_f16", "pk_fadd16")

# global
load("global_load_ubyte", lds=True)
load("global_load_sbyte", lds=True)
load("global_load_ushort", lds=True)
load("global_load_sshort", lds=True)
load("global_load_dword", lds=True)
load("global_load_dwordx2")
load("global_load_dwordx3")
load("global_load_dwordx4")
load_d16("global_load_ubyte_d16")
load_d16("global_load_ubyte_d16_hi")
load_d16("global_load_sbyte_d16")
load_d16("global_load_sbyte_d16_hi")
load_d16("global_load_short_d16")
load_d16("global_load_short_d16_hi")
store("global_store_byte")
store("global_store_short")
store("global_store_dword")
store("global_store_dwordx2")
store("global_store_dwordx3")
store("global_store_dwordx4")
store_high_half("global_store_byte_d16_hi")
store_high_half("global_store_short_d16_hi")
atomic("global_atomic_swap", "swap")
atomic("global_atomic_swap_x2", "swap")
atomic("global_atomic_cmpswap", "cmpswap")
atomic("global_atomic_cmpswap_x2", "cmpswap")
atomic("global_atomic_add", "add")
atomic("global_atomic_add_x2", "add")
atomic("global_atomic_sub", "sub")
atomic("global_atomic_sub_x2", "sub")
atomic("global_atomic_smin", "smin")
atomic("global_atomic_smin_x2", "smin")
atomic("global_atomic_umin", "umin")
atomic("global_atomic_umin_x2", "umin")
atomic("global_atomic_smax", "smax")
atomic("global_atomic_smax_x2", "smax")
atomic("global_atomic_umax", "umax")
atomic("global_atomic_umax_x2", "umax")
atomic("global_atomic_and", "and")
atomic("global_atomic_and_x2", "and")
atomic("global_atomic_or", "or")
atomic("global_atomic_or_x2", "or")
atomic("global_atomic_xor", "xor")
atomic("global_atomic_xor_x2", "xor")
atomic("global_atomic_inc", "inc")
atomic("global_atomic_inc_x2", "inc")
atomic("global_atomic_dec", "dec")
atomic("global_atomic_dec_x2", "dec")
atomic("global_atomic_add_f32", "fadd")
atomic("global_atomic_pk_add_f16", "pk_fadd16")

# flat
load("flat_load_ubyte")
load("flat_load_sbyte")
load("flat_load_ushort")
load("flat_load_sshort")
load("flat_load_dword")
load("flat_load_dwordx2")
load("flat_load_dwordx3")
load("flat_load_dwordx4")
load_d16("flat_load_ubyte_d16")
load_d16("flat_load_ubyte_d16_hi")
load_d16("flat_load_sbyte_d16")
load_d16("flat_load_sbyte_d16_hi")
load_d16("flat_load_short_d16")
load_d16("flat_load_short_d16_hi")
store("flat_store_byte")
store("flat_store_short")
store("flat_store_dword")
store("flat_store_dwordx2")
store("flat_store_dwordx3")
store("flat_store_dwordx4")
store_high_half("flat_store_byte_d16_hi")
store_high_half("flat_store_short_d16_hi")
atomic("flat_atomic_swap", "swap")
atomic("flat_atomic_swap_x2", "swap")
atomic("flat_atomic_cmpswap", "cmpswap")
atomic("flat_atomic_cmpswap_x2", "cmpswap")
atomic("flat_atomic_add", "add")
atomic("flat_atomic_add_x2", "add")
atomic("flat_atomic_sub", "sub")
atomic("flat_atomic_sub_x2", "sub")
atomic("flat_atomic_smin", "smin")
atomic("flat_atomic_smin_x2", "smin")
atomic("flat_atomic_umin", "umin")
atomic("flat_atomic_umin_x2", "umin")
atomic("flat_atomic_smax", "smax")
atomic("flat_atomic_smax_x2", "smax")
atomic("flat_atomic_umax", "umax")
atomic("flat_atomic_umax_x2", "umax")
atomic("flat_atomic_and", "and")
atomic("flat_atomic_and_x2", "and")
atomic("flat_atomic_or", "or")
atomic("flat_atomic_or_x2", "or")
atomic("flat_atomic_xor", "xor")
atomic("flat_atomic_xor_x2", "xor")
atomic("flat_atomic_inc", "inc")
atomic("flat_atomic_inc_x2", "inc")
atomic("flat_atomic_dec", "dec")
atomic("flat_atomic_dec_x2", "dec")
atomic("flat_atomic_fcmpswap", "fcmpswap")
atomic("flat_atomic_fcmpswap_x2", "fcmpswap")
atomic("flat_atomic_fmin", "fmin")
atomic("flat_atomic_fmin_x2", "fmin")
atomic("flat_atomic_fmax", "fmax")
atomic("flat_atomic_fmax_x2", "fmax")

# scratch
load("scratch_load_ubyte", lds=True)
load("scratch_load_sbyte", lds=True)
load("scratch_load_ushort", lds=True)
load("scratch_load_sshort", lds=True)
load("scratch_load_dword", lds=True)
load("scratch_load_dwordx2")
load("scratch_load_dwordx3")
load("scratch_load_dwordx4")
load_d16("scratch_load_ubyte_d16")
load_d16("scratch_load_ubyte_d16_hi")
load_d16("scratch_load_sbyte_d16")
load_d16("scratch_load_sbyte_d16_hi")
load_d16("scratch_load_short_d16")
load_d16("scratch_load_short_d16_hi")
store("scratch_store_byte")
store("scratch_store_short")
store("scratch_store_dword")
store("scratch_store_dwordx2")
store("scratch_store_dwordx3")
store("scratch_store_dwordx4")
store_high_half("scratch_store_byte_d16_hi")
store_high_half("scratch_store_short_d16_hi")


# typed (format) access
format_load("buffer_load_format_x", lds=True)
format_load("buffer_load_format_xy")
format_load("buffer_load_format_xyz")
format_load("buffer_load_format_xyzw")
format_load("tbuffer_load_format_x")
format_load("tbuffer_load_format_xy")
format_load("tbuffer_load_format_xyz")
format_load("tbuffer_load_format_xyzw")
format_store("buffer_store_format_x")
format_store("buffer_store_format_xy")
format_store("buffer_store_format_xyz")
format_store("buffer_store_format_xyzw")
format_store("tbuffer_store_format_x")
format_store("tbuffer_store_format_xy")
format_store("tbuffer_store_format_xyz")
format_store("tbuffer_store_format_xyzw")
format_load_d16("buffer_load_format_d16_x", 1)
format_load_d16("buffer_load_format_d16_xy", 2)
format_load_d16("buffer_load_format_d16_xyz", 3)
format_load_d16("buffer_load_format_d16_xyzw", 4)
format_load_d16("buffer_load_format_d16_hi_x", 1)
format_load_d16("tbuffer_load_format_d16_x", 1)
format_load_d16("tbuffer_load_format_d16_xy", 2)
format_load_d16("tbuffer_load_format_d16_xyz", 3)
format_load_d16("tbuffer_load_format_d16_xyzw", 4)
format_store_d16("buffer_store_format_d16_x", 1)
format_store_d16("buffer_store_format_d16_xy", 2)
format_store_d16("buffer_store_format_d16_xyz", 3)
format_store_d16("buffer_store_format_d16_xyzw", 4)
format_store_d16("buffer_store_format_d16_hi_x", 1)
format_store_d16("tbuffer_store_format_d16_x", 1)
format_store_d16("tbuffer_store_format_d16_xy", 2)
format_store_d16("tbuffer_store_format_d16_xyz", 3)
format_store_d16("tbuffer_store_format_d16_xyzw", 4)

builder("buffer_store_lds_dword")(
    lambda inst, program: _store_from_lds(inst, program, _buffer_plan(inst, program)))
cache_control("buffer_wbinvl1")
cache_control("buffer_wbinvl1_vol")
cache_control("buffer_wbinvl1_sc")

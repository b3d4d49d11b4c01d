"""The global data share (GDS): its address rule, global wave sync (GWS)
and the ordered-count counters.

GDS memory
    A DS instruction with the gds bit addresses the device's GDS instead of
    the work-group's LDS. M0 gives the wave its window: bits [31:16] the
    base, bits [15:0] the size in bytes (CLRX GcnInstrsDs). The address is
    ``base + ADDR + offset``; an access is in range when ``ADDR + offset +
    bytes <= size`` and it ends inside the 64 KiB of GDS. As for LDS,
    out-of-range reads return zero and writes and atomics are dropped (the
    manuals say nothing of GDS faults). ``semantics.ds`` runs every DS
    memory instruction on GDS through ``gds_piece``.

GWS (ds_gws_*; GDS-only)
    The resource is ``(M0[21:16] + offset) % 64`` (LLVM's AMDGPUISelDAGToDAG
    notes this; M0[21:16] are the low bits of the GDS base). The instructions
    that take a value (init, sema_br, barrier) read the ADDR VGPR of the
    first active lane (llvm-mc encodes their VGPR in the ADDR field).
    The state machine follows the ISA manuals' descriptions:

    - ds_gws_init: counter = value, labels a barrier.
    - ds_gws_barrier: a wave arriving while counter > 0 decrements it and
      waits; the wave that arrives at counter <= 0 flips the flag, which
      releases every waiting wave, and sets counter = its own value. So a
      barrier for N waves is initialised with N - 1 (as LLVM's
      llvm.amdgcn.ds.gws.init documents).
    - ds_gws_sema_v / ds_gws_sema_br: counter += 1 / += value.
    - ds_gws_sema_p: waits until counter > 0, then counter -= 1.
    - ds_gws_sema_release_all: every wave then waiting in ds_gws_sema_p
      goes on without taking a count (the older manuals' "release all
      wavefronts waiting on this semaphore"); the counter is unchanged.

    Waiting is the scheduler's ``Retry``: a waiting wave runs the
    instruction again later and is recognised by its record (per batch, in
    ``state.gws_barrier_waiting``/``gws_sema_waiting``), so its arrival
    counts once. The resources themselves live in the GlobalDataShare and
    keep their state between dispatches.

ds_ordered_count (GDS-only)
    One of four dedicated counters, index ``offset0[7:2]``; ``offset1`` bit
    0 wave_release, bit 1 wave_done, bits [3:2] the shader type, bit 4 the
    operation (0 add, 1 swap), as LLVM encodes llvm.amdgcn.ds.ordered.add/
    swap. Waves are served in wave-creation order (``state.wave_number``): a
    wave runs its ordered count once every earlier wave of the dispatch has
    released its turn (wave_release or wave_done) or ended; until then it
    waits (Retry). The value is the ADDR VGPR of the first active lane, as
    LLVM passes the intrinsic's value (the GFX9 manual's one-line summary
    says count_bits(EXEC) instead; LLVM's lowering is what compiled code
    relies on). Every active lane gets the counter's value before the
    operation. Not modelled, and rejected: graphics shader types (offset1
    bits [3:2] != 0) and the GFX10 dword-count bits [7:5].
"""

from __future__ import annotations

import numpy as np

from ..core.context import Retry
from ..launch import GDS_BYTES, GWS_RESOURCES, GlobalDataShare
from .memory import ByteArrayMemory, Piece
from ..core.registry import builder

_U32 = np.uint32
_U64 = np.uint64
_M0 = 124


# --------------------------------------------------------------- storage
def gds_storage(state) -> GlobalDataShare:
    """The dispatch's GlobalDataShare (a fresh one kept on the request if it has none)."""
    request = state.request
    if request is None:                        # a bare WaveState (tools, tests)
        if state.gds is None:
            state.gds = GlobalDataShare()
        return state.gds
    if request.gds is None:
        request.gds = GlobalDataShare()
    return request.gds


def _gds_memory(state) -> ByteArrayMemory:
    storage = gds_storage(state)
    cached = state.gds_view
    if cached is None or cached[0] is not storage.memory:
        cached = state.gds_view = (storage.memory, ByteArrayMemory(storage.memory))
    return cached[1]


def gds_window(state, sel):
    """(base, size) of each wave's GDS window from M0: (n,) uint64 each."""
    m0 = state.sgpr[_M0, sel].astype(_U64)
    return m0 >> _U64(16), m0 & _U64(0xFFFF)


def gds_piece(ctx, addresses, nbytes, lanes):
    """A Piece for GDS window addresses ``addresses`` ((n, 64) uint64) of ``lanes``."""
    addresses = addresses & _U64(0xFFFFFFFF)
    base, size = gds_window(ctx.state, ctx.sel)
    physical = base[:, None] + addresses
    valid = ((addresses + _U64(nbytes)) <= size[:, None]) & \
        ((physical + _U64(nbytes)) <= _U64(GDS_BYTES))
    physical = np.where(valid, physical, _U64(0))
    return Piece(_gds_memory(ctx.state), lanes, physical[lanes][:, None],
                 valid[lanes][:, None], nbytes)


# ------------------------------------------------------------ wave order
def _first_lane_values(ctx, reg):
    """Each wave's ``reg`` VGPR in its first active lane (0 without one): (n,) int."""
    lanes = ctx.exec_lanes()
    first = np.argmax(lanes, axis=1)
    values = ctx.state.vgpr[reg, ctx.sel][np.arange(ctx.n), first]
    return [int(v) if lanes[i].any() else 0 for i, v in enumerate(values)]


def _in_wave_order(ctx):
    """Positions within the group in wave-creation order."""
    numbers = ctx.state.wave_number[ctx.sel]
    return [int(i) for i in np.argsort(numbers, kind="stable")]


def _require_gds(inst, name):
    if not int(inst.fields.get("gds", 0)):
        raise UnmodelledEncoding(f"{name} is a GDS-only instruction: its gds bit is not set "
                      "(not supported)")


class UnmodelledEncoding(Exception):
    """An encoding the executor cannot run, reported when a wave reaches it."""


def _rejecting(message):
    def run(ctx):
        raise ctx.fault(message)
    return run


def _guarded(build):
    """Build ``build(inst, program)``, turning a UnmodelledEncoding into a run-time fault."""
    def make(inst, program):
        try:
            return build(inst, program)
        except UnmodelledEncoding as reason:
            return _rejecting(str(reason))
    return make


# ------------------------------------------------------------------- GWS
def _resource_ids(ctx, inst):
    offset = int(inst.fields.get("offset0", 0)) | int(inst.fields.get("offset1", 0)) << 8
    m0 = ctx.state.sgpr[_M0, ctx.sel].astype(np.int64)
    return [int(r) for r in ((m0 >> 16) + offset) % GWS_RESOURCES]


def _blocked_outcome(blocked):
    return Retry(np.array(blocked)) if any(blocked) else None


def _build_gws_init(inst, program):
    _require_gds(inst, "ds_gws_init")
    reg = int(inst.fields["addr"])

    def run(ctx):
        storage = gds_storage(ctx.state)
        for rid, value in zip(_resource_ids(ctx, inst), _first_lane_values(ctx, reg)):
            resource = storage.resource(rid)
            resource.counter, resource.kind = value, "barrier"
    return run


def _build_gws_barrier(inst, program):
    _require_gds(inst, "ds_gws_barrier")
    reg = int(inst.fields["addr"])

    def run(ctx):
        storage, waiting = gds_storage(ctx.state), ctx.state.gws_barrier_waiting
        waves, rids = ctx.waves(), _resource_ids(ctx, inst)
        values = _first_lane_values(ctx, reg)
        for i in _in_wave_order(ctx):
            if int(waves[i]) in waiting:
                continue
            resource = storage.resource(rids[i])
            resource.kind = "barrier"
            if resource.counter <= 0:
                resource.flag ^= 1
                resource.counter = values[i]
            else:
                resource.counter -= 1
                waiting[int(waves[i])] = (rids[i], resource.flag)
        blocked = []
        for i in range(ctx.n):
            record = waiting.get(int(waves[i]))
            if record is not None and storage.resource(record[0]).flag == record[1]:
                blocked.append(True)
                continue
            waiting.pop(int(waves[i]), None)
            blocked.append(False)
        return _blocked_outcome(blocked)
    return run


def _build_sema_add(inst, program, name, from_vgpr):
    _require_gds(inst, name)
    reg = int(inst.fields["addr"]) if from_vgpr else None

    def run(ctx):
        storage = gds_storage(ctx.state)
        values = _first_lane_values(ctx, reg) if from_vgpr else [1] * ctx.n
        for rid, value in zip(_resource_ids(ctx, inst), values):
            resource = storage.resource(rid)
            resource.counter += value
            resource.kind = "semaphore"
    return run


def _build_sema_p(inst, program):
    _require_gds(inst, "ds_gws_sema_p")

    def run(ctx):
        storage, waiting = gds_storage(ctx.state), ctx.state.gws_sema_waiting
        waves, rids = ctx.waves(), _resource_ids(ctx, inst)
        blocked = [False] * ctx.n
        for i in _in_wave_order(ctx):
            wave, resource = int(waves[i]), storage.resource(rids[i])
            resource.kind = "semaphore"
            arrived = waiting.get(wave)
            if arrived is not None and arrived != resource.releases:
                del waiting[wave]                       # released by release_all
            elif resource.counter > 0:
                resource.counter -= 1
                waiting.pop(wave, None)
            else:
                waiting.setdefault(wave, resource.releases)
                blocked[i] = True
        return _blocked_outcome(blocked)
    return run


def _build_sema_release_all(inst, program):
    _require_gds(inst, "ds_gws_sema_release_all")

    def run(ctx):
        storage = gds_storage(ctx.state)
        for rid in _resource_ids(ctx, inst):
            resource = storage.resource(rid)
            resource.releases += 1
            resource.kind = "semaphore"
    return run


# -------------------------------------------------------- ordered count
#: offset1 bits of ds_ordered_count
_WAVE_RELEASE, _WAVE_DONE, _SHADER_TYPE, _SWAP, _GFX10_DWORDS = 0x01, 0x02, 0x0C, 0x10, 0xE0


def ordered_count_fields(offset0: int, offset1: int):
    """(counter index, release, done, swap) of a ds_ordered_count, or a UnmodelledEncoding."""
    if offset1 & _SHADER_TYPE:
        raise UnmodelledEncoding(f"ds_ordered_count with shader type {(offset1 & _SHADER_TYPE) >> 2} "
                      "(graphics ordering) is not supported: only compute (0) is modelled")
    if offset1 & _GFX10_DWORDS:
        raise UnmodelledEncoding("ds_ordered_count with offset1[7:5] set (the GFX10 dword count) "
                      "is not supported on GFX6-GFX9")
    if offset0 & 3:
        raise UnmodelledEncoding(f"ds_ordered_count offset0 0x{offset0:x}: bits [1:0] must be zero "
                      "(the counter index is offset0[7:2]) (not supported)")
    index = offset0 >> 2
    if index >= 4:
        raise UnmodelledEncoding(f"ds_ordered_count counter index {index}: there are 4 ordered-count "
                      "counters (not supported)")
    return (index, bool(offset1 & _WAVE_RELEASE), bool(offset1 & _WAVE_DONE),
            bool(offset1 & _SWAP))


def _predecessors_pending(state, wave, passed):
    """True while a wave created before ``wave`` in this batch neither passed its
    turn nor ended (earlier batches have ended before this one started)."""
    earlier = state.wave_number < state.wave_number[wave]
    alive = state.alive
    pending = earlier & ~passed
    if alive is not None:
        pending &= alive
    return bool(pending.any())


def _build_ordered_count(inst, program):
    _require_gds(inst, "ds_ordered_count")
    index, release, done, swap = ordered_count_fields(int(inst.fields.get("offset0", 0)),
                                                      int(inst.fields.get("offset1", 0)))
    reg, vdst = int(inst.fields["addr"]), int(inst.fields["vdst"])

    def run(ctx):
        state, storage = ctx.state, gds_storage(ctx.state)
        passed = state.ordered_passed
        if passed is None or passed.shape[0] != state.num_waves:
            passed = state.ordered_passed = np.zeros(state.num_waves, np.bool_)
        waves, values = ctx.waves(), _first_lane_values(ctx, reg)
        blocked, results = [False] * ctx.n, np.zeros(ctx.n, _U32)
        for i in _in_wave_order(ctx):
            wave = int(waves[i])
            if _predecessors_pending(state, wave, passed):
                blocked[i] = True
                continue
            results[i] = storage.ordered[index]
            new = values[i] if swap else storage.ordered[index] + values[i]
            storage.ordered[index] = new & 0xFFFFFFFF
            if release or done:
                passed[wave] = True
        served = ~np.array(blocked)
        lanes = ctx.exec_lanes() & served[:, None]
        state.write_vgpr(ctx.sel, vdst, np.broadcast_to(results[:, None], lanes.shape), lanes)
        return _blocked_outcome(blocked)
    return run


# ----------------------------------------------------------- registration
def _register_all():
    builder("ds_gws_init")(_guarded(_build_gws_init))
    builder("ds_gws_barrier")(_guarded(_build_gws_barrier))
    builder("ds_gws_sema_v")(_guarded(
        lambda i, p: _build_sema_add(i, p, "ds_gws_sema_v", False)))
    builder("ds_gws_sema_br")(_guarded(
        lambda i, p: _build_sema_add(i, p, "ds_gws_sema_br", True)))
    builder("ds_gws_sema_p")(_guarded(_build_sema_p))
    builder("ds_gws_sema_release_all")(_guarded(_build_sema_release_all))
    builder("ds_ordered_count")(_guarded(_build_ordered_count))


_register_all()

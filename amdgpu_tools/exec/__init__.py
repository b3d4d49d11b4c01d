"""The embedded GCN executor: runs a kernel dispatch on a batch of emulated waves.

Layout
------
- ``launch.py``   the dispatch contract (DispatchRequest/Result, limits, trace)
- ``setup.py``    executor memory: initial registers, LDS, scratch, geometry
- ``addressing.py`` buffer resources, swizzled scratch, segment addresses
- ``core/``       the machine without any instruction: ``state`` (WaveState,
  lane masks), ``program`` (decode once into Records), ``dispatch`` (batches,
  scheduler, run loop), ``formats`` (the per-format wrappers SALU/VALU/VCMP),
  ``operands`` (operand fetch), ``lanes`` (DPP/SDWA), ``context``
  (what a semantic sees, outcomes), ``registry``, ``gpr_index``, ``trace``
- ``semantics/``  what each instruction does, by family: salu, valu_int,
  valu_float, vcmp, control, lane, packed, smem, vmem, ds, gds

Entry point
-----------
``run_dispatch(request: DispatchRequest, initializer=None, decode=None) ->
DispatchResult`` (contract in ``exec/launch.py``). It cuts the grid into
batches of whole work-groups, asks ``exec/setup.py`` (executor-memory helper:
``prepare_dispatch``, ``initial_wave_state``, ``make_lds``) for the initial
SGPR/VGPR values, LDS and scratch, then runs every batch until all its waves
have executed s_endpgm (``exec/core/dispatch.py``). ``initializer(state, request,
layout, group_ids)`` may adjust the initial state (tests use it).

Scheduling: waves at the same PC form a group and execute each instruction as
one NumPy operation; the lowest-PC group runs first (diverged waves meet again
at join points); ``s_barrier`` parks waves until every live wave of their
work-group has arrived. Fairness: once a group has waited a slice of steps
(``dispatch.FAIR_SLICE_STEPS``), every waiting group gets a turn, so spin
locks and flag waits between waves finish; waves returning ``Retry`` are
deferred and retried after the others had a turn (a round with nothing but
blocked waves is a deadlock error). Deterministic run to run. The watchdog
(``request.limits``) raises ``WatchdogTimeout``; ``request.trace`` prints one
line per instruction of the chosen waves with the registers it changed and
collects a per-PC profile. ``DispatchResult.lane_instructions`` counts active
lanes of vector instructions plus one per wave for scalar instructions.
Waves in VGPR indexing mode (s_set_gpr_idx_on) or vector skip (s_setvskip)
are stepped one instruction at a time by the scheduler, split by index and
with records pre-decoded for their indexed registers (``exec/core/gpr_index.py``);
the fast loop never sees them.

Known limits: only round-to-nearest-even (MODE round bits ignored); MODE's
denormal flush (f32, and f64/f16), DX10_CLAMP and IEEE (signalling NaNs in
min/max/med3) are honoured per wave (after an s_setreg of MODE the scheduler
applies the running waves' MODE, one part per MODE when a group disagrees); transcendentals
are correctly rounded rather than the hardware's 1-ulp approximations;
v_fma_f64 is fused through an exact two-product; a spin loop that waits for
another lane of its own wave hangs until the watchdog, as on hardware.

Wave-batch state (``exec/core/state.py``: ``WaveState``)
--------------------------------------------------------
Register files are register-major NumPy arrays, so one register of a run of
waves is a contiguous view:

- ``state.sgpr``  (128, W) uint32, row = the scalar operand code
  (0-101 s0..s101, 102/103 flat_scratch, 104/105 xnack_mask, 106/107 vcc,
  108-111 tba/tma, 112-123 ttmp, 124 m0, 126/127 exec).
- ``state.vgpr``  (V, W, 64) uint32: ``vgpr[reg, wave, lane]``.
- ``state.scc``   (W,) bool;  ``state.mode``/``status``/``trapsts`` (W,) uint32.
- ``state.lds``   (G, group_segment_size) uint8, one row per work-group of the
  batch; ``state.wave_group[w]`` is wave w's row.
- geometry: ``workgroup_id`` (W,3), ``workgroup_size`` (W,3),
  ``wave_in_group`` (W,), ``workitem_id`` (3,W,64), ``lane_valid`` (W,64),
  ``wave_number`` (W,) (dispatch-wide id used in messages), ``request``,
  ``memory`` (the DeviceMemory), ``target``; the helpers' typed fields
  (``layout``, ``private_wave_offset``, ``alive``, ``memtime``, ...) and
  ``extra`` (a dict for code outside the executor).
- Lane masks: ``mask_to_lanes(lo, hi)``, ``lanes_to_mask(lanes)``,
  ``state.exec_lanes(sel)``, ``state.read_mask/write_mask(sel, code, lanes)``
  are the one place 64-bit masks become (n, 64) bool arrays and back.
- Accessors: ``read_sgpr(sel, code, count=1)``, ``write_sgpr``,
  ``read_sgpr64``/``write_sgpr64``, ``read_vgpr(sel, reg)`` -> (n, 64),
  ``write_vgpr(sel, reg, values, lanes)`` (lanes: (n,64) bool or None = all).

``sel`` selects the waves of a group: a ``slice`` when they are contiguous
(views, no copies), otherwise a sorted int64 index array.

Registering semantics (``exec/core/registry.py``)
-------------------------------------------------
``SEMANTICS`` maps a mnemonic (the ``Instruction.op`` from ``amdgpu_tools.isa``)
to a ``Semantic``. Decorators: ``salu``, ``valu``, ``vcmp`` (pure functions on
typed NumPy arrays; the per-format wrappers in ``exec/core/formats.py`` do operand
fetch, inline constants/literals, neg/abs/clamp/omod, DPP/SDWA, EXEC masking
and write-back), ``instruction(op)`` for a raw ``fn(ctx) -> outcome`` and
``builder(op)`` for ``fn(inst, program) -> run(ctx)`` bound once at pre-decode
time (memory instructions use these). ``UNSUPPORTED`` lists what is rejected.
The semantics live in ``exec/semantics/``, one module per family (salu,
valu_int, valu_float, vcmp, control, lane, packed, smem, vmem, ds, gds);
importing ``exec.semantics`` registers them all.

Context and outcomes (``exec/core/context.py``)
-----------------------------------------------
A raw semantic gets ``ctx``: ``ctx.state``, ``ctx.sel``, ``ctx.n``,
``ctx.record`` (``pc``, ``size``, ``inst``, ``text``), ``ctx.inst``,
``ctx.fields``, ``ctx.exec_lanes()`` ((n,64) bool), ``ctx.write_lanes()``
(None when all lanes are on), ``ctx.waves()`` and ``ctx.fault(cause,
address=..., wave_index=...)`` which builds the ``KernelError`` (kernel,
work-group, wave, PC, instruction text, address) to ``raise``. A
``MemoryFault`` escaping a semantic is turned into such a KernelError by the
run loop. It returns ``None`` (next instruction), ``Branch(taken, target)``,
``Jump(pcs)``, ``END``, ``BARRIER`` or ``Retry(blocked)``.
"""

from .core.context import BARRIER, END, Branch, Context, Jump, Retry  # noqa: F401
from .core.registry import (SEMANTICS, UNSUPPORTED, builder, instruction, salu,  # noqa: F401
                       unsupported, valu, vcmp)
from .core.state import (WaveState, lanes_to_mask, lanes_to_mask64, mask64_to_lanes,  # noqa: F401
                    mask_to_lanes)


_core_run_dispatch = None


def run_dispatch(request, **options):
    """Run one kernel dispatch to completion (see ``exec/core/dispatch.py``).
    The core is imported on first use (importing ``exec`` stays cheap) and
    kept: an import statement per launch is a measurable part of a short one."""
    global _core_run_dispatch
    if _core_run_dispatch is None:
        from .core.dispatch import run_dispatch as core_run_dispatch
        _core_run_dispatch = core_run_dispatch
    return _core_run_dispatch(request, **options)

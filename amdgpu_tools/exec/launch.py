"""The contract between the packet processor (runtime) and the executor.

The runtime's packet processor turns an AQL kernel-dispatch packet into a
``DispatchRequest`` and hands it to ``amdgpu_tools.exec.run_dispatch``. The
request carries exactly what a GCN dispatcher knows when it launches waves:
the kernel's setup bits (from its kernel descriptor or amd_kernel_code_t),
the packet's sizes and the addresses the ABI puts into user SGPRs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

#: High halves of the flat apertures the runtime programs (amd_queue_t on
#: GFX7/8, the aperture registers src_shared_base/src_private_base on GFX9).
#: Each aperture is 4 GiB: a flat address whose high 32 bits equal the base's
#: high 32 bits addresses LDS (shared) or the lane's private segment.
SHARED_APERTURE_BASE = 0x0001_0000_0000_0000
PRIVATE_APERTURE_BASE = 0x0002_0000_0000_0000
APERTURE_SIZE = 1 << 32


@dataclass(frozen=True)
class KernelSetup:
    """Dispatcher-visible properties of a kernel, as its descriptor encodes them.

    Field names follow amd_kernel_code_t / the v3 kernel descriptor. Counts
    are real register counts (not the granulated encodings).
    """

    entry_address: int
    sgpr_count: int
    vgpr_count: int
    user_sgpr_count: int
    enable_sgpr_private_segment_buffer: bool = False
    enable_sgpr_dispatch_ptr: bool = False
    enable_sgpr_queue_ptr: bool = False
    enable_sgpr_kernarg_segment_ptr: bool = False
    enable_sgpr_dispatch_id: bool = False
    enable_sgpr_flat_scratch_init: bool = False
    enable_sgpr_private_segment_size: bool = False
    enable_sgpr_grid_workgroup_count_x: bool = False
    enable_sgpr_grid_workgroup_count_y: bool = False
    enable_sgpr_grid_workgroup_count_z: bool = False
    #: compute_pgm_rsrc2.ENABLE_PRIVATE_SEGMENT (the wave offset system SGPR)
    enable_sgpr_private_segment_wave_offset: bool = False
    enable_sgpr_workgroup_id_x: bool = False
    enable_sgpr_workgroup_id_y: bool = False
    enable_sgpr_workgroup_id_z: bool = False
    enable_sgpr_workgroup_info: bool = False
    #: 0: only X work-item ids in v0; 1: X, Y in v0, v1; 2: X, Y, Z in v0-v2
    enable_vgpr_workitem_id: int = 0
    #: compute_pgm_rsrc1.FLOAT_MODE: rounding (bits 3:0) and denorm (7:4) modes
    float_mode: int = 0xC0
    ieee_mode: bool = True
    dx10_clamp: bool = True
    group_segment_fixed_size: int = 0
    private_segment_fixed_size: int = 0
    wavefront_size: int = 64

    def __hash__(self):
        # equal setups share their entry: hashing it alone keeps the dispatch
        # caches keyed on a setup (layouts, prototypes, costs) from hashing
        # 27 fields at every launch
        return hash(self.entry_address)


#: Bytes of global data share (GDS) per device on GFX6-GFX9.
GDS_BYTES = 64 * 1024
#: Global wave sync (GWS) resources: resource ids are taken modulo this.
GWS_RESOURCES = 64
#: Dedicated ordered-count counters ("packers") of ds_ordered_count.
ORDERED_COUNTERS = 4


@dataclass
class GwsResource:
    """One GWS barrier or semaphore: the state the GWS instructions update.

    ``counter``: waves still to arrive (barrier) or available (semaphore);
    ``flag``: flips each time the barrier is satisfied (a waiting wave goes
    on once it differs from the flag it arrived with); ``releases`` counts
    ds_gws_sema_release_all (waves that blocked in ds_gws_sema_p before
    one go on); ``kind``: 'barrier' or 'semaphore' (the last label set).
    """

    counter: int = 0
    flag: int = 0
    releases: int = 0
    kind: str = "barrier"


@dataclass
class GlobalDataShare:
    """A device's global data share: GDS memory, GWS resources and the
    ordered-count counters, all zero at creation.

    Hardware gives each queue a GDS allocation for its lifetime; here one
    instance lives as long as the runtime's packet processor (the device),
    so values written by one dispatch are seen by the next. A dispatch whose
    request carries none gets a fresh one (kept on the request for all of
    its batches).
    """

    memory: np.ndarray = field(default_factory=lambda: np.zeros(GDS_BYTES, np.uint8))
    gws: dict = field(default_factory=dict)            # resource id -> GwsResource
    ordered: list = field(default_factory=lambda: [0] * ORDERED_COUNTERS)

    def resource(self, rid: int) -> GwsResource:
        """The GWS resource ``rid`` (created zeroed when first used)."""
        found = self.gws.get(rid)
        if found is None:
            found = self.gws[rid] = GwsResource()
        return found


@dataclass(frozen=True)
class ExecutionLimits:
    """The watchdog: a dispatch that exceeds either limit ends in an error."""

    max_wave_instructions: int = 2_000_000_000
    max_seconds: float = 600.0


@dataclass(frozen=True)
class TraceOptions:
    """Which waves to trace (``None``: all) and where trace lines go."""

    waves: tuple | None = None
    sink: object = None          # a callable taking one line of text; default print
    profile: bool = False        # collect a per-PC instruction count

    @classmethod
    def from_text(cls, trace: str | None, profile: bool, sink=None):
        """The options of ``--trace TEXT`` ('all' or wave numbers such as 0,3) and
        ``--profile``; None when neither asks for anything. A bad list is a
        ValueError."""
        if trace is None and not profile:
            return None
        if trace is None:
            waves = ()
        elif trace.strip().lower() == "all":
            waves = None
        else:
            try:
                waves = tuple(int(w, 0) for w in trace.split(",") if w.strip())
            except ValueError:
                raise ValueError(f"'{trace}' is not 'all' or a list of wave numbers") from None
        return cls(waves=waves, sink=sink, profile=profile)


#: When blocks of ALU code run natively (``exec.compiled.tier`` says what each means).
COMPILE_MODES = ("off", "auto", "eager", "check")


def default_jobs() -> int:
    """Processes a dispatch may use by default: the cores this process may run
    on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass
class DispatchRequest:
    """One kernel dispatch, as the packet processor hands it to the executor."""

    memory: object               # amdgpu_tools.runtime.memory.DeviceMemory
    target: object               # amdgpu_tools.isa.targets.Target
    kernel_name: str
    setup: KernelSetup
    grid_size: tuple[int, int, int]
    workgroup_size: tuple[int, int, int]
    packet_address: int
    queue_address: int
    kernarg_address: int
    dispatch_id: int = 0
    #: total group (LDS) bytes per work-group: fixed + dynamic, from the packet
    group_segment_size: int = 0
    #: private bytes per work-item, from the packet
    private_segment_size: int = 0
    shared_aperture_base: int = SHARED_APERTURE_BASE
    private_aperture_base: int = PRIVATE_APERTURE_BASE
    limits: ExecutionLimits = field(default_factory=ExecutionLimits)
    trace: TraceOptions | None = None
    #: called with no arguments every HOST_SERVICE_STEPS scheduler steps while
    #: the kernel runs, so the host can answer requests waves spin on (hostcall)
    host_service: object = None
    #: the device's GlobalDataShare (GDS memory, GWS, ordered counters);
    #: None: the executor creates a zeroed one for this dispatch
    gds: GlobalDataShare | None = None
    #: called with a wave's M0 when it sends an interrupt (s_sendmsg
    #: MSG_INTERRUPT: M0[23:0] is the event id the runtime waits on)
    interrupt: object = None
    #: watches the dispatch for hazards (``analysis.hazard_monitor.DispatchChecker``):
    #: ``before(ctx)`` before each instruction, ``memory(ctx, piece, write, atomic)``
    #: for each memory access; None: nothing is watched (and nothing costs)
    checker: object = None
    #: most processes the work-groups may run in (``exec.core.parallel`` says
    #: when a dispatch uses more than this one; its memory must be ``shared``)
    jobs: int = 1
    #: when blocks of ALU code run natively (``exec.compiled.tier``: 'off',
    #: 'auto', 'eager', 'check'); None: ``AMDGPU_TOOLS_COMPILE``, else 'auto'
    compile: str | None = None


@dataclass
class DispatchResult:
    """What a finished dispatch reports."""

    wave_instructions: int = 0
    lane_instructions: int = 0
    waves: int = 0
    #: of the wave-instructions, those run by compiled blocks (``exec.compiled``)
    compiled_instructions: int = 0
    #: processes that ran the work-groups: 1 (the caller's) or the worker
    #: processes that took them (``jobs``: forked for it or kept from before)
    processes: int = 1
    seconds: float = 0.0
    #: PC -> times executed (by a wave), when profiling was asked for
    profile: dict = field(default_factory=dict)
    #: PC -> EXEC lanes active when it ran, summed over its executions (with profile)
    lane_profile: dict = field(default_factory=dict)
    #: what the request's checker reported (``analysis.hazards.Hazard``), when checked
    hazards: list = field(default_factory=list)


def profile_lines(result: DispatchResult, title: str = "profile") -> list[str]:
    """A dispatch's per-PC profile as text ([] when none was collected)."""
    if not result.profile:
        return []
    return [f"{title} (pc: wave instructions executed):",
            *(f"  0x{pc:x}: {count}" for pc, count in sorted(result.profile.items()))]

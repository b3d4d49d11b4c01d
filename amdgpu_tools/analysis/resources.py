"""Resource usage and occupancy of each kernel of a code object (``amdgpu-objdump
--resource-usage``).

For every kernel: the VGPR/SGPR counts as the descriptor allocates them
(COMPUTE_PGM_RSRC1's granules) and as used (the metadata's ``.vgpr_count`` /
``.sgpr_count``, which include VCC, FLAT_SCRATCH and XNACK_MASK), LDS (static,
plus a launch's dynamic part when given), scratch per work-item, spills as the
metadata states them, wave size, work-group size, and the occupancy: waves per
SIMD and per CU as limited by VGPRs, SGPRs, LDS and the work-group size, the
limiting resource and how much of it must be freed to gain one more wave.

The descriptors and metadata are read by the ELF layer (``elf.listing``'s
descriptor sources, ``elf.kernel_descriptor``, ``elf.kernel_code``,
``elf.metadata``; ``runtime.descriptors.kernel_setup``); the only facts this module adds are the
per-generation limits in ``GENERATIONS``, from LLVM's AMDGPU backend
(AMDGPUBaseInfo / GCNSubtarget / AMDGPUSubtarget, LLVM 19):

* VGPRs: 256 per lane per SIMD, allocated in granules of 4 (wave64);
  waves = min(10, 256 // roundup(vgprs, 4)) (``getNumWavesPerEUWithNumVGPRs``).
* SGPRs: 512 per SIMD on GFX6-7 (granule 8) and 800 on GFX8-9 (granule 16);
  the waves a count allows are LLVM's ``getOccupancyWithNumSGPRs`` table
  (the one clang's ``Occupancy`` remark uses), counted with the extra SGPRs.
* at most 10 waves per SIMD, 4 SIMDs per CU; all waves of a work-group on one
  CU; at most 16 work-groups of more than one wave per CU (barrier resources,
  ``getMaxWorkGroupsPerCU``).
* LDS: 64 KiB per CU shared by the resident work-groups, allocated per
  work-group in blocks of 256 bytes (GFX6) / 512 bytes (GFX7+), at most 32 KiB
  (GFX6) / 64 KiB per work-group.

Occupancy is computed in whole work-groups: the work-groups one CU holds are
the fewest any resource allows; their waves spread over the CU's 4 SIMDs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..elf.bitfields import RSRC1, SGPR_GRANULE, VGPR_GRANULE
from ..elf.kernel_code import AmdKernelCodeT
from ..elf.kernel_descriptor import KernelDescriptor
from ..elf.listing import descriptor_sources
from ..elf.metadata import kernels_from_notes, metadata_documents
from ..elf.reader import ElfFile, read_elf
from ..runtime.descriptors import kernel_setup
from ..errors import ToolchainError

INFINITE = 1 << 30


@dataclass(frozen=True)
class GenerationLimits:
    """What one CU of a generation holds (GFX6-GFX9, wave64)."""

    generation: int
    sgprs_per_simd: int
    sgpr_alloc_granule: int
    #: ((most SGPRs, waves per SIMD), ...) best first; more SGPRs than the last
    #: entry's still run ``sgpr_min_waves`` waves (LLVM getOccupancyWithNumSGPRs)
    sgpr_waves: tuple
    sgpr_min_waves: int
    lds_per_workgroup: int
    lds_alloc_granule: int
    simds_per_cu: int = 4
    max_waves_per_simd: int = 10
    vgprs_per_simd_lane: int = 256
    vgpr_alloc_granule: int = 4
    lds_per_cu: int = 65536
    #: work-groups of more than one wave a CU holds at once (barriers)
    max_workgroups_per_cu: int = 16
    max_workgroup_size: int = 1024


_GFX6_7_SGPR_WAVES = ((48, 10), (56, 9), (64, 8), (72, 7), (80, 6))
_GFX8_9_SGPR_WAVES = ((80, 10), (88, 9), (100, 8))

GENERATIONS = {
    6: GenerationLimits(6, 512, 8, _GFX6_7_SGPR_WAVES, 5, 32768, 256),
    7: GenerationLimits(7, 512, 8, _GFX6_7_SGPR_WAVES, 5, 65536, 512),
    8: GenerationLimits(8, 800, 16, _GFX8_9_SGPR_WAVES, 7, 65536, 512),
    9: GenerationLimits(9, 800, 16, _GFX8_9_SGPR_WAVES, 7, 65536, 512),
}

#: the resources occupancy is limited by, in the order they are named
RESOURCES = ("vgprs", "sgprs", "lds", "barriers", "waves")


def limits_of(target) -> GenerationLimits:
    from ..isa.targets import get_target
    return GENERATIONS[get_target(target).generation]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _align_up(value: int, granule: int) -> int:
    return _ceil_div(value, granule) * granule


# --- the per-resource rules -------------------------------------------------
def waves_with_vgprs(limits: GenerationLimits, vgprs: int) -> int:
    """Waves per SIMD a VGPR count allows."""
    if vgprs < limits.vgpr_alloc_granule:
        return limits.max_waves_per_simd
    allocated = _align_up(vgprs, limits.vgpr_alloc_granule)
    return min(max(limits.vgprs_per_simd_lane // allocated, 1), limits.max_waves_per_simd)


def waves_with_sgprs(limits: GenerationLimits, sgprs: int) -> int:
    """Waves per SIMD an SGPR count (with VCC/FLAT_SCRATCH/XNACK_MASK) allows."""
    for most, waves in limits.sgpr_waves:
        if sgprs <= most:
            return waves
    return limits.sgpr_min_waves


def most_vgprs_for(limits: GenerationLimits, waves: int) -> int | None:
    """The most VGPRs a kernel may use to run ``waves`` waves per SIMD."""
    if waves > limits.max_waves_per_simd:
        return None
    most = limits.vgprs_per_simd_lane // waves
    return most - most % limits.vgpr_alloc_granule


def most_sgprs_for(limits: GenerationLimits, waves: int) -> int | None:
    """The most SGPRs a kernel may use to run ``waves`` waves per SIMD (None:
    no count is too many for that, or no count gives that many waves)."""
    if waves > limits.max_waves_per_simd:
        return None
    fitting = [most for most, allowed in limits.sgpr_waves if allowed >= waves]
    return max(fitting) if fitting and waves > limits.sgpr_min_waves else None


def lds_allocation(limits: GenerationLimits, lds_bytes: int) -> int:
    """LDS a work-group is given: whole allocation blocks."""
    return _align_up(lds_bytes, limits.lds_alloc_granule)


@dataclass(frozen=True)
class Occupancy:
    """How many waves of a kernel one CU holds, and why not more."""

    waves_per_workgroup: int
    workgroups_per_cu: int
    waves_per_cu: int
    waves_per_simd: int
    #: work-groups per CU each resource alone would allow
    workgroups_by: dict
    limited_by: tuple
    #: resource -> how much of it to free for one more wave per SIMD;
    #: None: the hardware maximum (or the barrier limit) is reached
    to_gain_one_wave: dict | None


def occupancy(limits: GenerationLimits, vgprs: int, sgprs: int, lds_bytes: int,
              workgroup_size: int, wave_size: int = 64) -> Occupancy:
    """Occupancy of a kernel using ``vgprs`` VGPRs, ``sgprs`` SGPRs and
    ``lds_bytes`` of LDS per work-group of ``workgroup_size`` work-items."""
    simds = limits.simds_per_cu
    group_waves = max(1, _ceil_div(workgroup_size, wave_size))
    lds = lds_allocation(limits, lds_bytes)
    if lds > limits.lds_per_workgroup:
        lds_groups = 0
    else:
        lds_groups = limits.lds_per_cu // lds if lds else INFINITE
    by = {
        "vgprs": simds * waves_with_vgprs(limits, vgprs) // group_waves,
        "sgprs": simds * waves_with_sgprs(limits, sgprs) // group_waves,
        "lds": lds_groups,
        "barriers": limits.max_workgroups_per_cu if group_waves > 1 else INFINITE,
        "waves": simds * limits.max_waves_per_simd // group_waves,
    }
    groups = min(by.values())
    waves_per_cu = groups * group_waves
    waves_per_simd = _ceil_div(waves_per_cu, simds)
    # registers that allow the full 10 waves limit nothing, even when whole
    # work-groups fit no better than the wave slots allow
    unlimited = {r for r, waves in (("vgprs", waves_with_vgprs(limits, vgprs)),
                                    ("sgprs", waves_with_sgprs(limits, sgprs)))
                 if waves >= limits.max_waves_per_simd}
    limited_by = tuple(r for r in RESOURCES if by[r] == groups and r not in unlimited)
    return Occupancy(group_waves, groups, waves_per_cu, waves_per_simd,
                     {r: (None if n == INFINITE else n) for r, n in by.items()}, limited_by,
                     _to_gain(limits, by, group_waves, waves_per_simd, vgprs, sgprs, lds_bytes))


def _to_gain(limits, by, group_waves, waves_per_simd, vgprs, sgprs, lds_bytes):
    """What to free so that one SIMD holds one wave more: the fewest work-groups
    per CU that give it, and each resource that allows fewer."""
    simds = limits.simds_per_cu
    groups = simds * waves_per_simd // group_waves + 1
    if by["waves"] < groups or by["barriers"] < groups:
        return None
    need = _ceil_div(groups * group_waves, simds)      # waves per SIMD registers must allow
    free = {}
    if by["vgprs"] < groups:
        free["vgprs"] = vgprs - most_vgprs_for(limits, need)
    if by["sgprs"] < groups:
        most = most_sgprs_for(limits, need)
        if most is None:
            return None
        free["sgprs"] = sgprs - most
    if by["lds"] < groups:
        most = limits.lds_per_cu // groups
        most = min(most - most % limits.lds_alloc_granule, limits.lds_per_workgroup)
        free["lds_bytes"] = lds_bytes - most
    return free


# --- kernels of a code object ------------------------------------------------
@dataclass
class KernelResources:
    """One kernel's resources and occupancy on its target."""

    kernel: str
    symbol: str
    target: str
    code_object_version: int | None
    wave_size: int
    #: as used (metadata), else as allocated; SGPRs include VCC/FLAT_SCRATCH/XNACK_MASK
    vgprs: int
    sgprs: int
    #: as COMPUTE_PGM_RSRC1 allocates them ((granules + 1) * 4 / * 8)
    vgprs_granulated: int
    sgprs_granulated: int
    #: where vgprs/sgprs come from: 'metadata' or 'descriptor'
    counts_from: str
    lds_bytes: int                     # static (group_segment_fixed_size)
    lds_dynamic_bytes: int             # the launch's dynamic part, as given
    lds_allocated_bytes: int           # both, in whole allocation blocks
    scratch_bytes: int                 # per work-item (private_segment_fixed_size)
    uses_dynamic_stack: bool
    sgpr_spills: int | None            # None: the metadata does not say
    vgpr_spills: int | None
    max_flat_workgroup_size: int | None   # as the metadata states it
    workgroup_size: int                # the size occupancy is computed for
    waves_per_workgroup: int
    workgroups_per_cu: int
    waves_per_cu: int
    waves_per_simd: int
    max_waves_per_simd: int
    limited_by: tuple
    workgroups_by: dict = field(default_factory=dict)
    to_gain_one_wave: dict | None = None

    def to_dict(self) -> dict:
        data = asdict(self)
        data["limited_by"] = list(self.limited_by)
        return data

    def describe(self) -> str:
        """The text ``amdgpu-objdump --resource-usage`` prints."""
        spills = ("unknown" if self.sgpr_spills is None and self.vgpr_spills is None
                  else f"{self.sgpr_spills or 0} SGPRs, {self.vgpr_spills or 0} VGPRs")
        stated = (f"{self.max_flat_workgroup_size}" if self.max_flat_workgroup_size
                  else "not stated")
        lds = f"{self.lds_bytes} bytes static"
        if self.lds_dynamic_bytes:
            lds += f" + {self.lds_dynamic_bytes} dynamic"
        lines = [
            f"kernel {self.kernel} ({self.target}, code object v{self.code_object_version}):",
            f"  VGPRs: {self.vgprs} used, {self.vgprs_granulated} allocated",
            f"  SGPRs: {self.sgprs} used, {self.sgprs_granulated} allocated"
            + ("" if self.counts_from == "metadata" else " (no metadata: used = allocated)"),
            f"  LDS: {lds} ({self.lds_allocated_bytes} allocated per work-group)",
            f"  scratch: {self.scratch_bytes} bytes per work-item"
            + (", dynamic stack" if self.uses_dynamic_stack else ""),
            f"  spills: {spills}",
            f"  wave size: {self.wave_size}; max flat work-group size: {stated}",
            f"  occupancy ({self.workgroup_size}-item work-groups of "
            f"{self.waves_per_workgroup} waves): {self.waves_per_simd} of "
            f"{self.max_waves_per_simd} waves per SIMD, {self.waves_per_cu} per CU "
            f"({self.workgroups_per_cu} work-groups)",
            f"  limited by: {', '.join(self.limited_by)}",
        ]
        if self.waves_per_simd >= self.max_waves_per_simd:
            lines.append("  one more wave per SIMD: none, at the maximum")
        elif self.to_gain_one_wave is None:
            lines.append(f"  one more wave per SIMD: not possible with {self.workgroup_size}"
                         "-item work-groups (wave slots / barriers)")
        else:
            units = {"vgprs": "VGPRs", "sgprs": "SGPRs", "lds_bytes": "bytes of LDS"}
            needed = ", ".join(f"{n} {units[r]}" for r, n in self.to_gain_one_wave.items())
            lines.append(f"  one more wave per SIMD: free {needed}")
        return "\n".join(lines)


def resource_usage(data: bytes, *, lds_dynamic: int = 0, workgroup_size: int | None = None,
                   target=None) -> list[KernelResources]:
    """Every kernel of the code object ``data`` (ET_REL or ET_DYN, v2-v5)."""
    return resource_usage_of_elf(read_elf(bytes(data)), lds_dynamic=lds_dynamic,
                                 workgroup_size=workgroup_size, target=target)


def resource_usage_of_elf(elf: ElfFile, *, lds_dynamic: int = 0,
                          workgroup_size: int | None = None,
                          target=None) -> list[KernelResources]:
    """``resource_usage`` of a parsed code object; ``target`` overrides e_flags."""
    from ..isa.targets import get_target, target_of_elf
    if lds_dynamic < 0:
        raise ToolchainError(f"dynamic LDS must not be negative, got {lds_dynamic}")
    if workgroup_size is not None and workgroup_size < 1:
        raise ToolchainError(f"work-group size must be positive, got {workgroup_size}")
    tgt = get_target(target) if target is not None else target_of_elf(elf)
    limits = GENERATIONS[tgt.generation]
    if workgroup_size is not None and workgroup_size > limits.max_workgroup_size:
        raise ToolchainError(f"work-group size {workgroup_size} exceeds "
                             f"{limits.max_workgroup_size}")
    metadata = kernels_from_notes(elf.notes)
    stated = _stated_counts(elf)
    results = []
    for symbol, kind, _address, raw in descriptor_sources(elf):
        if kind == "amd_kernel_code_t":
            descriptor = AmdKernelCodeT.from_bytes(raw)
            entry = next((k for k in metadata if k.name == symbol), None)
        else:
            descriptor = KernelDescriptor.from_bytes(raw)
            entry = next((k for k in metadata if k.symbol == symbol), None)
        name = entry.name if entry else symbol.removesuffix(".kd")
        results.append(_kernel(name, symbol, elf, tgt, limits, descriptor, entry,
                               stated.get(name, {}), lds_dynamic, workgroup_size))
    return results


def _kernel(name, symbol, elf, tgt, limits, descriptor, entry, stated, lds_dynamic,
            workgroup_size) -> KernelResources:
    setup = kernel_setup(descriptor, 0)
    rsrc1 = descriptor.fields["compute_pgm_rsrc1"]
    vgprs_granulated = (RSRC1["granulated_workitem_vgpr_count"].get(rsrc1) + 1) * VGPR_GRANULE
    sgprs_granulated = (RSRC1["granulated_wavefront_sgpr_count"].get(rsrc1) + 1) * SGPR_GRANULE
    from_metadata = "vgprs" in stated and "sgprs" in stated
    vgprs = stated.get("vgprs", setup.vgpr_count)
    sgprs = stated.get("sgprs", setup.sgpr_count)
    lds = (entry.group_segment_fixed_size if entry else 0) or setup.group_segment_fixed_size
    scratch = ((entry.private_segment_fixed_size if entry else 0)
               or setup.private_segment_fixed_size)
    wave_size = (entry.wavefront_size if entry else 0) or setup.wavefront_size or 64
    max_flat = (entry.max_flat_workgroup_size if entry else 0) or None
    size = workgroup_size or max_flat or limits.max_workgroup_size
    occ = occupancy(limits, vgprs, sgprs, lds + lds_dynamic, size, wave_size)
    dynamic_stack = bool(entry.uses_dynamic_stack) if entry else (
        isinstance(descriptor, KernelDescriptor)
        and bool(descriptor.get("kernel_code_properties", "uses_dynamic_stack")))
    return KernelResources(
        kernel=name, symbol=symbol, target=tgt.name,
        code_object_version=elf.code_object_version, wave_size=wave_size,
        vgprs=vgprs, sgprs=sgprs, vgprs_granulated=vgprs_granulated,
        sgprs_granulated=sgprs_granulated,
        counts_from="metadata" if from_metadata else "descriptor",
        lds_bytes=lds, lds_dynamic_bytes=lds_dynamic,
        lds_allocated_bytes=lds_allocation(limits, lds + lds_dynamic), scratch_bytes=scratch,
        uses_dynamic_stack=dynamic_stack, sgpr_spills=stated.get("sgpr_spills"),
        vgpr_spills=stated.get("vgpr_spills"), max_flat_workgroup_size=max_flat,
        workgroup_size=size, waves_per_workgroup=occ.waves_per_workgroup,
        workgroups_per_cu=occ.workgroups_per_cu, waves_per_cu=occ.waves_per_cu,
        waves_per_simd=occ.waves_per_simd, max_waves_per_simd=limits.max_waves_per_simd,
        limited_by=occ.limited_by, workgroups_by=occ.workgroups_by,
        to_gain_one_wave=occ.to_gain_one_wave)


#: metadata keys of the counts ``KernelInfo`` does not keep (or keeps as 0 when
#: absent): v3+ spelling, v2 CodeProps spelling
_COUNT_KEYS = {"vgprs": (".vgpr_count", "NumVGPRs"), "sgprs": (".sgpr_count", "NumSGPRs"),
               "sgpr_spills": (".sgpr_spill_count", "NumSpilledSGPRs"),
               "vgpr_spills": (".vgpr_spill_count", "NumSpilledVGPRs")}


def _stated_counts(elf: ElfFile) -> dict:
    """kernel name -> the register and spill counts its metadata states."""
    stated = {}
    for version, doc in metadata_documents(elf.notes):
        if not isinstance(doc, dict):
            continue
        if version == 2:
            nodes = [(k.get("Name"), k.get("CodeProps", {})) for k in doc.get("Kernels", [])]
            slot = 1
        else:
            kernels = doc.get("amdhsa.kernels", [])
            nodes = [(k.get(".name"), k) for k in kernels if isinstance(k, dict)] \
                if isinstance(kernels, list) else []
            slot = 0
        for name, node in nodes:
            counts = {}
            for what, keys in _COUNT_KEYS.items():
                value = node.get(keys[slot]) if isinstance(node, dict) else None
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    continue
                counts[what] = value
            if version == 2 and counts.get("vgprs") == 0 and counts.get("sgprs") == 0:
                counts.pop("vgprs"), counts.pop("sgprs")   # v2 schema default: not stated
            stated[name] = counts
    return stated


__all__ = ["GENERATIONS", "GenerationLimits", "KernelResources", "Occupancy", "occupancy",
           "resource_usage", "resource_usage_of_elf", "waves_with_vgprs", "waves_with_sgprs",
           "most_vgprs_for", "most_sgprs_for", "lds_allocation", "limits_of"]

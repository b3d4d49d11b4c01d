"""The emulated GPU node as the thunk reports it to the ROCm runtime.

The ISA facts (GFX major.minor.stepping, which features a processor has)
come from ``isa.targets``; this module adds what a KFD topology node also
says about a board: compute units, LDS, device id, clocks, apertures. The
values are the thunk's answer to hsaKmtGetNodeProperties and friends.
"""

from __future__ import annotations

from ..errors import ToolchainError
from ..exec.launch import APERTURE_SIZE, PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE
from ..isa.targets import TargetId, get_target

#: Processors the virtual GPU emulates, with the PCI device id of a board of
#: that generation (Fiji, Vega 10, Vega 20) and its marketing name.
BOARDS = {
    "gfx803": (0x7300, "Radeon R9 Fury (amdgpu-tools virtual gfx803)"),
    "gfx900": (0x6863, "Radeon Vega Frontier (amdgpu-tools virtual gfx900)"),
    "gfx906": (0x66A0, "Radeon Instinct MI50 (amdgpu-tools virtual gfx906)"),
}
DEFAULT_MCPU = "gfx900"

#: Kept small on purpose: programs size their grids by the CU count, and
#: each resident wave costs the executor time, not silicon.
COMPUTE_UNITS = 8
SIMDS_PER_CU = 4
WAVES_PER_SIMD = 10
LDS_KB = 64
#: Device memory the node advertises (allocations are lazily backed mmaps).
MEMORY_BYTES = 8 << 30


class VirtualGpuError(ToolchainError):
    """The virtual GPU cannot be set up as asked."""


def parse_mcpu(text: str | None) -> TargetId:
    """The target id ``--mcpu`` names, restricted to the emulated boards."""
    try:
        target_id = TargetId.of_device(text or DEFAULT_MCPU).check_supported()
    except ToolchainError as error:
        raise VirtualGpuError(str(error)) from None
    if target_id.processor not in BOARDS:
        raise VirtualGpuError(f"the virtual GPU emulates {', '.join(BOARDS)}; "
                              f"not '{text}'")
    return target_id


def node_facts(target_id: TargetId) -> dict:
    """The GPU node's properties, keyed as the thunk reads them."""
    target = get_target(target_id.processor)
    major, minor, stepping = target.isa_version
    device_id, marketing = BOARDS[target.name]
    return {
        "major": major, "minor": minor, "stepping": stepping,
        # a feature left as "any" is reported off, so code objects built for
        # either setting (or none) still find a matching ISA
        "xnack": int(bool(target_id.setting("xnack"))),
        "sramecc": int(bool(target_id.setting("sramecc"))),
        "compute_units": COMPUTE_UNITS, "simds_per_cu": SIMDS_PER_CU,
        "waves_per_simd": WAVES_PER_SIMD, "lds_kb": LDS_KB,
        "device_id": device_id, "engine_clock_mhz": 1500, "sdma_engines": 2,
        "memory_bytes": MEMORY_BYTES,
        "lds_base": SHARED_APERTURE_BASE, "scratch_base": PRIVATE_APERTURE_BASE,
        "scratch_bytes": APERTURE_SIZE,
        "name": target.name, "marketing_name": marketing,
    }

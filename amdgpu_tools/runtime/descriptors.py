"""Kernel descriptors as the dispatcher reads them: amd_kernel_code_t (v2) and
the 64-byte kernel descriptor (v3+), decoded into a ``KernelSetup``.

Field positions are those of AMDGPUUsage ("amd_kernel_code_t" of the HSA
runtime's amd_kernel_code.h, and "Kernel Descriptor" / compute_pgm_rsrc1/2).
The loader decodes a kernel's descriptor from the bytes mapped in device
memory, so what runs is exactly what the packet's kernel_object points at.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..exec.launch import KernelSetup

AMD_KERNEL_CODE_SIZE = 256
KERNEL_DESCRIPTOR_SIZE = 64

#: Bits shared by amd_kernel_code_t.kernel_code_properties and the v3
#: descriptor's kernel_code_properties: KernelSetup field -> bit.
_USER_SGPR_BITS = {
    "enable_sgpr_private_segment_buffer": 0,
    "enable_sgpr_dispatch_ptr": 1,
    "enable_sgpr_queue_ptr": 2,
    "enable_sgpr_kernarg_segment_ptr": 3,
    "enable_sgpr_dispatch_id": 4,
    "enable_sgpr_flat_scratch_init": 5,
    "enable_sgpr_private_segment_size": 6,
}
#: amd_kernel_code_t only: grid work-group counts in user SGPRs.
_V2_ONLY_BITS = {
    "enable_sgpr_grid_workgroup_count_x": 7,
    "enable_sgpr_grid_workgroup_count_y": 8,
    "enable_sgpr_grid_workgroup_count_z": 9,
}
#: compute_pgm_rsrc2 system SGPR / VGPR enables: field -> (low bit, width).
_RSRC2_FIELDS = {
    "enable_sgpr_private_segment_wave_offset": (0, 1),
    "user_sgpr_count": (1, 5),
    "enable_sgpr_workgroup_id_x": (7, 1),
    "enable_sgpr_workgroup_id_y": (8, 1),
    "enable_sgpr_workgroup_id_z": (9, 1),
    "enable_sgpr_workgroup_info": (10, 1),
    "enable_vgpr_workitem_id": (11, 2),
}
KD_ENABLE_WAVEFRONT_SIZE32_BIT = 10


def _bits(value: int, low: int, width: int) -> int:
    return value >> low & ((1 << width) - 1)


@dataclass(frozen=True)
class DecodedDescriptor:
    """A kernel's descriptor: the dispatcher's view plus loader-relevant sizes."""

    setup: KernelSetup
    kernarg_size: int
    kernarg_align: int
    compute_pgm_rsrc1: int
    compute_pgm_rsrc2: int


def _rsrc_fields(rsrc1: int, rsrc2: int) -> dict:
    fields = {name: _bits(rsrc2, low, width) for name, (low, width) in _RSRC2_FIELDS.items()}
    for name, value in list(fields.items()):
        if name.startswith("enable_sgpr"):
            fields[name] = bool(value)
    fields["float_mode"] = _bits(rsrc1, 12, 8)
    fields["dx10_clamp"] = bool(_bits(rsrc1, 21, 1))
    fields["ieee_mode"] = bool(_bits(rsrc1, 23, 1))
    return fields


def decode_amd_kernel_code(raw: bytes, address: int) -> DecodedDescriptor:
    """Decode a 256-byte amd_kernel_code_t located at ``address``."""
    (entry_offset,) = struct.unpack_from("<q", raw, 16)
    rsrc1, rsrc2, properties, private_size, group_size = struct.unpack_from("<5I", raw, 48)
    (kernarg_size,) = struct.unpack_from("<Q", raw, 72)
    sgprs, vgprs = struct.unpack_from("<2H", raw, 84)
    kernarg_align_log2, _, _, wavefront_log2 = struct.unpack_from("<4B", raw, 100)
    fields = _rsrc_fields(rsrc1, rsrc2)
    for name, bit in {**_USER_SGPR_BITS, **_V2_ONLY_BITS}.items():
        fields[name] = bool(properties >> bit & 1)
    setup = KernelSetup(
        entry_address=address + entry_offset,
        sgpr_count=sgprs or (_bits(rsrc1, 6, 4) + 1) * 8,
        vgpr_count=vgprs or (_bits(rsrc1, 0, 6) + 1) * 4,
        group_segment_fixed_size=group_size,
        private_segment_fixed_size=private_size,
        wavefront_size=1 << wavefront_log2 if wavefront_log2 else 64,
        **fields)
    return DecodedDescriptor(setup, kernarg_size, 1 << kernarg_align_log2 if kernarg_align_log2
                             else 16, rsrc1, rsrc2)


def decode_kernel_descriptor(raw: bytes, address: int) -> DecodedDescriptor:
    """Decode a 64-byte v3+ kernel descriptor located at ``address``."""
    group_size, private_size, kernarg_size = struct.unpack_from("<3I", raw, 0)
    (entry_offset,) = struct.unpack_from("<q", raw, 16)
    rsrc1, rsrc2 = struct.unpack_from("<2I", raw, 48)
    (properties,) = struct.unpack_from("<H", raw, 56)
    fields = _rsrc_fields(rsrc1, rsrc2)
    for name, bit in _USER_SGPR_BITS.items():
        fields[name] = bool(properties >> bit & 1)
    setup = KernelSetup(
        entry_address=address + entry_offset,
        sgpr_count=(_bits(rsrc1, 6, 4) + 1) * 8,
        vgpr_count=(_bits(rsrc1, 0, 6) + 1) * 4,
        group_segment_fixed_size=group_size,
        private_segment_fixed_size=private_size,
        wavefront_size=32 if properties >> KD_ENABLE_WAVEFRONT_SIZE32_BIT & 1 else 64,
        **fields)
    return DecodedDescriptor(setup, kernarg_size, 8, rsrc1, rsrc2)

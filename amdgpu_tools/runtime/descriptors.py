"""Kernel descriptors as the dispatcher reads them: amd_kernel_code_t (v2) and
the 64-byte kernel descriptor (v3+), decoded from the bytes mapped in device
memory, so what runs is exactly what a packet's kernel_object points at.

The field layouts and bit fields are the ELF layer's (``elf.kernel_code``,
``elf.kernel_descriptor``, ``elf.bitfields``); this module maps both kinds onto
the executor's ``KernelSetup`` (``kernel_setup``: real register counts, so the
runtime does not care which code object version a kernel came from) and adds
what the loader needs on top: the entry address relative to the descriptor's
load address and the kernarg segment size and alignment.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..elf.bitfields import AKC_CODE_PROPERTIES, FLOAT_MODE, KD_CODE_PROPERTIES, RSRC1, RSRC2
from ..elf.kernel_code import AmdKernelCodeT
from ..elf.kernel_descriptor import KernelDescriptor
from ..exec.launch import KernelSetup

#: kernarg alignment when amd_kernel_code_t leaves it 0 (the HSA minimum).
DEFAULT_KERNARG_ALIGN = 16


@dataclass(frozen=True)
class DecodedDescriptor:
    """A kernel's descriptor: the dispatcher's view plus loader-relevant sizes."""

    setup: KernelSetup
    kernarg_size: int
    kernarg_align: int


def decode_amd_kernel_code(raw: bytes, address: int) -> DecodedDescriptor:
    """Decode a 256-byte amd_kernel_code_t located at ``address``."""
    code = AmdKernelCodeT.from_bytes(raw)
    fields = code.fields
    setup = kernel_setup(code, address + fields["kernel_code_entry_byte_offset"])
    align_log2 = fields["kernarg_segment_alignment"]
    return DecodedDescriptor(setup, fields["kernarg_segment_byte_size"],
                             1 << align_log2 if align_log2 else DEFAULT_KERNARG_ALIGN)


def decode_kernel_descriptor(raw: bytes, address: int) -> DecodedDescriptor:
    """Decode a 64-byte v3+ kernel descriptor located at ``address``."""
    descriptor = KernelDescriptor.from_bytes(raw)
    fields = descriptor.fields
    setup = kernel_setup(descriptor, address + fields["kernel_code_entry_byte_offset"])
    return DecodedDescriptor(setup, fields["kernarg_size"], 8)


# ---- amd_kernel_code_t / kernel descriptor -> KernelSetup ---------------------
_USER_SGPR_BITS = ("enable_sgpr_private_segment_buffer", "enable_sgpr_dispatch_ptr",
                   "enable_sgpr_queue_ptr", "enable_sgpr_kernarg_segment_ptr",
                   "enable_sgpr_dispatch_id", "enable_sgpr_flat_scratch_init",
                   "enable_sgpr_private_segment_size")
_GRID_COUNT_BITS = ("enable_sgpr_grid_workgroup_count_x", "enable_sgpr_grid_workgroup_count_y",
                    "enable_sgpr_grid_workgroup_count_z")


def _resource_bits(rsrc1: int, rsrc2: int) -> dict:
    return {
        "user_sgpr_count": RSRC2["user_sgpr_count"].get(rsrc2),
        "enable_sgpr_private_segment_wave_offset": bool(RSRC2["enable_private_segment"].get(rsrc2)),
        "enable_sgpr_workgroup_id_x": bool(RSRC2["enable_sgpr_workgroup_id_x"].get(rsrc2)),
        "enable_sgpr_workgroup_id_y": bool(RSRC2["enable_sgpr_workgroup_id_y"].get(rsrc2)),
        "enable_sgpr_workgroup_id_z": bool(RSRC2["enable_sgpr_workgroup_id_z"].get(rsrc2)),
        "enable_sgpr_workgroup_info": bool(RSRC2["enable_sgpr_workgroup_info"].get(rsrc2)),
        "enable_vgpr_workitem_id": RSRC2["enable_vgpr_workitem_id"].get(rsrc2),
        "float_mode": FLOAT_MODE.get(rsrc1),
        "ieee_mode": bool(RSRC1["enable_ieee_mode"].get(rsrc1)),
        "dx10_clamp": bool(RSRC1["enable_dx10_clamp"].get(rsrc1)),
    }


def kernel_setup(descriptor, entry_address: int) -> KernelSetup:
    """The ``KernelSetup`` of a kernel whose code starts at ``entry_address``."""
    if isinstance(descriptor, AmdKernelCodeT):
        return _from_kernel_code(descriptor, entry_address)
    if isinstance(descriptor, KernelDescriptor):
        return _from_kernel_descriptor(descriptor, entry_address)
    raise TypeError(f"not a kernel descriptor: {type(descriptor).__name__}")


def _from_kernel_descriptor(kd: KernelDescriptor, entry_address: int) -> KernelSetup:
    properties = kd.fields["kernel_code_properties"]
    user_bits = {name: bool(KD_CODE_PROPERTIES[name].get(properties)) for name in _USER_SGPR_BITS}
    wave32 = KD_CODE_PROPERTIES["enable_wavefront_size32"].get(properties)
    return KernelSetup(
        entry_address=entry_address, sgpr_count=kd.sgpr_count, vgpr_count=kd.vgpr_count,
        group_segment_fixed_size=kd.fields["group_segment_fixed_size"],
        private_segment_fixed_size=kd.fields["private_segment_fixed_size"],
        wavefront_size=32 if wave32 else 64,
        **user_bits, **_resource_bits(kd.fields["compute_pgm_rsrc1"], kd.fields["compute_pgm_rsrc2"]))


def _from_kernel_code(akc: AmdKernelCodeT, entry_address: int) -> KernelSetup:
    properties = akc.fields["code_properties"]
    bits = {name: bool(AKC_CODE_PROPERTIES[name].get(properties))
            for name in _USER_SGPR_BITS + _GRID_COUNT_BITS}
    return KernelSetup(
        entry_address=entry_address, sgpr_count=akc.sgpr_count, vgpr_count=akc.vgpr_count,
        group_segment_fixed_size=akc.fields["workgroup_group_segment_byte_size"],
        private_segment_fixed_size=akc.fields["workitem_private_segment_byte_size"],
        wavefront_size=1 << akc.fields["wavefront_size"] if akc.fields["wavefront_size"] else 64,
        **bits, **_resource_bits(akc.fields["compute_pgm_rsrc1"], akc.fields["compute_pgm_rsrc2"]))

"""Bit fields of the compute program resource registers and code properties.

Declared once, as the ISA manuals and AMDGPUUsage write them (``[hi:lo]``),
and shared by the v2 ``amd_kernel_code_t`` and the v3+ kernel descriptor.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BitField:
    name: str
    lo: int
    width: int

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lo

    @property
    def max(self) -> int:
        return (1 << self.width) - 1

    def get(self, word: int) -> int:
        return (word >> self.lo) & self.max

    def put(self, word: int, value: int) -> int:
        return (word & ~self.mask) | ((value & self.max) << self.lo)


def _fields(*rows):
    return {name: BitField(name, lo, width) for name, lo, width in rows}


#: COMPUTE_PGM_RSRC1 (GFX6-GFX9; WGP/MEM_ORDERED/FWD_PROGRESS are GFX10+)
RSRC1 = _fields(
    ("granulated_workitem_vgpr_count", 0, 6),
    ("granulated_wavefront_sgpr_count", 6, 4),
    ("priority", 10, 2),
    ("float_round_mode_32", 12, 2),
    ("float_round_mode_16_64", 14, 2),
    ("float_denorm_mode_32", 16, 2),
    ("float_denorm_mode_16_64", 18, 2),
    ("priv", 20, 1),
    ("enable_dx10_clamp", 21, 1),
    ("debug_mode", 22, 1),
    ("enable_ieee_mode", 23, 1),
    ("bulky", 24, 1),
    ("cdbg_user", 25, 1),
    ("fp16_ovfl", 26, 1),
    ("enable_wgp_mode", 29, 1),
    ("enable_mem_ordered", 30, 1),
    ("enable_fwd_progress", 31, 1),
)
#: the four float mode fields taken together, as amd_kernel_code_t names them
FLOAT_MODE = BitField("float_mode", 12, 8)

#: COMPUTE_PGM_RSRC2
RSRC2 = _fields(
    ("enable_private_segment", 0, 1),
    ("user_sgpr_count", 1, 5),
    ("enable_trap_handler", 6, 1),
    ("enable_sgpr_workgroup_id_x", 7, 1),
    ("enable_sgpr_workgroup_id_y", 8, 1),
    ("enable_sgpr_workgroup_id_z", 9, 1),
    ("enable_sgpr_workgroup_info", 10, 1),
    ("enable_vgpr_workitem_id", 11, 2),
    ("enable_exception_address_watch", 13, 1),
    ("enable_exception_memory", 14, 1),
    ("granulated_lds_size", 15, 9),
    ("enable_exception_ieee_754_fp_invalid_operation", 24, 1),
    ("enable_exception_fp_denormal_source", 25, 1),
    ("enable_exception_ieee_754_fp_division_by_zero", 26, 1),
    ("enable_exception_ieee_754_fp_overflow", 27, 1),
    ("enable_exception_ieee_754_fp_underflow", 28, 1),
    ("enable_exception_ieee_754_fp_inexact", 29, 1),
    ("enable_exception_int_division_by_zero", 30, 1),
)
EXCEPTION_MSB = BitField("enable_exception_msb", 13, 2)
EXCEPTION = BitField("enable_exception", 24, 7)

#: COMPUTE_PGM_RSRC3 (GFX90A only, listed for decoding)
RSRC3 = _fields(("accum_offset", 0, 6), ("tg_split", 16, 1))

#: The v3+ kernel descriptor's 16-bit kernel_code_properties
KD_CODE_PROPERTIES = _fields(
    ("enable_sgpr_private_segment_buffer", 0, 1),
    ("enable_sgpr_dispatch_ptr", 1, 1),
    ("enable_sgpr_queue_ptr", 2, 1),
    ("enable_sgpr_kernarg_segment_ptr", 3, 1),
    ("enable_sgpr_dispatch_id", 4, 1),
    ("enable_sgpr_flat_scratch_init", 5, 1),
    ("enable_sgpr_private_segment_size", 6, 1),
    ("enable_wavefront_size32", 10, 1),
    ("uses_dynamic_stack", 11, 1),
)

#: amd_kernel_code_t's 32-bit code_properties
AKC_CODE_PROPERTIES = _fields(
    ("enable_sgpr_private_segment_buffer", 0, 1),
    ("enable_sgpr_dispatch_ptr", 1, 1),
    ("enable_sgpr_queue_ptr", 2, 1),
    ("enable_sgpr_kernarg_segment_ptr", 3, 1),
    ("enable_sgpr_dispatch_id", 4, 1),
    ("enable_sgpr_flat_scratch_init", 5, 1),
    ("enable_sgpr_private_segment_size", 6, 1),
    ("enable_sgpr_grid_workgroup_count_x", 7, 1),
    ("enable_sgpr_grid_workgroup_count_y", 8, 1),
    ("enable_sgpr_grid_workgroup_count_z", 9, 1),
    ("enable_wavefront_size32", 10, 1),
    ("enable_ordered_append_gds", 16, 1),
    ("private_element_size", 17, 2),
    ("is_ptr64", 19, 1),
    ("is_dynamic_callstack", 20, 1),
    ("is_debug_enabled", 21, 1),
    ("is_xnack_enabled", 22, 1),
)

#: Register allocation granules: COMPUTE_PGM_RSRC1 stores ceil(count / granule) - 1
#: (GFX6-GFX9, wave64), so a descriptor's real register budget is (field + 1) * granule.
VGPR_GRANULE = 4
SGPR_GRANULE = 8

#: User SGPRs each enable bit adds, in the order the ABI assigns them.
USER_SGPR_SIZES = {
    "enable_sgpr_private_segment_buffer": 4,
    "enable_sgpr_dispatch_ptr": 2,
    "enable_sgpr_queue_ptr": 2,
    "enable_sgpr_kernarg_segment_ptr": 2,
    "enable_sgpr_dispatch_id": 2,
    "enable_sgpr_flat_scratch_init": 2,
    "enable_sgpr_private_segment_size": 1,
}

// golden: mc=19 mcpu=gfx906 cov=4
// Code object v4 directives of llvm-mc 19: a kernel descriptor with many
// .amdhsa_* keys, LDS symbols (only referenced ones reach the symbol table),
// a local kernel.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
.globl big
.p2align 8
.type big,@function
big:
  .long 0xbf810000
.Lbig_end:
  .size big, .Lbig_end - big
.p2align 8
.type small,@function
small:
  .long 0xbf810000
.amdgpu_lds lds_buffer, 4096, 16
.amdgpu_lds lds_default, 100
.amdgpu_lds lds_unused, 8
  .long lds_buffer, lds_default + 4
.rodata
.p2align 6
.amdhsa_kernel big
  .amdhsa_group_segment_fixed_size 4096
  .amdhsa_private_segment_fixed_size 64
  .amdhsa_kernarg_size 40
  .amdhsa_user_sgpr_private_segment_buffer 1
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_queue_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 1
  .amdhsa_user_sgpr_flat_scratch_init 1
  .amdhsa_user_sgpr_private_segment_size 1
  .amdhsa_system_sgpr_private_segment_wavefront_offset 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_sgpr_workgroup_id_z 1
  .amdhsa_system_sgpr_workgroup_info 1
  .amdhsa_system_vgpr_workitem_id 2
  .amdhsa_next_free_vgpr 70
  .amdhsa_next_free_sgpr 40
  .amdhsa_reserve_vcc 0
  .amdhsa_reserve_flat_scratch 0
  .amdhsa_float_round_mode_32 1
  .amdhsa_float_round_mode_16_64 2
  .amdhsa_float_denorm_mode_32 3
  .amdhsa_float_denorm_mode_16_64 0
  .amdhsa_dx10_clamp 0
  .amdhsa_ieee_mode 0
  .amdhsa_exception_fp_ieee_invalid_op 1
  .amdhsa_exception_fp_denorm_src 1
  .amdhsa_exception_fp_ieee_div_zero 1
  .amdhsa_exception_fp_ieee_overflow 1
  .amdhsa_exception_fp_ieee_underflow 1
  .amdhsa_exception_fp_ieee_inexact 1
  .amdhsa_exception_int_div_zero 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel small
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
.end_amdhsa_kernel

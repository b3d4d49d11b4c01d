// A code object v2 kernel that never ends: for watchdog tests.
.hsa_code_object_version 2,1
.hsa_code_object_isa
.text
.amdgpu_hsa_kernel spin
spin:
  .amd_kernel_code_t
     enable_sgpr_kernarg_segment_ptr = 1
     is_ptr64 = 1
     compute_pgm_rsrc2_user_sgpr = 2
     kernarg_segment_byte_size = 8
     wavefront_sgpr_count = 4
     workitem_vgpr_count = 1
  .end_amd_kernel_code_t
.Lloop:
  s_add_u32 s2, s2, 1
  s_branch .Lloop
  s_endpgm
.Lfunc_end0:
  .size spin, .Lfunc_end0-spin

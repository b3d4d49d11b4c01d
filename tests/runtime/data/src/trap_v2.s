// A code object v2 kernel that raises s_trap 2 (a kernel error) after
// storing 1 to its buffer argument.
.hsa_code_object_version 2,1
.hsa_code_object_isa
.text
.amdgpu_hsa_kernel trap
trap:
  .amd_kernel_code_t
     enable_sgpr_kernarg_segment_ptr = 1
     is_ptr64 = 1
     compute_pgm_rsrc2_user_sgpr = 2
     kernarg_segment_byte_size = 8
     wavefront_sgpr_count = 4
     workitem_vgpr_count = 3
  .end_amd_kernel_code_t
  s_load_dwordx2 s[0:1], s[0:1] 0x0
  v_mov_b32 v0, 1
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, s0
  v_mov_b32 v2, s1
  flat_store_dword v[1:2], v0
  s_waitcnt vmcnt(0)
  s_trap 2
  s_endpgm
.Lfunc_end0:
  .size trap, .Lfunc_end0-trap

// A code object v2 kernel with assorted GFX7/GFX8 instructions (llvm-mc 14, gfx700 and gfx803).
.hsa_code_object_version 2,1
.hsa_code_object_isa
.text
.globl k
.p2align 8
.type k,@function
.amdgpu_hsa_kernel k
k:
.amd_kernel_code_t
  enable_sgpr_kernarg_segment_ptr = 1
  user_sgpr_count = 2
  wavefront_sgpr_count = 16
  workitem_vgpr_count = 8
.end_amd_kernel_code_t
  s_mov_b32 s8, 0
  s_add_u32 s9, s8, 4
  s_cmp_eq_u32 s8, s9
  s_cbranch_scc0 .Lskip
  v_mov_b32 v1, s8
  v_add_f32 v2, v1, v0
  v_mul_f32 v3, 2.0, v2
  v_mad_f32 v4, v1, v2, v3
  v_cmp_gt_f32 vcc, v4, v1
  v_cndmask_b32 v5, v1, v2, vcc
  ds_write_b32 v0, v5
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v6, v0
  buffer_load_dword v7, v0, s[12:15], 0 offen
  flat_load_dword v7, v[2:3]
  s_waitcnt vmcnt(0) lgkmcnt(0)
.Lskip:
  s_endpgm
.Lfunc_end0:
.size k, .Lfunc_end0-k

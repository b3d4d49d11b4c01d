// golden: mc=14 mcpu=gfx701 cov=2
// A code object v2 kernel for gfx701 (SMRD, no SDWA/DPP) with a local label
// loop and both v2 notes.
.hsa_code_object_version 2,1
.hsa_code_object_isa
.text
.globl count_down
.amdgpu_hsa_kernel count_down
count_down:
  .amd_kernel_code_t
    enable_sgpr_kernarg_segment_ptr = 1
    is_ptr64 = 1
    compute_pgm_rsrc1_vgprs = 0
    compute_pgm_rsrc1_sgprs = 1
    compute_pgm_rsrc2_user_sgpr = 2
    kernarg_segment_byte_size = 8
    wavefront_sgpr_count = 5
    workitem_vgpr_count = 2
  .end_amd_kernel_code_t
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  s_mov_b32 s2, 10
1:
  s_sub_u32 s2, s2, 1
  s_cmp_lg_u32 s2, 0
  s_cbranch_scc1 1b
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v0, s0
  v_mov_b32_e32 v1, s1
  v_mov_b32_e32 v2, 0x4048f5c3
  flat_store_dword v[0:1], v2
  s_endpgm
.Lcount_down_end:
  .size count_down, .Lcount_down_end-count_down

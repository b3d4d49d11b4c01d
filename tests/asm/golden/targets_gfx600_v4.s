// golden: mc=19 mcpu=gfx600 cov=4
// A minimal kernel for gfx600 (code object v4): e_flags, descriptor defaults, notes.
.amdgcn_target "amdgcn-amd-amdhsa--gfx600"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dword s2, s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v1, s2
  v_add_f32_e32 v1, 1.0, v1
  s_endpgm
.Lk_end:
  .size k, .Lk_end-k
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 3
.end_amdhsa_kernel

// golden: mc=14 mcpu=gfx803 cov=3
// Code object v3 spells target ids with +xnack/+sram-ecc for features on or any and sets
// one e_flags bit per such feature, as llvm-mc 14 does.
.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel

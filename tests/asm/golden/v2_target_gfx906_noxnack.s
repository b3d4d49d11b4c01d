// golden: mc=14 mcpu=gfx906 cov=2 mattr=-xnack
// Code object v2 names xnack-enabled processors by an ISA of their own (gfx900 -> gfx901,
// stepping + 1) and sets the v3-style xnack e_flags bit, as llvm-mc 14 / clang-14 do.
.hsa_code_object_version 2,1
.hsa_code_object_isa
.amd_amdgpu_isa "amdgcn-amd-amdhsa--gfx906"
.text
.amdgpu_hsa_kernel k
.globl k
k:
  .amd_kernel_code_t
  .end_amd_kernel_code_t
  s_endpgm

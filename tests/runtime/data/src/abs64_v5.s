// Default-visibility data referring to a global: ld.lld keeps R_AMDGPU_ABS64
// dynamic relocations against the symbol, which the loader resolves.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_endpgm
.data
.globl table
.p2align 3
table:
  .quad value
  .quad value+4
.globl value
value:
  .long 1, 2
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 1
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
...
.end_amdgpu_metadata

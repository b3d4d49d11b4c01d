// A hidden function and two globals used by v5_kernel_call.s, plus a second
// kernel so that the linked metadata has two kernels from two objects.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl helper
.hidden helper
.p2align 2
.type helper,@function
helper:
  s_mov_b32 s10, 7
  s_setpc_b64 s[30:31]
.Lhelper_end:
.size helper, .Lhelper_end-helper

.globl second
.p2align 8
.type second,@function
second:
  s_mov_b32 s0, 1
  s_endpgm
.Lsecond_end:
.size second, .Lsecond_end-second

.rodata
.p2align 6
.amdhsa_kernel second
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel

.data
.globl counter
.hidden counter
.p2align 2
.type counter,@object
counter: .long 5
.size counter, 4
.globl table
.p2align 3
.type table,@object
table: .quad counter, table
.size table, 16

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: second
    .symbol: second.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 4
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 1
    .max_flat_workgroup_size: 256
...
.end_amdgpu_metadata

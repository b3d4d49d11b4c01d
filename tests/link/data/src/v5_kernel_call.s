// A kernel calling a function defined in another object (v5_func.s) and
// reading globals through the GOT (one hidden, one exported).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl caller
.p2align 8
.type caller,@function
caller:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, helper@rel32@lo+4
  s_addc_u32 s5, s5, helper@rel32@hi+12
  s_swappc_b64 s[30:31], s[4:5]
  s_getpc_b64 s[6:7]
  s_add_u32 s6, s6, counter@gotpcrel32@lo+4
  s_addc_u32 s7, s7, counter@gotpcrel32@hi+12
  s_load_dwordx2 s[6:7], s[6:7], 0x0
  s_getpc_b64 s[8:9]
  s_add_u32 s8, s8, table@gotpcrel32@lo+4
  s_addc_u32 s9, s9, table@gotpcrel32@hi+12
  s_load_dwordx2 s[8:9], s[8:9], 0x0
  s_waitcnt lgkmcnt(0)
  s_load_dword s10, s[6:7], 0x0
  s_endpgm
.Lcaller_end:
.size caller, .Lcaller_end-caller

.rodata
.p2align 6
.amdhsa_kernel caller
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 16
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: caller
    .symbol: caller.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 16
    .kernarg_segment_align: 4
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 1
    .max_flat_workgroup_size: 256
...
.end_amdgpu_metadata

// golden: mc=19 mcpu=gfx900
// global_via_got: out[i] = base_value + i, where base_value is a global
// variable (in .data, initially 1000) whose address the kernel reads from the
// GOT (R_AMDGPU_GOTPCREL32_LO/HI), as compiled code does for extern globals.
// Build and run:
//   amdgpu-as --mcpu=gfx900 global_via_got.s -o global_via_got.o
//   amdgpu-ld -shared global_via_got.o -o global_via_got.hsaco
//   amdgpu-run global_via_got.hsaco --grid 64 --block 64 --arg buf:int32[64] --save 0=out.npy
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.text
.globl global_via_got
.p2align 8
.type global_via_got,@function
global_via_got:
  // s[0:1] kernarg segment, s2 work-group id x, v0 work-item id x
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, base_value@gotpcrel32@lo+4
  s_addc_u32 s5, s5, base_value@gotpcrel32@hi+12
  s_load_dwordx2 s[4:5], s[4:5], 0x0    // &base_value, from the GOT
  s_load_dwordx2 s[6:7], s[0:1], 0x0    // out
  s_waitcnt lgkmcnt(0)
  s_load_dword s8, s[4:5], 0x0          // base_value
  s_lshl_b32 s3, s2, 6                  // 64 work-items per group
  v_add_u32_e32 v0, s3, v0
  v_lshlrev_b32_e32 v2, 2, v0
  s_waitcnt lgkmcnt(0)
  v_add_u32_e32 v1, s8, v0
  global_store_dword v2, v1, s[6:7]
  s_endpgm
.Lglobal_via_got_end:
  .size global_via_got, .Lglobal_via_got_end-global_via_got

.data
.globl base_value
.p2align 2
.type base_value,@object
base_value:
  .long 1000
  .size base_value, 4

.rodata
.p2align 6
.amdhsa_kernel global_via_got
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 9
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: global_via_got
    .symbol: global_via_got.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 15
    .vgpr_count: 3
    .max_flat_workgroup_size: 64
    .reqd_workgroup_size: [ 64, 1, 1 ]
    .args:
      - { .name: output, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: write_only }
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata

// golden: mc=19 mcpu=gfx900
// call_kernel: out[i] = scale_by_two(in[i]) for 64 work-items per group, where
// scale_by_two is a function defined in another file (call_function.s),
// reached through s_getpc_b64 + a PC-relative R_AMDGPU_REL32_LO/HI pair and
// s_swappc_b64. Build (two objects, one linked code object) and run:
//   amdgpu-as --mcpu=gfx900 call_kernel.s -o call_kernel.o
//   amdgpu-as --mcpu=gfx900 call_function.s -o call_function.o
//   amdgpu-ld -shared call_kernel.o call_function.o -o call.hsaco
//   amdgpu-run call.hsaco --grid 64 --block 64 --arg buf:in.npy --arg buf:float32[64] --save 1=out.npy
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.text
.globl call_kernel
.p2align 8
.type call_kernel,@function
call_kernel:
  // s[0:1] kernarg segment, s2 work-group id x, v0 work-item id x
  s_load_dwordx4 s[4:7], s[0:1], 0x0    // in, out
  s_lshl_b32 s3, s2, 6                  // 64 work-items per group
  v_add_u32_e32 v0, s3, v0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v0, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_getpc_b64 s[8:9]
  s_add_u32 s8, s8, scale_by_two@rel32@lo+4
  s_addc_u32 s9, s9, scale_by_two@rel32@hi+12
  s_swappc_b64 s[30:31], s[8:9]         // v0 = scale_by_two(v0); only v0 is clobbered
  global_store_dword v1, v0, s[6:7]
  s_endpgm
.Lcall_kernel_end:
  .size call_kernel, .Lcall_kernel_end-call_kernel

.rodata
.p2align 6
.amdhsa_kernel call_kernel
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 32
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: call_kernel
    .symbol: call_kernel.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 38
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .reqd_workgroup_size: [ 64, 1, 1 ]
    .args:
      - { .name: input, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: output, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: write_only }
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata

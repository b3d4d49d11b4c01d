// golden: mc=19 mcpu=gfx900
// vector_add: c[i] = a[i] + b[i] for i < n (float32), one work-item per element.
// Code object v5 for gfx900. Build and run:
//   amdgpu-as --mcpu=gfx900 vector_add.s -o vector_add.o
//   amdgpu-ld -shared vector_add.o -o vector_add.hsaco
//   amdgpu-run vector_add.hsaco --grid 1024 --block 64 \
//       --arg buf:a.npy --arg buf:b.npy --arg buf:float32[1024] --arg i32:1024 --save 2=c.npy
// (llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx900 -filetype=obj assembles it too.)
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.text
.globl vector_add
.p2align 8
.type vector_add,@function
vector_add:
  // s[0:1] dispatch packet, s[2:3] kernarg segment, s4 work-group id x, v0 work-item id x
  s_load_dword s5, s[0:1], 0x4          // workgroup_size_x | workgroup_size_y << 16
  s_load_dwordx4 s[8:11], s[2:3], 0x0   // a, b
  s_load_dwordx2 s[12:13], s[2:3], 0x10 // c
  s_load_dword s14, s[2:3], 0x18        // n
  s_waitcnt lgkmcnt(0)
  s_and_b32 s5, s5, 0xffff
  s_mul_i32 s5, s4, s5
  v_add_u32_e32 v0, s5, v0              // global id
  v_cmp_gt_u32_e32 vcc, s14, v0         // inside the array?
  s_and_saveexec_b64 s[16:17], vcc
  s_cbranch_execz .Ldone
  v_lshlrev_b32_e32 v1, 2, v0           // byte offset
  global_load_dword v2, v1, s[8:9]
  global_load_dword v3, v1, s[10:11]
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v2, v2, v3
  global_store_dword v1, v2, s[12:13]
.Ldone:
  s_endpgm
.Lvector_add_end:
  .size vector_add, .Lvector_add_end-vector_add

.rodata
.p2align 6
.amdhsa_kernel vector_add
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 28
  .amdhsa_next_free_vgpr 4
  .amdhsa_next_free_sgpr 18
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: vector_add
    .symbol: vector_add.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: a, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: b, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: c, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: write_only }
      - { .name: count, .offset: 24, .size: 4, .value_kind: by_value }
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata

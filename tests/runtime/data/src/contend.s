// contend: every work-item adds (global id + 1) to one of 8 global counters
// (global_atomic_add with return) and 0.1 * (global id + 1) to one LDS float of
// its work-group (ds_add_rtn_f32), and stores both returned old values. The
// returned values and the float sum depend on the order atomics are applied
// in: the determinism tests run it twice and compare every bit.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.text
.globl contend
.p2align 8
.type contend,@function
contend:
  s_load_dword s5, s[0:1], 0x4          // workgroup_size_x | workgroup_size_y << 16
  s_load_dwordx4 s[8:11], s[2:3], 0x0   // counters, out
  s_load_dwordx2 s[12:13], s[2:3], 0x10 // fout
  s_waitcnt lgkmcnt(0)
  s_and_b32 s5, s5, 0xffff
  s_mul_i32 s5, s4, s5
  v_add_u32_e32 v7, s5, v0              // global id
  v_mov_b32_e32 v8, 0
  v_cmp_eq_u32_e32 vcc, 0, v0           // work-item 0 clears the LDS float
  s_and_saveexec_b64 s[16:17], vcc
  ds_write_b32 v8, v8
  s_or_b64 exec, exec, s[16:17]
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_and_b32_e32 v1, 7, v7
  v_lshlrev_b32_e32 v1, 2, v1           // counter byte offset
  v_add_u32_e32 v2, 1, v7               // global id + 1
  global_atomic_add v3, v1, v2, s[8:9] glc
  v_lshlrev_b32_e32 v4, 2, v7
  v_cvt_f32_u32_e32 v5, v2
  v_mul_f32_e32 v5, 0x3dcccccd, v5      // 0.1 * (global id + 1)
  ds_add_rtn_f32 v6, v8, v5
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dword v4, v3, s[10:11]
  global_store_dword v4, v6, s[12:13]
  s_endpgm
.Lcontend_end:
  .size contend, .Lcontend_end-contend

.rodata
.p2align 6
.amdhsa_kernel contend
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 24
  .amdhsa_group_segment_fixed_size 4
  .amdhsa_next_free_vgpr 9
  .amdhsa_next_free_sgpr 18
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: contend
    .symbol: contend.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 4
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 9
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: counters, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: fout, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata

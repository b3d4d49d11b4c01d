// golden: mc=19 mcpu=gfx900
// lds_reduce: each work-group of 256 work-items sums its 256 floats of `input`
// with a tree reduction in LDS (s_barrier between steps) and writes the sum to
// partial[work-group id]. Launch with block 256 and grid = 256 * groups.
// Code object v5 for gfx900. Build and run:
//   amdgpu-as --mcpu=gfx900 lds_reduce.s -o lds_reduce.o && amdgpu-ld -shared lds_reduce.o -o lds_reduce.hsaco
//   amdgpu-run lds_reduce.hsaco --grid 1024 --block 256 --arg buf:input.npy \
//       --arg buf:float32[4] --save 1=partial.npy
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.set GROUP_SIZE, 256

.text
.globl lds_reduce
.p2align 8
.type lds_reduce,@function
lds_reduce:
  // s[0:1] kernarg segment, s2 work-group id x, v0 work-item id x
  s_load_dwordx4 s[4:7], s[0:1], 0x0    // input, partial
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s3, s2, 8                  // first element of this group (GROUP_SIZE = 256)
  v_add_u32_e32 v2, s3, v0
  v_lshlrev_b32_e32 v2, 2, v2
  global_load_dword v3, v2, s[4:5]
  v_lshlrev_b32_e32 v1, 2, v0           // this work-item's LDS slot
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v3
  s_waitcnt lgkmcnt(0)
  s_barrier
  s_movk_i32 s8, GROUP_SIZE / 2         // active half
.Lstep:
  v_cmp_gt_u32_e32 vcc, s8, v0
  s_and_saveexec_b64 s[10:11], vcc
  s_cbranch_execz .Lsync
  s_lshl_b32 s9, s8, 2
  v_add_u32_e32 v4, s9, v1
  ds_read_b32 v5, v1
  ds_read_b32 v6, v4
  s_waitcnt lgkmcnt(0)
  v_add_f32_e32 v5, v5, v6
  ds_write_b32 v1, v5
  s_waitcnt lgkmcnt(0)
.Lsync:
  s_or_b64 exec, exec, s[10:11]
  s_barrier
  s_lshr_b32 s8, s8, 1
  s_cmp_lg_u32 s8, 0
  s_cbranch_scc1 .Lstep
  v_cmp_eq_u32_e32 vcc, 0, v0           // work-item 0 writes the group's sum
  s_and_saveexec_b64 s[10:11], vcc
  s_cbranch_execz .Lreduce_done
  v_mov_b32_e32 v4, 0
  ds_read_b32 v5, v4
  s_lshl_b32 s3, s2, 2
  v_mov_b32_e32 v6, s3
  s_waitcnt lgkmcnt(0)
  global_store_dword v6, v5, s[6:7]
.Lreduce_done:
  s_endpgm
.Llds_reduce_end:
  .size lds_reduce, .Llds_reduce_end-lds_reduce

.rodata
.p2align 6
.amdhsa_kernel lds_reduce
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size GROUP_SIZE * 4
  .amdhsa_kernarg_size 16
  .amdhsa_next_free_vgpr 7
  .amdhsa_next_free_sgpr 12
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: lds_reduce
    .symbol: lds_reduce.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 18
    .vgpr_count: 7
    .max_flat_workgroup_size: 256
    .reqd_workgroup_size: [ 256, 1, 1 ]
    .args:
      - { .name: input, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: partial, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: write_only }
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata

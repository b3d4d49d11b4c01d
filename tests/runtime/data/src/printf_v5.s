// Code object v5 printf through the printf buffer (hidden_printf_buffer and
// amdhsa.printf), written by hand as the compiler lowers OpenCL printf:
// each work-item reserves 8 bytes with an atomic add on the buffer's "used"
// word, then stores the format id and its argument (value + work-item id).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl printf_v5
.p2align 8
.type printf_v5,@function
printf_v5:
  s_load_dwordx2 s[2:3], s[0:1], 0x8
  s_load_dword s4, s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_add_u32 v4, s4, v0
  v_mov_b32 v5, 0
  v_mov_b32 v1, 8
  global_atomic_add v2, v5, v1, s[2:3] glc
  s_waitcnt vmcnt(0)
  v_add_u32 v2, 8, v2
  v_mov_b32 v3, 1
  global_store_dwordx2 v2, v[3:4], s[2:3]
  s_endpgm
.Lfunc_end0:
  .size printf_v5, .Lfunc_end0-printf_v5

.rodata
.p2align 6
.amdhsa_kernel printf_v5
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 6
  .amdhsa_next_free_sgpr 8
  .amdhsa_kernarg_size 16
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.printf: ['1:1:4:value=%d\n']
amdhsa.kernels:
  - .name: printf_v5
    .symbol: printf_v5.kd
    .args:
      - {.offset: 0, .size: 4, .value_kind: by_value, .type_name: int, .name: value}
      - {.offset: 8, .size: 8, .value_kind: hidden_printf_buffer}
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 6
    .max_flat_workgroup_size: 64
...
.end_amdgpu_metadata

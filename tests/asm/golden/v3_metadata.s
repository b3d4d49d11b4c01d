// golden: mc=19 mcpu=gfx900
// Code object v5 metadata in YAML, written to the note as MessagePack.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
  .long 0xbf810000
.Lk_end:
  .size k, .Lk_end-k
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 8
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 272
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space: global
        .name: out
        .offset: 0
        .size: 8
        .value_kind: global_buffer
      - .name: scale
        .offset: 8
        .size: 4
        .value_kind: by_value
      - .offset: 16
        .size: 4
        .value_kind: hidden_block_count_x
      - .offset: 20
        .size: 4
        .value_kind: hidden_block_count_y
      - .offset: 24
        .size: 4
        .value_kind: hidden_block_count_z
      - .offset: 28
        .size: 2
        .value_kind: hidden_group_size_x
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 272
    .language: OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name: k
    .private_segment_fixed_size: 0
    .sgpr_count: 10
    .sgpr_spill_count: 0
    .symbol: k.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count: 3
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.printf:
  - '1:4:value %d\n'
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata

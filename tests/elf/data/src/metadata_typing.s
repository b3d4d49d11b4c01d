// How llvm-mc 19 types YAML scalars in .amdgpu_metadata (quotes do not matter).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.printf:
  - '1:1:4:%d\n'
  - "2:0:hello"
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: '16'
    .group_segment_fixed_size: 0x10
    .private_segment_fixed_size: 010
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 0b101
    .vgpr_count: 300
    .max_flat_workgroup_size: 70000
    .uses_dynamic_stack: yes
    .t1: True
    .t2: 'false'
    .t3: OFF
    .f1: 1.5
    .f2: +5
    .e: ''
    .n1: ~
    .n2: null
    .neg: -3
    .neg2: -200
    .neg3: -40000
    .big: 18446744073709551615
    .big2: 5000000000
    .s: hello world
    .long_string_longer_than_thirty_one: "abcdefghijklmnopqrstuvwxyz0123456789"
    .empty_list: []
    .empty_map: {}
    .mixed: [1, a, 'b', true]
    .args:
      - .size: 8
        .offset: 0
        .value_kind: global_buffer
        .address_space: global
        .access: read_only
        .is_const: true
        .name: in
        .type_name: 'int*'
      - .size: 4
        .offset: 8
        .value_kind: by_value
        .name: count
        .type_name: int
      - .size: 4
        .offset: 12
        .value_kind: dynamic_shared_pointer
        .address_space: local
        .pointee_align: 16
  - .name: second
    .symbol: second.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 4
    .wavefront_size: 64
    .sgpr_count: 1
    .vgpr_count: 1
    .max_flat_workgroup_size: 1024
    .reqd_workgroup_size: [64, 1, 1]
    .language: OpenCL C
    .language_version: [2, 0]
...
.end_amdgpu_metadata

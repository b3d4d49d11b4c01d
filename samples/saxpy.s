// golden: mc=19 mcpu=gfx900
// saxpy: y[i] = a * x[i] + y[i] for i < n (float32), one work-item per element.
// Kernel arguments: n (i32), a (f32), x (float*), y (float*).
// Code object v5 for gfx900. Build and run:
//   amdgpu-as --mcpu=gfx900 saxpy.s -o saxpy.o && amdgpu-ld -shared saxpy.o -o saxpy.hsaco
//   amdgpu-run saxpy.hsaco --grid 1024 --block 256 --arg i32:1000 --arg f32:2.5 \
//       --arg buf:x.npy --arg buf:y.npy --save 3=y_out.npy
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.text
.globl saxpy
.p2align 8
.type saxpy,@function
saxpy:
  // s[0:1] dispatch packet, s[2:3] kernarg segment, s4 work-group id x, v0 work-item id x
  s_load_dword s5, s[0:1], 0x4          // workgroup_size_x in the low half
  s_load_dwordx2 s[6:7], s[2:3], 0x0    // n, a
  s_load_dwordx4 s[8:11], s[2:3], 0x8   // x, y
  s_waitcnt lgkmcnt(0)
  s_and_b32 s5, s5, 0xffff
  s_mul_i32 s5, s4, s5
  v_add_u32_e32 v0, s5, v0              // global id
  v_cmp_gt_i32_e32 vcc, s6, v0
  s_and_saveexec_b64 s[12:13], vcc
  s_cbranch_execz .Lsaxpy_done
  v_lshlrev_b32_e32 v1, 2, v0
  global_load_dword v2, v1, s[8:9]      // x[i]
  global_load_dword v3, v1, s[10:11]    // y[i]
  s_waitcnt vmcnt(0)
  v_mac_f32_e32 v3, s7, v2              // y += a * x
  global_store_dword v1, v3, s[10:11]
.Lsaxpy_done:
  s_endpgm
.Lsaxpy_end:
  .size saxpy, .Lsaxpy_end-saxpy

.rodata
.p2align 6
.amdhsa_kernel saxpy
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 24
  .amdhsa_next_free_vgpr 4
  .amdhsa_next_free_sgpr 14
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: saxpy
    .symbol: saxpy.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 20
    .vgpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: count, .offset: 0, .size: 4, .value_kind: by_value }
      - { .name: alpha, .offset: 4, .size: 4, .value_kind: by_value }
      - { .name: x_in, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: y_inout, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata

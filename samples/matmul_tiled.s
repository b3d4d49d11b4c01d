// golden: mc=19 mcpu=gfx900
// matmul_tiled: C = A x B for N x N float32 matrices (row-major, N a multiple
// of 16), with 16x16 tiles of A and B staged in LDS; one work-item per element
// of C. Launch with block (16,16) and grid (N,N).
// Kernel arguments: A, B, C (float*), N (i32).
// Code object v5 for gfx900. Build and run:
//   amdgpu-as --mcpu=gfx900 matmul_tiled.s -o matmul_tiled.o
//   amdgpu-ld -shared matmul_tiled.o -o matmul_tiled.hsaco
//   amdgpu-run matmul_tiled.hsaco --grid 64,64 --block 16,16 --arg buf:a.npy --arg buf:b.npy \
//       --arg buf:float32[64,64] --arg i32:64 --save 2=c.npy
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.set TILE, 16
.set B_TILE_LDS, TILE * TILE * 4       // B's tile follows A's in LDS

.text
.globl matmul_tiled
.p2align 8
.type matmul_tiled,@function
matmul_tiled:
  // s[0:1] kernarg segment, s2/s3 work-group id x/y, v0/v1 work-item id x/y
  s_load_dwordx4 s[4:7], s[0:1], 0x0    // A, B
  s_load_dwordx2 s[8:9], s[0:1], 0x10   // C
  s_load_dword s10, s[0:1], 0x18        // N
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s11, s10, 2                // bytes per row
  s_lshl_b32 s16, s10, 6                // bytes per TILE rows
  s_lshr_b32 s17, s10, 4                // number of tiles along k
  s_mov_b64 s[12:13], s[4:5]            // A tile column pointer
  s_mov_b64 s[14:15], s[6:7]            // B tile row pointer
  s_lshl_b32 s18, s3, 4
  v_add_u32_e32 v2, s18, v1             // row of C
  s_lshl_b32 s18, s2, 4
  v_add_u32_e32 v3, s18, v0             // column of C
  v_lshlrev_b32_e32 v7, 2, v0           // tx * 4
  v_mul_lo_u32 v4, v2, s11
  v_add_u32_e32 v4, v4, v7              // A offset: row * N * 4 + tx * 4
  v_mul_lo_u32 v5, v1, s11
  v_lshlrev_b32_e32 v9, 2, v3
  v_add_u32_e32 v5, v5, v9              // B offset: ty * N * 4 + col * 4
  v_lshlrev_b32_e32 v6, 6, v1           // ty * TILE * 4: row of A's tile in LDS
  v_add_u32_e32 v12, v6, v7             // this work-item's LDS slot
  v_mov_b32_e32 v8, 0                   // accumulator
.Ltile:
  global_load_dword v9, v4, s[12:13]
  global_load_dword v10, v5, s[14:15]
  s_waitcnt vmcnt(0)
  ds_write_b32 v12, v9
  ds_write_b32 v12, v10 offset:B_TILE_LDS
  s_waitcnt lgkmcnt(0)
  s_barrier
  .set K, 0
  .rept TILE
    ds_read_b32 v10, v6 offset:K*4                  // A[ty][K]
    ds_read_b32 v11, v7 offset:B_TILE_LDS+K*TILE*4  // B[K][tx]
    s_waitcnt lgkmcnt(0)
    v_mac_f32_e32 v8, v10, v11
    .set K, K + 1
  .endr
  s_barrier
  s_add_u32 s12, s12, TILE * 4
  s_addc_u32 s13, s13, 0
  s_add_u32 s14, s14, s16
  s_addc_u32 s15, s15, 0
  s_sub_u32 s17, s17, 1
  s_cmp_lg_u32 s17, 0
  s_cbranch_scc1 .Ltile
  v_mul_lo_u32 v9, v2, s11
  v_lshlrev_b32_e32 v10, 2, v3
  v_add_u32_e32 v9, v9, v10
  global_store_dword v9, v8, s[8:9]
  s_endpgm
.Lmatmul_end:
  .size matmul_tiled, .Lmatmul_end-matmul_tiled

.rodata
.p2align 6
.amdhsa_kernel matmul_tiled
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_vgpr_workitem_id 1
  .amdhsa_group_segment_fixed_size 2 * B_TILE_LDS
  .amdhsa_kernarg_size 28
  .amdhsa_next_free_vgpr 13
  .amdhsa_next_free_sgpr 19
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: matmul_tiled
    .symbol: matmul_tiled.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 25
    .vgpr_count: 13
    .max_flat_workgroup_size: 256
    .reqd_workgroup_size: [ 16, 16, 1 ]
    .args:
      - { .name: a, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: b, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: c, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: write_only }
      - { .name: size, .offset: 24, .size: 4, .value_kind: by_value }
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata

// Kernels that end badly, for the virtual GPU's error paths (code object v5, gfx900).
// read_unmapped: reads the dword at address 0x10 (never mapped).
// spin_forever:  branches to itself; only the watchdog ends it.
// trap:          executes s_trap 2 (llvm.trap).
// missing_wait:  reads a scalar load's result before s_waitcnt (completes; --check reports it).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.text
.globl read_unmapped
.p2align 8
.type read_unmapped,@function
read_unmapped:
  v_mov_b32_e32 v1, 0x10
  v_mov_b32_e32 v2, 0
  global_load_dword v3, v[1:2], off
  s_waitcnt vmcnt(0)
  s_endpgm
.Lread_unmapped_end:
  .size read_unmapped, .Lread_unmapped_end-read_unmapped

.globl spin_forever
.p2align 8
.type spin_forever,@function
spin_forever:
.Lagain:
  s_branch .Lagain
.Lspin_forever_end:
  .size spin_forever, .Lspin_forever_end-spin_forever

.globl trap
.p2align 8
.type trap,@function
trap:
  s_trap 2
  s_endpgm
.Ltrap_end:
  .size trap, .Ltrap_end-trap

.globl missing_wait
.p2align 8
.type missing_wait,@function
missing_wait:
  s_load_dword s2, s[0:1], 0x4
  s_mov_b32 s3, s2
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lmissing_wait_end:
  .size missing_wait, .Lmissing_wait_end-missing_wait

.rodata
.p2align 6
.amdhsa_kernel read_unmapped
  .amdhsa_next_free_vgpr 4
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel spin_forever
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel trap
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel missing_wait
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: read_unmapped
    .symbol: read_unmapped.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 4
    .max_flat_workgroup_size: 64
    .args: []
  - .name: spin_forever
    .symbol: spin_forever.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args: []
  - .name: trap
    .symbol: trap.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args: []
  - .name: missing_wait
    .symbol: missing_wait.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args: []
...
.end_amdgpu_metadata

// golden: mc=14 mcpu=gfx803 cov=2
// Code object v2 directives of llvm-mc 14: notes, HSA sections, kernel symbols,
// and an amd_kernel_code_t with many keys set. (llvm-mc 14 no longer knows
// the .hsatext/.hsadata_* section directives; amdgpu-as still accepts them.)
.hsa_code_object_version 2,1
.hsa_code_object_isa 8,0,3,"AMD","AMDGPU"
.amd_amdgpu_isa "amdgcn-amd-amdhsa--gfx803"
.text
.amdgpu_hsa_kernel first
.globl first
first:
  .amd_kernel_code_t
    enable_sgpr_kernarg_segment_ptr = 1
    enable_sgpr_dispatch_ptr = 1
    enable_sgpr_workgroup_id_x = 1
    enable_sgpr_workgroup_id_y = 1
    enable_vgpr_workitem_id = 2
    is_ptr64 = 1
    compute_pgm_rsrc1_vgprs = 3
    compute_pgm_rsrc1_sgprs = 2
    compute_pgm_rsrc2_user_sgpr = 4
    kernarg_segment_byte_size = 24
    workgroup_group_segment_byte_size = 1024
    workitem_private_segment_byte_size = 16
    wavefront_sgpr_count = 18
    workitem_vgpr_count = 13
    kernarg_segment_alignment = 4
    float_mode = 192
    enable_ieee_mode = 1
  .end_amd_kernel_code_t
  .long 0xbf810000
.Lfirst_end:
  .size first, .Lfirst_end - first
.amdgpu_hsa_kernel second
second:
  .amd_kernel_code_t
  .end_amd_kernel_code_t
  .long 0xbf810000

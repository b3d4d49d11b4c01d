// A code object v2 kernel (llvm-mc 14): amd_kernel_code_t at the kernel symbol.
.hsa_code_object_version 2,1
.hsa_code_object_isa 8,0,3,"AMD","AMDGPU"
.text
.globl kern2
.p2align 8
.type kern2,@function
.amdgpu_hsa_kernel kern2
kern2:
.amd_kernel_code_t
  enable_sgpr_kernarg_segment_ptr = 1
  kernarg_segment_byte_size = 8
  wavefront_sgpr_count = 8
  workitem_vgpr_count = 4
.end_amd_kernel_code_t
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_endpgm
.Lfunc_end0:
.size kern2, .Lfunc_end0-kern2

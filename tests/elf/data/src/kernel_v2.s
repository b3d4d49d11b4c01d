// One code object v2 kernel: amd_kernel_code_t, YAML metadata (llvm-mc 14).
.hsa_code_object_version 2,1
.hsa_code_object_isa
.text
.globl k
.p2align 8
.type k,@function
.amdgpu_hsa_kernel k
k:
.amd_kernel_code_t
  enable_sgpr_kernarg_segment_ptr = 1
  compute_pgm_rsrc1_vgprs = 1
  wavefront_sgpr_count = 10
  workitem_vgpr_count = 5
  kernarg_segment_byte_size = 8
.end_amd_kernel_code_t
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_endpgm
.Lfunc_end0:
.size k, .Lfunc_end0-k
.amd_amdgpu_hsa_metadata
---
Version: [ 1, 0 ]
Kernels:
  - Name: k
    SymbolName: 'k@kd'
    Language: OpenCL C
    LanguageVersion: [ 2, 0 ]
    Args:
      - Name: out
        TypeName: 'float*'
        Size: 8
        Align: 8
        ValueKind: GlobalBuffer
        ValueType: F32
        AddrSpaceQual: Global
        AccQual: Default
      - Size: 8
        Align: 8
        ValueKind: HiddenGlobalOffsetX
        ValueType: I64
    CodeProps:
      KernargSegmentSize: 16
      GroupSegmentFixedSize: 0
      PrivateSegmentFixedSize: 0
      KernargSegmentAlign: 8
      WavefrontSize: 64
      NumSGPRs: 10
      NumVGPRs: 5
      MaxFlatWorkGroupSize: 256
...
.end_amd_amdgpu_hsa_metadata

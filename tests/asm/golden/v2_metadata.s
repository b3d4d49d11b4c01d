// golden: mc=14 mcpu=gfx803 cov=2
// Code object v2 metadata (YAML in a NT_AMD_HSA_METADATA note).
.hsa_code_object_version 2,1
.hsa_code_object_isa
.text
.amdgpu_hsa_kernel k
k:
  .amd_kernel_code_t
    enable_sgpr_kernarg_segment_ptr = 1
    kernarg_segment_byte_size = 16
  .end_amd_kernel_code_t
  .long 0xbf810000
.amd_amdgpu_hsa_metadata
---
Version: [ 1, 0 ]
Kernels:
  - Name:            k
    SymbolName:      'k@kd'
    Language:        OpenCL C
    LanguageVersion: [ 2, 0 ]
    Args:
      - Name:            out
        TypeName:        'float*'
        Size:            8
        Align:           8
        ValueKind:       GlobalBuffer
        ValueType:       F32
        AddrSpaceQual:   Global
        AccQual:         Default
      - Size:            8
        Align:           8
        ValueKind:       HiddenGlobalOffsetX
        ValueType:       I64
    CodeProps:
      KernargSegmentSize: 16
      GroupSegmentFixedSize: 0
      PrivateSegmentFixedSize: 0
      KernargSegmentAlign: 8
      WavefrontSize:   64
      NumSGPRs:        8
      NumVGPRs:        3
      MaxFlatWorkGroupSize: 256
...
.end_amd_amdgpu_hsa_metadata

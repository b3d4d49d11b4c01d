// Code object v2 metadata exercising every schema group (llvm-mc 14, gfx803).
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
  user_sgpr_count = 2
.end_amd_kernel_code_t
  s_endpgm
.amd_amdgpu_hsa_metadata
---
Version: [ 1, 0 ]
Printf: [ '1:1:4:%d\n', '2:0:' ]
Kernels:
  - Name: k
    SymbolName: 'k@kd'
    Language: OpenCL C
    LanguageVersion: [ 2, 0 ]
    Attrs:
      ReqdWorkGroupSize: [ 64, 1, 1 ]
      WorkGroupSizeHint: [ 8, 2, 1 ]
      VecTypeHint: float4
      RuntimeHandle: rh
    Args:
      - Name: out
        TypeName: 'float*'
        Size: 8
        Align: 8
        ValueKind: GlobalBuffer
        ValueType: F32
        AddrSpaceQual: Global
        AccQual: ReadWrite
        ActualAccQual: WriteOnly
        IsConst: true
        IsRestrict: true
        IsVolatile: true
      - Name: p
        Size: 4
        Align: 4
        ValueKind: Pipe
        IsPipe: true
        AddrSpaceQual: Global
      - Size: 4
        Align: 4
        ValueKind: DynamicSharedPointer
        PointeeAlign: 16
        AddrSpaceQual: Local
        TypeName: 'hello world'
      - Size: 8
        Align: 8
        ValueKind: HiddenGlobalOffsetX
        ValueType: I64
    CodeProps:
      KernargSegmentSize: 24
      GroupSegmentFixedSize: 16
      PrivateSegmentFixedSize: 4
      KernargSegmentAlign: 8
      WavefrontSize: 64
      NumSGPRs: 10
      NumVGPRs: 5
      MaxFlatWorkGroupSize: 256
      IsDynamicCallStack: true
      IsXNACKEnabled: true
      NumSpilledSGPRs: 1
      NumSpilledVGPRs: 2
    DebugProps:
      DebuggerABIVersion: [ 1, 0 ]
      ReservedNumVGPRs: 4
      ReservedFirstVGPR: 11
      PrivateSegmentBufferSGPR: 0
      WavefrontPrivateSegmentOffsetSGPR: 11
  - Name: k2
    SymbolName: 'k2@kd'
...
.end_amd_amdgpu_hsa_metadata

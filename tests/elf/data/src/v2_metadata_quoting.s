// v2 metadata strings that need (or do not need) quotes in LLVM's YAML writer (llvm-mc 14).
.hsa_code_object_version 2,1
.hsa_code_object_isa
.amd_amdgpu_hsa_metadata
---
Version: [ 1, 0 ]
Kernels:
  - Name: k
    SymbolName: 'k@kd'
    Args:
      - Name: 'true'
        TypeName: 'true'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '123'
        TypeName: '123'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '1.5'
        TypeName: '1.5'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: "it's"
        TypeName: "it's"
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: 'a:b'
        TypeName: 'a:b'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '-x'
        TypeName: '-x'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: ' lead'
        TypeName: ' lead'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: 'x#y'
        TypeName: 'x#y'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: 'null'
        TypeName: 'null'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '~'
        TypeName: '~'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '0x1F'
        TypeName: '0x1F'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: 'a/b'
        TypeName: 'a/b'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: 'über'
        TypeName: 'über'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: 'a b,c.d^e_f-g'
        TypeName: 'a b,c.d^e_f-g'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '@at'
        TypeName: '@at'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '1e5'
        TypeName: '1e5'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '.inf'
        TypeName: '.inf'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: 'Yes'
        TypeName: 'Yes'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '0o17'
        TypeName: '0o17'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '+12'
        TypeName: '+12'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: 'x\ty'
        TypeName: 'x\ty'
        Size: 4
        Align: 4
        ValueKind: ByValue
      - Name: '[]'
        TypeName: '[]'
        Size: 4
        Align: 4
        ValueKind: ByValue
...
.end_amd_amdgpu_hsa_metadata

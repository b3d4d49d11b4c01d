// golden: mc=19 mcpu=gfx900
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 3
  .amdhsa_bogus_key 1
.end_amdhsa_kernel
.amdhsa_kernel k2
  .amdhsa_next_free_vgpr 3
.end_amdhsa_kernel
.amdhsa_kernel k3
  .amdhsa_next_free_sgpr 3
.end_amdhsa_kernel
.amdhsa_kernel k4
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 3
  .amdhsa_next_free_sgpr 4
.end_amdhsa_kernel
.amdhsa_kernel k5
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 3
  .amdhsa_ieee_mode 2
.end_amdhsa_kernel
.long 1
.amdgpu_metadata
---
amdhsa.version: [ 1 ]
...
.end_amdgpu_metadata
.endif
.endr

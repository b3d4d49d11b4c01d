// References a function that no input defines.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl uses_missing
.p2align 8
uses_missing:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, not_defined_anywhere@rel32@lo+4
  s_addc_u32 s5, s5, not_defined_anywhere@rel32@hi+12
  s_endpgm

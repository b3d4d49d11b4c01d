// PC-relative references to an absolute symbol (an error) and to a hidden
// undefined weak symbol (allowed: it resolves to 0).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.globl big
.hidden big
.set big, 0x1234
.weak nothere
.hidden nothere
.text
.globl k
k:
  s_getpc_b64 s[0:1]
  s_add_u32 s0, s0, big@rel32@lo+4
  s_addc_u32 s1, s1, nothere@rel32@hi+12

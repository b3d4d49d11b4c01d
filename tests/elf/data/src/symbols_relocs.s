// Symbols of every binding/visibility and relocations against globals, locals and sections.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl zeta
zeta:
  s_nop 0
.Lx:
local_b:
  s_nop 0
.globl alpha
alpha:
local_a:
  s_getpc_b64 s[0:1]
  s_add_u32 s0, s0, ext@rel32@lo+4
  s_addc_u32 s1, s1, ext@rel32@hi+12
  s_add_u32 s0, s0, local_a@rel32@lo+4
  s_endpgm
.weak wk
wk:
.data
.globl dat
dat: .quad ext
.quad local_b
.quad zeta
.section .foo,"aw",@progbits
.long 1
.hidden alpha

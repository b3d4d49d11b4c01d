// Weak undefined (default and hidden), COMMON, .bss and .data.rel.ro in one
// object: what goes to .dynsym, the GOT and .rela.dyn.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl k
.p2align 8
k:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, wk@gotpcrel32@lo+4
  s_addc_u32 s5, s5, wk@gotpcrel32@hi+12
  s_endpgm
.weak wk
.data
.quad wk
.quad wh
.weak wh
.hidden wh
.section .data.rel.ro,"aw"
.quad k
.bss
.globl bb
bb: .zero 16
.comm cc, 32, 4

// A weak hidden template-like function and a local constant in COMDAT group "tmpl"
// (comdat_b.s has a different copy of the same group: ld.lld keeps comdat_a.s's).
.text
.globl k2
.type k2,@function
k2:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, tmpl@rel32@lo+4
  s_addc_u32 s5, s5, tmpl@rel32@hi+12
  s_setpc_b64 s[30:31]
.section .text.tmpl,"axG",@progbits,tmpl,comdat
.weak tmpl
.hidden tmpl
.type tmpl,@function
tmpl:
  s_mov_b32 s0, 2
  s_nop 0
  s_setpc_b64 s[30:31]
.section .data.tmpl,"awG",@progbits,tmpl,comdat
.local tmpl_local2
tmpl_local2:
.quad tmpl

// Archive member 2 of liblazy.a (see lazy_a.s): defines f2, which calls g2.
.text
.globl f2
.protected f2
.type f2,@function
f2:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, g2@rel32@lo+4
  s_addc_u32 s5, s5, g2@rel32@hi+12
  s_setpc_b64 s[30:31]
.globl g2
.protected g2
.type g2,@function
g2:
  s_mov_b32 s0, 2
  s_setpc_b64 s[30:31]

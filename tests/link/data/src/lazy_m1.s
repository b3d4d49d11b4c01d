// Archive member 1 of liblazy.a (see lazy_a.s): defines f1, which calls g1.
.text
.globl f1
.protected f1
.type f1,@function
f1:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, g1@rel32@lo+4
  s_addc_u32 s5, s5, g1@rel32@hi+12
  s_setpc_b64 s[30:31]
.globl g1
.protected g1
.type g1,@function
g1:
  s_mov_b32 s0, 1
  s_setpc_b64 s[30:31]

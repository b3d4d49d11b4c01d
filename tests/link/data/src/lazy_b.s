// The second user of liblazy.a (see lazy_a.s).
.text
.globl kb
.type kb,@function
kb:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, f1@rel32@lo+4
  s_addc_u32 s5, s5, f1@rel32@hi+12
  s_setpc_b64 s[30:31]

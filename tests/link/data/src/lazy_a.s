// Archive extraction order: "lazy_a.o liblazy.a lazy_b.o" - lazy_a needs f2, so
// ld.lld takes member 2 when it reaches the archive; lazy_b needs f1, member 1
// follows lazy_b. Sections and symbols come in that order.
.text
.globl ka
.type ka,@function
ka:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, f2@rel32@lo+4
  s_addc_u32 s5, s5, f2@rel32@hi+12
  s_setpc_b64 s[30:31]

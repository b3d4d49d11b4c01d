// A kernel that refers to a local of its own copy of COMDAT group "tmpl": linked
// after comdat_a.o, that copy is discarded and ld.lld reports the reference (the
// .debug_info one is allowed: non-allocated sections get 0).
.text
.globl k3
.type k3,@function
k3:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, tmpl_local3@rel32@lo+4
  s_addc_u32 s5, s5, tmpl_local3@rel32@hi+12
  s_setpc_b64 s[30:31]
.section .rodata.tmpl,"aG",@progbits,tmpl,comdat
tmpl_local3:
.long 3
.section .debug_info,"",@progbits
.quad tmpl_local3

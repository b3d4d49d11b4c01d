// A PC-relative call to an exported (preemptible) function: ld.lld's
// "recompile with -fPIC" error.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl exported_func
.p2align 2
exported_func:
  s_setpc_b64 s[30:31]
.globl calls_exported
.p2align 8
calls_exported:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, exported_func@rel32@lo+4
  s_addc_u32 s5, s5, exported_func@rel32@hi+12
  s_endpgm

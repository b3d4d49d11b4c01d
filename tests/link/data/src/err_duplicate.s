// Defines 'helper' strongly, as v5_func.s does.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl helper
.hidden helper
.p2align 2
helper:
  s_setpc_b64 s[30:31]

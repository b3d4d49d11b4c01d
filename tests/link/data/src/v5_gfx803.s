// A gfx803 object (for the target-mismatch error).
.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
.text
.globl other_target
other_target:
  s_endpgm

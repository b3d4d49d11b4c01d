// A code object v4 gfx900 object (for the version-mismatch error).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl other_version
other_version:
  s_endpgm

// A 32-bit PC-relative field that cannot hold its value (addend 4 GiB).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl far_target
.hidden far_target
far_target:
  s_endpgm
.data
  .long far_target - . + 0x100000000

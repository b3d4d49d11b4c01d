// 32-bit absolute relocations (ABS32, ABS32_LO, ABS32_HI) against link-time
// constants: an absolute hidden symbol and an undefined hidden weak symbol.
// ld.lld rejects ABS32_LO/HI ("unknown relocation"); amdgpu-ld applies them.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.globl big
.hidden big
.set big, 0x123456789
.weak missing
.hidden missing
.text
.globl k32
.p2align 8
k32:
  s_mov_b32 s0, big@abs32@lo
  s_mov_b32 s1, big@abs32@hi
  s_mov_b32 s2, missing@abs32@lo
  s_endpgm
.data
  .long missing + 7

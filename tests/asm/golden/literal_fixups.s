// golden: mc=19 mcpu=gfx900
// Instruction literals referring to labels and symbols: PC-relative as llvm-mc makes them.
.text
.globl gdef
gdef:
  s_mov_b32 s0, lab
  s_mov_b32 s1, undef_local
  s_mov_b32 s2, gdef
  s_mov_b32 s3, gundef
  s_mov_b32 s4, undef_local + 4
  s_mov_b32 s5, lab + 4
  s_mov_b32 s6, gdef + 4
  s_mov_b32 s7, dlab
  s_mov_b32 s8, later
  s_mov_b32 s9, lab - gdef
lab:
  s_mov_b32 s10, lab
  s_mov_b32 s11, lab - gdef
.globl gundef
.data
dlab: .long 0
.set later, 77

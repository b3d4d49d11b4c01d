// golden: mc=19 mcpu=gfx900
// Branches to labels and numeric local labels, literals with relocation
// specifiers, label differences and '.' in instruction and data operands.
.text
.globl entry
.p2align 8
entry:
  s_branch .Lforward
1:
  s_mov_b32 s3, 0
  s_cbranch_scc0 1b
  s_cbranch_vccnz 1f
  s_cbranch_execz .Lforward
1:
  s_add_u32 s0, s0, 1b - entry
.Lforward:
  s_mov_b32 s1, .Lforward - entry
  s_mov_b32 s2, .Lend - .Lforward
  v_mov_b32_e32 v0, external@abs32@lo
  v_mov_b32_e32 v1, external@abs32@hi
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, external@rel32@lo+4
  s_addc_u32 s5, s5, external@rel32@hi+12
  s_add_u32 s6, s6, local_data@rel32@lo+4
  s_addc_u32 s7, s7, local_data@rel32@hi+12
  s_add_u32 s8, s8, external@gotpcrel32@lo+4
  s_addc_u32 s9, s9, external@gotpcrel32@hi+12
  s_mov_b32 s10, local_data@abs32@lo
  s_mov_b32 s11, later_constant
  v_mov_b32_e32 v2, later_constant + 1
  s_mov_b32 s12, . - entry
  s_branch entry
  s_endpgm
.Lend:
.data
local_data:
  .long entry, external + 4, . - local_data
  .quad external, entry + 8
  .long external@rel32@lo
.set later_constant, 0x12345

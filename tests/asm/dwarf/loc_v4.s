// golden: mc=19 mcpu=gfx900
// DWARF 4 line table: files in several directories, every .loc flag, line and
// address steps that need advance_line / const_add_pc / advance_pc, two
// .loc in a row, rows on data, and a second code section (its own sequence).
	.file	1 "/src/dir" "a.cl"
	.file	2 "include/b.h"
	.file	3 "/src/dir/c.h"
	.file	4 "plain.h"
	.text
f:
	.loc	1 10 3 prologue_end
	s_mov_b32 s0, 0
	.loc	1 11 5
	s_mov_b32 s1, 1
	.loc	1 11 5 is_stmt 0
	s_nop 0
	.loc	2 3 1 basic_block
	.loc	2 4 2 epilogue_begin isa 2
	v_mov_b32_e32 v0, 0x12345678
	.loc	3 200 0 discriminator 7 is_stmt 1
	s_nop 1
	.loc	1 2 9
	.fill 20, 4, 0xbf800000
	.loc	4 2 9
	.fill 300, 4, 0xbf800000
	.loc	4 1 1
	.fill 2000, 4, 0xbf800000
	.loc	4 5000 1
	s_endpgm
	.section	.text.other,"ax",@progbits
g:
	.loc	1 30 1
	s_nop 0
	.loc	1 31 1
	s_endpgm
	.data
	.loc	4 7 7
	.long	1, 2
	.text
	.loc	1 40 2
	s_nop 2

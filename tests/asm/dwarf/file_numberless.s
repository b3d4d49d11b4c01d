// golden: mc=19 mcpu=gfx900
// A .file without a number names no line-table file and, for AMDGPU, writes
// no STT_FILE symbol: llvm-mc ignores it.
	.file	"a.c"
x:
	s_nop 0
	.file	"b.c"
	.globl	g
g:
	.quad	x
	.file	"a.c"

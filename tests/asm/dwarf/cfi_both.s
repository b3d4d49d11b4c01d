// golden: mc=19 mcpu=gfx900
// Both tables, with line rows in the same function.
	.file	1 "both.c"
	.cfi_sections .eh_frame, .debug_frame
	.text
a:
	.cfi_startproc
	.loc	1 1 1
	s_nop 0
	.cfi_undefined 16
	.loc	1 2 1
	s_setpc_b64 s[30:31]
	.cfi_endproc

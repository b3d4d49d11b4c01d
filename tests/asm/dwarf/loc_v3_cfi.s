// golden: mc=19 mcpu=gfx900 dwarf=3
// DWARF 3: a version 3 CIE (no address size fields, ULEB return column).
	.file	1 "x.c"
	.cfi_sections .debug_frame
	.text
h:
	.cfi_startproc
	.loc	1 3 1
	s_nop 0
	.cfi_def_cfa_offset 16
	s_setpc_b64 s[30:31]
	.cfi_endproc

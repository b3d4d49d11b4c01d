// golden: mc=19 mcpu=gfx900 dwarf=2
// DWARF 2: no maximum_operations_per_instruction, no discriminators, and a
// version 1 CIE in .debug_frame (one-byte return address column).
	.file	1 "d" "x.c"
	.cfi_sections .debug_frame
	.text
h:
	.cfi_startproc
	.loc	1 3 1 discriminator 4
	s_nop 0
	.cfi_undefined 16
	.loc	1 4 1
	s_setpc_b64 s[30:31]
	.cfi_endproc

// golden: mc=19 mcpu=gfx803
// No .cfi_sections: .eh_frame with "zR" CIEs (a new one per frame kind:
// simple, signal frame, another return column) and PC-relative FDEs.
	.text
a:
	.cfi_startproc
	s_nop 0
	.cfi_undefined 16
	s_setpc_b64 s[30:31]
	.cfi_endproc
b:
	.cfi_startproc simple
	.cfi_def_cfa 64, 0
	s_setpc_b64 s[30:31]
	.cfi_endproc
c:
	.cfi_startproc
	.cfi_signal_frame
	.cfi_return_column 17
	s_nop 0
	.cfi_offset 17, 4
	s_setpc_b64 s[30:31]
	.cfi_endproc
	.section	.text.d,"ax",@progbits
d:
	.cfi_startproc
	s_nop 0
	s_setpc_b64 s[30:31]
	.cfi_endproc

// golden: mc=19 mcpu=gfx900
// .debug_frame: every CFI directive clang uses for AMDGPU functions and the
// rest of the common set; advances of every size; two frames, one CIE.
	.cfi_sections .debug_frame
	.text
fn:
	.cfi_startproc
	.cfi_escape 0x0f, 0x04, 0x30, 0x36, 0xe9, 0x02
	.cfi_undefined 16
	s_nop 0
	.cfi_llvm_def_aspace_cfa 64, 0, 6
	.cfi_register 16, 2624
	.cfi_offset 2600, 0
	.cfi_offset 33, 8
	.cfi_offset 1000, -8
	.cfi_offset 70, 256
	.fill 70, 4, 0xbf800000
	.cfi_def_cfa 65, 16
	.cfi_def_cfa_register 64
	.cfi_def_cfa_offset 32
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset 5, 48
	.fill 300, 4, 0xbf800000
	.cfi_remember_state
	.cfi_restore 5
	.cfi_restore 100
	.cfi_same_value 7
	.fill 2000, 4, 0xbf800000
	.cfi_restore_state
	s_setpc_b64 s[30:31]
	.cfi_endproc
fn2:
	.cfi_startproc
	s_nop 0
	.cfi_undefined 17
	s_setpc_b64 s[30:31]
	.cfi_endproc

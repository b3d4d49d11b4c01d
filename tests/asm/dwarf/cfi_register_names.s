// golden: mc=19 mcpu=gfx900
// Registers named in CFI directives take llvm-mc's DWARF numbers (s0-s63 at 32,
// s64+ at 1088, v0 at 2560, pc 16, exec 17); registers without one (vcc, m0,
// ranges) are written as 0xFFFFFFFF.
	.cfi_sections .debug_frame
f:
	.cfi_startproc
	.cfi_undefined s0
	.cfi_undefined s70
	.cfi_undefined v1
	.cfi_undefined v255
	.cfi_undefined exec
	.cfi_undefined exec_lo
	.cfi_undefined vcc
	.cfi_undefined m0
	.cfi_undefined pc
	.cfi_register s[30:31], v0
	.cfi_offset s33, 8
	.cfi_def_cfa s32, 0
	.cfi_llvm_def_aspace_cfa s32, 0, 6
	s_endpgm
	.cfi_endproc

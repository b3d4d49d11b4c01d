// golden: mc=19 mcpu=gfx900
// Alignment padding in code (s_nop words) and with an explicit fill value.
// (llvm-mc 19 loops forever on code padding that is not a multiple of 4.)
.text
.long 1
.p2align 4
.short 2, 3
.p2align 3
.p2align 4, 0xaa
.long 3
.p2align 5,,8
.long 4

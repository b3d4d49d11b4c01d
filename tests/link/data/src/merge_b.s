// The second SHF_MERGE input (see merge_a.s): repeats "world", "hello %d\n", 2, 6.
.text
.globl kb
.type kb,@function
kb:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, .Lworld@rel32@lo+4
  s_addc_u32 s5, s5, .Lworld@rel32@hi+12
  s_setpc_b64 s[30:31]

.section .rodata.str1.1,"aMS",@progbits,1
.asciz "other"
.Lworld:
.asciz "world"
.asciz "hello %d\n"

.section .rodata.cst8,"aM",@progbits,8
.quad 2
.quad 7

.section .rodata.cst16,"aM",@progbits,16
.quad 5, 6
.quad 6, 5

.data
.p2align 3
table_b:
.quad .rodata.str1.1+2
.quad .rodata.cst8+8
.quad .rodata.cst16+16

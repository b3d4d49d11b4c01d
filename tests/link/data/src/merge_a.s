// SHF_MERGE inputs: strings (repeated inside and across objects, reached via a
// section symbol + addend and via named locals), 2-byte strings, and 4/8/16-byte
// constants; merge_b.s repeats some of them. ld.lld keeps one copy of each.
.text
.globl ka
.type ka,@function
ka:
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, .Lhello@rel32@lo+4
  s_addc_u32 s5, s5, .Lhello@rel32@hi+12
  s_getpc_b64 s[6:7]
  s_add_u32 s6, s6, cst8_two@rel32@lo+4
  s_addc_u32 s7, s7, cst8_two@rel32@hi+12
  s_setpc_b64 s[30:31]

.section .rodata.str1.1,"aMS",@progbits,1
.Lhello:
.asciz "hello %d\n"
str_world:
.asciz "world"
.asciz "hello %d\n"
.asciz ""

.section .rodata.str2.2,"aMS",@progbits,2
.short 0x41, 0x42, 0
.short 0x43, 0

.section .rodata.cst4,"aM",@progbits,4
.long 1, 2, 1, 3

.section .rodata.cst8,"aM",@progbits,8
cst8_one:
.quad 1
cst8_two:
.quad 2

.section .rodata.cst16,"aM",@progbits,16
.quad 5, 6

.data
.p2align 3
table:
.quad .rodata.str1.1+10
.quad str_world
.quad .rodata.cst4+8

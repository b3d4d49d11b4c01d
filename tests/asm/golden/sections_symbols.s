// golden: mc=19 mcpu=gfx900
// Sections with flags and types, symbol bindings, visibility, sizes, common symbols.
.section .rodata.tables,"a",@progbits
.p2align 4
.globl table
.type table,@object
table:
  .long 1, 2, 3, 4
.Ltable_end:
  .size table, .Ltable_end - table
.section .data.counters,"aw",@progbits
.weak weak_counter
weak_counter:
  .quad 0
.local local_thing
local_thing:
  .short 5
  .zero 6
  .fill 2, 4, 0x01020304
  .space 3, 0xff
.section .bss.scratch,"aw",@nobits
.p2align 3
scratch:
  .zero 64
.bss
  .zero 16
.comm shared_block, 128, 16
.hidden table
.protected weak_counter
.text
.p2align 8
  .long table, weak_counter + 8, local_thing, undefined_thing - 4
  .quad scratch, shared_block
.pushsection .data.pushed,"aw"
pushed:
  .long pushed
.popsection
.section .data.counters
  .long . - local_thing
  .balign 8, 0xee
  .byte 255, -1, 'a'
.previous
  .long 0xfeedface
.ident "amdgpu-tools test"
.ident "second"
.set absolute_value, 0x1234
.equ other_value, absolute_value * 2
alias_value = other_value + 1
  .long alias_value

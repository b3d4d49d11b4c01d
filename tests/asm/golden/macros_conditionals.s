// golden: mc=19 mcpu=gfx900
// Macros, repetition and conditionals, emitting data only.
.macro pair a, b=7
  .long \a
  .long \b
.endm
.macro counted
  .byte \@
.endm
.data
pair 1, 2
pair 3
pair 4 5
counted
counted
.rept 3
  .short 0xabcd
.endr
.irp reg, 1, 2, 3
  .byte \reg * 2
.endr
.irpc ch, 456
  .byte \ch
.endr
.set FLAG, 1
.if FLAG
  .long 0x11111111
.elseif FLAG == 2
  .long 0x22222222
.else
  .long 0x33333333
.endif
.ifdef FLAG
  .byte 1
.endif
.ifndef NOT_DEFINED
  .byte 2
.endif
.if 0
  this line is not assembled at all
  .if 1
    .byte 99
  .endif
.else
  .byte 3
.endif
.ifeq FLAG - 1
  .byte 4
.endif
.ifc abc, abc
  .byte 5
.endif
.ifnc abc, abd
  .byte 6
.endif
.ifb
  .byte 7
.endif
.ifnb x
  .byte 8
.endif
.set N, 3
.rept N
  .set N, N - 1
.endr
.long N

// golden: mc=19 mcpu=gfx900
.text
zb:
.long 1,2
za:
zc:
.globl gz, ga
gz:
ga:
.long ext2, ext1
.set abc, 5
.data
.long za, gz, .Lx
.Lx:
.quad za - .
.byte 1, 2, abc*2
.p2align 3
.ascii "hi\n"
.asciz "x"
.short 0x1234
1: .long 1b - .Lx
.ident "foo"
.size gz, 4
.type gz,@function

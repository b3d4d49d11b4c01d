// golden: mc=19 mcpu=gfx900
.data
.long 1 +
.byte
.unknown_directive 1
.long 2
.size
.set x
foo:
foo:
.long (1
.section
.ascii 5
.fill -1, 1, 0
.long 3
.p2align 3
.balign 3
.long 4
.type foo, @bogus
.globl 5
.equ
.comm c, 8
.comm c, 8
.if
.endif
.long 5 ; fine
.byte 1 2
.irp
.endr
.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
.amdhsa_code_object_version 9
.long 1
.quad 1, 2, x

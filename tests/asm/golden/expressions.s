// golden: mc=19 mcpu=gfx900
// Expression operators with llvm-mc's (GNU-mode) precedence and semantics.
.data
.long 1+1&2, 2*3<<1, 1<<2+1, 1==1+1, 6-2-1, 1|2==3
.long ~0&3, !0, -(3), 7/2, 7%3, -7/2, 1<2, 1>2, 3 && 0, 0 || 2
.long 5 != 4, 5 <> 5, 3 <= 3, 4 >= 5, 0x10 ^ 0x11, 6 ! 1, -16 >> 2 & 0xff, 1 << 31
.quad 0x123456789abcdef0, -1, 1 << 40, 0b1011, 017, 'A'
.byte -128, 255, 'z' - 'a'
.short -32768, 65535
.set a, 10
.set b, a * 2 + 1
.set a, 3
.long a, b, (a + b) * 2, a * (b - 1)
start_of_tail:
.rept 2
.long . - start_of_tail
.endr
.quad -1 >> 1, -16 >> 2

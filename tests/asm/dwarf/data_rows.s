// golden: mc=19 mcpu=gfx900
// Which bytes take a pending .loc: instructions and data directives do;
// alignment padding and .zero/.skip fills do not (the next row waits).
	.file 2 "b.c"
	.data
	.loc 2 1 1
	.long 0
	.loc 2 2 1
	.uleb128 1,2,3,4
	.loc 2 3 1
	.sleb128 1,2,3,4
	.loc 2 4 1
	.ascii "wxyz"
	.loc 2 5 1
	.long 0
	.loc 2 6 1
	.8byte 0
	.loc 2 7 1
	.asciz "abc"
	.loc 2 8 1
	.fill 1, 4, 0
	.loc 2 9 1
	.long 0
	.file 1 "a.c"
	.text
	.loc 1 1 1
	s_nop 0
	.data
	.loc 1 1 1
	.zero 8
	.byte 9
	.loc 1 2 1
	.byte 1,2,3,4
	.loc 1 3 1
	.ascii "abcd"
	.loc 1 4 1
	.long x
	.loc 1 5 1
	.p2align 4
	.loc 1 6 1
	.skip 4
	.loc 1 7 1
	.uleb128 300
	.loc 1 8 1
	.balign 32, 0
	.byte 0
	.text
x:
	.loc 1 9 1
	.fill 2, 4, 0

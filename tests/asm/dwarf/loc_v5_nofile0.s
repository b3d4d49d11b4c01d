// golden: mc=19 mcpu=gfx900 dwarf=5
// -dwarf-version=5 without .file 0: the compilation directory and file #1
// stand in for the root entry; no MD5 on one file means no MD5 column.
	.file	1 "/a" "one.c" md5 0x0123456789abcdef0123456789abcdef
	.file	2 "two.c"
	.text
	.loc	1 1 1
	s_nop 0
	.loc	2 9 1
	s_endpgm

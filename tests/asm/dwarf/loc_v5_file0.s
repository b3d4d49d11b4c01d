// golden: mc=19 mcpu=gfx803
// DWARF 5 from .file 0: MD5 checksums and embedded source on every file,
// directory and file strings shared in .debug_line_str, file 0 rows.
	.file	0 "/work/root" "main.cl" md5 0x00112233445566778899aabbccddeeff source "kernel void k() {}\n"
	.file	1 "/work/root" "helper.h" md5 0xffeeddccbbaa99887766554433221100 source ""
	.file	2 "/usr/include" "x.h" md5 0x0123456789abcdef0123456789abcdef source "int x;"
	.text
k:
	.loc	0 1 0
	s_mov_b32 s0, 0
	.loc	1 5 3 prologue_end
	s_mov_b32 s1, 1
	.loc	2 1 1
	s_nop 0
	.loc	0 2 1 epilogue_begin
	s_endpgm

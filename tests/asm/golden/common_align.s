// golden: mc=19 mcpu=gfx900
.data
.byte 1
.align 4
.byte 2
.lcomm lc, 4
.comm c2, 8
.comm c3, 8, 0

// golden: mc=19 mcpu=gfx900
// Alignment in data with fill values and a maximum skip.
.data
.byte 1
.balign 8, 0, 2
.byte 4
.balign 8, 0xcc, 6
.byte 5

// golden: mc=19 mcpu=gfx900
// An error only found when fixups are resolved at the end.
.data
.long 1
.long .Lundefined
.long 2

// An absolute address in read-only data: needs a dynamic relocation there.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.rodata
.globl tbl
tbl: .quad gv
.data
.globl gv
gv: .long 1

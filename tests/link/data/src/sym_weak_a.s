// Resolution rules, first object: a weak definition, a COMMON block, a
// protected symbol and a reference to the second object's data.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.data
.weak chosen
.p2align 2
chosen: .long 1
.weak weak_both
weak_both: .long 10
.comm shared_block, 8, 2
.globl guarded
.protected guarded
guarded: .long 3
.globl uses
uses: .quad chosen, weak_both, shared_block, guarded

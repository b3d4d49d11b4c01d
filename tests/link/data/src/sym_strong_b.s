// Resolution rules, second object: the strong definition that beats the
// weak one, a second weak definition (the first one stays) and a larger
// COMMON block of the same name (the largest size wins).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.data
.globl chosen
.p2align 2
chosen: .long 2
.weak weak_both
weak_both: .long 20
.comm shared_block, 24, 3

// Only a weak reference to 'helper': not a reason to extract an archive member.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.data
.weak helper
.globl maybe_helper
maybe_helper: .quad helper

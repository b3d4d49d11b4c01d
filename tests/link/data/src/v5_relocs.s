// Every relocation type ld.lld accepts for AMDGPU, against hidden (local
// after the link) and exported symbols.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl kern
.p2align 8
.type kern,@function
kern:
  s_getpc_b64 s[0:1]
  s_add_u32 s0, s0, hfunc@rel32@lo+4
  s_addc_u32 s1, s1, hfunc@rel32@hi+12
  s_getpc_b64 s[2:3]
  s_add_u32 s2, s2, gdata@gotpcrel32@lo+4
  s_addc_u32 s3, s3, gdata@gotpcrel32@hi+12
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, hdata@gotpcrel32@lo+4
  s_addc_u32 s5, s5, hdata@gotpcrel32@hi+12
  s_endpgm
.Lkern_end:
.size kern, .Lkern_end-kern

.globl hfunc
.hidden hfunc
.p2align 2
.type hfunc,@function
hfunc:
  s_setpc_b64 s[30:31]
.Lhfunc_end:
.size hfunc, .Lhfunc_end-hfunc

.data
.globl gdata
.p2align 3
.type gdata,@object
gdata:
  .quad gdata          // R_AMDGPU_ABS64 against a preemptible symbol
  .quad hdata + 8      // R_AMDGPU_ABS64 against a local address: RELATIVE64
  .long hfunc - .      // R_AMDGPU_REL32
  .long 0
  .quad hfunc - .      // R_AMDGPU_REL64
  .long hdata@gotpcrel // R_AMDGPU_GOTPCREL
  .long gdata@gotpcrel
.size gdata, 40
.globl hdata
.hidden hdata
.type hdata,@object
hdata:
  .quad 0x1122334455667788
.size hdata, 8

// R_AMDGPU_REL16: a branch into another input section.
.text
.globl branches
.p2align 8
branches:
  s_branch far_label
  s_endpgm
.section .text.far,"ax"
.globl far_label
.hidden far_label
far_label:
  s_endpgm

// golden: mc=19 mcpu=gfx900
// call_function: the function called by call_kernel.s (see there for how to
// build and run both). scale_by_two(v0) returns v0 * 2 in v0 and returns to
// the address in s[30:31], following the AMDGPU calling convention.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5

.text
.globl scale_by_two
.hidden scale_by_two                   // not preemptible: PC-relative calls can reach it
.p2align 2
.type scale_by_two,@function
scale_by_two:
  v_add_f32_e32 v0, v0, v0
  s_setpc_b64 s[30:31]
.Lscale_by_two_end:
  .size scale_by_two, .Lscale_by_two_end-scale_by_two

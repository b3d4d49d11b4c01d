// OpenCL kernels for clang-14 -mcode-object-version=2 (no device libraries:
// builtins only). amdgpu-as must assemble clang's .s into clang -c's object.
__kernel void scale(__global float *data, float factor) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  data[i] = data[i] * factor;
}

__kernel void count(__global int *counter, __local int *scratch) {
  uint lid = __builtin_amdgcn_workitem_id_x();
  scratch[lid] = lid;
  __builtin_amdgcn_s_barrier();
  if (lid == 0) __opencl_atomic_fetch_add((volatile __global atomic_int *)counter, scratch[3],
                                          memory_order_relaxed, memory_scope_device);
}

// OpenCL kernels built by clang-14 as code object v2 (YAML metadata); clang-14
// cannot read the device libraries, so they use clang builtins.
static uint global_id_x(void) {
  __constant unsigned short *packet = (__constant unsigned short *)__builtin_amdgcn_dispatch_ptr();
  return __builtin_amdgcn_workgroup_id_x() * packet[2] + __builtin_amdgcn_workitem_id_x();
}

kernel void vadd(global const float *a, global const float *b, global float *c, int n) {
  uint i = global_id_x();
  if (i < n) c[i] = a[i] + b[i];
}

kernel void scale(global double *x, double factor) {
  uint i = global_id_x();
  x[i] = x[i] * factor;
}

// OpenCL printf writes records through __printf_alloc, which the device
// libraries normally provide: the printf buffer (hidden argument 3 after the
// three global offsets) starts with the bytes used and the capacity.
__global char *__printf_alloc(unsigned int bytes) {
  __constant unsigned long *implicit = (__constant unsigned long *)__builtin_amdgcn_implicitarg_ptr();
  __global unsigned int *buffer = (__global unsigned int *)implicit[3];
  unsigned int offset = __opencl_atomic_fetch_add((__global atomic_uint *)buffer, bytes,
                                                  memory_order_relaxed, memory_scope_device);
  if (offset + bytes > buffer[1]) return 0;
  return (__global char *)buffer + 8 + offset;
}

kernel void hello(global int *out, int k) {
  uint i = __builtin_amdgcn_workitem_id_x();
  if (i < 2) printf("hello %d %f %s\n", (int)i + k, 1.5f, "ok");
  out[i] = i;
}

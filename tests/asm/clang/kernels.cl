// OpenCL kernels compiled by clang-19 to assembly; amdgpu-as must assemble
// the .s into the same object clang -c produces (see record_clang.py).
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

__kernel void reduce(__global const float *in, __global float *out,
                     __local float *scratch) {
  int lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

__constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__global int counter = 7;

static int helper(int x) { return x * x + table[x & 7]; }

__kernel void lookup(__global int *out, int n) {
  int i = get_global_id(0);
  int acc = 0;
  for (int k = 0; k < n; ++k) acc += helper(i + k);
  out[i] = acc + counter;
  if (i == 0) atomic_add(&counter, 1);
}

__kernel void math(__global float *x, __global double *d) {
  int i = get_global_id(0);
  x[i] = sqrt(x[i]) * 0.5f + fabs(x[i]) - 1.0f / (x[i] + 2.0f);
  d[i] = d[i] * 3.0 + 1.5;
}

// Source of the recorded offload bundles (tools/isa_gen/gen_bundle.py): two
// small kernels, one with a loop so the listing has a branch target.
#include <hip/hip_runtime.h>

extern "C" __global__ void scale(float *x, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}

extern "C" __global__ void prefix_sum(int *x, int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) {
    total += x[i];
    x[i] = total;
  }
}

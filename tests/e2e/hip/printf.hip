// Device printf (ROCm's hostcall-based printf in ROCm 5.2's device library).
#include <hip/hip_runtime.h>

extern "C" __global__ void greet(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] % 3 == 0)
    printf("item %d: value %d, half %.2f, name %s\n", i, in[i], in[i] * 0.5, "hip");
  out[i] = in[i] + 1;
}

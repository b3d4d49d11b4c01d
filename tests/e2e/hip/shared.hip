// Group (shared) memory and atomics: a tree reduction with __syncthreads,
// dynamic shared memory (extern __shared__), and global atomics.
#include <hip/hip_runtime.h>

#define BLOCK 128

extern "C" __global__ void block_sum(const float *in, float *sums) {
  __shared__ float tree[BLOCK];
  int t = threadIdx.x;
  tree[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) tree[t] += tree[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = tree[0];
}

// Rotate each block's values by one place through dynamic shared memory.
extern "C" __global__ void rotate_dynamic(const int *in, int *out) {
  extern __shared__ int window[];
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  window[t] = in[base + t];
  __syncthreads();
  out[base + t] = window[(t + 1) % blockDim.x];
}

extern "C" __global__ void atomics(const int *a, const float *f, int *iacc, float *facc,
                                   unsigned *max_acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&iacc[0], a[i]);
  atomicAdd(&facc[0], f[i]);
  atomicMax(&iacc[1], a[i]);
  atomicMax(&max_acc[0], (unsigned)a[i]);
  atomicMin(&iacc[2], a[i]);
  atomicSub(&iacc[3], 1);
  atomicOr(&iacc[4], 1 << (i & 31));
  // a compare-and-swap loop: an atomic "keep the value with the largest |a|"
  int seen = iacc[5];
  while (true) {
    int wanted = abs(a[i]) > abs(seen) ? a[i] : seen;
    if (wanted == seen) break;
    int prior = atomicCAS(&iacc[5], seen, wanted);
    if (prior == seen) break;
    seen = prior;
  }
}

// Per-element atomicExch returns: every old value is seen exactly once.
extern "C" __global__ void exchange_chain(int *slot, int *olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = atomicExch(slot, i);
}

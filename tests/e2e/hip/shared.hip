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

// Static and dynamic shared memory together (the dynamic part starts after the
// static one) with shared-memory atomics: per-block histograms of in & 15 and a
// shared float sum, merged into global counts.
extern "C" __global__ void shared_histogram(const unsigned *in, unsigned *hist, float *sums) {
  __shared__ unsigned bins[16];
  extern __shared__ float partial[];
  int t = threadIdx.x;
  if (t < 16) bins[t] = 0;
  if (t == 0) partial[0] = 0.0f;
  __syncthreads();
  unsigned v = in[blockIdx.x * blockDim.x + t];
  atomicAdd(&bins[v & 15], 1u);
  atomicAdd(&partial[0], (float)(v & 255) * 0.5f);
  __syncthreads();
  if (t < 16) atomicAdd(&hist[t], bins[t]);
  if (t == 0) sums[blockIdx.x] = partial[0];
}

// 64-bit atomics: integer add/min/max/CAS and the double add (a CAS loop on gfx8/9).
extern "C" __global__ void atomics64(const long long *a, const double *d,
                                     unsigned long long *acc, double *dacc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&acc[0], (unsigned long long)a[i]);
  atomicMin(&acc[1], (unsigned long long)a[i]);
  atomicMax(&acc[2], (unsigned long long)a[i]);
  atomicAdd(&dacc[0], d[i]);
  unsigned long long seen = acc[3];
  while (true) {
    unsigned long long wanted = seen ^ (1ull << (i % 64));
    unsigned long long prior = atomicCAS(&acc[3], seen, wanted);
    if (prior == seen) break;
    seen = prior;
  }
}

// Wavefront (warp) intrinsics on 64-lane waves.
#include <hip/hip_runtime.h>

extern "C" __global__ void vote(const int *in, unsigned long long *ballots, int *flags,
                                int *pops) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int wave = i / warpSize;
  int v = in[i];
  unsigned long long b = __ballot(v > 0);
  int any_big = __any(v > 900);
  int all_pos = __all(v > -1000);
  // ROCm 5.2's headers have no __activemask (later HIP defines it as __ballot(1))
  unsigned long long active = __ballot(1);
  if (lane == 0) {
    ballots[2 * wave] = b;
    ballots[2 * wave + 1] = active;
    flags[2 * wave] = any_big;
    flags[2 * wave + 1] = all_pos;
  }
  pops[i] = __popcll(b) + 100 * __popc((unsigned)v);
}

extern "C" __global__ void shuffles(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int v = in[i];
  out[4 * i] = __shfl(v, (lane * 7 + 3) % warpSize);
  out[4 * i + 1] = __shfl_xor(v, 5);
  out[4 * i + 2] = __shfl_down(v, 3);
  out[4 * i + 3] = __shfl_up(v, 2);
}

// A wave reduction by __shfl_down, then one atomicAdd per wave.
extern "C" __global__ void wave_sum(const float *in, float *wave_sums, float *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  if (threadIdx.x % warpSize == 0) {
    wave_sums[i / warpSize] = v;
    atomicAdd(total, v);
  }
}

// Divergent lanes: the ballot of the lanes still active inside a branch.
extern "C" __global__ void divergent_ballot(const int *in, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long inner = 0;
  if (in[i] & 1)
    inner = __ballot(in[i] & 2) ^ (__builtin_amdgcn_read_exec() << 1);
  out[i] = inner;
}

// Shuffles within segments of a wave (the width argument) and the lane id.
extern "C" __global__ void segments(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  out[3 * i] = __shfl_xor(v, 1, 16);
  out[3 * i + 1] = __shfl_down(v, 2, 8);
  out[3 * i + 2] = __lane_id();
}

// Block-wide votes: a barrier that also counts, ands and ors a predicate.
extern "C" __global__ void block_votes(const int *in, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int count = __syncthreads_count(v > 0);
  int every = __syncthreads_and(v > -900);
  int some = __syncthreads_or(v > 990);
  if (threadIdx.x == 0) {
    out[3 * blockIdx.x] = count;
    out[3 * blockIdx.x + 1] = every;
    out[3 * blockIdx.x + 2] = some;
  }
}

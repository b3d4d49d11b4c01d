#include "common.h"

/* Work-group sum in local memory with barriers (tree reduction). */
__kernel void local_reduce(__global const float *a, __global float *sums, __local float *scratch) {
  int lid = LID0();
  int size = LSIZE0();
  scratch[lid] = a[GID0()];
  BARRIER();
  for (int stride = size / 2; stride > 0; stride /= 2) {
    if (lid < stride)
      scratch[lid] += scratch[lid + stride];
    BARRIER();
  }
  if (lid == 0)
    sums[GROUP0()] = scratch[0];
}

/* Global atomics: a counter, a maximum and a minimum over every work-item. */
__kernel void global_atomics(__global const int *a, __global int *acc) {
  int i = GID0();
  ATOMIC_ADD(&acc[0], a[i]);
  ATOMIC_MAX(&acc[1], a[i]);
  ATOMIC_MIN(&acc[2], a[i]);
  ATOMIC_ADD(&acc[3], 1);
}

/* Local atomics: a 16-bin histogram per work-group, merged into global memory. */
__kernel void local_histogram(__global const uint *a, __global uint *hist) {
  __local uint bins[16];
  int lid = LID0();
  if (lid < 16) bins[lid] = 0;
  BARRIER();
  ATOMIC_ADD(&bins[a[GID0()] & 15u], 1u);
  BARRIER();
  if (lid < 16) ATOMIC_ADD(&hist[lid], bins[lid]);
}

/* Divergent control flow and data-dependent loops: Collatz step counts. */
__kernel void collatz(__global const uint *a, __global uint *steps) {
  int i = GID0();
  uint x = a[i];
  uint count = 0;
  while (x > 1u && count < 1000u) {
    if (x & 1u) x = 3u * x + 1u;
    else x >>= 1;
    ++count;
  }
  steps[i] = count;
}

__attribute__((noinline)) int mix(int x, int y) {
  return x * 31 + (y ^ (x >> 2));
}

__attribute__((noinline)) float scale(float x, int k) {
  return x * (float)k + 0.25f;
}

/* Non-inlined function calls (s_getpc / s_swappc, a stack in scratch). */
__kernel void calls(__global const int *a, __global float *out) {
  int i = GID0();
  int m = mix(a[i], i);
  out[i] = scale((float)(m & 1023), i & 7);
}

/* Reversal through local memory: clang folds slot[63 - lid] into a negative
 * ADDR (-4 * lid) plus offset:252, so LDS address arithmetic must wrap at 32 bits. */
__kernel void local_reverse(__global const int *a, __global int *out) {
  __local int slot[64];
  int lid = LID0();
  slot[lid] = a[GID0()];
  BARRIER();
  out[GID0()] = slot[63 - lid];
}

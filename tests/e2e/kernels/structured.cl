#include "common.h"

/* Vector types: component-wise arithmetic and swizzles. */
__kernel void vectors(__global const float4 *a, __global const int2 *b, __global float4 *out, int n) {
  int i = GID0();
  if (i >= n) return;
  float4 v = a[i];
  int2 w = b[i];
  out[i] = v.wzyx * (float4)(1.0f, 2.0f, 3.0f, 4.0f) + (float4)((float)w.x, (float)w.y, (float)(w.x + w.y), 0.5f);
}

typedef struct { int id; float weight; long total; } record;

/* Structs in global memory: read, update and write back. */
__kernel void structs(__global record *r, int n) {
  int i = GID0();
  if (i >= n) return;
  record x = r[i];
  x.total += (long)x.id * 1000;
  x.weight = x.weight * 2.0f + (float)x.id;
  x.id = -x.id;
  r[i] = x;
}

/* A private array indexed dynamically: lives in scratch memory. */
__kernel void private_array(__global const int *a, __global int *out, int n) {
  int i = GID0();
  if (i >= n) return;
  int tmp[16];
  for (int k = 0; k < 16; ++k)
    tmp[k] = a[i] * k + k * k;
  int idx = a[i] & 15;
  out[i] = tmp[idx] + tmp[15 - idx];
}

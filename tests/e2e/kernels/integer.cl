#include "common.h"

/* Signed 32-bit arithmetic, division and remainder (C semantics: truncation). */
__kernel void int_arith(__global const int *a, __global const int *b, __global int *out, int n) {
  int i = GID0();
  if (i >= n) return;
  int x = a[i], y = b[i];
  int d = y == 0 ? 1 : y;
  out[4 * i + 0] = x * y + (x - y);
  out[4 * i + 1] = x / d;
  out[4 * i + 2] = x % d;
  out[4 * i + 3] = (x >> (y & 31)) ^ (x << 3) ^ (x < y ? -1 : 7);
}

/* Unsigned 32-bit: division, shifts, rotates, min/max, bit counting. */
__kernel void uint_arith(__global const uint *a, __global const uint *b, __global uint *out, int n) {
  int i = GID0();
  if (i >= n) return;
  uint x = a[i], y = b[i];
  uint d = y == 0u ? 3u : y;
  out[4 * i + 0] = x / d + x % d;
  out[4 * i + 1] = (x >> (y & 31u)) | (x << ((32u - (y & 31u)) & 31u));
  out[4 * i + 2] = (x > y ? x - y : y - x) + (x * 2654435761u);
  out[4 * i + 3] = (uint)__builtin_popcount(x) + (uint)(x == 0u ? 32 : __builtin_clz(x));
}

/* 64-bit arithmetic: multiply, division, remainder, shifts. */
__kernel void long_arith(__global const long *a, __global const long *b, __global long *out, int n) {
  int i = GID0();
  if (i >= n) return;
  long x = a[i], y = b[i];
  long d = y == 0 ? 7 : y;
  out[4 * i + 0] = x * y + 12345678901L;
  out[4 * i + 1] = x / d;
  out[4 * i + 2] = x % d;
  out[4 * i + 3] = (long)(((ulong)x >> (y & 63)) ^ ((ulong)x << 5));
}

#include "common.h"

/* 2D: transpose a W x H matrix; the grid is not a multiple of the 2D block. */
__kernel void transpose(__global const float *in, __global float *out, int width, int height) {
  int x = GID0(), y = GID1();
  if (x < width && y < height)
    out[x * height + y] = in[y * width + x];
}

/* 3D: every work-item writes its linear global id and its local/group ids. */
__kernel void ids3d(__global int *out, int nx, int ny, int nz) {
  int x = GID0(), y = GID1(), z = GID2();
  if (x >= nx || y >= ny || z >= nz) return;
  int linear = (z * ny + y) * nx + x;
  out[3 * linear + 0] = LID0() + 10 * LID1() + 100 * LID2();
  out[3 * linear + 1] = GROUP0() + 10 * GROUP1() + 100 * GROUP2();
  out[3 * linear + 2] = linear;
}

#define TILE 8
/* Tiled matrix multiply C = A * B (n x n, n a multiple of TILE) through local memory. */
__kernel void matmul_tiled(__global const float *a, __global const float *b, __global float *c, int n) {
  __local float ta[TILE][TILE];
  __local float tb[TILE][TILE];
  int lx = LID0(), ly = LID1();
  int col = GID0(), row = GID1();
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    ta[ly][lx] = a[row * n + t + lx];
    tb[ly][lx] = b[(t + ly) * n + col];
    BARRIER();
    for (int k = 0; k < TILE; ++k)
      acc += ta[ly][k] * tb[k][lx];
    BARRIER();
  }
  c[row * n + col] = acc;
}

/* Narrow integer types: char and short arithmetic with C's promotions and wrap-around. */
__kernel void narrow_ints(__global const char *a, __global const short *b, __global char *c8,
                          __global short *c16, __global uchar *u8, int n) {
  int i = GID0();
  if (i >= n) return;
  c8[i] = (char)(a[i] * 3 + (char)b[i]);
  c16[i] = (short)(b[i] * a[i] - 7);
  u8[i] = (uchar)(a[i] ^ (b[i] >> 3));
}

/* Transcendentals in single precision (device library or native lowering). */
__kernel void transcendentals(__global const float *x, __global float *out, int n) {
  int i = GID0();
  if (i >= n) return;
  float v = x[i];
  out[4 * i + 0] = SINF(v);
  out[4 * i + 1] = COSF(v);
  out[4 * i + 2] = EXP2F(v);
  out[4 * i + 3] = LOG2F(FABSF(v) + 0.5f);
}

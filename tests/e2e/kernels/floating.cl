#include "common.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

/* Single precision: correctly rounded add/sub/mul, division, sqrt, fma, min/max. */
__kernel void float_math(__global const float *a, __global const float *b, __global float *out, int n) {
  int i = GID0();
  if (i >= n) return;
  float x = a[i], y = b[i];
  out[6 * i + 0] = x * y - x;
  out[6 * i + 1] = x / y;
  out[6 * i + 2] = SQRTF(FABSF(x));
  out[6 * i + 3] = FMAF(x, y, 1.5f);
  out[6 * i + 4] = FMINF(x, y) + FMAXF(x, y) * 0.5f;
  out[6 * i + 5] = FLOORF(x * 3.0f);
}

/* Double precision: arithmetic, division and sqrt. */
__kernel void double_math(__global const double *a, __global const double *b, __global double *out, int n) {
  int i = GID0();
  if (i >= n) return;
  double x = a[i], y = b[i];
  out[4 * i + 0] = x * y + x;
  out[4 * i + 1] = x / y;
  out[4 * i + 2] = SQRT(x * x + y * y);
  out[4 * i + 3] = x - y * 0.25;
}

/* Half precision arithmetic (cl_khr_fp16). */
__kernel void half_math(__global const half *a, __global const half *b, __global half *out, int n) {
  int i = GID0();
  if (i >= n) return;
  half x = a[i], y = b[i];
  out[2 * i + 0] = x * y;
  out[2 * i + 1] = x + y;
}

/* Conversions between integer and floating-point types (round toward zero). */
__kernel void conversions(__global const float *f, __global const int *k,
                          __global int *as_int, __global float *as_float,
                          __global double *as_double, __global uint *as_uint, int n) {
  int i = GID0();
  if (i >= n) return;
  as_int[i] = (int)f[i];
  as_float[i] = (float)k[i] + (float)(uint)k[i];
  as_double[i] = (double)f[i] * (double)k[i];
  as_uint[i] = (uint)FABSF(f[i]);
}

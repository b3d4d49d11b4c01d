#include "common.h"

/* Math-library coverage: OpenCL built-ins as clang-19 lowers them through the
 * ROCm device libraries (OCML) in float and double, plus the subset that
 * clang-14 without device libraries can express with __builtin_* functions.
 * Every kernel writes a row of results per work-item; the host checks each
 * column with the OpenCL accuracy requirement of that function. */

#ifdef NO_DEVICE_LIBS
#define ML_FMA(x, y, z) __builtin_fma(x, y, z)
#define ML_FMAF(x, y, z) __builtin_fmaf(x, y, z)
#define ML_ROUND(x) __builtin_round(x)
#define ML_ROUNDF(x) __builtin_roundf(x)
#define ML_RINT(x) __builtin_rint(x)
#define ML_RINTF(x) __builtin_rintf(x)
#define ML_TRUNC(x) __builtin_trunc(x)
#define ML_TRUNCF(x) __builtin_truncf(x)
#define ML_CEIL(x) __builtin_ceil(x)
#define ML_CEILF(x) __builtin_ceilf(x)
#define ML_FLOOR(x) __builtin_floor(x)
#define ML_FLOORF(x) __builtin_floorf(x)
#define ML_FMIN(x, y) __builtin_fmin(x, y)
#define ML_FMINF(x, y) __builtin_fminf(x, y)
#define ML_FMAX(x, y) __builtin_fmax(x, y)
#define ML_FMAXF(x, y) __builtin_fmaxf(x, y)
#define ML_COPYSIGN(x, y) __builtin_copysign(x, y)
#define ML_COPYSIGNF(x, y) __builtin_copysignf(x, y)
#define ML_FABS(x) __builtin_fabs(x)
#define ML_FABSF(x) __builtin_fabsf(x)
#define ML_SQRT(x) __builtin_sqrt(x)
#define ML_SQRTF(x) __builtin_sqrtf(x)
#define ML_FREXP_MANT(x) __builtin_amdgcn_frexp_mant(x)
#define ML_FREXP_MANTF(x) __builtin_amdgcn_frexp_mantf(x)
#define ML_FREXP_EXP(x) __builtin_amdgcn_frexp_exp(x)
#define ML_FREXP_EXPF(x) __builtin_amdgcn_frexp_expf(x)
#define ML_LDEXP(x, k) __builtin_amdgcn_ldexp(x, k)
#define ML_LDEXPF(x, k) __builtin_amdgcn_ldexpf(x, k)
#define ML_ISNAN(x) __builtin_isnan(x)
#define ML_ISINF(x) __builtin_isinf(x)
#define ML_ISFINITE(x) __builtin_isfinite(x)
#define ML_ISNORMAL(x) __builtin_isnormal(x)
#define ML_SIGNBIT(x) (__builtin_signbit(x) != 0)
#else
#define ML_FMA(x, y, z) fma(x, y, z)
#define ML_FMAF(x, y, z) fma(x, y, z)
#define ML_ROUND(x) round(x)
#define ML_ROUNDF(x) round(x)
#define ML_RINT(x) rint(x)
#define ML_RINTF(x) rint(x)
#define ML_TRUNC(x) trunc(x)
#define ML_TRUNCF(x) trunc(x)
#define ML_CEIL(x) ceil(x)
#define ML_CEILF(x) ceil(x)
#define ML_FLOOR(x) floor(x)
#define ML_FLOORF(x) floor(x)
#define ML_FMIN(x, y) fmin(x, y)
#define ML_FMINF(x, y) fmin(x, y)
#define ML_FMAX(x, y) fmax(x, y)
#define ML_FMAXF(x, y) fmax(x, y)
#define ML_COPYSIGN(x, y) copysign(x, y)
#define ML_COPYSIGNF(x, y) copysign(x, y)
#define ML_FABS(x) fabs(x)
#define ML_FABSF(x) fabs(x)
#define ML_SQRT(x) sqrt(x)
#define ML_SQRTF(x) sqrt(x)
#define ML_LDEXP(x, k) ldexp(x, k)
#define ML_LDEXPF(x, k) ldexp(x, k)
#define ML_ISNAN(x) isnan(x)
#define ML_ISINF(x) isinf(x)
#define ML_ISFINITE(x) isfinite(x)
#define ML_ISNORMAL(x) isnormal(x)
#define ML_SIGNBIT(x) (signbit(x) != 0)
#endif

/* ------------------------------------------------------------------ both */

/* Exact operations: rounding to integers, fma, min/max, copysign. */
#define ROUNDING_KERNEL(NAME, T, SUF)                                               \
__kernel void NAME(__global const T *a, __global const T *b, __global const T *c,  \
                   __global T *out, int n) {                                        \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i], y = b[i], z = c[i];                                                   \
  __global T *o = out + 10 * i;                                                     \
  o[0] = ML_ROUND##SUF(x);                                                          \
  o[1] = ML_RINT##SUF(x);                                                           \
  o[2] = ML_TRUNC##SUF(x);                                                          \
  o[3] = ML_CEIL##SUF(x);                                                           \
  o[4] = ML_FLOOR##SUF(x);                                                          \
  o[5] = ML_FMA##SUF(x, y, z);                                                      \
  o[6] = ML_FMIN##SUF(x, y);                                                        \
  o[7] = ML_FMAX##SUF(x, y);                                                        \
  o[8] = ML_FMIN##SUF(ML_FMAX##SUF(x, (T)-1.5), (T)2.25);                           \
  o[9] = ML_COPYSIGN##SUF(ML_FABS##SUF(x), y);                                      \
}
ROUNDING_KERNEL(rounding_f32, float, F)
ROUNDING_KERNEL(rounding_f64, double, )

/* frexp / ldexp and square root (correctly rounded for double). */
#ifdef NO_DEVICE_LIBS
#define FREXP_BODY(SUF)                                                             \
  mant[i] = ML_FREXP_MANT##SUF(x);                                                  \
  expo[i] = ML_FREXP_EXP##SUF(x);
#else
#define FREXP_BODY(SUF)                                                             \
  int e;                                                                            \
  mant[i] = frexp(x, &e);                                                           \
  expo[i] = e;
#endif
#define FREXP_KERNEL(NAME, T, SUF)                                                  \
__kernel void NAME(__global const T *a, __global const int *k, __global T *mant,   \
                   __global int *expo, __global T *scaled, __global T *root, int n) { \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i];                                                                       \
  FREXP_BODY(SUF)                                                                   \
  scaled[i] = ML_LDEXP##SUF(x, k[i]);                                               \
  root[i] = ML_SQRT##SUF(ML_FABS##SUF(x));                                          \
}
FREXP_KERNEL(frexp_f32, float, F)
FREXP_KERNEL(frexp_f64, double, )

/* Classification of special values (scalar relational built-ins return 0/1). */
#define CLASSIFY_KERNEL(NAME, T)                                                    \
__kernel void NAME(__global const T *a, __global int *out, int n) {                 \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i];                                                                       \
  out[5 * i + 0] = ML_ISNAN(x) ? 1 : 0;                                             \
  out[5 * i + 1] = ML_ISINF(x) ? 1 : 0;                                             \
  out[5 * i + 2] = ML_ISFINITE(x) ? 1 : 0;                                          \
  out[5 * i + 3] = ML_ISNORMAL(x) ? 1 : 0;                                          \
  out[5 * i + 4] = ML_SIGNBIT(x) ? 1 : 0;                                           \
}
CLASSIFY_KERNEL(classify_f32, float)
CLASSIFY_KERNEL(classify_f64, double)

/* Integer built-ins; clang-14 spells them as the C the built-ins stand for. */
#ifdef NO_DEVICE_LIBS
#define MUL_HI_I(x, y) ((int)(((long)(x) * (long)(y)) >> 32))
#define MUL_HI_U(x, y) ((uint)(((ulong)(x) * (ulong)(y)) >> 32))
#define MUL24_I(x, y) ((((int)(x) << 8) >> 8) * (((int)(y) << 8) >> 8))
#define MAD24_U(x, y, z) (((x) & 0xFFFFFFu) * ((y) & 0xFFFFFFu) + (z))
#define ROTATE_U(x, s) (((x) << ((s) & 31u)) | ((x) >> ((32u - ((s) & 31u)) & 31u)))
#define CLZ_U(x) ((x) == 0u ? 32u : (uint)__builtin_clz(x))
#define POPCOUNT_U(x) ((uint)__builtin_popcount(x))
#define ABS_DIFF_I(x, y) ((x) > (y) ? (uint)(x) - (uint)(y) : (uint)(y) - (uint)(x))
#define ADD_SAT_I(x, y) saturate_int((long)(x) + (long)(y))
#define SUB_SAT_U(x, y) ((x) > (y) ? (x) - (y) : 0u)
#define UPSAMPLE_S(h, l) ((int)(((uint)(ushort)(h) << 16) | (uint)(ushort)(l)))
#define SELECT_I(x, y, c) ((c) ? (y) : (x))
static int saturate_int(long v) {
  return (int)(v > 2147483647L ? 2147483647L : v < -2147483648L ? -2147483648L : v);
}
#define BITSELECT_U(x, y, c) (((x) & ~(c)) | ((y) & (c)))
#define MAD_HI_U(x, y, z) (MUL_HI_U(x, y) + (z))
#else
#define MUL_HI_I(x, y) mul_hi(x, y)
#define MUL_HI_U(x, y) mul_hi(x, y)
#define MUL24_I(x, y) mul24(x, y)
#define MAD24_U(x, y, z) mad24(x, y, z)
#define ROTATE_U(x, s) rotate(x, s)
#define CLZ_U(x) clz(x)
#define POPCOUNT_U(x) popcount(x)
#define ABS_DIFF_I(x, y) abs_diff(x, y)
#define ADD_SAT_I(x, y) add_sat(x, y)
#define SUB_SAT_U(x, y) sub_sat(x, y)
#define UPSAMPLE_S(h, l) upsample((short)(h), (ushort)(l))
#define SELECT_I(x, y, c) select(x, y, c)
#define BITSELECT_U(x, y, c) bitselect(x, y, c)
#define MAD_HI_U(x, y, z) mad_hi(x, y, z)
#endif

__kernel void int_builtins(__global const int *a, __global const int *b, __global const int *c,
                           __global int *out, int n) {
  int i = GID0();
  if (i >= n) return;
  int x = a[i], y = b[i], z = c[i];
  uint ux = (uint)x, uy = (uint)y, uz = (uint)z;
  __global int *o = out + 14 * i;
  o[0] = MUL_HI_I(x, y);
  o[1] = (int)MUL_HI_U(ux, uy);
  o[2] = MUL24_I((x << 8) >> 8, (y << 8) >> 8);
  o[3] = (int)MAD24_U(ux & 0xFFFFFFu, uy & 0xFFFFFFu, uz);
  o[4] = (int)ROTATE_U(ux, uy);
  o[5] = (int)CLZ_U(ux >> (uy & 31u));
  o[6] = (int)POPCOUNT_U(ux);
  o[7] = (int)ABS_DIFF_I(x >> 1, y >> 1);   /* OCML's abs_diff wraps if x - y overflows */
  o[8] = ADD_SAT_I(x, y);
  o[9] = (int)SUB_SAT_U(ux, uy);
  o[10] = UPSAMPLE_S(x, y);
  o[11] = SELECT_I(x, y, z);
  o[12] = (int)BITSELECT_U(ux, uy, uz);
  o[13] = (int)MAD_HI_U(ux, uy, uz);
}

/* Hardware built-ins (both compilers): each maps to one instruction whose
 * ISA-manual definition the host re-computes. */
__kernel void hw_float_builtins(__global const float *a, __global const float *b,
                                __global const float *c, __global float *out, int n) {
  int i = GID0();
  if (i >= n) return;
  float x = a[i], y = b[i], z = c[i];
  float ax = __builtin_fabsf(x) + 0.25f;
  __global float *o = out + 8 * i;
  o[0] = __builtin_amdgcn_rcpf(ax);
  o[1] = __builtin_amdgcn_rsqf(ax);
  o[2] = __builtin_amdgcn_fractf(x);
  o[3] = __builtin_amdgcn_fmed3f(x, y, z);
  o[4] = __builtin_amdgcn_sinf(x * 0.125f);
  o[5] = __builtin_amdgcn_cosf(x * 0.125f);
  o[6] = __builtin_amdgcn_ldexpf(x, (int)y);
  o[7] = __builtin_amdgcn_frexp_mantf(x);
}

__kernel void hw_int_builtins(__global const uint *a, __global const uint *b,
                              __global const uint *c, __global uint *out, int n) {
  int i = GID0();
  if (i >= n) return;
  uint x = a[i], y = b[i], z = c[i];
  __global uint *o = out + 8 * i;
  o[0] = __builtin_amdgcn_ubfe(x, y & 31u, z & 31u);
  o[1] = (uint)__builtin_amdgcn_sbfe((int)x, y & 31u, z & 31u);
  o[2] = __builtin_amdgcn_alignbit(x, y, z);
  o[3] = __builtin_amdgcn_alignbyte(x, y, z);
  o[4] = __builtin_amdgcn_lerp(x, y, z);
  o[5] = __builtin_amdgcn_sad_u8(x, y, z & 0xFFFFu);
  o[6] = __builtin_amdgcn_sad_hi_u8(x, y, z);
  o[7] = __builtin_amdgcn_sad_u16(x, y, z & 0xFFFFu);
}

/* C conversions between 64/32-bit integers and float/double (round to nearest
 * even to floating point, truncation to integer), as the compiler expands them. */
__kernel void conversions(__global const long *l, __global const double *d,
                          __global float *f_out, __global double *d_out, __global long *l_out,
                          int n) {
  int i = GID0();
  if (i >= n) return;
  long x = l[i];
  double y = d[i];
  __global float *f = f_out + 5 * i;
  __global double *g = d_out + 3 * i;
  __global long *k = l_out + 3 * i;
  f[0] = (float)x;
  f[1] = (float)(ulong)x;
  f[2] = (float)y;
  f[3] = (float)(uint)x;
  f[4] = (float)(int)x;
  g[0] = (double)x;
  g[1] = (double)(ulong)x;
  g[2] = (double)(float)y;
  k[0] = (long)y;
  k[1] = (long)(ulong)__builtin_fabs(y);
  k[2] = (long)(float)y;
}

/* ------------------------------------------------- device libraries only */
#ifndef NO_DEVICE_LIBS

/* One-argument functions with an ulp bound each (host: ULPS_UNARY). */
#define UNARY_KERNEL(NAME, T)                                                       \
__kernel void NAME(__global const T *a, __global T *out, int n) {                   \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i];                                                                       \
  T ax = fabs(x) + (T)0.25;                                                         \
  __global T *o = out + 14 * i;                                                     \
  o[0] = sin(x);                                                                    \
  o[1] = cos(x);                                                                    \
  o[2] = tan(x);                                                                    \
  o[3] = exp(x);                                                                    \
  o[4] = log(ax);                                                                   \
  o[5] = sqrt(ax);                                                                  \
  o[6] = rsqrt(ax);                                                                 \
  o[7] = cbrt(x);                                                                   \
  o[8] = erf(x);                                                                    \
  o[9] = tanh(x);                                                                   \
  o[10] = exp2(x);                                                                  \
  o[11] = log10(ax);                                                                \
  T c;                                                                              \
  o[12] = sincos(x, &c);                                                            \
  o[13] = c;                                                                        \
}
UNARY_KERNEL(unary_f32, float)
UNARY_KERNEL(unary_f64, double)

/* Large arguments take the Payne-Hanek reduction path of sin/cos. */
#define LARGE_TRIG_KERNEL(NAME, T)                                                  \
__kernel void NAME(__global const T *a, __global T *out, int n) {                   \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  out[2 * i + 0] = sin(a[i]);                                                       \
  out[2 * i + 1] = cos(a[i]);                                                       \
}
LARGE_TRIG_KERNEL(large_trig_f32, float)
LARGE_TRIG_KERNEL(large_trig_f64, double)

/* Two-argument functions, and mad (either rounding is allowed). */
#define BINARY_KERNEL(NAME, T)                                                      \
__kernel void NAME(__global const T *a, __global const T *b, __global T *out, int n) { \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i], y = b[i];                                                             \
  __global T *o = out + 8 * i;                                                      \
  o[0] = fmod(x, y);                                                                \
  o[1] = remainder(x, y);                                                           \
  o[2] = atan2(x, y);                                                               \
  o[3] = hypot(x, y);                                                               \
  o[4] = pow(fabs(y), x * (T)0.5);                                                  \
  o[5] = mad(x, y, (T)0.375);                                                       \
  o[6] = clamp(x, (T)-2.5, y < (T)-2.5 ? (T)-2.5 : y);                              \
  o[7] = max(x, y) - min(x, y);                                                     \
}
BINARY_KERNEL(binary_f32, float)
BINARY_KERNEL(binary_f64, double)

/* More one-argument functions: inverse trig, hyperbolic, *pi, gamma, exact ones. */
#define UNARY2_KERNEL(NAME, T)                                                      \
__kernel void NAME(__global const T *a, __global T *out, __global int *ints, int n) { \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i];                                                                       \
  T u = x * (T)0.125;            /* in (-1, 1) */                                  \
  T ax = fabs(x) + (T)1.25;      /* > 1 */                                          \
  __global T *o = out + 18 * i;                                                     \
  o[0] = asin(u);                                                                   \
  o[1] = acos(u);                                                                   \
  o[2] = atan(x);                                                                   \
  o[3] = sinh(x);                                                                   \
  o[4] = cosh(x);                                                                   \
  o[5] = asinh(x);                                                                  \
  o[6] = acosh(ax);                                                                 \
  o[7] = atanh(u);                                                                  \
  o[8] = expm1(x);                                                                  \
  o[9] = log1p(ax - (T)1.125);                                                      \
  o[10] = log2(ax);                                                                 \
  o[11] = sinpi(x);                                                                 \
  o[12] = cospi(x);                                                                 \
  o[13] = tgamma(ax);                                                               \
  o[14] = logb(x);                                                                  \
  T whole;                                                                          \
  o[15] = modf(x, &whole);                                                          \
  o[16] = whole;                                                                    \
  o[17] = nextafter(x, (T)0);                                                       \
  ints[2 * i + 0] = ilogb(x);                                                       \
  ints[2 * i + 1] = (int)signbit(copysign((T)1, x));                                \
}
UNARY2_KERNEL(unary2_f32, float)
UNARY2_KERNEL(unary2_f64, double)

/* Power and error-function families. */
#define POWERS_KERNEL(NAME, T)                                                      \
__kernel void NAME(__global const T *a, __global const T *b, __global T *out, int n) { \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i], y = b[i];                                                             \
  T ax = fabs(x) + (T)0.5;                                                          \
  __global T *o = out + 6 * i;                                                      \
  o[0] = exp10(x * (T)0.25);                                                        \
  o[1] = erfc(x * (T)0.5);                                                          \
  o[2] = pown(x, 3);                                                                \
  o[3] = rootn(ax, 3);                                                              \
  o[4] = powr(ax, y);                                                               \
  o[5] = log1p(x * x);                                                              \
}
POWERS_KERNEL(powers_f32, float)
POWERS_KERNEL(powers_f64, double)

/* C99 Annex F special cases: infinities, NaN, signed zeros, overflow. */
#define SPECIAL_KERNEL(NAME, T)                                                     \
__kernel void NAME(__global const T *a, __global T *out, int n) {                   \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i];                                                                       \
  __global T *o = out + 12 * i;                                                     \
  o[0] = sin(x);                                                                    \
  o[1] = cos(x);                                                                    \
  o[2] = exp(x);                                                                    \
  o[3] = log(x);                                                                    \
  o[4] = sqrt(x);                                                                   \
  o[5] = rsqrt(x);                                                                  \
  o[6] = fmod(x, (T)2.5);                                                           \
  o[7] = fmod((T)2.5, x);                                                           \
  o[8] = atan2(x, (T)-1);                                                           \
  o[9] = tanh(x);                                                                   \
  o[10] = erf(x);                                                                   \
  o[11] = cbrt(x);                                                                  \
}
SPECIAL_KERNEL(special_f32, float)
SPECIAL_KERNEL(special_f64, double)

/* Narrow and 64-bit integer built-ins (saturating forms use clamp bits, SDWA). */
__kernel void narrow_int_builtins(__global const int *a, __global const int *b,
                                  __global int *out, int n) {
  int i = GID0();
  if (i >= n) return;
  uchar xc = (uchar)a[i], yc = (uchar)b[i];
  short xs = (short)a[i], ys = (short)b[i];
  ushort xu = (ushort)a[i], yu = (ushort)b[i];
  __global int *o = out + 12 * i;
  o[0] = add_sat(xc, yc);
  o[1] = sub_sat(xc, yc);
  o[2] = add_sat(xs, ys);
  o[3] = sub_sat(xs, ys);
  o[4] = add_sat(xu, yu);
  o[5] = hadd(xs, ys);
  o[6] = rhadd(xu, yu);
  o[7] = mul_hi(xs, ys);
  o[8] = clz(xc);
  o[9] = popcount(xu);
  o[10] = rotate(xc, yc);
  o[11] = upsample(xc, yc);
}

__kernel void long_builtins(__global const long *a, __global const long *b,
                            __global long *out, int n) {
  int i = GID0();
  if (i >= n) return;
  long x = a[i], y = b[i];
  ulong ux = (ulong)x, uy = (ulong)y;
  __global long *o = out + 8 * i;
  o[0] = mul_hi(x, y);
  o[1] = (long)mul_hi(ux, uy);
  o[2] = (long)clz(ux >> (uy & 63));
  o[3] = (long)popcount(ux);
  o[4] = (long)rotate(ux, uy);
  o[5] = add_sat(x, y);
  o[6] = (long)sub_sat(ux, uy);
  o[7] = (long)abs_diff(x >> 1, y >> 1);
}

/* NaN and signed-zero rules of the exact functions, and saturating conversions. */
#define EDGE_KERNEL(NAME, T)                                                        \
__kernel void NAME(__global const T *a, __global const T *b, __global T *out,       \
                   __global int *ints, int n) {                                     \
  int i = GID0();                                                                   \
  if (i >= n) return;                                                               \
  T x = a[i], y = b[i];                                                             \
  __global T *o = out + 8 * i;                                                      \
  int q, e;                                                                         \
  o[0] = fmin(x, y);                                                                \
  o[1] = fmax(x, y);                                                                \
  o[2] = fdim(x, y);                                                                \
  o[3] = copysign(x, y);                                                            \
  o[4] = remquo(x, y, &q);                                                          \
  o[5] = frexp(x, &e);                                                              \
  o[6] = ldexp(x, (int)y);                                                          \
  T whole;                                                                          \
  o[7] = fract(x, &whole);                                                          \
  __global int *k = ints + 6 * i;                                                   \
  k[0] = q;                                                                         \
  k[1] = e;                                                                         \
  k[2] = convert_int_sat(x);                                                        \
  k[3] = convert_int_sat_rte(x);                                                    \
  k[4] = (int)convert_uchar_sat(x);                                                 \
  k[5] = (int)convert_short_sat_rtn(x);                                             \
}
EDGE_KERNEL(edges_f32, float)
EDGE_KERNEL(edges_f64, double)

/* Half precision (cl_khr_fp16) through OCML's f16 paths. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void unary_f16(__global const half *a, __global const half *b, __global half *out,
                        int n) {
  int i = GID0();
  if (i >= n) return;
  half x = a[i], y = b[i];
  half ax = fabs(x) + (half)0.25;
  __global half *o = out + 12 * i;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = exp(x);
  o[3] = log(ax);
  o[4] = sqrt(ax);
  o[5] = rsqrt(ax);
  o[6] = fma(x, y, (half)0.75);
  o[7] = floor(x);
  o[8] = rint(x);
  o[9] = fmax(x, y);
  o[10] = ldexp(x, 3);
  o[11] = (half)((float)x * (float)y);
}

/* native_ and half_ variants (float only): implementation-defined accuracy. */
__kernel void native_half_f32(__global const float *a, __global float *out, int n) {
  int i = GID0();
  if (i >= n) return;
  float x = a[i];
  float ax = fabs(x) + 0.25f;
  __global float *o = out + 10 * i;
  o[0] = native_sqrt(ax);
  o[1] = native_rsqrt(ax);
  o[2] = half_sqrt(ax);
  o[3] = half_rsqrt(ax);
  o[4] = native_exp(x);
  o[5] = native_log(ax);
  o[6] = native_sin(x);
  o[7] = native_cos(x);
  o[8] = native_recip(ax);
  o[9] = half_exp2(x);
}

#endif

// Plain HIP kernels: indexing, 2D grids, templates, device functions, structs
// passed by value, and the math library. Each kernel's reference is in test_hip.py.
#include <hip/hip_runtime.h>

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// out[y][x] = 1000 * y + x, checking blockIdx.y/blockDim.y/gridDim.
extern "C" __global__ void grid2d(int *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[y * width + x] = 1000 * y + x + 1000000 * (gridDim.x * gridDim.y == 0);
}

template <typename T>
__global__ void axpy(T alpha, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}
template __global__ void axpy<float>(float, const float *, float *, int);
template __global__ void axpy<double>(double, const double *, double *, int);
template __global__ void axpy<int>(int, const int *, int *, int);

__device__ __attribute__((noinline)) int mix(int a, int b) {
  return (a * 31) ^ (b >> 2);
}
__device__ __attribute__((noinline)) float weigh(int m, int i) {
  return (float)(m & 1023) * (float)(i & 7) + 0.25f;
}
extern "C" __global__ void calls(const int *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = weigh(mix(a[i], i), i);
}

struct Params {
  int offset;
  float scale;
  double bias;
  short tag;
};
extern "C" __global__ void by_value(Params p, const float *x, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (double)(x[i] * p.scale + (float)p.offset) + p.bias * p.tag;
}

extern "C" __global__ void math(const float *x, const double *d, float *out, double *dout,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[3 * i] = sinf(x[i]);
    out[3 * i + 1] = expf(x[i]);
    out[3 * i + 2] = sqrtf(fabsf(x[i]));
    dout[2 * i] = sqrt(fabs(d[i]));
    dout[2 * i + 1] = d[i] * d[i] / 3.0 + exp(d[i] * 0.001);
  }
}

// Two kernels instantiating one template: clang puts twice<float> in a COMDAT group.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
template <typename T> __device__ __attribute__((noinline)) T twice(T x) { return x + x; }
__global__ void k1(float *p) { p[__builtin_amdgcn_workitem_id_x()] = twice(p[__builtin_amdgcn_workitem_id_x()]); }

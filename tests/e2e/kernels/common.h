/* Portability macros: clang-19 builds with the ROCm device libraries
 * (OpenCL built-ins), clang-14 builds with -nogpulib (code object v2), where
 * only clang's own __builtin_amdgcn_* intrinsics exist. */
#pragma OPENCL FP_CONTRACT OFF
#ifdef NO_DEVICE_LIBS
#define DISPATCH_U16(i) (((__constant unsigned short *)__builtin_amdgcn_dispatch_ptr())[i])
#define LID0() ((int)__builtin_amdgcn_workitem_id_x())
#define LSIZE0() ((int)DISPATCH_U16(2))
#define GROUP0() ((int)__builtin_amdgcn_workgroup_id_x())
#define GID0() (GROUP0() * LSIZE0() + LID0())
#define BARRIER() do { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
                       __builtin_amdgcn_s_barrier(); \
                       __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); } while (0)
#define ATOMIC_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define ATOMIC_MAX(p, v) __atomic_fetch_max((p), (v), __ATOMIC_RELAXED)
#define ATOMIC_MIN(p, v) __atomic_fetch_min((p), (v), __ATOMIC_RELAXED)
#define ATOMIC_XCHG(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define SQRTF(x) __builtin_sqrtf(x)
#define SQRT(x) __builtin_sqrt(x)
#define FABSF(x) __builtin_fabsf(x)
#define FLOORF(x) __builtin_floorf(x)
#define FMINF(x, y) __builtin_fminf(x, y)
#define FMAXF(x, y) __builtin_fmaxf(x, y)
#define FMAF(x, y, z) __builtin_fmaf(x, y, z)
#else
#define LID0() ((int)get_local_id(0))
#define LSIZE0() ((int)get_local_size(0))
#define GROUP0() ((int)get_group_id(0))
#define GID0() ((int)get_global_id(0))
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#define ATOMIC_ADD(p, v) atomic_add((p), (v))
#define ATOMIC_MAX(p, v) atomic_max((p), (v))
#define ATOMIC_MIN(p, v) atomic_min((p), (v))
#define ATOMIC_XCHG(p, v) atomic_xchg((p), (v))
#define SQRTF(x) sqrt(x)
#define SQRT(x) sqrt(x)
#define FABSF(x) fabs(x)
#define FLOORF(x) floor(x)
#define FMINF(x, y) fmin(x, y)
#define FMAXF(x, y) fmax(x, y)
#define FMAF(x, y, z) fma(x, y, z)
#endif

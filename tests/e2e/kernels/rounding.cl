/* MODE.FP_ROUND set from OpenCL C with __builtin_amdgcn_s_setreg (clang-19
 * emits s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4)), then f32/f64/f16
 * arithmetic and conversions; each mode reads its own inputs so the compiler
 * cannot share one computation between modes.  The OpenCL convert_*_rt*
 * built-ins of the device libraries never touch MODE (integer bit
 * manipulation), so this is how a program gets hardware directed rounding.
 * LLVM assumes the default rounding for f64 and f16 ("FPDPRounding")
 * instructions: its SIModeRegister pass puts MODE.FP_ROUND[3:2] back to
 * nearest (s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, n), 0) before them, so
 * only the f32 results here see the directed modes. */
#include "common.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

/* hwreg(HW_REG_MODE, offset 0, size 4): id 1, offset << 6, (size - 1) << 11 */
#define MODE_ROUND_BITS (1 | (0 << 6) | (3 << 11))

#define ROUNDED_OPS(M)                                                          \
    do {                                                                        \
        __builtin_amdgcn_s_setreg(MODE_ROUND_BITS, (M) | ((M) << 2));           \
        int k = (M) * n + i;                                                    \
        out[5 * k + 0] = a[k] + b[k];                                           \
        out[5 * k + 1] = a[k] * b[k];                                           \
        out[5 * k + 2] = a[k] - b[k];                                           \
        out[5 * k + 3] = (float)ints[k];                                        \
        out[5 * k + 4] = (float)da[k];                                          \
        dout[3 * k + 0] = da[k] + db[k];                                        \
        dout[3 * k + 1] = da[k] * db[k];                                        \
        dout[3 * k + 2] = da[k] - db[k];                                        \
        hout[k] = (half)b[k];                                                   \
    } while (0)

kernel void round_modes(global const float *a, global const float *b,
                        global const double *da, global const double *db,
                        global const int *ints, global float *out,
                        global double *dout, global half *hout, int n) {
    int i = GID0();
    if (i >= n)
        return;
    ROUNDED_OPS(0);
    ROUNDED_OPS(1);
    ROUNDED_OPS(2);
    ROUNDED_OPS(3);
    __builtin_amdgcn_s_setreg(MODE_ROUND_BITS, 0);
}

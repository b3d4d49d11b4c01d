/*
 * Device printf (HIP's hostcall printf): integers of every width and base,
 * floats and doubles in %f/%e/%g with widths and precisions, characters,
 * string arguments (literal and from device memory), %%, a format without
 * arguments, a printf in a loop, printfs from several lanes of one wave and
 * from several blocks. The lines are checked by the test (the host prints
 * markers between the kernels); the program itself checks printf's return value.
 */
#include "hip_check.h"

__device__ const char greeting[] = "device string";

__global__ void formats(int *result)
{
    int count = printf("hello from the GPU\n");
    printf("int %d neg %d unsigned %u hex %x HEX %X oct %o\n", 42, -17, 4000000000u, 0xbeef,
           0xbeef, 8);
    printf("long %ld ulong %lu llong %lld hexll %llx\n", -1234567890123L, 18000000000000000000UL,
           -9000000000000000000LL, 0x123456789abcdefULL);
    printf("width [%5d] [%-5d] [%05d] [%+d]\n", 42, 42, 42, 42);
    printf("float %f %.2f %10.4f %e %g %g\n", 1.5f, 3.14159f, -2.71828, 12345.678, 0.0001, 1e20);
    printf("char %c%c%c percent %% string %s and %s\n", 'G', 'P', 'U', "literal", greeting);
    printf("%s=%d, %s=%.1f\n", "x", 7, "y", 2.5);
    for (int i = 0; i < 2; i++) printf("loop %d squared %d\n", i, i * i);
    *result = count;
}

__global__ void lanes()
{
    if (threadIdx.x < 4) printf("lane %d of block %d\n", (int)threadIdx.x, (int)blockIdx.x);
}

__global__ void blocks(const int *values)
{
    if (threadIdx.x == 0) printf("block %d says %d\n", (int)blockIdx.x, values[blockIdx.x]);
}

int main()
{
    int *result;
    CHECK(hipMalloc(&result, sizeof(int)));
    printf("== formats\n");
    fflush(stdout);
    hipLaunchKernelGGL(formats, dim3(1), dim3(1), 0, 0, result);
    CHECK_LAUNCH();
    int count = 0;
    CHECK(hipMemcpy(&count, result, sizeof(int), hipMemcpyDeviceToHost));
    /* printf returns the number of characters printed */
    EXPECT(count == 19, "printf returned %d, expected 19", count);

    printf("== lanes\n");
    fflush(stdout);
    hipLaunchKernelGGL(lanes, dim3(1), dim3(64), 0, 0);
    CHECK_LAUNCH();

    printf("== blocks\n");
    fflush(stdout);
    int values[3] = {100, -200, 300}, *device_values;
    CHECK(hipMalloc(&device_values, sizeof values));
    CHECK(hipMemcpy(device_values, values, sizeof values, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(blocks, dim3(3), dim3(64), 0, 0, device_values);
    CHECK_LAUNCH();
    printf("== end\n");
    CHECK(hipFree(device_values));
    CHECK(hipFree(result));
    return finish("hip_printf");
}

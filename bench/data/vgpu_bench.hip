// The virtual GPU's benchmark program (bench/bench_vgpu.py): the same
// kernels are also run through the Python API from a `hipcc --genco` build.
//   vgpu_bench vadd N REPEATS     c = a + b over N floats: best kernel time
//   vgpu_bench launch REPEATS     a one-wave kernel: launch-to-completion cost
// Prints "name seconds" lines; exits 1 if a result is wrong.
#include <hip/hip_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        hipError_t error_ = (call);                                                         \
        if (error_ != hipSuccess) {                                                         \
            fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(error_));           \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void tiny(int* counter)
{
    if (threadIdx.x == 0)
        counter[0] += 1;
}

static double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

static int bench_vadd(int n, int repeats)
{
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) {
        a[i] = float(i % 1000) * 0.25f;
        b[i] = float(i % 7);
    }
    float *da, *db, *dc;
    CHECK(hipMalloc(&da, n * sizeof(float)));
    CHECK(hipMalloc(&db, n * sizeof(float)));
    CHECK(hipMalloc(&dc, n * sizeof(float)));
    CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
    double best = 1e30;
    for (int r = 0; r <= repeats; r++) {           // run 0 warms up
        double start = now();
        hipLaunchKernelGGL(vector_add, dim3((n + 255) / 256), dim3(256), 0, 0, da, db, dc, n);
        CHECK(hipDeviceSynchronize());
        double seconds = now() - start;
        if (r > 0 && seconds < best)
            best = seconds;
    }
    CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + b[i]) {
            fprintf(stderr, "vadd: c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
            return 1;
        }
    printf("vadd %.6f\n", best);
    return 0;
}

static int bench_launch(int repeats)
{
    int* counter;
    CHECK(hipMalloc(&counter, sizeof(int)));
    CHECK(hipMemset(counter, 0, sizeof(int)));
    hipLaunchKernelGGL(tiny, dim3(1), dim3(64), 0, 0, counter);      // warm-up
    CHECK(hipDeviceSynchronize());
    double start = now();
    for (int r = 0; r < repeats; r++) {
        hipLaunchKernelGGL(tiny, dim3(1), dim3(64), 0, 0, counter);
        CHECK(hipDeviceSynchronize());
    }
    double per_launch = (now() - start) / repeats;
    int value = 0;
    CHECK(hipMemcpy(&value, counter, sizeof(int), hipMemcpyDeviceToHost));
    if (value != repeats + 1) {
        fprintf(stderr, "launch: counter %d, expected %d\n", value, repeats + 1);
        return 1;
    }
    printf("launch %.6f\n", per_launch);
    return 0;
}

int main(int argc, char** argv)
{
    if (argc == 4 && strcmp(argv[1], "vadd") == 0)
        return bench_vadd(atoi(argv[2]), atoi(argv[3]));
    if (argc == 3 && strcmp(argv[1], "launch") == 0)
        return bench_launch(atoi(argv[2]));
    fprintf(stderr, "usage: %s vadd N REPEATS | launch REPEATS\n", argv[0]);
    return 2;
}

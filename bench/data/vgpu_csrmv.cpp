// The rocSPARSE benchmark program (bench/bench_vgpu_sparse.py), run under
// `amdgpu-run --exec`: y = alpha*A*x + beta*y with rocsparse_scsrmv on a
// float CSR matrix.
//   vgpu_csrmv ROWS REPEATS [blocking]
// "blocking": hipSetDeviceFlags(hipDeviceScheduleBlockingSync) first. By
// default HIP 5.2 waits actively: hipDeviceSynchronize spins in ROCr without
// a system call, which on the virtual GPU takes a CPU from the command
// processor that runs the kernel.
// Prints "name value" lines: csrmv SECONDS, the best of REPEATS calls (each
// followed by hipDeviceSynchronize, after one warm-up call); csrmv_cpu, the
// process's CPU seconds in that call (the program's threads and the virtual
// GPU's command processor together); nnz; ysum, the sum of y (exact in
// double) that the Python side checks its own result against. Exits 1 if y
// is wrong.
//
// The matrix is a function of the row and slot numbers (bench_vgpu_sparse.py
// builds the same one with NumPy): row i has 5 + h(i) % 6 nonzeros (7.5 on
// average), its j-th one in the j-th of that many equal column strips, at a
// pseudo-random column of the strip, so columns are sorted and distinct.
// Values, x, y and alpha/beta are small dyadic rationals: every product and
// sum is exact in float, so y must match the host's result bit for bit
// whatever order the kernel adds in.
//
// No rocsparse_mat_info (info == nullptr): rocSPARSE 5.3 then runs its
// general kernel, csrmvn_general_kernel<512, WF> (WF lanes per row, WF = 4
// for 4..7 nonzeros per row on average), one launch, no analysis step.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#define CHECK_HIP(call)                                                                     \
    do {                                                                                    \
        hipError_t error_ = (call);                                                         \
        if (error_ != hipSuccess) {                                                         \
            fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(error_));           \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

#define CHECK_SPARSE(call)                                                                  \
    do {                                                                                    \
        rocsparse_status status_ = (call);                                                  \
        if (status_ != rocsparse_status_success) {                                          \
            fprintf(stderr, "%s failed: rocsparse status %d\n", #call, int(status_));       \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

// lowbias32 (Chris Wellons' integer hash); the NumPy side uses uint32 arithmetic
static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

static double cpu_now()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

int main(int argc, char** argv)
{
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "blocking") != 0)) {
        fprintf(stderr, "usage: %s ROWS REPEATS [blocking]\n", argv[0]);
        return 2;
    }
    if (argc == 4)
        CHECK_HIP(hipSetDeviceFlags(hipDeviceScheduleBlockingSync));
    const int m = atoi(argv[1]), n = m, repeats = atoi(argv[2]);
    const float alpha = 2.0f, beta = 0.5f;

    std::vector<int> row_ptr(m + 1, 0), col_ind;
    std::vector<float> val, x(n), y0(m);
    for (int i = 0; i < m; i++) {
        const int length = 5 + int(hash32(uint32_t(i)) % 6u);
        const int strip = n / length;
        for (int j = 0; j < length; j++) {
            const uint32_t h = hash32(uint32_t(i) * 16u + uint32_t(j) + 0x9e3779b9u);
            col_ind.push_back(j * strip + int(h % uint32_t(strip)));
            val.push_back(float(int((h >> 8) % 255u) - 127) / 64.0f);
        }
        row_ptr[i + 1] = int(col_ind.size());
    }
    for (int c = 0; c < n; c++)
        x[c] = float(c % 97 - 48) / 32.0f;
    for (int r = 0; r < m; r++)
        y0[r] = float(r % 13) / 8.0f;
    const int nnz = row_ptr[m];

    int *d_row_ptr, *d_col_ind;
    float *d_val, *d_x, *d_y;
    CHECK_HIP(hipMalloc(&d_row_ptr, (m + 1) * sizeof(int)));
    CHECK_HIP(hipMalloc(&d_col_ind, nnz * sizeof(int)));
    CHECK_HIP(hipMalloc(&d_val, nnz * sizeof(float)));
    CHECK_HIP(hipMalloc(&d_x, n * sizeof(float)));
    CHECK_HIP(hipMalloc(&d_y, m * sizeof(float)));
    CHECK_HIP(hipMemcpy(d_row_ptr, row_ptr.data(), (m + 1) * sizeof(int), hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(d_col_ind, col_ind.data(), nnz * sizeof(int), hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(d_val, val.data(), nnz * sizeof(float), hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(d_x, x.data(), n * sizeof(float), hipMemcpyHostToDevice));

    rocsparse_handle handle;
    rocsparse_mat_descr descr;
    CHECK_SPARSE(rocsparse_create_handle(&handle));
    CHECK_SPARSE(rocsparse_create_mat_descr(&descr));

    double best = 1e30, best_cpu = 0.0;
    for (int r = 0; r <= repeats; r++) {           // call 0 warms up
        // every call starts from the same y (beta != 0 reads it); not timed
        CHECK_HIP(hipMemcpy(d_y, y0.data(), m * sizeof(float), hipMemcpyHostToDevice));
        const double start = now(), cpu_start = cpu_now();
        CHECK_SPARSE(rocsparse_scsrmv(handle, rocsparse_operation_none, m, n, nnz, &alpha, descr,
                                      d_val, d_row_ptr, d_col_ind, nullptr, d_x, &beta, d_y));
        CHECK_HIP(hipDeviceSynchronize());
        const double seconds = now() - start, cpu_seconds = cpu_now() - cpu_start;
        if (r > 0 && seconds < best) {
            best = seconds;
            best_cpu = cpu_seconds;
        }
    }

    std::vector<float> y(m);
    CHECK_HIP(hipMemcpy(y.data(), d_y, m * sizeof(float), hipMemcpyDeviceToHost));
    double ysum = 0.0;
    for (int i = 0; i < m; i++) {
        float sum = 0.0f;
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)
            sum += alpha * val[k] * x[col_ind[k]];
        const float expected = sum + beta * y0[i];
        if (y[i] != expected) {
            fprintf(stderr, "csrmv: y[%d] = %.9g, expected %.9g\n", i, y[i], expected);
            return 1;
        }
        ysum += y[i];
    }

    CHECK_SPARSE(rocsparse_destroy_mat_descr(descr));
    CHECK_SPARSE(rocsparse_destroy_handle(handle));
    CHECK_HIP(hipFree(d_row_ptr));
    CHECK_HIP(hipFree(d_col_ind));
    CHECK_HIP(hipFree(d_val));
    CHECK_HIP(hipFree(d_x));
    CHECK_HIP(hipFree(d_y));
    printf("csrmv %.6f\ncsrmv_cpu %.6f\nnnz %d\nysum %.10f\n", best, best_cpu, nnz, ysum);
    return 0;
}

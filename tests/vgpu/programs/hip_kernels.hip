/*
 * Kernels: static shared memory with __syncthreads (a block reduction and a
 * reversal through LDS), dynamic shared memory (extern __shared__, sized at
 * launch), templates (one kernel for int, float and double, and a template
 * block size), atomics on ints (add, sub, min, max, and, or, xor, exch, CAS,
 * inc/dec) and floats/doubles (atomicAdd) in global and shared memory, wave
 * intrinsics (__ballot, __any, __all, __shfl, __shfl_up/down/xor,
 * __popcll, __lane_id, warpSize), 2D and 3D grids.
 */
#include "hip_check.h"
#include <cstdint>
#include <vector>

/* --------------------------------------------- shared memory, __syncthreads */
template <int BLOCK>
__global__ void block_sum(const int *in, int *out, int n)
{
    __shared__ int partial[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

/* each block reverses its slice through LDS: every wave reads another's writes */
__global__ void reverse_blocks(const float *in, float *out)
{
    __shared__ float tile[256];
    int base = blockIdx.x * blockDim.x;
    tile[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    out[base + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

/* ----------------------------------------------------- dynamic shared memory */
/* out[block * k + j] = sum over the block of in[i] * (j + 1), k slots in LDS */
__global__ void dynamic_histogram(const int *in, int *out, int k)
{
    extern __shared__ int slots[];
    for (int j = threadIdx.x; j < k; j += blockDim.x) slots[j] = 0;
    __syncthreads();
    int value = in[blockIdx.x * blockDim.x + threadIdx.x];
    atomicAdd(&slots[value % k], 1);
    __syncthreads();
    for (int j = threadIdx.x; j < k; j += blockDim.x) out[blockIdx.x * k + j] = slots[j];
}

/* two dynamic arrays of different types in one extern buffer */
__global__ void dynamic_two_arrays(const double *in, double *out, int n)
{
    extern __shared__ double shared_doubles[];
    double *first = shared_doubles;
    int *second = (int *)(shared_doubles + blockDim.x);
    int t = threadIdx.x;
    first[t] = in[blockIdx.x * blockDim.x + t];
    second[t] = t * 3;
    __syncthreads();
    int other = (t + 1) % blockDim.x;
    out[blockIdx.x * blockDim.x + t] = first[other] + second[other];
}

/* ----------------------------------------------------------------- templates */
template <typename T>
__global__ void axpy(T alpha, const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = alpha * x[i] + y[i];
}

template <typename T, typename F>
__global__ void transform(const T *in, T *out, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(in[i]);
}

struct Cube {
    template <typename T> __device__ T operator()(T x) const { return x * x * x; }
};

/* ------------------------------------------------------------------- atomics */
/* CAS loops and float atomicAdd (a CAS loop before gfx90a) add into SLOTS
 * words: a loop with n contending lanes takes n rounds */
#define SLOTS 8

struct IntAtomics {
    int add, sub, min, max, and_, or_, xor_, exch_count;
    int cas_sum[SLOTS];
    unsigned inc, dec;
};

__global__ void int_atomics(const int *values, int n, IntAtomics *r, int *exch_slot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = values[i];
    atomicAdd(&r->add, v);
    atomicSub(&r->sub, v);
    atomicMin(&r->min, v);
    atomicMax(&r->max, v);
    atomicAnd(&r->and_, ~(1 << (i % 31)));
    atomicOr(&r->or_, 1 << (i % 29));
    atomicXor(&r->xor_, v);
    atomicInc(&r->inc, 1000u);       /* wraps to 0 after 1000 */
    atomicDec(&r->dec, 100000u);
    /* every exchange hands out a distinct previous value: count them */
    int previous = atomicExch(exch_slot, i);
    if (previous >= -1) atomicAdd(&r->exch_count, 1);
    /* a CAS loop adding v */
    int *slot = &r->cas_sum[i % SLOTS];
    int old = *slot, seen;
    do {
        seen = old;
        old = atomicCAS(slot, seen, seen + v);
    } while (old != seen);
}

__global__ void float_atomics(const float *values, int n, float *fsum, double *dsum,
                              float *block_sums)
{
    __shared__ float local;
    if (threadIdx.x == 0) local = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? values[i] : 0.0f;
    atomicAdd(&fsum[i % SLOTS], v);
    atomicAdd(&dsum[i % SLOTS], (double)v * 0.5);
    if (i < 128) atomicAdd(&fsum[SLOTS], v);      /* one hot word */
    atomicAdd(&local, v);           /* LDS float atomic */
    __syncthreads();
    if (threadIdx.x == 0) block_sums[blockIdx.x] = local;
}

/* shared-memory int atomics: a per-block histogram merged into global */
__global__ void shared_histogram(const int *in, int n, unsigned *histogram)
{
    __shared__ unsigned bins[16];
    if (threadIdx.x < 16) bins[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i] & 15], 1u);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&histogram[threadIdx.x], bins[threadIdx.x]);
}

/* ------------------------------------------------------------ wave intrinsics */
struct WaveResult {
    unsigned long long ballot;
    int any, all, popc, lane, width;
    int shfl, shfl_up, shfl_down, shfl_xor;
    int wave_sum;
};

__global__ void wave_ops(const int *in, WaveResult *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    WaveResult r;
    r.ballot = __ballot(v & 1);
    r.any = __any(v == 7);
    r.all = __all(v >= 0);
    r.popc = __popcll(__ballot(v > 50));
    r.lane = __lane_id();
    r.width = warpSize;
    r.shfl = __shfl(v, (threadIdx.x * 5) % warpSize);
    r.shfl_up = __shfl_up(v, 3);
    r.shfl_down = __shfl_down(v, 5);
    r.shfl_xor = __shfl_xor(v, 9);
    int sum = v;
    for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_xor(sum, offset);
    r.wave_sum = sum;
    out[i] = r;
}

/* --------------------------------------------------------------- 2D/3D grids */
__global__ void grid_ids(int *out, int width, int height, int depth)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < width && y < height && z < depth)
        out[(z * height + y) * width + x] = x + 100 * y + 10000 * z;
}

static uint32_t rng_state = 12345;
static int next_random(int bound)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (int)((rng_state >> 8) % (uint32_t)bound);
}

template <typename T>
static void check_axpy(const char *name)
{
    const int n = 1000;
    std::vector<T> x(n), y(n), got(n);
    for (int i = 0; i < n; i++) {
        x[i] = (T)(next_random(1600) - 800) / (T)(sizeof(T) == 4 && (T)0.5 != 0 ? 8 : 1);
        y[i] = (T)(next_random(1600) - 800) / (T)((T)0.5 != 0 ? 4 : 1);
    }
    T *dx, *dy;
    CHECK(hipMalloc(&dx, n * sizeof(T)));
    CHECK(hipMalloc(&dy, n * sizeof(T)));
    CHECK(hipMemcpy(dx, x.data(), n * sizeof(T), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dy, y.data(), n * sizeof(T), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(axpy<T>, dim3((n + 255) / 256), dim3(256), 0, 0, (T)3, dx, dy, n);
    CHECK_LAUNCH();
    hipLaunchKernelGGL((transform<T, Cube>), dim3((n + 127) / 128), dim3(128), 0, 0, dy, dx, n,
                       Cube());
    CHECK_LAUNCH();
    CHECK(hipMemcpy(got.data(), dx, n * sizeof(T), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        T want = (T)3 * x[i] + y[i];          /* exact: products of small multiples */
        want = want * want * want;
        EXPECT(got[i] == want, "template %s [%d] = %g, expected %g", name, i, (double)got[i],
               (double)want);
    }
    CHECK(hipFree(dx));
    CHECK(hipFree(dy));
}

int main()
{
    /* ----------------------------------------- shared memory, __syncthreads */
    {
        const int n = 3000, blocks = (n + 255) / 256;
        std::vector<int> in(n), sums(blocks);
        for (int i = 0; i < n; i++) in[i] = next_random(2001) - 1000;
        int *din, *dout;
        CHECK(hipMalloc(&din, n * sizeof(int)));
        CHECK(hipMalloc(&dout, blocks * sizeof(int)));
        CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
        hipLaunchKernelGGL(block_sum<256>, dim3(blocks), dim3(256), 0, 0, din, dout, n);
        CHECK_LAUNCH();
        CHECK(hipMemcpy(sums.data(), dout, blocks * sizeof(int), hipMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++) {
            int want = 0;
            for (int i = b * 256; i < n && i < (b + 1) * 256; i++) want += in[i];
            EXPECT(sums[b] == want, "block_sum<256> block %d = %d, expected %d", b, sums[b], want);
        }
        /* the same template at another block size */
        const int blocks64 = (n + 63) / 64;
        int *dout64;
        CHECK(hipMalloc(&dout64, blocks64 * sizeof(int)));
        hipLaunchKernelGGL(block_sum<64>, dim3(blocks64), dim3(64), 0, 0, din, dout64, n);
        CHECK_LAUNCH();
        std::vector<int> sums64(blocks64);
        CHECK(hipMemcpy(sums64.data(), dout64, blocks64 * sizeof(int), hipMemcpyDeviceToHost));
        for (int b = 0; b < blocks64; b++) {
            int want = 0;
            for (int i = b * 64; i < n && i < (b + 1) * 64; i++) want += in[i];
            EXPECT(sums64[b] == want, "block_sum<64> block %d = %d, expected %d", b, sums64[b],
                   want);
        }
        CHECK(hipFree(dout64));
        CHECK(hipFree(dout));
        CHECK(hipFree(din));
    }
    {
        const int n = 1024;
        std::vector<float> in(n), out(n);
        for (int i = 0; i < n; i++) in[i] = i * 0.25f;
        float *din, *dout;
        CHECK(hipMalloc(&din, n * sizeof(float)));
        CHECK(hipMalloc(&dout, n * sizeof(float)));
        CHECK(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
        hipLaunchKernelGGL(reverse_blocks, dim3(n / 256), dim3(256), 0, 0, din, dout);
        CHECK_LAUNCH();
        CHECK(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            float want = in[(i / 256) * 256 + 255 - i % 256];
            EXPECT(out[i] == want, "reverse [%d] = %g, expected %g", i, out[i], want);
        }
        CHECK(hipFree(din));
        CHECK(hipFree(dout));
    }

    /* ---------------------------------------------------- dynamic shared memory */
    {
        const int blocks = 6, block = 192, k = 37;
        std::vector<int> in(blocks * block), out(blocks * k);
        for (auto &v : in) v = next_random(100000);
        int *din, *dout;
        CHECK(hipMalloc(&din, in.size() * sizeof(int)));
        CHECK(hipMalloc(&dout, out.size() * sizeof(int)));
        CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
        hipLaunchKernelGGL(dynamic_histogram, dim3(blocks), dim3(block), k * sizeof(int), 0, din,
                           dout, k);
        CHECK_LAUNCH();
        CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++)
            for (int j = 0; j < k; j++) {
                int want = 0;
                for (int t = 0; t < block; t++) want += in[b * block + t] % k == j;
                EXPECT(out[b * k + j] == want, "dynamic histogram block %d slot %d = %d, "
                       "expected %d", b, j, out[b * k + j], want);
            }
        CHECK(hipFree(din));
        CHECK(hipFree(dout));

        const int n = 4 * 128;
        std::vector<double> din_h(n), dout_h(n);
        for (int i = 0; i < n; i++) din_h[i] = i * 1.5 - 3.0;
        double *dd, *dd_out;
        CHECK(hipMalloc(&dd, n * sizeof(double)));
        CHECK(hipMalloc(&dd_out, n * sizeof(double)));
        CHECK(hipMemcpy(dd, din_h.data(), n * sizeof(double), hipMemcpyHostToDevice));
        hipLaunchKernelGGL(dynamic_two_arrays, dim3(4), dim3(128),
                           128 * (sizeof(double) + sizeof(int)), 0, dd, dd_out, n);
        CHECK_LAUNCH();
        CHECK(hipMemcpy(dout_h.data(), dd_out, n * sizeof(double), hipMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            int t = i % 128, other = (t + 1) % 128;
            double want = din_h[i - t + other] + other * 3;
            EXPECT(dout_h[i] == want, "dynamic two arrays [%d] = %g, expected %g", i, dout_h[i],
                   want);
        }
        CHECK(hipFree(dd));
        CHECK(hipFree(dd_out));
    }

    /* ---------------------------------------------------------------- templates */
    check_axpy<int>("int");
    check_axpy<float>("float");
    check_axpy<double>("double");

    /* ------------------------------------------------------------------ atomics */
    {
        const int n = 2500;
        std::vector<int> values(n);
        for (auto &v : values) v = next_random(2000001) - 1000000;
        int *dvalues, *exch_slot;
        IntAtomics init = {0, 0, 0x7fffffff, -0x7fffffff - 1, -1, 0, 0, 0, {0}, 0u, 50u}, got;
        IntAtomics *dr;
        CHECK(hipMalloc(&dvalues, n * sizeof(int)));
        CHECK(hipMalloc(&dr, sizeof(IntAtomics)));
        CHECK(hipMalloc(&exch_slot, sizeof(int)));
        CHECK(hipMemcpy(dvalues, values.data(), n * sizeof(int), hipMemcpyHostToDevice));
        CHECK(hipMemcpy(dr, &init, sizeof init, hipMemcpyHostToDevice));
        CHECK(hipMemset(exch_slot, 0xff, sizeof(int)));     /* -1 */
        hipLaunchKernelGGL(int_atomics, dim3((n + 255) / 256), dim3(256), 0, 0, dvalues, n, dr,
                           exch_slot);
        CHECK_LAUNCH();
        CHECK(hipMemcpy(&got, dr, sizeof got, hipMemcpyDeviceToHost));
        IntAtomics want = init;
        unsigned inc = 0, dec = 50;
        for (int i = 0; i < n; i++) {
            int v = values[i];
            want.add += v;
            want.sub -= v;
            want.min = v < want.min ? v : want.min;
            want.max = v > want.max ? v : want.max;
            want.and_ &= ~(1 << (i % 31));
            want.or_ |= 1 << (i % 29);
            want.xor_ ^= v;
            want.cas_sum[i % SLOTS] += v;
            inc = inc >= 1000u ? 0 : inc + 1;           /* CUDA atomicInc semantics */
            dec = (dec == 0 || dec > 100000u) ? 100000u : dec - 1;
        }
        want.exch_count = n;
        want.inc = inc;
        want.dec = dec;
        EXPECT(got.add == want.add, "atomicAdd %d, expected %d", got.add, want.add);
        EXPECT(got.sub == want.sub, "atomicSub %d, expected %d", got.sub, want.sub);
        EXPECT(got.min == want.min, "atomicMin %d, expected %d", got.min, want.min);
        EXPECT(got.max == want.max, "atomicMax %d, expected %d", got.max, want.max);
        EXPECT(got.and_ == want.and_, "atomicAnd 0x%x, expected 0x%x", got.and_, want.and_);
        EXPECT(got.or_ == want.or_, "atomicOr 0x%x, expected 0x%x", got.or_, want.or_);
        EXPECT(got.xor_ == want.xor_, "atomicXor 0x%x, expected 0x%x", got.xor_, want.xor_);
        EXPECT(got.exch_count == want.exch_count, "atomicExch count %d", got.exch_count);
        for (int j = 0; j < SLOTS; j++)
            EXPECT(got.cas_sum[j] == want.cas_sum[j], "atomicCAS loop slot %d: %d, expected %d",
                   j, got.cas_sum[j], want.cas_sum[j]);
        EXPECT(got.inc == want.inc, "atomicInc %u, expected %u", got.inc, want.inc);
        EXPECT(got.dec == want.dec, "atomicDec %u, expected %u", got.dec, want.dec);
        int last;
        CHECK(hipMemcpy(&last, exch_slot, sizeof(int), hipMemcpyDeviceToHost));
        EXPECT(last >= 0 && last < n, "atomicExch left %d", last);

        /* shared-memory histogram */
        unsigned *dhist, hist[16], want_hist[16] = {0};
        CHECK(hipMalloc(&dhist, sizeof hist));
        CHECK(hipMemset(dhist, 0, sizeof hist));
        hipLaunchKernelGGL(shared_histogram, dim3((n + 127) / 128), dim3(128), 0, 0, dvalues, n,
                           dhist);
        CHECK_LAUNCH();
        CHECK(hipMemcpy(hist, dhist, sizeof hist, hipMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) want_hist[values[i] & 15]++;
        for (int j = 0; j < 16; j++)
            EXPECT(hist[j] == want_hist[j], "shared histogram bin %d = %u, expected %u", j,
                   hist[j], want_hist[j]);
        CHECK(hipFree(dhist));
        CHECK(hipFree(exch_slot));
        CHECK(hipFree(dr));
        CHECK(hipFree(dvalues));
    }
    {
        /* multiples of 1/4 in a small range: every order of additions is exact */
        const int n = 2000, block = 256, blocks = (n + block - 1) / block;
        std::vector<float> values(n), block_sums(blocks);
        for (auto &v : values) v = (next_random(801) - 400) * 0.25f;
        float *dvalues, *dfsum, *dblock;
        double *ddsum;
        CHECK(hipMalloc(&dvalues, n * sizeof(float)));
        CHECK(hipMalloc(&dfsum, (SLOTS + 1) * sizeof(float)));
        CHECK(hipMalloc(&ddsum, SLOTS * sizeof(double)));
        CHECK(hipMalloc(&dblock, blocks * sizeof(float)));
        CHECK(hipMemcpy(dvalues, values.data(), n * sizeof(float), hipMemcpyHostToDevice));
        CHECK(hipMemset(dfsum, 0, (SLOTS + 1) * sizeof(float)));
        CHECK(hipMemset(ddsum, 0, SLOTS * sizeof(double)));
        hipLaunchKernelGGL(float_atomics, dim3(blocks), dim3(block), 0, 0, dvalues, n, dfsum,
                           ddsum, dblock);
        CHECK_LAUNCH();
        float fsum[SLOTS + 1];
        double dsum[SLOTS];
        CHECK(hipMemcpy(fsum, dfsum, sizeof fsum, hipMemcpyDeviceToHost));
        CHECK(hipMemcpy(dsum, ddsum, sizeof dsum, hipMemcpyDeviceToHost));
        CHECK(hipMemcpy(block_sums.data(), dblock, blocks * sizeof(float), hipMemcpyDeviceToHost));
        double want[SLOTS] = {0}, hot = 0;
        for (int i = 0; i < n; i++) want[i % SLOTS] += values[i];
        for (int i = 0; i < 128; i++) hot += values[i];
        for (int j = 0; j < SLOTS; j++) {
            EXPECT(fsum[j] == (float)want[j], "float atomicAdd slot %d: %g, expected %g", j,
                   fsum[j], want[j]);
            EXPECT(dsum[j] == want[j] * 0.5, "double atomicAdd slot %d: %g, expected %g", j,
                   dsum[j], want[j] * 0.5);
        }
        EXPECT(fsum[SLOTS] == (float)hot, "float atomicAdd (one word) %g, expected %g",
               fsum[SLOTS], hot);
        for (int b = 0; b < blocks; b++) {
            double block_want = 0;
            for (int i = b * block; i < n && i < (b + 1) * block; i++) block_want += values[i];
            EXPECT(block_sums[b] == (float)block_want, "shared float atomicAdd block %d = %g, "
                   "expected %g", b, block_sums[b], block_want);
        }
        CHECK(hipFree(dblock));
        CHECK(hipFree(ddsum));
        CHECK(hipFree(dfsum));
        CHECK(hipFree(dvalues));
    }

    /* ---------------------------------------------------------- wave intrinsics */
    {
        const int n = 256;          /* 4 waves of 64 */
        std::vector<int> in(n);
        for (auto &v : in) v = next_random(100);
        in[70] = 7;                 /* wave 1 has a 7; wave 0 may not */
        for (int i = 0; i < 64; i++) if (in[i] == 7) in[i] = 8;
        in[200] = -1;               /* wave 3 is not all non-negative */
        std::vector<WaveResult> out(n);
        int *din;
        WaveResult *dout;
        CHECK(hipMalloc(&din, n * sizeof(int)));
        CHECK(hipMalloc(&dout, n * sizeof(WaveResult)));
        CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
        hipLaunchKernelGGL(wave_ops, dim3(2), dim3(128), 0, 0, din, dout);
        CHECK_LAUNCH();
        CHECK(hipMemcpy(out.data(), dout, n * sizeof(WaveResult), hipMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            int wave = i / 64, lane = i % 64, base = wave * 64;
            unsigned long long ballot = 0;
            int any = 0, all = 1, popc = 0, sum = 0;
            for (int l = 0; l < 64; l++) {
                int v = in[base + l];
                if (v & 1) ballot |= 1ull << l;
                any |= v == 7;
                all &= v >= 0;
                popc += v > 50;
                sum += v;
            }
            int t = i % 128;      /* threadIdx.x */
            const WaveResult &r = out[i];
            EXPECT(r.ballot == ballot, "__ballot lane %d = 0x%llx, expected 0x%llx", i, r.ballot,
                   ballot);
            EXPECT(!!r.any == any, "__any lane %d = %d", i, r.any);
            EXPECT(!!r.all == all, "__all lane %d = %d", i, r.all);
            EXPECT(r.popc == popc, "__popcll(__ballot) lane %d = %d, expected %d", i, r.popc, popc);
            EXPECT(r.lane == lane, "__lane_id %d = %d", i, r.lane);
            EXPECT(r.width == 64, "warpSize = %d", r.width);
            EXPECT(r.shfl == in[base + (t * 5) % 64], "__shfl lane %d = %d", i, r.shfl);
            int up = lane >= 3 ? in[i - 3] : in[i];
            int down = lane + 5 < 64 ? in[i + 5] : in[i];
            EXPECT(r.shfl_up == up, "__shfl_up lane %d = %d, expected %d", i, r.shfl_up, up);
            EXPECT(r.shfl_down == down, "__shfl_down lane %d = %d, expected %d", i, r.shfl_down,
                   down);
            EXPECT(r.shfl_xor == in[base + (lane ^ 9)], "__shfl_xor lane %d = %d", i, r.shfl_xor);
            EXPECT(r.wave_sum == sum, "butterfly sum lane %d = %d, expected %d", i, r.wave_sum,
                   sum);
        }
        CHECK(hipFree(din));
        CHECK(hipFree(dout));
    }

    /* -------------------------------------------------------------- 2D/3D grids */
    {
        const int width = 45, height = 13, depth = 3;
        std::vector<int> out(width * height * depth, -1);
        int *dout;
        CHECK(hipMalloc(&dout, out.size() * sizeof(int)));
        hipLaunchKernelGGL(grid_ids, dim3(3, 4, 3), dim3(16, 4, 1), 0, 0, dout, width, height,
                           depth);
        CHECK_LAUNCH();
        CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
        for (int z = 0; z < depth; z++)
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) {
                    int got = out[(z * height + y) * width + x];
                    EXPECT(got == x + 100 * y + 10000 * z, "grid (%d,%d,%d) = %d", x, y, z, got);
                }
        CHECK(hipFree(dout));
    }
    return finish("hip_kernels");
}

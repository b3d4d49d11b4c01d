// rocRAND's own precompiled kernels on the virtual GPU: XORWOW, Philox4x32-10
// and MRG32k3a through the host API (rocrand_generate, _uniform, _normal; for
// Philox also _uniform_double and _normal_double).
//
// Checked on the host:
//  - statistics over N numbers: uniform values in (0, 1] with mean 1/2 and
//    variance 1/12, 32-bit integers with mean 2^31, normal values with the
//    asked mean and standard deviation (tolerances of many standard errors);
//  - a second generator with the same seed gives the same numbers, bit for
//    bit; a generator with another seed gives different ones;
//  - the numbers themselves, against host implementations written here from
//    the algorithms' published definitions (Marsaglia's xorwow with rocRAND's
//    seeding, Salmon et al.'s Philox4x32-10, L'Ecuyer's MRG32k3a) and the
//    library's layout of outputs over its engines: every Philox number (one
//    counter stream); the numbers of XORWOW's and MRG32k3a's engine 0 (their
//    engine e starts at subsequence e, 2^67 / 2^76 numbers further, beyond a
//    host loop), and the first and last items of every call against the
//    library's own header engines (rocrand_kernel.h) run on the host.
//
// Usage: rocrand_gen [philox|xorwow|mrg32k3a ...] (all three by default).
// Prints "PASS rocrand_gen" and exits 0, or names what differs and exits 1.

#include "hip_check.h"
#include <hip/hip_runtime.h>
#include <rocrand/rocrand.h>
// the device API's engines, callable on the host too (as the library's own
// sources include them)
#define FQUALIFIERS __forceinline__ __host__ __device__
#include <rocrand/rocrand_kernel.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK_RAND(call)                                                                 \
    do {                                                                                 \
        rocrand_status s_ = (call);                                                      \
        if(s_ != ROCRAND_STATUS_SUCCESS) {                                               \
            std::printf("FAIL %s:%d %s: rocrand status %d\n", __FILE__, __LINE__, #call, \
                        (int)s_);                                                        \
            std::exit(1);                                                                \
        }                                                                                \
    } while(0)

static const size_t N = 1 << 16;
static const float MEAN = 2.0f, STDDEV = 3.0f;

static void fail(const char* format, const char* what, double a, double b)
{
    std::printf("FAIL %s: ", what);
    std::printf(format, a, b);
    std::printf("\n");
    ++failures;
}

// ------------------------------------------------------ host references
// xorwow (Marsaglia 2003, "Xorshift RNGs", section 3.1) with a Weyl sequence
// d += 362437; rocRAND seeds it from the 64-bit seed as below.
struct XorwowRef {
    uint32_t x[5], d;
    explicit XorwowRef(uint64_t seed)
    {
        x[0] = 123456789u, x[1] = 362436069u, x[2] = 521288629u, x[3] = 88675123u;
        x[4] = 5783321u, d = 6615241u;
        const uint32_t s0 = (uint32_t)seed ^ 0x2c7f967fu, s1 = (uint32_t)(seed >> 32) ^ 0xa03697cbu;
        const uint32_t t0 = 1228688033u * s0, t1 = 2073658381u * s1;
        x[0] += t0, x[1] ^= t0, x[2] += t1, x[3] ^= t1, x[4] += t0, d += t1 + t0;
    }
    uint32_t next()
    {
        const uint32_t t = x[0] ^ (x[0] >> 2);
        x[0] = x[1], x[1] = x[2], x[2] = x[3], x[3] = x[4];
        x[4] = (x[4] ^ (x[4] << 4)) ^ (t ^ (t << 1));
        d += 362437u;
        return d + x[4];
    }
};

// Philox4x32-10 (Salmon, Moraes, Dror, Shaw, SC'11): ten rounds of
// multiply-hi/lo with two multipliers and a Weyl-bumped 2x32-bit key.
static void philox4x32_10(const uint32_t in[4], uint64_t seed, uint32_t out[4])
{
    uint32_t c[4] = {in[0], in[1], in[2], in[3]};
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for(int round = 0; round < 10; ++round) {
        const uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
        const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
        c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
        k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    }
    for(int i = 0; i < 4; ++i)
        out[i] = c[i];
}

// MRG32k3a (L'Ecuyer 1999, "Good parameters and implementations for combined
// multiple recursive random number generators"), rocRAND's seeding: each
// state word is (seed word * seed) mod m. (rocRAND's own modular product
// wraps for seeds of 2^32 and more, so the test's MRG32k3a seed is smaller.)
struct Mrg32k3aRef {
    static constexpr uint64_t M1 = 4294967087ull, M2 = 4294944443ull;
    uint64_t s1[3], s2[3];
    explicit Mrg32k3aRef(uint64_t seed)
    {
        if(seed == 0)
            seed = 12345;
        const uint64_t x = (uint32_t)seed ^ 0x55555555u;
        const uint64_t y = (uint32_t)((seed >> 32) ^ 0xAAAAAAAAu);
        // (x * seed) mod m, with the 64-bit seed reduced first
        const auto mulmod = [](uint64_t a, uint64_t b, uint64_t m) {
            return (uint64_t)((unsigned __int128)a * b % m);
        };
        s1[0] = mulmod(x, seed, M1), s1[1] = mulmod(y, seed, M1), s1[2] = mulmod(x, seed, M1);
        s2[0] = mulmod(y, seed, M2), s2[1] = mulmod(x, seed, M2), s2[2] = mulmod(y, seed, M2);
    }
    uint32_t next()
    {
        const int64_t p1 = ((int64_t)(1403580 * s1[1] % M1) - (int64_t)(810728 * s1[0] % M1)
                            + (int64_t)M1) % (int64_t)M1;
        s1[0] = s1[1], s1[1] = s1[2], s1[2] = (uint64_t)p1;
        const int64_t p2 = ((int64_t)(527612 * s2[2] % M2) - (int64_t)(1370589 * s2[0] % M2)
                            + (int64_t)M2) % (int64_t)M2;
        s2[0] = s2[1], s2[1] = s2[2], s2[2] = (uint64_t)p2;
        return p1 > p2 ? (uint32_t)(p1 - p2) : (uint32_t)(p1 - p2 + (int64_t)M1);
    }
};

// The library's mappings from 32-bit numbers to its distributions
static float uniform_of(uint32_t v) { return 2.3283064e-10f + v * 2.3283064e-10f; }
static float mrg_uniform_of(uint32_t v) { return (float)(v * 2.3283065498378288e-10); }
// MRG32k3a's numbers lie in [1, m1]: u32 outputs stretch them to [0, 2^32)
static uint32_t mrg_uint_of(uint32_t v) { return (uint32_t)((v - 1) * 1.000000048661607); }
// Box-Muller as the library applies it (u from the first number, angle from
// the second), computed in double: the GPU's __sincosf is approximate
static void box_muller_ref(double u, double angle, float out[2])
{
    const double s = std::sqrt(-2.0 * std::log(u));
    out[0] = (float)(MEAN + STDDEV * std::sin(angle) * s);
    out[1] = (float)(MEAN + STDDEV * std::cos(angle) * s);
}
static void normal_ref(uint32_t a, uint32_t b, float out[2])
{
    const double two_pi = 6.283185307179586;
    box_muller_ref(2.3283064365386963e-10 * (a + 1.0), two_pi * 2.3283064365386963e-10 * (b + 1.0), out);
}
static void mrg_normal_ref(uint32_t a, uint32_t b, float out[2])
{
    box_muller_ref(a * 2.3283065498378288e-10, 6.283185307179586 * b * 2.3283065498378288e-10, out);
}

// ---------------------------------------------------------------- checks
struct Outputs {
    std::vector<uint32_t> u32;
    std::vector<float> uniform, normal;
    std::vector<double> uniform64, normal64;   // with doubles only
};

template <class T>
static std::vector<T> to_host(T* device)
{
    std::vector<T> host(N);
    CHECK(hipMemcpy(host.data(), device, N * sizeof(T), hipMemcpyDeviceToHost));
    CHECK(hipFree(device));
    return host;
}

// rocrand_generate, _uniform, _normal (N each), then, with doubles,
// _uniform_double and _normal_double (N each) on one generator
static Outputs generate(rocrand_rng_type type, uint64_t seed, bool doubles)
{
    rocrand_generator gen;
    CHECK_RAND(rocrand_create_generator(&gen, type));
    CHECK_RAND(rocrand_set_seed(gen, seed));
    uint32_t* d_u32;
    float *d_uniform, *d_normal;
    CHECK(hipMalloc((void**)&d_u32, N * sizeof(uint32_t)));
    CHECK(hipMalloc((void**)&d_uniform, N * sizeof(float)));
    CHECK(hipMalloc((void**)&d_normal, N * sizeof(float)));
    CHECK_RAND(rocrand_generate(gen, d_u32, N));
    CHECK_RAND(rocrand_generate_uniform(gen, d_uniform, N));
    CHECK_RAND(rocrand_generate_normal(gen, d_normal, N, MEAN, STDDEV));
    Outputs out;
    if(doubles) {
        double *d_uniform64, *d_normal64;
        CHECK(hipMalloc((void**)&d_uniform64, N * sizeof(double)));
        CHECK(hipMalloc((void**)&d_normal64, N * sizeof(double)));
        CHECK_RAND(rocrand_generate_uniform_double(gen, d_uniform64, N));
        CHECK_RAND(rocrand_generate_normal_double(gen, d_normal64, N, MEAN, STDDEV));
        out.uniform64 = to_host(d_uniform64);
        out.normal64 = to_host(d_normal64);
    }
    CHECK(hipDeviceSynchronize());
    out.u32 = to_host(d_u32);
    out.uniform = to_host(d_uniform);
    out.normal = to_host(d_normal);
    CHECK_RAND(rocrand_destroy_generator(gen));
    return out;
}

static void check_statistics(const char* name, const Outputs& o)
{
    char what[96];
    // 32-bit integers: mean 2^31 (as a fraction of 2^32: 1/2, sd 0.289/sqrt(N))
    double sum = 0, sum2 = 0;
    for(uint32_t v : o.u32)
        sum += v / 4294967296.0;
    std::snprintf(what, sizeof what, "%s u32 mean", name);
    if(std::fabs(sum / N - 0.5) > 0.01)
        fail("%g, expected %g +- 0.01", what, sum / N, 0.5);
    sum = 0;
    size_t outside = 0;
    for(float v : o.uniform) {
        if(!(v > 0.0f && v <= 1.0f))
            ++outside;
        sum += v, sum2 += (double)v * v;
    }
    double mean = sum / N, var = sum2 / N - mean * mean;
    std::snprintf(what, sizeof what, "%s uniform range", name);
    if(outside)
        fail("%g values outside (0, 1] (%g)", what, (double)outside, 0.0);
    std::snprintf(what, sizeof what, "%s uniform mean", name);
    if(std::fabs(mean - 0.5) > 0.01)
        fail("%g, expected %g +- 0.01", what, mean, 0.5);
    std::snprintf(what, sizeof what, "%s uniform variance", name);
    if(std::fabs(var - 1.0 / 12) > 0.005)
        fail("%g, expected %g +- 0.005", what, var, 1.0 / 12);
    if(!o.uniform64.empty()) {
        sum = sum2 = 0;
        outside = 0;
        for(double v : o.uniform64) {
            outside += !(v > 0.0 && v <= 1.0);
            sum += v, sum2 += v * v;
        }
        mean = sum / N, var = sum2 / N - mean * mean;
        std::snprintf(what, sizeof what, "%s uniform double", name);
        if(outside || std::fabs(mean - 0.5) > 0.01 || std::fabs(var - 1.0 / 12) > 0.005)
            fail("mean %g, variance %g (or values outside (0, 1])", what, mean, var);
        sum = sum2 = 0;
        outside = 0;
        for(double v : o.normal64) {
            outside += !std::isfinite(v) || std::fabs(v - MEAN) > 8 * STDDEV;
            sum += v, sum2 += v * v;
        }
        mean = sum / N, var = sum2 / N - mean * mean;
        std::snprintf(what, sizeof what, "%s normal double", name);
        if(outside || std::fabs(mean - MEAN) > 0.1 || std::fabs(std::sqrt(var) - STDDEV) > 0.1)
            fail("mean %g, sd %g (or values not finite)", what, mean, std::sqrt(var));
    }
    sum = sum2 = 0;
    outside = 0;
    for(float v : o.normal) {
        if(!std::isfinite(v) || std::fabs(v - MEAN) > 8 * STDDEV)
            ++outside;
        sum += v, sum2 += (double)v * v;
    }
    mean = sum / N, var = sum2 / N - mean * mean;
    std::snprintf(what, sizeof what, "%s normal range", name);
    if(outside)
        fail("%g values not finite or beyond 8 sd (%g)", what, (double)outside, 0.0);
    std::snprintf(what, sizeof what, "%s normal mean", name);
    if(std::fabs(mean - MEAN) > 0.1)
        fail("%g, expected %g +- 0.1", what, mean, MEAN);
    std::snprintf(what, sizeof what, "%s normal sd", name);
    if(std::fabs(std::sqrt(var) - STDDEV) > 0.1)
        fail("%g, expected %g +- 0.1", what, std::sqrt(var), STDDEV);
    // about 68.3% within one sd
    size_t within = 0;
    for(float v : o.normal)
        within += std::fabs(v - MEAN) <= STDDEV;
    std::snprintf(what, sizeof what, "%s normal within 1 sd", name);
    if(std::fabs((double)within / N - 0.6827) > 0.02)
        fail("%g, expected %g +- 0.02", what, (double)within / N, 0.6827);
}

template <class T>
static size_t count_different(const std::vector<T>& a, const std::vector<T>& b)
{
    size_t n = 0;
    for(size_t i = 0; i < a.size(); ++i)
        n += !(a[i] == b[i]);
    return n;
}

static void check_same_and_different(const char* name, const Outputs& a, const Outputs& same,
                                     const Outputs& other)
{
    const size_t d = count_different(a.u32, same.u32) + count_different(a.uniform, same.uniform)
                     + count_different(a.normal, same.normal)
                     + count_different(a.uniform64, same.uniform64)
                     + count_different(a.normal64, same.normal64);
    if(d) {
        std::printf("FAIL %s: the same seed gave %zu different numbers\n", name, d);
        ++failures;
    }
    const size_t equal = N - count_different(a.u32, other.u32);
    if(equal > 16) {
        std::printf("FAIL %s: another seed gave %zu of %zu equal numbers\n", name, equal, N);
        ++failures;
    }
}

static bool close(float got, float want)
{
    return std::fabs(got - want) <= 1e-4f * (1.0f + std::fabs(want));
}

// compare one value; counts mismatches under a label
struct Tally {
    const char* what;
    size_t checked = 0, bad = 0;
    void exact(size_t i, uint32_t got, uint32_t want)
    {
        ++checked;
        if(got != want && bad++ < 5)
            std::printf("  %s[%zu] = %u, expected %u\n", what, i, got, want);
    }
    void exact(size_t i, float got, float want)
    {
        ++checked;
        if(!(got == want) && bad++ < 5)
            std::printf("  %s[%zu] = %.9g, expected %.9g\n", what, i, got, want);
    }
    void exact(size_t i, double got, double want)
    {
        ++checked;
        if(!(got == want) && bad++ < 5)
            std::printf("  %s[%zu] = %.17g, expected %.17g\n", what, i, got, want);
    }
    void approx(size_t i, double got, double want)
    {
        ++checked;
        if(!(std::fabs(got - want) <= 1e-12 * (1.0 + std::fabs(want))) && bad++ < 5)
            std::printf("  %s[%zu] = %.17g, expected %.17g\n", what, i, got, want);
    }
    void approx(size_t i, float got, float want)
    {
        ++checked;
        if(!close(got, want) && bad++ < 5)
            std::printf("  %s[%zu] = %.9g, expected %.9g\n", what, i, got, want);
    }
    ~Tally()
    {
        if(bad) {
            std::printf("FAIL %s: %zu of %zu values differ\n", what, bad, checked);
            ++failures;
        } else {
            std::printf("ok   %s (%zu values)\n", what, checked);
        }
    }
};

// Philox: the library's outputs are one Philox stream (subsequence 0) in
// order, continued from call to call: output i of the stream is word i % 4 of
// the block of counter i / 4. The calls draw N, N and N numbers.
static void check_philox(const Outputs& o, uint64_t seed)
{
    Tally u32{"philox u32 vs host Philox4x32-10"}, uni{"philox uniform vs host"},
        nor{"philox normal vs host"};
    for(size_t t = 0; t < N / 4; ++t) {
        for(uint32_t call = 0; call < 3; ++call) {
            const uint64_t block = call * (N / 4) + t;
            const uint32_t counter[4] = {(uint32_t)block, (uint32_t)(block >> 32), 0, 0};
            uint32_t r[4];
            philox4x32_10(counter, seed, r);
            for(int j = 0; j < 4; ++j) {
                if(call == 0)
                    u32.exact(4 * t + j, o.u32[4 * t + j], r[j]);
                else if(call == 1)
                    uni.exact(4 * t + j, o.uniform[4 * t + j], uniform_of(r[j]));
            }
            if(call == 2) {
                float z[4];
                normal_ref(r[0], r[1], z);
                normal_ref(r[2], r[3], z + 2);
                for(int j = 0; j < 4; ++j)
                    nor.approx(4 * t + j, o.normal[4 * t + j], z[j]);
            }
        }
    }
    // doubles take two numbers each: uniform from 53 of their bits, normal
    // by Box-Muller from two such pairs (sincospi on the GPU)
    Tally uni64{"philox uniform double vs host"}, nor64{"philox normal double vs host"};
    for(size_t t = 0; t < N / 2; ++t) {
        for(uint32_t call = 3; call < 5; ++call) {
            const uint64_t block = 3 * (N / 4) + (call - 3) * (N / 2) + t;
            const uint32_t counter[4] = {(uint32_t)block, (uint32_t)(block >> 32), 0, 0};
            uint32_t r[4];
            philox4x32_10(counter, seed, r);
            if(call == 3) {
                for(int j = 0; j < 2; ++j) {
                    const uint64_t bits = r[2 * j] | (uint64_t)(r[2 * j + 1] >> 11) << 32;
                    uni64.exact(2 * t + j, o.uniform64[2 * t + j],
                                0x1p-53 + (double)bits * 0x1p-53);
                }
            } else {
                const uint64_t v1 = r[0] ^ ((uint64_t)r[1] << 21);
                const uint64_t v2 = r[2] ^ ((uint64_t)r[3] << 21);
                const double u = 0x1p-53 + (double)v1 * 0x1p-53;
                const double w = 0x1p-52 + (double)v2 * 0x1p-52;   // in (0, 2]: half turns
                const double s = std::sqrt(-2.0 * std::log(u));
                const double pi = 3.141592653589793;
                nor64.approx(2 * t, o.normal64[2 * t], MEAN + STDDEV * std::sin(w * pi) * s);
                nor64.approx(2 * t + 1, o.normal64[2 * t + 1],
                             MEAN + STDDEV * std::cos(w * pi) * s);
            }
        }
    }
}

// XORWOW and MRG32k3a: the library keeps ENGINES engines, engine e starting
// at subsequence e, one per GPU thread of its 512 x 256 grid. A call's output
// items go to the engines in turn from where the previous call stopped: item
// i of a call that starts at engine s is drawn by engine (s + i) % ENGINES,
// which continues its own sequence. u32 and uniform items take one number,
// normal items (pairs of outputs) two: Box-Muller on (first, second).
static const size_t ENGINES = 512 * 256;
struct Call {
    size_t start, items, width;
};
static const Call CALLS[3] = {
    {0, N, 1},                       // rocrand_generate: N u32
    {N % ENGINES, N, 1},             // rocrand_generate_uniform: N floats
    {(2 * N) % ENGINES, N / 2, 2},   // rocrand_generate_normal: N / 2 pairs
};
// how many numbers engine e drew before call c
static size_t drawn_before(size_t e, int c)
{
    size_t drawn = 0;
    for(int k = 0; k < c; ++k)
        if((e + ENGINES - CALLS[k].start) % ENGINES < CALLS[k].items)
            drawn += CALLS[k].width;
    return drawn;
}
// the items checked against the header engines: the first and last of each call
static std::vector<size_t> checked_items(int c)
{
    std::vector<size_t> items;
    for(size_t i = 0; i < 40; ++i)
        items.push_back(i);
    for(size_t i = CALLS[c].items - 8; i < CALLS[c].items; ++i)
        items.push_back(i);
    return items;
}

// The item values one engine's numbers give, for any engine type with next()
template <class Engine, class U32Of, class UniformOf, class NormalOf>
static void check_engine_item(Engine& engine, int c, size_t i, const Outputs& o, Tally& tally,
                              U32Of u32_of, UniformOf uniform_of_, NormalOf normal_of)
{
    if(c == 0) {
        tally.exact(i, o.u32[i], u32_of(engine.next()));
    } else if(c == 1) {
        tally.exact(i, o.uniform[i], uniform_of_(engine.next()));
    } else {
        const uint32_t a = engine.next(), b = engine.next();
        float z[2];
        normal_of(a, b, z);
        tally.approx(2 * i, o.normal[2 * i], z[0]);
        tally.approx(2 * i + 1, o.normal[2 * i + 1], z[1]);
    }
}

// rocrand_kernel.h's engines on the host (they jump to any subsequence)
struct HeaderXorwow {
    rocrand_state_xorwow state;
    HeaderXorwow(uint64_t seed, size_t e) { rocrand_init(seed, e, 0, &state); }
    uint32_t next() { return state.next(); }
};
struct HeaderMrg32k3a {
    rocrand_state_mrg32k3a state;
    HeaderMrg32k3a(uint64_t seed, size_t e) { rocrand_init(seed, e, 0, &state); }
    uint32_t next() { return state.next(); }   // in [1, m1], before any scaling
};

template <class Own, class Header, class U32Of, class UniformOf, class NormalOf>
static void check_engines(const char* name, const Outputs& o, uint64_t seed, U32Of u32_of,
                          UniformOf uniform_of_, NormalOf normal_of)
{
    char labels[4][96];
    std::snprintf(labels[0], 96, "%s engine 0 vs the host %s", name, name);
    std::snprintf(labels[1], 96, "%s u32 vs rocrand_kernel.h on the host", name);
    std::snprintf(labels[2], 96, "%s uniform vs rocrand_kernel.h on the host", name);
    std::snprintf(labels[3], 96, "%s normal vs rocrand_kernel.h on the host", name);
    {
        // engine 0 by this file's own implementation: u32[0], then (the
        // uniform call starts at engine N) normal[0..1]
        Own own(seed);
        Tally t{labels[0]};
        if(drawn_before(0, 1) != 1 || drawn_before(0, 2) != 1) {
            std::printf("FAIL %s: the test's call layout changed\n", name);
            ++failures;
        }
        check_engine_item(own, 0, 0, o, t, u32_of, uniform_of_, normal_of);
        check_engine_item(own, 2, 0, o, t, u32_of, uniform_of_, normal_of);
    }
    Tally t[3] = {{labels[1]}, {labels[2]}, {labels[3]}};
    for(int c = 0; c < 3; ++c) {
        for(size_t i : checked_items(c)) {
            Header engine(seed, (CALLS[c].start + i) % ENGINES);
            for(size_t k = drawn_before((CALLS[c].start + i) % ENGINES, c); k > 0; --k)
                engine.next();
            check_engine_item(engine, c, i, o, t[c], u32_of, uniform_of_, normal_of);
        }
    }
}

static void check_xorwow(const Outputs& o, uint64_t seed)
{
    check_engines<XorwowRef, HeaderXorwow>("xorwow", o, seed, [](uint32_t v) { return v; },
                                           uniform_of, normal_ref);
}

static void check_mrg32k3a(const Outputs& o, uint64_t seed)
{
    check_engines<Mrg32k3aRef, HeaderMrg32k3a>("mrg32k3a", o, seed, mrg_uint_of, mrg_uniform_of,
                                               mrg_normal_ref);
}

int main(int argc, char** argv)
{
    // optional argument: which generators (xorwow, philox, mrg32k3a); all by default
    const char* only = argc > 1 ? argv[1] : nullptr;
    struct {
        const char* name;
        rocrand_rng_type type;
        uint64_t seed;
        void (*check)(const Outputs&, uint64_t);
    } generators[] = {
        {"philox", ROCRAND_RNG_PSEUDO_PHILOX4_32_10, 0x123456789abcdefull, check_philox},
        {"xorwow", ROCRAND_RNG_PSEUDO_XORWOW, 0x123456789abcdefull, check_xorwow},
        {"mrg32k3a", ROCRAND_RNG_PSEUDO_MRG32K3A, 0x9abcdef1ull, check_mrg32k3a},
    };
    for(const auto& g : generators) {
        if(only && std::string(only).find(g.name) == std::string::npos)
            continue;
        const bool doubles = g.type == ROCRAND_RNG_PSEUDO_PHILOX4_32_10;
        const Outputs a = generate(g.type, g.seed, doubles);
        const Outputs same = generate(g.type, g.seed, doubles);
        const Outputs other = generate(g.type, g.seed + 1, doubles);
        const int before = failures;
        check_statistics(g.name, a);
        check_same_and_different(g.name, a, same, other);
        g.check(a, g.seed);
        std::printf("%s %s\n", failures == before ? "ok  " : "FAIL", g.name);
    }
    if(failures) {
        std::printf("FAIL rocrand_gen: %d checks failed\n", failures);
        return 1;
    }
    std::printf("PASS rocrand_gen\n");
    return 0;
}

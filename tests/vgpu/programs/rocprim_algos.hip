// rocPRIM's device-wide algorithms, compiled here with hipcc, on the virtual
// GPU, checked against plain host loops:
//  - inclusive and exclusive scan (decoupled look-back: each work-group
//    takes an ordered block id, then waits on flags its predecessors
//    publish, so groups spin on other groups of the same dispatch), with the
//    default configuration, with small blocks (hundreds of groups waiting in
//    a chain) and with 256-thread blocks of one item each (more groups than
//    the executor runs in one batch of waves), of 64-bit values (the
//    look-back's flags and prefixes then live apart, ordered by fences), and
//    reduce-then-scan;
//  - reduce (sum with and without an initial value, max, min of floats);
//  - radix sort: keys ascending and descending, a bit range, pairs with
//    float keys (negative values, equal keys: the sort is stable).
//
// Usage: rocprim_algos [scan|reduce|sort ...] (all by default).
// Prints "PASS rocprim_algos" and exits 0, or names what differs and exits 1.

#include "hip_check.h"
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>


template <class T>
static void expect_equal(const std::string& what, const std::vector<T>& got,
                         const std::vector<T>& want)
{
    size_t bad = 0;
    for(size_t i = 0; i < want.size(); ++i) {
        if(std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            if(bad < 5)
                std::printf("  %s[%zu] = %.9g, expected %.9g\n", what.c_str(), i, (double)got[i],
                            (double)want[i]);
            ++bad;
        }
    }
    if(bad) {
        std::printf("FAIL %s: %zu of %zu elements differ\n", what.c_str(), bad, want.size());
        ++failures;
    } else {
        std::printf("ok   %s (%zu elements)\n", what.c_str(), want.size());
    }
}

static uint32_t lcg_state = 2024u;
static uint32_t next_random()
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

// rocPRIM's two-call protocol: ask for the temporary storage, then run
template <class Run>
static void with_temporary_storage(Run run)
{
    size_t bytes = 0;
    CHECK(run(nullptr, bytes));
    void* storage = nullptr;
    CHECK(hipMalloc(&storage, std::max<size_t>(bytes, 4)));
    CHECK(run(storage, bytes));
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(storage));
}

// Small blocks: many work-groups, each waiting on the look-back of the ones before
using small_scan_config
    = rocprim::scan_config<64, 2, true, rocprim::block_load_method::block_load_transpose,
                           rocprim::block_store_method::block_store_transpose,
                           rocprim::block_scan_algorithm::using_warp_scan>;
// 256 threads x 1 item: more work-groups than one batch of the executor's waves
using wide_scan_config
    = rocprim::scan_config<256, 1, true, rocprim::block_load_method::block_load_transpose,
                           rocprim::block_store_method::block_store_transpose,
                           rocprim::block_scan_algorithm::using_warp_scan>;

// Reduce-then-scan instead of look-back
using reduce_then_scan_config
    = rocprim::scan_config<64, 4, false, rocprim::block_load_method::block_load_transpose,
                           rocprim::block_store_method::block_store_transpose,
                           rocprim::block_scan_algorithm::using_warp_scan>;

// T = long long: the look-back state keeps flags and prefixes apart (not one
// packed atomic word), ordered by memory fences
template <class Config, class T = int>
static void check_inclusive_scan(const char* name, size_t n)
{
    std::vector<T> in(n), want(n);
    for(auto& v : in)
        v = sizeof(T) > 4 ? (T)(next_random() % 2001) * 1000000007LL - 1000000007000LL
                          : (T)(next_random() % 2001) - 1000;
    std::partial_sum(in.begin(), in.end(), want.begin());
    T* d_in = to_device(in);
    T* d_out = to_device(std::vector<T>(n, (T)0x7eadbeef));
    with_temporary_storage([&](void* storage, size_t& bytes) {
        return rocprim::inclusive_scan<Config>(storage, bytes, d_in, d_out, n,
                                               rocprim::plus<T>());
    });
    expect_equal(name, to_host(d_out, n), want);
    CHECK(hipFree(d_in));
    CHECK(hipFree(d_out));
}

template <class Config>
static void check_exclusive_scan(const char* name, size_t n)
{
    std::vector<int> in(n), want(n);
    for(auto& v : in)
        v = (int)(next_random() % 101);
    int running = 7;
    for(size_t i = 0; i < n; ++i) {
        want[i] = running;
        running += in[i];
    }
    int* d_in = to_device(in);
    int* d_out = to_device(std::vector<int>(n, 0x7eadbeef));
    with_temporary_storage([&](void* storage, size_t& bytes) {
        return rocprim::exclusive_scan<Config>(storage, bytes, d_in, d_out, 7, n,
                                               rocprim::plus<int>());
    });
    expect_equal(name, to_host(d_out, n), want);
    CHECK(hipFree(d_in));
    CHECK(hipFree(d_out));
}

static void check_max_scan(size_t n)
{
    std::vector<float> in(n), want(n);
    for(auto& v : in)
        v = ((int)(next_random() % 200001) - 100000) * 0.125f;
    float running = in[0];
    for(size_t i = 0; i < n; ++i)
        want[i] = running = std::max(running, in[i]);
    float* d_in = to_device(in);
    float* d_out = to_device(std::vector<float>(n, -1.0f));
    with_temporary_storage([&](void* storage, size_t& bytes) {
        return rocprim::inclusive_scan(storage, bytes, d_in, d_out, n, rocprim::maximum<float>());
    });
    expect_equal("inclusive max scan (float)", to_host(d_out, n), want);
    CHECK(hipFree(d_in));
    CHECK(hipFree(d_out));
}

static void check_scans()
{
    check_inclusive_scan<rocprim::default_config>("inclusive scan (default config)", 100000);
    check_exclusive_scan<rocprim::default_config>("exclusive scan (default config)", 70001);
    check_inclusive_scan<small_scan_config>("inclusive scan (64 x 2 blocks)", 40000);
    check_exclusive_scan<small_scan_config>("exclusive scan (64 x 2 blocks)", 30000);
    check_inclusive_scan<wide_scan_config>("inclusive scan (256 x 1 blocks)", 300000);
    check_inclusive_scan<small_scan_config, long long>("inclusive scan (int64, 64 x 2 blocks)",
                                                       20000);
    check_inclusive_scan<reduce_then_scan_config>("inclusive scan (reduce-then-scan)", 50000);
    check_max_scan(50000);
}

static void check_reduce()
{
    const size_t n = 123457;
    std::vector<int> in(n);
    for(auto& v : in)
        v = (int)(next_random() % 20001) - 10000;
    const long long sum = std::accumulate(in.begin(), in.end(), 0LL);
    int* d_in = to_device(in);
    int* d_out = to_device(std::vector<int>(1, 0));
    with_temporary_storage([&](void* storage, size_t& bytes) {
        return rocprim::reduce(storage, bytes, d_in, d_out, n, rocprim::plus<int>());
    });
    expect_equal("reduce sum", to_host(d_out, 1), std::vector<int>{(int)sum});
    with_temporary_storage([&](void* storage, size_t& bytes) {
        return rocprim::reduce(storage, bytes, d_in, d_out, 1000, n, rocprim::plus<int>());
    });
    expect_equal("reduce sum with initial value", to_host(d_out, 1),
                 std::vector<int>{(int)sum + 1000});
    with_temporary_storage([&](void* storage, size_t& bytes) {
        return rocprim::reduce(storage, bytes, d_in, d_out, n, rocprim::maximum<int>());
    });
    expect_equal("reduce max", to_host(d_out, 1),
                 std::vector<int>{*std::max_element(in.begin(), in.end())});
    // a small input: one block
    with_temporary_storage([&](void* storage, size_t& bytes) {
        return rocprim::reduce(storage, bytes, d_in, d_out, 100, rocprim::plus<int>());
    });
    expect_equal("reduce sum of 100", to_host(d_out, 1),
                 std::vector<int>{std::accumulate(in.begin(), in.begin() + 100, 0)});

    std::vector<float> f(n);
    for(auto& v : f)
        v = ((int)(next_random() % 2000001) - 1000000) / 1024.0f;
    float* d_f = to_device(f);
    float* d_fout = to_device(std::vector<float>(1, 0.0f));
    with_temporary_storage([&](void* storage, size_t& bytes) {
        return rocprim::reduce(storage, bytes, d_f, d_fout, n, rocprim::minimum<float>());
    });
    expect_equal("reduce min (float)", to_host(d_fout, 1),
                 std::vector<float>{*std::min_element(f.begin(), f.end())});
    CHECK(hipFree(d_in));
    CHECK(hipFree(d_out));
    CHECK(hipFree(d_f));
    CHECK(hipFree(d_fout));
}

static void check_sort()
{
    {
        const size_t n = 30000;
        std::vector<uint32_t> keys(n);
        for(auto& v : keys)
            v = next_random();
        uint32_t* d_keys = to_device(keys);
        uint32_t* d_out = to_device(std::vector<uint32_t>(n, 0));
        with_temporary_storage([&](void* storage, size_t& bytes) {
            return rocprim::radix_sort_keys(storage, bytes, d_keys, d_out, n);
        });
        std::vector<uint32_t> want = keys;
        std::sort(want.begin(), want.end());
        expect_equal("radix sort keys (u32)", to_host(d_out, n), want);

        with_temporary_storage([&](void* storage, size_t& bytes) {
            return rocprim::radix_sort_keys_desc(storage, bytes, d_keys, d_out, n);
        });
        std::reverse(want.begin(), want.end());
        expect_equal("radix sort keys descending (u32)", to_host(d_out, n), want);

        // bits [4, 20) only: a stable sort by that field
        with_temporary_storage([&](void* storage, size_t& bytes) {
            return rocprim::radix_sort_keys(storage, bytes, d_keys, d_out, n, 4, 20);
        });
        want = keys;
        std::stable_sort(want.begin(), want.end(), [](uint32_t a, uint32_t b) {
            return ((a >> 4) & 0xFFFF) < ((b >> 4) & 0xFFFF);
        });
        expect_equal("radix sort keys bits 4..20 (u32)", to_host(d_out, n), want);
        CHECK(hipFree(d_keys));
        CHECK(hipFree(d_out));
    }
    {
        // float keys with negatives, zeros and many equal keys; values are
        // the original positions, so a stable sort has one right answer
        const size_t n = 20000;
        std::vector<float> keys(n);
        std::vector<int> values(n);
        for(size_t i = 0; i < n; ++i) {
            keys[i] = ((int)(next_random() % 4001) - 2000) * 0.5f;
            values[i] = (int)i;
        }
        float* d_keys = to_device(keys);
        float* d_keys_out = to_device(std::vector<float>(n, 0.0f));
        int* d_values = to_device(values);
        int* d_values_out = to_device(std::vector<int>(n, -1));
        with_temporary_storage([&](void* storage, size_t& bytes) {
            return rocprim::radix_sort_pairs(storage, bytes, d_keys, d_keys_out, d_values,
                                             d_values_out, n);
        });
        std::vector<int> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return keys[a] < keys[b]; });
        std::vector<float> want_keys(n);
        for(size_t i = 0; i < n; ++i)
            want_keys[i] = keys[order[i]];
        expect_equal("radix sort pairs keys (float)", to_host(d_keys_out, n), want_keys);
        expect_equal("radix sort pairs values (stable)", to_host(d_values_out, n), order);
        CHECK(hipFree(d_keys));
        CHECK(hipFree(d_keys_out));
        CHECK(hipFree(d_values));
        CHECK(hipFree(d_values_out));
    }
}

int main(int argc, char** argv)
{
    std::string only;
    for(int i = 1; i < argc; ++i)
        only += std::string(argv[i]) + " ";
    const auto wanted = [&](const char* name) {
        return only.empty() || only.find(name) != std::string::npos;
    };
    if(wanted("scan"))
        check_scans();
    if(wanted("reduce"))
        check_reduce();
    if(wanted("sort"))
        check_sort();
    if(failures) {
        std::printf("FAIL rocprim_algos: %d checks failed\n", failures);
        return 1;
    }
    std::printf("PASS rocprim_algos\n");
    return 0;
}

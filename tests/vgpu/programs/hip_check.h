/*
 * Shared by the HIP test programs: every HIP call goes through CHECK, which
 * prints the call, its error name and string and exits 1; EXPECT records a
 * failed comparison (printed) and the program ends with finish(), which
 * prints "PASS <name>" and returns 0, or a count of failures and returns 1;
 * to_device/to_host copy vectors.
 */
#pragma once
#include <hip/hip_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                     \
    do {                                                                                \
        hipError_t check_error_ = (call);                                               \
        if (check_error_ != hipSuccess) {                                               \
            printf("%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,             \
                   hipGetErrorName(check_error_), hipGetErrorString(check_error_));     \
            fflush(stdout);                                                             \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

/* A kernel launch: the launch's own error, then the kernel's. */
#define CHECK_LAUNCH()                                                                  \
    do {                                                                                \
        CHECK(hipGetLastError());                                                       \
        CHECK(hipDeviceSynchronize());                                                  \
    } while (0)

static int failures = 0;
static const int MAX_REPORTS = 10;

/* Records (and prints, the first few) a mismatch; true if cond holds. */
#define EXPECT(cond, ...)                                                               \
    ([&]() {                                                                            \
        if (cond) return true;                                                          \
        if (failures++ < MAX_REPORTS) {                                                 \
            printf("%s:%d: mismatch (%s): ", __FILE__, __LINE__, #cond);                \
            printf(__VA_ARGS__);                                                        \
            printf("\n");                                                               \
        }                                                                               \
        return false;                                                                   \
    }())

static inline int finish(const char *name)
{
    if (failures) {
        printf("FAIL %s: %d mismatches\n", name, failures);
        return 1;
    }
    printf("PASS %s\n", name);
    return 0;
}

/* A device copy of a host vector (one element when empty), and back. */
template <class T>
static T *to_device(const std::vector<T> &host)
{
    T *device = nullptr;
    CHECK(hipMalloc((void **)&device, sizeof(T) * (host.empty() ? 1 : host.size())));
    if (!host.empty())
        CHECK(hipMemcpy(device, host.data(), sizeof(T) * host.size(), hipMemcpyHostToDevice));
    return device;
}

template <class T>
static std::vector<T> to_host(const T *device, size_t n)
{
    std::vector<T> host(n);
    if (n)
        CHECK(hipMemcpy(host.data(), device, sizeof(T) * n, hipMemcpyDeviceToHost));
    return host;
}

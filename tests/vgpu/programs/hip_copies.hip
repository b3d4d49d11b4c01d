// Copies of many sizes and alignments in every direction, checked byte for
// byte: what ROCr's copy engines (SDMA queues, or its blit kernels) move.
// Prints "PASS copies" and exits 0, or names the first wrong copy.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                   \
    do {                                                                              \
        hipError_t error_ = (call);                                                   \
        if (error_ != hipSuccess) {                                                   \
            printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(error_)); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static unsigned char pattern(size_t i, int seed) { return (unsigned char)(i * 131 + seed * 17 + (i >> 9)); }

static int compare(const unsigned char* got, size_t size, size_t offset, int seed, const char* what)
{
    for (size_t i = 0; i < size; i++)
        if (got[i] != pattern(i + offset, seed)) {
            printf("%s: %zu bytes, byte %zu is %u, expected %u\n", what, size, i, got[i],
                   pattern(i + offset, seed));
            return 1;
        }
    return 0;
}

int main()
{
    const size_t sizes[] = {1, 3, 64, 4095, 4096, 65537, 1 << 20, (1 << 21) + 13};
    const size_t largest = (1 << 21) + 64;
    std::vector<unsigned char> host(largest), back(largest);
    unsigned char *pinned, *device_a, *device_b;
    CHECK(hipHostMalloc((void**)&pinned, largest));
    CHECK(hipMalloc((void**)&device_a, largest));
    CHECK(hipMalloc((void**)&device_b, largest));
    int seed = 0;
    for (size_t size : sizes) {
        for (size_t offset : {size_t(0), size_t(5)}) {
            seed++;
            for (size_t i = 0; i < size; i++)
                host[i] = pattern(i + offset, seed);
            /* pageable host -> device -> device -> pageable host */
            CHECK(hipMemcpy(device_a + offset, host.data(), size, hipMemcpyHostToDevice));
            CHECK(hipMemcpy(device_b + offset + 3, device_a + offset, size, hipMemcpyDeviceToDevice));
            memset(back.data(), 0, size);
            CHECK(hipMemcpy(back.data(), device_b + offset + 3, size, hipMemcpyDeviceToHost));
            if (compare(back.data(), size, offset, seed, "pageable round trip"))
                return 1;
            /* pinned host <-> device, asynchronous on a stream */
            hipStream_t stream;
            CHECK(hipStreamCreate(&stream));
            memset(pinned, 0, size);
            CHECK(hipMemcpyAsync(pinned, device_a + offset, size, hipMemcpyDeviceToHost, stream));
            CHECK(hipStreamSynchronize(stream));
            CHECK(hipStreamDestroy(stream));
            if (compare(pinned, size, offset, seed, "pinned device-to-host"))
                return 1;
        }
    }
    /* a fill, then the bytes around it untouched */
    CHECK(hipMemset(device_a, 0xAB, 1000));
    CHECK(hipMemset(device_a + 1000, 0x11, 33));
    CHECK(hipMemcpy(back.data(), device_a, 1100, hipMemcpyDeviceToHost));
    for (size_t i = 0; i < 1033; i++)
        if (back[i] != (i < 1000 ? 0xAB : 0x11)) {
            printf("memset: byte %zu is %u\n", i, back[i]);
            return 1;
        }
    CHECK(hipHostFree(pinned));
    CHECK(hipFree(device_a));
    CHECK(hipFree(device_b));
    printf("PASS copies\n");
    return 0;
}

/*
 * Memory: hipMalloc, hipMemcpy in every direction (host to device, device to
 * host, device to device, host to host, hipMemcpyDefault), odd sizes and
 * offsets, a 4 MiB pageable copy, hipMemset/hipMemsetD8/D16/D32 and
 * hipMemsetAsync, pinned host memory (hipHostMalloc, mapped and read/written
 * by a kernel in place), hipMemcpy2D, __device__ and __constant__ symbols
 * (hipMemcpyToSymbol/FromSymbol, hipGetSymbolAddress), hipMemGetInfo and
 * hipPointerGetAttributes. With the argument "register", only
 * hipHostRegister/hipHostUnregister of malloc'd memory.
 */
#include "hip_check.h"
#include <cstdint>
#include <vector>

__constant__ int table[16];
__device__ int counter_symbol;

__global__ void scale_add(const int *in, int *out, int n, int mul, int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * mul + add;
}

/* Reads and writes host memory in place (pinned, mapped). */
__global__ void square_in_place(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * data[i];
}

__global__ void use_symbols(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[i % 16] * 3;
    if (i == 0) counter_symbol += 1000;
}

static unsigned char pattern(size_t i) { return (unsigned char)(i * 131 + 7); }

/*
 * hipHostRegister: malloc'd memory page-locked in place, its device pointer
 * used by a kernel, then hipHostUnregister. Run alone ("register"): it once
 * aborted in HIP 5.2's hipHostUnregister ("Memobj map does not have ptr"),
 * which happens when the GPU address of registered memory is its host address.
 */
static void host_register()
{
    const int reg_n = 4096;
    float *registered = (float *)aligned_alloc(4096, reg_n * sizeof(float));
    for (int i = 0; i < reg_n; i++) registered[i] = (float)(i % 100) - 50.0f;
    CHECK(hipHostRegister(registered, reg_n * sizeof(float), hipHostRegisterMapped));
    float *registered_device = nullptr;
    CHECK(hipHostGetDevicePointer((void **)&registered_device, registered, 0));
    hipLaunchKernelGGL(square_in_place, dim3(reg_n / 256), dim3(256), 0, 0, registered_device,
                       reg_n);
    CHECK_LAUNCH();
    for (int i = 0; i < reg_n; i++) {
        float x = (float)(i % 100) - 50.0f;
        EXPECT(registered[i] == x * x, "registered [%d] = %g", i, registered[i]);
    }
    CHECK(hipHostUnregister(registered));
    free(registered);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "register") == 0) {
        host_register();
        return finish("hip_memory register");
    }

    const int n = 3000;
    const int block = 128;
    const int grid = (n + block - 1) / block;

    /* ---------------------------------------------- every copy direction */
    std::vector<int> host(n), back(n, -1), host_copy(n, -2);
    for (int i = 0; i < n; i++) host[i] = i * 7 - 1000;
    int *a = nullptr, *b = nullptr;
    CHECK(hipMalloc(&a, n * sizeof(int)));
    CHECK(hipMalloc(&b, n * sizeof(int)));
    CHECK(hipMemcpy(a, host.data(), n * sizeof(int), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(b, a, n * sizeof(int), hipMemcpyDeviceToDevice));
    CHECK(hipMemcpy(back.data(), b, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == host[i], "H2D/D2D/D2H [%d] = %d, expected %d", i, back[i], host[i]);
    CHECK(hipMemcpy(host_copy.data(), host.data(), n * sizeof(int), hipMemcpyHostToHost));
    for (int i = 0; i < n; i++)
        EXPECT(host_copy[i] == host[i], "H2H [%d] = %d, expected %d", i, host_copy[i], host[i]);

    /* a kernel between copies; hipMemcpyDefault infers both directions */
    hipLaunchKernelGGL(scale_add, dim3(grid), dim3(block), 0, 0, a, b, n, 3, 5);
    CHECK_LAUNCH();
    CHECK(hipMemcpy(back.data(), b, n * sizeof(int), hipMemcpyDefault));
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == host[i] * 3 + 5, "scale_add [%d] = %d", i, back[i]);
    CHECK(hipMemcpy(a, back.data(), n * sizeof(int), hipMemcpyDefault));
    CHECK(hipMemcpy(b, a, n * sizeof(int), hipMemcpyDefault));
    std::vector<int> again(n, 0);
    CHECK(hipMemcpy(again.data(), b, n * sizeof(int), hipMemcpyDefault));
    for (int i = 0; i < n; i++)
        EXPECT(again[i] == back[i], "hipMemcpyDefault round trip [%d] = %d", i, again[i]);

    /* ----------------------------------- odd sizes and unaligned offsets */
    const size_t bytes = 70001;           /* over the staging thresholds of small copies */
    std::vector<unsigned char> src(bytes), dst(bytes + 16, 0xEE);
    for (size_t i = 0; i < bytes; i++) src[i] = pattern(i);
    unsigned char *raw = nullptr, *raw2 = nullptr;
    CHECK(hipMalloc(&raw, bytes + 64));
    CHECK(hipMalloc(&raw2, bytes + 64));
    CHECK(hipMemset(raw, 0, bytes + 64));
    CHECK(hipMemcpy(raw + 3, src.data(), bytes, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(raw2 + 1, raw + 3, bytes - 10, hipMemcpyDeviceToDevice));
    CHECK(hipMemcpy(dst.data() + 5, raw2 + 1, bytes - 10, hipMemcpyDeviceToHost));
    for (size_t i = 0; i < bytes + 16; i++) {
        unsigned char want = (i >= 5 && i < 5 + bytes - 10) ? pattern(i - 5) : 0xEE;
        EXPECT(dst[i] == want, "unaligned copy byte %zu = 0x%02x, expected 0x%02x", i,
               dst[i], want);
    }
    /* the bytes around the copies are untouched */
    unsigned char edges[4];
    CHECK(hipMemcpy(edges, raw, 3, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(edges + 3, raw + 3 + bytes, 1, hipMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++) EXPECT(edges[i] == 0, "byte outside the copy %d = %d", i, edges[i]);

    /* a large pageable copy: the runtime stages or pins it in pieces */
    const size_t large = (4u << 20) + 5;
    std::vector<unsigned char> large_src(large), large_dst(large, 0);
    for (size_t i = 0; i < large; i++) large_src[i] = pattern(i ^ (i >> 13));
    unsigned char *large_a = nullptr, *large_b = nullptr;
    CHECK(hipMalloc(&large_a, large));
    CHECK(hipMalloc(&large_b, large));
    CHECK(hipMemcpy(large_a, large_src.data(), large, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(large_b, large_a, large, hipMemcpyDeviceToDevice));
    CHECK(hipMemcpy(large_dst.data(), large_b, large, hipMemcpyDeviceToHost));
    for (size_t i = 0; i < large; i++)
        EXPECT(large_dst[i] == large_src[i], "large copy byte %zu = 0x%02x, expected 0x%02x", i,
               large_dst[i], large_src[i]);
    CHECK(hipFree(large_a));
    CHECK(hipFree(large_b));

    /* ------------------------------------------------------------ memsets */
    CHECK(hipMemset(raw, 0xAB, bytes));
    CHECK(hipMemset(raw + 100, 0x11, 33));                    /* odd offset and size */
    CHECK(hipMemsetD32((hipDeviceptr_t)(raw + 1000), 0x01020304, 50));
    CHECK(hipMemsetD16((hipDeviceptr_t)(raw + 1400), 0xBEEF, 7));
    CHECK(hipMemsetD8((hipDeviceptr_t)(raw + 1500), 0x5A, 9));
    hipStream_t stream;
    CHECK(hipStreamCreate(&stream));
    CHECK(hipMemsetAsync(raw + 2000, 0x77, 4097, stream));
    CHECK(hipStreamSynchronize(stream));
    std::vector<unsigned char> set(bytes);
    CHECK(hipMemcpy(set.data(), raw, bytes, hipMemcpyDeviceToHost));
    for (size_t i = 0; i < bytes; i++) {
        unsigned char want = 0xAB;
        if (i >= 100 && i < 133) want = 0x11;
        if (i >= 1000 && i < 1200) want = (unsigned char)(0x01020304 >> (8 * (i % 4)));
        if (i >= 1400 && i < 1414) want = (unsigned char)(0xBEEF >> (8 * (i % 2)));
        if (i >= 1500 && i < 1509) want = 0x5A;
        if (i >= 2000 && i < 6097) want = 0x77;
        EXPECT(set[i] == want, "memset byte %zu = 0x%02x, expected 0x%02x", i, set[i], want);
    }

    /* ------------------------------------------------- pinned host memory */
    float *pinned = nullptr;
    CHECK(hipHostMalloc(&pinned, n * sizeof(float), hipHostMallocMapped));
    for (int i = 0; i < n; i++) pinned[i] = 0.5f * i - 7.0f;
    float *pinned_device = nullptr;
    CHECK(hipHostGetDevicePointer((void **)&pinned_device, pinned, 0));
    hipLaunchKernelGGL(square_in_place, dim3(grid), dim3(block), 0, 0, pinned_device, n);
    CHECK_LAUNCH();
    for (int i = 0; i < n; i++) {
        float x = 0.5f * i - 7.0f;
        EXPECT(pinned[i] == x * x, "pinned [%d] = %g, expected %g", i, pinned[i], x * x);
    }
    /* pinned <-> device copies */
    float *dev_f = nullptr;
    CHECK(hipMalloc(&dev_f, n * sizeof(float)));
    CHECK(hipMemcpy(dev_f, pinned, n * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(square_in_place, dim3(grid), dim3(block), 0, 0, dev_f, n);
    CHECK_LAUNCH();
    float *pinned2 = nullptr;
    CHECK(hipHostMalloc(&pinned2, n * sizeof(float)));
    CHECK(hipMemcpy(pinned2, dev_f, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float x = 0.5f * i - 7.0f;
        EXPECT(pinned2[i] == (x * x) * (x * x), "pinned copy [%d] = %g", i, pinned2[i]);
    }
    hipPointerAttribute_t attributes;
    CHECK(hipPointerGetAttributes(&attributes, pinned));
    EXPECT(attributes.memoryType == hipMemoryTypeHost, "pinned memory type %d",
           (int)attributes.memoryType);
    CHECK(hipPointerGetAttributes(&attributes, dev_f));
    EXPECT(attributes.memoryType == hipMemoryTypeDevice, "device memory type %d",
           (int)attributes.memoryType);

    /* -------------------------------------------------------- hipMemcpy2D */
    const int width = 37, height = 11;               /* bytes per row, rows */
    size_t pitch = 0;
    unsigned char *pitched = nullptr;
    CHECK(hipMallocPitch((void **)&pitched, &pitch, width, height));
    EXPECT(pitch >= (size_t)width, "pitch %zu", pitch);
    std::vector<unsigned char> image(width * height), image_back(width * height, 0);
    for (int i = 0; i < width * height; i++) image[i] = pattern(i * 3);
    CHECK(hipMemcpy2D(pitched, pitch, image.data(), width, width, height, hipMemcpyHostToDevice));
    CHECK(hipMemcpy2D(image_back.data(), width, pitched, pitch, width, height,
                      hipMemcpyDeviceToHost));
    for (int i = 0; i < width * height; i++)
        EXPECT(image_back[i] == image[i], "2D copy [%d] = %d, expected %d", i, image_back[i],
               image[i]);

    /* ------------------------------------------------------------ symbols */
    int table_host[16];
    for (int i = 0; i < 16; i++) table_host[i] = i * i - 20;
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), table_host, sizeof(table_host)));
    int start = 5;
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(counter_symbol), &start, sizeof(int)));
    hipLaunchKernelGGL(use_symbols, dim3(1), dim3(64), 0, 0, b, 64);
    CHECK_LAUNCH();
    int counter = 0;
    CHECK(hipMemcpyFromSymbol(&counter, HIP_SYMBOL(counter_symbol), sizeof(int)));
    EXPECT(counter == 1005, "__device__ counter = %d", counter);
    int *counter_address = nullptr;
    CHECK(hipGetSymbolAddress((void **)&counter_address, HIP_SYMBOL(counter_symbol)));
    CHECK(hipMemcpy(&counter, counter_address, sizeof(int), hipMemcpyDeviceToHost));
    EXPECT(counter == 1005, "counter by address = %d", counter);
    CHECK(hipMemcpy(back.data(), b, 64 * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        EXPECT(back[i] == table_host[i % 16] * 3, "__constant__ table [%d] = %d", i, back[i]);

    size_t free_bytes = 0, total_bytes = 0;
    CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
    EXPECT(total_bytes > 0 && free_bytes <= total_bytes, "hipMemGetInfo %zu of %zu",
           free_bytes, total_bytes);

    CHECK(hipStreamDestroy(stream));
    CHECK(hipFree(pitched));
    CHECK(hipHostFree(pinned2));
    CHECK(hipHostFree(pinned));
    CHECK(hipFree(dev_f));
    CHECK(hipFree(raw2));
    CHECK(hipFree(raw));
    CHECK(hipFree(b));
    CHECK(hipFree(a));
    return finish("hip_memory");
}

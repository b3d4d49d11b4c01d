/*
 * The device as HIP sees it: hipGetDeviceCount/hipSetDevice/hipGetDevice,
 * hipGetDeviceProperties (name, arch name, compute units, warp size 64, LDS
 * per block, limits) and the same facts through hipDeviceGetAttribute,
 * hipFuncGetAttributes of a kernel with static LDS, a kernel's own view
 * (warpSize, the hardware id registers), a launch of the largest block, and
 * the runtime and driver versions. Usage: hip_device EXPECTED_ARCH; prints
 * "device ARCH cus N warp W lds BYTES" for the test.
 */
#include "hip_check.h"
#include <string>
#include <vector>

__global__ void static_lds(int *out)
{
    __shared__ int tile[1024];
    tile[threadIdx.x] = (int)threadIdx.x * 2;
    __syncthreads();
    out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x] + warpSize;
}

__global__ void device_view(int *out)
{
    out[0] = warpSize;
    out[1] = (int)gridDim.x;
    out[2] = (int)blockDim.x;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: hip_device EXPECTED_ARCH\n");
        return 2;
    }
    const char *expected_arch = argv[1];

    int count = 0, device = -1;
    CHECK(hipGetDeviceCount(&count));
    EXPECT(count == 1, "hipGetDeviceCount = %d", count);
    CHECK(hipSetDevice(0));
    CHECK(hipGetDevice(&device));
    EXPECT(device == 0, "hipGetDevice = %d", device);

    hipDeviceProp_t props;
    CHECK(hipGetDeviceProperties(&props, 0));
    std::string arch(props.gcnArchName);
    std::string processor = arch.substr(0, arch.find(':'));
    EXPECT(processor == expected_arch, "gcnArchName '%s', expected '%s'", props.gcnArchName,
           expected_arch);
    EXPECT(props.warpSize == 64, "warpSize %d", props.warpSize);
    EXPECT(props.multiProcessorCount > 0, "multiProcessorCount %d", props.multiProcessorCount);
    EXPECT(props.sharedMemPerBlock == 65536, "sharedMemPerBlock %zu", props.sharedMemPerBlock);
    EXPECT(props.maxSharedMemoryPerMultiProcessor >= props.sharedMemPerBlock,
           "maxSharedMemoryPerMultiProcessor %zu", props.maxSharedMemoryPerMultiProcessor);
    EXPECT(props.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", props.maxThreadsPerBlock);
    EXPECT(props.maxThreadsDim[0] == 1024, "maxThreadsDim[0] %d", props.maxThreadsDim[0]);
    EXPECT(props.maxGridSize[0] > 0, "maxGridSize[0] %d", props.maxGridSize[0]);
    EXPECT(props.totalGlobalMem > 0, "totalGlobalMem %zu", props.totalGlobalMem);
    EXPECT(props.clockRate > 0, "clockRate %d", props.clockRate);
    EXPECT(strlen(props.name) > 0, "empty name");
    int major = expected_arch[3] - '0';
    EXPECT(props.major == major, "major %d, expected %d", props.major, major);

    int attribute = 0;
    CHECK(hipDeviceGetAttribute(&attribute, hipDeviceAttributeWarpSize, 0));
    EXPECT(attribute == 64, "hipDeviceAttributeWarpSize %d", attribute);
    CHECK(hipDeviceGetAttribute(&attribute, hipDeviceAttributeMultiprocessorCount, 0));
    EXPECT(attribute == props.multiProcessorCount, "hipDeviceAttributeMultiprocessorCount %d",
           attribute);
    CHECK(hipDeviceGetAttribute(&attribute, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
    EXPECT(attribute == 65536, "hipDeviceAttributeMaxSharedMemoryPerBlock %d", attribute);
    char name[256] = {0};
    CHECK(hipDeviceGetName(name, sizeof name, 0));
    EXPECT(strcmp(name, props.name) == 0, "hipDeviceGetName '%s' vs '%s'", name, props.name);

    int runtime_version = 0, driver_version = 0;
    CHECK(hipRuntimeGetVersion(&runtime_version));
    CHECK(hipDriverGetVersion(&driver_version));
    EXPECT(runtime_version > 0, "runtime version %d", runtime_version);

    hipFuncAttributes attributes;
    CHECK(hipFuncGetAttributes(&attributes, reinterpret_cast<const void *>(static_lds)));
    EXPECT(attributes.sharedSizeBytes == 1024 * sizeof(int), "static_lds sharedSizeBytes %zu",
           attributes.sharedSizeBytes);
    EXPECT(attributes.maxThreadsPerBlock >= 256, "static_lds maxThreadsPerBlock %d",
           attributes.maxThreadsPerBlock);

    /* the largest block: 1024 work-items, 16 waves sharing 4 KiB of LDS */
    int *out;
    CHECK(hipMalloc(&out, 1024 * sizeof(int)));
    hipLaunchKernelGGL(static_lds, dim3(1), dim3(1024), 0, 0, out);
    CHECK_LAUNCH();
    std::vector<int> got(1024);
    CHECK(hipMemcpy(got.data(), out, 1024 * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < 1024; i++)
        EXPECT(got[i] == (1023 - i) * 2 + 64, "1024-wide block [%d] = %d", i, got[i]);

    hipLaunchKernelGGL(device_view, dim3(7), dim3(96), 0, 0, out);
    CHECK_LAUNCH();
    CHECK(hipMemcpy(got.data(), out, 3 * sizeof(int), hipMemcpyDeviceToHost));
    EXPECT(got[0] == 64, "device warpSize %d", got[0]);
    EXPECT(got[1] == 7 && got[2] == 96, "gridDim %d blockDim %d", got[1], got[2]);
    CHECK(hipFree(out));

    printf("device %s cus %d warp %d lds %zu\n", processor.c_str(), props.multiProcessorCount,
           props.warpSize, props.sharedMemPerBlock);
    printf("name %s, gcnArchName %s, version %d.%d, clock %d kHz, memory %zu MiB\n", props.name,
           props.gcnArchName, props.major, props.minor, props.clockRate,
           props.totalGlobalMem >> 20);
    return finish("hip_device");
}

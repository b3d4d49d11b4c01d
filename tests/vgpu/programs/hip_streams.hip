/*
 * Streams and events: several streams each copying a chunk host-to-device
 * from pinned memory (hipMemcpyAsync), running a kernel on it and copying
 * it back asynchronously; events recorded around each stream's work
 * (hipEventElapsedTime gives positive, ordered times); a dependency between
 * streams through hipStreamWaitEvent; hipStreamQuery/hipEventQuery once
 * done; hipStreamAddCallback; non-blocking streams, hipMemsetAsync and
 * device-to-device hipMemcpyAsync; hipDeviceSynchronize over everything.
 */
#include "hip_check.h"
#include <vector>

#define STREAMS 4

__global__ void affine(const float *in, float *out, int n, float mul, float add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * mul + add;
}

/* a kernel that runs a while, then publishes its result */
__global__ void slow_producer(int *data, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = i;
    for (int r = 0; r < rounds; r++) x = (x * 1103515245 + 12345) & 0x7fffffff;
    data[i] = x;
}

__global__ void consumer(const int *data, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = data[i] ^ 0x5555;
}

static int callback_order[4], callbacks = 0;

static void stream_callback(hipStream_t, hipError_t status, void *user)
{
    if (status == hipSuccess) callback_order[callbacks++ % 4] = (int)(size_t)user;
}

int main()
{
    const int chunk = 1024, n = STREAMS * chunk;
    hipStream_t streams[STREAMS];
    hipEvent_t started[STREAMS], copied[STREAMS], finished[STREAMS];
    for (int s = 0; s < STREAMS; s++) {
        if (s % 2)
            CHECK(hipStreamCreateWithFlags(&streams[s], hipStreamNonBlocking));
        else
            CHECK(hipStreamCreate(&streams[s]));
        CHECK(hipEventCreate(&started[s]));
        CHECK(hipEventCreate(&copied[s]));
        CHECK(hipEventCreate(&finished[s]));
    }

    /* ------------------------------------ pipelined chunks on STREAMS streams */
    float *host_in, *host_out;
    CHECK(hipHostMalloc(&host_in, n * sizeof(float)));
    CHECK(hipHostMalloc(&host_out, n * sizeof(float)));
    for (int i = 0; i < n; i++) {
        host_in[i] = (float)(i % 1000) * 0.5f;
        host_out[i] = -1.0f;
    }
    float *device_in, *device_out;
    CHECK(hipMalloc(&device_in, n * sizeof(float)));
    CHECK(hipMalloc(&device_out, n * sizeof(float)));
    for (int s = 0; s < STREAMS; s++) {
        size_t offset = (size_t)s * chunk;
        CHECK(hipEventRecord(started[s], streams[s]));
        CHECK(hipMemcpyAsync(device_in + offset, host_in + offset, chunk * sizeof(float),
                             hipMemcpyHostToDevice, streams[s]));
        CHECK(hipEventRecord(copied[s], streams[s]));
        hipLaunchKernelGGL(affine, dim3(chunk / 256), dim3(256), 0, streams[s],
                           device_in + offset, device_out + offset, chunk, (float)(s + 2),
                           (float)s);
        CHECK(hipGetLastError());
        CHECK(hipMemcpyAsync(host_out + offset, device_out + offset, chunk * sizeof(float),
                             hipMemcpyDeviceToHost, streams[s]));
        CHECK(hipEventRecord(finished[s], streams[s]));
    }
    for (int s = 0; s < STREAMS; s++) {
        CHECK(hipEventSynchronize(finished[s]));
        CHECK(hipEventQuery(finished[s]));
        float total = -1.0f, copy = -1.0f;
        CHECK(hipEventElapsedTime(&total, started[s], finished[s]));
        CHECK(hipEventElapsedTime(&copy, started[s], copied[s]));
        EXPECT(total > 0.0f && total < 600000.0f, "stream %d: elapsed time %g ms", s, total);
        EXPECT(copy >= 0.0f && copy <= total, "stream %d: copy %g ms of %g ms", s, copy, total);
        printf("stream %d: %.3f ms (copy in %.3f ms)\n", s, total, copy);
    }
    for (int s = 0; s < STREAMS; s++) CHECK(hipStreamQuery(streams[s]));
    for (int i = 0; i < n; i++) {
        int s = i / chunk;
        float want = host_in[i] * (float)(s + 2) + (float)s;
        EXPECT(host_out[i] == want, "pipelined [%d] = %g, expected %g", i, host_out[i], want);
    }

    /* --------------------------------- a dependency between streams: wait event */
    const int m = 512;
    int *produced, *consumed;
    CHECK(hipMalloc(&produced, m * sizeof(int)));
    CHECK(hipMalloc(&consumed, m * sizeof(int)));
    CHECK(hipMemset(produced, 0, m * sizeof(int)));
    hipEvent_t ready;
    CHECK(hipEventCreateWithFlags(&ready, hipEventDisableTiming));
    hipLaunchKernelGGL(slow_producer, dim3(m / 128), dim3(128), 0, streams[0], produced, m, 200);
    CHECK(hipGetLastError());
    CHECK(hipEventRecord(ready, streams[0]));
    CHECK(hipStreamWaitEvent(streams[1], ready, 0));
    hipLaunchKernelGGL(consumer, dim3(m / 128), dim3(128), 0, streams[1], produced, consumed, m);
    CHECK(hipGetLastError());
    std::vector<int> got(m);
    CHECK(hipMemcpyAsync(got.data(), consumed, m * sizeof(int), hipMemcpyDeviceToHost,
                         streams[1]));
    CHECK(hipStreamSynchronize(streams[1]));
    for (int i = 0; i < m; i++) {
        int x = i;
        for (int r = 0; r < 200; r++) x = (int)(((unsigned)x * 1103515245u + 12345u) & 0x7fffffffu);
        EXPECT(got[i] == (x ^ 0x5555), "waited-for result [%d] = %d, expected %d", i, got[i],
               x ^ 0x5555);
    }

    /* ----------------------------------- callbacks run in stream order, once done */
    for (int s = 0; s < STREAMS; s++)
        CHECK(hipStreamAddCallback(streams[s], stream_callback, (void *)(size_t)(s + 1), 0));
    CHECK(hipDeviceSynchronize());
    /* a callback may run on a runtime thread just after the sync: wait for all */
    for (int tries = 0; tries < 1000 && callbacks < STREAMS; tries++) {
        CHECK(hipStreamSynchronize(streams[0]));
        CHECK(hipStreamSynchronize(streams[STREAMS - 1]));
    }
    EXPECT(callbacks == STREAMS, "%d stream callbacks ran", callbacks);

    /* ------------------- memset and device-to-device copies, async on one stream */
    int *a, *b;
    CHECK(hipMalloc(&a, m * sizeof(int)));
    CHECK(hipMalloc(&b, m * sizeof(int)));
    CHECK(hipMemsetAsync(a, 0x3c, m * sizeof(int), streams[2]));
    CHECK(hipMemcpyAsync(b, a, m * sizeof(int), hipMemcpyDeviceToDevice, streams[2]));
    CHECK(hipMemsetAsync(a, 0, 16 * sizeof(int), streams[2]));
    std::vector<int> from_a(m), from_b(m);
    CHECK(hipMemcpyAsync(from_a.data(), a, m * sizeof(int), hipMemcpyDeviceToHost, streams[2]));
    CHECK(hipMemcpyAsync(from_b.data(), b, m * sizeof(int), hipMemcpyDeviceToHost, streams[2]));
    CHECK(hipStreamSynchronize(streams[2]));
    for (int i = 0; i < m; i++) {
        EXPECT(from_a[i] == (i < 16 ? 0 : 0x3c3c3c3c), "memset a [%d] = 0x%x", i, from_a[i]);
        EXPECT(from_b[i] == 0x3c3c3c3c, "copied b [%d] = 0x%x", i, from_b[i]);
    }

    /* ------------------------- the null stream orders after the others' work */
    hipEvent_t before, after;
    CHECK(hipEventCreate(&before));
    CHECK(hipEventCreate(&after));
    CHECK(hipEventRecord(before, 0));
    hipLaunchKernelGGL(slow_producer, dim3(m / 128), dim3(128), 0, 0, produced, m, 50);
    CHECK(hipGetLastError());
    CHECK(hipEventRecord(after, 0));
    CHECK(hipEventSynchronize(after));
    float kernel_ms = -1.0f;
    CHECK(hipEventElapsedTime(&kernel_ms, before, after));
    EXPECT(kernel_ms > 0.0f, "null-stream kernel time %g ms", kernel_ms);
    printf("null stream kernel: %.3f ms\n", kernel_ms);

    CHECK(hipEventDestroy(before));
    CHECK(hipEventDestroy(after));
    CHECK(hipEventDestroy(ready));
    for (int s = 0; s < STREAMS; s++) {
        CHECK(hipEventDestroy(started[s]));
        CHECK(hipEventDestroy(copied[s]));
        CHECK(hipEventDestroy(finished[s]));
        CHECK(hipStreamDestroy(streams[s]));
    }
    CHECK(hipFree(a));
    CHECK(hipFree(b));
    CHECK(hipFree(produced));
    CHECK(hipFree(consumed));
    CHECK(hipFree(device_in));
    CHECK(hipFree(device_out));
    CHECK(hipHostFree(host_in));
    CHECK(hipHostFree(host_out));
    return finish("hip_streams");
}

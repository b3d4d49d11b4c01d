/*
 * The HSA API used directly: agents and regions, a queue, an executable
 * loaded from a code object file (argv[1], kernel "vector_add" with
 * arguments a, b, c, n), kernel dispatches with completion signals, a
 * barrier-AND packet and a second queue. Prints "ok" and exits 0 when every
 * result is right.
 */
#include "hsa_common.h"

#define N 1000

static hsa_agent_t gpu, cpu;
static hsa_region_t kernarg_region, system_region;
static int gpus;

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
    (void)data;
    hsa_device_type_t type;
    CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
    if (type == HSA_DEVICE_TYPE_GPU) {
        gpu = agent;
        gpus++;
    } else if (type == HSA_DEVICE_TYPE_CPU) {
        cpu = agent;
    }
    return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_regions(hsa_region_t region, void *data)
{
    (void)data;
    hsa_region_segment_t segment;
    uint32_t flags;
    CHECK(hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &segment));
    if (segment != HSA_REGION_SEGMENT_GLOBAL)
        return HSA_STATUS_SUCCESS;
    CHECK(hsa_region_get_info(region, HSA_REGION_INFO_GLOBAL_FLAGS, &flags));
    if (flags & HSA_REGION_GLOBAL_FLAG_KERNARG)
        kernarg_region = region;
    if (flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED)
        system_region = region;
    return HSA_STATUS_SUCCESS;
}

struct args {
    float *a, *b, *c;
    int32_t n;
};

static void dispatch(hsa_queue_t *queue, uint64_t kernel_object, uint32_t group_size,
                     void *kernarg, hsa_signal_t signal)
{
    uint64_t index = hsa_queue_add_write_index_relaxed(queue, 1);
    hsa_kernel_dispatch_packet_t *packet =
        (hsa_kernel_dispatch_packet_t *)queue->base_address + (index & (queue->size - 1));
    memset((char *)packet + 4, 0, sizeof *packet - 4);
    packet->setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    packet->workgroup_size_x = 64;
    packet->workgroup_size_y = packet->workgroup_size_z = 1;
    packet->grid_size_x = 1024;
    packet->grid_size_y = packet->grid_size_z = 1;
    packet->group_segment_size = group_size;
    packet->kernel_object = kernel_object;
    packet->kernarg_address = kernarg;
    packet->completion_signal = signal;
    publish(queue, packet, SYSTEM_SCOPE_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH), packet->setup,
            index);
}

static void barrier_and(hsa_queue_t *queue, hsa_signal_t dependency, hsa_signal_t signal)
{
    uint64_t index = hsa_queue_add_write_index_relaxed(queue, 1);
    hsa_barrier_and_packet_t *packet =
        (hsa_barrier_and_packet_t *)queue->base_address + (index & (queue->size - 1));
    memset((char *)packet + 4, 0, sizeof *packet - 4);
    packet->dep_signal[0] = dependency;
    packet->completion_signal = signal;
    publish(queue, packet, SYSTEM_SCOPE_HEADER(HSA_PACKET_TYPE_BARRIER_AND), 0, index);
}

static int check(const float *c, const float *a, const float *b, const char *what)
{
    for (int i = 0; i < N; i++)
        if (c[i] != a[i] + b[i]) {
            fprintf(stderr, "%s: c[%d] = %g, expected %g\n", what, i, c[i], a[i] + b[i]);
            return 1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CODE_OBJECT\n", argv[0]);
        return 2;
    }
    CHECK(hsa_init());
    CHECK(hsa_iterate_agents(find_agents, NULL));
    if (gpus != 1) {
        fprintf(stderr, "expected one GPU agent, found %d\n", gpus);
        return 1;
    }
    char name[64];
    CHECK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name));
    printf("agent %s\n", name);
    CHECK(hsa_agent_iterate_regions(gpu, find_regions, NULL));
    CHECK(hsa_agent_iterate_regions(cpu, find_regions, NULL));
    if (!kernarg_region.handle || !system_region.handle) {
        fprintf(stderr, "no kernarg or fine-grained region\n");
        return 1;
    }

    uint64_t kernel_object = load_kernel(gpu, argv[1], "vector_add");
    uint32_t group_size = 0;       /* vector_add uses no LDS */
    hsa_queue_t *queue, *second;
    CHECK(hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                           &queue));
    CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX,
                           &second));

    float *a, *b, *c, *d;
    CHECK(hsa_memory_allocate(system_region, N * 4, (void **)&a));
    CHECK(hsa_memory_allocate(system_region, N * 4, (void **)&b));
    CHECK(hsa_memory_allocate(system_region, N * 4, (void **)&c));
    CHECK(hsa_memory_allocate(system_region, N * 4, (void **)&d));
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(N - i);
        c[i] = d[i] = -1.0f;
    }
    struct args *args1, *args2;
    CHECK(hsa_memory_allocate(kernarg_region, sizeof *args1, (void **)&args1));
    CHECK(hsa_memory_allocate(kernarg_region, sizeof *args2, (void **)&args2));
    *args1 = (struct args){a, b, c, N};
    *args2 = (struct args){c, b, d, N};      /* d = (a + b) + b, after the first */

    hsa_signal_t first_done, barrier_done, second_done;
    CHECK(hsa_signal_create(1, 0, NULL, &first_done));
    CHECK(hsa_signal_create(1, 0, NULL, &barrier_done));
    CHECK(hsa_signal_create(1, 0, NULL, &second_done));

    /* queue 2 waits (barrier-AND) for queue 1's dispatch, then runs its own */
    barrier_and(second, first_done, barrier_done);
    dispatch(second, kernel_object, group_size, args2, second_done);
    dispatch(queue, kernel_object, group_size, args1, first_done);

    if (hsa_signal_wait_scacquire(second_done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                  HSA_WAIT_STATE_BLOCKED) != 0) {
        fprintf(stderr, "second dispatch did not complete\n");
        return 1;
    }
    if (hsa_signal_load_scacquire(first_done) != 0 || hsa_signal_load_scacquire(barrier_done) != 0) {
        fprintf(stderr, "signals out of order\n");
        return 1;
    }
    int failed = check(c, a, b, "first dispatch");
    float *ab = malloc(N * 4);
    for (int i = 0; i < N; i++)
        ab[i] = a[i] + b[i];
    failed |= check(d, ab, b, "second dispatch");

    /* many dispatches on one queue, each with its own signal */
    for (int round = 0; round < 8; round++) {
        hsa_signal_store_relaxed(first_done, 1);
        dispatch(queue, kernel_object, group_size, args1, first_done);
        hsa_signal_wait_scacquire(first_done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                  HSA_WAIT_STATE_BLOCKED);
    }
    failed |= check(c, a, b, "repeated dispatch");

    CHECK(hsa_signal_destroy(first_done));
    CHECK(hsa_signal_destroy(barrier_done));
    CHECK(hsa_signal_destroy(second_done));
    CHECK(hsa_queue_destroy(second));
    CHECK(hsa_queue_destroy(queue));
    CHECK(hsa_shut_down());
    if (!failed)
        printf("ok\n");
    return failed;
}

/*
 * Launch one kernel (argv[2], no arguments, one 64-item work-group) of a
 * code object (argv[1]) through the HSA API and wait for it. The queue's
 * error callback prints the status and exits 3, as an application that
 * handles GPU errors would (with a third argument "--no-callback" the queue
 * has none and the program just waits); a clean completion prints "completed".
 */
#include <hsa/hsa.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        hsa_status_t status_ = (call);                                               \
        if (status_ != HSA_STATUS_SUCCESS) {                                         \
            const char *text_ = "?";                                                 \
            hsa_status_string(status_, &text_);                                      \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, text_); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static hsa_agent_t gpu;

static hsa_status_t find_gpu(hsa_agent_t agent, void *data)
{
    (void)data;
    hsa_device_type_t type;
    CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
    if (type == HSA_DEVICE_TYPE_GPU)
        gpu = agent;
    return HSA_STATUS_SUCCESS;
}

static void queue_error(hsa_status_t status, hsa_queue_t *queue, void *data)
{
    (void)queue;
    (void)data;
    const char *text = "?";
    hsa_status_string(status, &text);
    printf("queue error 0x%x: %s\n", (unsigned)status, text);
    fflush(stdout);
    exit(3);
}

int main(int argc, char **argv)
{
    int callback = argc == 3;
    if (argc != 3 && !(argc == 4 && strcmp(argv[3], "--no-callback") == 0)) {
        fprintf(stderr, "usage: %s CODE_OBJECT KERNEL [--no-callback]\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 2;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *blob = malloc(size);
    if (fread(blob, 1, size, file) != (size_t)size)
        return 2;
    fclose(file);

    CHECK(hsa_init());
    CHECK(hsa_iterate_agents(find_gpu, NULL));
    hsa_code_object_reader_t reader;
    CHECK(hsa_code_object_reader_create_from_memory(blob, size, &reader));
    hsa_executable_t executable;
    CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                    NULL, &executable));
    CHECK(hsa_executable_load_agent_code_object(executable, gpu, reader, NULL, NULL));
    CHECK(hsa_executable_freeze(executable, NULL));
    char symbol_name[256];
    snprintf(symbol_name, sizeof symbol_name, "%s.kd", argv[2]);
    hsa_executable_symbol_t symbol;
    CHECK(hsa_executable_get_symbol_by_name(executable, symbol_name, &gpu, &symbol));
    uint64_t kernel_object;
    CHECK(hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                         &kernel_object));
    hsa_queue_t *queue;
    CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, callback ? queue_error : NULL, NULL,
                           UINT32_MAX,
                           UINT32_MAX, &queue));
    hsa_signal_t done;
    CHECK(hsa_signal_create(1, 0, NULL, &done));

    uint64_t index = hsa_queue_add_write_index_relaxed(queue, 1);
    hsa_kernel_dispatch_packet_t *packet =
        (hsa_kernel_dispatch_packet_t *)queue->base_address + (index & (queue->size - 1));
    memset((char *)packet + 4, 0, sizeof *packet - 4);
    packet->workgroup_size_x = 64;
    packet->workgroup_size_y = packet->workgroup_size_z = 1;
    packet->grid_size_x = 64;
    packet->grid_size_y = packet->grid_size_z = 1;
    packet->kernel_object = kernel_object;
    packet->completion_signal = done;
    uint16_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                      HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |
                      HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE;
    uint16_t setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    __atomic_store_n((uint32_t *)packet, header | (uint32_t)setup << 16, __ATOMIC_RELEASE);
    hsa_signal_store_screlease(queue->doorbell_signal, index);

    hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                              HSA_WAIT_STATE_BLOCKED);
    printf("completed\n");
    CHECK(hsa_signal_destroy(done));
    CHECK(hsa_queue_destroy(queue));
    CHECK(hsa_executable_destroy(executable));
    CHECK(hsa_code_object_reader_destroy(reader));
    CHECK(hsa_shut_down());
    return 0;
}

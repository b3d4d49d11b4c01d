/*
 * What the HSA test programs share: a CHECK macro that names the failing call
 * and its status, the GPU agent, and a kernel object from a code object file.
 */
#ifndef HSA_COMMON_H
#define HSA_COMMON_H

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

static inline hsa_status_t remember_gpu(hsa_agent_t agent, void *found)
{
    hsa_device_type_t type;
    CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
    if (type == HSA_DEVICE_TYPE_GPU)
        *(hsa_agent_t *)found = agent;
    return HSA_STATUS_SUCCESS;
}

/* The kernel object of KERNEL (its descriptor symbol KERNEL.kd) in the code
 * object file PATH, loaded for GPU; exits 2 when the file cannot be read. */
static inline uint64_t load_kernel(hsa_agent_t gpu, const char *path, const char *kernel)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        perror(path);
        exit(2);
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *blob = malloc(size);
    if (fread(blob, 1, size, file) != (size_t)size) {
        perror(path);
        exit(2);
    }
    fclose(file);
    hsa_code_object_reader_t reader;
    CHECK(hsa_code_object_reader_create_from_memory(blob, size, &reader));
    hsa_executable_t executable;
    CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                    NULL, &executable));
    CHECK(hsa_executable_load_agent_code_object(executable, gpu, reader, NULL, NULL));
    CHECK(hsa_executable_freeze(executable, NULL));
    char symbol_name[256];
    snprintf(symbol_name, sizeof symbol_name, "%s.kd", kernel);
    hsa_executable_symbol_t symbol;
    CHECK(hsa_executable_get_symbol_by_name(executable, symbol_name, &gpu, &symbol));
    uint64_t kernel_object;
    CHECK(hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                         &kernel_object));
    return kernel_object;
}

/* Publish a packet: its first 32 bits (header and setup) last, then the doorbell. */
static inline void publish(hsa_queue_t *queue, void *packet, uint16_t header, uint16_t setup,
                    uint64_t index)
{
    __atomic_store_n((uint32_t *)packet, header | (uint32_t)setup << 16, __ATOMIC_RELEASE);
    hsa_signal_store_screlease(queue->doorbell_signal, index);
}

#define SYSTEM_SCOPE_HEADER(type)                                                    \
    (uint16_t)((type) << HSA_PACKET_HEADER_TYPE |                                    \
               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |      \
               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE)

#endif

/*
 * Launch one kernel (argv[2], no arguments, one 64-item work-group) of a
 * code object (argv[1]) through the HSA API and wait for it. The queue's
 * error callback prints the status and exits 3, as an application that
 * handles GPU errors would. A third argument changes that: "--no-callback"
 * (the queue has none) or "--callback-returns" (the callback prints and
 * returns, and the program goes on waiting for the dispatch). A clean
 * completion prints "completed".
 */
#include "hsa_common.h"

static int callback_returns;

static void queue_error(hsa_status_t status, hsa_queue_t *queue, void *data)
{
    (void)queue;
    (void)data;
    const char *text = "?";
    hsa_status_string(status, &text);
    printf("queue error 0x%x: %s\n", (unsigned)status, text);
    fflush(stdout);
    if (!callback_returns)
        exit(3);
}

int main(int argc, char **argv)
{
    int callback = argc == 3 || (argc == 4 && strcmp(argv[3], "--callback-returns") == 0);
    callback_returns = argc == 4 && callback;
    if (argc != 3 && !(argc == 4 && (callback || strcmp(argv[3], "--no-callback") == 0))) {
        fprintf(stderr, "usage: %s CODE_OBJECT KERNEL [--no-callback|--callback-returns]\n",
                argv[0]);
        return 2;
    }
    hsa_agent_t gpu = {0};
    CHECK(hsa_init());
    CHECK(hsa_iterate_agents(remember_gpu, &gpu));
    uint64_t kernel_object = load_kernel(gpu, argv[1], argv[2]);
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
    publish(queue, packet, SYSTEM_SCOPE_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH),
            1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS, index);

    hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                              HSA_WAIT_STATE_BLOCKED);
    printf("completed\n");
    CHECK(hsa_signal_destroy(done));
    CHECK(hsa_queue_destroy(queue));
    CHECK(hsa_shut_down());
    return 0;
}

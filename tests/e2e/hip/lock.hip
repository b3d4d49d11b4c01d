// A global-memory spin lock taken by one lane per wave: the critical section
// increments a plain (non-atomic) counter and logs who held the lock, so the
// count is right only if the lock excludes, and the kernel ends only if every
// waiting wave eventually gets it (the executor's scheduler must be fair).
#include <hip/hip_runtime.h>

extern "C" __global__ void spin_lock(int *mutex, int *counter, int *holders, int rounds) {
  int wave = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (threadIdx.x % warpSize != 0) return;
  for (int r = 0; r < rounds; ++r) {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    __threadfence();
    int seen = *(volatile int *)counter;
    holders[seen] = wave;
    *(volatile int *)counter = seen + 1;
    __threadfence();
    atomicExch(mutex, 0);
  }
}

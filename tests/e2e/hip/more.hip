// Half precision, 3D blocks with a grid-stride loop, cooperative groups
// (thread block and tiled partitions) and cross-lane builtins (DPP, ds_swizzle).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void half_math(const __half *a, const __half *b, __half *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[2 * i] = __hadd(__hmul(a[i], b[i]), a[i]);
    out[2 * i + 1] = __float2half(__half2float(a[i]) * 0.5f);
  }
}

// out[z][y][x] = linear id, written by a grid-stride loop over a 3D volume with 3D blocks.
extern "C" __global__ void volume(int *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  for (int z = blockIdx.z * blockDim.z + threadIdx.z; z < nz; z += gridDim.z * blockDim.z)
    if (x < nx && y < ny) out[(z * ny + y) * nx + x] = (z * 100 + y) * 100 + x;
}

// Cooperative groups: a block-wide sync and 16-lane tiles reducing with tile shuffles.
extern "C" __global__ void tiles(const int *in, int *tile_sums, int *block_first) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int first;
  if (block.thread_rank() == 0) first = in[blockIdx.x * blockDim.x];
  block.sync();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  if (tile.thread_rank() == 0)
    tile_sums[(blockIdx.x * blockDim.x + threadIdx.x) / 16] = v;
  block_first[blockIdx.x * blockDim.x + threadIdx.x] = first;
}

// Cross-lane builtins: DPP row shift (GFX8+) and ds_swizzle (all GCN).
extern "C" __global__ void lanes(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  // row_shr:1 (0x111), all rows and banks, bound_ctrl: lane 0 of each row reads 0
  out[2 * i] = __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, true);
  // swizzle bitmask mode: and 0x1f, or 0, xor 1 (swap neighbours)
  out[2 * i + 1] = __builtin_amdgcn_ds_swizzle(v, 0x041f);
}

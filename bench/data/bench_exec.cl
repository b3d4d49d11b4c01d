/* Kernels of the executor benchmark (bench/bench_exec.py), built by clang-19
 * for gfx900 the way tests/e2e/kernels are.  The recorded build next to this
 * file (bench_exec.gfx900.hsaco) is used when clang-19 is absent. */

/* One work-item per element: two loads, an add, a store (memory-bound). */
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

#define TILE 16
/* C = A x B (n x n, n a multiple of TILE), TILE x TILE tiles staged in LDS. */
__kernel void matmul_tiled(__global const float *a, __global const float *b,
                           __global float *c, int n) {
  __local float ta[TILE][TILE];
  __local float tb[TILE][TILE];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    ta[ly][lx] = a[row * n + t + lx];
    tb[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc = fma(ta[ly][k], tb[k][lx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}

/* One wave, a long data-dependent loop: the per-instruction overhead. */
__kernel void single_wave(__global uint *out, int iterations) {
  uint i = get_local_id(0);
  uint x = i, y = i * 2654435761u;
  for (int k = 0; k < iterations; ++k) {
    x = x + (y ^ (uint)k);
    y = (y << 3) ^ x;
  }
  out[i] = x ^ y;
}

/* One wave, a loop of IEEE divisions in f32 and f64 (built with
 * -cl-fp32-correctly-rounded-divide-sqrt): v_div_scale, v_rcp, the fma
 * refinement, v_div_fmas and v_div_fixup for each, the sequence that stays
 * correctly rounded for every operand. */
__kernel void division_loop(__global float *out32, __global double *out64,
                            int iterations) {
  uint i = get_local_id(0);
  float x = 1.0f + (float)i;
  double y = 1.0 + (double)i;
  for (int k = 0; k < iterations; ++k) {
    x = 3.0f / (x + 1.0f) + 1.0f;
    y = 5.0 / (y + 2.0) + 1.0;
  }
  out32[i] = x;
  out64[i] = y;
}

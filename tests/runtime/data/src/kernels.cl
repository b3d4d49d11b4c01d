// OpenCL kernels built by clang-19 (code object v4 and v5) for the runtime's
// end-to-end tests; see ../build.py.
kernel void vadd(global const float *a, global const float *b, global float *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

kernel void saxpy(float alpha, global const float *x, global float *y, uint n) {
  uint i = get_global_id(0);
  if (i < n) y[i] = alpha * x[i] + y[i];
}

// Sums each work-group's slice of `in` through dynamic group memory.
kernel void reduce(global const int *in, global int *out, local int *scratch) {
  uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint step = get_local_size(0) / 2; step > 0; step /= 2) {
    if (lid < step) scratch[lid] += scratch[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

// Reports the launch geometry as the kernel sees it (hidden arguments / packet).
kernel void geometry(global uint *out) {
  if (get_global_id(0) == 0 && get_global_id(1) == 0) {
    out[0] = get_work_dim();
    out[1] = get_global_size(0);
    out[2] = get_global_size(1);
    out[3] = get_local_size(0);
    out[4] = get_local_size(1);
    out[5] = get_num_groups(0);
    out[6] = get_num_groups(1);
  }
  // the last, partial work-group's local size
  if (get_global_id(0) == get_global_size(0) - 1 && get_global_id(1) == 0)
    out[7] = get_local_size(0);
}

kernel void fill64(global long *out, long value) {
  out[get_global_id(0)] = value + (long)get_global_id(0);
}

// A constant table of pointers: the shared object carries dynamic
// relocations (R_AMDGPU_RELATIVE64) that the loader must apply.
constant int first_values[4] = {10, 20, 30, 40};
constant int second_values[4] = {50, 60, 70, 80};
constant int *constant tables[2] = {first_values, second_values};

kernel void lookup(global int *out, int which) {
  uint i = get_global_id(0);
  out[i] = tables[which][i & 3];
}

// Generic (flat) pointers into group and private memory: the kernel finds the
// apertures through the queue (amd_queue_t, code object v4 on gfx8), the
// implicit arguments (v5 on gfx8) or the aperture registers (gfx9).
__attribute__((noinline)) void bump(int *p, int v) { *p += v; }

kernel void generic_pointers(global int *out, int k) {
  local int slot[64];
  int mine[2];
  uint lid = get_local_id(0);
  slot[lid] = lid;
  mine[0] = k;
  mine[1] = 2 * k;
  bump(&slot[lid], 100);
  bump(&mine[lid & 1], (int)lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = slot[lid ^ 1] + mine[lid & 1];
}

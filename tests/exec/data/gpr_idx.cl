/* Dynamic indexing of a 32-element private vector kept in VGPRs: clang-19
 * reads and writes the element with v_movrels / v_movreld (M0 = index),
 * and with -mllvm -amdgpu-vgpr-index-mode inside s_set_gpr_idx_on/off. */
typedef float float32v __attribute__((ext_vector_type(32)));

__kernel void pick(__global const int *sel, __global const float *in, __global float *out,
                   int n) {
  int gid = (int)__builtin_amdgcn_workgroup_id_x() * 64 + (int)__builtin_amdgcn_workitem_id_x();
  float32v v;
  for (int k = 0; k < 32; ++k) v[k] = in[gid * 32 + k] * 2.0f;
  int s = sel[gid];
  out[gid] = v[s & 31];
  v[(s >> 5) & 31] = -1.0f;
  float total = 0.0f;
  for (int k = 0; k < 32; ++k) total += v[k] * (float)(2 * k + 1);
  out[gid + n] = total;
}

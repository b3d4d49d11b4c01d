// Sub-group (wavefront) and work-group collective functions of OpenCL 2.0:
// the device library implements them with DPP row/wave shifts, row broadcasts,
// ds_swizzle/bpermute and readlane, so they exercise the executor's cross-lane
// operations. References in tests/e2e/test_waves.py.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void wave_reductions(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  out[8 * i + 0] = sub_group_reduce_add(v);
  out[8 * i + 1] = sub_group_reduce_min(v);
  out[8 * i + 2] = sub_group_reduce_max(v);
  out[8 * i + 3] = sub_group_scan_inclusive_add(v);
  out[8 * i + 4] = sub_group_scan_exclusive_max(v);
  out[8 * i + 5] = sub_group_broadcast(v, 5);
  out[8 * i + 6] = sub_group_any(v > 900) + 2 * sub_group_all(v > -990);
  out[8 * i + 7] = get_sub_group_local_id() + 100 * get_sub_group_size() + 10000 * get_sub_group_id();
}
kernel void group_collectives(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  out[4 * i + 0] = work_group_reduce_add(v);
  out[4 * i + 1] = work_group_scan_inclusive_add(v);
  out[4 * i + 2] = work_group_broadcast(v, 7);
  out[4 * i + 3] = work_group_any(v > 990) + 2 * work_group_all(v > -995);
}

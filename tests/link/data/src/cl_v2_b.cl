// A second clang-14 code object v2 kernel, to merge YAML metadata documents.
__kernel void scale_two(__global float *data, float factor) {
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    data[i] = data[i] * factor;
}

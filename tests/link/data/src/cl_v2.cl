// A clang-14 code object v2 kernel (clang builtins only, no device library).
__kernel void add_one(__global int *data) {
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    data[i] = data[i] + 1;
}

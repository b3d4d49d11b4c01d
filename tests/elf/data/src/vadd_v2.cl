// Vector add in clang builtins only (clang-14 cannot read the device libraries): code object v2.
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, int n) {
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        c[i] = a[i] + b[i];
}

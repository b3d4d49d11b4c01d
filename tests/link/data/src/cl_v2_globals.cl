// clang-14 code object v2 with a device function and program-scope globals
// (hidden symbols reached with rel32 lo/hi).
__global int counter2 = 5;
__constant int table2[4] = {9, 8, 7, 6};
__attribute__((noinline)) int helper2(int x) { return x * counter2 + table2[x & 3]; }
__kernel void use_global(__global int *data) {
    int i = __builtin_amdgcn_workitem_id_x();
    data[i] = helper2(data[i]);
}

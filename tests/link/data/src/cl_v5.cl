// OpenCL kernels compiled by clang-19 (code object v4/v5): a device
// function in another translation unit and a program-scope global.
extern int scale_value(int x);
__global int bias = 3;
__constant int lut[4] = {1, 2, 3, 4};

__kernel void scale(__global int *out, __global const int *in) {
    size_t i = get_global_id(0);
    out[i] = scale_value(in[i]) + bias + lut[i & 3];
}

// The device function used by cl_v5.cl, in its own object.
__global int factor = 2;

__attribute__((noinline)) int scale_value(int x) {
    return x * factor;
}

__kernel void fill(__global int *out, int value) {
    out[get_global_id(0)] = value;
}

// Vector add with a local buffer and a scalar: real compiler output for the reader/objdump tests.
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, int n) {
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}

__kernel void scale(__global float *x, float s, __local float *tmp) {
    int l = get_local_id(0);
    tmp[l] = x[get_global_id(0)] * s;
    barrier(CLK_LOCAL_MEM_FENCE);
    x[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
}

// OpenCL C kernels that use hostcall services. Most print by calling the
// device libraries' printf service directly, as the HIP printf lowering does:
// begin, the format string, then the arguments (one ulong each: integers
// widened to 64 bits, floating point as double; a vector sends one ulong per
// element; a %s string is sent as a string). The installed device libraries'
// OpenCL `printf` itself is a stub, so OpenCL code reaches hostcall this way.
ulong __ockl_printf_begin(ulong version);
ulong __ockl_printf_append_args(ulong desc, uint count, ulong a0, ulong a1, ulong a2,
                                ulong a3, ulong a4, ulong a5, ulong a6, uint is_last);
ulong __ockl_printf_append_string_n(ulong desc, const char *text, ulong length,
                                    uint is_last);

#define FLOAT_BITS(v) as_ulong((double)(v))
#define BEGIN_WITH(fmt, last)                                                     \
    ulong desc = __ockl_printf_begin(0);                                          \
    {                                                                             \
        char format[] = fmt;                                                      \
        desc = __ockl_printf_append_string_n(desc, format, sizeof(format), last); \
    }

__kernel void scalars(__global const int *a, __global const float *f) {
    int i = get_global_id(0);
    BEGIN_WITH("wi %d: a=%d f=%.2f u=%u x=%08x\n", 0)
    __ockl_printf_append_args(desc, 5, (ulong)i, (ulong)(long)a[i], FLOAT_BITS(f[i]),
                              (ulong)(uint)a[i], (ulong)(uint)(a[i] * 4099), 0, 0, 1);
}

__kernel void vectors(__global const float4 *v, __global const int2 *w) {
    int i = get_global_id(0);
    float4 x = v[i];
    int2 y = w[i];
    BEGIN_WITH("v=%.1v4f w=%v2d s=%s\n", 0)
    desc = __ockl_printf_append_args(desc, 6, FLOAT_BITS(x.x), FLOAT_BITS(x.y),
                                     FLOAT_BITS(x.z), FLOAT_BITS(x.w), (ulong)(long)y.x,
                                     (ulong)(long)y.y, 0, 0);
    char tag[] = "vec";
    __ockl_printf_append_string_n(desc, tag, sizeof(tag), 1);
}

__kernel void branches(__global int *out) {
    int i = get_global_id(0);
    if (i & 1) {
        BEGIN_WITH("odd %d\n", 0)
        out[i] = (int)__ockl_printf_append_args(desc, 1, (ulong)i, 0, 0, 0, 0, 0, 0, 1);
    } else {
        BEGIN_WITH("even %d %g\n", 0)
        out[i] = (int)__ockl_printf_append_args(desc, 2, (ulong)i, FLOAT_BITS(i * 0.25f),
                                                0, 0, 0, 0, 0, 1);
    }
}

__kernel void no_args(void) {
    BEGIN_WITH("just text, 100%% plain\n", 1)
}

// a hostcall service this runtime does not provide: the launch must fail
// with an error naming it
long2 __ockl_call_host_function(ulong fptr, ulong a0, ulong a1, ulong a2, ulong a3,
                                ulong a4, ulong a5, ulong a6);

__kernel void host_function(__global long *out) {
    long2 r = __ockl_call_host_function(0x1234, 1, 2, 3, 4, 5, 6, 7);
    out[0] = r.x;
}

// device malloc and free through the devmem service: each work-item gets
// a block, fills it, sums it, frees it
ulong __ockl_devmem_request(ulong address, ulong size);

__kernel void devmem(__global int *out, int count) {
    int i = get_global_id(0);
    __global int *block = (__global int *)__ockl_devmem_request(0, count * sizeof(int) + i);
    int sum = 0;
    for (int k = 0; k < count; ++k)
        block[k] = i * k;
    for (int k = 0; k < count; ++k)
        sum += block[k];
    out[i] = sum;
    out[get_global_size(0) + i] = (int)__ockl_devmem_request((ulong)block, 0);
}

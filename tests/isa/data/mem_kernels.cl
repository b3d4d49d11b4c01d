__kernel void priv(__global int *out, __global const int *in, int n) {
    int tmp[16];
    int gid = get_global_id(0);
    for (int i = 0; i < 16; i++) tmp[i] = in[(gid + i) % n];
    out[gid] = tmp[in[gid] & 15] + tmp[(gid * 3) & 15];
}
__kernel void lds(__global float *out, __global const float *in) {
    __local float buf[256];
    __local double dbuf[64];
    int l = get_local_id(0);
    buf[l] = in[get_global_id(0)];
    dbuf[l & 63] = (double)in[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[255 - l] + buf[(l + 1) & 255] + (float)dbuf[(l + 3) & 63];
}
__kernel void atom(__global int *counter, __global unsigned *bits, __global long *big, __local int *sh) {
    atomic_add(counter, 1);
    atomic_or(bits + 1, get_global_id(0));
    atom_cmpxchg(big, 0L, (long)get_global_id(0));
    int old = atomic_max(counter + 2, (int)get_global_id(0));
    atomic_add(sh, old);
    counter[3 + get_local_id(0)] = atomic_xchg(sh + 1, 5);
}
__kernel void widths(__global char *c, __global short *s, __global long *l, __global float4 *v) {
    int g = get_global_id(0);
    c[g] = c[g + 1] + 1;
    s[g] = s[g + 2] * 2;
    l[g] = l[g + 3] << 1;
    v[g] = v[g + 1] * 2.0f;
}

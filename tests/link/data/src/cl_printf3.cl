// The same printf format as cl_printf.cl: with the printf-buffer lowering both
// objects call it id 1, so a merged metadata document lists it once.
__kernel void pf3(__global int *out) {
    printf("hello %d\n", 3 + (int)get_global_id(0));
    out[0] = 3;
}

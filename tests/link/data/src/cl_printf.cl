// printf strings land in SHF_MERGE|SHF_STRINGS sections (.rodata.str1.1).
__kernel void pf(__global int *out) {
    printf("hello %d\n", (int)get_global_id(0));
    out[0] = 1;
}

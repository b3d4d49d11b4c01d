// printf strings land in SHF_MERGE|SHF_STRINGS sections (.rodata.str1.1).
__kernel void pf2(__global int *out) {
    printf("hello %d\n", 7);
    printf("other\n");
}

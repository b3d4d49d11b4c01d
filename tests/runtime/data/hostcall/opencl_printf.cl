// Plain OpenCL printf. With the installed device libraries clang-19 binds
// `printf` to their stub (it prints nothing and faults on a missing printf
// buffer) unless the libraries are linked after optimisation
// (-Xclang -mlink-builtin-bitcode-postopt): then the compiler lowers printf
// to the printf buffer (hidden_printf_buffer, amdhsa.printf formats).
__kernel void vectors(__global const float4 *v, __global const int *a) {
    int i = get_global_id(0);
    printf("wi %d v=%v4hlf %.2v4hlf a=%5d %s %c %#x %a\n", i, v[i], v[i], a[i], "s",
           'A' + i, a[i], 1.5f);
    if (i & 1)
        printf("odd %d\n", i);
    else
        printf("even %hd %v2hhd\n", (short)i, (char2)((char)-i, (char)i));
}

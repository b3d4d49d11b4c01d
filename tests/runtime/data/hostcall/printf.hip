// HIP kernels whose printf clang-19 lowers to hostcall messages
// (__ockl_printf_begin / append_args / append_string_n). Built without the
// HIP headers (-nogpuinc): the few declarations they would provide are here.
#define KERNEL extern "C" __attribute__((global))
extern "C" __attribute__((device)) int printf(const char *, ...);

static __attribute__((device)) int global_id() {
    return __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
}

// one line per work-item: ints, floats, a constant and a runtime string
KERNEL void items(const float *x, const char *name, int n) {
    int i = global_id();
    if (i < n)
        printf("item %d/%u x=%.3f %s %s|%5d|%-4x|%e\n", i, (unsigned)n, x[i], "const",
               name, -i, i * 17, x[i] * 1000.0f);
}

// three different printfs in divergent branches
KERNEL void divergent(int n) {
    int i = global_id();
    if (i >= n)
        return;
    if (i % 3 == 0)
        printf("fizz %d\n", i);
    else if (i % 3 == 1)
        printf("buzz %5.1f %c\n", i * 0.5, 'a' + i % 26);
    else
        printf("%s-%ld-%lu %o\n", "long", (long)i * -10000000000L, 1UL << 40, i);
}

// a printf inside a loop whose trip count differs per lane
KERNEL void loop(int n) {
    int i = global_id();
    for (int k = 0; k < i % 4 + n; ++k)
        printf("lane %d iter %d sq %d\n", i, k, k * k);
}

// a format longer than one hostcall packet, flags, widths, %% and %p
KERNEL void formats(const double *d, int *out) {
    out[0] = printf("a long format string that spans more than fifty-six bytes: %d %s\n", 7,
                    "and a string argument that is also longer than fifty-six bytes total");
    printf("%+d % d %05d %-6u| %#o %#x %X %c%c %%\n", 5, 6, -42, 7u, 8, 255, 0xBEEFu, 'o', 'k');
    printf("%f %.2f %10.4f %-10.1f| %e %.3E %g %G %a\n", d[0], d[1], d[0], d[1], d[2], d[2],
           d[3], d[4], d[5]);
    printf("%hhd %hd %lld %llx %p\n", (signed char)-3, (short)-300, -(1LL << 50),
           0xFEDCBA9876543210ULL, (void *)0x1234);
    printf("empty string: [%s] star: [%*d] [%.*f]\n", "", 6, 42, 2, 3.14159);
}

__attribute__((noinline)) int helper(__global int *p, int i) {
  int s = 0;
  for (int k = 0; k <= i; ++k)
    s += p[k] * k;
  return s;
}

__kernel void small(__global int *a, __global const int *b) {
  int i = get_global_id(0);
  a[i] = helper((__global int *)b, i & 7) + b[i];
}

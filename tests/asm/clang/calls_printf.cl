// Calls, printf (mergeable strings, hidden arguments) and loops: clang-19 -S output
// assembled by amdgpu-as must match clang -c (see record_clang.py).
__kernel void loop_sum(__global float *x, int n) {
  float acc = 0;
  for (int i = 0; i < n; ++i) acc += x[i] * i;
  x[get_global_id(0)] = acc;
}
void __attribute__((noinline)) helper(__global int *p, int v) { p[v & 3] += v; }
__kernel void calls(__global int *p) { helper(p, get_global_id(0)); helper(p + 4, 7); }
__kernel void pf(__global int *p) { printf("v=%d\n", p[0]); }

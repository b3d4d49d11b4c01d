/* Generic (flat) pointers into private and local memory, mixed with direct
 * private and local accesses: the flat apertures, FLAT_SCRATCH and the
 * private segment buffer must agree on where every byte lives. */
__attribute__((noinline)) void fill(int *p, int n, int v) {
  for (int k = 0; k < n; ++k) p[k] = v + k;
}

__attribute__((noinline)) int total(const int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k) s += p[k] * (k + 1);
  return s;
}

__kernel void generic_memory(__global int *out, __local int *shared) {
  int lid = (int)__builtin_amdgcn_workitem_id_x();
  int gid = (int)__builtin_amdgcn_workgroup_id_x() * 64 + lid;
  volatile int priv[8];
  fill((int *)priv, 8, gid);                 /* flat -> private aperture */
  priv[gid & 7] += 1000;                     /* direct private access */
  fill(shared + lid * 4, 4, gid * 2);        /* flat -> local aperture */
  __builtin_amdgcn_s_barrier();
  int mine = shared[((lid + 1) & 63) * 4 + 3];   /* direct local access */
  out[gid] = total((const int *)priv, 8) + mine;
}

; GDS kernels for tests/exec/test_gds_*.py (the recorded object is
; gds_kernels_gfx900.o):
;   llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx900 -filetype=obj gds_kernels.ll
; gds_add: out[id] = atomic add of 1 to the GDS counter[id & 3] (pre-op value);
;   LLVM sets M0 to the kernel's GDS size (16) for the ds_add_rtn_u32 ... gds.
; ordered_add: out[group] = llvm.amdgcn.ds.ordered.add(null, group + 1,
;   index 1, wave_release, wave_done) with M0 = 0 (a null GDS pointer) -> ds_ordered_count ... offset:772 gds.
; gws_init / gws_barrier: llvm.amdgcn.ds.gws.init/barrier(count, rid) with a
;   run-time resource id: LLVM puts rid << 16 in M0 (M0[21:16]) and the count
;   in the ADDR VGPR; gws_barrier then stores 1 to out[group].
target triple = "amdgcn-amd-amdhsa"
@counter = addrspace(2) global [4 x i32] undef, align 4

define amdgpu_kernel void @gds_add(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = and i32 %id, 3
  %p = getelementptr [4 x i32], ptr addrspace(2) @counter, i32 0, i32 %slot
  %o = atomicrmw add ptr addrspace(2) %p, i32 1 seq_cst
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %o, ptr addrspace(1) %q
  ret void
}

define amdgpu_kernel void @ordered_add(ptr addrspace(1) %out) {
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %v = add i32 %group, 1
  %r = call i32 @llvm.amdgcn.ds.ordered.add(ptr addrspace(2) null, i32 %v, i32 0, i32 0, i1 false, i32 1, i1 true, i1 true)
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %group
  store i32 %r, ptr addrspace(1) %q
  ret void
}

define amdgpu_kernel void @gws_init(i32 %count, i32 %rid) {
  call void @llvm.amdgcn.ds.gws.init(i32 %count, i32 %rid)
  ret void
}

define amdgpu_kernel void @gws_barrier(ptr addrspace(1) %out, i32 %count, i32 %rid) {
  call void @llvm.amdgcn.ds.gws.barrier(i32 %count, i32 %rid)
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %group
  store i32 1, ptr addrspace(1) %q
  ret void
}

declare void @llvm.amdgcn.ds.gws.init(i32, i32)
declare void @llvm.amdgcn.ds.gws.barrier(i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.ds.ordered.add(ptr addrspace(2), i32, i32, i32, i1, i32, i1, i1)

; d16 typed buffer loads/stores through LLVM's intrinsics: clang-19 decides how the
; 16-bit components sit in VGPRs (unpacked on gfx803, packed on gfx900).
; Built by tests/exec/test_vmem_compiled.py (clang-19 -O2 -nogpulib, ld.lld-19 -shared).
target triple = "amdgcn-amd-amdhsa"

declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1), i16, i32, i32)
declare <4 x half> @llvm.amdgcn.raw.ptr.buffer.load.format.v4f16(ptr addrspace(8), i32, i32, i32)
declare <3 x half> @llvm.amdgcn.raw.ptr.tbuffer.load.v3f16(ptr addrspace(8), i32, i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.format.v4f16(<4 x half>, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

; V# word3: identity DST_SEL (0xFAC), data format 8_8_8_8 (10) / unorm (0)
define amdgpu_kernel void @d16_load(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %rsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %in, i16 0, i32 256, i32 331692)
  %voff = shl i32 %tid, 2
  %v = call <4 x half> @llvm.amdgcn.raw.ptr.buffer.load.format.v4f16(ptr addrspace(8) %rsrc, i32 %voff, i32 0, i32 0)
  %o = getelementptr <4 x half>, ptr addrspace(1) %out, i32 %tid
  store <4 x half> %v, ptr addrspace(1) %o
  ret void
}

; V# word3: identity DST_SEL, data format 16_16_16_16 (12) / float (7)
define amdgpu_kernel void @d16_store(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr <4 x half>, ptr addrspace(1) %in, i32 %tid
  %v = load <4 x half>, ptr addrspace(1) %p
  %w = fadd <4 x half> %v, <half 1.0, half 2.0, half 3.0, half 4.0>
  %rsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %out, i16 0, i32 512, i32 425900)
  %voff = shl i32 %tid, 3
  call void @llvm.amdgcn.raw.ptr.buffer.store.format.v4f16(<4 x half> %w, ptr addrspace(8) %rsrc, i32 %voff, i32 0, i32 0)
  ret void
}

; Loads to LDS through LLVM's buffer intrinsic: clang-19 sets M0 from the LDS
; pointer (the LDS address is M0 + 4 * lane), then the kernel reads the slots
; back with ordinary LDS loads, each lane the slot of the lane after it.
; Built by tests/exec/test_vmem_compiled.py (clang-19 -O2 -nogpulib, ld.lld-19 -shared).
target triple = "amdgcn-amd-amdhsa"

@slots = internal addrspace(3) global [192 x i32] poison, align 16

declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1), i16, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8), ptr addrspace(3), i32, i32, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

; each wave of the 128-item group fills 64 slots starting at slot 32 + 64 * wave
define amdgpu_kernel void @lds_dma(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wave = lshr i32 %tid, 6
  %first = shl i32 %wave, 8
  %base = add i32 %first, 128
  %lds = getelementptr i8, ptr addrspace(3) @slots, i32 %base
  %rsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %in, i16 0, i32 1024, i32 159744)
  %voff = shl i32 %tid, 2
  call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %rsrc, ptr addrspace(3) %lds, i32 4, i32 %voff, i32 0, i32 0, i32 0)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %next = add i32 %tid, 1
  %wrapped = and i32 %next, 127
  %slot = add i32 %wrapped, 32
  %p = getelementptr i32, ptr addrspace(3) @slots, i32 %slot
  %v = load i32, ptr addrspace(3) %p
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

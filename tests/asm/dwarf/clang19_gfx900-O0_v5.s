// golden: mc=19 mcpu=gfx900 cov=5
	.text
	.file	0 "/build" "small.cl" md5 0x7442cbbbe4d695b3c28dffc9a890de37
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.amdhsa_code_object_version 5
	.hidden	helper                          ; -- Begin function helper
	.globl	helper
	.p2align	2
	.type	helper,@function
helper:                                 ; @helper
.Lfunc_begin0:
	.loc	0 1 0                           ; small.cl:1:0
	.cfi_sections .debug_frame
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b32 s14, s33
	s_mov_b32 s33, s32
	s_xor_saveexec_b64 s[4:5], -1
	buffer_store_dword v0, off, s[0:3], s33 offset:24 ; 4-byte Folded Spill
	s_mov_b64 exec, s[4:5]
	s_add_i32 s32, s32, 0x800
                                        ; implicit-def: $vgpr3 : SGPR spill to VGPR lane
	v_mov_b32_e32 v3, v0
	s_or_saveexec_b64 s[12:13], -1
	buffer_load_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[12:13]
                                        ; implicit-def: $sgpr4
                                        ; implicit-def: $sgpr4
                                        ; kill: def $vgpr3 killed $vgpr3 def $vgpr3_vgpr4 killed $exec
	v_mov_b32_e32 v4, v1
                                        ; implicit-def: $sgpr4_sgpr5
	v_mov_b32_e32 v1, v4
	buffer_store_dword v1, off, s[0:3], s33 offset:4
	v_mov_b32_e32 v1, v3
	buffer_store_dword v1, off, s[0:3], s33
	buffer_store_dword v2, off, s[0:3], s33 offset:8
	v_mov_b32_e32 v1, 0
.Ltmp0:
	.loc	0 2 7 prologue_end              ; small.cl:2:7
	buffer_store_dword v1, off, s[0:3], s33 offset:12
.Ltmp1:
	.loc	0 3 12                          ; small.cl:3:12
	buffer_store_dword v1, off, s[0:3], s33 offset:16
	s_mov_b64 s[4:5], 0
                                        ; implicit-def: $sgpr6_sgpr7
	.loc	0 3 8 is_stmt 0                 ; small.cl:3:8
	s_waitcnt vmcnt(5)
	v_writelane_b32 v0, s4, 0
	v_writelane_b32 v0, s5, 1
	s_or_saveexec_b64 s[12:13], -1
	buffer_store_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Spill
	s_mov_b64 exec, s[12:13]
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 0 8                           ; small.cl:0:8
	s_or_saveexec_b64 s[12:13], -1
	buffer_load_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[12:13]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 2
	v_readlane_b32 s5, v0, 3
	v_readlane_b32 s6, v0, 0
	v_readlane_b32 s7, v0, 1
	v_writelane_b32 v0, s6, 4
	v_writelane_b32 v0, s7, 5
.Ltmp2:
	.loc	0 3 19                          ; small.cl:3:19
	buffer_load_dword v1, off, s[0:3], s33 offset:16
	.loc	0 3 24                          ; small.cl:3:24
	buffer_load_dword v2, off, s[0:3], s33 offset:8
	.loc	0 3 21                          ; small.cl:3:21
	s_waitcnt vmcnt(0)
	v_cmp_le_i32_e64 s[6:7], v1, v2
	s_mov_b64 s[8:9], -1
	s_or_b64 s[4:5], s[4:5], exec
	v_writelane_b32 v0, s4, 6
	v_writelane_b32 v0, s5, 7
.Ltmp3:
	.loc	0 3 3                           ; small.cl:3:3
	v_writelane_b32 v0, s4, 8
	v_writelane_b32 v0, s5, 9
	s_mov_b64 s[4:5], exec
	v_writelane_b32 v0, s4, 10
	v_writelane_b32 v0, s5, 11
	s_or_saveexec_b64 s[12:13], -1
	buffer_store_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Spill
	s_mov_b64 exec, s[12:13]
	s_and_b64 s[4:5], s[4:5], s[6:7]
	s_mov_b64 exec, s[4:5]
	s_cbranch_execz .LBB0_3
; %bb.2:                                ;   in Loop: Header=BB0_1 Depth=1
.Ltmp4:
	.loc	0 4 10 is_stmt 1                ; small.cl:4:10
	buffer_load_dword v7, off, s[0:3], s33
	buffer_load_dword v0, off, s[0:3], s33 offset:4
                                        ; implicit-def: $sgpr4
                                        ; implicit-def: $sgpr4
                                        ; kill: def $vgpr7 killed $vgpr7 def $vgpr7_vgpr8 killed $exec
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v8, v0
	.loc	0 4 12 is_stmt 0                ; small.cl:4:12
	buffer_load_dword v1, off, s[0:3], s33 offset:16
	s_waitcnt vmcnt(0)
	v_ashrrev_i32_e64 v0, 31, v1
	v_mov_b32_e32 v2, v1
	v_mov_b32_e32 v3, v0
	s_mov_b32 s4, 2
	.loc	0 4 10                          ; small.cl:4:10
	v_lshlrev_b64 v[5:6], s4, v[2:3]
	v_mov_b32_e32 v2, v7
	v_mov_b32_e32 v4, v5
	v_mov_b32_e32 v0, v8
	v_mov_b32_e32 v3, v6
	v_add_co_u32_e64 v2, s[4:5], v2, v4
	v_addc_co_u32_e64 v0, s[4:5], v0, v3, s[4:5]
                                        ; kill: def $vgpr2 killed $vgpr2 def $vgpr2_vgpr3 killed $exec
	v_mov_b32_e32 v3, v0
	global_load_dword v0, v[2:3], off
	.loc	0 4 7                           ; small.cl:4:7
	s_nop 0
	buffer_load_dword v2, off, s[0:3], s33 offset:12
                                        ; implicit-def: $sgpr4
                                        ; implicit-def: $sgpr5
                                        ; implicit-def: $sgpr5
	v_mov_b32_e32 v4, s4
                                        ; kill: def $vgpr2 killed $vgpr2 def $vgpr2_vgpr3 killed $exec
	v_mov_b32_e32 v3, v4
	s_waitcnt vmcnt(0)
	v_mad_u64_u32 v[0:1], s[4:5], v0, v1, v[2:3]
                                        ; kill: def $vgpr0 killed $vgpr0 killed $vgpr0_vgpr1 killed $exec
	buffer_store_dword v0, off, s[0:3], s33 offset:12
	.loc	0 4 5                           ; small.cl:4:5
	s_branch .LBB0_4
.Ltmp5:
.LBB0_3:                                ;   in Loop: Header=BB0_1 Depth=1
	.loc	0 0 5                           ; small.cl:0:5
	s_or_saveexec_b64 s[12:13], -1
	buffer_load_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[12:13]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 10
	v_readlane_b32 s5, v0, 11
	s_or_b64 exec, exec, s[4:5]
	v_readlane_b32 s8, v0, 4
	v_readlane_b32 s9, v0, 5
	v_readlane_b32 s6, v0, 8
	v_readlane_b32 s7, v0, 9
	.loc	0 3 3 is_stmt 1                 ; small.cl:3:3
	s_mov_b64 s[4:5], s[6:7]
	s_and_b64 s[4:5], exec, s[4:5]
	s_or_b64 s[4:5], s[4:5], s[8:9]
	v_writelane_b32 v0, s6, 2
	v_writelane_b32 v0, s7, 3
	s_mov_b64 s[6:7], s[4:5]
	v_writelane_b32 v0, s6, 0
	v_writelane_b32 v0, s7, 1
	s_mov_b64 s[6:7], s[4:5]
	v_writelane_b32 v0, s6, 12
	v_writelane_b32 v0, s7, 13
	s_or_saveexec_b64 s[12:13], -1
	buffer_store_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Spill
	s_mov_b64 exec, s[12:13]
	s_andn2_b64 exec, exec, s[4:5]
	s_cbranch_execnz .LBB0_1
	s_branch .LBB0_5
.LBB0_4:                                ;   in Loop: Header=BB0_1 Depth=1
.Ltmp6:
	.loc	0 3 27 is_stmt 0                ; small.cl:3:27
	s_or_saveexec_b64 s[12:13], -1
	buffer_load_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[12:13]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 6
	v_readlane_b32 s5, v0, 7
	buffer_load_dword v1, off, s[0:3], s33 offset:16
	s_mov_b32 s6, 1
	s_waitcnt vmcnt(0)
	v_add_u32_e64 v1, v1, s6
	buffer_store_dword v1, off, s[0:3], s33 offset:16
	s_mov_b64 s[6:7], 0
	s_andn2_b64 s[4:5], s[4:5], exec
	.loc	0 3 3                           ; small.cl:3:3
	v_writelane_b32 v0, s4, 8
	v_writelane_b32 v0, s5, 9
	s_or_saveexec_b64 s[12:13], -1
	buffer_store_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Spill
	s_mov_b64 exec, s[12:13]
	s_branch .LBB0_3
.Ltmp7:
.LBB0_5:
	.loc	0 3 3                           ; small.cl:3:3
	s_or_saveexec_b64 s[12:13], -1
	buffer_load_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[12:13]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 12
	v_readlane_b32 s5, v0, 13
	s_or_b64 exec, exec, s[4:5]
.Ltmp8:
; %bb.6:
	.loc	0 5 10 is_stmt 1                ; small.cl:5:10
	s_or_saveexec_b64 s[12:13], -1
	buffer_load_dword v1, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[12:13]
	buffer_load_dword v0, off, s[0:3], s33 offset:12
                                        ; kill: killed $vgpr1
	.loc	0 5 3 is_stmt 0                 ; small.cl:5:3
	s_xor_saveexec_b64 s[4:5], -1
	s_waitcnt vmcnt(0)
	buffer_load_dword v0, off, s[0:3], s33 offset:24 ; 4-byte Folded Reload
	s_mov_b64 exec, s[4:5]
	.loc	0 5 3 epilogue_begin            ; small.cl:5:3
	s_add_i32 s32, s32, 0xfffff800
	s_mov_b32 s33, s14
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Ltmp9:
.Lfunc_end0:
	.size	helper, .Lfunc_end0-helper
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 872
; NumSgprs: 38
; NumVgprs: 9
; ScratchSize: 32
; MemoryBound: 0
	.text
	.protected	small                   ; -- Begin function small
	.globl	small
	.p2align	8
	.type	small,@function
small:                                  ; @small
.Lfunc_begin1:
	.loc	0 8 0 is_stmt 1                 ; small.cl:8:0
	.cfi_startproc
; %bb.0:
	s_mov_b32 s33, 0
	s_mov_b32 s32, 0x800
	s_add_u32 flat_scratch_lo, s10, s15
	s_addc_u32 flat_scratch_hi, s11, 0
	s_add_u32 s0, s0, s15
	s_addc_u32 s1, s1, 0
                                        ; implicit-def: $vgpr3 : SGPR spill to VGPR lane
	v_writelane_b32 v3, s14, 0
	v_writelane_b32 v3, s13, 1
	v_writelane_b32 v3, s12, 2
	s_mov_b64 s[10:11], s[8:9]
	v_writelane_b32 v3, s10, 3
	v_writelane_b32 v3, s11, 4
	v_writelane_b32 v3, s4, 5
	v_writelane_b32 v3, s5, 6
	s_load_dwordx2 s[16:17], s[6:7], 0x0
	s_load_dwordx2 s[8:9], s[6:7], 0x8
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s15, s17
	v_mov_b32_e32 v4, s15
	buffer_store_dword v4, off, s[0:3], s33 offset:4
	s_mov_b32 s15, s16
	v_mov_b32_e32 v4, s15
	buffer_store_dword v4, off, s[0:3], s33
	s_mov_b32 s15, s9
	v_mov_b32_e32 v4, s15
	buffer_store_dword v4, off, s[0:3], s33 offset:12
                                        ; kill: def $sgpr8 killed $sgpr8 killed $sgpr8_sgpr9
	v_mov_b32_e32 v4, s8
	buffer_store_dword v4, off, s[0:3], s33 offset:8
	s_mov_b64 s[16:17], 16
.Ltmp10:
	.loc	0 9 11 prologue_end             ; small.cl:9:11
	s_mov_b32 s8, s6
	s_mov_b32 s6, s7
	s_mov_b32 s9, s16
	s_mov_b32 s7, s17
	s_add_u32 s8, s8, s9
	s_addc_u32 s6, s6, s7
                                        ; kill: def $sgpr8 killed $sgpr8 def $sgpr8_sgpr9
	s_mov_b32 s9, s6
	v_writelane_b32 v3, s8, 7
	v_writelane_b32 v3, s9, 8
	s_or_saveexec_b64 s[24:25], -1
	buffer_store_dword v3, off, s[0:3], s33 offset:20 ; 4-byte Folded Spill
	s_mov_b64 exec, s[24:25]
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, _Z13get_global_idj@rel32@lo+4
	s_addc_u32 s17, s17, _Z13get_global_idj@rel32@hi+12
	s_mov_b64 s[22:23], s[2:3]
	s_mov_b64 s[20:21], s[0:1]
	s_mov_b32 s6, 20
	v_lshlrev_b32_e64 v2, s6, v2
	s_mov_b32 s6, 10
	v_lshlrev_b32_e64 v1, s6, v1
	v_or3_b32 v31, v0, v1, v2
	buffer_store_dword v31, off, s[0:3], s33 offset:24 ; 4-byte Folded Spill
	v_mov_b32_e32 v0, 0
                                        ; implicit-def: $sgpr6_sgpr7
                                        ; implicit-def: $sgpr15
	s_mov_b64 s[0:1], s[20:21]
	s_mov_b64 s[2:3], s[22:23]
	s_swappc_b64 s[30:31], s[16:17]
	buffer_load_dword v31, off, s[0:3], s33 offset:24 ; 4-byte Folded Reload
	s_or_saveexec_b64 s[24:25], -1
	buffer_load_dword v2, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[24:25]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v2, 5
	v_readlane_b32 s5, v2, 6
	v_readlane_b32 s8, v2, 7
	v_readlane_b32 s9, v2, 8
	v_readlane_b32 s10, v2, 3
	v_readlane_b32 s11, v2, 4
	v_readlane_b32 s12, v2, 2
	v_readlane_b32 s13, v2, 1
	v_readlane_b32 s14, v2, 0
	v_mov_b32_e32 v2, v1
                                        ; implicit-def: $sgpr6
                                        ; implicit-def: $sgpr6
                                        ; kill: def $vgpr0 killed $vgpr0 def $vgpr0_vgpr1 killed $exec
	v_mov_b32_e32 v1, v2
                                        ; kill: def $vgpr0 killed $vgpr0 killed $vgpr0_vgpr1 killed $exec
	.loc	0 9 7 is_stmt 0                 ; small.cl:9:7
	buffer_store_dword v0, off, s[0:3], s33 offset:16
	.loc	0 10 33 is_stmt 1               ; small.cl:10:33
	buffer_load_dword v0, off, s[0:3], s33 offset:8
	s_nop 0
	buffer_load_dword v1, off, s[0:3], s33 offset:12
                                        ; implicit-def: $sgpr6
                                        ; implicit-def: $sgpr7
                                        ; implicit-def: $sgpr7
	v_mov_b32_e32 v3, s6
                                        ; kill: def $vgpr3 killed $vgpr3 def $vgpr3_vgpr4 killed $exec
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v4, v1
	.loc	0 10 36 is_stmt 0               ; small.cl:10:36
	buffer_load_dword v1, off, s[0:3], s33 offset:16
	s_mov_b32 s6, 7
	.loc	0 10 38                         ; small.cl:10:38
	s_waitcnt vmcnt(0)
	v_and_b32_e64 v2, v1, s6
	s_mov_b32 s6, 32
	.loc	0 10 10                         ; small.cl:10:10
	v_lshrrev_b64 v[3:4], s6, v[3:4]
	v_mov_b32_e32 v1, v3
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, helper@rel32@lo+4
	s_addc_u32 s17, s17, helper@rel32@hi+12
	s_mov_b64 s[22:23], s[2:3]
	s_mov_b64 s[20:21], s[0:1]
                                        ; implicit-def: $sgpr6_sgpr7
                                        ; implicit-def: $sgpr15
	s_mov_b64 s[0:1], s[20:21]
	s_mov_b64 s[2:3], s[22:23]
	s_swappc_b64 s[30:31], s[16:17]
	v_mov_b32_e32 v1, v0
	.loc	0 10 45                         ; small.cl:10:45
	s_or_saveexec_b64 s[24:25], -1
	buffer_load_dword v0, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[24:25]
	buffer_load_dword v3, off, s[0:3], s33 offset:8
	buffer_load_dword v2, off, s[0:3], s33 offset:12
                                        ; implicit-def: $sgpr4
                                        ; implicit-def: $sgpr4
                                        ; kill: def $vgpr3 killed $vgpr3 def $vgpr3_vgpr4 killed $exec
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v4, v2
	.loc	0 10 47                         ; small.cl:10:47
	buffer_load_dword v5, off, s[0:3], s33 offset:16
	s_waitcnt vmcnt(0)
	v_ashrrev_i32_e64 v2, 31, v5
                                        ; kill: def $vgpr5 killed $vgpr5 def $vgpr5_vgpr6 killed $exec
	v_mov_b32_e32 v6, v2
	s_mov_b32 s4, 2
	.loc	0 10 45                         ; small.cl:10:45
	v_lshlrev_b64 v[6:7], s4, v[5:6]
	v_mov_b32_e32 v2, v3
	v_mov_b32_e32 v5, v6
	v_mov_b32_e32 v3, v4
	v_mov_b32_e32 v4, v7
	v_add_co_u32_e64 v2, s[4:5], v2, v5
	v_addc_co_u32_e64 v4, s[4:5], v3, v4, s[4:5]
                                        ; kill: def $vgpr2 killed $vgpr2 def $vgpr2_vgpr3 killed $exec
	v_mov_b32_e32 v3, v4
	global_load_dword v2, v[2:3], off
	.loc	0 10 43                         ; small.cl:10:43
	s_waitcnt vmcnt(0)
	v_add_u32_e64 v3, v1, v2
	.loc	0 10 3                          ; small.cl:10:3
	buffer_load_dword v8, off, s[0:3], s33
	buffer_load_dword v1, off, s[0:3], s33 offset:4
                                        ; implicit-def: $sgpr4
                                        ; implicit-def: $sgpr4
                                        ; kill: def $vgpr8 killed $vgpr8 def $vgpr8_vgpr9 killed $exec
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v9, v1
	v_mov_b32_e32 v1, v8
	v_mov_b32_e32 v5, v6
	v_mov_b32_e32 v2, v9
	v_mov_b32_e32 v4, v7
	v_add_co_u32_e64 v1, s[4:5], v1, v5
	v_addc_co_u32_e64 v4, s[4:5], v2, v4, s[4:5]
                                        ; kill: def $vgpr1 killed $vgpr1 def $vgpr1_vgpr2 killed $exec
	v_mov_b32_e32 v2, v4
	.loc	0 10 8                          ; small.cl:10:8
	global_store_dword v[1:2], v3, off
                                        ; kill: killed $vgpr0
	.loc	0 11 1 is_stmt 1                ; small.cl:11:1
	s_endpgm
.Ltmp11:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel small
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 140
		.amdhsa_kernarg_size 272
		.amdhsa_user_sgpr_count 12
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 1
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 1
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 2
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 34
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 1
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end1:
	.size	small, .Lfunc_end1-small
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 752
; NumSgprs: 40
; NumVgprs: 32
; ScratchSize: 140
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 4
; VGPRBlocks: 7
; NumSGPRsForWavesPerEU: 40
; NumVGPRsForWavesPerEU: 32
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 12
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 1
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 2
	.text
	.p2align	2                               ; -- Begin function _Z13get_global_idj
	.type	_Z13get_global_idj,@function
_Z13get_global_idj:                     ; @_Z13get_global_idj
.Lfunc_begin2:
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b32 s18, s33
	s_mov_b32 s33, s32
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, __ockl_get_global_id@rel32@lo+4
	s_addc_u32 s17, s17, __ockl_get_global_id@rel32@hi+12
	s_mov_b32 s33, s18
	s_setpc_b64 s[16:17]
.Lfunc_end2:
	.size	_Z13get_global_idj, .Lfunc_end2-_Z13get_global_idj
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 40
; NumSgprs: 38
; NumVgprs: 32
; ScratchSize: 108
; MemoryBound: 0
	.text
	.p2align	2                               ; -- Begin function __ockl_get_global_id
	.type	__ockl_get_global_id,@function
__ockl_get_global_id:                   ; @__ockl_get_global_id
.Lfunc_begin3:
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b32 s22, s33
	s_mov_b32 s33, s32
	s_xor_saveexec_b64 s[6:7], -1
	buffer_store_dword v0, off, s[0:3], s33 offset:88 ; 4-byte Folded Spill
	buffer_store_dword v3, off, s[0:3], s33 offset:92 ; 4-byte Folded Spill
	buffer_store_dword v5, off, s[0:3], s33 offset:96 ; 4-byte Folded Spill
	buffer_store_dword v2, off, s[0:3], s33 offset:100 ; 4-byte Folded Spill
	s_mov_b64 exec, s[6:7]
	s_add_i32 s32, s32, 0x1b00
                                        ; implicit-def: $vgpr1 : SGPR spill to VGPR lane
	buffer_store_dword v31, off, s[0:3], s33 offset:8 ; 4-byte Folded Spill
	v_mov_b32_e32 v1, v0
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	buffer_store_dword v1, off, s[0:3], s33 offset:4 ; 4-byte Folded Spill
	s_waitcnt vmcnt(1)
	v_writelane_b32 v0, s14, 0
	v_writelane_b32 v0, s13, 1
	v_writelane_b32 v0, s12, 2
	v_writelane_b32 v0, s8, 3
	v_writelane_b32 v0, s9, 4
	v_writelane_b32 v0, s4, 5
	v_writelane_b32 v0, s5, 6
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
; %bb.1:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	buffer_load_dword v1, off, s[0:3], s33 offset:4 ; 4-byte Folded Reload
	s_mov_b32 s4, 0
	s_waitcnt vmcnt(0)
	v_cmp_gt_i32_e64 s[4:5], v1, s4
	s_mov_b64 s[6:7], 0
                                        ; implicit-def: $sgpr8_sgpr9
                                        ; implicit-def: $sgpr10
	v_mov_b32_e32 v3, s10
	v_mov_b32_e32 v1, s8
	v_mov_b32_e32 v2, s9
	v_writelane_b32 v0, s6, 7
	v_writelane_b32 v0, s7, 8
	buffer_store_dword v3, off, s[0:3], s33 offset:20 ; 4-byte Folded Spill
	buffer_store_dword v1, off, s[0:3], s33 offset:12 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v2, off, s[0:3], s33 offset:16 ; 4-byte Folded Spill
                                        ; implicit-def: $sgpr6_sgpr7
	s_mov_b64 s[6:7], exec
	s_and_b64 s[4:5], s[6:7], s[4:5]
	s_xor_b64 s[6:7], s[4:5], s[6:7]
	v_writelane_b32 v0, s6, 9
	v_writelane_b32 v0, s7, 10
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_mov_b64 exec, s[4:5]
	s_cbranch_execz .LBB1_3
; %bb.2:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	buffer_load_dword v1, off, s[0:3], s33 offset:4 ; 4-byte Folded Reload
	s_mov_b32 s4, 1
	s_waitcnt vmcnt(0)
	v_cmp_gt_i32_e64 s[4:5], v1, s4
	s_mov_b64 s[6:7], 0
                                        ; implicit-def: $sgpr8
	v_mov_b32_e32 v1, s8
	v_writelane_b32 v0, s6, 11
	v_writelane_b32 v0, s7, 12
	buffer_store_dword v1, off, s[0:3], s33 offset:24 ; 4-byte Folded Spill
                                        ; implicit-def: $sgpr6_sgpr7
                                        ; implicit-def: $sgpr6_sgpr7
	s_mov_b64 s[6:7], exec
	s_and_b64 s[4:5], s[6:7], s[4:5]
	s_xor_b64 s[6:7], s[4:5], s[6:7]
	v_writelane_b32 v0, s6, 13
	v_writelane_b32 v0, s7, 14
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_mov_b64 exec, s[4:5]
	s_cbranch_execz .LBB1_11
	s_branch .LBB1_4
.LBB1_3:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 9
	v_readlane_b32 s5, v0, 10
	s_or_saveexec_b64 s[4:5], s[4:5]
	v_readlane_b32 s8, v0, 15
	v_readlane_b32 s9, v0, 16
	v_readlane_b32 s6, v0, 7
	v_readlane_b32 s7, v0, 8
	buffer_load_dword v5, off, s[0:3], s33 offset:20 ; 4-byte Folded Reload
	buffer_load_dword v3, off, s[0:3], s33 offset:12 ; 4-byte Folded Reload
	buffer_load_dword v4, off, s[0:3], s33 offset:16 ; 4-byte Folded Reload
	v_writelane_b32 v0, s6, 17
	v_writelane_b32 v0, s7, 18
	v_mov_b32_e32 v1, s8
	v_mov_b32_e32 v2, s9
	v_writelane_b32 v0, s6, 19
	v_writelane_b32 v0, s7, 20
	s_waitcnt vmcnt(2)
	buffer_store_dword v5, off, s[0:3], s33 offset:44 ; 4-byte Folded Spill
	s_waitcnt vmcnt(1)
	buffer_store_dword v3, off, s[0:3], s33 offset:36 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v4, off, s[0:3], s33 offset:40 ; 4-byte Folded Spill
	buffer_store_dword v1, off, s[0:3], s33 offset:28 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v2, off, s[0:3], s33 offset:32 ; 4-byte Folded Spill
	s_and_b64 s[4:5], exec, s[4:5]
	v_writelane_b32 v0, s4, 21
	v_writelane_b32 v0, s5, 22
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_xor_b64 exec, exec, s[4:5]
	s_cbranch_execz .LBB1_7
	s_branch .LBB1_6
.LBB1_4:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	buffer_load_dword v1, off, s[0:3], s33 offset:4 ; 4-byte Folded Reload
	s_mov_b32 s4, 2
	s_waitcnt vmcnt(0)
	v_cmp_eq_u32_e64 s[6:7], v1, s4
	s_mov_b64 s[4:5], 0
                                        ; implicit-def: $sgpr8
	v_mov_b32_e32 v1, s8
	v_writelane_b32 v0, s4, 23
	v_writelane_b32 v0, s5, 24
	buffer_store_dword v1, off, s[0:3], s33 offset:48 ; 4-byte Folded Spill
                                        ; implicit-def: $sgpr4_sgpr5
	s_mov_b64 s[4:5], exec
	v_writelane_b32 v0, s4, 25
	v_writelane_b32 v0, s5, 26
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_and_b64 s[4:5], s[4:5], s[6:7]
	s_mov_b64 exec, s[4:5]
	s_cbranch_execz .LBB1_9
	s_branch .LBB1_12
.LBB1_5:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s8, v0, 27
	v_readlane_b32 s9, v0, 28
	s_or_b64 exec, exec, s[8:9]
	v_readlane_b32 s4, v0, 29
	v_readlane_b32 s5, v0, 30
	v_readlane_b32 s6, v0, 31
	v_readlane_b32 s7, v0, 32
	buffer_load_dword v3, off, s[0:3], s33 offset:52 ; 4-byte Folded Reload
	buffer_load_dword v1, off, s[0:3], s33 offset:56 ; 4-byte Folded Reload
	buffer_load_dword v2, off, s[0:3], s33 offset:60 ; 4-byte Folded Reload
	s_and_b64 s[6:7], s[6:7], exec
	v_writelane_b32 v0, s6, 7
	v_writelane_b32 v0, s7, 8
	s_waitcnt vmcnt(2)
	buffer_store_dword v3, off, s[0:3], s33 offset:20 ; 4-byte Folded Spill
	s_waitcnt vmcnt(1)
	buffer_store_dword v1, off, s[0:3], s33 offset:12 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v2, off, s[0:3], s33 offset:16 ; 4-byte Folded Spill
	v_writelane_b32 v0, s4, 15
	v_writelane_b32 v0, s5, 16
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_branch .LBB1_3
.LBB1_6:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 17
	v_readlane_b32 s5, v0, 18
	buffer_load_dword v1, off, s[0:3], s33 offset:4 ; 4-byte Folded Reload
	s_mov_b32 s6, 0
	s_waitcnt vmcnt(0)
	v_cmp_eq_u32_e64 s[6:7], v1, s6
                                        ; implicit-def: $sgpr8
	v_mov_b32_e32 v1, s8
	v_writelane_b32 v0, s4, 33
	v_writelane_b32 v0, s5, 34
	buffer_store_dword v1, off, s[0:3], s33 offset:64 ; 4-byte Folded Spill
                                        ; implicit-def: $sgpr4_sgpr5
	s_mov_b64 s[4:5], exec
	v_writelane_b32 v0, s4, 35
	v_writelane_b32 v0, s5, 36
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_and_b64 s[4:5], s[4:5], s[6:7]
	s_mov_b64 exec, s[4:5]
	s_cbranch_execz .LBB1_13
	s_branch .LBB1_8
.LBB1_7:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 21
	v_readlane_b32 s5, v0, 22
	s_or_b64 exec, exec, s[4:5]
	v_readlane_b32 s6, v0, 19
	v_readlane_b32 s7, v0, 20
	buffer_load_dword v3, off, s[0:3], s33 offset:44 ; 4-byte Folded Reload
	buffer_load_dword v4, off, s[0:3], s33 offset:36 ; 4-byte Folded Reload
	buffer_load_dword v5, off, s[0:3], s33 offset:40 ; 4-byte Folded Reload
	buffer_load_dword v1, off, s[0:3], s33 offset:28 ; 4-byte Folded Reload
	buffer_load_dword v2, off, s[0:3], s33 offset:32 ; 4-byte Folded Reload
	s_waitcnt vmcnt(2)
	buffer_store_dword v4, off, s[0:3], s33 offset:80 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v5, off, s[0:3], s33 offset:84 ; 4-byte Folded Spill
	buffer_store_dword v3, off, s[0:3], s33 offset:76 ; 4-byte Folded Spill
	buffer_store_dword v1, off, s[0:3], s33 offset:68 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v2, off, s[0:3], s33 offset:72 ; 4-byte Folded Spill
	s_mov_b64 s[4:5], exec
	v_writelane_b32 v0, s4, 37
	v_writelane_b32 v0, s5, 38
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_and_b64 s[4:5], s[4:5], s[6:7]
	s_mov_b64 exec, s[4:5]
	s_cbranch_execz .LBB1_15
	s_branch .LBB1_14
.LBB1_8:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s6, v0, 17
	v_readlane_b32 s7, v0, 18
	v_readlane_b32 s8, v0, 3
	v_readlane_b32 s9, v0, 4
	v_readlane_b32 s4, v0, 2
	v_readlane_b32 s10, v0, 5
	v_readlane_b32 s11, v0, 6
	buffer_load_dword v2, off, s[0:3], s33 offset:8 ; 4-byte Folded Reload
	s_getpc_b64 s[12:13]
	s_add_u32 s12, s12, __oclc_ABI_version@rel32@lo+4
	s_addc_u32 s13, s13, __oclc_ABI_version@rel32@hi+12
	s_load_dword s5, s[12:13], 0x0
	s_mov_b64 s[14:15], 4
	s_mov_b32 s12, s10
	s_mov_b32 s10, s11
	s_mov_b32 s13, s14
	s_mov_b32 s11, s15
	s_add_u32 s12, s12, s13
	s_addc_u32 s10, s10, s11
                                        ; kill: def $sgpr12 killed $sgpr12 def $sgpr12_sgpr13
	s_mov_b32 s13, s10
	s_mov_b64 s[16:17], 12
	s_mov_b32 s10, s8
	s_mov_b32 s11, s9
	s_mov_b32 s15, s16
	s_mov_b32 s14, s17
	s_add_u32 s10, s10, s15
	s_addc_u32 s14, s11, s14
                                        ; kill: def $sgpr10 killed $sgpr10 def $sgpr10_sgpr11
	s_mov_b32 s11, s14
	s_mov_b32 s14, 0x1f4
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s5, s14
	s_mov_b32 s14, s11
	s_mov_b32 s5, s13
	s_cselect_b32 s5, s5, s14
	s_mov_b32 s11, s10
	s_mov_b32 s10, s12
	s_cselect_b32 s10, s10, s11
                                        ; kill: def $sgpr10 killed $sgpr10 def $sgpr10_sgpr11
	s_mov_b32 s11, s5
	v_mov_b32_e32 v1, 0
	global_load_ushort v1, v1, s[10:11]
                                        ; implicit-def: $sgpr5
	s_waitcnt vmcnt(0)
	v_mul_lo_u32 v1, s4, v1
	s_mov_b32 s4, 0x3ff
	v_and_b32_e64 v2, v2, s4
	v_add_u32_e64 v1, v1, v2
	s_mov_b32 s5, 40
	s_mov_b32 s4, 0
	s_cselect_b32 s10, s4, s5
	s_mov_b32 s4, 0
                                        ; kill: def $sgpr10 killed $sgpr10 def $sgpr10_sgpr11
	s_mov_b32 s11, s4
	s_mov_b32 s4, s8
	s_mov_b32 s5, s9
	s_mov_b32 s9, s10
	s_mov_b32 s8, s11
	s_add_u32 s4, s4, s9
	s_addc_u32 s8, s5, s8
                                        ; kill: def $sgpr4 killed $sgpr4 def $sgpr4_sgpr5
	s_mov_b32 s5, s8
	s_mov_b64 s[8:9], -1
	s_or_b64 s[6:7], s[6:7], exec
	v_writelane_b32 v0, s6, 33
	v_writelane_b32 v0, s7, 34
	buffer_store_dword v1, off, s[0:3], s33 offset:64 ; 4-byte Folded Spill
	v_writelane_b32 v0, s4, 39
	v_writelane_b32 v0, s5, 40
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_branch .LBB1_13
.LBB1_9:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 25
	v_readlane_b32 s5, v0, 26
	s_or_b64 exec, exec, s[4:5]
	v_readlane_b32 s8, v0, 23
	v_readlane_b32 s9, v0, 24
	v_readlane_b32 s6, v0, 41
	v_readlane_b32 s7, v0, 42
	buffer_load_dword v1, off, s[0:3], s33 offset:48 ; 4-byte Folded Reload
	s_mov_b64 s[4:5], 0
	s_and_b64 s[8:9], s[8:9], exec
	v_writelane_b32 v0, s8, 11
	v_writelane_b32 v0, s9, 12
	s_waitcnt vmcnt(0)
	buffer_store_dword v1, off, s[0:3], s33 offset:24 ; 4-byte Folded Spill
	v_writelane_b32 v0, s6, 43
	v_writelane_b32 v0, s7, 44
	v_writelane_b32 v0, s4, 45
	v_writelane_b32 v0, s5, 46
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_branch .LBB1_11
.LBB1_10:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v3, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v3, 47
	v_readlane_b32 s5, v3, 48
	v_readlane_b32 s8, v3, 3
	v_readlane_b32 s9, v3, 4
	v_readlane_b32 s6, v3, 1
	v_readlane_b32 s10, v3, 5
	v_readlane_b32 s11, v3, 6
	buffer_load_dword v1, off, s[0:3], s33 offset:8 ; 4-byte Folded Reload
	s_getpc_b64 s[12:13]
	s_add_u32 s12, s12, __oclc_ABI_version@rel32@lo+4
	s_addc_u32 s13, s13, __oclc_ABI_version@rel32@hi+12
	s_load_dword s7, s[12:13], 0x0
	s_mov_b64 s[14:15], 6
	s_mov_b32 s12, s10
	s_mov_b32 s10, s11
	s_mov_b32 s13, s14
	s_mov_b32 s11, s15
	s_add_u32 s12, s12, s13
	s_addc_u32 s10, s10, s11
                                        ; kill: def $sgpr12 killed $sgpr12 def $sgpr12_sgpr13
	s_mov_b32 s13, s10
	s_mov_b64 s[16:17], 14
	s_mov_b32 s10, s8
	s_mov_b32 s11, s9
	s_mov_b32 s15, s16
	s_mov_b32 s14, s17
	s_add_u32 s10, s10, s15
	s_addc_u32 s14, s11, s14
                                        ; kill: def $sgpr10 killed $sgpr10 def $sgpr10_sgpr11
	s_mov_b32 s11, s14
	s_mov_b32 s14, 0x1f4
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s7, s14
	s_mov_b32 s14, s11
	s_mov_b32 s7, s13
	s_cselect_b32 s7, s7, s14
	s_mov_b32 s11, s10
	s_mov_b32 s10, s12
	s_cselect_b32 s10, s10, s11
                                        ; kill: def $sgpr10 killed $sgpr10 def $sgpr10_sgpr11
	s_mov_b32 s11, s7
	v_mov_b32_e32 v0, 0
	global_load_ushort v0, v0, s[10:11]
                                        ; implicit-def: $sgpr7
	s_waitcnt vmcnt(0)
	v_mul_lo_u32 v0, s6, v0
	v_bfe_u32 v1, v1, 10, 10
	v_add_u32_e64 v2, v0, v1
	s_mov_b32 s7, 48
	s_mov_b32 s6, 8
	s_cselect_b32 s10, s6, s7
	s_mov_b32 s6, 0
                                        ; kill: def $sgpr10 killed $sgpr10 def $sgpr10_sgpr11
	s_mov_b32 s11, s6
	s_mov_b32 s6, s8
	s_mov_b32 s7, s9
	s_mov_b32 s9, s10
	s_mov_b32 s8, s11
	s_add_u32 s6, s6, s9
	s_addc_u32 s8, s7, s8
                                        ; kill: def $sgpr6 killed $sgpr6 def $sgpr6_sgpr7
	s_mov_b32 s7, s8
	s_mov_b64 s[8:9], -1
	v_mov_b32_e32 v0, s6
	v_mov_b32_e32 v1, s7
	s_or_b64 s[4:5], s[4:5], exec
	v_writelane_b32 v3, s4, 31
	v_writelane_b32 v3, s5, 32
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v3, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	buffer_store_dword v2, off, s[0:3], s33 offset:52 ; 4-byte Folded Spill
	buffer_store_dword v0, off, s[0:3], s33 offset:56 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v1, off, s[0:3], s33 offset:60 ; 4-byte Folded Spill
	s_branch .LBB1_5
.LBB1_11:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v0, 13
	v_readlane_b32 s5, v0, 14
	s_or_saveexec_b64 s[4:5], s[4:5]
	v_readlane_b32 s6, v0, 11
	v_readlane_b32 s7, v0, 12
	v_readlane_b32 s8, v0, 43
	v_readlane_b32 s9, v0, 44
	v_readlane_b32 s10, v0, 45
	v_readlane_b32 s11, v0, 46
	v_writelane_b32 v0, s10, 29
	v_writelane_b32 v0, s11, 30
	buffer_load_dword v3, off, s[0:3], s33 offset:24 ; 4-byte Folded Reload
	v_writelane_b32 v0, s6, 47
	v_writelane_b32 v0, s7, 48
	v_mov_b32_e32 v1, s8
	v_mov_b32_e32 v2, s9
	v_writelane_b32 v0, s6, 31
	v_writelane_b32 v0, s7, 32
	s_waitcnt vmcnt(0)
	buffer_store_dword v3, off, s[0:3], s33 offset:52 ; 4-byte Folded Spill
	buffer_store_dword v1, off, s[0:3], s33 offset:56 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v2, off, s[0:3], s33 offset:60 ; 4-byte Folded Spill
	s_and_b64 s[4:5], exec, s[4:5]
	v_writelane_b32 v0, s4, 27
	v_writelane_b32 v0, s5, 28
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_xor_b64 exec, exec, s[4:5]
	s_cbranch_execz .LBB1_5
	s_branch .LBB1_10
.LBB1_12:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v0, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s6, v0, 3
	v_readlane_b32 s7, v0, 4
	v_readlane_b32 s4, v0, 0
	v_readlane_b32 s8, v0, 5
	v_readlane_b32 s9, v0, 6
	buffer_load_dword v2, off, s[0:3], s33 offset:8 ; 4-byte Folded Reload
	s_getpc_b64 s[10:11]
	s_add_u32 s10, s10, __oclc_ABI_version@rel32@lo+4
	s_addc_u32 s11, s11, __oclc_ABI_version@rel32@hi+12
	s_load_dword s5, s[10:11], 0x0
	s_mov_b64 s[12:13], 8
	s_mov_b32 s10, s8
	s_mov_b32 s8, s9
	s_mov_b32 s11, s12
	s_mov_b32 s9, s13
	s_add_u32 s10, s10, s11
	s_addc_u32 s8, s8, s9
                                        ; kill: def $sgpr10 killed $sgpr10 def $sgpr10_sgpr11
	s_mov_b32 s11, s8
	s_mov_b64 s[14:15], 16
	s_mov_b32 s8, s6
	s_mov_b32 s9, s7
	s_mov_b32 s13, s14
	s_mov_b32 s12, s15
	s_add_u32 s8, s8, s13
	s_addc_u32 s12, s9, s12
                                        ; kill: def $sgpr8 killed $sgpr8 def $sgpr8_sgpr9
	s_mov_b32 s9, s12
	s_mov_b32 s12, 0x1f4
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s5, s12
	s_mov_b32 s12, s9
	s_mov_b32 s5, s11
	s_cselect_b32 s5, s5, s12
	s_mov_b32 s9, s8
	s_mov_b32 s8, s10
	s_cselect_b32 s8, s8, s9
                                        ; kill: def $sgpr8 killed $sgpr8 def $sgpr8_sgpr9
	s_mov_b32 s9, s5
	v_mov_b32_e32 v1, 0
	global_load_ushort v1, v1, s[8:9]
                                        ; implicit-def: $sgpr5
	s_waitcnt vmcnt(0)
	v_mul_lo_u32 v1, s4, v1
	v_bfe_u32 v2, v2, 20, 10
	v_add_u32_e64 v1, v1, v2
	s_mov_b32 s5, 56
	s_mov_b32 s4, 16
	s_cselect_b32 s8, s4, s5
	s_mov_b32 s4, 0
                                        ; kill: def $sgpr8 killed $sgpr8 def $sgpr8_sgpr9
	s_mov_b32 s9, s4
	s_mov_b32 s4, s6
	s_mov_b32 s5, s7
	s_mov_b32 s7, s8
	s_mov_b32 s6, s9
	s_add_u32 s4, s4, s7
	s_addc_u32 s6, s5, s6
                                        ; kill: def $sgpr4 killed $sgpr4 def $sgpr4_sgpr5
	s_mov_b32 s5, s6
	s_mov_b64 s[6:7], -1
	s_mov_b64 s[6:7], exec
	v_writelane_b32 v0, s6, 23
	v_writelane_b32 v0, s7, 24
	buffer_store_dword v1, off, s[0:3], s33 offset:48 ; 4-byte Folded Spill
	v_writelane_b32 v0, s4, 41
	v_writelane_b32 v0, s5, 42
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v0, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_branch .LBB1_9
.LBB1_13:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v5, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s10, v5, 35
	v_readlane_b32 s11, v5, 36
	s_or_b64 exec, exec, s[10:11]
	v_readlane_b32 s4, v5, 17
	v_readlane_b32 s5, v5, 18
	v_readlane_b32 s6, v5, 33
	v_readlane_b32 s7, v5, 34
	v_readlane_b32 s8, v5, 39
	v_readlane_b32 s9, v5, 40
	buffer_load_dword v4, off, s[0:3], s33 offset:64 ; 4-byte Folded Reload
	s_mov_b64 s[10:11], 0
	v_mov_b32_e32 v2, s8
	v_mov_b32_e32 v3, s9
	v_mov_b32_e32 v0, 0
	v_mov_b32_e32 v1, 0
	s_andn2_b64 s[4:5], s[4:5], exec
	s_and_b64 s[6:7], s[6:7], exec
	s_or_b64 s[4:5], s[4:5], s[6:7]
	v_writelane_b32 v5, s4, 19
	v_writelane_b32 v5, s5, 20
	s_or_saveexec_b64 s[20:21], -1
	buffer_store_dword v5, off, s[0:3], s33 ; 4-byte Folded Spill
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(1)
	buffer_store_dword v4, off, s[0:3], s33 offset:44 ; 4-byte Folded Spill
	buffer_store_dword v2, off, s[0:3], s33 offset:36 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v3, off, s[0:3], s33 offset:40 ; 4-byte Folded Spill
	buffer_store_dword v0, off, s[0:3], s33 offset:28 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v1, off, s[0:3], s33 offset:32 ; 4-byte Folded Spill
	s_branch .LBB1_7
.LBB1_14:
	buffer_load_dword v0, off, s[0:3], s33 offset:80 ; 4-byte Folded Reload
	buffer_load_dword v1, off, s[0:3], s33 offset:84 ; 4-byte Folded Reload
	buffer_load_dword v4, off, s[0:3], s33 offset:76 ; 4-byte Folded Reload
	s_mov_b32 s4, 0
                                        ; implicit-def: $sgpr4
	v_mov_b32_e32 v2, 0
                                        ; kill: def $vgpr4 killed $vgpr4 def $vgpr4_vgpr5 killed $exec
	v_mov_b32_e32 v5, v2
	s_waitcnt vmcnt(1)
	global_load_dwordx2 v[1:2], v[0:1], off
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v0, v1
	v_mov_b32_e32 v3, v4
	v_mov_b32_e32 v1, v2
	v_mov_b32_e32 v2, v5
	v_add_co_u32_e64 v0, s[4:5], v0, v3
	v_addc_co_u32_e64 v2, s[4:5], v1, v2, s[4:5]
                                        ; kill: def $vgpr0 killed $vgpr0 def $vgpr0_vgpr1 killed $exec
	v_mov_b32_e32 v1, v2
	buffer_store_dword v0, off, s[0:3], s33 offset:68 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v1, off, s[0:3], s33 offset:72 ; 4-byte Folded Spill
.LBB1_15:
	s_or_saveexec_b64 s[20:21], -1
	buffer_load_dword v2, off, s[0:3], s33  ; 4-byte Folded Reload
	s_mov_b64 exec, s[20:21]
	s_waitcnt vmcnt(0)
	v_readlane_b32 s4, v2, 37
	v_readlane_b32 s5, v2, 38
	s_or_b64 exec, exec, s[4:5]
	buffer_load_dword v3, off, s[0:3], s33 offset:68 ; 4-byte Folded Reload
	buffer_load_dword v4, off, s[0:3], s33 offset:72 ; 4-byte Folded Reload
	s_mov_b32 s4, 32
	s_waitcnt vmcnt(0)
	v_lshrrev_b64 v[0:1], s4, v[3:4]
	v_mov_b32_e32 v1, v0
	v_mov_b32_e32 v0, v3
                                        ; kill: killed $vgpr2
	s_xor_saveexec_b64 s[4:5], -1
	buffer_load_dword v0, off, s[0:3], s33 offset:88 ; 4-byte Folded Reload
	s_nop 0
	buffer_load_dword v3, off, s[0:3], s33 offset:92 ; 4-byte Folded Reload
	buffer_load_dword v5, off, s[0:3], s33 offset:96 ; 4-byte Folded Reload
	buffer_load_dword v2, off, s[0:3], s33 offset:100 ; 4-byte Folded Reload
	s_mov_b64 exec, s[4:5]
	s_add_i32 s32, s32, 0xffffe500
	s_mov_b32 s33, s22
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end3:
	.size	__ockl_get_global_id, .Lfunc_end3-__ockl_get_global_id
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 3344
; NumSgprs: 38
; NumVgprs: 32
; ScratchSize: 108
; MemoryBound: 0
	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.section	.rodata,"a",@progbits
	.weak	__oclc_ABI_version
	.p2align	2, 0x0
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.section	.debug_abbrev,"",@progbits
	.byte	1                               ; Abbreviation Code
	.byte	17                              ; DW_TAG_compile_unit
	.byte	1                               ; DW_CHILDREN_yes
	.byte	37                              ; DW_AT_producer
	.byte	37                              ; DW_FORM_strx1
	.byte	19                              ; DW_AT_language
	.byte	5                               ; DW_FORM_data2
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	114                             ; DW_AT_str_offsets_base
	.byte	23                              ; DW_FORM_sec_offset
	.byte	16                              ; DW_AT_stmt_list
	.byte	23                              ; DW_FORM_sec_offset
	.byte	27                              ; DW_AT_comp_dir
	.byte	37                              ; DW_FORM_strx1
	.byte	17                              ; DW_AT_low_pc
	.byte	27                              ; DW_FORM_addrx
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	115                             ; DW_AT_addr_base
	.byte	23                              ; DW_FORM_sec_offset
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	2                               ; Abbreviation Code
	.byte	15                              ; DW_TAG_pointer_type
	.byte	0                               ; DW_CHILDREN_no
	.byte	73                              ; DW_AT_type
	.byte	19                              ; DW_FORM_ref4
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	3                               ; Abbreviation Code
	.byte	36                              ; DW_TAG_base_type
	.byte	0                               ; DW_CHILDREN_no
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	62                              ; DW_AT_encoding
	.byte	11                              ; DW_FORM_data1
	.byte	11                              ; DW_AT_byte_size
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	4                               ; Abbreviation Code
	.byte	46                              ; DW_TAG_subprogram
	.byte	1                               ; DW_CHILDREN_yes
	.byte	17                              ; DW_AT_low_pc
	.byte	27                              ; DW_FORM_addrx
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	64                              ; DW_AT_frame_base
	.byte	24                              ; DW_FORM_exprloc
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	58                              ; DW_AT_decl_file
	.byte	11                              ; DW_FORM_data1
	.byte	59                              ; DW_AT_decl_line
	.byte	11                              ; DW_FORM_data1
	.byte	73                              ; DW_AT_type
	.byte	19                              ; DW_FORM_ref4
	.byte	63                              ; DW_AT_external
	.byte	25                              ; DW_FORM_flag_present
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	5                               ; Abbreviation Code
	.byte	5                               ; DW_TAG_formal_parameter
	.byte	0                               ; DW_CHILDREN_no
	.byte	2                               ; DW_AT_location
	.byte	24                              ; DW_FORM_exprloc
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	58                              ; DW_AT_decl_file
	.byte	11                              ; DW_FORM_data1
	.byte	59                              ; DW_AT_decl_line
	.byte	11                              ; DW_FORM_data1
	.byte	73                              ; DW_AT_type
	.byte	19                              ; DW_FORM_ref4
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	6                               ; Abbreviation Code
	.byte	52                              ; DW_TAG_variable
	.byte	0                               ; DW_CHILDREN_no
	.byte	2                               ; DW_AT_location
	.byte	24                              ; DW_FORM_exprloc
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	58                              ; DW_AT_decl_file
	.byte	11                              ; DW_FORM_data1
	.byte	59                              ; DW_AT_decl_line
	.byte	11                              ; DW_FORM_data1
	.byte	73                              ; DW_AT_type
	.byte	19                              ; DW_FORM_ref4
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	7                               ; Abbreviation Code
	.byte	11                              ; DW_TAG_lexical_block
	.byte	1                               ; DW_CHILDREN_yes
	.byte	17                              ; DW_AT_low_pc
	.byte	27                              ; DW_FORM_addrx
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	8                               ; Abbreviation Code
	.byte	46                              ; DW_TAG_subprogram
	.byte	1                               ; DW_CHILDREN_yes
	.byte	17                              ; DW_AT_low_pc
	.byte	27                              ; DW_FORM_addrx
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	64                              ; DW_AT_frame_base
	.byte	24                              ; DW_FORM_exprloc
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	58                              ; DW_AT_decl_file
	.byte	11                              ; DW_FORM_data1
	.byte	59                              ; DW_AT_decl_line
	.byte	11                              ; DW_FORM_data1
	.byte	54                              ; DW_AT_calling_convention
	.byte	11                              ; DW_FORM_data1
	.byte	63                              ; DW_AT_external
	.byte	25                              ; DW_FORM_flag_present
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	9                               ; Abbreviation Code
	.byte	38                              ; DW_TAG_const_type
	.byte	0                               ; DW_CHILDREN_no
	.byte	73                              ; DW_AT_type
	.byte	19                              ; DW_FORM_ref4
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	0                               ; EOM(3)
	.section	.debug_info,"",@progbits
.Lcu_begin0:
	.long	.Ldebug_info_end0-.Ldebug_info_start0 ; Length of Unit
.Ldebug_info_start0:
	.short	5                               ; DWARF version number
	.byte	1                               ; DWARF Unit Type
	.byte	8                               ; Address Size (in bytes)
	.long	.debug_abbrev                   ; Offset Into Abbrev. Section
	.byte	1                               ; Abbrev [1] 0xc:0xb3 DW_TAG_compile_unit
	.byte	0                               ; DW_AT_producer
	.short	21                              ; DW_AT_language
	.byte	1                               ; DW_AT_name
	.long	.Lstr_offsets_base0             ; DW_AT_str_offsets_base
	.long	.Lline_table_start0             ; DW_AT_stmt_list
	.byte	2                               ; DW_AT_comp_dir
	.byte	0                               ; DW_AT_low_pc
	.long	.Lfunc_end1-.Lfunc_begin0       ; DW_AT_high_pc
	.long	.Laddr_table_base0              ; DW_AT_addr_base
	.byte	2                               ; Abbrev [2] 0x23:0x5 DW_TAG_pointer_type
	.long	40                              ; DW_AT_type
	.byte	3                               ; Abbrev [3] 0x28:0x4 DW_TAG_base_type
	.byte	3                               ; DW_AT_name
	.byte	5                               ; DW_AT_encoding
	.byte	4                               ; DW_AT_byte_size
	.byte	4                               ; Abbrev [4] 0x2c:0x50 DW_TAG_subprogram
	.byte	0                               ; DW_AT_low_pc
	.long	.Lfunc_end0-.Lfunc_begin0       ; DW_AT_high_pc
	.byte	2                               ; DW_AT_frame_base
	.byte	144
	.byte	65
	.byte	4                               ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	1                               ; DW_AT_decl_line
	.long	40                              ; DW_AT_type
                                        ; DW_AT_external
	.byte	5                               ; Abbrev [5] 0x3c:0xe DW_TAG_formal_parameter
	.byte	5                               ; DW_AT_location
	.byte	145
	.byte	0
	.byte	49
	.byte	22
	.byte	24
	.byte	6                               ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	1                               ; DW_AT_decl_line
	.long	35                              ; DW_AT_type
	.byte	5                               ; Abbrev [5] 0x4a:0xe DW_TAG_formal_parameter
	.byte	5                               ; DW_AT_location
	.byte	145
	.byte	8
	.byte	49
	.byte	22
	.byte	24
	.byte	7                               ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	1                               ; DW_AT_decl_line
	.long	40                              ; DW_AT_type
	.byte	6                               ; Abbrev [6] 0x58:0xe DW_TAG_variable
	.byte	5                               ; DW_AT_location
	.byte	145
	.byte	12
	.byte	49
	.byte	22
	.byte	24
	.byte	8                               ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	2                               ; DW_AT_decl_line
	.long	40                              ; DW_AT_type
	.byte	7                               ; Abbrev [7] 0x66:0x15 DW_TAG_lexical_block
	.byte	1                               ; DW_AT_low_pc
	.long	.Ltmp8-.Ltmp1                   ; DW_AT_high_pc
	.byte	6                               ; Abbrev [6] 0x6c:0xe DW_TAG_variable
	.byte	5                               ; DW_AT_location
	.byte	145
	.byte	16
	.byte	49
	.byte	22
	.byte	24
	.byte	9                               ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	3                               ; DW_AT_decl_line
	.long	40                              ; DW_AT_type
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
	.byte	8                               ; Abbrev [8] 0x7c:0x38 DW_TAG_subprogram
	.byte	2                               ; DW_AT_low_pc
	.long	.Lfunc_end1-.Lfunc_begin1       ; DW_AT_high_pc
	.byte	2                               ; DW_AT_frame_base
	.byte	144
	.byte	65
	.byte	5                               ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	8                               ; DW_AT_decl_line
	.byte	199                             ; DW_AT_calling_convention
                                        ; DW_AT_external
	.byte	5                               ; Abbrev [5] 0x89:0xe DW_TAG_formal_parameter
	.byte	5                               ; DW_AT_location
	.byte	145
	.byte	0
	.byte	49
	.byte	22
	.byte	24
	.byte	10                              ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	8                               ; DW_AT_decl_line
	.long	35                              ; DW_AT_type
	.byte	5                               ; Abbrev [5] 0x97:0xe DW_TAG_formal_parameter
	.byte	5                               ; DW_AT_location
	.byte	145
	.byte	8
	.byte	49
	.byte	22
	.byte	24
	.byte	11                              ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	8                               ; DW_AT_decl_line
	.long	180                             ; DW_AT_type
	.byte	6                               ; Abbrev [6] 0xa5:0xe DW_TAG_variable
	.byte	5                               ; DW_AT_location
	.byte	145
	.byte	16
	.byte	49
	.byte	22
	.byte	24
	.byte	7                               ; DW_AT_name
	.byte	0                               ; DW_AT_decl_file
	.byte	9                               ; DW_AT_decl_line
	.long	40                              ; DW_AT_type
	.byte	0                               ; End Of Children Mark
	.byte	2                               ; Abbrev [2] 0xb4:0x5 DW_TAG_pointer_type
	.long	185                             ; DW_AT_type
	.byte	9                               ; Abbrev [9] 0xb9:0x5 DW_TAG_const_type
	.long	40                              ; DW_AT_type
	.byte	0                               ; End Of Children Mark
.Ldebug_info_end0:
	.section	.debug_str_offsets,"",@progbits
	.long	52                              ; Length of String Offsets Set
	.short	5
	.short	0
.Lstr_offsets_base0:
	.section	.debug_str,"MS",@progbits,1
.Linfo_string0:
	.asciz	"Debian clang version 19.1.7 (3~deb12u1)" ; string offset=0
.Linfo_string1:
	.asciz	"small.cl"                      ; string offset=40
.Linfo_string2:
	.asciz	"/build"                        ; string offset=49
.Linfo_string3:
	.asciz	"int"                           ; string offset=56
.Linfo_string4:
	.asciz	"helper"                        ; string offset=60
.Linfo_string5:
	.asciz	"small"                         ; string offset=67
.Linfo_string6:
	.asciz	"p"                             ; string offset=73
.Linfo_string7:
	.asciz	"i"                             ; string offset=75
.Linfo_string8:
	.asciz	"s"                             ; string offset=77
.Linfo_string9:
	.asciz	"k"                             ; string offset=79
.Linfo_string10:
	.asciz	"a"                             ; string offset=81
.Linfo_string11:
	.asciz	"b"                             ; string offset=83
	.section	.debug_str_offsets,"",@progbits
	.long	.Linfo_string0
	.long	.Linfo_string1
	.long	.Linfo_string2
	.long	.Linfo_string3
	.long	.Linfo_string4
	.long	.Linfo_string5
	.long	.Linfo_string6
	.long	.Linfo_string7
	.long	.Linfo_string8
	.long	.Linfo_string9
	.long	.Linfo_string10
	.long	.Linfo_string11
	.section	.debug_addr,"",@progbits
	.long	.Ldebug_addr_end0-.Ldebug_addr_start0 ; Length of contribution
.Ldebug_addr_start0:
	.short	5                               ; DWARF version number
	.byte	8                               ; Address size
	.byte	0                               ; Segment selector size
.Laddr_table_base0:
	.quad	.Lfunc_begin0
	.quad	.Ltmp1
	.quad	.Lfunc_begin1
.Ldebug_addr_end0:
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.ident	"Debian clang version 15.0.5"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.addrsig_sym helper
	.addrsig_sym _Z13get_global_idj
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .address_space:  global
        .is_const:       true
        .offset:         8
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         20
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         24
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         28
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         30
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         32
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         34
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         36
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         38
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         56
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         64
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         72
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         80
        .size:           2
        .value_kind:     hidden_grid_dims
      - .offset:         96
        .size:           8
        .value_kind:     hidden_hostcall_buffer
      - .offset:         104
        .size:           8
        .value_kind:     hidden_multigrid_sync_arg
      - .offset:         112
        .size:           8
        .value_kind:     hidden_heap_v1
      - .offset:         120
        .size:           8
        .value_kind:     hidden_default_queue
      - .offset:         128
        .size:           8
        .value_kind:     hidden_completion_action
      - .offset:         216
        .size:           8
        .value_kind:     hidden_queue_ptr
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 272
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           small
    .private_segment_fixed_size: 140
    .sgpr_count:     40
    .sgpr_spill_count: 9
    .symbol:         small.kd
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 2
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx900
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
	.section	.debug_line,"",@progbits
.Lline_table_start0:

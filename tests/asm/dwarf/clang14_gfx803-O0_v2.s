// golden: mc=14 mcpu=gfx803 cov=2
	.text
	.hsa_code_object_version 2,1
	.hsa_code_object_isa 8,0,3,"AMD","AMDGPU"
	.file	0 "/build" "small.cl" md5 0x7442cbbbe4d695b3c28dffc9a890de37
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
	s_or_saveexec_b64 s[4:5], -1
	buffer_store_dword v9, off, s[0:3], s32 offset:20 ; 4-byte Folded Spill
	s_mov_b64 exec, s[4:5]
	v_writelane_b32 v9, s33, 16
	s_mov_b32 s33, s32
	s_add_i32 s32, s32, 0x800
	v_writelane_b32 v9, s30, 0
	v_writelane_b32 v9, s31, 1
	v_mov_b32_e32 v3, v1
                                        ; kill: def $vgpr0 killed $vgpr0 def $vgpr0_vgpr1 killed $exec
	v_mov_b32_e32 v1, v3
                                        ; kill: def $vgpr3_vgpr4 killed $vgpr0_vgpr1 killed $exec
	v_mov_b32_e32 v3, v1
	buffer_store_dword v3, off, s[0:3], s33 offset:4
                                        ; kill: def $vgpr0 killed $vgpr0 killed $vgpr0_vgpr1 killed $exec
	buffer_store_dword v0, off, s[0:3], s33
	buffer_store_dword v2, off, s[0:3], s33 offset:8
	v_mov_b32_e32 v0, 0
.Ltmp0:
	.loc	0 2 7 prologue_end              ; small.cl:2:7
	buffer_store_dword v0, off, s[0:3], s33 offset:12
.Ltmp1:
	.loc	0 3 12                          ; small.cl:3:12
	buffer_store_dword v0, off, s[0:3], s33 offset:16
	s_mov_b64 s[4:5], 0
                                        ; implicit-def: $sgpr6_sgpr7
	.loc	0 3 8 is_stmt 0                 ; small.cl:3:8
	v_writelane_b32 v9, s4, 2
	v_writelane_b32 v9, s5, 3
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 0 8                           ; small.cl:0:8
	v_readlane_b32 s4, v9, 4
	v_readlane_b32 s5, v9, 5
	v_readlane_b32 s6, v9, 2
	v_readlane_b32 s7, v9, 3
	v_writelane_b32 v9, s6, 6
	v_writelane_b32 v9, s7, 7
.Ltmp2:
	.loc	0 3 19                          ; small.cl:3:19
	buffer_load_dword v0, off, s[0:3], s33 offset:16
	.loc	0 3 24                          ; small.cl:3:24
	buffer_load_dword v1, off, s[0:3], s33 offset:8
	.loc	0 3 21                          ; small.cl:3:21
	s_waitcnt vmcnt(0)
	v_cmp_le_i32_e64 s[6:7], v0, v1
	s_mov_b64 s[8:9], -1
	s_or_b64 s[4:5], s[4:5], exec
	v_writelane_b32 v9, s4, 8
	v_writelane_b32 v9, s5, 9
	v_writelane_b32 v9, s4, 10
	v_writelane_b32 v9, s5, 11
	s_mov_b64 s[4:5], exec
	v_writelane_b32 v9, s4, 12
	v_writelane_b32 v9, s5, 13
	s_and_b64 s[4:5], s[4:5], s[6:7]
	s_mov_b64 exec, s[4:5]
	s_cbranch_execz .LBB0_3
; %bb.2:                                ;   in Loop: Header=BB0_1 Depth=1
	.loc	0 4 10 is_stmt 1                ; small.cl:4:10
	buffer_load_dword v7, off, s[0:3], s33
	buffer_load_dword v0, off, s[0:3], s33 offset:4
                                        ; kill: def $vgpr7 killed $vgpr7 def $vgpr7_vgpr8 killed $exec
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v8, v0
	.loc	0 4 12 is_stmt 0                ; small.cl:4:12
	buffer_load_dword v1, off, s[0:3], s33 offset:16
                                        ; implicit-def: $sgpr4
	s_waitcnt vmcnt(0)
	v_ashrrev_i32_e64 v0, 31, v1
                                        ; implicit-def: $sgpr4
	v_mov_b32_e32 v2, v1
	v_mov_b32_e32 v3, v0
	s_mov_b32 s4, 2
	.loc	0 4 10                          ; small.cl:4:10
	v_lshlrev_b64 v[5:6], s4, v[2:3]
	v_mov_b32_e32 v2, v7
	v_mov_b32_e32 v4, v5
	v_mov_b32_e32 v0, v8
	v_mov_b32_e32 v3, v6
	v_add_u32_e64 v2, s[4:5], v2, v4
	v_addc_u32_e64 v0, s[4:5], v0, v3, s[4:5]
                                        ; kill: def $vgpr2 killed $vgpr2 def $vgpr2_vgpr3 killed $exec
	v_mov_b32_e32 v3, v0
	flat_load_dword v0, v[2:3]
	.loc	0 4 15                          ; small.cl:4:15
	s_waitcnt vmcnt(0)
	v_mul_lo_u32 v1, v0, v1
	.loc	0 4 7                           ; small.cl:4:7
	buffer_load_dword v0, off, s[0:3], s33 offset:12
	s_waitcnt vmcnt(0)
	v_add_u32_e64 v0, s[4:5], v0, v1
	buffer_store_dword v0, off, s[0:3], s33 offset:12
	s_branch .LBB0_4
.LBB0_3:                                ;   in Loop: Header=BB0_1 Depth=1
	.loc	0 0 7                           ; small.cl:0:7
	v_readlane_b32 s4, v9, 12
	v_readlane_b32 s5, v9, 13
	s_or_b64 exec, exec, s[4:5]
	v_readlane_b32 s8, v9, 6
	v_readlane_b32 s9, v9, 7
	v_readlane_b32 s6, v9, 10
	v_readlane_b32 s7, v9, 11
	s_mov_b64 s[4:5], s[6:7]
	s_and_b64 s[4:5], exec, s[4:5]
	s_or_b64 s[4:5], s[4:5], s[8:9]
	v_writelane_b32 v9, s6, 4
	v_writelane_b32 v9, s7, 5
	s_mov_b64 s[6:7], s[4:5]
	v_writelane_b32 v9, s6, 2
	v_writelane_b32 v9, s7, 3
	s_mov_b64 s[6:7], s[4:5]
	v_writelane_b32 v9, s6, 14
	v_writelane_b32 v9, s7, 15
	s_andn2_b64 exec, exec, s[4:5]
	s_cbranch_execnz .LBB0_1
	s_branch .LBB0_5
.LBB0_4:                                ;   in Loop: Header=BB0_1 Depth=1
	.loc	0 3 27 is_stmt 1                ; small.cl:3:27
	v_readlane_b32 s4, v9, 8
	v_readlane_b32 s5, v9, 9
	buffer_load_dword v0, off, s[0:3], s33 offset:16
	s_mov_b32 s6, 1
	s_waitcnt vmcnt(0)
	v_add_u32_e64 v0, s[6:7], v0, s6
	buffer_store_dword v0, off, s[0:3], s33 offset:16
	s_mov_b64 s[6:7], 0
	s_andn2_b64 s[4:5], s[4:5], exec
	v_writelane_b32 v9, s4, 10
	v_writelane_b32 v9, s5, 11
	s_branch .LBB0_3
.Ltmp3:
.LBB0_5:
	.loc	0 0 27 is_stmt 0                ; small.cl:0:27
	v_readlane_b32 s4, v9, 14
	v_readlane_b32 s5, v9, 15
	s_or_b64 exec, exec, s[4:5]
; %bb.6:
	.loc	0 5 10 is_stmt 1                ; small.cl:5:10
	v_readlane_b32 s4, v9, 0
	v_readlane_b32 s5, v9, 1
	buffer_load_dword v0, off, s[0:3], s33 offset:12
	s_add_i32 s32, s32, 0xfffff800
	v_readlane_b32 s33, v9, 16
	s_or_saveexec_b64 s[6:7], -1
	buffer_load_dword v9, off, s[0:3], s32 offset:20 ; 4-byte Folded Reload
	s_mov_b64 exec, s[6:7]
	.loc	0 5 3 is_stmt 0                 ; small.cl:5:3
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[4:5]
.Ltmp4:
.Lfunc_end0:
	.size	helper, .Lfunc_end0-helper
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata
; Function info:
; codeLenInByte = 740
; NumSgprs: 34
; NumVgprs: 10
; ScratchSize: 32
; MemoryBound: 0
	.text
	.protected	small                   ; -- Begin function small
	.globl	small
	.p2align	8
	.type	small,@function
	.amdgpu_hsa_kernel small
small:                                  ; @small
.Lfunc_begin1:
	.loc	0 8 0 is_stmt 1                 ; small.cl:8:0
	.cfi_startproc
	.amd_kernel_code_t
		amd_code_version_major = 1
		amd_code_version_minor = 2
		amd_machine_kind = 1
		amd_machine_version_major = 8
		amd_machine_version_minor = 0
		amd_machine_version_stepping = 3
		kernel_code_entry_byte_offset = 256
		kernel_code_prefetch_byte_size = 0
		granulated_workitem_vgpr_count = 10
		granulated_wavefront_sgpr_count = 4
		priority = 0
		float_mode = 192
		priv = 0
		enable_dx10_clamp = 1
		debug_mode = 0
		enable_ieee_mode = 1
		enable_wgp_mode = 0
		enable_mem_ordered = 0
		enable_fwd_progress = 0
		enable_sgpr_private_segment_wave_byte_offset = 1
		user_sgpr_count = 14
		enable_trap_handler = 0
		enable_sgpr_workgroup_id_x = 1
		enable_sgpr_workgroup_id_y = 1
		enable_sgpr_workgroup_id_z = 1
		enable_sgpr_workgroup_info = 0
		enable_vgpr_workitem_id = 2
		enable_exception_msb = 0
		granulated_lds_size = 0
		enable_exception = 0
		enable_sgpr_private_segment_buffer = 1
		enable_sgpr_dispatch_ptr = 1
		enable_sgpr_queue_ptr = 1
		enable_sgpr_kernarg_segment_ptr = 1
		enable_sgpr_dispatch_id = 1
		enable_sgpr_flat_scratch_init = 1
		enable_sgpr_private_segment_size = 0
		enable_sgpr_grid_workgroup_count_x = 0
		enable_sgpr_grid_workgroup_count_y = 0
		enable_sgpr_grid_workgroup_count_z = 0
		enable_wavefront_size32 = 0
		enable_ordered_append_gds = 0
		private_element_size = 1
		is_ptr64 = 1
		is_dynamic_callstack = 1
		is_debug_enabled = 0
		is_xnack_enabled = 0
		workitem_private_segment_byte_size = 16432
		workgroup_group_segment_byte_size = 0
		gds_segment_byte_size = 0
		kernarg_segment_byte_size = 72
		workgroup_fbarrier_count = 0
		wavefront_sgpr_count = 40
		workitem_vgpr_count = 41
		reserved_vgpr_first = 0
		reserved_vgpr_count = 0
		reserved_sgpr_first = 0
		reserved_sgpr_count = 0
		debug_wavefront_private_segment_offset_sgpr = 0
		debug_private_segment_buffer_sgpr = 0
		kernarg_segment_alignment = 4
		group_segment_alignment = 4
		private_segment_alignment = 4
		wavefront_size = 6
		call_convention = -1
		runtime_loader_kernel_symbol = 0
	.end_amd_kernel_code_t
; %bb.0:
	s_mov_b32 s32, 0xc00
	s_mov_b32 s33, 0
	s_mov_b32 flat_scratch_lo, s13
	s_add_i32 s12, s12, s17
	s_lshr_b32 flat_scratch_hi, s12, 8
	s_add_u32 s0, s0, s17
	s_addc_u32 s1, s1, 0
	v_writelane_b32 v40, s16, 0
	s_mov_b32 s13, s15
	v_writelane_b32 v40, s13, 1
	s_mov_b32 s12, s14
	v_readlane_b32 s14, v40, 0
	v_writelane_b32 v40, s12, 2
	v_writelane_b32 v40, s10, 3
	v_writelane_b32 v40, s11, 4
	s_mov_b64 s[16:17], s[8:9]
	v_writelane_b32 v40, s6, 5
	v_writelane_b32 v40, s7, 6
	v_writelane_b32 v40, s4, 7
	v_writelane_b32 v40, s5, 8
	buffer_store_dword v2, off, s[0:3], s33 offset:32 ; 4-byte Folded Spill
	v_mov_b32_e32 v2, v1
	buffer_load_dword v1, off, s[0:3], s33 offset:32 ; 4-byte Folded Reload
	s_load_dwordx2 s[18:19], s[16:17], 0x0
	s_load_dwordx2 s[8:9], s[16:17], 0x8
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s15, s19
	v_mov_b32_e32 v3, s15
	buffer_store_dword v3, off, s[0:3], s33 offset:12
	s_mov_b32 s15, s18
	v_mov_b32_e32 v3, s15
	buffer_store_dword v3, off, s[0:3], s33 offset:8
	s_mov_b32 s15, s9
	v_mov_b32_e32 v3, s15
	buffer_store_dword v3, off, s[0:3], s33 offset:20
                                        ; kill: def $sgpr8 killed $sgpr8 killed $sgpr8_sgpr9
	v_mov_b32_e32 v3, s8
	buffer_store_dword v3, off, s[0:3], s33 offset:16
	s_mov_b64 s[18:19], 16
.Ltmp5:
	.loc	0 9 11 prologue_end             ; small.cl:9:11
	s_mov_b32 s8, s16
	s_mov_b32 s9, s17
	s_mov_b32 s16, s18
	s_mov_b32 s15, s19
	s_add_u32 s8, s8, s16
	s_addc_u32 s15, s9, s15
                                        ; kill: def $sgpr8 killed $sgpr8 def $sgpr8_sgpr9
	s_mov_b32 s9, s15
	v_writelane_b32 v40, s8, 9
	v_writelane_b32 v40, s9, 10
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, _Z13get_global_idj@rel32@lo+4
	s_addc_u32 s17, s17, _Z13get_global_idj@rel32@hi+12
	s_mov_b64 s[22:23], s[2:3]
	s_mov_b64 s[20:21], s[0:1]
	s_mov_b32 s15, 20
	s_waitcnt vmcnt(4)
	v_lshlrev_b32_e64 v1, s15, v1
	s_mov_b32 s15, 10
	v_lshlrev_b32_e64 v2, s15, v2
	v_or_b32_e64 v0, v0, v2
	v_or_b32_e64 v31, v0, v1
	buffer_store_dword v31, off, s[0:3], s33 offset:28 ; 4-byte Folded Spill
	v_mov_b32_e32 v0, 0
	s_mov_b64 s[0:1], s[20:21]
	s_mov_b64 s[2:3], s[22:23]
	s_swappc_b64 s[30:31], s[16:17]
	v_readlane_b32 s4, v40, 7
	v_readlane_b32 s5, v40, 8
	v_readlane_b32 s6, v40, 5
	v_readlane_b32 s7, v40, 6
	v_readlane_b32 s8, v40, 9
	v_readlane_b32 s9, v40, 10
	v_readlane_b32 s10, v40, 3
	v_readlane_b32 s11, v40, 4
	v_readlane_b32 s12, v40, 2
	v_readlane_b32 s13, v40, 1
	v_readlane_b32 s14, v40, 0
	buffer_load_dword v31, off, s[0:3], s33 offset:28 ; 4-byte Folded Reload
	v_mov_b32_e32 v2, v1
                                        ; kill: def $vgpr0 killed $vgpr0 def $vgpr0_vgpr1 killed $exec
	v_mov_b32_e32 v1, v2
                                        ; kill: def $vgpr0 killed $vgpr0 killed $vgpr0_vgpr1 killed $exec
	.loc	0 9 7 is_stmt 0                 ; small.cl:9:7
	buffer_store_dword v0, off, s[0:3], s33 offset:24
	.loc	0 10 33 is_stmt 1               ; small.cl:10:33
	buffer_load_dword v0, off, s[0:3], s33 offset:16
	buffer_load_dword v1, off, s[0:3], s33 offset:20
                                        ; implicit-def: $sgpr15
                                        ; implicit-def: $sgpr16
	v_mov_b32_e32 v3, s15
                                        ; kill: def $vgpr3 killed $vgpr3 def $vgpr3_vgpr4 killed $exec
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v4, v1
	.loc	0 10 36 is_stmt 0               ; small.cl:10:36
	buffer_load_dword v1, off, s[0:3], s33 offset:24
	s_mov_b32 s15, 7
	.loc	0 10 38                         ; small.cl:10:38
	s_waitcnt vmcnt(0)
	v_and_b32_e64 v2, v1, s15
	s_mov_b32 s15, 32
	.loc	0 10 10                         ; small.cl:10:10
	v_lshrrev_b64 v[3:4], s15, v[3:4]
	v_mov_b32_e32 v1, v3
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, helper@rel32@lo+4
	s_addc_u32 s17, s17, helper@rel32@hi+12
	s_mov_b64 s[22:23], s[2:3]
	s_mov_b64 s[20:21], s[0:1]
	s_mov_b64 s[0:1], s[20:21]
	s_mov_b64 s[2:3], s[22:23]
	s_swappc_b64 s[30:31], s[16:17]
	.loc	0 10 45                         ; small.cl:10:45
	buffer_load_dword v2, off, s[0:3], s33 offset:16
	buffer_load_dword v1, off, s[0:3], s33 offset:20
                                        ; kill: def $vgpr2 killed $vgpr2 def $vgpr2_vgpr3 killed $exec
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v3, v1
	.loc	0 10 47                         ; small.cl:10:47
	buffer_load_dword v4, off, s[0:3], s33 offset:24
                                        ; implicit-def: $sgpr4
	s_waitcnt vmcnt(0)
	v_ashrrev_i32_e64 v1, 31, v4
                                        ; implicit-def: $sgpr4
                                        ; kill: def $vgpr4 killed $vgpr4 def $vgpr4_vgpr5 killed $exec
	v_mov_b32_e32 v5, v1
	s_mov_b32 s4, 2
	.loc	0 10 45                         ; small.cl:10:45
	v_lshlrev_b64 v[5:6], s4, v[4:5]
	v_mov_b32_e32 v1, v2
	v_mov_b32_e32 v4, v5
	v_mov_b32_e32 v2, v3
	v_mov_b32_e32 v3, v6
	v_add_u32_e64 v1, s[4:5], v1, v4
	v_addc_u32_e64 v3, s[4:5], v2, v3, s[4:5]
                                        ; kill: def $vgpr1 killed $vgpr1 def $vgpr1_vgpr2 killed $exec
	v_mov_b32_e32 v2, v3
	flat_load_dword v1, v[1:2]
	.loc	0 10 43                         ; small.cl:10:43
	s_waitcnt vmcnt(0)
	v_add_u32_e64 v2, s[4:5], v0, v1
	.loc	0 10 3                          ; small.cl:10:3
	buffer_load_dword v7, off, s[0:3], s33 offset:8
	buffer_load_dword v0, off, s[0:3], s33 offset:12
                                        ; kill: def $vgpr7 killed $vgpr7 def $vgpr7_vgpr8 killed $exec
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v8, v0
	v_mov_b32_e32 v0, v7
	v_mov_b32_e32 v4, v5
	v_mov_b32_e32 v1, v8
	v_mov_b32_e32 v3, v6
	v_add_u32_e64 v0, s[4:5], v0, v4
	v_addc_u32_e64 v3, s[4:5], v1, v3, s[4:5]
                                        ; kill: def $vgpr0 killed $vgpr0 def $vgpr0_vgpr1 killed $exec
	v_mov_b32_e32 v1, v3
	.loc	0 10 8                          ; small.cl:10:8
	flat_store_dword v[0:1], v2
	.loc	0 11 1 is_stmt 1                ; small.cl:11:1
	s_endpgm
.Ltmp6:
.Lfunc_end1:
	.size	small, .Lfunc_end1-small
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata
; Kernel info:
; codeLenInByte = 780
; NumSgprs: 40
; NumVgprs: 41
; ScratchSize: 16432
; MemoryBound: 0
; FloatMode: 192
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 4
; VGPRBlocks: 10
; NumSGPRsForWavesPerEU: 40
; NumVGPRsForWavesPerEU: 41
; Occupancy: 5
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 14
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 1
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 2
	.hidden	_Z13get_global_idj
	.section	.debug_abbrev
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
	.section	.debug_info
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
	.long	.Ltmp3-.Ltmp1                   ; DW_AT_high_pc
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
	.byte	8
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
	.byte	16
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
	.byte	24
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
	.section	.debug_str_offsets
	.long	52                              ; Length of String Offsets Set
	.short	5
	.short	0
.Lstr_offsets_base0:
	.section	.debug_str,"MS",@progbits,1
.Linfo_string0:
	.asciz	"Debian clang version 14.0.6"   ; string offset=0
.Linfo_string1:
	.asciz	"small.cl"                      ; string offset=28
.Linfo_string2:
	.asciz	"/build"                        ; string offset=37
.Linfo_string3:
	.asciz	"int"                           ; string offset=44
.Linfo_string4:
	.asciz	"helper"                        ; string offset=48
.Linfo_string5:
	.asciz	"small"                         ; string offset=55
.Linfo_string6:
	.asciz	"p"                             ; string offset=61
.Linfo_string7:
	.asciz	"i"                             ; string offset=63
.Linfo_string8:
	.asciz	"s"                             ; string offset=65
.Linfo_string9:
	.asciz	"k"                             ; string offset=67
.Linfo_string10:
	.asciz	"a"                             ; string offset=69
.Linfo_string11:
	.asciz	"b"                             ; string offset=71
	.section	.debug_str_offsets
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
	.section	.debug_addr
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
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack"
	.addrsig
	.addrsig_sym helper
	.addrsig_sym _Z13get_global_idj
	.amd_amdgpu_isa "amdgcn-amd-amdhsa--gfx803"
	.amd_amdgpu_hsa_metadata
---
Version:         [ 1, 0 ]
Kernels:
  - Name:            small
    SymbolName:      'small@kd'
    Language:        OpenCL C
    LanguageVersion: [ 2, 0 ]
    Args:
      - TypeName:        'int*'
        Size:            8
        Align:           8
        ValueKind:       GlobalBuffer
        AddrSpaceQual:   Global
        AccQual:         Default
      - TypeName:        'int*'
        Size:            8
        Align:           8
        ValueKind:       GlobalBuffer
        AddrSpaceQual:   Global
        AccQual:         Default
        IsConst:         true
      - Size:            8
        Align:           8
        ValueKind:       HiddenGlobalOffsetX
      - Size:            8
        Align:           8
        ValueKind:       HiddenGlobalOffsetY
      - Size:            8
        Align:           8
        ValueKind:       HiddenGlobalOffsetZ
      - Size:            8
        Align:           8
        ValueKind:       HiddenNone
        AddrSpaceQual:   Global
      - Size:            8
        Align:           8
        ValueKind:       HiddenNone
        AddrSpaceQual:   Global
      - Size:            8
        Align:           8
        ValueKind:       HiddenNone
        AddrSpaceQual:   Global
      - Size:            8
        Align:           8
        ValueKind:       HiddenMultiGridSyncArg
        AddrSpaceQual:   Global
    CodeProps:
      KernargSegmentSize: 72
      GroupSegmentFixedSize: 0
      PrivateSegmentFixedSize: 16432
      KernargSegmentAlign: 8
      WavefrontSize:   64
      NumSGPRs:        40
      NumVGPRs:        41
      MaxFlatWorkGroupSize: 256
      IsDynamicCallStack: true
      NumSpilledSGPRs: 11
      NumSpilledVGPRs: 2
...

	.end_amd_amdgpu_hsa_metadata
	.section	.debug_line
.Lline_table_start0:

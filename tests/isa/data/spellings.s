s_waitcnt vmcnt(0) & lgkmcnt(0)
s_waitcnt vmcnt(0) lgkmcnt(0)
s_waitcnt vmcnt(0), expcnt(0)
s_waitcnt expcnt(1)
s_waitcnt 0
s_waitcnt 0x3f70
s_waitcnt lgkmcnt_sat(100)
s_getreg_b32 s0, hwreg(HW_REG_MODE)
s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 1)
s_getreg_b32 s0, hwreg(1, 0, 32)
s_getreg_b32 s0, hwreg(3)
s_setreg_b32 hwreg(HW_REG_TRAPSTS, 8, 1), s2
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xf
s_setreg_imm32_b32 hwreg(HW_REG_MODE), 3
s_getreg_b32 s0, 0x1801
s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)
s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)
s_sendmsg sendmsg(MSG_GS, GS_OP_CUT, 2)
s_sendmsg sendmsg(2, 1, 1)
s_sendmsg sendmsg(MSG_INTERRUPT)
s_sendmsg 3
s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_ECC_ERR_INTERRUPT)
s_sendmsghalt sendmsg(MSG_GS_DONE, GS_OP_NOP)
s_mov_b32 s0, -2147483648
s_mov_b32 s0, 0xffffffff
s_mov_b64 s[0:1], 0xffffffff
s_mov_b64 s[0:1], -1
s_mov_b64 s[0:1], 1.0
s_movk_i32 s0, -1
s_movk_i32 s0, 0xffff
s_movk_i32 s0, 0x8000
s_add_u32 s0, s1, 0x12345678
s_and_b64 exec, exec, vcc
s_and_b64 s[0:1], s[0:1], exec
s_cmp_eq_u32 s0, 5
s_cmp_lg_u64 s[0:1], 0
s_cbranch_vccnz 5
s_branch -3
s_nop 7
s_trap 2
s_setprio 3
s_sleep 1
s_barrier
s_dcache_wb
s_memtime s[0:1]
s_memrealtime s[0:1]
s_dcache_inv
s_load_dword s0, s[4:5], 0x0
s_load_dwordx4 s[0:3], s[4:5], 0x10
s_load_dword s0, s[4:5], s6
s_buffer_load_dword s0, s[4:7], 0x4
s_store_dword s0, s[4:5], 0x8 glc
v_mov_b32 v0, 3.14159
v_mov_b32 v0, -1
v_mov_b32 v0, 0xffffffff
v_mov_b32 v0, 0.5
v_mov_b32 v0, -4.0
v_mov_b32 v0, 0.15915494
v_mov_b32 v0, s0
v_mov_b32 v0, exec_lo
v_mov_b32 v0, m0
v_mov_b32_e64 v0, v1
v_mov_b32_e32 v0, v1
v_add_f32 v0, v1, v2
v_add_f32 v0, -v1, v2
v_add_f32 v0, |v1|, v2
v_add_f32 v0, abs(v1), neg(v2)
v_add_f32 v0, v1, v2 clamp
v_add_f32 v0, v1, v2 mul:2
v_add_f32 v0, v1, v2 div:2
v_add_f32 v0, v1, s2
v_add_f32 v0, s1, v2
v_add_f32 v0, 1.0, v2
v_add_f32 v0, v1, 1.0
v_add_f32_e64 v0, s1, s1
v_add_f64 v[0:1], v[2:3], v[4:5]
v_add_f64 v[0:1], -v[2:3], 2.0
v_mul_f32 v0, 0x41200000, v1
v_mad_f32 v0, v1, v2, v3
v_mad_f32 v0, -v1, v2, |v3|
v_mad_u32_u24 v0, v1, v2, v3
v_mad_i32_i24 v0, s1, v2, 5
v_fma_f32 v0, v1, v2, v3
v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]
v_cndmask_b32 v0, v1, v2, vcc
v_cndmask_b32_e64 v0, v1, v2, s[0:1]
v_cndmask_b32 v0, 0, 1, vcc
v_cndmask_b32_e64 v0, 0, 1, s[4:5]
v_cmp_eq_u32 vcc, v0, v1
v_cmp_eq_u32 vcc, 0, v1
v_cmp_eq_u32 s[0:1], v0, v1
v_cmp_eq_u32_e64 vcc, v0, v1
v_cmp_gt_f32 vcc, v0, v1
v_cmpx_gt_f32 vcc, v0, v1
v_cmp_class_f32 vcc, v0, v1
v_cmp_class_f32_e64 s[0:1], -v0, 3
v_cmp_lt_i64 vcc, v[0:1], v[2:3]
v_cmp_ne_u64_e64 s[0:1], 0, v[2:3]
v_lshlrev_b32 v0, 2, v1
v_lshlrev_b64 v[0:1], 3, v[2:3]
v_lshrrev_b32 v0, 16, v1
v_ashrrev_i32 v0, 31, v1
v_and_b32 v0, 0xff, v1
v_or_b32 v0, v1, v2
v_xor_b32 v0, s0, v1
v_bfe_u32 v0, v1, 8, 8
v_bfi_b32 v0, v1, v2, v3
v_alignbit_b32 v0, v1, v2, 16
v_cvt_f32_i32 v0, v1
v_cvt_i32_f32 v0, v1
v_cvt_f64_f32 v[0:1], v2
v_cvt_f32_f64 v0, v[2:3]
v_cvt_f16_f32 v0, v1
v_cvt_f32_f16 v0, v1
v_rcp_f32 v0, v1
v_rsq_f64 v[0:1], v[2:3]
v_sqrt_f32 v0, v1
v_readfirstlane_b32 s0, v1
v_readlane_b32 s0, v1, 5
v_readlane_b32 s0, v1, s2
v_writelane_b32 v0, s1, 2
v_mul_lo_u32 v0, v1, v2
v_mul_hi_u32 v0, v1, v2
v_mul_u32_u24 v0, v1, v2
v_madmk_f32 v0, v1, 0x41200000, v2
v_madak_f32 v0, v1, v2, 0x41200000
v_madak_f32 v0, v1, v2, 10.0
v_mac_f32 v0, v1, v2
v_div_scale_f32 v0, vcc, v1, v2, v3
v_div_scale_f64 v[0:1], s[2:3], v[2:3], v[4:5], v[6:7]
v_div_fmas_f32 v0, v1, v2, v3
v_div_fixup_f64 v[0:1], v[2:3], v[4:5], v[6:7]
v_trig_preop_f64 v[0:1], v[2:3], 1
v_ldexp_f32 v0, v1, v2
v_frexp_mant_f32 v0, v1
v_add_f16 v0, v1, v2
v_add_f16 v0, 0x3c00, v1
v_add_f16 v0, 1.0, v1
v_mul_f16 v0, 0x4500, v1
v_fma_f16 v0, v1, v2, v3
v_add_u16 v0, v1, v2
v_add_u16 v0, 5, v1
v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
v_add_f32_dpp v0, v1, v2 row_shr:1 bound_ctrl:0
v_add_f32_dpp v0, -v1, |v2| row_bcast:15 row_mask:0xa
v_mov_b32 v0, v1 row_ror:4
v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0
v_add_f32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:WORD_1
v_add_u32_sdwa v0, sext(v1), v2 src0_sel:BYTE_0
v_cvt_f32_ubyte0 v0, v1
v_mov_b32 v0, v1 src0_sel:BYTE_1
v_nop
v_clrexcp
s_endpgm
s_endpgm_saved
s_cbranch_execz 65535
s_mov_b32 m0, -1
s_mov_b32 s0, src_scc
s_mov_b32 s0, 1.0
v_mov_b32 v0, src_vccz
s_getpc_b64 s[0:1]
s_setpc_b64 s[0:1]
s_swappc_b64 s[0:1], s[2:3]
s_bfe_u32 s0, s1, 0x80008
s_lshl_b32 s0, s1, 2
s_bcnt1_i32_b64 s0, exec
s_ff1_i32_b32 s0, s1
s_and_saveexec_b64 s[0:1], vcc
s_or_b64 exec, exec, s[0:1]
s_xor_b64 s[0:1], exec, -1
s_cselect_b32 s0, s1, 0
s_abs_i32 s0, s1
s_mul_i32 s0, s1, s2
s_add_u32 s0, s1, 1.0
s_mov_b32 s0, lds_direct
v_add_u32 v0, v1, lds_direct

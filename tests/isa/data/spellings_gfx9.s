v_add_u32 v0, v1, v2
v_add_u32_e64 v0, v1, v2 clamp
v_add_co_u32 v0, vcc, v1, v2
v_add_co_u32_e64 v0, s[0:1], v1, v2
v_addc_co_u32 v0, vcc, v1, v2, vcc
v_addc_co_u32_e64 v0, s[0:1], v1, v2, s[2:3]
v_sub_co_u32 v0, vcc, v1, v2
v_subrev_u32 v0, v1, v2
v_mad_u64_u32 v[0:1], s[2:3], v4, v5, v[6:7]
v_mad_mix_f32 v0, v1, v2, v3
v_mad_mix_f32 v0, -v1, |v2|, v3 op_sel:[1,0,0] op_sel_hi:[1,1,0]
v_mad_mixlo_f16 v0, v1, v2, v3 clamp
v_pk_add_f16 v0, v1, v2
v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]
v_pk_add_f16 v0, v1, v2 neg_lo:[1,0] neg_hi:[0,1]
v_pk_fma_f16 v0, v1, v2, v3 clamp
v_pk_mul_lo_u16 v0, v1, v2
v_pk_add_u16 v0, v1, 1
v_pk_lshlrev_b16 v0, 1, v1
v_mad_u16 v0, v1, v2, v3 op_sel:[0,1,0,1]
v_mov_b32 v0, src_shared_base
s_mov_b64 s[0:1], src_private_base
v_lshl_add_u32 v0, v1, 2, v3
v_add3_u32 v0, v1, v2, v3
v_xad_u32 v0, v1, v2, v3
v_and_or_b32 v0, v1, v2, v3
v_or3_b32 v0, v1, v2, v3
v_pack_b32_f16 v0, v1, v2
v_cmp_eq_u32_sdwa s[0:1], v1, v2 src0_sel:WORD_1 src1_sel:DWORD
v_cmp_eq_u32_sdwa vcc, v1, s2 src0_sel:BYTE_0 src1_sel:DWORD
v_add_f32_sdwa v0, v1, v2 mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_mov_b32_sdwa v0, s1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD
s_load_dword s0, s[4:5], -0x8
s_load_dword s0, s[4:5], 0xfffff
s_atomic_add s0, s[2:3], 0x8 glc
s_lshl1_add_u32 s0, s1, s2
s_mul_hi_u32 s0, s1, s2
s_andn1_saveexec_b64 s[0:1], s[2:3]
s_getreg_b32 s0, hwreg(HW_REG_SH_MEM_BASES)
s_set_gpr_idx_on s0, gpr_idx(SRC0,DST)
s_set_gpr_idx_mode gpr_idx(SRC1)
s_set_gpr_idx_off
s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)
s_endpgm_ordered_ps_done
v_mov_b32 v0, ttmp15
s_mov_b64 ttmp[14:15], s[0:1]
v_screen_partition_4se_b32 v0, v1
v_sat_pk_u8_i16 v0, v1
v_add_u32_e64 v0, lds_direct, v1
v_mov_b32_sdwa v0, lds_direct
v_mad_f32 v0, lds_direct, v1, v2

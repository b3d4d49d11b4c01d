// golden: mc=19 mcpu=gfx900
// The operand shapes the parser hands to the encoder: register ranges and
// lists, special registers, source modifiers, named modifiers, functions.
.text
  s_mov_b64 s[0:1], s[2:3]
  s_mov_b64 s[4:5], [s6, s7]
  s_mov_b32 s0, ttmp2
  s_mov_b64 ttmp[4:5], exec
  s_mov_b32 m0, vcc_lo
  s_mov_b32 s1, exec_hi
  s_mov_b64 vcc, flat_scratch
  v_mov_b32_e32 v[1], v[2]
  v_mov_b32_e32 v1, v[2*2]
  v_mov_b32_e32 v1, -1.0
  v_mov_b32_e32 v1, 0.5
  v_mov_b32_e32 v1, -4
  v_mov_b32_e32 v1, 0x3e22f983
  v_add_f32_e64 v0, -v1, |v2|
  v_add_f32_e64 v0, -|v1|, abs(v2)
  v_add_f32_e64 v0, neg(v1), v2 clamp
  v_add_f32_e64 v0, v1, v2 mul:2
  v_add_f32_e64 v0, v1, v2 div:2
  v_mul_f32_e64 v0, v1, -v2 mul:4
  v_fma_f32 v0, v1, v2, v3
  s_waitcnt vmcnt(0) & lgkmcnt(0)
  s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)
  s_waitcnt 0
  s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)
  s_setreg_b32 hwreg(HW_REG_TRAPSTS), s1
  s_sendmsg sendmsg(MSG_INTERRUPT)
  ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM, 0, 1, 2, 3)
  ds_read_b32 v0, v1 offset:16
  ds_write2_b32 v0, v1, v2 offset0:4 offset1:8
  global_load_dword v0, v[2:3], off
  global_load_dword v0, v2, s[4:5] offset:-8 glc slc
  flat_load_dword v0, v[2:3] glc
  buffer_load_dword v0, v1, s[8:11], 0 offen offset:12
  buffer_store_dword v0, off, s[8:11], s2 offset:4 glc
  v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v0, v1 row_shl:1 row_mask:0xa bank_mask:0x5 bound_ctrl:0
  v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0
  v_add_f32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_1
  v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]
  v_pk_fma_f16 v0, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,1,0]
  v_cvt_f32_i32_e32 v0, s1
  v_cmp_lt_f32_e64 s[0:1], v1, 2.0
  v_cndmask_b32_e64 v0, v1, v2, s[0:1]
  s_endpgm

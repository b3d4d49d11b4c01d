// golden: mc=19 mcpu=gfx900
// Instruction lines llvm-mc rejects, between good ones: each bad line is
// reported and assembly goes on.
.text
  s_mov_b32 s0, s1
  s_mov_b32 s0
  v_add_f32 v0, v1
  s_bogus_instruction s0
  s_mov_b32 s0, s1 s2
  v_mov_b32 v0, v[3:2]
  s_mov_b64 s[0:1], s[1:2]
  v_mov_b32 v0, s[0:1]
  s_mov_b32 s0, 1 +
  ds_read_b32 v0, v1 offset:65536
  s_waitcnt vmcnt(100)
  s_endpgm
  v_add_f32 v0, v1, v2 mul:3
  s_mov_b32 s0, [s1, s3]
  v_mov_b32 v0, v1 glc
  s_mov_b32 s1, 0

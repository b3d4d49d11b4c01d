"""Field layouts of the scalar and vector-ALU encoding formats.

Written as the GCN3/Vega ISA manuals (and the SI/CI manuals for GFX6/7) lay
the bits out, one declaration per generation range where the layout differs.
DPP and SDWA are declared as 64-bit refinements of VOP1/VOP2/VOPC whose src0
holds the DPP (0xFA) or SDWA (0xF9) marker, so the mask/match decoder finds
them without special cases.
"""

from ..fields import Format

_SCALAR_GENS = (6, 7, 8, 9)
_VI_GENS = (8, 9)
_SI_GENS = (6, 7)

SOP2 = Format("SOP2", _SCALAR_GENS, 1,
              "encoding[31:30]=0b10 op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0]")
SOPK = Format("SOPK", _SCALAR_GENS, 1,
              "encoding[31:28]=0b1011 op[27:23] sdst[22:16] simm16[15:0]", refines="SOP2")
SOP1 = Format("SOP1", _SCALAR_GENS, 1,
              "encoding[31:23]=0b101111101 sdst[22:16] op[15:8] ssrc0[7:0]", refines="SOPK")
SOPC = Format("SOPC", _SCALAR_GENS, 1,
              "encoding[31:23]=0b101111110 op[22:16] ssrc1[15:8] ssrc0[7:0]", refines="SOPK")
SOPP = Format("SOPP", _SCALAR_GENS, 1,
              "encoding[31:23]=0b101111111 op[22:16] simm16[15:0]", refines="SOPK")

SMRD = Format("SMRD", _SI_GENS, 1,
              "encoding[31:27]=0b11000 op[26:22] sdst[21:15] sbase[14:9] imm[8] offset[7:0]")
SMEM_GFX8 = Format("SMEM", (8,), 2,
                   "encoding[31:26]=0b110000 op[25:18] imm[17] glc[16] sdata[12:6] sbase[5:0]"
                   " offset[51:32]", encoding="SMEM")
SMEM_GFX9 = Format("SMEM", (9,), 2,
                   "encoding[31:26]=0b110000 op[25:18] imm[17] glc[16] nv[15] soe[14]"
                   " sdata[12:6] sbase[5:0] offset[52:32] soffset[63:57]", encoding="SMEM")

VOP2 = Format("VOP2", _SCALAR_GENS, 1, "encoding[31]=0 op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]")
VOP1 = Format("VOP1", _SCALAR_GENS, 1,
              "encoding[31:25]=0b0111111 vdst[24:17] op[16:9] src0[8:0]", refines="VOP2")
VOPC = Format("VOPC", _SCALAR_GENS, 1,
              "encoding[31:25]=0b0111110 op[24:17] vsrc1[16:9] src0[8:0]", refines="VOP2")

VOP3_SI = Format("VOP3", _SI_GENS, 2,
                 "encoding[31:26]=0b110100 op[25:17] clamp[11] abs[10:8] vdst[7:0]"
                 " neg[63:61] omod[60:59] src2[58:50] src1[49:41] src0[40:32]")
VOP3_VI = Format("VOP3", _VI_GENS, 2,
                 "encoding[31:26]=0b110100 op[25:16] clamp[15] op_sel[14:11] abs[10:8] vdst[7:0]"
                 " neg[63:61] omod[60:59] src2[58:50] src1[49:41] src0[40:32]")
# VOP3 with a scalar carry-out/condition destination (VOP3b) shares the
# opcode space of VOP3a; which layout applies is a property of the op.
VOP3B_SI = Format("VOP3B", _SI_GENS, 2,
                  "encoding[31:26]=0b110100 op[25:17] sdst[14:8] vdst[7:0]"
                  " neg[63:61] omod[60:59] src2[58:50] src1[49:41] src0[40:32]", encoding="VOP3")
VOP3B_VI = Format("VOP3B", _VI_GENS, 2,
                  "encoding[31:26]=0b110100 op[25:16] clamp[15] sdst[14:8] vdst[7:0]"
                  " neg[63:61] omod[60:59] src2[58:50] src1[49:41] src0[40:32]", encoding="VOP3")
VOP3P = Format("VOP3P", (9,), 2,
               "encoding[31:23]=0b110100111 op[22:16] clamp[15] op_sel_hi2[14] op_sel[13:11]"
               " neg_hi[10:8] vdst[7:0] neg_lo[63:61] op_sel_hi[60:59] src2[58:50] src1[49:41]"
               " src0[40:32]", refines="VOP3")

_DPP_WORD = (" row_mask[63:60] bank_mask[59:56] src1_abs[55] src1_neg[54] src0_abs[53]"
             " src0_neg[52] bound_ctrl[51] dpp_ctrl[48:40] src0[39:32]")
_SDWA_VI = (" src1_abs[61] src1_neg[60] src1_sext[59] src1_sel[58:56] src0_abs[53] src0_neg[52]"
            " src0_sext[51] src0_sel[50:48] clamp[45] dst_unused[44:43] dst_sel[42:40] src0[39:32]")
_SDWA_GFX9 = (" s1[63] src1_abs[61] src1_neg[60] src1_sext[59] src1_sel[58:56] s0[55] src0_abs[53]"
              " src0_neg[52] src0_sext[51] src0_sel[50:48] omod[47:46] clamp[45] dst_unused[44:43]"
              " dst_sel[42:40] src0[39:32]")
_SDWA_GFX9_VOPC = (" s1[63] src1_abs[61] src1_neg[60] src1_sext[59] src1_sel[58:56] s0[55]"
                   " src0_abs[53] src0_neg[52] src0_sext[51] src0_sel[50:48] sd[47] sdst[46:40]"
                   " src0[39:32]")

DPP_VOP1 = Format("DPP_VOP1", _VI_GENS, 2, "encoding[31:25]=0b0111111 vdst[24:17] op[16:9]"
                  " marker[8:0]=0xfa" + _DPP_WORD, refines=("VOP1", "DPP_VOP2"), encoding="DPP")
DPP_VOP2 = Format("DPP_VOP2", _VI_GENS, 2, "encoding[31]=0 op[30:25] vdst[24:17] vsrc1[16:9]"
                  " marker[8:0]=0xfa" + _DPP_WORD, refines="VOP2", encoding="DPP")
DPP_VOPC = Format("DPP_VOPC", _VI_GENS, 2, "encoding[31:25]=0b0111110 op[24:17] vsrc1[16:9]"
                  " marker[8:0]=0xfa" + _DPP_WORD, refines=("VOPC", "DPP_VOP2"), encoding="DPP")
SDWA_VOP1_VI = Format("SDWA_VOP1", (8,), 2, "encoding[31:25]=0b0111111 vdst[24:17] op[16:9]"
                      " marker[8:0]=0xf9" + _SDWA_VI, refines=("VOP1", "SDWA_VOP2"), encoding="SDWA")
SDWA_VOP2_VI = Format("SDWA_VOP2", (8,), 2, "encoding[31]=0 op[30:25] vdst[24:17] vsrc1[16:9]"
                      " marker[8:0]=0xf9" + _SDWA_VI, refines="VOP2", encoding="SDWA")
SDWA_VOPC_VI = Format("SDWA_VOPC", (8,), 2, "encoding[31:25]=0b0111110 op[24:17] vsrc1[16:9]"
                      " marker[8:0]=0xf9" + _SDWA_VI, refines=("VOPC", "SDWA_VOP2"), encoding="SDWA")
SDWA_VOP1_GFX9 = Format("SDWA_VOP1", (9,), 2, "encoding[31:25]=0b0111111 vdst[24:17] op[16:9]"
                        " marker[8:0]=0xf9" + _SDWA_GFX9, refines=("VOP1", "SDWA_VOP2"), encoding="SDWA")
SDWA_VOP2_GFX9 = Format("SDWA_VOP2", (9,), 2, "encoding[31]=0 op[30:25] vdst[24:17] vsrc1[16:9]"
                        " marker[8:0]=0xf9" + _SDWA_GFX9, refines="VOP2", encoding="SDWA")
SDWA_VOPC_GFX9 = Format("SDWA_VOPC", (9,), 2, "encoding[31:25]=0b0111110 op[24:17] vsrc1[16:9]"
                        " marker[8:0]=0xf9" + _SDWA_GFX9_VOPC, refines=("VOPC", "SDWA_VOP2"), encoding="SDWA")

SCALAR_FORMATS = (SOP2, SOPK, SOP1, SOPC, SOPP)
SMEM_FORMATS = (SMRD, SMEM_GFX8, SMEM_GFX9)
VALU_FORMATS = (VOP2, VOP1, VOPC, VOP3_SI, VOP3_VI, VOP3P, DPP_VOP1, DPP_VOP2, DPP_VOPC,
                SDWA_VOP1_VI, SDWA_VOP2_VI, SDWA_VOPC_VI, SDWA_VOP1_GFX9, SDWA_VOP2_GFX9,
                SDWA_VOPC_GFX9)

"""Field layouts of the memory, export and interpolation encoding formats.

Declared as the SI/CI (GFX6/7), GCN3 (GFX8) and Vega (GFX9) ISA manuals lay
the bits out, one declaration per generation range where the layout differs:
the DS gds bit and opcode move between GFX7 and GFX8; MUBUF/MTBUF lose addr64
and move slc on GFX8; FLAT gains offset/seg/saddr on GFX9 (where seg selects
the FLAT, SCRATCH and GLOBAL instruction sets); EXP and VINTRP change their
format code on GFX8.
"""

from ..fields import Format

_SI = (6, 7)
_VI = (8, 9)
_ALL = (6, 7, 8, 9)

DS_SI = Format("DS", _SI, 2,
               "encoding[31:26]=0b110110 op[25:18] gds[17] offset1[15:8] offset0[7:0]"
               " vdst[63:56] data1[55:48] data0[47:40] addr[39:32]")
DS_VI = Format("DS", _VI, 2,
               "encoding[31:26]=0b110110 op[24:17] gds[16] offset1[15:8] offset0[7:0]"
               " vdst[63:56] data1[55:48] data0[47:40] addr[39:32]")

MUBUF_SI = Format("MUBUF", _SI, 2,
                  "encoding[31:26]=0b111000 op[24:18] lds[16] addr64[15] glc[14] idxen[13]"
                  " offen[12] offset[11:0] soffset[63:56] tfe[55] slc[54] srsrc[52:48]"
                  " vdata[47:40] vaddr[39:32]")
MUBUF_VI = Format("MUBUF", _VI, 2,
                  "encoding[31:26]=0b111000 op[24:18] slc[17] lds[16] glc[14] idxen[13]"
                  " offen[12] offset[11:0] soffset[63:56] tfe[55] srsrc[52:48]"
                  " vdata[47:40] vaddr[39:32]")

MTBUF_SI = Format("MTBUF", _SI, 2,
                  "encoding[31:26]=0b111010 nfmt[25:23] dfmt[22:19] op[18:16] addr64[15]"
                  " glc[14] idxen[13] offen[12] offset[11:0] soffset[63:56] tfe[55] slc[54]"
                  " srsrc[52:48] vdata[47:40] vaddr[39:32]")
MTBUF_VI = Format("MTBUF", _VI, 2,
                  "encoding[31:26]=0b111010 nfmt[25:23] dfmt[22:19] op[18:15]"
                  " glc[14] idxen[13] offen[12] offset[11:0] soffset[63:56] tfe[55] slc[54]"
                  " srsrc[52:48] vdata[47:40] vaddr[39:32]")

MIMG = Format("MIMG", _ALL, 2,
              "encoding[31:26]=0b111100 slc[25] op[24:18] lwe[17] tfe[16] r128[15] da[14]"
              " glc[13] unorm[12] dmask[11:8] d16[63] ssamp[57:53] srsrc[52:48]"
              " vdata[47:40] vaddr[39:32]")

FLAT_CI = Format("FLAT", (7, 8), 2,
                 "encoding[31:26]=0b110111 op[24:18] slc[17] glc[16]"
                 " vdst[63:56] tfe[55] data[47:40] addr[39:32]")
FLAT_GFX9 = Format("FLAT", (9,), 2,
                   "encoding[31:26]=0b110111 op[24:18] slc[17] glc[16] seg[15:14] lds[13]"
                   " offset[12:0] vdst[63:56] nv[55] saddr[54:48] data[47:40] addr[39:32]")

EXP_SI = Format("EXP", _SI, 2,
                "encoding[31:26]=0b111110 vm[12] done[11] compr[10] tgt[9:4] en[3:0]"
                " vsrc3[63:56] vsrc2[55:48] vsrc1[47:40] vsrc0[39:32]")
EXP_VI = Format("EXP", _VI, 2,
                "encoding[31:26]=0b110001 vm[12] done[11] compr[10] tgt[9:4] en[3:0]"
                " vsrc3[63:56] vsrc2[55:48] vsrc1[47:40] vsrc0[39:32]")

VINTRP_SI = Format("VINTRP", _SI, 1,
                   "encoding[31:26]=0b110010 vdst[25:18] op[17:16] attr[15:10] attrchan[9:8]"
                   " vsrc[7:0]")
VINTRP_VI = Format("VINTRP", _VI, 1,
                   "encoding[31:26]=0b110101 vdst[25:18] op[17:16] attr[15:10] attrchan[9:8]"
                   " vsrc[7:0]")

# GFX8/9 VOP3 interpolation: a slice (0x270-0x27f) of VOP3's opcode space.
VOP3_INTERP = Format("VOP3_INTERP", _VI, 2,
                     "encoding[31:26]=0b110100 interp[25:20]=0b100111 op[25:16] clamp[15]"
                     " op_sel[14:11] abs[10:8] vdst[7:0] neg[63:61] omod[60:59] src2[58:50]"
                     " src1[49:41] src0[40:32]", refines="VOP3", encoding="VOP3")

#: Every memory-family format, for the decoder's mask-and-match table.
MEMORY_FORMATS = (DS_SI, DS_VI, MUBUF_SI, MUBUF_VI, MTBUF_SI, MTBUF_VI, MIMG, FLAT_CI,
                  FLAT_GFX9, EXP_SI, EXP_VI, VINTRP_SI, VINTRP_VI, VOP3_INTERP)


def format_for(formats, generation):
    """The declaration among ``formats`` that applies to ``generation``."""
    for fmt in formats:
        if generation in fmt.generations:
            return fmt
    return None

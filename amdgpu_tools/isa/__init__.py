"""The GCN ISA: targets, encoding formats, instruction tables, decode/print/encode.

Public API (see /work/helpers/ISA_CONTRACT.md):
    get_target, ALL_TARGETS, Target         -- isa.targets
    decode, disassemble, DataWord           -- isa.decoder
    Instruction                             -- isa.instruction
    encode_instruction, Encoded, Fixup      -- isa.encoder / isa.asm_operands
    InstructionError                        -- isa.encoder

Families plug in under ``isa/families`` (read ``isa/families/__init__.py`` for
how to add one).
"""

from .asm_operands import Encoded, Fixup, Func, Imm, Modifier, Reg, SpecialReg, SymbolRef
from .decoder import DataWord, decode, disassemble
from .instruction import Instruction
from .targets import ALL_TARGETS, Target, get_target


def __getattr__(name):
    # the encoder imports the families lazily; keep ``import amdgpu_tools.isa`` cheap
    if name in ("encode_instruction", "InstructionError"):
        from . import encoder
        return getattr(encoder, name)
    raise AttributeError(name)

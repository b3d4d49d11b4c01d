"""The GCN ISA: targets, encoding formats, instruction tables, decode/print/encode.

Public API:
    get_target, ALL_TARGETS, Target         -- isa.targets
    decode, disassemble, DataWord           -- isa.decoder
    Instruction                             -- isa.instruction
    encode_instruction, Encoded, Fixup      -- isa.encoder / isa.asm_operands
    InstructionError                        -- isa.encoder (defined in amdgpu_tools.errors)

Families plug in under ``isa/families`` (read ``isa/families/__init__.py`` for
how to add one).
"""

from .asm_operands import Encoded, Fixup, Func, Imm, Modifier, Reg, SpecialReg, SymbolRef
from .decoder import DataWord, decode, disassemble
from .encoder import InstructionError, encode_instruction
from .instruction import Instruction
from .targets import ALL_TARGETS, Target, get_target

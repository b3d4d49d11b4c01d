"""Numbers of the ELF format and of the AMDGPU ABI on top of it.

Values come from the ELF gABI and LLVM's AMDGPUUsage document; the ABI
version per code object version was checked against llvm-mc 14 (v2: 0,
v3: 1) and llvm-mc 19 (v4: 2, v5: 3). Relocation types are a recipe table
(size in bytes and formula), so the assembler, the linker and the loader
compute them from one description.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import ElfFormatError, TargetError

# --- identification -------------------------------------------------------
ELF_MAGIC = b"\x7fELF"
ELFCLASS64 = 2
ELFDATA2LSB = 1
EV_CURRENT = 1

ET_NONE, ET_REL, ET_EXEC, ET_DYN = 0, 1, 2, 3
ET_NAMES = {ET_NONE: "NONE", ET_REL: "REL", ET_EXEC: "EXEC", ET_DYN: "DYN"}

EM_AMDGPU = 224

ELFOSABI_NONE = 0
ELFOSABI_AMDGPU_HSA = 64
ELFOSABI_AMDGPU_PAL = 65
ELFOSABI_AMDGPU_MESA3D = 66

#: EI_ABIVERSION written for each HSA code object version.
ABI_VERSION_FOR_CODE_OBJECT = {2: 0, 3: 1, 4: 2, 5: 3}
CODE_OBJECT_FOR_ABI_VERSION = {abi: cov for cov, abi in ABI_VERSION_FOR_CODE_OBJECT.items()}

# --- e_flags --------------------------------------------------------------
EF_AMDGPU_MACH = 0x0FF
#: EF_AMDGPU_MACH_AMDGCN_* by processor name (GCN generations only).
EF_AMDGPU_MACH_AMDGCN = {
    "gfx600": 0x020, "gfx601": 0x021, "gfx602": 0x03A,
    "gfx700": 0x022, "gfx701": 0x023, "gfx702": 0x024, "gfx703": 0x025,
    "gfx704": 0x026, "gfx705": 0x03B,
    "gfx801": 0x028, "gfx802": 0x029, "gfx803": 0x02A, "gfx805": 0x03C,
    "gfx810": 0x02B,
    "gfx900": 0x02C, "gfx902": 0x02D, "gfx904": 0x02E, "gfx906": 0x02F,
    "gfx908": 0x030, "gfx909": 0x031, "gfx90c": 0x032, "gfx90a": 0x03F,
}
MACH_NAMES = {value: name for name, value in EF_AMDGPU_MACH_AMDGCN.items()}
#: e_flags of early code object v2 producers, which named the processor only in the
#: NT_AMD_HSA_ISA_VERSION / NT_AMD_HSA_ISA_NAME notes: none (0), or the old
#: EF_AMDGPU_ARCH_GCN flag (2; EF_AMDGPU_MACH_R600_R630 in today's numbering,
#: a value no GCN code object can otherwise carry)
EF_AMDGPU_MACH_NONE = 0x000
EF_AMDGPU_ARCH_GCN_LEGACY = 0x002
LEGACY_V2_E_FLAGS = (EF_AMDGPU_MACH_NONE, EF_AMDGPU_ARCH_GCN_LEGACY)

# code object v2 (LLVM 14 writes the MACH value for v2 as well)
EF_AMDGPU_FEATURE_XNACK_V2 = 0x01
EF_AMDGPU_FEATURE_TRAP_HANDLER_V2 = 0x02
# code object v3
EF_AMDGPU_FEATURE_XNACK_V3 = 0x100
EF_AMDGPU_FEATURE_SRAMECC_V3 = 0x200
# code object v4+: two-bit feature settings
EF_AMDGPU_FEATURE_XNACK_V4 = 0x300
EF_AMDGPU_FEATURE_XNACK_UNSUPPORTED_V4 = 0x000
EF_AMDGPU_FEATURE_XNACK_ANY_V4 = 0x100
EF_AMDGPU_FEATURE_XNACK_OFF_V4 = 0x200
EF_AMDGPU_FEATURE_XNACK_ON_V4 = 0x300
EF_AMDGPU_FEATURE_SRAMECC_V4 = 0xC00
EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4 = 0x000
EF_AMDGPU_FEATURE_SRAMECC_ANY_V4 = 0x400
EF_AMDGPU_FEATURE_SRAMECC_OFF_V4 = 0x800
EF_AMDGPU_FEATURE_SRAMECC_ON_V4 = 0xC00

V4_FEATURE_SETTING = {0: "unsupported", 1: "any", 2: "off", 3: "on"}


def feature_settings(flags: int, code_object_version: int) -> dict:
    """{"xnack": ..., "sramecc": ...} as "on", "off", "any" or "unsupported" from e_flags.

    v4+ carry two-bit settings; v3 one bit each (set = on, clear = off);
    v2 only an xnack bit. A feature a version cannot express is "any".
    """
    if code_object_version >= 4:
        return {"xnack": V4_FEATURE_SETTING[(flags & EF_AMDGPU_FEATURE_XNACK_V4) >> 8],
                "sramecc": V4_FEATURE_SETTING[(flags & EF_AMDGPU_FEATURE_SRAMECC_V4) >> 10]}
    if code_object_version == 3:
        return {"xnack": "on" if flags & EF_AMDGPU_FEATURE_XNACK_V3 else "off",
                "sramecc": "on" if flags & EF_AMDGPU_FEATURE_SRAMECC_V3 else "off"}
    return {"xnack": "on" if flags & EF_AMDGPU_FEATURE_XNACK_V2 else "any", "sramecc": "any"}

# --- sections -------------------------------------------------------------
SHN_UNDEF = 0
SHN_LORESERVE = 0xFF00
SHN_ABS = 0xFFF1
SHN_COMMON = 0xFFF2
SHN_XINDEX = 0xFFFF
#: AMDGPU: an LDS symbol (``.amdgpu_lds``); its value is the alignment
SHN_AMDGPU_LDS = 0xFF00

SHT_NULL, SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB = 0, 1, 2, 3
SHT_RELA, SHT_HASH, SHT_DYNAMIC, SHT_NOTE = 4, 5, 6, 7
SHT_NOBITS, SHT_REL, SHT_DYNSYM = 8, 9, 11
SHT_INIT_ARRAY, SHT_FINI_ARRAY, SHT_PREINIT_ARRAY, SHT_GROUP = 14, 15, 16, 17
SHT_GNU_HASH = 0x6FFFFFF6
#: LLVM's address-significance table (llvm-mc writes it; linkers drop it)
SHT_LLVM_ADDRSIG = 0x6FFF4C03
SHT_NAMES = {
    SHT_NULL: "NULL", SHT_PROGBITS: "PROGBITS", SHT_SYMTAB: "SYMTAB",
    SHT_STRTAB: "STRTAB", SHT_RELA: "RELA", SHT_HASH: "HASH",
    SHT_DYNAMIC: "DYNAMIC", SHT_NOTE: "NOTE", SHT_NOBITS: "NOBITS",
    SHT_REL: "REL", SHT_DYNSYM: "DYNSYM", SHT_GROUP: "GROUP",
    SHT_GNU_HASH: "GNU_HASH",
}

SHF_WRITE = 0x1
SHF_ALLOC = 0x2
SHF_EXECINSTR = 0x4
SHF_MERGE = 0x10
SHF_STRINGS = 0x20
SHF_INFO_LINK = 0x40
SHF_LINK_ORDER = 0x80
SHF_GROUP = 0x200
SHF_TLS = 0x400
SHF_GNU_RETAIN = 0x200000
#: a section the linker leaves out of its output
SHF_EXCLUDE = 0x80000000
# AMDGPU code object v2 section flags (HSA program segments)
SHF_AMDGPU_HSA_GLOBAL = 0x00100000
SHF_AMDGPU_HSA_READONLY = 0x00200000
SHF_AMDGPU_HSA_CODE = 0x00400000
SHF_AMDGPU_HSA_AGENT = 0x00800000

# --- program headers ------------------------------------------------------
PT_NULL, PT_LOAD, PT_DYNAMIC, PT_INTERP, PT_NOTE, PT_PHDR = 0, 1, 2, 3, 4, 6
PT_GNU_EH_FRAME, PT_GNU_STACK, PT_GNU_RELRO = 0x6474E550, 0x6474E551, 0x6474E552
PT_NAMES = {PT_NULL: "NULL", PT_LOAD: "LOAD", PT_DYNAMIC: "DYNAMIC",
            PT_INTERP: "INTERP", PT_NOTE: "NOTE", PT_PHDR: "PHDR",
            PT_GNU_EH_FRAME: "GNU_EH_FRAME", PT_GNU_STACK: "GNU_STACK",
            PT_GNU_RELRO: "GNU_RELRO"}
PF_X, PF_W, PF_R = 1, 2, 4

# --- symbols --------------------------------------------------------------
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
STB_NAMES = {STB_LOCAL: "LOCAL", STB_GLOBAL: "GLOBAL", STB_WEAK: "WEAK"}
STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_SECTION, STT_FILE = 0, 1, 2, 3, 4
STT_COMMON, STT_TLS = 5, 6
STT_AMDGPU_HSA_KERNEL = 10
STT_NAMES = {STT_NOTYPE: "NOTYPE", STT_OBJECT: "OBJECT", STT_FUNC: "FUNC",
             STT_SECTION: "SECTION", STT_FILE: "FILE", STT_COMMON: "COMMON",
             STT_TLS: "TLS", STT_AMDGPU_HSA_KERNEL: "AMDGPU_HSA_KERNEL"}
STV_DEFAULT, STV_INTERNAL, STV_HIDDEN, STV_PROTECTED = 0, 1, 2, 3
STV_NAMES = {STV_DEFAULT: "DEFAULT", STV_INTERNAL: "INTERNAL",
             STV_HIDDEN: "HIDDEN", STV_PROTECTED: "PROTECTED"}

# --- dynamic section ------------------------------------------------------
DT_NULL, DT_NEEDED, DT_PLTRELSZ, DT_PLTGOT, DT_HASH = 0, 1, 2, 3, 4
DT_STRTAB, DT_SYMTAB, DT_RELA, DT_RELASZ, DT_RELAENT = 5, 6, 7, 8, 9
DT_STRSZ, DT_SYMENT, DT_SONAME, DT_REL, DT_TEXTREL = 10, 11, 14, 17, 22
DT_FLAGS, DT_GNU_HASH, DT_RELACOUNT, DT_FLAGS_1 = 30, 0x6FFFFEF5, 0x6FFFFFF9, 0x6FFFFFFB
DT_NAMES = {DT_NULL: "NULL", DT_NEEDED: "NEEDED", DT_PLTRELSZ: "PLTRELSZ",
            DT_PLTGOT: "PLTGOT", DT_HASH: "HASH", DT_STRTAB: "STRTAB",
            DT_SYMTAB: "SYMTAB", DT_RELA: "RELA", DT_RELASZ: "RELASZ",
            DT_RELAENT: "RELAENT", DT_STRSZ: "STRSZ", DT_SYMENT: "SYMENT",
            DT_SONAME: "SONAME", DT_REL: "REL", DT_TEXTREL: "TEXTREL",
            DT_FLAGS: "FLAGS", DT_GNU_HASH: "GNU_HASH",
            DT_RELACOUNT: "RELACOUNT", DT_FLAGS_1: "FLAGS_1"}

# --- notes ----------------------------------------------------------------
NOTE_OWNER_AMD = "AMD"          # code object v2 notes
NOTE_OWNER_AMDGPU = "AMDGPU"    # code object v3+ notes
NT_AMD_HSA_CODE_OBJECT_VERSION = 1
NT_AMD_HSA_HSAIL = 2
NT_AMD_HSA_ISA_VERSION = 3
NT_AMD_HSA_METADATA = 10
NT_AMD_HSA_ISA_NAME = 11
NT_AMD_PAL_METADATA = 12
NT_AMDGPU_METADATA = 32
NOTE_TYPE_NAMES = {
    (NOTE_OWNER_AMD, NT_AMD_HSA_CODE_OBJECT_VERSION): "NT_AMD_HSA_CODE_OBJECT_VERSION",
    (NOTE_OWNER_AMD, NT_AMD_HSA_HSAIL): "NT_AMD_HSA_HSAIL",
    (NOTE_OWNER_AMD, NT_AMD_HSA_ISA_VERSION): "NT_AMD_HSA_ISA_VERSION",
    (NOTE_OWNER_AMD, NT_AMD_HSA_METADATA): "NT_AMD_HSA_METADATA",
    (NOTE_OWNER_AMD, NT_AMD_HSA_ISA_NAME): "NT_AMD_HSA_ISA_NAME",
    (NOTE_OWNER_AMD, NT_AMD_PAL_METADATA): "NT_AMD_PAL_METADATA",
    (NOTE_OWNER_AMDGPU, NT_AMDGPU_METADATA): "NT_AMDGPU_METADATA",
}


# --- relocations ----------------------------------------------------------
@dataclass(frozen=True)
class RelocationRecipe:
    """How one relocation type patches its field.

    ``formula`` takes the AMDGPU ABI's operands by name: S (symbol value),
    A (addend), P (place), G (offset of the symbol's GOT entry), GOT (GOT
    address), B (load base); it returns the value before truncation to
    ``size`` bytes.
    """

    name: str
    value: int
    size: int
    formula: Callable[..., int]
    description: str

    def compute(self, S=0, A=0, P=0, G=0, GOT=0, B=0) -> int:
        """The field's value, truncated to ``size`` bytes (two's complement)."""
        result = self.formula(S=S, A=A, P=P, G=G, GOT=GOT, B=B)
        return result & ((1 << (8 * self.size)) - 1) if self.size else 0


def _lo(value):
    return value & 0xFFFFFFFF


def _hi(value):
    return (value >> 32) & 0xFFFFFFFF


RELOCATIONS = [
    RelocationRecipe("R_AMDGPU_NONE", 0, 0, lambda **o: 0, "none"),
    RelocationRecipe("R_AMDGPU_ABS32_LO", 1, 4, lambda S, A, **o: _lo(S + A), "(S + A) & 0xFFFFFFFF"),
    RelocationRecipe("R_AMDGPU_ABS32_HI", 2, 4, lambda S, A, **o: _hi(S + A), "(S + A) >> 32"),
    RelocationRecipe("R_AMDGPU_ABS64", 3, 8, lambda S, A, **o: S + A, "S + A"),
    RelocationRecipe("R_AMDGPU_REL32", 4, 4, lambda S, A, P, **o: S + A - P, "S + A - P"),
    RelocationRecipe("R_AMDGPU_REL64", 5, 8, lambda S, A, P, **o: S + A - P, "S + A - P"),
    RelocationRecipe("R_AMDGPU_ABS32", 6, 4, lambda S, A, **o: S + A, "S + A"),
    RelocationRecipe("R_AMDGPU_GOTPCREL", 7, 4, lambda A, P, G, GOT, **o: G + GOT + A - P,
                     "G + GOT + A - P"),
    RelocationRecipe("R_AMDGPU_GOTPCREL32_LO", 8, 4,
                     lambda A, P, G, GOT, **o: _lo(G + GOT + A - P), "(G + GOT + A - P) & 0xFFFFFFFF"),
    RelocationRecipe("R_AMDGPU_GOTPCREL32_HI", 9, 4,
                     lambda A, P, G, GOT, **o: _hi(G + GOT + A - P), "(G + GOT + A - P) >> 32"),
    RelocationRecipe("R_AMDGPU_REL32_LO", 10, 4, lambda S, A, P, **o: _lo(S + A - P), "(S + A - P) & 0xFFFFFFFF"),
    RelocationRecipe("R_AMDGPU_REL32_HI", 11, 4, lambda S, A, P, **o: _hi(S + A - P), "(S + A - P) >> 32"),
    RelocationRecipe("R_AMDGPU_RELATIVE64", 13, 8, lambda A, B, **o: B + A, "B + A"),
    RelocationRecipe("R_AMDGPU_REL16", 14, 2, lambda S, A, P, **o: ((S + A - P) - 4) // 4,
                     "((S + A - P) - 4) / 4"),
]
RELOCATION_BY_VALUE = {recipe.value: recipe for recipe in RELOCATIONS}
RELOCATION_BY_NAME = {recipe.name: recipe for recipe in RELOCATIONS}
R_AMDGPU_NONE = 0
R_AMDGPU_ABS32_LO = 1
R_AMDGPU_ABS32_HI = 2
R_AMDGPU_ABS64 = 3
R_AMDGPU_REL32 = 4
R_AMDGPU_REL64 = 5
R_AMDGPU_ABS32 = 6
R_AMDGPU_GOTPCREL = 7
R_AMDGPU_GOTPCREL32_LO = 8
R_AMDGPU_GOTPCREL32_HI = 9
R_AMDGPU_REL32_LO = 10
R_AMDGPU_REL32_HI = 11
R_AMDGPU_RELATIVE64 = 13
R_AMDGPU_REL16 = 14


def relocation_recipe(rtype: int) -> RelocationRecipe:
    """The recipe of a relocation type; unknown types are an ElfFormatError."""
    try:
        return RELOCATION_BY_VALUE[rtype]
    except KeyError:
        raise ElfFormatError(f"unknown AMDGPU relocation type {rtype}") from None


def relocation_name(rtype: int) -> str:
    recipe = RELOCATION_BY_VALUE.get(rtype)
    return recipe.name if recipe else f"R_AMDGPU_UNKNOWN_{rtype}"


def mach_of_processor(name: str) -> int:
    """EF_AMDGPU_MACH value for a canonical processor name (``gfx803``)."""
    try:
        return EF_AMDGPU_MACH_AMDGCN[name]
    except KeyError:
        raise TargetError(f"no ELF machine value for processor '{name}'") from None


def processor_of_flags(e_flags: int) -> str | None:
    """Canonical processor name encoded in e_flags, or None if unknown."""
    return MACH_NAMES.get(e_flags & EF_AMDGPU_MACH)


def isa_version_of_processor(name: str) -> tuple[int, int, int]:
    """(major, minor, stepping) of ``gfxMNS`` names, as the v2 notes store it."""
    digits = name[3:]
    if not name.startswith("gfx") or len(digits) != 3:
        raise TargetError(f"cannot derive an ISA version from processor '{name}'")
    return int(digits[0]), int(digits[1]), int(digits[2], 16)

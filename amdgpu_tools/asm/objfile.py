"""A finished assembly -> an ELF relocatable object, with ``elf.writer``.

What llvm-mc decides here: the ELF header's OS ABI, ABI version and e_flags
for the code object version and target; which symbols reach the symbol table
(no ``.L`` temporaries; section symbols only where a relocation needs them)
and in which order (creation order, locals before globals); and each
symbol's binding, type, size and section index.
"""

from __future__ import annotations

from ..elf import constants as elfc
from ..elf.writer import RelocatableObject
from ..errors import ToolchainError
from .leb128 import encode_leb128
from .model import Section, Symbol


def e_flags(target, code_object_version: int, features: dict) -> int:
    """EF_AMDGPU_MACH plus the xnack/sramecc feature bits of that version."""
    flags = target.mach
    xnack, sramecc = features.get("xnack"), features.get("sramecc")
    if code_object_version <= 3:
        # LLVM 14 writes v2 like v3: one bit per feature, set when "on or any"
        if target.supports_xnack and xnack is not False:
            flags |= elfc.EF_AMDGPU_FEATURE_XNACK_V3
        if target.supports_sramecc and sramecc is not False:
            flags |= elfc.EF_AMDGPU_FEATURE_SRAMECC_V3
        return flags
    if target.supports_xnack:
        flags |= {None: elfc.EF_AMDGPU_FEATURE_XNACK_ANY_V4, True: elfc.EF_AMDGPU_FEATURE_XNACK_ON_V4,
                  False: elfc.EF_AMDGPU_FEATURE_XNACK_OFF_V4}[xnack]
    if target.supports_sramecc:
        flags |= {None: elfc.EF_AMDGPU_FEATURE_SRAMECC_ANY_V4,
                  True: elfc.EF_AMDGPU_FEATURE_SRAMECC_ON_V4,
                  False: elfc.EF_AMDGPU_FEATURE_SRAMECC_OFF_V4}[sramecc]
    return flags


def parse_features(text: str) -> dict:
    """``xnack+:sramecc-`` (target id) or ``+xnack,-sramecc`` (-mattr) -> {name: bool}."""
    features = {}
    for part in text.replace(",", ":").split(":"):
        part = part.strip()
        if not part:
            continue
        if part[0] in "+-":
            features[part[1:]] = part[0] == "+"
        elif part[-1] in "+-":
            features[part[:-1]] = part[-1] == "+"
        else:
            raise ToolchainError(f"invalid target feature '{part}'")
    return features


def legacy_v2_e_flags(asm, value: int) -> int:
    """e_flags of an early code object v2 producer (0, or 0x2: EF_AMDGPU_ARCH_GCN)
    instead of the processor's EF_AMDGPU_MACH: the processor is then named only
    by the NT_AMD_HSA_ISA note (``.hsa_code_object_isa``), which must be there.
    (llvm-mc-14 writes 0 itself when given no -mcpu; with -mcpu it writes the MACH.)"""
    if value not in elfc.LEGACY_V2_E_FLAGS:
        raise ToolchainError(f"legacy e_flags must be 0 or 0x2 (EF_AMDGPU_ARCH_GCN), "
                             f"got 0x{value:x}")
    if asm.code_object_version != 2:
        raise ToolchainError(f"legacy e_flags 0x{value:x} need code object version 2, "
                             f"not {asm.code_object_version}")
    notes = getattr(asm.amdgpu, "notes", [])
    if not any(n.owner == elfc.NOTE_OWNER_AMD and n.type in (elfc.NT_AMD_HSA_ISA_VERSION,
                                                              elfc.NT_AMD_HSA_ISA_NAME)
               for n in notes):
        raise ToolchainError(f"legacy e_flags 0x{value:x} leave the processor to the "
                             "NT_AMD_HSA_ISA note, but the source has no "
                             ".hsa_code_object_isa directive")
    return value


def build_object(asm, legacy_e_flags=None) -> RelocatableObject:
    """The ELF object of a finished ``Assembler``; ``legacy_e_flags`` (0 or 0x2)
    writes an early v2 producer's header (see ``legacy_v2_e_flags``)."""
    version = asm.code_object_version
    flags = e_flags(asm.target, version, asm.features) if legacy_e_flags is None else \
        legacy_v2_e_flags(asm, legacy_e_flags)
    obj = RelocatableObject(flags,
                            elfc.ELFOSABI_AMDGPU_HSA, elfc.ABI_VERSION_FOR_CODE_OBJECT[version])
    for section in asm.sections.values():
        code_alignment = 4 if section.name == ".text" else 1
        alignment = max(section.alignment, code_alignment)
        added = obj.add_section(section.name, section.sh_type, section.flags, bytes(section.data),
                                alignment, section.entsize)
        added.nobits_size = section.nobits_size
    needed_sections = {id(r.symbol.section) for s in asm.sections.values() for r in s.relocations
                       if _against_section(r)}
    emitted = {}
    for item in asm.creation_order:
        if isinstance(item, Section):
            if id(item) in needed_sections:
                emitted[id(item)] = obj.add_section_symbol(item.name)
            continue
        if _emitted(item):
            emitted[id(item)] = _add_symbol(asm, obj, item)
    if asm.symbols.addrsig:
        _address_significance_table(asm, obj, emitted)
    for section in asm.sections.values():
        for relocation in section.relocations:
            symbol = relocation.symbol
            addend = relocation.addend
            if symbol is None:
                target = None
            elif _against_section(relocation):
                target = emitted[id(symbol.section)]
                addend += symbol.offset
            else:
                target = emitted[id(symbol)]
            obj.add_relocation(section.name, relocation.offset, relocation.type, target, addend)
    return obj


def _address_significance_table(asm, obj, emitted):
    """``.llvm_addrsig``: ULEB128 symbol-table indices of the ``.addrsig_sym`` symbols.

    Indices follow the writer's order: the null symbol, locals, then globals,
    each in the order they were added.
    """
    ordered = [s for s in obj.symbols if s.bind == elfc.STB_LOCAL] + \
        [s for s in obj.symbols if s.bind != elfc.STB_LOCAL]
    index = {id(s): i + 1 for i, s in enumerate(ordered)}
    data = b"".join(encode_leb128(index[id(emitted[id(symbol)])], False)
                    for symbol in asm.symbols.addrsig_symbols if id(symbol) in emitted)
    section = obj.add_section(".llvm_addrsig", elfc.SHT_LLVM_ADDRSIG, elfc.SHF_EXCLUDE, data, 1)
    with_relocations = sum(1 for s in asm.sections.values() if s.relocations)
    section.link = 2 + len(obj.sections) + with_relocations - 0  # .symtab comes last


def _against_section(relocation) -> bool:
    """llvm-mc keeps the symbol for a non-zero addend into a mergeable section
    (SHF_MERGE contents may move), else local labels go through the section."""
    symbol = relocation.symbol
    if symbol is None or not _uses_section_symbol(symbol):
        return False
    return not (symbol.section.flags & elfc.SHF_MERGE and relocation.addend != 0)


def _uses_section_symbol(symbol: Symbol) -> bool:
    """Relocations against local labels refer to the section, as llvm-mc writes them."""
    return symbol.defined and symbol.section is not None and _binding(symbol) == elfc.STB_LOCAL \
        and not symbol.lds and not symbol.common_size


def _binding(symbol: Symbol) -> int:
    if symbol.binding is not None:
        return symbol.binding
    return elfc.STB_LOCAL if symbol.defined else elfc.STB_GLOBAL


def _emitted(symbol: Symbol) -> bool:
    if symbol.is_temporary or symbol.is_section or "\x02" in symbol.name or symbol.name == ".":
        return False
    if symbol.variable is not None and not symbol.defined:
        return False
    if symbol.lds and not symbol.in_reloc:
        return False  # llvm-mc writes an LDS symbol only once something refers to it
    return True


def _add_symbol(asm, obj, symbol: Symbol):
    size = symbol.size
    binding = _binding(symbol)
    if symbol.lds:
        size, align = symbol.lds
        return obj.add_symbol(symbol.name, None, align, size, binding, symbol.sym_type,
                              symbol.visibility, elfc.SHN_AMDGPU_LDS)
    if symbol.common_size:
        return obj.add_symbol(symbol.name, None, symbol.common_align, symbol.common_size,
                              binding, elfc.STT_OBJECT, symbol.visibility, elfc.SHN_COMMON)
    if symbol.variable is not None:
        value = asm.symbols.evaluate(symbol.variable)
        if value.is_absolute:
            return obj.add_symbol(symbol.name, None, value.constant & ((1 << 64) - 1), size,
                                  binding, symbol.sym_type, symbol.visibility, elfc.SHN_ABS)
        return obj.add_symbol(symbol.name, None, 0, size, binding, symbol.sym_type,
                              symbol.visibility)
    if symbol.defined and symbol.section is not None:
        return obj.add_symbol(symbol.name, symbol.section.name, symbol.offset, size, binding,
                              symbol.sym_type, symbol.visibility)
    return obj.add_symbol(symbol.name, None, 0, size, binding, symbol.sym_type, symbol.visibility)

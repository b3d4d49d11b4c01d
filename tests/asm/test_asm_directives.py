"""Directives without an llvm-mc 14/19 golden: the code object v2 HSA sections
(llvm-mc 14 no longer knows them; their flags are LLVM's SHF_AMDGPU_HSA_*),
diagnostics directives, and conditionals/macros edge cases."""

import pytest

from amdgpu_tools.asm import assemble_object
from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.errors import AsmError


def test_hsa_sections_of_code_object_v2():
    source = (".hsa_code_object_version 2,1\n.hsatext\n.long 1\n.hsadata_global_agent\n.long 2\n"
              ".hsadata_global_program\n.long 3\n.hsarodata_readonly_agent\n.long 4\n")
    data, _ = assemble_object(source, target="gfx803")
    elf = read_elf(data)
    flags = {s.name: s.flags for s in elf.sections}
    assert flags[".hsatext"] == (C.SHF_ALLOC | C.SHF_WRITE | C.SHF_EXECINSTR |
                                 C.SHF_AMDGPU_HSA_AGENT | C.SHF_AMDGPU_HSA_CODE)
    assert flags[".hsadata_global_agent"] == (C.SHF_ALLOC | C.SHF_WRITE |
                                              C.SHF_AMDGPU_HSA_GLOBAL | C.SHF_AMDGPU_HSA_AGENT)
    assert flags[".hsadata_global_program"] == C.SHF_ALLOC | C.SHF_WRITE | C.SHF_AMDGPU_HSA_GLOBAL
    assert flags[".hsarodata_readonly_agent"] == (C.SHF_ALLOC | C.SHF_AMDGPU_HSA_READONLY |
                                                  C.SHF_AMDGPU_HSA_AGENT)
    assert elf.section(".hsarodata_readonly_agent").data == (4).to_bytes(4, "little")


def test_error_and_warning_directives():
    with pytest.raises(AsmError) as failure:
        assemble_object('.warning "careful"\n.error "stop here"\n.long 1\n')
    kinds = [(d.severity, d.message, d.where.line) for d in failure.value.diagnostics]
    assert kinds == [("warning", "careful", 1), ("error", "stop here", 2)]


def test_macro_with_defaults_and_counter():
    source = ".macro m a, b=5\n.byte \\a, \\b, \\@\n.endm\n.data\nm 1\nm 2, 3\n"
    data, asm = assemble_object(source)
    assert bytes(asm.sections[".data"].data) == bytes([1, 5, 0, 2, 3, 1])


def test_unterminated_block_is_an_error():
    with pytest.raises(AsmError, match="no matching '.endr'"):
        assemble_object(".rept 2\n.long 1\n")


def test_unterminated_conditional_is_an_error():
    with pytest.raises(AsmError, match="unmatched .if"):
        assemble_object(".if 1\n.long 1\n")


def test_numeric_labels_forward_and_backward():
    source = ".data\n1: .long 1b\n.long 1f\n1: .long 0\n2:\n.long 2b - 1b\n"
    data, asm = assemble_object(source)
    section = asm.sections[".data"]
    assert section.data[12:16] == (4).to_bytes(4, "little")  # 2b (12) - the second 1b (8)
    assert [r.type for r in section.relocations] == [6, 6]  # 1b and 1f: R_AMDGPU_ABS32

"""Section flag letters of `.section NAME,"FLAGS"` map to the ELF bits llvm-mc-19 sets."""

import pytest

from amdgpu_tools.asm import assemble
from amdgpu_tools.elf.reader import read_elf


@pytest.mark.parametrize("letters, flags", [
    ("a", 0x2), ("aw", 0x3), ("ax", 0x6), ("aMS", 0x32),
    ("aR", 0x200002),      # SHF_GNU_RETAIN, as llvm-mc-19 writes it
    ("ae", 0x80000002),    # SHF_EXCLUDE
])
def test_section_flag_letters(letters, flags):
    extra = ",1" if "M" in letters else ""
    source = f'.section .foo,"{letters}",@progbits{extra}\n.byte 1\n'
    elf = read_elf(assemble(source, target="gfx900"))
    assert [s.flags for s in elf.sections if s.name == ".foo"] == [flags]

"""Kernel names of code objects the ROCm loader placed in memory.

A dispatch packet names its kernel only by the address of its descriptor.
ROCr's loader maps a code object's PT_LOAD segments at base + p_vaddr in one
allocation, and ld.lld puts the ELF header, the program headers and the
dynamic symbol table in the first segment at vaddr 0; so the allocation
holding a descriptor starts with the ELF image, and its dynamic symbols say
which kernel the descriptor belongs to (``name.kd`` for code object v3+, the
kernel symbol itself for v2). Used for the emulator's messages; a code object
laid out otherwise simply gives no name.
"""

from __future__ import annotations

from ..elf.constants import DT_HASH, DT_NULL, DT_STRTAB, DT_SYMTAB, ELF_MAGIC, PT_DYNAMIC
from ..elf.structs import Elf64_Dyn, Elf64_Ehdr, Elf64_Phdr, Elf64_Sym
from ..errors import ToolchainError

#: Most dynamic entries read before giving up on a malformed table.
MAX_DYNAMIC_ENTRIES = 256
MAX_SYMBOLS = 1 << 16


def symbols_at(memory, base: int) -> dict[int, str]:
    """address -> symbol name of the ELF image loaded at ``base`` ({} if none)."""
    try:
        if memory.read(base, 4) != ELF_MAGIC:
            return {}
        header = Elf64_Ehdr.unpack(memory.read(base, Elf64_Ehdr.size))
        dynamic = _dynamic_table(memory, base, header)
        nchain = memory.read_u32(base + dynamic[DT_HASH] + 4)
        table = memory.read(base + dynamic[DT_SYMTAB], min(nchain, MAX_SYMBOLS) * Elf64_Sym.size)
        names = {}
        for name, _, _, _, value, _ in Elf64_Sym.iter_values(table, 0, len(table) // Elf64_Sym.size):
            if name and value:
                names[base + value] = _string(memory, base + dynamic[DT_STRTAB] + name)
        return names
    except (ToolchainError, KeyError, ValueError):
        return {}


def kernel_name(memory, descriptor: int) -> str | None:
    """The kernel whose descriptor (or amd_kernel_code_t) is at ``descriptor``."""
    try:
        base = memory.allocation_at(descriptor).address
    except ToolchainError:
        return None
    name = symbols_at(memory, base).get(descriptor)
    if name is None:
        return None
    return name[:-3] if name.endswith(".kd") else name


def _dynamic_table(memory, base: int, header: dict) -> dict[int, int]:
    phdrs = memory.read(base + header["e_phoff"], header["e_phnum"] * Elf64_Phdr.size)
    for p_type, _, _, vaddr, *_ in Elf64_Phdr.iter_values(phdrs, 0, header["e_phnum"]):
        if p_type == PT_DYNAMIC:
            start = base + vaddr
            room = memory.allocation_at(start).end - start
            count = min(MAX_DYNAMIC_ENTRIES, room // Elf64_Dyn.size)
            raw = memory.read(start, count * Elf64_Dyn.size)
            entries = {}
            for tag, value in Elf64_Dyn.iter_values(raw, 0, count):
                if tag == DT_NULL:
                    break
                entries.setdefault(tag, value)
            return entries
    raise KeyError("no PT_DYNAMIC")


def _string(memory, address: int, limit: int = 256) -> str:
    raw = memory.read(address, limit) if _readable(memory, address, limit) \
        else memory.read(address, memory.allocation_at(address).end - address)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def _readable(memory, address: int, size: int) -> bool:
    try:
        memory.allocation_at(address, size)
        return True
    except ToolchainError:
        return False

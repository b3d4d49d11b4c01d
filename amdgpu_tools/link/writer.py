"""Writing the linked shared object: headers, contents, symbol tables.

Everything has an address and a file offset by now; this module only adds
the non-allocated tail (.comment, .symtab, .shstrtab, .strtab, in ld.lld's
order), the section header table, and serialises.
"""

from __future__ import annotations

from ..elf import constants as C
from ..elf.structs import (Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr, Elf64_Sym, Elf_Ident,
                           align_up, st_info)
from ..errors import LinkError
from . import layout as L
from .dynamic import StringTable, unsigned64

#: Larger outputs come from damaged inputs (huge alignments or sizes), not GPU code.
MAX_OUTPUT_SIZE = 1 << 30


def write_shared_object(linker) -> bytes:
    """The output file: the laid-out sections plus the non-allocated tail, with
    the ELF header, program headers and section header table around them."""
    outputs = list(linker.outputs)
    symtab, strtab = _symbol_tables(linker, len(outputs) + 3)
    shstrtab = L.OutputSection(".shstrtab", C.SHT_STRTAB, 0, 1)
    outputs += [symtab, shstrtab, strtab]
    for index, out in enumerate(outputs, start=1):
        out.index = index
    names = StringTable()
    name_offsets = [names.add(out.name) for out in outputs]
    shstrtab.data = names.data()
    shstrtab.size = len(shstrtab.data)
    shoff = _place_non_alloc(outputs, linker.alloc_end)
    image = bytearray(shoff + Elf64_Shdr.size * (len(outputs) + 1))
    image[:Elf64_Ehdr.size] = _elf_header(linker, shoff, len(outputs) + 1,
                                          outputs.index(shstrtab) + 1)
    _write_program_headers(image, linker.segments)
    for out in outputs:
        _write_contents(image, out)
    for number, (out, name) in enumerate(zip(outputs, name_offsets), start=1):
        start = shoff + number * Elf64_Shdr.size
        image[start:start + Elf64_Shdr.size] = Elf64_Shdr.pack(
            sh_name=name, sh_type=out.type, sh_flags=out.flags,
            sh_addr=out.addr if out.is_alloc else 0, sh_offset=out.offset, sh_size=out.size,
            sh_link=out.link, sh_info=out.info, sh_addralign=out.align, sh_entsize=out.entsize)
    return bytes(image)


def _place_non_alloc(outputs, alloc_end: int) -> int:
    """File offsets of the non-allocated sections, after the loaded ones; returns
    the section header table's offset. Damaged inputs (huge sizes) stop here."""
    offset = alloc_end
    for out in outputs:
        if not out.is_alloc:
            offset = align_up(offset, out.align)
            out.offset = offset
            offset += out.size
    shoff = align_up(offset, 8)
    if shoff > MAX_OUTPUT_SIZE or any(o.addr + o.size >= 1 << 64 for o in outputs):
        raise LinkError(f"output file too large: {shoff} bytes, or addresses past 2**64")
    return shoff


def _write_program_headers(image: bytearray, segments) -> None:
    for number, segment in enumerate(segments):
        start = L.EHDR_SIZE + number * L.PHDR_SIZE
        image[start:start + L.PHDR_SIZE] = Elf64_Phdr.pack(
            p_type=segment.type, p_flags=segment.flags, p_offset=segment.offset,
            p_vaddr=segment.vaddr, p_paddr=segment.vaddr, p_filesz=segment.filesz,
            p_memsz=segment.memsz, p_align=segment.align)


def _elf_header(linker, shoff: int, shnum: int, shstrndx: int) -> bytes:
    osabi, abi_version, flags = linker.identity
    ident = Elf_Ident.pack(ei_magic=C.ELF_MAGIC, ei_class=C.ELFCLASS64, ei_data=C.ELFDATA2LSB,
                           ei_version=C.EV_CURRENT, ei_osabi=osabi, ei_abiversion=abi_version)
    return Elf64_Ehdr.pack(
        e_ident=ident, e_type=C.ET_DYN, e_machine=C.EM_AMDGPU, e_version=C.EV_CURRENT,
        e_entry=linker.entry_address(), e_phoff=L.EHDR_SIZE, e_shoff=shoff, e_flags=flags,
        e_ehsize=Elf64_Ehdr.size, e_phentsize=Elf64_Phdr.size, e_phnum=len(linker.segments),
        e_shentsize=Elf64_Shdr.size, e_shnum=shnum, e_shstrndx=shstrndx)


def _write_contents(image: bytearray, out) -> None:
    if out.is_nobits:
        return
    if out.data is not None:
        image[out.offset:out.offset + len(out.data)] = out.data
        return
    for section in out.sections:
        if section.type != C.SHT_NOBITS and section.data:
            start = out.offset + section.out_offset
            image[start:start + len(section.data)] = section.data


def _symbol_tables(linker, strtab_index: int):
    """.symtab (locals first, sh_info = first global) and its .strtab."""
    local, global_ = linker.symtab_symbols()
    strings = StringTable(deduplicate=False)
    rows = [bytes(Elf64_Sym.size)]
    pack, add, section_index = Elf64_Sym.pack_values, strings.add, linker.section_index
    for symbol in local + global_:  # fields: name, info, other, shndx, value, size
        rows.append(pack(add(symbol.name), st_info(symbol.output_binding, symbol.type),
                         symbol.visibility, section_index(symbol), unsigned64(symbol.address),
                         symbol.size))
    symtab = L.OutputSection(".symtab", C.SHT_SYMTAB, 0, 8, Elf64_Sym.size)
    symtab.data = b"".join(rows)
    symtab.size = len(symtab.data)
    symtab.link = strtab_index
    symtab.info = len(local) + 1
    strtab = L.OutputSection(".strtab", C.SHT_STRTAB, 0, 1)
    strtab.data = strings.data()
    strtab.size = len(strtab.data)
    return symtab, strtab

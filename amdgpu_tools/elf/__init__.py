"""The ELF layer shared by the assembler, the linker, the loader and objdump.

Public API (import from the submodules named here):

``amdgpu_tools.elf.constants`` (as ``C``)
    ELF / AMDGPU numbers: ``EM_AMDGPU``, ``ELFOSABI_AMDGPU_HSA``,
    ``ABI_VERSION_FOR_CODE_OBJECT`` {2: 0, 3: 1, 4: 2, 5: 3},
    ``EF_AMDGPU_MACH_AMDGCN`` (name -> mach), ``EF_AMDGPU_FEATURE_*``,
    ``SHT_* SHF_* SHF_AMDGPU_HSA_* STB_* STT_* STT_AMDGPU_HSA_KERNEL STV_* PT_* PF_* DT_*``,
    ``NT_AMD_HSA_* NT_AMDGPU_METADATA``, ``R_AMDGPU_*``; relocation recipes
    ``RELOCATIONS`` / ``relocation_recipe(type).compute(S=, A=, P=, G=, GOT=, B=)``
    (``.size`` bytes, value already truncated); ``mach_of_processor(name)``,
    ``processor_of_flags(e_flags)``, ``isa_version_of_processor(name)``.
``amdgpu_tools.elf.bitfields``
    ``RSRC1 RSRC2 RSRC3 KD_CODE_PROPERTIES AKC_CODE_PROPERTIES`` (name -> ``BitField``
    with ``get(word)``/``put(word, value)``), ``USER_SGPR_SIZES``.
``amdgpu_tools.elf.structs``
    ``Struct`` records ``Elf64_Ehdr Elf64_Shdr Elf64_Phdr Elf64_Sym Elf64_Rela Elf64_Dyn
    Elf_Nhdr Elf_Ident`` with ``.size``, ``.pack(**fields)``, ``.unpack(data, off)``,
    ``.rows(data, off, count, what)`` (bounds-checked tuples, the fast path for tables),
    ``.complete(values)`` (every field, zero defaults); ``st_info r_info align_up``.
``amdgpu_tools.elf.reader``
    ``read_elf(data, name=..., contents=True) -> ElfFile`` / ``read_elf_file(path)``
    (``contents=False``: headers, sections, segments, symbols only: the linker's inputs); ``ElfFile``
    has ``type machine flags osabi abi_version entry processor code_object_version mach
    isa_version`` (v2 ISA note: (major, minor, stepping) or None),
    ``sections`` [``Section`` name type flags addr offset size link info addralign
    entsize data], ``segments``, ``symbols`` / ``dynamic_symbols`` [``Symbol`` index
    name value size bind type visibility shndx section], ``relocations``
    {target section name: [``Relocation`` offset type symbol_index addend symbol]},
    ``dynamic_relocations`` (those against .dynsym: what a loader applies),
    ``dynamic`` [(tag, value)], ``notes`` [``Note``]; ``section(name)``,
    ``symbol(name, dynamic=False)``, ``bytes_at(addr, size)``. Raises ``ElfFormatError``.
``amdgpu_tools.elf.writer``
    ``RelocatableObject(e_flags, osabi, abi_version)`` with ``add_section(name, type,
    flags, data, align, entsize) -> ObjSection`` (``.data`` is a bytearray),
    ``add_symbol(name, section, value, size, bind, type, visibility, shndx) -> ObjSymbol``,
    ``add_section_symbol(section)``, ``find_symbol(name)``,
    ``add_relocation(section, offset, type, symbol_or_name, addend)``,
    ``add_notes(notes, name=".note")``, ``to_bytes()`` (llvm-mc's layout, byte for byte).
``amdgpu_tools.elf.notes``
    ``Note(owner, type, desc)``, ``encode_notes decode_notes``,
    ``code_object_version_note isa_version_note isa_name_note hsa_metadata_note
    amdgpu_metadata_note`` and their ``decode_*``; ``describe_note``.
``amdgpu_tools.elf.metadata`` (re-exports ``metadata_v2`` / ``metadata_v3``)
    v2 YAML and v3+ MessagePack metadata: ``yaml_source_to_msgpack(text)`` (what llvm-mc
    19 does for ``.amdgpu_metadata``, byte for byte), ``yaml_source_to_document``,
    ``encode_msgpack(doc)``, ``decode_msgpack(bytes)``, ``verify_document(doc)``,
    ``v2_yaml_source_to_note_text(text)`` (``.amd_amdgpu_hsa_metadata``, as llvm-mc 14),
    ``parse_v2_yaml(text)``, ``emit_v2_yaml(doc)``, ``merge_documents(docs)``,
    ``kernels_from_notes(notes)`` -> [``KernelInfo`` name symbol args
    kernarg_segment_size/align group/private_segment_fixed_size sgpr/vgpr_count
    wavefront_size max_flat_workgroup_size code_object_version printf ...] with
    frozen ``KernelArg(offset, size, value_kind, name="", type_name="", align=1,
    address_space=None, access=None, is_const=False, pointee_align=0)`` (``is_hidden``);
    every malformed document is one ``ElfFormatError`` naming the note, kernel and key.
    ``metadata_documents(notes)``, ``is_metadata_note(note)``, ``to_yaml(doc)``; text
    errors are ``MetadataError``.
``amdgpu_tools.elf.kernel_code``
    ``AmdKernelCodeT.defaults(target)``, ``.set(key, value)`` / ``.get(key)`` (llvm-mc's
    key names and aliases; raises ``KernelCodeError`` with ``.key``), ``.to_bytes()``,
    ``AmdKernelCodeT.from_bytes(b)``, ``.fields`` (dict), ``.describe()`` (v2
    ``amd_kernel_code_t``, 256 bytes).
``amdgpu_tools.elf.kernel_descriptor``
    ``KernelDescriptor.defaults(target, code_object_version, target_id=None)``,
    ``.set(directive, value)`` (``.amdhsa_*`` names, with or without the dot; raises
    ``DirectiveError`` with ``.directive``), ``.finish()`` (granulated register counts,
    user SGPR count; at ``.end_amdhsa_kernel``), ``.to_bytes()`` (64 bytes),
    ``KernelDescriptor.from_bytes(b)``, ``.fields`` (dict), ``.get(register, field)``,
    ``.describe()``, ``.vgpr_count``/``.sgpr_count``; ``ENTRY_OFFSET_FIELD`` (16: where
    the R_AMDGPU_REL64 to the kernel goes, addend 16).
``amdgpu_tools.elf.listing``
    What amdgpu-objdump prints: ``disassembly(elf, target)``, ``instruction_line(address,
    inst, describe_target=None)``, ``section_headers symbol_table relocation_listing
    notes_listing kernels_listing`` (each ``(elf) -> str``).

What the executor needs from a descriptor (``KernelSetup``) is the runtime's:
``amdgpu_tools.runtime.descriptors.kernel_setup`` (the ELF layer imports neither the runtime
nor the executor).
"""

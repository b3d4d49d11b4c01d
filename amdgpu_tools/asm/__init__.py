"""The assembler: LLVM-MC-compatible AMDGPU assembly -> relocatable code objects.

``assemble(source, target=..., filename=..., code_object_version=None,
include_dirs=()) -> bytes``
is the whole public API; ``Assembler`` gives access to diagnostics and the
``--show-encoding`` listing. Errors raise ``AsmError`` whose ``diagnostics``
list every problem found in the file (formatted as llvm-mc prints them).
"""

from __future__ import annotations

from ..errors import AsmError, ToolchainError
from .assembler import Assembler
from .objfile import build_object, parse_features

__all__ = ["assemble", "assemble_object", "Assembler", "AsmError"]


def assemble_object(source: str, target="gfx900", filename="<stdin>",
                    code_object_version=None, show_encoding=False, features=None,
                    include_dirs=(), dwarf_version=None, compilation_dir=None,
                    legacy_e_flags=None) -> tuple:
    """(ELF bytes, the finished Assembler) for ``source``; raises AsmError.

    ``dwarf_version``/``compilation_dir`` are llvm-mc's -dwarf-version and
    -fdebug-compilation-dir: they shape .debug_line/.debug_frame when the
    source has .file/.loc/.cfi_* directives (None: version 4, raised to 5 by
    ``.file 0``; the working directory). ``legacy_e_flags`` (0 or 0x2, code object
    v2 only) writes the e_flags of early v2 producers, which name the processor only
    in the ``.hsa_code_object_isa`` note.
    """
    asm = Assembler(target, filename, code_object_version, show_encoding,
                    parse_features(features) if isinstance(features, str) else features,
                    include_dirs, dwarf_version, compilation_dir)
    asm.assemble(source)
    try:
        data = build_object(asm, legacy_e_flags).to_bytes()
    except AsmError:
        raise
    except ToolchainError as error:  # a symbol size or layout problem found while writing
        raise AsmError(f"{filename}: error: {error}", asm.diagnostics) from None
    return data, asm


def assemble(source: str, target="gfx900", filename="<stdin>", code_object_version=None,
             include_dirs=(), legacy_e_flags=None) -> bytes:
    """Assemble ``source`` into the bytes of an ELF relocatable code object.

    ``.include``/``.incbin`` names are looked up as given, then in ``include_dirs``.
    """
    data, _ = assemble_object(source, target, filename, code_object_version,
                              include_dirs=include_dirs, legacy_e_flags=legacy_e_flags)
    return data

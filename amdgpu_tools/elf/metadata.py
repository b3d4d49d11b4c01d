"""AMDGPU code object metadata: the runtime's view of v2 and v3+ documents.

``kernels_from_notes`` turns the metadata notes of a code object (v2 YAML or
v3+ MessagePack) into ``KernelInfo`` records. The format-specific work lives
in ``metadata_v2`` (llvm-mc 14's YAML schema) and ``metadata_v3`` (llvm-mc
19's YAML -> MessagePack); their public functions are re-exported here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ElfFormatError
from .constants import (NOTE_OWNER_AMD, NOTE_OWNER_AMDGPU, NT_AMD_HSA_METADATA,
                        NT_AMDGPU_METADATA)
from .metadata_v2 import emit_v2_yaml, parse_v2_yaml, v2_yaml_source_to_note_text  # noqa: F401
from .metadata_v3 import (decode_msgpack, encode_msgpack, merge_documents,  # noqa: F401
                          to_yaml, type_scalar, verify_document, yaml_source_to_document,
                          yaml_source_to_msgpack)
from .metadata_yaml import MetadataError  # noqa: F401
from .notes import decode_hsa_metadata_text
from .structs import align_up


# --- the runtime's view ---------------------------------------------------
@dataclass(frozen=True)
class KernelArg:
    """One kernel argument, explicit or hidden, with v3 spellings in every version."""

    offset: int
    size: int
    value_kind: str               # global_buffer, by_value, hidden_global_offset_x, ...
    name: str = ""
    type_name: str = ""
    align: int = 1
    address_space: str | None = None   # global, local, constant, private, generic, region
    access: str | None = None
    is_const: bool = False
    #: alignment of what a dynamic_shared_pointer points to (0: not stated)
    pointee_align: int = 0

    @property
    def is_hidden(self) -> bool:
        return self.value_kind.startswith("hidden_")


@dataclass
class KernelInfo:
    """A kernel as its metadata describes it.

    Code properties a document leaves out keep the schema's defaults (0 for
    counts and sizes); a loader prefers the kernel descriptor's value then.
    """

    name: str
    #: ELF symbol to look up: the kernel descriptor (v3+: 'k.kd') or, in v2,
    #: the kernel symbol whose code starts with amd_kernel_code_t
    symbol: str
    args: list[KernelArg]
    kernarg_segment_size: int
    kernarg_segment_align: int
    group_segment_fixed_size: int
    private_segment_fixed_size: int
    sgpr_count: int
    vgpr_count: int
    wavefront_size: int
    max_flat_workgroup_size: int
    code_object_version: int
    printf: list[str] = field(default_factory=list)
    uses_dynamic_stack: bool = False
    language: str = ""
    reqd_workgroup_size: list[int] | None = None


def _snake(camel: str) -> str:
    """``HiddenGlobalOffsetX`` -> ``hidden_global_offset_x`` (v2 -> v3 spelling)."""
    text = camel.replace("MultiGrid", "Multigrid")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", text).lower()


#: marks a key a document must have
_REQUIRED = object()


class _Reader:
    """Typed look-ups in one map of a decoded document; errors name the place.

    MessagePack documents come from files, so every value is checked before
    use: a wrong type is one ElfFormatError naming the kernel and the key.
    """

    def __init__(self, node, where: str):
        if not isinstance(node, dict):
            raise ElfFormatError(f"{where} is {_shown(node)}, expected a map")
        self.node = node
        self.where = where

    def count(self, key: str, default=_REQUIRED) -> int:
        value = self.node.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self._wrong(key, value, "a non-negative integer")
        return value

    def text(self, key: str, default=""):
        """A string; an optional key may be absent or nil (llvm-mc's empty scalar)."""
        value = self.node.get(key, default)
        if value is None and default is not _REQUIRED:
            return default
        if not isinstance(value, str):
            self._wrong(key, value, "a string")
        return value

    def items(self, key: str) -> list:
        value = self.node.get(key, [])
        if not isinstance(value, list):
            self._wrong(key, value, "a list")
        return value

    def _wrong(self, key, value, expected: str):
        state = "missing" if value is _REQUIRED else _shown(value)
        raise ElfFormatError(f"{self.where} {key} is {state}, expected {expected}")


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kernels_v3(doc, version: int) -> list[KernelInfo]:
    top = _Reader(doc, "NT_AMDGPU_METADATA:")
    printf = [str(entry) for entry in top.items("amdhsa.printf")]
    kernels = []
    for number, node in enumerate(top.items("amdhsa.kernels")):
        kernel = _Reader(node, f"NT_AMDGPU_METADATA: kernel {number}")
        name = kernel.text(".name", _REQUIRED)
        kernel.where = f"NT_AMDGPU_METADATA: kernel '{name}'"
        symbol = kernel.text(".symbol", _REQUIRED)
        args = [_arg_v3(_Reader(arg, f"{kernel.where} argument {position}"))
                for position, arg in enumerate(kernel.items(".args"))]
        reqd = node.get(".reqd_workgroup_size")
        kernels.append(KernelInfo(
            name, symbol, args,
            kernel.count(".kernarg_segment_size", 0), kernel.count(".kernarg_segment_align", 4),
            kernel.count(".group_segment_fixed_size", 0),
            kernel.count(".private_segment_fixed_size", 0), kernel.count(".sgpr_count", 0),
            kernel.count(".vgpr_count", 0), kernel.count(".wavefront_size", 64),
            kernel.count(".max_flat_workgroup_size", 0), version, printf,
            bool(node.get(".uses_dynamic_stack", False)), kernel.text(".language"),
            reqd if isinstance(reqd, list) else None))
    return kernels


def _arg_v3(arg: _Reader) -> KernelArg:
    size = arg.count(".size")
    return KernelArg(offset=arg.count(".offset"), size=size,
                     value_kind=arg.text(".value_kind", _REQUIRED),
                     name=arg.text(".name"), type_name=arg.text(".type_name"),
                     align=_natural_align(size),
                     address_space=arg.text(".address_space", None),
                     access=arg.text(".access", None), is_const=bool(arg.node.get(".is_const")),
                     pointee_align=arg.count(".pointee_align", 0))


def _natural_align(size: int) -> int:
    """v3 args carry no alignment: a power-of-two size up to 128 is its own, else 16 at most."""
    size = size or 1
    align = 1
    while align < size and align < 128:
        align *= 2
    return align if size & (size - 1) == 0 else min(align, 16)


def _kernels_v2(doc: dict) -> list[KernelInfo]:
    """Kernels of a schema-checked v2 document (``parse_v2_yaml`` typed every value)."""
    printf = list(doc.get("Printf", []))
    kernels = []
    for kernel in doc.get("Kernels", []):
        offset, args = 0, []
        for position, arg in enumerate(kernel.get("Args", [])):
            align = arg["Align"] or 1
            if align & (align - 1):
                raise ElfFormatError(f"NT_AMD_HSA_METADATA: kernel '{kernel['Name']}' argument "
                                     f"{position} Align {align} is not a power of two")
            offset = align_up(offset, align)
            access = arg.get("AccQual", "Default")
            args.append(KernelArg(
                offset=offset, size=arg["Size"], value_kind=_snake(arg["ValueKind"]),
                name=arg.get("Name", ""), type_name=arg.get("TypeName", ""), align=align,
                address_space=_snake(arg["AddrSpaceQual"]) if "AddrSpaceQual" in arg else None,
                access=_snake(access) if access != "Default" else None,
                is_const=arg.get("IsConst", False), pointee_align=arg.get("PointeeAlign", 0)))
            offset += arg["Size"]
        props = kernel.get("CodeProps", {})
        kernels.append(KernelInfo(
            kernel["Name"], kernel["Name"], args, props.get("KernargSegmentSize", offset),
            props.get("KernargSegmentAlign", 4), props.get("GroupSegmentFixedSize", 0),
            props.get("PrivateSegmentFixedSize", 0), props.get("NumSGPRs", 0),
            props.get("NumVGPRs", 0), props.get("WavefrontSize", 64) or 64,
            props.get("MaxFlatWorkGroupSize", 0), 2, printf,
            props.get("IsDynamicCallStack", False), kernel.get("Language", ""),
            kernel.get("Attrs", {}).get("ReqdWorkGroupSize")))
    return kernels


def is_metadata_note(note) -> bool:
    """Whether ``note`` carries kernel metadata (v2 YAML or v3+ MessagePack)."""
    return (note.owner, note.type) in ((NOTE_OWNER_AMDGPU, NT_AMDGPU_METADATA),
                                       (NOTE_OWNER_AMD, NT_AMD_HSA_METADATA))


def metadata_documents(notes) -> list[tuple[int, object]]:
    """(code object version, decoded document) for each metadata note."""
    docs = []
    for note in notes:
        if note.owner == NOTE_OWNER_AMDGPU and note.type == NT_AMDGPU_METADATA:
            doc = decode_msgpack(note.desc)
            version = doc.get("amdhsa.version", [1, 0]) if isinstance(doc, dict) else [1, 0]
            docs.append((_code_object_of_version(version), doc))
        elif note.owner == NOTE_OWNER_AMD and note.type == NT_AMD_HSA_METADATA:
            try:
                docs.append((2, parse_v2_yaml(decode_hsa_metadata_text(note.desc))))
            except MetadataError as bad:
                raise ElfFormatError(f"NT_AMD_HSA_METADATA: {bad}") from None
    return docs


def _code_object_of_version(version) -> int:
    """amdhsa.version [1, 0] -> v3, [1, 1] -> v4, [1, 2] -> v5."""
    if not (isinstance(version, list) and len(version) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                    for v in version)):
        raise ElfFormatError(f"NT_AMDGPU_METADATA: amdhsa.version is {_shown(version)}, "
                             "expected [major, minor]")
    return 3 + version[1]


def kernels_from_notes(notes) -> list[KernelInfo]:
    """Every kernel the metadata notes describe, v2 or v3+, as ``KernelInfo``.

    Every value is type-checked before use (v2 by the schema, v3+ by ``_Reader``),
    so a malformed document is one ElfFormatError naming the place; any other
    exception is a bug here and is not disguised as bad input.
    """
    kernels = []
    for version, doc in metadata_documents(notes):
        if not isinstance(doc, dict):
            raise ElfFormatError("metadata note: the document is not a map")
        kernels.extend(_kernels_v2(doc) if version == 2 else _kernels_v3(doc, version))
    return kernels

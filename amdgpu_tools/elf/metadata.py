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


# --- the runtime's view ---------------------------------------------------
@dataclass
class KernelArg:
    name: str
    type_name: str
    offset: int
    size: int
    align: int
    value_kind: str               # v3 spelling: global_buffer, by_value, hidden_...
    address_space: str | None     # global, local, constant, private, generic, region
    access: str | None = None
    is_const: bool = False

    @property
    def is_hidden(self) -> bool:
        return self.value_kind.startswith("hidden_")


@dataclass
class KernelInfo:
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
    text = camel.replace("MultiGrid", "Multigrid")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", text).lower()


def _int(node: dict, key: str, default: int) -> int:
    value = node.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key} is {value!r}, not an integer")
    return value


def _text(node: dict, key: str, default: str = "") -> str:
    value = node.get(key, default)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{key} is {value!r}, not a string")
    return value


def _kernels_v3(doc, version: int) -> list[KernelInfo]:
    printf = list(doc.get("amdhsa.printf", []))
    kernels = []
    for kernel in doc.get("amdhsa.kernels", []):
        args = [KernelArg(_text(a, ".name"), _text(a, ".type_name"), _int(a, ".offset", 0),
                          _int(a, ".size", 0), _natural_align(a), _text(a, ".value_kind"),
                          _text(a, ".address_space", None), _text(a, ".access", None),
                          bool(a.get(".is_const")))
                for a in kernel.get(".args", [])]
        kernels.append(KernelInfo(
            _text(kernel, ".name"), _text(kernel, ".symbol"), args,
            _int(kernel, ".kernarg_segment_size", 0), _int(kernel, ".kernarg_segment_align", 4),
            _int(kernel, ".group_segment_fixed_size", 0),
            _int(kernel, ".private_segment_fixed_size", 0), _int(kernel, ".sgpr_count", 0),
            _int(kernel, ".vgpr_count", 0), _int(kernel, ".wavefront_size", 64),
            _int(kernel, ".max_flat_workgroup_size", 0), version, printf,
            bool(kernel.get(".uses_dynamic_stack", False)), _text(kernel, ".language"),
            kernel.get(".reqd_workgroup_size")))
    return kernels


def _natural_align(arg: dict) -> int:
    """v3 args carry no alignment: a pointer-sized or power-of-two size, capped at 8..128."""
    size = arg.get(".size", 0) or 1
    align = 1
    while align < size and align < 128:
        align *= 2
    return align if size & (size - 1) == 0 else min(align, 16)


def _kernels_v2(doc: dict) -> list[KernelInfo]:
    printf = list(doc.get("Printf", []))
    kernels = []
    for kernel in doc.get("Kernels", []):
        offset, args = 0, []
        for arg in kernel.get("Args", []):
            align = arg.get("Align", 1) or 1
            offset = (offset + align - 1) // align * align
            args.append(KernelArg(arg.get("Name", ""), arg.get("TypeName", ""), offset,
                                  arg["Size"], align, _snake(arg["ValueKind"]),
                                  _snake(arg["AddrSpaceQual"]) if "AddrSpaceQual" in arg else None,
                                  _snake(arg["AccQual"]) if arg.get("AccQual", "Default") != "Default"
                                  else None, bool(arg.get("IsConst"))))
            offset += arg["Size"]
        props = kernel.get("CodeProps", {})
        kernels.append(KernelInfo(
            kernel["Name"], kernel["Name"], args, props.get("KernargSegmentSize", offset),
            props.get("KernargSegmentAlign", 4), props.get("GroupSegmentFixedSize", 0),
            props.get("PrivateSegmentFixedSize", 0), props.get("NumSGPRs", 0),
            props.get("NumVGPRs", 0), props.get("WavefrontSize", 64) or 64,
            props.get("MaxFlatWorkGroupSize", 0), 2, printf,
            bool(props.get("IsDynamicCallStack", False)), kernel.get("Language", ""),
            kernel.get("Attrs", {}).get("ReqdWorkGroupSize")))
    return kernels


def metadata_documents(notes) -> list[tuple[int, object]]:
    """(code object version, decoded document) for each metadata note."""
    docs = []
    for note in notes:
        if note.owner == NOTE_OWNER_AMDGPU and note.type == NT_AMDGPU_METADATA:
            doc = decode_msgpack(note.desc)
            version = doc.get("amdhsa.version", [1, 0]) if isinstance(doc, dict) else [1, 0]
            docs.append((_code_object_of_version(version), doc))
        elif note.owner == NOTE_OWNER_AMD and note.type == NT_AMD_HSA_METADATA:
            text = note.desc.rstrip(b"\0").decode("utf-8", errors="replace")
            try:
                docs.append((2, parse_v2_yaml(text)))
            except MetadataError as bad:
                raise ElfFormatError(f"NT_AMD_HSA_METADATA: {bad}") from None
    return docs


def _code_object_of_version(version) -> int:
    """amdhsa.version [1, 0] -> v3, [1, 1] -> v4, [1, 2] -> v5."""
    try:
        return 3 + int(version[1])
    except (TypeError, ValueError, IndexError):
        return 3


def kernels_from_notes(notes) -> list[KernelInfo]:
    """Every kernel the metadata notes describe, v2 or v3+, as ``KernelInfo``."""
    kernels = []
    for version, doc in metadata_documents(notes):
        if not isinstance(doc, dict):
            raise ElfFormatError("metadata note: the document is not a map")
        try:
            kernels.extend(_kernels_v2(doc) if version == 2 else _kernels_v3(doc, version))
        except (TypeError, AttributeError, KeyError, ValueError, IndexError) as bad:
            raise ElfFormatError(f"metadata note: malformed kernel description "
                                 f"({type(bad).__name__}: {bad})") from None
    return kernels

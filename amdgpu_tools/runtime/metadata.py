"""Kernel metadata of code objects v2 (YAML) and v3+ (msgpack), in one shape.

Code object v2 describes kernels in YAML (``Kernels:``, ``Args:`` with
CamelCase value kinds and no offsets, ``CodeProps:``); v3 and later in
msgpack (``amdhsa.kernels`` with ``.args`` carrying explicit offsets). The
loader and the kernarg builder only see ``KernelMetadata`` / ``ArgMetadata``
with v3 spellings (``global_buffer``, ``hidden_global_offset_x``, ...), so
every later stage has one vocabulary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import msgpack
import yaml

from ..errors import LoadError


@dataclass(frozen=True)
class ArgMetadata:
    """One kernel argument, explicit or hidden."""

    offset: int
    size: int
    value_kind: str
    name: str = ""
    type_name: str = ""
    address_space: str = ""
    pointee_align: int = 0
    align: int = 1

    @property
    def hidden(self) -> bool:
        return self.value_kind.startswith("hidden_")


@dataclass(frozen=True)
class KernelMetadata:
    """A kernel as its metadata describes it."""

    name: str
    symbol: str
    args: tuple
    kernarg_segment_size: int | None = None
    kernarg_segment_align: int | None = None
    group_segment_fixed_size: int | None = None
    private_segment_fixed_size: int | None = None
    wavefront_size: int | None = None
    sgpr_count: int | None = None
    vgpr_count: int | None = None
    max_flat_workgroup_size: int | None = None
    uses_dynamic_stack: bool = False
    language: str = ""
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ProgramMetadata:
    kernels: tuple
    printf: tuple = ()          # the raw "id:size:...:format" strings
    version: tuple = ()
    target: str = ""


def _snake(name: str) -> str:
    """``HiddenGlobalOffsetX`` -> ``hidden_global_offset_x`` (v2 -> v3 spelling)."""
    name = name.replace("MultiGrid", "Multigrid")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _align_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def _int(value, what):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise LoadError(f"malformed metadata: {what} is {value!r}, not a non-negative integer")
    return value


# ------------------------------------------------------------------- v2
def parse_v2_yaml(text: str) -> ProgramMetadata:
    """Parse the NT_AMD_HSA_METADATA YAML document of a v2 code object."""
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as failure:
        raise LoadError(f"malformed metadata: YAML does not parse: {failure}") from None
    if not isinstance(document, dict):
        raise LoadError("malformed metadata: the YAML document is not a mapping")
    kernels = document.get("Kernels", []) or []
    if not isinstance(kernels, list):
        raise LoadError("malformed metadata: 'Kernels' is not a list")
    printf = document.get("Printf", []) or []
    return ProgramMetadata(tuple(_v2_kernel(k) for k in kernels),
                           tuple(str(p) for p in printf),
                           tuple(document.get("Version", ()) or ()))


def _v2_kernel(entry) -> KernelMetadata:
    if not isinstance(entry, dict) or not isinstance(entry.get("Name"), str):
        raise LoadError("malformed metadata: a kernel entry has no 'Name'")
    name = entry["Name"]
    args, offset = [], 0
    for position, arg in enumerate(entry.get("Args", []) or []):
        if not isinstance(arg, dict):
            raise LoadError(f"malformed metadata: kernel '{name}' argument {position} "
                            "is not a mapping")
        size = _int(arg.get("Size"), f"kernel '{name}' argument {position} Size")
        align = _int(arg.get("Align", 1), f"kernel '{name}' argument {position} Align") or 1
        if align & (align - 1):
            raise LoadError(f"malformed metadata: kernel '{name}' argument {position} "
                            f"Align {align} is not a power of two")
        if not isinstance(arg.get("ValueKind"), str):
            raise LoadError(f"malformed metadata: kernel '{name}' argument {position} "
                            "has no ValueKind")
        offset = _align_up(offset, align)
        args.append(ArgMetadata(
            offset=offset, size=size, value_kind=_snake(arg["ValueKind"]),
            name=str(arg.get("Name", "")), type_name=str(arg.get("TypeName", "")),
            address_space=str(arg.get("AddrSpaceQual", "")).lower(),
            pointee_align=int(arg.get("PointeeAlign", 0) or 0), align=align))
        offset += size
    props = entry.get("CodeProps", {}) or {}
    if not isinstance(props, dict):
        raise LoadError(f"malformed metadata: kernel '{name}' CodeProps is not a mapping")
    return KernelMetadata(
        name=name, symbol=str(entry.get("SymbolName", name)), args=tuple(args),
        kernarg_segment_size=props.get("KernargSegmentSize"),
        kernarg_segment_align=props.get("KernargSegmentAlign"),
        group_segment_fixed_size=props.get("GroupSegmentFixedSize"),
        private_segment_fixed_size=props.get("PrivateSegmentFixedSize"),
        wavefront_size=props.get("WavefrontSize"),
        sgpr_count=props.get("NumSGPRs"), vgpr_count=props.get("NumVGPRs"),
        max_flat_workgroup_size=props.get("MaxFlatWorkGroupSize"),
        uses_dynamic_stack=bool(props.get("IsDynamicCallStack", False)),
        language=str(entry.get("Language", "")))


# ------------------------------------------------------------------ v3+
def parse_v3_msgpack(raw: bytes) -> ProgramMetadata:
    """Parse the NT_AMDGPU_METADATA msgpack map of a v3/v4/v5 code object."""
    try:
        document = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    except Exception as failure:  # msgpack raises several unrelated types
        raise LoadError(f"malformed metadata: msgpack does not decode: {failure}") from None
    if not isinstance(document, dict):
        raise LoadError("malformed metadata: the msgpack document is not a map")
    kernels = document.get("amdhsa.kernels")
    if not isinstance(kernels, list):
        raise LoadError("malformed metadata: 'amdhsa.kernels' is missing or not a list")
    printf = document.get("amdhsa.printf", []) or []
    return ProgramMetadata(tuple(_v3_kernel(k) for k in kernels),
                           tuple(str(p) for p in printf),
                           tuple(document.get("amdhsa.version", ()) or ()),
                           str(document.get("amdhsa.target", "")))


def _v3_kernel(entry) -> KernelMetadata:
    if not isinstance(entry, dict) or not isinstance(entry.get(".name"), str):
        raise LoadError("malformed metadata: a kernel entry has no '.name'")
    name = entry[".name"]
    if not isinstance(entry.get(".symbol"), str):
        raise LoadError(f"malformed metadata: kernel '{name}' has no '.symbol'")
    args = []
    for position, arg in enumerate(entry.get(".args", []) or []):
        if not isinstance(arg, dict) or not isinstance(arg.get(".value_kind"), str):
            raise LoadError(f"malformed metadata: kernel '{name}' argument {position} "
                            "has no '.value_kind'")
        size = _int(arg.get(".size"), f"kernel '{name}' argument {position} .size")
        offset = _int(arg.get(".offset"), f"kernel '{name}' argument {position} .offset")
        args.append(ArgMetadata(
            offset=offset, size=size, value_kind=arg[".value_kind"],
            name=str(arg.get(".name", "")), type_name=str(arg.get(".type_name", "")),
            address_space=str(arg.get(".address_space", "")),
            pointee_align=int(arg.get(".pointee_align", 0) or 0),
            align=size & -size if size else 1))
    return KernelMetadata(
        name=name, symbol=entry[".symbol"], args=tuple(args),
        kernarg_segment_size=entry.get(".kernarg_segment_size"),
        kernarg_segment_align=entry.get(".kernarg_segment_align"),
        group_segment_fixed_size=entry.get(".group_segment_fixed_size"),
        private_segment_fixed_size=entry.get(".private_segment_fixed_size"),
        wavefront_size=entry.get(".wavefront_size"),
        sgpr_count=entry.get(".sgpr_count"), vgpr_count=entry.get(".vgpr_count"),
        max_flat_workgroup_size=entry.get(".max_flat_workgroup_size"),
        uses_dynamic_stack=bool(entry.get(".uses_dynamic_stack", False)),
        language=str(entry.get(".language", "")))

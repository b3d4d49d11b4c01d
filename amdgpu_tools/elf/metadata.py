"""AMDGPU code object metadata: v2 YAML and v3+ MessagePack, and a common view.

* v3+ (``NT_AMDGPU_METADATA``): ``yaml_source_to_msgpack`` does what llvm-mc
  19 does with an ``.amdgpu_metadata`` block: every scalar is typed by its
  text alone (quotes do not matter): unsigned, then signed integer (C-style
  0x/0b/0 prefixes), then boolean (true/yes/on/y ...), then float (which
  llvm-mc writes as nil, as does an empty scalar), else string; maps are
  written with sorted keys; the document is checked against the amdhsa
  schema (required keys, value types, enumerations).
* v2 (``NT_AMD_HSA_METADATA``): ``v2_yaml_source_to_note_text`` parses the
  ``.amd_amdgpu_hsa_metadata`` YAML against llvm-mc 14's fixed schema and
  prints it back as LLVM's YAML writer does (schema order, padded keys,
  defaults omitted, ``ValueType`` dropped).
* ``kernels_from_notes`` turns either into ``KernelInfo`` records for the
  runtime; ``merge_documents`` joins the v3+ documents of several objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import msgpack
import yaml

from ..errors import ElfFormatError, ToolchainError
from .constants import (NOTE_OWNER_AMD, NOTE_OWNER_AMDGPU, NT_AMD_HSA_METADATA,
                        NT_AMDGPU_METADATA)


class MetadataError(ToolchainError):
    """Metadata text or bytes that llvm-mc or a loader would reject."""


# --- YAML reading shared by v2 and v3 -------------------------------------
class _StrictLoader(yaml.BaseLoader):
    """All scalars as text (LLVM types them itself); duplicate keys rejected."""


def _construct_mapping(loader, node, deep=False):
    result = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            line = key_node.start_mark.line + 1
            raise MetadataError(f"metadata YAML line {line}: duplicated mapping key '{key}'")
        result[key] = loader.construct_object(value_node, deep=True)
    return result


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _load_yaml(text: str):
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as bad:
        raise MetadataError(f"metadata is not valid YAML: {' '.join(str(bad).split())}") from None


# --- LLVM's scalar typing (msgpack::DocNode::fromString) ------------------
_BOOLS = {"y": True, "Y": True, "yes": True, "Yes": True, "YES": True, "on": True,
          "On": True, "ON": True, "true": True, "True": True, "TRUE": True,
          "n": False, "N": False, "no": False, "No": False, "NO": False, "off": False,
          "Off": False, "OFF": False, "false": False, "False": False, "FALSE": False}
_FLOAT = re.compile(r"^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf(inity)?|nan)$", re.IGNORECASE)


#: llvm-mc writes empty scalars and floats as msgpack nil
NIL = None


def _unsigned(text: str) -> int | None:
    """LLVM's getAsUnsignedInteger with radix auto-detection, or None."""
    radix, digits = 10, text
    lowered = text[:2].lower()
    if lowered == "0x":
        radix, digits = 16, text[2:]
    elif lowered == "0b":
        radix, digits = 2, text[2:]
    elif lowered == "0o":
        radix, digits = 8, text[2:]
    elif len(text) > 1 and text[0] == "0" and text[1].isdigit():
        radix, digits = 8, text[1:]
    if not digits or not all(c in "0123456789abcdefABCDEF"[:radix + (6 if radix == 16 else 0)]
                             for c in digits):
        return None
    value = int(digits, radix)
    return value if value < (1 << 64) else None


def type_scalar(text: str):
    """The value llvm-mc 19 gives a YAML scalar: int, bool, None (float/empty) or str."""
    if text == "":
        return NIL
    value = _unsigned(text)
    if value is not None:
        return value
    if text.startswith("-"):
        magnitude = _unsigned(text[1:])
        if magnitude is not None and magnitude <= (1 << 63):
            return -magnitude
    if text in _BOOLS:
        return _BOOLS[text]
    if _FLOAT.match(text):
        return NIL
    return text


def _type_tree(node):
    if isinstance(node, dict):
        return {_type_tree(k): _type_tree(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_type_tree(item) for item in node]
    if node is None:
        return NIL
    return type_scalar(node)


# --- v3+ schema check (llvm-mc verifies, non-strict) ----------------------
VALUE_KINDS_V3 = frozenset("""by_value global_buffer dynamic_shared_pointer sampler image pipe
queue hidden_global_offset_x hidden_global_offset_y hidden_global_offset_z hidden_none
hidden_printf_buffer hidden_hostcall_buffer hidden_default_queue hidden_completion_action
hidden_multigrid_sync_arg hidden_heap_v1 hidden_block_count_x hidden_block_count_y
hidden_block_count_z hidden_group_size_x hidden_group_size_y hidden_group_size_z
hidden_remainder_x hidden_remainder_y hidden_remainder_z hidden_grid_dims
hidden_private_base hidden_shared_base hidden_queue_ptr hidden_dynamic_lds_size""".split())
ADDRESS_SPACES_V3 = frozenset("private global constant local generic region".split())
ACCESS_V3 = frozenset("read_only write_only read_write".split())
LANGUAGES_V3 = frozenset(["OpenCL C", "OpenCL C++", "HCC", "HIP", "OpenMP", "Assembler"])

_INT, _STR, _BOOL = "integer", "string", "boolean"
_ARG_SCHEMA = {".name": _STR, ".type_name": _STR, ".size": _INT, ".offset": _INT,
               ".value_kind": VALUE_KINDS_V3, ".value_type": _STR, ".pointee_align": _INT,
               ".address_space": ADDRESS_SPACES_V3, ".access": ACCESS_V3,
               ".actual_access": ACCESS_V3, ".is_const": _BOOL, ".is_restrict": _BOOL,
               ".is_volatile": _BOOL, ".is_pipe": _BOOL}
_ARG_REQUIRED = (".size", ".offset", ".value_kind")
_KERNEL_SCHEMA = {".name": _STR, ".symbol": _STR, ".language": LANGUAGES_V3,
                  ".language_version": (_INT, 2), ".reqd_workgroup_size": (_INT, 3),
                  ".workgroup_size_hint": (_INT, 3), ".vec_type_hint": _STR,
                  ".device_enqueue_symbol": _STR, ".kernarg_segment_size": _INT,
                  ".group_segment_fixed_size": _INT, ".private_segment_fixed_size": _INT,
                  ".uses_dynamic_stack": _BOOL, ".workgroup_processor_mode": _BOOL,
                  ".kernarg_segment_align": _INT, ".wavefront_size": _INT,
                  ".sgpr_count": _INT, ".vgpr_count": _INT, ".agpr_count": _INT,
                  ".max_flat_workgroup_size": _INT, ".sgpr_spill_count": _INT,
                  ".vgpr_spill_count": _INT, ".uniform_work_group_size": _INT,
                  ".kind": _STR}
_KERNEL_REQUIRED = (".name", ".symbol", ".kernarg_segment_size", ".group_segment_fixed_size",
                    ".private_segment_fixed_size", ".kernarg_segment_align",
                    ".wavefront_size", ".sgpr_count", ".vgpr_count",
                    ".max_flat_workgroup_size")


def _check_value(value, expected, where: str) -> None:
    if expected is _INT:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif expected is _BOOL:
        ok = isinstance(value, bool)
    elif expected is _STR:
        ok = isinstance(value, str)
    elif isinstance(expected, tuple):
        kind, count = expected
        ok = isinstance(value, list) and len(value) == count and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)
    else:
        ok = isinstance(value, str) and value in expected
    if not ok:
        wanted = (f"one of {', '.join(sorted(expected))}" if isinstance(expected, frozenset)
                  else f"{expected[1]} integers" if isinstance(expected, tuple) else f"a {expected}")
        raise MetadataError(f"invalid HSA metadata: {where} is {value!r}, expected {wanted}")


def _check_map(node, schema, required, where: str) -> None:
    if not isinstance(node, dict):
        raise MetadataError(f"invalid HSA metadata: {where} must be a map")
    for key in required:
        if key not in node:
            raise MetadataError(f"invalid HSA metadata: {where} lacks required key '{key}'")
    for key, value in node.items():
        if key in schema:
            _check_value(value, schema[key], f"{where} {key}")


def verify_document(doc) -> None:
    """Raise MetadataError where llvm-mc's metadata verifier would refuse ``doc``."""
    if not isinstance(doc, dict):
        raise MetadataError("invalid HSA metadata: the document must be a map")
    if "amdhsa.version" not in doc:
        raise MetadataError("invalid HSA metadata: missing 'amdhsa.version'")
    _check_value(doc["amdhsa.version"], (_INT, 2), "amdhsa.version")
    if "amdhsa.printf" in doc:
        printf = doc["amdhsa.printf"]
        if not isinstance(printf, list) or not all(isinstance(p, str) for p in printf):
            raise MetadataError("invalid HSA metadata: amdhsa.printf must be a list of strings")
    if "amdhsa.kernels" not in doc:
        raise MetadataError("invalid HSA metadata: missing 'amdhsa.kernels'")
    kernels = doc["amdhsa.kernels"]
    if not isinstance(kernels, list):
        raise MetadataError("invalid HSA metadata: amdhsa.kernels must be a list")
    for index, kernel in enumerate(kernels):
        where = f"amdhsa.kernels[{index}]"
        _check_map(kernel, _KERNEL_SCHEMA, _KERNEL_REQUIRED, where)
        args = kernel.get(".args", [])
        if not isinstance(args, list):
            raise MetadataError(f"invalid HSA metadata: {where} .args must be a list")
        for number, arg in enumerate(args):
            _check_map(arg, _ARG_SCHEMA, _ARG_REQUIRED, f"{where} .args[{number}]")


# --- v3+ MessagePack ------------------------------------------------------
def yaml_source_to_document(text: str, verify: bool = True):
    """The typed document llvm-mc builds from ``.amdgpu_metadata`` text."""
    tree = _load_yaml(text)
    doc = _type_tree(tree if tree is not None else {})
    if verify:
        verify_document(doc)
    return doc


def _sort_key(key):
    """msgpack::DocNode ordering: by kind (int, uint, nil, bool, float, string), then value."""
    if isinstance(key, bool):
        return (3, key)
    if isinstance(key, int):
        return (0 if key < 0 else 1, key)
    if key is None:
        return (2, 0)
    if isinstance(key, str):
        return (5, key.encode())
    return (9, repr(key))


def _sorted_tree(node):
    if isinstance(node, dict):
        return {k: _sorted_tree(node[k]) for k in sorted(node, key=_sort_key)}
    if isinstance(node, list):
        return [_sorted_tree(item) for item in node]
    if isinstance(node, float):
        return None
    return node


def encode_msgpack(doc) -> bytes:
    """MessagePack bytes as llvm-mc writes them (sorted map keys, smallest ints)."""
    return msgpack.packb(_sorted_tree(doc), use_bin_type=True)


def decode_msgpack(data: bytes):
    try:
        return msgpack.unpackb(bytes(data), raw=False, strict_map_key=False)
    except Exception as bad:  # msgpack raises ValueError, TypeError, UnicodeError, ...
        raise ElfFormatError(f"NT_AMDGPU_METADATA is not valid MessagePack: {bad}") from None


def yaml_source_to_msgpack(text: str) -> bytes:
    """``.amdgpu_metadata`` YAML -> the NT_AMDGPU_METADATA descriptor bytes."""
    return encode_msgpack(yaml_source_to_document(text))


def to_yaml(doc) -> str:
    """A readable YAML rendering of a decoded document (keys as stored)."""
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=1 << 16,
                          explicit_start=True, explicit_end=True)


def merge_documents(docs):
    """One v3+ document from several objects' documents (what a link produces).

    Kernels and printf formats are concatenated; ``amdhsa.version`` and
    ``amdhsa.target`` must agree; other top-level keys keep the first value.
    """
    merged: dict = {}
    for index, doc in enumerate(docs):
        for key, value in doc.items():
            if key in ("amdhsa.kernels", "amdhsa.printf"):
                merged.setdefault(key, []).extend(value)
            elif key in ("amdhsa.version", "amdhsa.target") and key in merged:
                if merged[key] != value:
                    raise MetadataError(f"cannot merge metadata: {key} {value!r} of object "
                                        f"{index} differs from {merged[key]!r}")
            else:
                merged.setdefault(key, value)
    return merged


# --- v2 YAML schema (llvm-mc 14's HSAMD::Metadata) ------------------------
@dataclass(frozen=True)
class V2Field:
    """One key of the v2 schema: its kind, default (omitted when equal), required."""

    key: str
    kind: object                 # 'uint', 'bool', 'str', 'uints', 'strs', enum frozenset, or a V2Map
    default: object = None
    required: bool = False
    emitted: bool = True


@dataclass(frozen=True)
class V2Map:
    name: str
    fields: tuple
    #: emitted even when every field is at its default (CodeProps is)
    always: bool = False


V2_ACCESS = ("Default", "ReadOnly", "WriteOnly", "ReadWrite")
V2_ADDRESS_SPACES = ("Private", "Global", "Constant", "Local", "Generic", "Region")
V2_VALUE_KINDS = ("ByValue", "GlobalBuffer", "DynamicSharedPointer", "Sampler", "Image", "Pipe",
                  "Queue", "HiddenGlobalOffsetX", "HiddenGlobalOffsetY", "HiddenGlobalOffsetZ",
                  "HiddenNone", "HiddenPrintfBuffer", "HiddenHostcallBuffer",
                  "HiddenDefaultQueue", "HiddenCompletionAction", "HiddenMultiGridSyncArg")
V2_VALUE_TYPES = ("Struct", "I8", "U8", "I16", "U16", "F16", "I32", "U32", "F32", "I64",
                  "U64", "F64")

V2_ATTRS = V2Map("Attrs", (
    V2Field("ReqdWorkGroupSize", "uints", []),
    V2Field("WorkGroupSizeHint", "uints", []),
    V2Field("VecTypeHint", "str", ""),
    V2Field("RuntimeHandle", "str", ""),
))
V2_ARG = V2Map("Args", (
    V2Field("Name", "str", ""),
    V2Field("TypeName", "str", ""),
    V2Field("Size", "uint", required=True),
    V2Field("Align", "uint", required=True),
    V2Field("ValueKind", frozenset(V2_VALUE_KINDS), required=True),
    V2Field("ValueType", frozenset(V2_VALUE_TYPES), emitted=False),
    V2Field("PointeeAlign", "uint", 0),
    V2Field("AddrSpaceQual", frozenset(V2_ADDRESS_SPACES), None),
    V2Field("AccQual", frozenset(V2_ACCESS), None),
    V2Field("ActualAccQual", frozenset(V2_ACCESS), None),
    V2Field("IsConst", "bool", False),
    V2Field("IsRestrict", "bool", False),
    V2Field("IsVolatile", "bool", False),
    V2Field("IsPipe", "bool", False),
))
V2_CODE_PROPS = V2Map("CodeProps", (
    V2Field("KernargSegmentSize", "uint", 0, required=True),
    V2Field("GroupSegmentFixedSize", "uint", 0, required=True),
    V2Field("PrivateSegmentFixedSize", "uint", 0, required=True),
    V2Field("KernargSegmentAlign", "uint", 0, required=True),
    V2Field("WavefrontSize", "uint", 0, required=True),
    V2Field("NumSGPRs", "uint", 0),
    V2Field("NumVGPRs", "uint", 0),
    V2Field("MaxFlatWorkGroupSize", "uint", 0),
    V2Field("IsDynamicCallStack", "bool", False),
    V2Field("IsXNACKEnabled", "bool", False),
    V2Field("NumSpilledSGPRs", "uint", 0),
    V2Field("NumSpilledVGPRs", "uint", 0),
), always=True)
V2_DEBUG_PROPS = V2Map("DebugProps", (
    V2Field("DebuggerABIVersion", "uints", []),
    V2Field("ReservedNumVGPRs", "uint", 0),
    V2Field("ReservedFirstVGPR", "uint", 0xFFFF),
    V2Field("PrivateSegmentBufferSGPR", "uint", 0xFFFF),
    V2Field("WavefrontPrivateSegmentOffsetSGPR", "uint", 0xFFFF),
))
V2_KERNEL = V2Map("Kernels", (
    V2Field("Name", "str", required=True),
    V2Field("SymbolName", "str", required=True),
    V2Field("Language", "str", ""),
    V2Field("LanguageVersion", "uints", []),
    V2Field("Attrs", V2_ATTRS),
    V2Field("Args", ("list", V2_ARG), []),
    V2Field("CodeProps", V2_CODE_PROPS),
    V2Field("DebugProps", V2_DEBUG_PROPS),
))
V2_METADATA = V2Map("Metadata", (
    V2Field("Version", "uints", required=True),
    V2Field("Printf", "strs", []),
    V2Field("Kernels", ("list", V2_KERNEL), []),
))


def _v2_scalar(value, kind, where):
    if not isinstance(value, str):
        raise MetadataError(f"invalid v2 metadata: {where} must be a scalar")
    if kind == "uint":
        number = _unsigned(value)
        if number is None:
            raise MetadataError(f"invalid v2 metadata: {where} is '{value}', expected an "
                                "unsigned integer")
        return number
    if kind == "bool":
        if value not in _BOOLS:
            raise MetadataError(f"invalid v2 metadata: {where} is '{value}', expected a boolean")
        return _BOOLS[value]
    if isinstance(kind, frozenset):
        if value not in kind:
            raise MetadataError(f"invalid v2 metadata: {where} is '{value}', expected one of "
                                f"{', '.join(sorted(kind))}")
        return value
    return value


def _v2_parse(node, kind, where):
    if isinstance(kind, V2Map):
        return _v2_parse_map(node, kind, where)
    if isinstance(kind, tuple):
        if not isinstance(node, list):
            raise MetadataError(f"invalid v2 metadata: {where} must be a sequence")
        return [_v2_parse(item, kind[1], f"{where}[{i}]") for i, item in enumerate(node)]
    if kind in ("uints", "strs"):
        if not isinstance(node, list):
            raise MetadataError(f"invalid v2 metadata: {where} must be a sequence")
        return [_v2_scalar(item, kind[:-1] if kind == "uints" else "str", f"{where}[{i}]")
                for i, item in enumerate(node)]
    return _v2_scalar(node, kind, where)


def _v2_parse_map(node, schema: V2Map, where):
    if node is None:
        node = {}
    if not isinstance(node, dict):
        raise MetadataError(f"invalid v2 metadata: {where} must be a map")
    known = {f.key: f for f in schema.fields}
    for key in node:
        if key not in known:
            raise MetadataError(f"invalid v2 metadata: unknown key '{key}' in {where}")
    result = {}
    for spec in schema.fields:
        if spec.key in node:
            result[spec.key] = _v2_parse(node[spec.key], spec.kind, f"{where}.{spec.key}")
        elif spec.required:
            raise MetadataError(f"invalid v2 metadata: {where} lacks required key '{spec.key}'")
    return result


def parse_v2_yaml(text: str) -> dict:
    """A v2 metadata document (schema-checked, values typed) from YAML text."""
    return _v2_parse_map(_load_yaml(text), V2_METADATA, "metadata")


# LLVM's YAML writer: quoting and layout
_SAFE = set("_-^., \t")


def _llvm_needs_quotes(text: str) -> str | None:
    if text == "":
        return "'"
    quote = None
    if text[0].isspace() or text[-1].isspace():
        quote = "'"
    if text in ("null", "Null", "NULL", "~") or text in ("true", "True", "TRUE", "false",
                                                        "False", "FALSE"):
        quote = "'"
    if _looks_numeric(text):
        quote = "'"
    if text[0] in "-?:\\,[]{}#&*!|>'\"%@`":
        quote = "'"
    for char in text:
        code = ord(char)
        if char.isascii() and char.isalnum() or char in _SAFE:
            continue
        if char in "\n\r":
            quote = "'"
            continue
        if code == 0x7F or code <= 0x1F or code >= 0x80:
            return '"'
        quote = "'"
    return quote


def _looks_numeric(text: str) -> bool:
    if re.fullmatch(r"[-+]?(\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN", text):
        return True
    if re.fullmatch(r"0o[0-7]+|0x[0-9a-fA-F]+", text):
        return True
    return bool(re.fullmatch(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?", text))


def _llvm_scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    quote = _llvm_needs_quotes(value)
    if quote == "'":
        return "'" + value.replace("'", "''") + "'"
    if quote == '"':
        return '"' + value.encode("unicode_escape").decode().replace('"', '\\"') + '"'
    return value


def _padded(key: str) -> str:
    return f"{key}:" + " " * max(1, 16 - len(key))


def emit_v2_yaml(doc: dict) -> str:
    """The YAML llvm-mc 14 writes for a parsed v2 document."""
    body = _v2_emit_block(doc, V2_METADATA, "")
    return "---\n" + "".join(line + "\n" for line in body) + "...\n"


def _v2_emit_block(values: dict, schema: V2Map, indent: str) -> list[str]:
    lines = []
    for spec in schema.fields:
        if not spec.emitted or spec.key not in values and not (
                isinstance(spec.kind, V2Map) and spec.kind.always or spec.required):
            continue
        value = values.get(spec.key, {} if isinstance(spec.kind, V2Map) else spec.default)
        if isinstance(spec.kind, V2Map):
            if not spec.kind.always and _v2_map_is_default(value, spec.kind):
                continue
            lines.append(f"{indent}{spec.key}:")
            lines.extend(_v2_emit_block(value, spec.kind, indent + "  "))
        elif isinstance(spec.kind, tuple):
            if not value:
                continue
            lines.append(f"{indent}{spec.key}:")
            for item in value:
                item_lines = _v2_emit_block(item, spec.kind[1], indent + "    ")
                first = item_lines[0][len(indent) + 4:]
                lines.append(f"{indent}  - {first}")
                lines.extend(item_lines[1:])
        elif not spec.required and value == spec.default:
            continue
        elif spec.kind == "uints":
            lines.append(f"{indent}{_padded(spec.key)}[ {', '.join(str(v) for v in value)} ]")
        elif spec.kind == "strs":
            lines.append(f"{indent}{spec.key}:")
            lines.extend(f"{indent}  - {_llvm_scalar(item)}" for item in value)
        else:
            lines.append(f"{indent}{_padded(spec.key)}{_llvm_scalar(value)}")
    return lines


def _v2_map_is_default(values: dict, schema: V2Map) -> bool:
    return all(spec.key not in values or values[spec.key] == spec.default
               or not spec.emitted for spec in schema.fields)


def v2_yaml_source_to_note_text(text: str) -> str:
    """``.amd_amdgpu_hsa_metadata`` YAML -> the text llvm-mc 14 puts in the note."""
    return emit_v2_yaml(parse_v2_yaml(text))


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

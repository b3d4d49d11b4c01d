"""Code object v2 metadata (NT_AMD_HSA_METADATA): llvm-mc 14's YAML schema.

``v2_yaml_source_to_note_text`` parses ``.amd_amdgpu_hsa_metadata`` YAML
against LLVM's fixed HSAMD schema (unknown keys and missing required keys
are errors) and prints it back as LLVM's YAML writer does: schema order,
keys padded to 16 columns, defaults omitted, ``ValueType`` dropped,
CodeProps always present. The schema is data (``V2_*``), read by both the
parser and the printer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .metadata_yaml import BOOLS, MetadataError, load_yaml, parse_unsigned


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
        number = parse_unsigned(value)
        if number is None:
            raise MetadataError(f"invalid v2 metadata: {where} is '{value}', expected an "
                                "unsigned integer")
        return number
    if kind == "bool":
        if value not in BOOLS:
            raise MetadataError(f"invalid v2 metadata: {where} is '{value}', expected a boolean")
        return BOOLS[value]
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
    return _v2_parse_map(load_yaml(text), V2_METADATA, "metadata")


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
        return '"' + "".join(_double_quoted_char(c) for c in value) + '"'
    return value


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\0": "\\0", "\a": "\\a", "\b": "\\b", "\t": "\\t",
            "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r", "\x1b": "\\e",
            "\x85": "\\N", "\xa0": "\\_", "\u2028": "\\L", "\u2029": "\\P"}


def _double_quoted_char(char: str) -> str:
    """LLVM's yaml::escape with printable characters (UTF-8 included) kept as they are."""
    if char in _ESCAPES:
        return _ESCAPES[char]
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return f"\\x{ord(char):02X}"
    return char


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

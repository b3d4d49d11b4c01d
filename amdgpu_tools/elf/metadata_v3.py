"""Code object v3+ metadata (NT_AMDGPU_METADATA): YAML source -> MessagePack.

``yaml_source_to_msgpack`` does what llvm-mc 19 does with an
``.amdgpu_metadata`` block: every scalar is typed by its text alone (quotes
do not matter): unsigned, then signed integer (C-style 0x/0b/0 prefixes),
then boolean (true/yes/on/y ...), then float (which llvm-mc writes as nil,
as it does an empty scalar), else string; maps are written with sorted keys;
the document is checked against the amdhsa schema (required keys, value
types, enumerations). ``merge_documents`` joins several objects' documents.
"""

from __future__ import annotations

import re

import msgpack
import yaml

from ..errors import ElfFormatError
from .metadata_yaml import BOOLS, MetadataError, load_yaml, parse_unsigned


# --- LLVM's scalar typing (msgpack::DocNode::fromString) ------------------
_FLOAT = re.compile(r"^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf(inity)?|nan)$", re.IGNORECASE)


#: llvm-mc writes empty scalars and floats as msgpack nil
NIL = None


def type_scalar(text: str):
    """The value llvm-mc 19 gives a YAML scalar: int, bool, None (float/empty) or str."""
    if text == "":
        return NIL
    value = parse_unsigned(text)
    if value is not None:
        return value
    if text.startswith("-"):
        magnitude = parse_unsigned(text[1:])
        if magnitude is not None and magnitude <= (1 << 63):
            return -magnitude
    if text in BOOLS:
        return BOOLS[text]
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
    tree = load_yaml(text)
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


#: What msgpack raises for damaged bytes: truncation (OutOfData), trailing or
#: malformed data and bad UTF-8 (ValueError subclasses), unhashable map keys
#: (TypeError). Anything else is a bug and must not be reported as bad input.
MSGPACK_ERRORS = (msgpack.UnpackException, ValueError, TypeError)


def not_msgpack(bad: Exception) -> ElfFormatError:
    """The error for a metadata note whose bytes msgpack cannot decode."""
    return ElfFormatError(f"NT_AMDGPU_METADATA is not valid MessagePack: {bad}")


def decode_msgpack(data: bytes):
    try:
        return msgpack.unpackb(bytes(data), raw=False, strict_map_key=False)
    except MSGPACK_ERRORS as bad:
        raise not_msgpack(bad) from None


def yaml_source_to_msgpack(text: str) -> bytes:
    """``.amdgpu_metadata`` YAML -> the NT_AMDGPU_METADATA descriptor bytes."""
    return encode_msgpack(yaml_source_to_document(text))


def to_yaml(doc) -> str:
    """A readable YAML rendering of a decoded document (keys as stored)."""
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=False, width=1 << 16,
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

"""YAML reading shared by the v2 and v3+ metadata: LLVM's view of scalars.

llvm-mc reads metadata YAML with its own parser: duplicate keys are errors
and scalars are typed by LLVM's rules, not YAML 1.1's, so the text is loaded
with every scalar kept as a string and typed afterwards.
"""

from __future__ import annotations

import yaml

from ..errors import ToolchainError


class MetadataError(ToolchainError):
    """Metadata text or bytes that llvm-mc or a loader would reject."""


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


def load_yaml(text: str):
    """The YAML tree with every scalar a string; bad YAML is one MetadataError line."""
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as bad:
        raise MetadataError(f"metadata is not valid YAML: {' '.join(str(bad).split())}") from None


#: The spellings LLVM's YAML reader (llvm::yaml::parseBool) takes as booleans.
BOOLS = {"y": True, "Y": True, "yes": True, "Yes": True, "YES": True, "on": True,
         "On": True, "ON": True, "true": True, "True": True, "TRUE": True,
         "n": False, "N": False, "no": False, "No": False, "NO": False, "off": False,
         "Off": False, "OFF": False, "false": False, "False": False, "FALSE": False}


def parse_unsigned(text: str) -> int | None:
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

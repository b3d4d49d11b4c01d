"""The value size and kind of a table operand (``{"type": "f16", "width": 1}``), shared by
the table family, its encoder and its form chooser."""

import re
from functools import lru_cache

_TYPE_SIZE = {"16": 16, "32": 32, "64": 64}


def type_size(spec):
    """Bit size of an operand's value: from its type ('f16', 'b64') or its width."""
    return _type_size(spec.get("type"), spec.get("width", 1))


@lru_cache(maxsize=None)
def _type_size(vtype, width):
    if vtype:
        digits = re.match(r"[a-z]+(\d+)", vtype)  # 'f16x2' (packed) has 16-bit elements
        if digits and digits.group(1) in _TYPE_SIZE:
            return _TYPE_SIZE[digits.group(1)]
    return 64 if width == 2 else 32


def is_float_type(spec):
    vtype = spec.get("type") or ""
    return vtype.startswith("f")

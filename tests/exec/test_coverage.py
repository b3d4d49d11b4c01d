"""Every op in the ISA tables, on every generation, either has executor
semantics or is explicitly listed as unsupported (with a reason)."""

import pytest

from amdgpu_tools.exec import semantics  # noqa: F401  (registers everything)
from amdgpu_tools.exec.core.program import semantic_for
from amdgpu_tools.exec.core.registry import UNSUPPORTED
from amdgpu_tools.isa.families import families
from amdgpu_tools.isa.targets import get_target


class _Op:
    def __init__(self, name, encoding):
        self.op = name
        self.encoding = encoding


@pytest.mark.parametrize("target", ["gfx600", "gfx700", "gfx803", "gfx900", "gfx906"])
def test_every_table_op_has_semantics_or_is_unsupported(target):
    target = get_target(target)
    missing = set()
    for family in families():
        for info in family.instructions(target):
            op = _Op(info.name, info.encoding)
            if semantic_for(op, target.generation) is None and \
                    info.name not in UNSUPPORTED and info.encoding not in UNSUPPORTED:
                missing.add(f"{info.name} ({info.encoding})")
    assert not missing, sorted(missing)


def test_graphics_encodings_are_rejected_with_a_reason():
    for encoding in ("EXP", "VINTRP", "MIMG"):
        assert "graphics" in UNSUPPORTED[encoding]

"""Every memory instruction of the ISA tables has semantics or is deliberately rejected."""

import json
from importlib import resources

import pytest

from amdgpu_tools.exec import semantics  # noqa: F401  (registers everything)
from amdgpu_tools.exec.core.registry import SEMANTICS, UNSUPPORTED

MEMORY_TABLES = ("ds.json", "buffer.json", "flat.json", "smem.json")


def table_names(filename):
    data = resources.files("amdgpu_tools.isa.data").joinpath(filename)
    if not data.is_file():
        pytest.skip(f"the ISA package has no {filename} yet")
    document = json.loads(data.read_text())
    rows = document["ops"]
    return sorted({row["name"] for row in rows})


@pytest.mark.parametrize("filename", MEMORY_TABLES)
def test_every_memory_op_is_handled(filename):
    names = table_names(filename)
    assert names, f"{filename} lists no instructions"
    missing = [name for name in names if name not in SEMANTICS and name not in UNSUPPORTED]
    assert missing == []

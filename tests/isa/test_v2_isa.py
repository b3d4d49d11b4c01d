"""Code object v2's ISA names for xnack (gfx900 with xnack is "gfx901", ISA 9.0.1),
as clang-14 writes them in .hsa_code_object_isa / .amd_amdgpu_isa (recorded here
from `clang-14 -mcode-object-version=2 -S` for each processor and setting)."""

import pytest

from amdgpu_tools.errors import TargetError
from amdgpu_tools.isa.targets import get_target, target_by_v2_isa_version, v2_isa


@pytest.mark.parametrize("processor, xnack, name, version", [
    ("gfx801", None, "gfx801", (8, 0, 1)), ("gfx801", True, "gfx801", (8, 0, 1)),
    ("gfx810", None, "gfx810", (8, 1, 0)),
    ("gfx900", None, "gfx901", (9, 0, 1)), ("gfx900", True, "gfx901", (9, 0, 1)),
    ("gfx900", False, "gfx900", (9, 0, 0)),
    ("gfx902", None, "gfx903", (9, 0, 3)), ("gfx902", False, "gfx902", (9, 0, 2)),
    ("gfx904", None, "gfx905", (9, 0, 5)), ("gfx904", False, "gfx904", (9, 0, 4)),
    ("gfx906", None, "gfx907", (9, 0, 7)), ("gfx906", False, "gfx906", (9, 0, 6)),
    ("gfx90c", False, "gfx90c", (9, 0, 12)),
    ("gfx803", None, "gfx803", (8, 0, 3)), ("gfx700", None, "gfx700", (7, 0, 0)),
])
def test_v2_isa_names(processor, xnack, name, version):
    assert v2_isa(processor, xnack) == (name, version)


@pytest.mark.parametrize("processor, xnack, message", [
    ("gfx801", False, "does not support processor gfx801 without XNACK"),
    ("gfx810", False, "does not support processor gfx810 without XNACK"),
    ("gfx909", None, "does not support processor gfx909"),
    ("gfx90c", None, "gfx90c with XNACK being ON or ANY"),
    ("gfx90c", True, "gfx90c with XNACK being ON or ANY"),
])
def test_combinations_v2_cannot_express(processor, xnack, message):
    with pytest.raises(TargetError) as failure:
        v2_isa(processor, xnack)
    assert message in str(failure.value)


@pytest.mark.parametrize("version, processor", [
    ((9, 0, 1), "gfx900"), ((9, 0, 0), "gfx900"), ((9, 0, 7), "gfx906"),
    ((9, 0, 5), "gfx904"), ((8, 0, 3), "gfx803"), ((7, 0, 1), "gfx701"),
])
def test_processor_of_a_v2_isa_version(version, processor):
    assert target_by_v2_isa_version(version) is get_target(processor)


def test_unknown_v2_isa_version():
    assert target_by_v2_isa_version((9, 0, 8)) is None

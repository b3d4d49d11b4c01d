"""Checking that all inputs describe one target, and the output's e_flags.

Objects for different processors, or written for different code object
versions, cannot share one code object: the loader checks one e_flags and
one EI_ABIVERSION. From v4 on, xnack and sramecc are two-bit settings where
"any" combines with a specific setting (the specific one wins) and "on"
with "off" is a conflict, as in ld.lld; before v4 e_flags must be equal.
"""

from __future__ import annotations

from ..elf import constants as C
from ..errors import LinkError

_FEATURES = (("xnack", C.EF_AMDGPU_FEATURE_XNACK_V4), ("sramecc", C.EF_AMDGPU_FEATURE_SRAMECC_V4))


def merged_identity(objects) -> tuple[int, int, int]:
    """(OS/ABI, ABI version, e_flags) for the output, or a LinkError.

    OS/ABI and ABI version come from the first object, as in ld.lld (v2
    objects from llvm-mc say ELFOSABI_NONE, from clang ELFOSABI_AMDGPU_HSA).
    """
    first = objects[0]
    flags = first.flags
    for obj in objects[1:]:
        if obj.code_object_version != first.code_object_version:
            raise LinkError(f"code object version mismatch: {first.name} is code object "
                            f"v{first.code_object_version} but {obj.name} is code object "
                            f"v{obj.code_object_version}")
        if obj.flags & C.EF_AMDGPU_MACH != first.flags & C.EF_AMDGPU_MACH:
            raise LinkError(f"target mismatch: {first.name} is for {first.processor} but "
                            f"{obj.name} is for {obj.processor}")
        flags = _combine(flags, obj, first)
    return first.osabi, first.abi_version, flags


def _combine(flags: int, obj, first) -> int:
    if first.code_object_version < 4:
        if obj.flags != flags:
            raise LinkError(f"incompatible e_flags: {first.name} has 0x{flags:x} but "
                            f"{obj.name} has 0x{obj.flags:x}")
        return flags
    for feature, mask in _FEATURES:
        mine, theirs = flags & mask, obj.flags & mask
        if mine == theirs:
            continue
        any_setting = mask & -mask  # the field's value 1: "any"
        if mine == any_setting:
            flags = (flags & ~mask) | theirs
        elif theirs != any_setting:
            raise LinkError(f"incompatible {feature} settings: {first.name} has "
                            f"{_setting(mine, mask)} but {obj.name} has {_setting(theirs, mask)}")
    rest = ~(C.EF_AMDGPU_FEATURE_XNACK_V4 | C.EF_AMDGPU_FEATURE_SRAMECC_V4)
    if (flags & rest) != (obj.flags & rest):
        raise LinkError(f"incompatible e_flags: {first.name} has 0x{flags:x} but "
                        f"{obj.name} has 0x{obj.flags:x}")
    return flags


def _setting(value: int, mask: int) -> str:
    low_bit = mask & -mask
    return C.V4_FEATURE_SETTING[value // low_bit]

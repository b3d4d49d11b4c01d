"""The code object v2 kernel header ``amd_kernel_code_t`` (256 bytes).

Keys are the ``.amd_kernel_code_t`` names llvm-mc 14 parses and prints (with
their ``compute_pgm_rsrc*`` / ``kernel_code_version_*`` aliases); defaults
are LLVM's (version 1.2, machine kind 1, entry offset 256, alignments 2^4,
wavefront size 2^6, call convention -1). llvm-mc silently truncates a value
too wide for its field; ``set`` rejects it instead, naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ElfFormatError, ToolchainError
from .bitfields import (AKC_CODE_PROPERTIES, EXCEPTION, EXCEPTION_MSB, FLOAT_MODE, RSRC1, RSRC2,
                        SGPR_GRANULE, VGPR_GRANULE, BitField)
from .structs import Struct

AMD_KERNEL_CODE_T_SIZE = 256

AmdKernelCodeLayout = Struct("amd_kernel_code_t", [
    ("amd_kernel_code_version_major", "I"),
    ("amd_kernel_code_version_minor", "I"),
    ("amd_machine_kind", "H"),
    ("amd_machine_version_major", "H"),
    ("amd_machine_version_minor", "H"),
    ("amd_machine_version_stepping", "H"),
    ("kernel_code_entry_byte_offset", "q"),
    ("kernel_code_prefetch_byte_offset", "q"),
    ("kernel_code_prefetch_byte_size", "Q"),
    ("reserved0", "Q"),
    ("compute_pgm_rsrc1", "I"),
    ("compute_pgm_rsrc2", "I"),
    ("code_properties", "I"),
    ("workitem_private_segment_byte_size", "I"),
    ("workgroup_group_segment_byte_size", "I"),
    ("gds_segment_byte_size", "I"),
    ("kernarg_segment_byte_size", "Q"),
    ("workgroup_fbarrier_count", "I"),
    ("wavefront_sgpr_count", "H"),
    ("workitem_vgpr_count", "H"),
    ("reserved_vgpr_first", "H"),
    ("reserved_vgpr_count", "H"),
    ("reserved_sgpr_first", "H"),
    ("reserved_sgpr_count", "H"),
    ("debug_wavefront_private_segment_offset_sgpr", "H"),
    ("debug_private_segment_buffer_sgpr", "H"),
    ("kernarg_segment_alignment", "B"),
    ("group_segment_alignment", "B"),
    ("private_segment_alignment", "B"),
    ("wavefront_size", "B"),
    ("call_convention", "i"),
    ("reserved3", "12s"),
    ("runtime_loader_kernel_symbol", "Q"),
    ("control_directives", "128s"),
])
assert AmdKernelCodeLayout.size == AMD_KERNEL_CODE_T_SIZE

_WIDTH = {"B": 8, "H": 16, "I": 32, "Q": 64, "q": 64, "i": 32}


@dataclass(frozen=True)
class Key:
    """One ``.amd_kernel_code_t`` key: the struct field or the bit field it sets."""

    name: str
    alias: str
    word: str                      # struct field holding the value
    bits: BitField | None = None   # None: the whole field

    @property
    def signed(self) -> bool:
        return self.bits is None and _format(self.word) in ("q", "i")

    @property
    def width(self) -> int:
        return self.bits.width if self.bits else _WIDTH[_format(self.word)]


def _format(field: str) -> str:
    return dict(AmdKernelCodeLayout.fields)[field]


def _field(name, alias=None, word=None):
    return Key(name, alias or name, word or name)


def _rsrc1(name, alias, bits=None):
    return Key(name, alias, "compute_pgm_rsrc1", bits or RSRC1[name])


def _rsrc2(name, alias, bits=None):
    return Key(name, alias, "compute_pgm_rsrc2", bits or RSRC2[name])


def _prop(name):
    return Key(name, name, "code_properties", AKC_CODE_PROPERTIES[name])


#: Every key, in the order llvm-mc prints them.
KEYS = [
    _field("amd_code_version_major", "kernel_code_version_major", "amd_kernel_code_version_major"),
    _field("amd_code_version_minor", "kernel_code_version_minor", "amd_kernel_code_version_minor"),
    _field("amd_machine_kind", "machine_kind"),
    _field("amd_machine_version_major", "machine_version_major"),
    _field("amd_machine_version_minor", "machine_version_minor"),
    _field("amd_machine_version_stepping", "machine_version_stepping"),
    _field("kernel_code_entry_byte_offset"),
    _field("kernel_code_prefetch_byte_size"),
    _rsrc1("granulated_workitem_vgpr_count", "compute_pgm_rsrc1_vgprs"),
    _rsrc1("granulated_wavefront_sgpr_count", "compute_pgm_rsrc1_sgprs"),
    _rsrc1("priority", "compute_pgm_rsrc1_priority"),
    _rsrc1("float_mode", "compute_pgm_rsrc1_float_mode", FLOAT_MODE),
    _rsrc1("priv", "compute_pgm_rsrc1_priv"),
    _rsrc1("enable_dx10_clamp", "compute_pgm_rsrc1_dx10_clamp"),
    _rsrc1("debug_mode", "compute_pgm_rsrc1_debug_mode"),
    _rsrc1("enable_ieee_mode", "compute_pgm_rsrc1_ieee_mode"),
    _rsrc1("enable_wgp_mode", "compute_pgm_rsrc1_wgp_mode"),
    _rsrc1("enable_mem_ordered", "compute_pgm_rsrc1_mem_ordered"),
    _rsrc1("enable_fwd_progress", "compute_pgm_rsrc1_fwd_progress"),
    _rsrc2("enable_sgpr_private_segment_wave_byte_offset", "compute_pgm_rsrc2_scratch_en",
           RSRC2["enable_private_segment"]),
    _rsrc2("user_sgpr_count", "compute_pgm_rsrc2_user_sgpr"),
    _rsrc2("enable_trap_handler", "compute_pgm_rsrc2_trap_handler"),
    _rsrc2("enable_sgpr_workgroup_id_x", "compute_pgm_rsrc2_tgid_x_en"),
    _rsrc2("enable_sgpr_workgroup_id_y", "compute_pgm_rsrc2_tgid_y_en"),
    _rsrc2("enable_sgpr_workgroup_id_z", "compute_pgm_rsrc2_tgid_z_en"),
    _rsrc2("enable_sgpr_workgroup_info", "compute_pgm_rsrc2_tg_size_en"),
    _rsrc2("enable_vgpr_workitem_id", "compute_pgm_rsrc2_tidig_comp_cnt"),
    _rsrc2("enable_exception_msb", "compute_pgm_rsrc2_excp_en_msb", EXCEPTION_MSB),
    _rsrc2("granulated_lds_size", "compute_pgm_rsrc2_lds_size"),
    _rsrc2("enable_exception", "compute_pgm_rsrc2_excp_en", EXCEPTION),
    *[_prop(name) for name in AKC_CODE_PROPERTIES],
    _field("workitem_private_segment_byte_size"),
    _field("workgroup_group_segment_byte_size"),
    _field("gds_segment_byte_size"),
    _field("kernarg_segment_byte_size"),
    _field("workgroup_fbarrier_count"),
    _field("wavefront_sgpr_count"),
    _field("workitem_vgpr_count"),
    _field("reserved_vgpr_first"),
    _field("reserved_vgpr_count"),
    _field("reserved_sgpr_first"),
    _field("reserved_sgpr_count"),
    _field("debug_wavefront_private_segment_offset_sgpr"),
    _field("debug_private_segment_buffer_sgpr"),
    _field("kernarg_segment_alignment"),
    _field("group_segment_alignment"),
    _field("private_segment_alignment"),
    _field("wavefront_size"),
    _field("call_convention"),
    _field("runtime_loader_kernel_symbol"),
]
_GFX10_ONLY_FLAGS = ("enable_wavefront_size32", "enable_wgp_mode", "enable_mem_ordered",
                     "enable_fwd_progress")
KEY_BY_NAME = {key.name: key for key in KEYS} | {key.alias: key for key in KEYS}


class KernelCodeError(ToolchainError):
    """A bad ``.amd_kernel_code_t`` key or value; ``key`` names it."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(message)


class AmdKernelCodeT:
    """An amd_kernel_code_t: raw struct fields, read and written by key."""

    def __init__(self, fields: dict | None = None, target=None):
        self.target = target
        self.fields = AmdKernelCodeLayout.complete(fields or {})

    @classmethod
    def defaults(cls, target) -> "AmdKernelCodeT":
        """LLVM's initial header for ``target`` (a Target or processor name)."""
        from ..isa.targets import get_target
        target = get_target(target)
        major, minor, stepping = target.isa_version
        return cls({"amd_kernel_code_version_major": 1, "amd_kernel_code_version_minor": 2,
                    "amd_machine_kind": 1, "amd_machine_version_major": major,
                    "amd_machine_version_minor": minor, "amd_machine_version_stepping": stepping,
                    "kernel_code_entry_byte_offset": AMD_KERNEL_CODE_T_SIZE,
                    "kernarg_segment_alignment": 4, "group_segment_alignment": 4,
                    "private_segment_alignment": 4, "wavefront_size": 6,
                    "call_convention": -1}, target)

    @classmethod
    def from_bytes(cls, data: bytes) -> "AmdKernelCodeT":
        if len(data) < AMD_KERNEL_CODE_T_SIZE:
            raise ElfFormatError(f"amd_kernel_code_t needs {AMD_KERNEL_CODE_T_SIZE} bytes, "
                                 f"got {len(data)}")
        return cls(AmdKernelCodeLayout.unpack(bytes(data[:AMD_KERNEL_CODE_T_SIZE])))

    def to_bytes(self) -> bytes:
        return AmdKernelCodeLayout.pack(**self.fields)

    def set(self, key: str, value: int) -> None:
        """Set one key (name or alias) as a ``key = value`` line does."""
        info = KEY_BY_NAME.get(key)
        if info is None:
            raise KernelCodeError(key, f"unexpected amd_kernel_code_t field name {key}")
        value = int(value)
        low = -(1 << (info.width - 1)) if info.signed else 0
        high = (1 << (info.width - 1)) - 1 if info.signed else (1 << info.width) - 1
        if not low <= value <= high:
            raise KernelCodeError(key, f"amd_kernel_code_t field {key}: value {value} does "
                                  f"not fit in {info.width} bits")
        if info.bits is None:
            self.fields[info.word] = value
        else:
            self.fields[info.word] = info.bits.put(self.fields[info.word], value)
        self._check_generation(key, info.name, value)

    def _check_generation(self, key: str, name: str, value: int) -> None:
        """llvm-mc's checks: wave32 and the WGP/ordering bits need GFX10+."""
        generation = self.target.generation if self.target is not None else 9
        if generation >= 10:
            return
        if name in _GFX10_ONLY_FLAGS and value:
            raise KernelCodeError(key, f"{name}=1 is only allowed on GFX10+")
        if name == "wavefront_size" and value == 5:
            raise KernelCodeError(key, "wavefront_size=5 is only allowed on GFX10+")

    def get(self, key: str) -> int:
        info = KEY_BY_NAME.get(key)
        if info is None:
            raise KernelCodeError(key, f"unexpected amd_kernel_code_t field name {key}")
        word = self.fields[info.word]
        return word if info.bits is None else info.bits.get(word)

    def describe(self) -> list[tuple[str, int]]:
        """(key, value) for every key, in llvm-mc's printing order."""
        return [(key.name, self.get(key.name)) for key in KEYS]

    @property
    def vgpr_count(self) -> int:
        """Real VGPR count: workitem_vgpr_count, else from the granulated field."""
        return self.get("workitem_vgpr_count") or \
            (self.get("granulated_workitem_vgpr_count") + 1) * VGPR_GRANULE

    @property
    def sgpr_count(self) -> int:
        """Real SGPR count: wavefront_sgpr_count, else from the granulated field."""
        return self.get("wavefront_sgpr_count") or \
            (self.get("granulated_wavefront_sgpr_count") + 1) * SGPR_GRANULE

"""The 64-byte kernel descriptor of code object v3+ and the ``.amdhsa_*`` directives.

``KernelDescriptor.defaults(target, code_object_version)`` holds llvm-mc 19's
defaults (checked against an empty ``.amdhsa_kernel`` assembled for gfx600
.. gfx906); ``set(directive, value)`` validates each directive as llvm-mc
does (range, generation, repetition) with messages naming the directive;
``finish()`` derives the granulated register counts and the user SGPR count
from ``.amdhsa_next_free_vgpr/sgpr`` and the reserve directives, applying
the extra SGPRs (VCC, FLAT_SCRATCH, XNACK_MASK) and the SGPR init bug.

kernel_code_entry_byte_offset is not a directive: the assembler emits an
``R_AMDGPU_REL64`` against the kernel symbol at ``ENTRY_OFFSET_FIELD``
(addend ``ENTRY_OFFSET_FIELD``), exactly as llvm-mc does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ElfFormatError, ToolchainError
from .bitfields import (KD_CODE_PROPERTIES, RSRC1, RSRC2, RSRC3, SGPR_GRANULE, USER_SGPR_SIZES,
                        VGPR_GRANULE)
from .structs import Struct

KERNEL_DESCRIPTOR_SIZE = 64
KERNEL_DESCRIPTOR_ALIGN = 64
ENTRY_OFFSET_FIELD = 16

KernelDescriptorLayout = Struct("kernel descriptor", [
    ("group_segment_fixed_size", "I"),
    ("private_segment_fixed_size", "I"),
    ("kernarg_size", "I"),
    ("reserved0", "4s"),
    ("kernel_code_entry_byte_offset", "q"),
    ("reserved1", "20s"),
    ("compute_pgm_rsrc3", "I"),
    ("compute_pgm_rsrc1", "I"),
    ("compute_pgm_rsrc2", "I"),
    ("kernel_code_properties", "H"),
    ("kernarg_preload", "H"),
    ("reserved2", "4s"),
])
assert KernelDescriptorLayout.size == KERNEL_DESCRIPTOR_SIZE


class DirectiveError(ToolchainError):
    """A ``.amdhsa_*`` directive llvm-mc would reject; ``directive`` names it."""

    def __init__(self, directive: str, message: str):
        self.directive = directive
        super().__init__(message)


@dataclass(frozen=True)
class Directive:
    """Where one ``.amdhsa_`` directive's value goes and which targets take it.

    ``word`` is a whole descriptor field, a register ('rsrc1', 'rsrc2',
    'kcp') or 'regs' (consumed by ``finish``); ``bits`` the bit field;
    ``min_gen`` the first generation accepting it; ``unsupported`` a
    message for directives no GCN target (GFX6-9) accepts.
    """

    name: str
    word: str
    bits: object = None
    width: int = 32
    min_gen: int = 6
    unsupported: str | None = None


def _d(name, word, bits=None, width=None, min_gen=6, unsupported=None):
    if width is None:
        width = bits.width if bits is not None else 32
    return Directive(name, word, bits, width, min_gen, unsupported)


_GFX10 = "directive requires gfx10+"
_GFX90A = "directive requires gfx90a+"
DIRECTIVES = {d.name: d for d in [
    _d("group_segment_fixed_size", "group_segment_fixed_size"),
    _d("private_segment_fixed_size", "private_segment_fixed_size"),
    _d("kernarg_size", "kernarg_size"),
    _d("user_sgpr_count", "regs", width=5),
    _d("user_sgpr_private_segment_buffer", "kcp", KD_CODE_PROPERTIES["enable_sgpr_private_segment_buffer"]),
    _d("user_sgpr_dispatch_ptr", "kcp", KD_CODE_PROPERTIES["enable_sgpr_dispatch_ptr"]),
    _d("user_sgpr_queue_ptr", "kcp", KD_CODE_PROPERTIES["enable_sgpr_queue_ptr"]),
    _d("user_sgpr_kernarg_segment_ptr", "kcp", KD_CODE_PROPERTIES["enable_sgpr_kernarg_segment_ptr"]),
    _d("user_sgpr_dispatch_id", "kcp", KD_CODE_PROPERTIES["enable_sgpr_dispatch_id"]),
    _d("user_sgpr_flat_scratch_init", "kcp", KD_CODE_PROPERTIES["enable_sgpr_flat_scratch_init"]),
    _d("user_sgpr_private_segment_size", "kcp", KD_CODE_PROPERTIES["enable_sgpr_private_segment_size"]),
    _d("user_sgpr_kernarg_preload_length", "preload", unsupported=_GFX90A),
    _d("user_sgpr_kernarg_preload_offset", "preload", unsupported=_GFX90A),
    _d("wavefront_size32", "kcp", KD_CODE_PROPERTIES["enable_wavefront_size32"], unsupported=_GFX10),
    _d("uses_dynamic_stack", "kcp", KD_CODE_PROPERTIES["uses_dynamic_stack"]),
    _d("system_sgpr_private_segment_wavefront_offset", "rsrc2", RSRC2["enable_private_segment"]),
    _d("enable_private_segment", "rsrc2", RSRC2["enable_private_segment"],
       unsupported="directive is not supported without architected flat scratch"),
    _d("system_sgpr_workgroup_id_x", "rsrc2", RSRC2["enable_sgpr_workgroup_id_x"]),
    _d("system_sgpr_workgroup_id_y", "rsrc2", RSRC2["enable_sgpr_workgroup_id_y"]),
    _d("system_sgpr_workgroup_id_z", "rsrc2", RSRC2["enable_sgpr_workgroup_id_z"]),
    _d("system_sgpr_workgroup_info", "rsrc2", RSRC2["enable_sgpr_workgroup_info"]),
    _d("system_vgpr_workitem_id", "rsrc2", RSRC2["enable_vgpr_workitem_id"]),
    _d("next_free_vgpr", "regs"),
    _d("next_free_sgpr", "regs"),
    _d("accum_offset", "rsrc3", RSRC3["accum_offset"], unsupported=_GFX90A),
    _d("reserve_vcc", "regs", width=1),
    _d("reserve_flat_scratch", "regs", width=1, min_gen=7),
    _d("reserve_xnack_mask", "regs", width=1, min_gen=8),
    _d("float_round_mode_32", "rsrc1", RSRC1["float_round_mode_32"]),
    _d("float_round_mode_16_64", "rsrc1", RSRC1["float_round_mode_16_64"]),
    _d("float_denorm_mode_32", "rsrc1", RSRC1["float_denorm_mode_32"]),
    _d("float_denorm_mode_16_64", "rsrc1", RSRC1["float_denorm_mode_16_64"]),
    _d("dx10_clamp", "rsrc1", RSRC1["enable_dx10_clamp"]),
    _d("ieee_mode", "rsrc1", RSRC1["enable_ieee_mode"]),
    _d("fp16_overflow", "rsrc1", RSRC1["fp16_ovfl"], min_gen=9),
    _d("tg_split", "rsrc3", RSRC3["tg_split"], unsupported=_GFX90A),
    _d("workgroup_processor_mode", "rsrc1", RSRC1["enable_wgp_mode"], unsupported=_GFX10),
    _d("memory_ordered", "rsrc1", RSRC1["enable_mem_ordered"], unsupported=_GFX10),
    _d("forward_progress", "rsrc1", RSRC1["enable_fwd_progress"], unsupported=_GFX10),
    _d("shared_vgpr_count", "rsrc3", unsupported="directive requires gfx10 or gfx11"),
    _d("exception_fp_ieee_invalid_op", "rsrc2", RSRC2["enable_exception_ieee_754_fp_invalid_operation"]),
    _d("exception_fp_denorm_src", "rsrc2", RSRC2["enable_exception_fp_denormal_source"]),
    _d("exception_fp_ieee_div_zero", "rsrc2", RSRC2["enable_exception_ieee_754_fp_division_by_zero"]),
    _d("exception_fp_ieee_overflow", "rsrc2", RSRC2["enable_exception_ieee_754_fp_overflow"]),
    _d("exception_fp_ieee_underflow", "rsrc2", RSRC2["enable_exception_ieee_754_fp_underflow"]),
    _d("exception_fp_ieee_inexact", "rsrc2", RSRC2["enable_exception_ieee_754_fp_inexact"]),
    _d("exception_int_div_zero", "rsrc2", RSRC2["enable_exception_int_division_by_zero"]),
]}

#: Registers of the descriptor each 'word' name refers to.
_WORDS = {"rsrc1": "compute_pgm_rsrc1", "rsrc2": "compute_pgm_rsrc2",
          "rsrc3": "compute_pgm_rsrc3", "kcp": "kernel_code_properties"}
#: The bit fields of each register of the descriptor (for ``get`` and ``describe``).
_REGISTER_FIELDS = {"compute_pgm_rsrc1": RSRC1, "compute_pgm_rsrc2": RSRC2,
                    "compute_pgm_rsrc3": RSRC3, "kernel_code_properties": KD_CODE_PROPERTIES}

#: processors with the SGPR init hardware bug: every kernel declares 96 SGPRs
SGPR_INIT_BUG_PROCESSORS = frozenset({"gfx802", "gfx805"})
FIXED_SGPRS_FOR_INIT_BUG = 96
MAX_VGPRS = 256
#: the generation assumed for a descriptor decoded without a target (objdump)
_DEFAULT_GENERATION = 9


def _target(target):
    from ..isa.targets import get_target
    return get_target(target)


def xnack_setting(target, target_id: str | None = None) -> str:
    """'on', 'off', 'any' or 'unsupported', from a target id like ``gfx900:xnack-``."""
    if not _target(target).supports_xnack:
        return "unsupported"
    text = str(target_id if target_id is not None else target)
    if "xnack+" in text:
        return "on"
    if "xnack-" in text:
        return "off"
    return "any"


class KernelDescriptor:
    """A v3+ kernel descriptor: the raw fields plus the directive bookkeeping."""

    def __init__(self, fields: dict, target=None, code_object_version: int = 5,
                 xnack: str = "unsupported"):
        self.fields = KernelDescriptorLayout.complete(fields)
        self.target = _target(target) if target is not None else None
        self.code_object_version = code_object_version
        self.xnack = xnack
        self.seen: set[str] = set()
        self.regs = {"next_free_vgpr": None, "next_free_sgpr": None, "user_sgpr_count": None,
                     "reserve_vcc": 1, "reserve_flat_scratch": 1,
                     "reserve_xnack_mask": int(xnack in ("on", "any"))}

    # --- construction -----------------------------------------------------
    @classmethod
    def defaults(cls, target, code_object_version: int = 5, target_id: str | None = None):
        """llvm-mc 19's descriptor before any directive (GFX6-GFX9)."""
        tgt = _target(target)
        if code_object_version not in (3, 4, 5):
            raise ToolchainError(f"kernel descriptors need code object v3+, "
                                 f"not v{code_object_version}")
        rsrc1 = 0
        rsrc1 = RSRC1["float_denorm_mode_16_64"].put(rsrc1, 3)
        rsrc1 = RSRC1["enable_dx10_clamp"].put(rsrc1, 1)
        rsrc1 = RSRC1["enable_ieee_mode"].put(rsrc1, 1)
        rsrc2 = RSRC2["enable_sgpr_workgroup_id_x"].put(0, 1)
        return cls({"compute_pgm_rsrc1": rsrc1, "compute_pgm_rsrc2": rsrc2}, tgt,
                   code_object_version, xnack_setting(tgt, target_id))

    @classmethod
    def from_bytes(cls, data: bytes, target=None):
        if len(data) < KERNEL_DESCRIPTOR_SIZE:
            raise ElfFormatError(f"kernel descriptor needs {KERNEL_DESCRIPTOR_SIZE} bytes, "
                                 f"got {len(data)}")
        return cls(KernelDescriptorLayout.unpack(bytes(data[:KERNEL_DESCRIPTOR_SIZE])), target)

    def to_bytes(self) -> bytes:
        return KernelDescriptorLayout.pack(**self.fields)

    # --- directives -------------------------------------------------------
    def set(self, directive: str, value: int) -> None:
        """Apply one ``.amdhsa_*`` directive (the name with or without '.amdhsa_')."""
        name = directive.lstrip(".")
        if name.startswith("amdhsa_"):
            name = name[len("amdhsa_"):]
        spelled = f".amdhsa_{name}"
        info = DIRECTIVES.get(name)
        if info is None:
            raise DirectiveError(spelled, f"unknown .amdhsa_kernel directive '{spelled}'")
        if name in self.seen:
            raise DirectiveError(spelled, ".amdhsa_ directives cannot be repeated")
        if info.unsupported:
            raise DirectiveError(spelled, f"{spelled}: {info.unsupported}")
        if self._generation < info.min_gen:
            raise DirectiveError(spelled, f"{spelled}: directive requires gfx{info.min_gen}+")
        value = int(value)
        self._check_value(name, spelled, info, value)
        self.seen.add(name)
        if info.word == "regs":
            self.regs[name] = value
        elif info.bits is None:
            self.fields[info.word] = value
        else:
            register = _WORDS[info.word]
            self.fields[register] = info.bits.put(self.fields[register], value)

    def _check_value(self, name: str, spelled: str, info: Directive, value: int) -> None:
        """llvm-mc's value checks: the field's range (256 for VGPRs), the target's
        SGPRs, and a reserve_xnack_mask that agrees with the target id."""
        if name == "user_sgpr_count" and value > 31:
            raise DirectiveError(spelled, f"{spelled}: too many user SGPRs enabled ({value}; "
                                 "the field holds 0..31)")
        limit = MAX_VGPRS if name == "next_free_vgpr" else (1 << info.width) - 1
        if not 0 <= value <= limit:
            raise DirectiveError(spelled, f"{spelled}: value out of range "
                                 f"({value}; allowed 0..{limit})")
        if name == "reserve_xnack_mask" and value != int(self.xnack in ("on", "any")):
            raise DirectiveError(spelled, f"{spelled} does not match target id "
                                 f"(xnack is '{self.xnack}')")
        if name == "next_free_sgpr" and self._generation >= 8 and not self._init_bug() \
                and value > self._addressable_sgprs():
            raise DirectiveError(spelled, f"{spelled}: value out of range ({value}; "
                                 f"the target addresses {self._addressable_sgprs()} SGPRs)")

    def finish(self) -> None:
        """Derive register granules and the user SGPR count (``.end_amdhsa_kernel``)."""
        for required in ("next_free_vgpr", "next_free_sgpr"):
            if self.regs[required] is None:
                raise DirectiveError(f".amdhsa_{required}",
                                     f".amdhsa_{required} directive is required")
        vgprs = self.regs["next_free_vgpr"]
        sgprs = self._total_sgprs()
        rsrc1 = self.fields["compute_pgm_rsrc1"]
        rsrc1 = RSRC1["granulated_workitem_vgpr_count"].put(
            rsrc1, _granules(vgprs, VGPR_GRANULE))
        rsrc1 = RSRC1["granulated_wavefront_sgpr_count"].put(
            rsrc1, _granules(sgprs, SGPR_GRANULE))
        self.fields["compute_pgm_rsrc1"] = rsrc1
        implied = self.implied_user_sgprs()
        explicit = self.regs["user_sgpr_count"]
        if explicit is not None and explicit < implied:
            raise DirectiveError(".amdhsa_user_sgpr_count", "amdgpu_user_sgpr_count smaller "
                                 "than than implied by enabled user SGPRs")
        count = implied if explicit is None else explicit
        self.fields["compute_pgm_rsrc2"] = RSRC2["user_sgpr_count"].put(
            self.fields["compute_pgm_rsrc2"], count)

    def implied_user_sgprs(self) -> int:
        properties = self.fields["kernel_code_properties"]
        return sum(size for name, size in USER_SGPR_SIZES.items()
                   if KD_CODE_PROPERTIES[name].get(properties))

    @property
    def _generation(self) -> int:
        return self.target.generation if self.target else _DEFAULT_GENERATION

    def _init_bug(self) -> bool:
        return self.target is not None and self.target.name in SGPR_INIT_BUG_PROCESSORS

    def _addressable_sgprs(self) -> int:
        if self._init_bug():
            return FIXED_SGPRS_FOR_INIT_BUG
        return 102 if self._generation >= 8 else 104

    def _extra_sgprs(self) -> int:
        extra = 2 if self.regs["reserve_vcc"] else 0
        if self._generation < 8:
            return 4 if self.regs["reserve_flat_scratch"] else extra
        if self.regs["reserve_xnack_mask"]:
            extra = 4
        if self.regs["reserve_flat_scratch"]:
            extra = 6
        return extra

    def _total_sgprs(self) -> int:
        total = self.regs["next_free_sgpr"] + self._extra_sgprs()
        if (self._generation <= 7 or self._init_bug()) and total > self._addressable_sgprs():
            raise DirectiveError(".amdhsa_next_free_sgpr", ".amdhsa_next_free_sgpr: value out "
                                 f"of range ({total} SGPRs with VCC/FLAT_SCRATCH/XNACK_MASK; "
                                 f"the target addresses {self._addressable_sgprs()})")
        return FIXED_SGPRS_FOR_INIT_BUG if self._init_bug() else total

    # --- reading ----------------------------------------------------------
    def get(self, register: str, field: str) -> int:
        """A bit field: ``get('compute_pgm_rsrc2', 'user_sgpr_count')``."""
        return _REGISTER_FIELDS[register][field].get(self.fields[register])

    def describe(self) -> list[tuple[str, int]]:
        """Every field, bit fields expanded, in descriptor order (for printing)."""
        rows = []
        for name, fmt in KernelDescriptorLayout.fields:
            if fmt.endswith("s"):
                continue
            value = self.fields[name]
            rows.append((name, value))
            for bitfield in _REGISTER_FIELDS.get(name, {}).values():
                rows.append((f"  {bitfield.name}", bitfield.get(value)))
        return rows

    @property
    def vgpr_count(self) -> int:
        return (self.get("compute_pgm_rsrc1", "granulated_workitem_vgpr_count") + 1) * VGPR_GRANULE

    @property
    def sgpr_count(self) -> int:
        return (self.get("compute_pgm_rsrc1", "granulated_wavefront_sgpr_count") + 1) * SGPR_GRANULE


def _granules(count: int, granule: int) -> int:
    """LLVM's block encoding: ceil(max(1, count) / granule) - 1."""
    return (max(1, count) + granule - 1) // granule - 1

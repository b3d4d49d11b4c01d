"""GCN processors (GFX6-GFX9): names, generation, ISA version, features, ELF mach.

Facts come from LLVM's AMDGPUUsage processor table; ``mach`` values were
checked with ``llvm-mc -filetype=obj`` + ``llvm-readelf -h`` (tests/isa/test_targets.py
re-checks them when LLVM is installed).  Everything else in the toolchain asks
a ``Target`` for its features instead of comparing processor names.
"""

from dataclasses import dataclass

from ..errors import TargetError

#: Features every processor of a generation has (cumulative with the earlier ones).
_GENERATION_FEATURES = {
    6: frozenset({"gcn"}),
    7: frozenset({"gcn", "flat", "ci_insts"}),
    8: frozenset({"gcn", "flat", "ci_insts", "vi_insts", "dpp", "sdwa", "16bit_insts",
                  "inv_2pi_inline", "scalar_stores", "smem"}),
    9: frozenset({"gcn", "flat", "ci_insts", "vi_insts", "dpp", "sdwa", "16bit_insts",
                  "inv_2pi_inline", "scalar_stores", "smem", "gfx9_insts", "vop3p",
                  "packed_math", "global_scratch", "apertures", "sdwa_sdst",
                  "sdwa_omod", "sdwa_scalar", "add_no_carry"}),
}


@dataclass(frozen=True)
class Target:
    """One processor.  ``generation`` drives encodings; ``features`` drives ops."""

    name: str
    aliases: tuple
    generation: int
    isa_version: tuple
    features: frozenset
    mach: int
    default_xnack: bool = False
    supports_xnack: bool = False
    supports_sramecc: bool = False

    def __hash__(self):
        # equal targets share their name (hashed once by the string itself);
        # dispatch caches key on the target at every launch
        return hash(self.name)

    def has(self, feature):
        """True when the processor has ``feature`` (a string of ``features``)."""
        return feature in self.features


def _target(name, aliases, version, mach, extra=(), xnack=False, sramecc=False):
    generation = version[0]
    features = _GENERATION_FEATURES[generation] | frozenset(extra)
    if xnack:
        features |= {"xnack"}
    return Target(name=name, aliases=tuple(aliases), generation=generation,
                  isa_version=version, features=features, mach=mach,
                  supports_xnack=xnack, supports_sramecc=sramecc)


_MAD_MIX = ("mad_mix",)
_FMA_MIX = ("fma_mix",)

ALL_TARGETS = (
    _target("gfx600", ["tahiti"], (6, 0, 0), 0x20),
    _target("gfx601", ["pitcairn", "verde"], (6, 0, 1), 0x21),
    _target("gfx602", ["hainan", "oland"], (6, 0, 2), 0x3A),
    _target("gfx700", ["kaveri"], (7, 0, 0), 0x22),
    _target("gfx701", ["hawaii"], (7, 0, 1), 0x23, extra=("fast_fmaf",)),
    _target("gfx702", [], (7, 0, 2), 0x24, extra=("fast_fmaf",)),
    _target("gfx703", ["kabini", "mullins"], (7, 0, 3), 0x25),
    _target("gfx704", ["bonaire"], (7, 0, 4), 0x26),
    _target("gfx705", [], (7, 0, 5), 0x3B),
    _target("gfx801", ["carrizo"], (8, 0, 1), 0x28, xnack=True),
    _target("gfx802", ["iceland", "tonga"], (8, 0, 2), 0x29),
    _target("gfx803", ["fiji", "polaris10", "polaris11"], (8, 0, 3), 0x2A),
    _target("gfx805", ["tongapro"], (8, 0, 5), 0x3C),
    _target("gfx810", ["stoney"], (8, 1, 0), 0x2B, xnack=True),
    _target("gfx900", [], (9, 0, 0), 0x2C, extra=_MAD_MIX, xnack=True),
    _target("gfx902", [], (9, 0, 2), 0x2D, extra=_MAD_MIX, xnack=True),
    _target("gfx904", [], (9, 0, 4), 0x2E, extra=_FMA_MIX, xnack=True),
    _target("gfx906", [], (9, 0, 6), 0x2F,
            extra=_FMA_MIX + ("dot_insts", "dl_insts", "sramecc"), xnack=True, sramecc=True),
    _target("gfx909", [], (9, 0, 9), 0x31, extra=_MAD_MIX, xnack=True),
    _target("gfx90c", [], (9, 0, 12), 0x32, extra=_MAD_MIX, xnack=True),
)

#: Code object v2 names an xnack-enabled processor by an ISA of its own (the
#: stepping one higher), as LLVM 14 writes .hsa_code_object_isa and
#: .amd_amdgpu_isa: processor -> (v2 name, ISA version) with xnack on or any.
V2_XNACK_ISAS = {
    "gfx900": ("gfx901", (9, 0, 1)), "gfx902": ("gfx903", (9, 0, 3)),
    "gfx904": ("gfx905", (9, 0, 5)), "gfx906": ("gfx907", (9, 0, 7)),
}
#: Processors code object v2 supports only with xnack, and not with it.
V2_XNACK_REQUIRED = frozenset({"gfx801", "gfx810"})
V2_XNACK_UNSUPPORTED = frozenset({"gfx90c"})
#: Processors newer than code object v2.
V2_UNSUPPORTED = frozenset({"gfx909"})


def v2_isa(target, xnack) -> tuple[str, tuple]:
    """(ISA name, ISA version) code object v2 uses for ``target`` with the xnack
    setting ``xnack`` (True, False or None for "any", which v2 takes as on).
    Raises TargetError for combinations v2 cannot express, as LLVM 14 does."""
    target = get_target(target)
    enabled = target.supports_xnack and xnack is not False
    if target.name in V2_UNSUPPORTED:
        raise TargetError(f"AMD GPU code object V2 does not support processor {target.name}")
    if target.name in V2_XNACK_REQUIRED and not enabled:
        raise TargetError(f"AMD GPU code object V2 does not support processor {target.name} "
                          "without XNACK")
    if target.name in V2_XNACK_UNSUPPORTED and enabled:
        raise TargetError(f"AMD GPU code object V2 does not support processor {target.name} "
                          "with XNACK being ON or ANY")
    if enabled and target.name in V2_XNACK_ISAS:
        return V2_XNACK_ISAS[target.name]
    return target.name, target.isa_version


def target_by_v2_isa_version(version):
    """The processor of a v2 ISA version, the xnack variants included."""
    for name, (_, isa) in V2_XNACK_ISAS.items():
        if isa == tuple(version):
            return _BY_NAME[name]
    for target in ALL_TARGETS:
        if target.isa_version == tuple(version):
            return target
    return None


_BY_NAME = {}
for _t in ALL_TARGETS:
    _BY_NAME[_t.name] = _t
    for _alias in _t.aliases:
        _BY_NAME[_alias] = _t


def get_target(name):
    """The ``Target`` for a processor name or alias (case-insensitive).

    Accepts a ``Target`` unchanged, and a ``gfx803:xnack-``-style target id
    (feature suffixes are ignored here; the ELF layer interprets them).
    """
    if isinstance(name, Target):
        return name
    key = str(name).strip().lower().split(":")[0]
    if key.startswith("amdgcn-amd-amdhsa--"):
        key = key[len("amdgcn-amd-amdhsa--"):]
    try:
        return _BY_NAME[key]
    except KeyError:
        known = ", ".join(t.name for t in ALL_TARGETS)
        raise TargetError(f"unknown processor '{name}' (known: {known})") from None


@dataclass(frozen=True)
class TargetId:
    """A processor with optional feature settings (``gfx900:xnack-``, the code
    object v4+ spelling): a feature that is absent means "any" (AMDGPUUsage,
    Target ID)."""

    processor: str
    features: tuple = ()          # ((name, on), ...) sorted by name

    @classmethod
    def parse(cls, text: str) -> "TargetId":
        processor, *settings = text.split(":")
        features = {}
        for setting in settings:
            if len(setting) < 2 or setting[-1] not in "+-":
                raise TargetError(f"bad target ID '{text}': feature '{setting}' must end in "
                                  "'+' or '-'")
            features[setting[:-1]] = setting[-1] == "+"
        return cls(processor, tuple(sorted(features.items())))

    @classmethod
    def of_device(cls, target) -> "TargetId":
        """The target id of a device made for ``target`` (a name, alias, target id
        or Target), with the processor's canonical name."""
        if isinstance(target, Target):
            return cls(target.name)
        wanted = target if isinstance(target, cls) else cls.parse(str(target).strip().lower())
        return cls(get_target(wanted.processor).name, wanted.features)

    def check_supported(self) -> "TargetId":
        """Self, or a TargetError for a setting of a feature the processor lacks
        (``gfx803:xnack-``), as clang refuses it."""
        processor = get_target(self.processor)
        supported = {"xnack": processor.supports_xnack, "sramecc": processor.supports_sramecc}
        for feature, _ in self.features:
            if not supported.get(feature, False):
                raise TargetError(f"processor {processor.name} has no '{feature}' feature "
                                  f"to set (target id '{self}')")
        return self

    def setting(self, feature: str):
        """True / False, or None for "any"."""
        return dict(self.features).get(feature)

    def __str__(self):
        return self.processor + "".join(f":{n}{'+' if on else '-'}" for n, on in self.features)


def target_by_mach(mach):
    """The ``Target`` whose EF_AMDGPU_MACH value is ``mach``."""
    for target in ALL_TARGETS:
        if target.mach == mach:
            return target
    raise TargetError(f"unknown EF_AMDGPU_MACH value 0x{mach:x}")


def target_of_elf(elf):
    """The ``Target`` of a code object: from e_flags' EF_AMDGPU_MACH, or for the
    legacy v2 e_flags (0, or 0x2 = EF_AMDGPU_ARCH_GCN) from its ISA notes: the
    NT_AMD_HSA_ISA_VERSION numbers (8.0.3 -> gfx803, 9.0.1 -> gfx900 with xnack)
    or the processor that ends an NT_AMD_HSA_ISA_NAME target name
    (``amdgcn-amd-amdhsa-amdgizcl-gfx803``). Raises TargetError."""
    if not elf.has_legacy_e_flags:
        return target_by_mach(elf.mach)
    version = elf.isa_version
    if version is not None:
        target = target_by_v2_isa_version(version)
        if target is None:
            raise TargetError(f"unknown ISA version {'.'.join(map(str, version))} in the "
                              f"NT_AMD_HSA_ISA_VERSION note (e_flags 0x{elf.flags:x})")
        return target
    name = elf.isa_name
    if name:
        processor = name.rsplit("-", 1)[-1].split(":", 1)[0]
        try:
            return get_target(processor)
        except TargetError:
            raise TargetError(f"unknown processor '{processor}' in the NT_AMD_HSA_ISA_NAME note "
                              f"'{name}' (e_flags 0x{elf.flags:x})") from None
    raise TargetError(f"e_flags 0x{elf.flags:x} name no processor and there is no "
                      "NT_AMD_HSA_ISA note")

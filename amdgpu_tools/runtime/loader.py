"""The loader: places a code object in device memory and finds its kernels.

A relocatable object (ET_REL) is first linked into a shared one, as ROCm's
loader does. The PT_LOAD segments are mapped into one allocation at a load
base; dynamic relocations (R_AMDGPU_RELATIVE64, R_AMDGPU_ABS64) are applied;
each kernel's descriptor (v3+: the ``name.kd`` symbol; v2: the
amd_kernel_code_t at the kernel symbol) is decoded from the mapped bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..elf import constants as C
from ..elf.kernel_code import AMD_KERNEL_CODE_T_SIZE
from ..elf.kernel_descriptor import KERNEL_DESCRIPTOR_SIZE
from ..elf.metadata import KernelInfo as KernelMetadata
from ..errors import LoadError, MemoryFault, TargetError, ToolchainError
from ..isa.targets import Target, TargetId, get_target, target_of_elf
from .bundle import unbundle
from .codeobject import CodeObject, code_object_of, read_checked_elf
from .descriptors import decode_amd_kernel_code, decode_kernel_descriptor
from .printf import parse_printf_formats


@dataclass
class LoadedKernel:
    """A loaded kernel: where its descriptor is and everything a launch checks,
    each property from the metadata where it states it, else from the descriptor
    (``elf.metadata.KernelInfo`` is the metadata's view alone)."""

    name: str
    symbol: str
    kernel_object: int
    code_object_version: int
    setup: object                     # KernelSetup
    args: tuple | None                # elf.metadata.KernelArg, explicit then hidden;
                                      # None: unknown (v2 without metadata)
    kernarg_size: int
    kernarg_align: int
    group_segment_fixed_size: int
    private_segment_fixed_size: int
    sgpr_count: int
    vgpr_count: int
    wavefront_size: int
    max_flat_workgroup_size: int
    printf_formats: dict = field(default_factory=dict)   # id -> PrintfFormat
    #: calls through a stack whose depth the compiler could not bound
    uses_dynamic_stack: bool = False

    #: (args, explicit ones, hidden ones): the split of ``args`` last asked for
    _split: tuple = field(default=(None, None, ()), init=False, repr=False, compare=False)

    def _split_args(self) -> tuple:
        """``args`` split into explicit and hidden ones, once per ``args`` value
        (a launch asks several times)."""
        split = self._split
        if split[0] is not self.args:
            split = self._split = (self.args, None if self.args is None else tuple(
                a for a in self.args if not a.is_hidden), () if self.args is None else tuple(
                a for a in self.args if a.is_hidden))
        return split

    @property
    def explicit_args(self):
        return self._split_args()[1]

    @property
    def hidden_args(self):
        return self._split_args()[2]

    def describe(self) -> str:
        """One line per property, as ``amdgpu-run --info`` lists kernels."""
        lines = [f"kernel {self.name} (symbol {self.symbol}, code object v"
                 f"{self.code_object_version}, kernel object 0x{self.kernel_object:x})",
                 f"  kernarg segment: {self.kernarg_size} bytes, align {self.kernarg_align}",
                 f"  group segment: {self.group_segment_fixed_size} bytes, private segment: "
                 f"{self.private_segment_fixed_size} bytes/work-item",
                 f"  sgprs {self.sgpr_count}, vgprs {self.vgpr_count}, wavefront size "
                 f"{self.wavefront_size}, max flat work-group size "
                 f"{self.max_flat_workgroup_size}"]
        if self.args is None:
            lines.append("  arguments: unknown (no metadata)")
        for index, arg in enumerate(self.args or ()):
            label = arg.name or arg.type_name or ""
            lines.append(f"  arg {index}: offset {arg.offset}, size {arg.size}, "
                         f"{arg.value_kind}{' ' + label if label else ''}")
        return "\n".join(lines)


@dataclass
class LoadedCodeObject:
    """A code object in device memory: its allocation (for unloading) and kernels."""

    code: CodeObject
    target: Target
    base: int
    allocation_address: int
    kernels: dict                     # name -> LoadedKernel
    printf_formats: dict              # id -> PrintfFormat


def read_loadable(data: bytes) -> CodeObject:
    """The checked code object of ``data``; a relocatable object is linked first."""
    elf = read_checked_elf(data)
    if elf.type == C.ET_REL:
        elf = read_checked_elf(link_relocatable(data))
    return code_object_of(elf)


def link_relocatable(data: bytes) -> bytes:
    """ET_REL bytes linked into a shared object, as ROCm's loader does. (The
    linker is imported here: most programs load linked code objects, and
    every process that loads one would pay its import, ~0.09 s.)"""
    from ..link import link
    try:
        return link([bytes(data)])
    except ToolchainError as failure:
        raise LoadError(f"linking the relocatable object failed: {failure}") from None


def code_object_target(code: CodeObject) -> Target:
    """The processor from e_flags; a v2 object with the legacy e_flags (0, or 0x2:
    EF_AMDGPU_ARCH_GCN) names it in its ISA note."""
    try:
        return target_of_elf(code.elf)
    except TargetError as failure:
        if code.elf.has_legacy_e_flags:
            raise LoadError(f"code object is for an unknown processor: {failure}") from None
        raise LoadError(f"code object is for an unknown processor (EF_AMDGPU_MACH "
                        f"0x{code.elf.mach:x})") from None


def load_code_object(memory, data: bytes, device_target=None) -> LoadedCodeObject:
    """Check, map and relocate ``data`` (or the device's entry of an offload
    bundle); returns its kernels. Raises LoadError."""
    code = read_loadable(unbundle(bytes(data), device_target))
    target = code_object_target(code)
    if device_target is not None:
        _check_target(code, target, device_target)
    if not code.segments:
        raise LoadError("code object has no PT_LOAD segment")
    try:
        base, allocation = _map_segments(memory, code)
        _relocate(memory, code, base)
        printf_formats = parse_printf_formats(code.printf)
        kernels = {k.name: k for k in _kernels(memory, code, base, printf_formats)}
    except MemoryFault as fault:
        raise LoadError(f"bad offset in code object: {fault}") from None
    if not kernels:
        raise LoadError("code object defines no kernel")
    return LoadedCodeObject(code, target, base, allocation, kernels, printf_formats)


def _check_target(code: CodeObject, target: Target, device_target) -> None:
    """The device's processor must be the code object's, and each xnack/sramecc
    setting the device states must be one the code object accepts ("any",
    or the same), as ROCm's loader matches target ids."""
    device = get_target(device_target)
    if device.mach != target.mach:
        raise LoadError(f"code object is for {target.name}, but the device is {device.name}")
    if not isinstance(device_target, TargetId):
        return
    settings = C.feature_settings(code.elf.flags, code.elf.code_object_version)
    for feature, on in device_target.features:
        wanted = settings.get(feature, "any")
        if wanted in ("on", "off") and (wanted == "on") != on:
            raise LoadError(f"code object is for {target.name}:{feature}"
                            f"{'+' if wanted == 'on' else '-'}, but the device is "
                            f"{device_target}")


def _map_segments(memory, code: CodeObject):
    low = min(s.vaddr for s in code.segments)
    high = max(s.vaddr + s.memsz for s in code.segments)
    align = max(s.align or 1 for s in code.segments)
    if align & (align - 1) or align > 1 << 16:
        raise LoadError(f"unsupported segment alignment 0x{align:x}")
    low -= low % align
    if high - low > 1 << 30:
        raise LoadError(f"code object segments span 0x{high - low:x} bytes")
    allocation = memory.allocate(high - low, align=max(align, 256), kind="code",
                                 name="code object")
    base = allocation - low
    for segment in code.segments:
        memory.write(base + segment.vaddr, segment.data)
    return base, allocation


def _relocate(memory, code: CodeObject, base: int):
    for reloc in code.relocations:
        where = base + reloc.offset
        if reloc.type == C.R_AMDGPU_NONE:
            continue
        if reloc.type == C.R_AMDGPU_RELATIVE64:
            memory.write_u64(where, base + reloc.addend)
        elif reloc.type == C.R_AMDGPU_ABS64:
            if reloc.symbol is None or not reloc.symbol.is_defined:
                name = reloc.symbol.name if reloc.symbol and reloc.symbol.name else "(none)"
                raise LoadError(f"relocation at 0x{reloc.offset:x} refers to undefined "
                                f"symbol '{name}'")
            memory.write_u64(where, base + reloc.symbol.value + reloc.addend)
        else:
            raise LoadError(f"unsupported dynamic relocation type {reloc.type} at "
                            f"0x{reloc.offset:x}")


def _kernels(memory, code, base, printf_formats):
    version = code.elf.code_object_version
    metadata = code.metadata
    if version >= 3:
        if metadata is None:
            raise LoadError("code object v3+ has no NT_AMDGPU_METADATA note (missing metadata)")
        for entry in metadata:
            symbol = code.symbols.get(entry.symbol)
            if symbol is None or not symbol.is_defined:
                raise LoadError(f"kernel '{entry.name}': descriptor symbol '{entry.symbol}' "
                                "is not defined")
            address = base + symbol.value
            decoded = decode_kernel_descriptor(memory.read(address, KERNEL_DESCRIPTOR_SIZE),
                                               address)
            yield _kernel_info(entry.name, entry.symbol, address, version, decoded, entry,
                               printf_formats)
        return
    by_name = {k.name: k for k in metadata} if metadata else {}
    for symbol in code.kernel_symbols():
        address = base + symbol.value
        decoded = decode_amd_kernel_code(memory.read(address, AMD_KERNEL_CODE_T_SIZE), address)
        yield _kernel_info(symbol.name, symbol.name, address, version, decoded,
                           by_name.get(symbol.name), printf_formats)


def _kernel_info(name, symbol, address, version, decoded, entry: KernelMetadata | None,
                 printf_formats):
    """The metadata's code properties where it states them (non-zero: the ELF
    layer validated their types), the kernel descriptor's otherwise."""
    setup = decoded.setup

    def stated(field: str, default: int) -> int:
        return (getattr(entry, field) if entry is not None else 0) or default

    args = tuple(entry.args) if entry is not None else None
    kernarg_size = stated("kernarg_segment_size", decoded.kernarg_size)
    if args:
        kernarg_size = max(kernarg_size, max(a.offset + a.size for a in args))
    return LoadedKernel(
        name=name, symbol=symbol, kernel_object=address, code_object_version=version,
        setup=setup, args=args, kernarg_size=kernarg_size,
        kernarg_align=stated("kernarg_segment_align", decoded.kernarg_align),
        group_segment_fixed_size=setup.group_segment_fixed_size,
        private_segment_fixed_size=setup.private_segment_fixed_size,
        sgpr_count=stated("sgpr_count", setup.sgpr_count),
        vgpr_count=stated("vgpr_count", setup.vgpr_count),
        wavefront_size=stated("wavefront_size", setup.wavefront_size),
        max_flat_workgroup_size=stated("max_flat_workgroup_size", 1024),
        printf_formats=printf_formats,
        uses_dynamic_stack=bool(entry.uses_dynamic_stack) if entry else False)

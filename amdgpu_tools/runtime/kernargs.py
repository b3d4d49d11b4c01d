"""The kernarg segment: explicit arguments where the metadata puts them, and
every hidden argument the code object asks for.

Explicit arguments arrive already encoded as bytes (``encode_args`` in the
API checks and converts user values). Hidden arguments are computed here from
the dispatch geometry and the runtime context, by value kind, for both
metadata generations (v2 kinds are normalised to the v3 spelling by
``metadata.py``): global offsets, block counts, group sizes, remainders, grid
dimensions, printf/hostcall/heap buffers, queue pointer, apertures, dynamic
LDS size, and zero for the ones this runtime does not provide (default queue,
completion action, multi-grid sync).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..elf.structs import align_up
from ..errors import LaunchError
from ..exec.launch import PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE


@dataclass(frozen=True)
class Geometry:
    """The launch's sizes, in work-items (grid) and work-items per group (block)."""

    grid: tuple
    block: tuple
    dims: int

    @property
    def block_count(self) -> tuple:
        return tuple(g // b for g, b in zip(self.grid, self.block))

    @property
    def remainder(self) -> tuple:
        return tuple(g % b for g, b in zip(self.grid, self.block))


@dataclass(frozen=True)
class HiddenContext:
    """Runtime addresses and sizes hidden arguments point at."""

    queue_address: int = 0
    printf_buffer: int = 0
    hostcall_buffer: int = 0
    heap: int = 0
    dynamic_lds_size: int = 0
    shared_aperture_base: int = SHARED_APERTURE_BASE
    private_aperture_base: int = PRIVATE_APERTURE_BASE


def hidden_value(kind: str, geometry: Geometry, context: HiddenContext) -> int:
    """The integer stored for a hidden argument of ``kind``."""
    axis = "xyz".find(kind[-1]) if kind[-2:-1] == "_" else -1
    if kind.startswith("hidden_block_count_") and axis >= 0:
        return geometry.block_count[axis]
    if kind.startswith("hidden_group_size_") and axis >= 0:
        return geometry.block[axis]
    if kind.startswith("hidden_remainder_") and axis >= 0:
        return geometry.remainder[axis]
    return {
        "hidden_grid_dims": geometry.dims,
        "hidden_printf_buffer": context.printf_buffer,
        "hidden_hostcall_buffer": context.hostcall_buffer,
        "hidden_heap_v1": context.heap,
        "hidden_queue_ptr": context.queue_address,
        "hidden_dynamic_lds_size": context.dynamic_lds_size,
        "hidden_private_base": context.private_aperture_base >> 32,
        "hidden_shared_base": context.shared_aperture_base >> 32,
    }.get(kind, 0)   # global offsets, none, default queue, completion action, sync arg: 0


def dynamic_lds_layout(kernel, local_sizes: dict) -> tuple[dict, int]:
    """Group-segment offsets of ``__local`` pointer arguments, and the dynamic size.

    ``local_sizes`` maps an explicit argument index to its byte count; each
    region starts after the fixed group segment, aligned to the argument's
    pointee alignment (at least 4).
    """
    offsets, position = {}, kernel.group_segment_fixed_size
    explicit = kernel.explicit_args or ()
    for index in sorted(local_sizes):
        align = 4
        if index < len(explicit) and explicit[index].pointee_align:
            align = max(align, explicit[index].pointee_align)
        position = align_up(position, align)
        offsets[index] = position
        position += local_sizes[index]
    return offsets, position - kernel.group_segment_fixed_size if local_sizes else 0


def build_kernarg_segment(kernel, explicit_values: list, geometry: Geometry,
                          context: HiddenContext) -> bytes:
    """The kernarg bytes: ``explicit_values`` (bytes, one per explicit argument)
    at their metadata offsets, hidden arguments computed, the rest zero
    (``context`` may be None for a kernel without hidden arguments)."""
    if kernel.args is None:
        return _raw_segment(kernel, explicit_values)
    segment = bytearray(kernel.kernarg_size)
    explicit = kernel.explicit_args
    if len(explicit_values) != len(explicit):
        raise LaunchError(f"kernel '{kernel.name}' takes {len(explicit)} argument(s), "
                          f"got {len(explicit_values)}")
    for arg, value in zip(explicit, explicit_values):
        segment[arg.offset:arg.offset + arg.size] = bytes(value)[:arg.size].ljust(arg.size, b"\0")
    for arg in kernel.hidden_args:
        value = hidden_value(arg.value_kind, geometry, context)
        segment[arg.offset:arg.offset + arg.size] = \
            (value & ((1 << (8 * arg.size)) - 1)).to_bytes(arg.size, "little")
    return bytes(segment)


def _raw_segment(kernel, values: list) -> bytes:
    """No metadata (code object v2 without it): values in order, naturally aligned."""
    segment = bytearray()
    for value in values:
        value = bytes(value)
        align = min(8, max(1, len(value) & -len(value)))
        segment.extend(b"\0" * (-len(segment) % align))
        segment.extend(value)
    if kernel.kernarg_size and len(segment) > kernel.kernarg_size:
        raise LaunchError(f"kernel '{kernel.name}': {len(segment)} bytes of arguments exceed "
                          f"its {kernel.kernarg_size}-byte kernarg segment")
    return bytes(segment.ljust(kernel.kernarg_size, b"\0"))

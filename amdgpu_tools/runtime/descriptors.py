"""Kernel descriptors as the dispatcher reads them: amd_kernel_code_t (v2) and
the 64-byte kernel descriptor (v3+), decoded from the bytes mapped in device
memory, so what runs is exactly what a packet's kernel_object points at.

The field layouts and bit fields are the ELF layer's (``elf.kernel_code``,
``elf.kernel_descriptor``, ``elf.setup``); this module adds what the loader
needs on top: the entry address relative to the descriptor's load address and
the kernarg segment size and alignment.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..elf.kernel_code import AmdKernelCodeT
from ..elf.kernel_descriptor import KernelDescriptor
from ..elf.setup import kernel_setup
from ..exec.launch import KernelSetup

#: kernarg alignment when amd_kernel_code_t leaves it 0 (the HSA minimum).
DEFAULT_KERNARG_ALIGN = 16


@dataclass(frozen=True)
class DecodedDescriptor:
    """A kernel's descriptor: the dispatcher's view plus loader-relevant sizes."""

    setup: KernelSetup
    kernarg_size: int
    kernarg_align: int


def decode_amd_kernel_code(raw: bytes, address: int) -> DecodedDescriptor:
    """Decode a 256-byte amd_kernel_code_t located at ``address``."""
    code = AmdKernelCodeT.from_bytes(raw)
    fields = code.fields
    setup = kernel_setup(code, address + fields["kernel_code_entry_byte_offset"])
    align_log2 = fields["kernarg_segment_alignment"]
    return DecodedDescriptor(setup, fields["kernarg_segment_byte_size"],
                             1 << align_log2 if align_log2 else DEFAULT_KERNARG_ALIGN)


def decode_kernel_descriptor(raw: bytes, address: int) -> DecodedDescriptor:
    """Decode a 64-byte v3+ kernel descriptor located at ``address``."""
    descriptor = KernelDescriptor.from_bytes(raw)
    fields = descriptor.fields
    setup = kernel_setup(descriptor, address + fields["kernel_code_entry_byte_offset"])
    return DecodedDescriptor(setup, fields["kernarg_size"], 8)

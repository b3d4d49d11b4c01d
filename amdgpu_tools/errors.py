"""The exception hierarchy shared by every stage of the toolchain.

Every error a user can provoke with bad input derives from ``ToolchainError``;
its ``str()`` is the complete, human-readable message a CLI prints (after the
tool name) before exiting non-zero. Anything else escaping a CLI is a bug.
"""


class ToolchainError(Exception):
    """A user-facing error whose message is complete and printable as is."""


class TargetError(ToolchainError):
    """An unknown processor name, or a mismatch between targets."""


class DecodeError(ToolchainError):
    """Bytes that do not decode to an instruction of the target."""


class InstructionError(ToolchainError):
    """An instruction that cannot be encoded; ``operand_index`` points at the culprit."""

    def __init__(self, message, operand_index=None):
        super().__init__(message)
        self.operand_index = operand_index


class AsmError(ToolchainError):
    """Assembly failed; ``diagnostics`` holds every error found."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class ElfFormatError(ToolchainError):
    """A malformed or unsupported ELF file."""


class LinkError(ToolchainError):
    """The linker cannot produce an output (undefined symbol, overflow, ...)."""


class LoadError(ToolchainError):
    """A code object cannot be loaded onto the device."""


class LaunchError(ToolchainError, TypeError):
    """A launch does not match the kernel (arguments, grid, block)."""


class MemoryFault(ToolchainError):
    """An access to device memory outside every allocation, or not permitted."""

    #: the reason of a write to memory mapped read-only
    READ_ONLY = "write to read-only memory"

    def __init__(self, address, size=1, reason="unmapped address", write=False):
        self.address = int(address)
        self.size = size
        self.reason = reason
        self.write = write
        kind = "write" if write else "read"
        super().__init__(f"{reason}: {kind} of {size} byte(s) at 0x{self.address:x}")


class KernelError(ToolchainError, RuntimeError):
    """A kernel stopped abnormally: fault, trap, illegal instruction, watchdog.

    The message names the kernel, work-group, wave, PC, instruction and cause.
    """

    def __init__(self, cause, *, kernel=None, workgroup=None, wave=None, pc=None,
                 instruction=None, address=None):
        self.cause = cause
        self.kernel = kernel
        self.workgroup = workgroup
        self.wave = wave
        self.pc = pc
        self.instruction = instruction
        self.address = address
        super().__init__(self._describe())

    def _describe(self):
        where = []
        if self.kernel is not None:
            where.append(f"kernel '{self.kernel}'")
        if self.workgroup is not None:
            where.append(f"work-group {tuple(self.workgroup)}")
        if self.wave is not None:
            where.append(f"wave {self.wave}")
        if self.pc is not None:
            where.append(f"pc 0x{self.pc:x}")
        if self.instruction:
            where.append(f"'{self.instruction}'")
        text = ", ".join(where)
        return f"{text}: {self.cause}" if text else str(self.cause)


class WatchdogTimeout(KernelError):
    """A kernel exceeded its instruction budget or wall-clock limit."""


class UnsupportedInstruction(KernelError):
    """An instruction the executor deliberately does not implement (graphics)."""


def _amount(value: int, unit: str) -> str:
    """``value`` in ``unit``; bytes also in KiB/MiB/GiB when that reads better."""
    if unit != "bytes":
        return f"{value} {unit}"
    for scale, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if value >= scale:
            return f"{value} bytes ({value / scale:.4g} {name})"
    return f"{value} bytes"


class ResourceLimitError(ToolchainError):
    """A request beyond one of the device's stated limits (``amdgpu-run --info``):
    device memory, LDS per work-group, scratch per wave, kernarg segment, grid and
    work-group sizes, number of queues. ``resource``, ``requested`` and ``limit``
    say which, how much was asked and how much is allowed."""

    def __init__(self, resource: str, requested: int, limit: int, unit: str = "bytes",
                 detail: str = ""):
        self.resource = resource
        self.requested = int(requested)
        self.limit = int(limit)
        self.unit = unit
        message = (f"out of resources: {resource}: {_amount(self.requested, unit)} requested, "
                   f"the limit is {_amount(self.limit, unit)}")
        super().__init__(message + (f" ({detail})" if detail else ""))


class LaunchLimitError(ResourceLimitError, LaunchError):
    """A launch beyond a stated limit (LDS, scratch, kernarg, grid, work-group)."""

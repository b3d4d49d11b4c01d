"""The Python half of the virtual GPU's driver: the command processor's work.

The thunk (``native/thunk.c``, loaded by ROCr as ``libhsakmt.so.1``) starts
an embedded interpreter, calls ``start()`` once for the GPU node's facts and
then, from its command-processor thread, calls ``poll()`` whenever a doorbell
was rung or the program mapped, freed or created something. ``poll`` applies
those changes (memory mappings, AQL and SDMA queues) and runs every queue's
packets: AQL packets through the project's one ``PacketProcessor`` and
executor, SDMA packets through ``SdmaEngine``.

Everything the GPU signals goes back through the thunk: a completion signal
with an event mailbox raises an interrupt, a kernel's ``s_sendmsg`` interrupt
too, a memory fault fills the runtime's memory event (ROCr then reports it
and aborts, as with a real GPU), and any other kernel error sets the queue's
error code in its ``queue_inactive_signal`` (ROCr calls the queue's error
callback; HIP aborts with its message).

Options come from the environment ``amdgpu-run --exec`` sets (see
``launcher.py``).
"""

from __future__ import annotations

import ctypes
import os
import sys
import time
import traceback

from .. import exec as exec_package
from ..errors import MemoryFault, ToolchainError, UnsupportedInstruction
from ..exec.launch import ExecutionLimits, TraceOptions, profile_lines
from ..isa.targets import get_target
from ..runtime.descriptors import decode_amd_kernel_code, decode_kernel_descriptor
from ..runtime.layouts import AMD_QUEUE, AMD_SIGNAL
from ..runtime.processor import KernelObject, PacketProcessor
from ..runtime.queues import AqlRing
from . import environment as env
from .loaded_symbols import kernel_name
from .process_memory import ProcessMemory
from .sdma import SdmaEngine, SdmaError
from .topology import node_facts, parse_mcpu

#: Seconds a program may leave the GPU idle after a fatal kernel error before
#: it is ended (it would wait forever for a dispatch that cannot complete).
DEFAULT_ERROR_EXIT_SECONDS = 10.0

# thunk.c's change-log operations
OP_MAP, OP_UNMAP, OP_AQL_QUEUE, OP_SDMA_QUEUE, OP_DESTROY_QUEUE = 1, 2, 3, 4, 5
DRAIN_BATCH = 256

#: queue_inactive_signal error bits the runtime decodes (ROCr's
#: AqlQueue::DynamicScratchHandler): illegal instruction, and the "debug
#: trap" code for any other wave error (s_trap, the watchdog)
QUEUE_ERROR_ILLEGAL_INSTRUCTION = 0x40000000
QUEUE_ERROR_TRAP = 0x80000000

KERNEL_DESCRIPTOR_BYTES = 64
AMD_KERNEL_CODE_BYTES = 256


class _Record(ctypes.Structure):
    """thunk.c's ``struct vgpu_record``."""
    _fields_ = [("op", ctypes.c_uint64)] + [(name, ctypes.c_uint64) for name in "abcdef"]


def report(message: str) -> None:
    """The emulator's own diagnostics: one line on stderr, prefixed."""
    print(f"amdgpu-run: {message}", file=sys.stderr, flush=True)


class Thunk:
    """The calls the driver makes into thunk.c (ctypes releases the GIL)."""

    def __init__(self, path: str):
        lib = ctypes.CDLL(path)
        self.drain = lib.amdgpu_vgpu_drain
        self.drain.argtypes = [ctypes.POINTER(_Record), ctypes.c_int]
        self.release = lib.amdgpu_vgpu_release
        self.release.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
        self.lookup_raw = lib.amdgpu_vgpu_lookup
        self.lookup_raw.argtypes = [ctypes.c_uint64] + [ctypes.POINTER(ctypes.c_uint64)] * 3
        self.interrupt = lib.amdgpu_vgpu_interrupt
        self.interrupt.argtypes = [ctypes.c_uint32]
        self.memory_fault = lib.amdgpu_vgpu_memory_fault
        self.memory_fault.argtypes = [ctypes.c_uint64, ctypes.c_int]
        self.exit_when_idle = lib.amdgpu_vgpu_exit_when_idle
        self.exit_when_idle.argtypes = [ctypes.c_double]

    def lookup(self, address: int):
        """(GPU base, size, host address of the bytes) of the mapping at ``address``."""
        base, size, host = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
        if self.lookup_raw(address, ctypes.byref(base), ctypes.byref(size), ctypes.byref(host)):
            return base.value, size.value, host.value
        return None


class VirtualGpu:
    """One emulated GPU: process memory, queues, the packet processor."""

    def __init__(self, target_id, thunk: Thunk):
        self.target_id = target_id
        self.target = get_target(target_id.processor)
        self.thunk = thunk
        # with XNACK on, the GPU reaches all of the process's memory (HMM), as
        # ROCm then assumes: pageable host pointers are handed to kernels
        lookup = _any_process_mapping(thunk.lookup) if target_id.setting("xnack") \
            else thunk.lookup
        self.memory = ProcessMemory(lookup)
        self.processor = PacketProcessor(self.memory, self.target, executor=self._execute)
        self.processor.resolve_kernel_object = self._kernel_object
        self.processor.vendor_handler = self._vendor_packet
        self.processor.signal_hook = self._signal_changed
        self.processor.interrupt_hook = self._interrupt
        self.processor.limits = _limits_from_environment()
        self.processor.trace = _trace_from_environment()
        if os.environ.get(env.CHECK):
            self.processor.check = "report"
            self.processor.hazard_sink = _report_hazards
        self.aql_queues: dict[int, AqlRing] = {}
        self.sdma_queues: dict[int, SdmaEngine] = {}
        self._kernels: dict[tuple, KernelObject] = {}
        self._records = (_Record * DRAIN_BATCH)()

    # ----------------------------------------------------------------- poll
    def poll(self) -> bool:
        """Apply the program's changes, run every queue; True while packets wait."""
        self._apply_changes()
        self.processor.run()
        for queue_id, engine in list(self.sdma_queues.items()):
            try:
                engine.process()
            except SdmaError as error:     # the engine halts, as hardware would
                report(f"SDMA queue {queue_id}: {error}")
                del self.sdma_queues[queue_id]
                self._arm_error_exit()
        return self._pending()

    def _pending(self) -> bool:
        for queue in self.aql_queues.values():
            if queue.state == AqlRing.ACTIVE and queue.load_read_index() < queue.load_write_index():
                return True
        return any(engine.pending() for engine in self.sdma_queues.values())

    def _apply_changes(self) -> None:
        while True:
            count = self.thunk.drain(self._records, DRAIN_BATCH)
            for record in self._records[:count]:
                self._apply(record)
            if count < DRAIN_BATCH:
                return

    def _apply(self, record) -> None:
        op = record.op
        if op == OP_MAP:          # GPU address, size, registered?, host address of the bytes
            self.memory.map(record.a, record.b, host_address=record.d,
                            kind="registered" if record.c else "device")
        elif op == OP_UNMAP:      # address, bytes to release, release?, release base
            self.memory.unmap(record.a)
            if record.c:          # the thunk's own mmap: no longer used by the GPU
                self.thunk.release(record.d, record.b)
        elif op == OP_AQL_QUEUE:
            self._create_aql_queue(record.a, record.e)
        elif op == OP_SDMA_QUEUE:
            self.sdma_queues[record.a] = SdmaEngine(
                self.memory, record.b, record.c, record.d, record.e,
                on_trap=self._sdma_trap, clock=_clock, gfx_major=self.target.isa_version[0])
        elif op == OP_DESTROY_QUEUE:
            queue = self.aql_queues.pop(record.a, None)
            if queue is not None:
                self.processor.queues.remove(queue)
            self.sdma_queues.pop(record.a, None)

    def _create_aql_queue(self, queue_id: int, write_pointer: int) -> None:
        """Attach the runtime's amd_queue_t (its write_dispatch_id is the
        write pointer ROCr handed to hsaKmtCreateQueue)."""
        address = write_pointer - AMD_QUEUE.offset("write_dispatch_id")
        queue = AqlRing.attach(self.memory, address, queue_id, callback=self._queue_failed)
        self.aql_queues[queue_id] = queue
        self.processor.queues.append(queue)

    # ------------------------------------------------------------- packets
    def _execute(self, request):
        """The executor, and the profile of each kernel when --profile asked."""
        result = exec_package.run_dispatch(request)
        for line in profile_lines(result, f"profile of kernel '{request.kernel_name}'"):
            report(line)
        return result

    def _kernel_object(self, address: int):
        """The KernelSetup of the descriptor ROCr's loader placed at ``address``:
        a v2 amd_kernel_code_t or a v3+ kernel descriptor."""
        try:
            raw = self.memory.read(address, KERNEL_DESCRIPTOR_BYTES)
        except ToolchainError:
            return None
        if _is_amd_kernel_code(raw):
            raw = self.memory.read(address, AMD_KERNEL_CODE_BYTES)
        key = (address, raw)
        kernel = self._kernels.get(key)
        if kernel is None:
            decode = decode_amd_kernel_code if len(raw) == AMD_KERNEL_CODE_BYTES \
                else decode_kernel_descriptor
            name = kernel_name(self.memory, address) or f"kernel object 0x{address:x}"
            kernel = self._kernels[key] = KernelObject(name, decode(raw, address).setup)
        return kernel

    def _vendor_packet(self, queue, address: int) -> None:
        """AMD vendor packets: PM4 cache maintenance after code loads (GFX9
        AMD_AQL_FORMAT_PM4_IB, GFX8 raw PM4 in the slot). Memory here is
        coherent, so there is nothing to do but complete the packet."""

    def _signal_changed(self, handle: int) -> None:
        """A completion signal changed: raise its interrupt, as the CP does."""
        mailbox = AMD_SIGNAL.read(self.memory, handle, "event_mailbox_ptr")
        if mailbox:
            event_id = AMD_SIGNAL.read(self.memory, handle, "event_id")
            self.memory.write_u64(mailbox, event_id)
            self.thunk.interrupt(event_id)

    def _interrupt(self, m0: int) -> None:
        """A wave's s_sendmsg interrupt: M0[23:0] names the event."""
        self.thunk.interrupt(m0 & 0xFFFFFF)

    def _sdma_trap(self, context_id: int) -> None:
        self.thunk.interrupt(context_id)

    # --------------------------------------------------------------- errors
    def _arm_error_exit(self) -> None:
        self.thunk.exit_when_idle(float(os.environ.get(env.ERROR_EXIT,
                                                       DEFAULT_ERROR_EXIT_SECONDS)))

    def _queue_failed(self, status, queue, error) -> None:
        """A packet failed: say why, then tell the runtime the way hardware does.

        The queue's dispatch never completes; a program that handles the
        error (HIP aborts) is not affected by the idle limit armed here, a
        program left waiting for the completion is ended after it."""
        report(str(error))
        self._arm_error_exit()
        fault = _memory_fault_of(error)
        if fault is not None and self.thunk.memory_fault(
                fault.address, int(fault.reason == MemoryFault.READ_ONLY)):
            return
        code = QUEUE_ERROR_ILLEGAL_INSTRUCTION if isinstance(error, UnsupportedInstruction) \
            else QUEUE_ERROR_TRAP
        signal = AMD_QUEUE.read(self.memory, queue.address, "queue_inactive_signal")
        if not signal:
            return
        value = AMD_SIGNAL.read(self.memory, signal, "value")
        AMD_SIGNAL.write(self.memory, signal, "value", value | code)
        self._signal_changed(signal)


def _memory_fault_of(error):
    """The MemoryFault behind a kernel error (raised from it or while handling it)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, MemoryFault):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


def _any_process_mapping(lookup):
    """``lookup``, falling back to the process's own memory map (/proc/self/maps)."""
    def find(address: int):
        found = lookup(address)
        if found is not None:
            return found
        with open("/proc/self/maps") as maps:
            for line in maps:
                span, permissions = line.split()[:2]
                low, high = (int(part, 16) for part in span.split("-"))
                if low <= address < high and permissions.startswith("rw"):
                    return low, high - low, low
        return None
    return find


def _is_amd_kernel_code(raw: bytes) -> bool:
    """amd_kernel_code_t starts with version 1.x and machine kind 1 (AMDGPU)
    and a GCN major version; a v3+ descriptor has its kernarg size there."""
    major = int.from_bytes(raw[0:4], "little")
    kind = int.from_bytes(raw[8:10], "little")
    gfx = int.from_bytes(raw[10:12], "little")
    return major == 1 and kind == 1 and 6 <= gfx <= 9


def _clock() -> int:
    """The GPU clock: nanoseconds of CLOCK_MONOTONIC, as the thunk reports."""
    return time.monotonic_ns()


def _limits_from_environment() -> ExecutionLimits:
    defaults = ExecutionLimits()
    return ExecutionLimits(
        max_wave_instructions=int(os.environ.get(env.MAX_INSTRUCTIONS,
                                                 defaults.max_wave_instructions)),
        max_seconds=float(os.environ.get(env.TIMEOUT, defaults.max_seconds)))


def _report_hazards(hazards):
    """--check: each hazard as one line on the program's stderr."""
    for hazard in hazards:
        report(f"hazard: {hazard.describe()}")


def _trace_from_environment():
    """--trace / --profile as amdgpu-run checked and passed them."""
    return TraceOptions.from_text(os.environ.get(env.TRACE), bool(os.environ.get(env.PROFILE)),
                                  sink=report)


# -------------------------------------------------- the thunk's entry points
_gpu: VirtualGpu | None = None


def start() -> dict:
    """hsaKmtOpenKFD's half: create the virtual GPU; the GPU node's facts."""
    global _gpu
    target_id = parse_mcpu(os.environ.get(env.MCPU))
    if os.environ.get(env.DEBUG):
        report(f"virtual GPU {target_id}: driver {__file__}, Python {sys.executable}")
    _gpu = VirtualGpu(target_id, Thunk(os.environ.get(env.LIBRARY, "libhsakmt.so.1")))
    return node_facts(target_id)


def poll() -> bool:
    """One command-processor pass; never raises (the thread must go on)."""
    try:
        return _gpu.poll()
    except Exception as error:        # a driver bug: say so once, keep the GPU alive
        report(f"internal error in the virtual GPU: {type(error).__name__}: {error}")
        if os.environ.get(env.DEBUG):
            traceback.print_exc()
        return False

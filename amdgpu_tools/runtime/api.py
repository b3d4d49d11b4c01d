"""The high-level Python API: ``Device``, device buffers, programs and kernels.

Built only on the low-level HSA-style layer (``hsa.py``): a launch allocates
a kernarg segment in the kernarg region, fills it (``kernargs.py``), writes a
real 64-byte kernel dispatch packet into the device's AQL queue with the
header last, rings the doorbell and waits on the completion signal. A kernel
error leaves the queue in the error state and is raised, once, as the
``KernelError`` the executor reported, by the launch whose packet failed.

Recovery: the device's default queue in the error state is replaced by a fresh
one at the next launch (``Device.reset()`` does it at once, for every queue the
device created); memory is untouched, so buffers keep what the kernels wrote.
A queue made with ``create_queue`` stays in the error state as HSA specifies:
launching on it raises a ``QueueError`` that says so (use a new queue, or
``Device.reset()``, which replaces it).
"""

from __future__ import annotations

import functools
import os
import sys
import threading

import numpy as np

from ..elf.constants import SHN_ABS
from ..elf.structs import align_up
from ..errors import LaunchError, LaunchLimitError, ToolchainError
from ..exec.launch import COMPILE_MODES, default_jobs
from .hsa import (GLOBAL_SIZE, GROUP_SEGMENT_SIZE, MAX_GRID_SIZE, MAX_KERNARG_SEGMENT_SIZE,
                  MAX_QUEUES, MAX_SCRATCH_PER_WAVE, MAX_WORKGROUP_SIZE, WAVEFRONT_SIZE, Agent)
from .kernargs import Geometry, HiddenContext, build_kernarg_segment, dynamic_lds_layout
from .hostcall import hostcall_for_launch
from .launch_resources import LaunchResources, Lent
from .layouts import KERNEL_DISPATCH_PACKET, PACKET_TYPE_KERNEL_DISPATCH
from .packets import QueueNotActive, publish
from .queues import QueueError
from .printf import DEFAULT_PRINTF_BUFFER_BYTES, PRINTF_HEADER_BYTES, decode_printf_buffer

__all__ = ["Device", "LocalMemory", "Buffer", "Program", "Kernel"]

#: Private bytes per work-item added for kernels with a dynamic call stack
#: (the stack size HIP and OpenCL runtimes reserve by default).
DEFAULT_DYNAMIC_STACK_BYTES = 1024


class LocalMemory:
    """Dynamic group (LDS) memory for a ``__local`` pointer argument."""

    def __init__(self, nbytes: int):
        if int(nbytes) < 0:
            raise LaunchError(f"LocalMemory size must be non-negative, got {nbytes}")
        self.nbytes = int(nbytes)

    def __repr__(self):
        return f"LocalMemory({self.nbytes})"


class Buffer:
    """A NumPy-shaped allocation in device memory."""

    def __init__(self, device, address: int, shape, dtype):
        self.device = device
        self.address = address
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize

    def __repr__(self):
        return f"Buffer(0x{self.address:x}, shape={self.shape}, dtype={self.dtype})"

    def __len__(self):
        return self.shape[0] if self.shape else 1

    def numpy(self) -> np.ndarray:
        """A copy of the buffer's current contents."""
        raw = self.device.memory.view(self.address, self.nbytes)
        return raw.view(self.dtype).reshape(self.shape).copy()

    def write(self, array) -> None:
        """Overwrite the buffer with ``array`` (same number of bytes)."""
        array = np.ascontiguousarray(array, dtype=self.dtype)
        if array.nbytes != self.nbytes:
            raise LaunchError(f"cannot write {array.nbytes} bytes into a {self.nbytes}-byte buffer")
        self.device.memory.write(self.address, array)

    def free(self) -> None:
        self.device.memory.free(self.address)


class Device:
    """One GPU agent with one AQL queue, driven from Python."""

    def __init__(self, target=None, *, executor=None, queue_size=1024, limits=None, trace=None,
                 printf_stream=None, printf_buffer_size=DEFAULT_PRINTF_BUFFER_BYTES,
                 dynamic_stack_size=DEFAULT_DYNAMIC_STACK_BYTES, memory_size=GLOBAL_SIZE,
                 max_queues=MAX_QUEUES, check=False, jobs=None, compile=None):
        """``check``: watch every kernel for hazards (missing ``s_waitcnt``, missing
        wait states, LDS and global data races; ``analysis.hazard_monitor``):
        True collects them in ``hazards`` (results are unchanged), ``"stop"``
        stops a kernel at its first hazard with a ``HazardError``.
        ``jobs``: most worker processes a dispatch's work-groups run in (None:
        one per core this process may use); ``exec.core.parallel`` says which
        dispatches stay in this process.
        ``compile``: when blocks of ALU code run as native code (Numba):
        ``"auto"`` (hot blocks, cached across runs), ``"eager"`` (every block),
        ``"check"`` (every block, compared with the interpreter after each run),
        ``"off"``; None: ``$AMDGPU_TOOLS_COMPILE``, else ``"auto"``
        (``exec.compiled.tier``). Results are the same in every mode."""
        self.agent = Agent(target, executor, memory_size=memory_size, max_queues=max_queues)
        if check not in (False, None, True, "stop"):
            raise LaunchError(f"check={check!r}: use False, True or 'stop'")
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise LaunchError(f"jobs={jobs!r}: use a positive number of processes")
        self.agent.processor.jobs = default_jobs() if jobs is None else jobs
        if compile is not None and compile not in COMPILE_MODES:
            raise LaunchError(f"compile={compile!r}: use one of {', '.join(COMPILE_MODES)}")
        self.agent.processor.compile = compile
        self.agent.processor.check = "stop" if check == "stop" else "report" if check else None
        self.queue = self.agent.queue_create(queue_size)
        #: the kernarg segment and completion signal launches borrow
        self.launch_resources = LaunchResources(self.agent, LENT_KERNARG_BYTES)
        if limits is not None:
            self.agent.processor.limits = limits
        self.agent.processor.trace = trace
        self.printf_stream = printf_stream
        self.printf_buffer_size = printf_buffer_size
        self.dynamic_stack_size = dynamic_stack_size
        self.last_result = None
        #: queues whose error has been raised already (never raised twice)
        self._reported = set()
        #: guards the default queue's replacement and the set above
        self._lock = threading.RLock()

    @property
    def memory(self):
        return self.agent.memory

    @property
    def hazards(self) -> list:
        """The hazards every checked kernel reported so far (``analysis.hazards.Hazard``:
        ``describe()`` gives the sentence), oldest first."""
        return list(self.agent.processor.hazards)

    @property
    def target(self):
        return self.agent.target

    def __repr__(self):
        return f"Device({self.agent.name!r})"

    # ---------------------------------------------------------------- buffers
    def empty(self, shape, dtype=np.float32) -> Buffer:
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        if any(isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0
               for n in shape):
            raise LaunchError(f"buffer shape {shape} must be non-negative integers")
        dtype = np.dtype(dtype)
        nbytes = 1
        for n in shape:                 # Python ints: no int64 overflow for huge shapes
            nbytes *= int(n)
        nbytes *= dtype.itemsize
        address = self.agent.allocate(nbytes, "coarse grained", align=256)
        return Buffer(self, address, shape, dtype)

    def zeros(self, shape, dtype=np.float32) -> Buffer:
        return self.empty(shape, dtype)   # device allocations start zero-filled

    def array(self, array) -> Buffer:
        array = np.ascontiguousarray(array)
        buffer = self.empty(array.shape, array.dtype)
        buffer.write(array)
        return buffer

    # ---------------------------------------------------------------- programs
    def load(self, source) -> "Program":
        """Load a code object from a path or bytes (ET_DYN, or ET_REL linked on load)."""
        if isinstance(source, (bytes, bytearray, memoryview)):
            data, label = bytes(source), "<bytes>"
        else:
            label = os.fspath(source)
            try:
                with open(label, "rb") as handle:
                    data = handle.read()
            except OSError as failure:
                raise ToolchainError(f"cannot read '{label}': {failure.strerror}") from None
        return Program(self, self.agent.load(data), label)

    def create_queue(self, size: int = 1024, callback=None):
        """Another AQL queue on this device; launches take it as ``queue=``."""
        return self.agent.queue_create(size, callback=callback)

    def synchronize(self) -> None:
        """Let the queues drain; raises the error of a queue that entered the
        error state since it was last reported (each error is raised once)."""
        self.agent.processor.run()
        for queue in list(self.agent.processor.queues):
            with self._lock:
                if queue.error is None or queue in self._reported:
                    continue
                self._reported.add(queue)
            raise queue.error

    def reset(self) -> None:
        """Recover from kernel faults: every queue of this device in the error
        state is destroyed and the default queue is replaced by a fresh one if it
        failed. Memory (buffers, loaded programs) is kept as it is. Queues from
        ``create_queue`` that failed are gone afterwards: create new ones."""
        self.agent.processor.run()
        with self._lock:
            if self.queue.state != self.queue.ACTIVE:
                self._replace_default_queue()
            for queue in list(self.agent.processor.queues):
                if queue.state == queue.ERROR and isinstance(queue, type(self.queue)):
                    self._discard(queue)

    def queue_for_launch(self, queue=None):
        """The queue a launch uses: ``queue``, or the default queue (a fresh one
        when the current default queue is in the error state)."""
        if queue is None:
            with self._lock:
                if self.queue.state != self.queue.ACTIVE:
                    self._replace_default_queue()
                return self.queue
        if queue.state != queue.ACTIVE:
            cause = f": {queue.error}" if queue.error is not None else ""
            raise QueueError(f"queue {queue.id} is {queue.state} (an earlier packet failed"
                             f"{cause}); launch on a new queue (Device.create_queue) or call "
                             "Device.reset()")
        return queue

    def _replace_default_queue(self) -> None:
        old = self.queue
        self.queue = self.agent.queue_create(old.size)
        self._discard(old)

    def _discard(self, queue) -> None:
        self._reported.discard(queue)
        if queue in self.agent.processor.queues:
            self.agent.queue_destroy(queue)

    def info(self) -> str:
        return self.agent.info()


class Program:
    """A loaded code object: its kernels by name."""

    def __init__(self, device: Device, loaded, label: str):
        self.device = device
        self.loaded = loaded
        self.label = label

    @property
    def kernels(self) -> dict:
        return self.loaded.kernels

    def __iter__(self):
        return iter(self.loaded.kernels)

    def __contains__(self, name):
        return name in self.loaded.kernels

    def symbol_address(self, name: str) -> int:
        """Device address of a defined symbol (a global variable, a kernel's code);
        an absolute symbol (SHN_ABS) is a constant the load base does not move."""
        symbol = self.loaded.code.symbols.get(name)
        if symbol is None or not symbol.is_defined:
            raise LaunchError(f"no symbol named '{name}' is defined in {self.label}")
        return symbol.value if symbol.shndx == SHN_ABS else self.loaded.base + symbol.value

    def __getitem__(self, name) -> "Kernel":
        kernel = self.loaded.kernels.get(name)
        if kernel is None:
            known = ", ".join(sorted(self.loaded.kernels)) or "none"
            raise LaunchError(f"no kernel named '{name}' in {self.label} (kernels: {known})")
        return Kernel(self.device, kernel)


def _plain(sizes) -> bool:
    """An int, or a tuple of ints: sizes whose checked Geometry can be remembered."""
    kind = type(sizes)
    if kind is int:
        return True
    return kind is tuple and all(type(v) is int for v in sizes)


def _dims(value, what: str, limit: int, resource: str) -> tuple:
    try:
        values = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    except TypeError:
        values = (value,)
    if not 1 <= len(values) <= 3:
        raise LaunchError(f"{what} must have 1 to 3 dimensions, got {len(values)}")
    for axis, v in zip("xyz", values):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
            raise LaunchError(f"{what} {tuple(values)} out of range: each size must be an "
                              f"integer in 1..{limit}")
        if v > limit:
            raise LaunchLimitError(f"{resource} in {axis}", v, limit, unit="work-items",
                                   detail=f"{what} {tuple(int(x) for x in values)}")
    return tuple(int(v) for v in values)


class Kernel:
    """A callable kernel: ``kernel(*args, grid=..., block=...)`` launches it."""

    def __init__(self, device: Device, info):
        self.device = device
        self.info = info
        #: (grid, block) -> Geometry of launches already checked (plain ints only:
        #: a bool or a NumPy integer is checked again, to raise or convert)
        self._geometries = {}

    @property
    def name(self) -> str:
        return self.info.name

    def __repr__(self):
        return f"Kernel({self.name!r})"

    def __call__(self, *args, grid, block, queue=None, shared=0):
        """Launch on the device's queue (or ``queue``, from ``Device.create_queue``);
        ``shared``: bytes of dynamic group memory not tied to an argument (HIP's
        ``extern __shared__``, the launch's sharedMemBytes)."""
        geometry = self._geometries.get((grid, block)) if _plain(grid) and _plain(block) \
            else None
        if geometry is None:
            geometry = self.check_geometry(grid, block)
            if _plain(grid) and _plain(block) and len(self._geometries) < 64:
                self._geometries[grid, block] = geometry
        if not isinstance(shared, (int, np.integer)) or shared < 0:
            raise LaunchError(f"shared={shared!r}: dynamic group memory is a byte count >= 0")
        return launch(self.device, self.info, list(args), geometry, queue=queue,
                      shared=int(shared))

    def check_geometry(self, grid, block) -> Geometry:
        grid_t = _dims(grid, "grid", MAX_GRID_SIZE, "grid size")
        block_t = _dims(block, "block", MAX_WORKGROUP_SIZE, "work-group size")
        dims = max(len(grid_t), len(block_t))
        grid_t += (1,) * (3 - len(grid_t))
        block_t += (1,) * (3 - len(block_t))
        total = grid_t[0] * grid_t[1] * grid_t[2]
        if total > MAX_GRID_SIZE:
            raise LaunchLimitError("grid size", total, MAX_GRID_SIZE, unit="work-items",
                                   detail=f"grid {grid_t}")
        size = block_t[0] * block_t[1] * block_t[2]
        limit = min(self.info.max_flat_workgroup_size or MAX_WORKGROUP_SIZE, MAX_WORKGROUP_SIZE)
        if size > limit:
            whose = f"kernel '{self.name}' allows" if limit < MAX_WORKGROUP_SIZE else \
                "the device allows"
            raise LaunchLimitError("work-group size", size, limit, unit="work-items",
                                   detail=f"block {block_t}; {whose} at most {limit}")
        return Geometry(grid_t, block_t, dims)


# ----------------------------------------------------------------- arguments
_FLOAT_TYPES = {"float", "double", "half"}
_INT_TYPES = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "bool",
              "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "unsigned int", "unsigned char",
              "unsigned short", "unsigned long"}


def _describe_arg(index, arg) -> str:
    label = f"argument {index}"
    if arg is not None and (arg.name or arg.type_name):
        label += f" ({' '.join(x for x in (arg.type_name, arg.name) if x)})"
    return label


def _encode_value(kernel, index, arg, value, local_offsets) -> bytes:
    """Bytes of one explicit argument, after checking it against its metadata."""
    where = f"{_describe_arg(index, arg)} of kernel '{kernel.name}'"
    kind = arg.value_kind
    if kind == "global_buffer":
        if isinstance(value, Buffer):
            return value.address.to_bytes(arg.size, "little")
        raise LaunchError(f"{where} expects a device buffer, got {type(value).__name__}")
    if kind == "dynamic_shared_pointer":
        if isinstance(value, LocalMemory):
            return local_offsets[index].to_bytes(arg.size, "little")
        raise LaunchError(f"{where} is a __local pointer and expects LocalMemory(nbytes), "
                          f"got {type(value).__name__}")
    if kind == "by_value":
        return _encode_scalar(where, arg, value)
    raise LaunchError(f"{where} has value kind '{kind}', which this runtime cannot pass")


def _encode_scalar(where, arg, value) -> bytes:
    base_type = arg.type_name.strip().lower()
    if isinstance(value, (Buffer, LocalMemory)):
        raise LaunchError(f"{where} is passed by value ({arg.type_name or f'{arg.size} bytes'}), "
                          f"got {type(value).__name__}")
    if isinstance(value, (bytes, bytearray)):
        raw = bytes(value)
    elif isinstance(value, (np.generic, np.ndarray)):
        array = np.asarray(value)
        if base_type in _FLOAT_TYPES and array.dtype.kind != "f":
            raise LaunchError(f"{where} is a {base_type}; pass a NumPy float scalar, "
                              f"got {array.dtype}")
        if base_type in _INT_TYPES and array.dtype.kind not in "iub":
            raise LaunchError(f"{where} is an integer ({base_type}); pass a NumPy integer "
                              f"scalar, got {array.dtype}")
        raw = array.tobytes()
    else:
        raise LaunchError(f"{where} expects a NumPy scalar of {arg.size} bytes "
                          f"(e.g. np.int32 / np.float32), got {type(value).__name__}")
    if len(raw) != arg.size:
        raise LaunchError(f"{where} is {arg.size} bytes, got a {len(raw)}-byte value")
    return raw


def _encode_raw(kernel, index, value, local_offsets) -> bytes:
    """No metadata: a buffer is its 64-bit address, a scalar its own bytes."""
    if isinstance(value, Buffer):
        return value.address.to_bytes(8, "little")
    if isinstance(value, LocalMemory):
        return local_offsets[index].to_bytes(4, "little")
    if isinstance(value, (np.generic, np.ndarray)):
        return np.asarray(value).tobytes()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    raise LaunchError(f"argument {index} of kernel '{kernel.name}' (no metadata): pass a "
                      f"device buffer, LocalMemory or a NumPy scalar, got {type(value).__name__}")


def encode_args(kernel, args: list):
    """Explicit argument bytes and the dynamic LDS they need: (values, dynamic size)."""
    local_sizes = {i: a.nbytes for i, a in enumerate(args) if isinstance(a, LocalMemory)}
    offsets, dynamic = dynamic_lds_layout(kernel, local_sizes)
    if kernel.args is None:
        return [_encode_raw(kernel, i, v, offsets) for i, v in enumerate(args)], dynamic
    explicit = kernel.explicit_args
    if len(args) != len(explicit):
        names = ", ".join(a.name or a.type_name or "?" for a in explicit)
        raise LaunchError(f"kernel '{kernel.name}' takes {len(explicit)} argument(s) "
                          f"({names}), got {len(args)}")
    return [_encode_value(kernel, i, a, v, offsets)
            for i, (a, v) in enumerate(zip(explicit, args))], dynamic


# -------------------------------------------------------------------- launch
#: Granule of kernarg allocations. Compilers widen kernarg loads past the last
#: argument (clang-14 reads a 44-byte segment with s_load_dwordx4 at 0x20), and
#: the ROCm runtime sub-allocates kernarg segments from a larger pool where such
#: over-reads land in mapped memory; rounding up gives the same guarantee.
KERNARG_GRANULE = 256
#: Size of the kernarg segment a device lends its launches (``launch_resources``):
#: code object v5 segments start with 256 bytes of hidden arguments, so one
#: granule would serve none of them; a launch whose segment is larger maps its own.
LENT_KERNARG_BYTES = 4 * KERNARG_GRANULE


def kernarg_allocation_size(segment_size: int) -> int:
    """Bytes to map for a kernarg segment of ``segment_size`` bytes."""
    return max(KERNARG_GRANULE, align_up(segment_size, KERNARG_GRANULE))


def launch(device: Device, kernel, args: list, geometry: Geometry, *, queue=None, shared=0):
    """Dispatch ``kernel`` through an AQL packet and wait for it; returns the
    executor's DispatchResult. Raises KernelError when the kernel fails.
    Thread-safe: the packet slot is reserved atomically (``packets.publish``); a
    default queue that another thread's fault replaced meanwhile is retried on the
    new default queue."""
    agent = device.agent
    values, dynamic_lds = encode_args(kernel, args)
    dynamic_lds += shared
    group_size, private_size = _segment_sizes(device, kernel, dynamic_lds)
    while True:
        target_queue = device.queue_for_launch(queue)
        temporaries = []   # released after the dispatch: kernarg, buffers, signal
        blocked = False
        try:
            kernarg, printf_buffer, hostcall = _kernarg_segment(
                device, kernel, values, geometry, target_queue, dynamic_lds, temporaries)
            done = _completion_signal(device, temporaries)
            results = []
            agent.processor.kernarg_hooks[kernarg] = functools.partial(
                _finished, device, kernel, printf_buffer, results)
            if hostcall:
                agent.processor.host_services[kernarg] = hostcall.serve
            try:
                index = submit_dispatch(target_queue, kernel, geometry, kernarg, group_size,
                                        private_size, done.handle, ring=False)
            except QueueNotActive:
                if queue is not None:
                    device.queue_for_launch(queue)    # raises the QueueError saying why
                    raise
                continue                      # the default queue was replaced: retry
            target_queue.ring_doorbell(index)
            value = agent.signal_wait(done, "eq", 0)
            if value != 0 and target_queue.error is not None:
                _raise_queue_error(device, target_queue, index, kernel)
            if value != 0:
                blocked = True   # the packet is still queued: keep what it points at
                raise ToolchainError(f"dispatch of kernel '{kernel.name}' did not complete "
                                     f"(queue {target_queue.id} is blocked)")
        finally:
            if not blocked:
                _release(agent, temporaries)
        device.last_result = results[0] if results else None
        return device.last_result


def _raise_queue_error(device, queue, index, kernel):
    """The launch's packet did not complete because its queue failed: the packet's
    own error (raised once), or a QueueError when an earlier packet failed."""
    with device._lock:
        own = queue.error_index == index and queue not in device._reported
        if own:
            device._reported.add(queue)
    if own:
        raise queue.error
    raise QueueError(f"dispatch of kernel '{kernel.name}' was not run: queue {queue.id} entered "
                     f"the error state at an earlier packet ({queue.error})")


def _segment_sizes(device, kernel, dynamic_lds: int) -> tuple[int, int]:
    """(group, private) segment sizes of the packet: the kernel's fixed sizes plus
    the launch's dynamic LDS and, for a dynamic call stack, the device's stack size."""
    group_size = kernel.group_segment_fixed_size + dynamic_lds
    if group_size > GROUP_SEGMENT_SIZE:
        raise LaunchLimitError("LDS per work-group", group_size, GROUP_SEGMENT_SIZE,
                               detail=f"kernel '{kernel.name}': "
                               f"{kernel.group_segment_fixed_size} fixed + {dynamic_lds} dynamic")
    private_size = kernel.private_segment_fixed_size + \
        (device.dynamic_stack_size if kernel.uses_dynamic_stack else 0)
    if private_size * WAVEFRONT_SIZE > MAX_SCRATCH_PER_WAVE:
        raise LaunchLimitError("scratch per wave", private_size * WAVEFRONT_SIZE,
                               MAX_SCRATCH_PER_WAVE,
                               detail=f"kernel '{kernel.name}': {private_size} bytes per "
                               f"work-item x {WAVEFRONT_SIZE} lanes")
    return group_size, private_size


def _kernarg_segment(device, kernel, values, geometry, queue, dynamic_lds, temporaries):
    """The filled kernarg segment in the kernarg region, and the printf and hostcall
    buffers its hidden arguments point at: (address, printf buffer, Hostcall or None).
    Every allocation is added to ``temporaries``."""
    printf_buffer, hostcall, context = 0, None, None
    if kernel.hidden_args:
        printf_buffer = _printf_buffer(device, kernel, temporaries)
        hostcall = hostcall_for_launch(device, kernel, geometry)
        temporaries += [hostcall] if hostcall else []
        context = HiddenContext(queue_address=queue.address, printf_buffer=printf_buffer,
                                hostcall_buffer=hostcall.address if hostcall else 0,
                                dynamic_lds_size=dynamic_lds)
    segment = build_kernarg_segment(kernel, values, geometry, context)
    if len(segment) > MAX_KERNARG_SEGMENT_SIZE:
        raise LaunchLimitError("kernarg segment", len(segment), MAX_KERNARG_SEGMENT_SIZE,
                               detail=f"kernel '{kernel.name}'")
    size, align = kernarg_allocation_size(len(segment)), max(16, kernel.kernarg_align)
    lent = device.launch_resources.kernarg(segment, size, align)
    if lent is not None:
        temporaries.append(lent)
        return lent.item, printf_buffer, hostcall
    kernarg = device.agent.allocate(size, "kernarg", align=align)
    temporaries.append(kernarg)
    device.memory.write(kernarg, segment)
    return kernarg, printf_buffer, hostcall


def _completion_signal(device, temporaries):
    """A signal of value 1 the dispatch decrements: the device's lent one when it is
    free, else a new one. Added to ``temporaries``."""
    lent = device.launch_resources.signal(1)
    if lent is not None:
        temporaries.append(lent)
        return lent.item
    signal = device.agent.signal_create(1)
    temporaries.append(signal)
    return signal


def _printf_buffer(device, kernel, temporaries) -> int:
    """A printf buffer (used bytes, capacity, records) when the kernel takes one."""
    if not any(a.value_kind == "hidden_printf_buffer" for a in kernel.hidden_args):
        return 0
    buffer = device.agent.allocate(device.printf_buffer_size, "fine grained")
    temporaries.append(buffer)
    device.memory.write_u32(buffer + 4, device.printf_buffer_size - PRINTF_HEADER_BYTES)
    return buffer


def _finished(device, kernel, printf_buffer, results, result) -> None:
    """Completion of the dispatch: keep its result, print its printf records."""
    results.append(result)
    if printf_buffer:
        used = device.memory.read_u32(printf_buffer) + PRINTF_HEADER_BYTES
        raw = device.memory.read(printf_buffer, min(used, device.printf_buffer_size))
        stream = device.printf_stream or sys.stdout
        stream.write(decode_printf_buffer(raw, kernel.printf_formats))
        stream.flush()


def _release(agent, temporaries) -> None:
    """Unmap (or give back) what a launch used; the hooks of its kernarg segment go."""
    processor = agent.processor
    for item in temporaries:
        address = item.item if isinstance(item, Lent) else item
        if isinstance(address, int):
            processor.kernarg_hooks.pop(address, None)
            processor.host_services.pop(address, None)
        if isinstance(item, int):
            agent.free(item)
        else:
            item.destroy()


def submit_dispatch(queue, kernel, geometry: Geometry, kernarg: int, group_size: int,
                    private_size: int, completion_signal: int, ring: bool = True) -> int:
    """Publish a kernel dispatch packet (header last, barrier bit set so that
    launches run in order) and ring the doorbell; returns its packet index.
    An active queue only (QueueNotActive otherwise)."""
    key = (kernel.kernel_object, geometry.dims, geometry.grid, geometry.block, kernarg,
           group_size, private_size, completion_signal)
    body = _PACKET_BODIES.get(key)
    if body is None:
        body = KERNEL_DISPATCH_PACKET.pack(
            setup=geometry.dims,
            workgroup_size_x=geometry.block[0], workgroup_size_y=geometry.block[1],
            workgroup_size_z=geometry.block[2],
            grid_size_x=geometry.grid[0], grid_size_y=geometry.grid[1],
            grid_size_z=geometry.grid[2],
            private_segment_size=private_size, group_segment_size=group_size,
            kernel_object=kernel.kernel_object, kernarg_address=kernarg,
            completion_signal=completion_signal)
        if len(_PACKET_BODIES) >= PACKET_BODIES_KEPT:
            _PACKET_BODIES.clear()
        _PACKET_BODIES[key] = body
    return publish(queue, KERNEL_DISPATCH_PACKET, PACKET_TYPE_KERNEL_DISPATCH, barrier=True,
                   ring=ring, active_only=True, body=body)


#: The bodies of recent dispatch packets, by what they hold: a kernel
#: launched again with the same sizes gets the lent kernarg segment and
#: signal again, so its packet is the same bytes (packing them: ~3 us).
_PACKET_BODIES: dict = {}
PACKET_BODIES_KEPT = 256

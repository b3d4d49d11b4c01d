"""The packet processor: consumes AQL packets from every queue of an agent.

It follows the HSA packet life cycle. A packet whose header type is INVALID
has not been published yet, so the queue waits there. In the launch phase a
packet with the barrier bit waits for every earlier packet of its queue to
complete, and a barrier-AND (barrier-OR) packet waits until all (any) of its
dependency signals are zero. In the active phase a kernel dispatch becomes a
``DispatchRequest`` for the executor, and an agent dispatch calls the handler
registered for its type. In the completion phase the completion signal is
decremented, the slot's header is set back to INVALID and the read index
advances.

The processor is deterministic: ``run()`` round-robins over the queues until
none can move (a queue blocked on a dependency is skipped while others run),
and it is re-entered whenever a doorbell or signal changes. Any number of host
threads may call ``run()``: one runs at a time (``lock``), the others wait for
it and then make their own pass, so a packet published by any thread is
processed before its producer's ``run()`` returns. A call from the thread that
is already running (a hook, a host service) only asks for another pass.
A kernel error puts its queue in the error state: that queue processes no
further packets while the others continue.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import NamedTuple

from .. import exec as exec_package
from ..errors import KernelError, MemoryFault, ToolchainError, UnsupportedInstruction
from ..exec.launch import DispatchRequest, ExecutionLimits, GlobalDataShare
from .layouts import (AGENT_DISPATCH_PACKET, AMD_SIGNAL, AQL_PACKET_SIZE, BARRIER_DEPENDENCIES,
                      BARRIER_PACKET, KERNEL_DISPATCH_PACKET, PACKET_TYPE_AGENT_DISPATCH,
                      PACKET_TYPE_BARRIER_AND, PACKET_TYPE_BARRIER_OR, PACKET_TYPE_INVALID,
                      PACKET_TYPE_KERNEL_DISPATCH, PACKET_TYPE_VENDOR_SPECIFIC, header_barrier, header_type,
                      packet_header, setup_dimensions)
from .memory import Pinned
from .signals import ATOMIC
from .queues import (HSA_STATUS_ERROR_EXCEPTION, HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION,
                     HSA_STATUS_ERROR_INVALID_CODE_OBJECT, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                     HSA_STATUS_ERROR_INVALID_SIGNAL,
                     HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, Queue)


EVENT_HISTORY = 4096
#: Dispatch results kept (``results``): few, since each holds dicts the
#: garbage collector walks; thousands kept made every collection of a
#: launch-heavy program walk them (~15% of a one-wave launch's cost).
RESULT_HISTORY = 64
_INVALID_HEADER = packet_header(PACKET_TYPE_INVALID).to_bytes(2, "little")
#: amd_signal_t's start_ts and end_ts, one after the other
#: (offset, struct) of the completion signal's timestamps, written at once
_TIMESTAMPS = AMD_SIGNAL.span(("start_ts", "end_ts"))


class PacketError(ToolchainError):
    """A packet the processor cannot execute (bad format, unknown kernel object)."""

    def __init__(self, message, status=HSA_STATUS_ERROR_INVALID_PACKET_FORMAT):
        super().__init__(message)
        self.status = status


@dataclass
class KernelObject:
    """What the loader registers for a kernel_object address."""

    name: str
    setup: object                 # amdgpu_tools.exec.launch.KernelSetup


class PacketEvent(NamedTuple):
    """One phase change, recorded for tools and tests: (queue, index, type, phase).
    (A tuple: three are made for every packet.)"""

    queue_id: int
    index: int
    packet_type: int
    phase: str


class PacketProcessor:
    """Executes the packets of every queue registered with it."""

    def __init__(self, memory, target, executor=None):
        self.memory = memory
        self.target = target
        self._executor = executor
        self.queues: list[Queue] = []
        self.kernel_objects: dict[int, KernelObject] = {}
        self.agent_handlers: dict[int, object] = {}
        self.kernarg_hooks: dict[int, object] = {}
        #: kernarg address -> callable the executor calls while that dispatch runs
        #: (the hostcall server of the dispatch's hostcall buffer)
        self.host_services: dict[int, object] = {}
        self.limits = ExecutionLimits()
        self.trace = None
        #: most worker processes a dispatch's work-groups may run in
        #: (``DispatchRequest.jobs``; the memory must be shared for more than 1)
        self.jobs = 1
        #: when ALU blocks run natively (``DispatchRequest.compile``; None: the environment's)
        self.compile = None
        #: hazard checking of every dispatch: None (off), "report" (collect into
        #: ``hazards``) or "stop" (the first hazard stops its kernel as a fault would)
        self.check = None
        #: the hazards found so far (bounded: runs can be long)
        self.hazards: deque = deque(maxlen=EVENT_HISTORY * 16)
        #: called with a finished dispatch's hazards (when there are any)
        self.hazard_sink = None
        #: kernel_object address -> KernelObject for objects no loader registered
        #: (the virtual GPU reads descriptors ROCr's loader put in memory); None: error
        self.resolve_kernel_object = None
        #: called with (queue, packet address) for vendor-specific packets; None: error
        self.vendor_handler = None
        #: called with a completion signal's handle after its value changed
        #: (the virtual GPU raises the signal's interrupt event there)
        self.signal_hook = None
        #: called with the M0 value of a wave's s_sendmsg interrupt
        self.interrupt_hook = None
        #: the device's global data share (GDS memory, GWS resources, ordered
        #: counters): one for the agent's lifetime, so dispatches see each
        #: other's GDS values as on hardware within a queue's allocation
        self.gds = GlobalDataShare()
        #: the most recent phase changes and dispatch results (bounded: runs can be long)
        self.events: deque = deque(maxlen=EVENT_HISTORY)
        self.results: deque = deque(maxlen=RESULT_HISTORY)
        self._running = False
        self._again = False
        #: completion signal handle -> its Pinned amd_signal_t
        self._signals: dict[int, Pinned] = {}
        #: held while packets are processed; re-entrant for the running thread
        #: (``Agent.queue_destroy`` takes it so a queue never vanishes mid-step)
        self.lock = threading.RLock()
        self._owner = None

    @property
    def executor(self):
        if self._executor is None:
            self._executor = exec_package.run_dispatch  # looked up now: tests replace it
        return self._executor

    # ------------------------------------------------------------------ loop
    def run(self) -> bool:
        """Process packets until no queue can move; True if anything happened.
        Another thread's run is waited for first (see the module docstring)."""
        if self._owner == threading.get_ident():
            self._again = True
            return False
        with self.lock:
            self._owner = threading.get_ident()
            self._running = True
            moved_any = False
            try:
                while True:
                    self._again = False
                    last_moved = -1
                    for position, queue in enumerate(list(self.queues)):
                        while self._step(queue):
                            last_moved = position
                    moved_any |= last_moved >= 0
                    # a queue looked at before the last one that moved may have been
                    # unblocked by it; those after it were looked at since
                    if last_moved <= 0 and not self._again:
                        return moved_any
            finally:
                self._running = False
                self._owner = None

    def _step(self, queue: Queue) -> bool:
        """Try to consume the next packet of ``queue``; True if it was consumed."""
        if queue.state != Queue.ACTIVE:
            return False
        index, write_index = queue.load_indices()
        if index >= write_index:
            return False
        address = queue.packet_address(index)
        header = int.from_bytes(queue.ring.read(address, 2), "little")
        kind = header_type(header)
        if kind == PACKET_TYPE_INVALID:
            return False
        try:
            # Every earlier packet of this queue has completed when this one is
            # reached (packets complete in order here), so the barrier bit holds.
            if kind in (PACKET_TYPE_BARRIER_AND, PACKET_TYPE_BARRIER_OR):
                if not self._dependencies_met(address, kind):
                    return False
            self._event(queue, index, kind,
                        "launch" + ("+barrier" if header_barrier(header) else ""))
            self._event(queue, index, kind, "active")
            started = time.monotonic_ns()
            signal = self._activate(queue, index, address, kind)
            self._complete(queue, index, address, started, signal)
        except KernelError as failure:
            return self._fail(queue, index, kind, _status_of(failure), failure)
        except PacketError as failure:
            return self._fail(queue, index, kind, failure.status, failure)
        except MemoryFault as fault:     # a signal handle that is not a live signal
            failure = PacketError(f"queue {queue.id} packet {index}: bad signal handle: {fault}",
                                  HSA_STATUS_ERROR_INVALID_SIGNAL)
            return self._fail(queue, index, kind, failure.status, failure)
        self._event(queue, index, kind, "complete")
        return True

    def _fail(self, queue, index, kind, status, failure) -> bool:
        if queue.state == Queue.ACTIVE:
            queue.error_index = index
        queue.enter_error_state(status, failure)
        self._event(queue, index, kind, "error")
        return False

    def _event(self, queue, index, kind, phase):
        self.events.append(PacketEvent(queue.id, index, kind, phase))

    # ---------------------------------------------------------------- phases
    def _dependencies_met(self, address: int, kind: int) -> bool:
        values = []
        for n in range(BARRIER_DEPENDENCIES):
            handle = BARRIER_PACKET.read(self.memory, address, f"dep_signal{n}")
            if handle:
                values.append(AMD_SIGNAL.read(self.memory, handle, "value"))
        if not values:
            return True
        if kind == PACKET_TYPE_BARRIER_AND:
            return all(value == 0 for value in values)
        return any(value == 0 for value in values)

    def _activate(self, queue, index, address, kind):
        """Run the packet; returns its completion signal handle where it read
        the packet whole (a kernel dispatch), else None."""
        if kind == PACKET_TYPE_KERNEL_DISPATCH:
            return self._dispatch_kernel(queue, index, address)
        if kind == PACKET_TYPE_AGENT_DISPATCH:
            self._dispatch_agent(address)
        elif kind == PACKET_TYPE_VENDOR_SPECIFIC and self.vendor_handler is not None:
            self.vendor_handler(queue, address)
        elif kind not in (PACKET_TYPE_BARRIER_AND, PACKET_TYPE_BARRIER_OR):
            raise PacketError(f"queue {queue.id} packet {index}: unsupported packet type {kind}")

    def _complete(self, queue, index, address, started, signal=None):
        """Release the slot, then decrement the completion signal (``signal``:
        its handle as the packet named it when it was read whole, else read
        now); its start_ts/end_ts get the packet's active phase in
        nanoseconds (the clock of the agent's timestamps), as the CP writes
        them when the queue profiles."""
        if signal is None:
            signal = KERNEL_DISPATCH_PACKET.read(queue.ring, address, "completion_signal")
        queue.ring.write(address, _INVALID_HEADER)
        queue.store_read_index(index + 1)
        if signal:
            fields = self._signal_fields(signal)
            fields.pack_into(_TIMESTAMPS[1], signal + _TIMESTAMPS[0], started,
                             time.monotonic_ns())
            with ATOMIC:                  # host threads may update the signal too
                value = AMD_SIGNAL.read(fields, signal, "value")
                AMD_SIGNAL.write(fields, signal, "value", value - 1)
            if self.signal_hook is not None:
                self.signal_hook(signal)

    def _signal_fields(self, handle: int) -> Pinned:
        """The amd_signal_t at ``handle``, for the accesses of a completion (kept
        for the signals packets name again and again; a bad handle faults)."""
        fields = self._signals.get(handle)
        if fields is None:
            if len(self._signals) >= EVENT_HISTORY:
                self._signals.clear()
            fields = self._signals[handle] = Pinned(self.memory, handle, AMD_SIGNAL.size)
        return fields

    # ------------------------------------------------------ kernel dispatch
    def _dispatch_kernel(self, queue, index, address):
        packet = KERNEL_DISPATCH_PACKET.load(queue.ring, address)
        kernel = self.kernel_objects.get(packet["kernel_object"])
        if kernel is None and self.resolve_kernel_object is not None:
            kernel = self.resolve_kernel_object(packet["kernel_object"])
        if kernel is None:
            raise PacketError(f"kernel object 0x{packet['kernel_object']:x} is not a loaded "
                              "kernel", HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
        dims = setup_dimensions(packet["setup"])
        workgroup = (packet["workgroup_size_x"], packet["workgroup_size_y"],
                     packet["workgroup_size_z"])
        grid = (packet["grid_size_x"], packet["grid_size_y"], packet["grid_size_z"])
        if not 1 <= dims <= 3:
            raise PacketError(f"dispatch packet has {dims} dimensions (must be 1-3)")
        if min(workgroup) == 0 or min(grid) == 0:
            raise PacketError(f"dispatch packet has a zero size: grid {grid}, work-group {workgroup}")
        request = DispatchRequest(
            memory=self.memory, target=self.target, kernel_name=kernel.name, setup=kernel.setup,
            grid_size=grid, workgroup_size=workgroup, packet_address=address,
            queue_address=queue.address, kernarg_address=packet["kernarg_address"],
            dispatch_id=index,     # the packet's index in its queue, as AMD's CP reports it
            group_segment_size=packet["group_segment_size"],
            private_segment_size=packet["private_segment_size"],
            limits=self.limits, trace=self.trace,
            host_service=self.host_services.get(packet["kernarg_address"]), gds=self.gds,
            interrupt=self.interrupt_hook, checker=self._checker(kernel), jobs=self.jobs,
            compile=self.compile)
        try:
            result = self.executor(request)
        except MemoryFault as fault:
            raise KernelError(str(fault), kernel=kernel.name, address=fault.address) from fault
        except KernelError as failure:
            if failure.kernel is None:
                failure.kernel = kernel.name
                failure.args = (failure._describe(),)
            raise
        if request.checker is not None:
            self._collect_hazards(result, request.checker)
        self.results.append(result)
        hook = self.kernarg_hooks.pop(packet["kernarg_address"], None)
        if hook is not None:
            hook(result)
        return packet["completion_signal"]

    def _checker(self, kernel):
        """A fresh hazard checker for one dispatch of ``kernel`` (None: not checking)."""
        if not self.check:
            return None
        # (imported here: a process that never checks does not pay its ~0.06 s)
        from ..analysis.hazard_monitor import DispatchChecker
        return DispatchChecker(kernel.name, self.target.generation,
                               entry=kernel.setup.entry_address,
                               private=_scratch_test(self.memory),
                               stop_at_first=self.check == "stop")

    def _collect_hazards(self, result, checker):
        result.hazards = checker.finish()
        if result.hazards:
            self.hazards.extend(result.hazards)
            if self.hazard_sink is not None:
                self.hazard_sink(result.hazards)

    def _dispatch_agent(self, address):
        packet = AGENT_DISPATCH_PACKET.unpack(self.memory.read(address, AQL_PACKET_SIZE))
        handler = self.agent_handlers.get(packet["type"])
        if handler is None:
            raise PacketError(f"no agent function registered for agent dispatch type "
                              f"{packet['type']}")
        args = [packet[f"arg{n}"] for n in range(4)]
        result = handler(*args)
        if packet["return_address"] and result is not None:
            self.memory.write_u64(packet["return_address"], int(result))


def _scratch_test(memory):
    """``private(address)``: whether ``address`` is a dispatch's scratch backing."""
    def private(address):
        try:
            return getattr(memory.allocation_at(address), "kind", "") == "scratch"
        except MemoryFault:
            return False
    return private


def _status_of(failure: KernelError) -> int:
    """The hsa_status_t an error callback receives for a kernel failure."""
    if isinstance(failure, UnsupportedInstruction):
        return HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
    if failure.address is not None:
        return HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
    return HSA_STATUS_ERROR_EXCEPTION

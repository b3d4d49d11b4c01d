"""The low-level, HSA-style runtime API: an agent, its memory regions, signals,
AQL queues and loaded code objects.

This is the layer the high-level ``Device`` API is built on, and it can be
driven by hand exactly like the HSA runtime: allocate a kernarg segment, write
a 64-byte dispatch packet with its header last, ring the doorbell, wait on
the completion signal.

    agent = Agent("gfx900")
    program = agent.load(code_object_bytes)
    queue = agent.queue_create(64)
    done = agent.signal_create(1)
    index = queue.add_write_index(1)
    ... write the packet at queue.packet_address(index) ...
    queue.ring_doorbell(index)
    done.wait("eq", 0, timeout=10)

The packet processor runs whenever a doorbell or signal changes (and while a
signal is waited on), so everything happens on the caller's thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from ..errors import ResourceLimitError, ToolchainError
from ..isa.targets import ALL_TARGETS, TargetId, get_target
from .layouts import HSA_QUEUE_TYPE_MULTIPLE
from .loader import load_code_object
from .memory import DeviceMemory
from .processor import KernelObject, PacketProcessor
from .queues import MAX_QUEUE_SIZE, Queue
from .signals import Signal


class RegionError(ToolchainError):
    """An allocation a region cannot satisfy."""


@dataclass(frozen=True)
class Region:
    """A memory pool as hsa_amd_memory_pool / hsa_region report it."""

    name: str
    segment: str              # "global", "group", "private", "readonly"
    flags: tuple              # "coarse grained", "fine grained", "kernarg"
    size: int
    alloc_granule: int = 4096
    alloc_alignment: int = 4096
    runtime_alloc_allowed: bool = True

    @property
    def kind(self) -> str:
        return "kernarg" if "kernarg" in self.flags else self.segment


# The device's stated limits (``amdgpu-run --info`` shows them); a request beyond
# one is a ResourceLimitError naming the resource, the request and the limit.
#: LDS bytes per work-group on GCN.
GROUP_SEGMENT_SIZE = 64 * 1024
#: device memory: every allocation (buffers, code objects, kernargs, queues, signals)
GLOBAL_SIZE = 16 << 30
#: work-items per work-group, in all and per dimension
MAX_WORKGROUP_SIZE = 1024
#: work-items per grid, in all and per dimension (the AQL packet's 32-bit fields)
MAX_GRID_SIZE = 0xFFFFFFFF
#: scratch bytes per wave: COMPUTE_TMPRING_SIZE.WAVESIZE is 13 bits of 1 KiB
MAX_SCRATCH_PER_WAVE = ((1 << 13) - 1) * 1024
WAVEFRONT_SIZE = 64
#: bytes of one dispatch's kernarg segment (explicit and hidden arguments)
MAX_KERNARG_SEGMENT_SIZE = 64 * 1024
#: AQL queues an agent has at once
MAX_QUEUES = 128
QUEUE_MIN_SIZE = 64


class Agent:
    """The GPU agent: a target processor, its device memory and packet processor."""

    def __init__(self, target=None, executor=None, compute_units=4, memory_size=GLOBAL_SIZE,
                 max_queues=MAX_QUEUES):
        #: None until the first code object is loaded, which then sets it
        self.target = None if target is None else get_target(target)
        #: the processor with the feature settings asked for (``gfx900:xnack-``);
        #: a feature left out is "any", and loads accept every setting of it
        self.target_id = None if target is None else TargetId.of_device(target).check_supported()
        #: every global region shares this device memory: its size is the limit;
        #: MAP_SHARED pages, so a dispatch's work-groups may run in worker processes
        self.memory = DeviceMemory(capacity=memory_size, shared=True)
        self.processor = PacketProcessor(self.memory, self.target, executor)
        self.compute_units = compute_units
        self.max_queues = max_queues
        self.regions = (
            Region("global coarse-grained", "global", ("coarse grained",), memory_size),
            Region("global fine-grained", "global", ("fine grained",), memory_size),
            Region("kernarg", "global", ("kernarg", "fine grained"), memory_size, 64, 64),
            Region("group", "group", (), GROUP_SEGMENT_SIZE, 0, 0, False),
        )
        self._next_queue_id = 0
        self.code_objects = []
        #: guards queue creation (ids, the queue limit) and loading
        self._lock = threading.RLock()

    # ------------------------------------------------------------ properties
    @property
    def name(self) -> str:
        return self.target.name if self.target else "gcn"

    @property
    def isa_name(self) -> str:
        return self.isa_names[0]

    @property
    def isa_names(self) -> list:
        """The ISAs the agent runs: its target id's, or (before the first code
        object fixes the target) every processor the executor emulates."""
        if self.target is None:
            return [f"amdgcn-amd-amdhsa--{target.name}" for target in ALL_TARGETS]
        return [f"amdgcn-amd-amdhsa--{self.target_id or self.target.name}"]

    def properties(self) -> dict:
        """hsa_agent_info_t values, under the names rocminfo prints."""
        return {
            "Name": self.name,
            "Marketing Name": f"amdgpu-tools embedded executor ({self.name})",
            "Vendor Name": "AMD",
            "Device Type": "GPU",
            "Feature": "KERNEL_DISPATCH AGENT_DISPATCH",
            "Profile": "BASE_PROFILE",
            "Float Round Mode": "NEAR",
            "Queue Min Size": QUEUE_MIN_SIZE,
            "Queue Max Size": MAX_QUEUE_SIZE,
            "Queue Type": "MULTI",
            "Compute Unit": self.compute_units,
            "SIMDs per CU": 4,
            "Wavefront Size": 64,
            "Workgroup Max Size": MAX_WORKGROUP_SIZE,
            "Workgroup Max Size per Dimension": (1024, 1024, 1024),
            "Grid Max Size": MAX_GRID_SIZE,
            "Grid Max Size per Dimension": (MAX_GRID_SIZE,) * 3,
            "Max Waves Per CU": 40,
            "Max Work-item Per CU": 2560,
            "LDS per Work-group": GROUP_SEGMENT_SIZE,
            "Scratch per Wave Max": MAX_SCRATCH_PER_WAVE,
            "Kernarg Segment Max": MAX_KERNARG_SEGMENT_SIZE,
            "Device Memory": self.memory.capacity,
            "Max Queues": self.max_queues,
            "ISA Name": self.isa_name if self.target else
            "(any GFX6-GFX9 processor: the first code object loaded sets it)",
            "ISA Version": ".".join(str(v) for v in self.target.isa_version)
            if self.target else "(set by the first code object)",
        }

    def region(self, kind: str) -> Region:
        """The first region of ``kind``: global, kernarg, group, fine/coarse grained."""
        for region in self.regions:
            if region.kind == kind or kind in region.flags or region.name == kind:
                return region
        raise RegionError(f"agent {self.name} has no '{kind}' region")

    def info(self) -> str:
        """A rocminfo-style description of the agent and its regions."""
        lines = ["*******", "Agent 1", "*******"]
        for key, value in self.properties().items():
            if isinstance(value, tuple):
                lines.append(f"  {key}:")
                lines.extend(f"    {axis:<26}{v}" for axis, v in zip("xyz", value))
            else:
                lines.append(f"  {key + ':':<34}{value}")
        lines.append("  Pool Info:")
        for number, region in enumerate(self.regions, 1):
            lines.append(f"    Pool {number}")
            lines.append(f"      {'Segment:':<32}{region.segment.upper()}; FLAGS: "
                         f"{', '.join(f.upper() for f in region.flags)}")
            lines.append(f"      {'Size:':<32}{region.size // 1024}(0x{region.size // 1024:x}) KB")
            lines.append(f"      {'Allocatable:':<32}{region.runtime_alloc_allowed}")
            lines.append(f"      {'Alloc Granule:':<32}{region.alloc_granule // 1024}KB")
            lines.append(f"      {'Alloc Alignment:':<32}{region.alloc_alignment // 1024}KB")
        lines.append("  ISA Info:")
        for number, isa_name in enumerate(self.isa_names, 1):
            lines.append(f"    ISA {number}")
            lines.append(f"      {'Name:':<32}{isa_name}")
            lines.append(f"      {'Workgroup Max Size:':<32}{MAX_WORKGROUP_SIZE}")
        return "\n".join(lines)

    # ---------------------------------------------------------------- memory
    def allocate(self, size: int, region="global", align: int = 256) -> int:
        """hsa_memory_allocate: ``size`` zero bytes in ``region``; returns the address."""
        region = region if isinstance(region, Region) else self.region(region)
        if not region.runtime_alloc_allowed:
            raise RegionError(f"region '{region.name}' does not allow runtime allocation")
        return self.memory.allocate(size, align=max(align, region.alloc_alignment, 1),
                                    kind=region.kind, name=region.name)

    def free(self, address: int) -> None:
        self.memory.free(address)

    def memory_copy(self, destination: int, source: int, size: int) -> None:
        """hsa_memory_copy: ``size`` bytes between device addresses."""
        self.memory.write(destination, self.memory.read(source, size))

    def memory_fill(self, address: int, value: int, count: int) -> None:
        """hsa_amd_memory_fill: ``count`` 32-bit words of ``value``."""
        self.memory.view(address, 4 * count).view("<u4")[:] = value & 0xFFFFFFFF

    def unload(self, loaded) -> None:
        """Destroy a loaded code object: its kernels can no longer be dispatched."""
        for kernel in loaded.kernels.values():
            self.processor.kernel_objects.pop(kernel.kernel_object, None)
        self.memory.free(loaded.allocation_address)
        self.code_objects.remove(loaded)

    # --------------------------------------------------------------- signals
    def signal_create(self, initial_value: int = 0) -> Signal:
        return Signal.create(self.memory, initial_value, notify=self.processor.run)

    def signal_destroy(self, signal: Signal) -> None:
        signal.destroy()

    def signal_wait(self, signal: Signal, condition, compare_value: int,
                    timeout: float | None = None) -> int:
        return signal.wait(condition, compare_value, timeout, progress=self.processor.run)

    # ---------------------------------------------------------------- queues
    def queue_create(self, size: int = 1024, queue_type: int = HSA_QUEUE_TYPE_MULTIPLE,
                     callback=None) -> Queue:
        """hsa_queue_create; ``callback(status, queue, error)`` reports queue errors."""
        with self._lock:
            live = len(self.processor.queues)
            if live >= self.max_queues:
                raise ResourceLimitError("queues", live + 1, self.max_queues, unit="queues",
                                         detail="destroy a queue first")
            queue = Queue(self.memory, size, self._next_queue_id, queue_type=queue_type,
                          callback=callback, notify=self.processor.run)
            self._next_queue_id += 1
            self.processor.queues.append(queue)
            return queue

    def queue_destroy(self, queue: Queue) -> None:
        """hsa_queue_destroy; waits for a packet processor pass in another thread."""
        with self.processor.lock, self._lock:
            self.processor.queues.remove(queue)
            queue.destroy()

    def register_agent_function(self, dispatch_type: int, function) -> None:
        """Serve AGENT_DISPATCH packets of ``dispatch_type``: ``function(arg0..arg3)``,
        whose integer result is stored at the packet's return address."""
        self.processor.agent_handlers[dispatch_type] = function

    # ----------------------------------------------------------- executables
    def load(self, data: bytes):
        """Load a code object (bytes); returns a LoadedCodeObject whose kernels
        are ready to be named by dispatch packets (kernel_object addresses)."""
        with self._lock:
            return self._load(data)

    def _load(self, data: bytes):
        loaded = load_code_object(self.memory, data, self.target_id)
        if self.target is None:
            self.target = self.processor.target = loaded.target
            self.target_id = TargetId(loaded.target.name)
        for kernel in loaded.kernels.values():
            self.processor.kernel_objects[kernel.kernel_object] = KernelObject(
                kernel.name, kernel.setup)
        self.code_objects.append(loaded)
        return loaded

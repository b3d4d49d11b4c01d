"""AQL queues: an ``amd_queue_t`` and its ring of 64-byte packets in device memory.

The write index is ``amd_queue_t.write_dispatch_id`` and the read index
``read_dispatch_id``, both 64-bit packet counts that only grow; packet ``i``
lives in slot ``i % size`` of the ring. A producer reserves slots by bumping
the write index, writes a packet body, writes its header last, then rings the
doorbell signal with the packet's index. The packet processor
(``processor.py``) consumes packets and advances the read index.
"""

from __future__ import annotations

import threading

from ..errors import ToolchainError
from ..exec.launch import PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE
from .layouts import (AMD_QUEUE, AMD_QUEUE_PROPERTIES_IS_PTR64, AMD_SIGNAL,
                      AMD_SIGNAL_KIND_DOORBELL, AQL_PACKET_SIZE,
                      HSA_QUEUE_FEATURE_AGENT_DISPATCH, HSA_QUEUE_FEATURE_KERNEL_DISPATCH,
                      HSA_QUEUE_TYPE_MULTIPLE, PACKET_TYPE_INVALID, packet_header)
from .memory import Pinned
from .signals import Signal

#: hsa.h / hsa_ext_amd.h status codes a queue's error callback receives.
HSA_STATUS_ERROR_INVALID_SIGNAL = 0x1006
HSA_STATUS_ERROR_INVALID_PACKET_FORMAT = 0x1009
HSA_STATUS_ERROR_INVALID_CODE_OBJECT = 0x1010
HSA_STATUS_ERROR_EXCEPTION = 0x1016
HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION = 0x29
HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION = 0x2A
HSA_STATUS_ERROR_MEMORY_FAULT = 0x2B

MAX_QUEUE_SIZE = 1 << 17
_INDICES = ("read_dispatch_id", "write_dispatch_id")


class QueueError(ToolchainError):
    """A queue cannot be created or used as asked."""


class AqlRing:
    """An amd_queue_t and its ring of packets, wherever they live.

    The packet processor only needs this: the indices, the slots and the
    error state. ``Queue`` creates its own in device memory; the virtual GPU
    attaches to the ones the ROCm runtime allocates (``attach``).
    """

    ACTIVE, ERROR, INACTIVE = "active", "error", "inactive"

    def __init__(self, memory, address: int, ring_address: int, size: int, queue_id: int,
                 callback=None):
        self.memory = memory
        self.address = address
        self.ring_address = ring_address
        self.size = size
        #: the amd_queue_t and the ring, for the accesses every packet makes
        self.fields = Pinned(memory, address, AMD_QUEUE.size)
        self.ring = Pinned(memory, ring_address, size * AQL_PACKET_SIZE)
        self.id = queue_id
        self.callback = callback
        self.state = self.ACTIVE
        self.status = 0
        self.error = None          # the exception that put the queue in the error state
        #: index of the packet whose failure put the queue in the error state
        self.error_index = None
        #: held by a producer while it reserves and writes a slot (the HSA queue
        #: protocol's atomic write-index update), and while the queue is destroyed
        self.lock = threading.RLock()

    @classmethod
    def attach(cls, memory, address: int, queue_id: int, callback=None) -> "AqlRing":
        """The queue whose amd_queue_t is at ``address`` (ring and size read from it)."""
        return cls(memory, address, AMD_QUEUE.read(memory, address, "base_address"),
                   AMD_QUEUE.read(memory, address, "size"), queue_id, callback)

    def __repr__(self):
        return (f"{type(self).__name__}(id={self.id}, size={self.size}, "
                f"read={self.load_read_index()}, write={self.load_write_index()}, "
                f"state={self.state})")

    # ----------------------------------------------------------- hsa_queue_t
    @property
    def type(self) -> int:
        return AMD_QUEUE.read(self.memory, self.address, "type")

    @property
    def features(self) -> int:
        return AMD_QUEUE.read(self.memory, self.address, "features")

    def load_read_index(self) -> int:
        return AMD_QUEUE.read(self.fields, self.address, "read_dispatch_id")

    def store_read_index(self, value: int) -> None:
        AMD_QUEUE.write(self.fields, self.address, "read_dispatch_id", value)

    def load_indices(self) -> tuple[int, int]:
        """(read index, write index), read at once."""
        return AMD_QUEUE.read_fields(self.fields, self.address, _INDICES)

    def load_write_index(self) -> int:
        return AMD_QUEUE.read(self.fields, self.address, "write_dispatch_id")

    def store_write_index(self, value: int) -> None:
        AMD_QUEUE.write(self.fields, self.address, "write_dispatch_id", value)

    def add_write_index(self, count: int = 1) -> int:
        """Reserve ``count`` slots atomically; returns the first reserved packet index."""
        with self.lock:
            old = self.load_write_index()
            self.store_write_index(old + count)
            return old

    def cas_write_index(self, expected: int, value: int) -> int:
        with self.lock:
            old = self.load_write_index()
            if old == expected:
                self.store_write_index(value)
            return old

    def reserve(self, count: int = 1) -> int | None:
        """Reserve ``count`` slots if the ring has room for them (one atomic step);
        returns the first packet index, or None when the ring is full."""
        with self.lock:
            read, write = self.load_indices()
            if write + count - read > self.size:
                return None
            self.store_write_index(write + count)
            return write

    def packet_address(self, index: int) -> int:
        """Address of the slot holding packet ``index``."""
        return self.ring_address + (index % self.size) * AQL_PACKET_SIZE

    def has_room(self, count: int = 1) -> bool:
        read, write = self.load_indices()
        return write + count - read <= self.size

    def enter_error_state(self, status: int, error=None) -> None:
        """Stop processing and report ``status`` to the error callback once."""
        if self.state == self.ERROR:
            return
        self.state = self.ERROR
        self.status = status
        self.error = error
        if self.callback is not None:
            self.callback(status, self, error)


class Queue(AqlRing):
    """One user-mode AQL queue this runtime creates: the amd_queue_t, its ring
    and its doorbell signal, all in device memory."""

    def __init__(self, memory, size: int, queue_id: int, *, queue_type=HSA_QUEUE_TYPE_MULTIPLE,
                 callback=None, notify=None):
        if size <= 0 or size & (size - 1) or size > MAX_QUEUE_SIZE:
            raise QueueError(f"queue size {size} is not a power of two in 1..{MAX_QUEUE_SIZE}")
        self._notify = notify or (lambda: None)
        ring_address = memory.allocate(size * AQL_PACKET_SIZE, align=AQL_PACKET_SIZE,
                                       kind="queue", name=f"queue {queue_id} ring")
        ring = memory.view(ring_address, size * AQL_PACKET_SIZE).view("<u2")
        ring[::AQL_PACKET_SIZE // 2] = packet_header(PACKET_TYPE_INVALID)   # every header
        self.doorbell = Signal.create(memory, 0, notify=self._notify)
        AMD_SIGNAL.write(memory, self.doorbell.handle, "kind", AMD_SIGNAL_KIND_DOORBELL)
        address = memory.allocate(AMD_QUEUE.size, align=AMD_QUEUE.align, kind="queue",
                                  name=f"amd_queue_t {queue_id}")
        super().__init__(memory, address, ring_address, size, queue_id, callback)
        AMD_SIGNAL.write(memory, self.doorbell.handle, "queue_ptr", self.address)
        memory.write(self.address, AMD_QUEUE.pack(
            type=queue_type,
            features=HSA_QUEUE_FEATURE_KERNEL_DISPATCH | HSA_QUEUE_FEATURE_AGENT_DISPATCH,
            base_address=self.ring_address,
            doorbell_signal=self.doorbell.handle,
            size=size,
            id=queue_id,
            group_segment_aperture_base_hi=SHARED_APERTURE_BASE >> 32,
            private_segment_aperture_base_hi=PRIVATE_APERTURE_BASE >> 32,
            queue_properties=AMD_QUEUE_PROPERTIES_IS_PTR64,
            read_dispatch_id_field_base_byte_offset=AMD_QUEUE.offset("read_dispatch_id"),
        ))

    def ring_doorbell(self, index: int) -> None:
        """Tell the packet processor that packets up to ``index`` are ready."""
        self.doorbell.store(index)

    # ------------------------------------------------------------ life cycle
    def inactivate(self) -> None:
        """hsa_queue_inactivate: the queue processes no further packets."""
        if self.state == self.ACTIVE:
            self.state = self.INACTIVE

    def destroy(self) -> None:
        with self.lock:
            self.state = self.INACTIVE
            self.memory.free(self.ring_address)
            self.memory.free(self.address)
            self.doorbell.destroy()

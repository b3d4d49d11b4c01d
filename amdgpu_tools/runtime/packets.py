"""Writing AQL packets into a queue the way an HSA producer must: reserve a
slot, write the body, then publish the packet by writing its header last,
and ring the doorbell.
"""

from __future__ import annotations

import functools

from ..errors import ToolchainError
from .queues import QueueError
from .layouts import (AGENT_DISPATCH_PACKET, BARRIER_DEPENDENCIES, BARRIER_PACKET,
                      KERNEL_DISPATCH_PACKET, PACKET_TYPE_AGENT_DISPATCH,
                      PACKET_TYPE_BARRIER_AND, PACKET_TYPE_BARRIER_OR,
                      PACKET_TYPE_KERNEL_DISPATCH, packet_header)


class QueueNotActive(QueueError):
    """The queue was destroyed, or (``active_only``) is not active."""


def publish(queue, layout, packet_type: int, *, barrier: bool = False, ring: bool = True,
            active_only: bool = False, body: bytes | None = None, **fields) -> int:
    """Reserve a slot, write ``fields`` (or the packed ``body``, the packet's
    bytes with its header's left zero) with the header last; returns the
    packet index.

    Safe from any number of threads: the slot is reserved and written under the
    queue's lock (the doorbell is rung after it). A full ring is drained by the
    packet processor first; it is an error only when nothing can drain it. With
    ``active_only`` a queue in the error or inactive state is refused (QueueNotActive)
    instead of receiving a packet that would never run."""
    if body is None:
        body = layout.pack(**fields)
    header = _header_bytes(packet_type, barrier)
    while True:
        with queue.lock:
            if not _mapped(queue):
                raise QueueNotActive(f"queue {queue.id} has been destroyed")
            if active_only and queue.state != queue.ACTIVE:
                raise QueueNotActive(f"queue {queue.id} is {queue.state}")
            index = queue.reserve(1)
            if index is not None:
                address = queue.packet_address(index)
                queue.ring.write(address + 2, body[2:])
                queue.ring.write(address, header)
                break
        progress = getattr(queue, "_notify", None)
        if progress is None or not progress():
            raise ToolchainError(f"queue {queue.id} is full")
    if ring:
        queue.ring_doorbell(index)
    return index


@functools.lru_cache(maxsize=64)
def _header_bytes(packet_type: int, barrier: bool) -> bytes:
    return packet_header(packet_type, barrier=barrier).to_bytes(2, "little")


def _mapped(queue) -> bool:
    try:
        queue.fields.read(queue.address, 1)
        return True
    except ToolchainError:
        return False


def barrier_packet(queue, dependencies, completion_signal=0, *, any_of: bool = False,
                   barrier: bool = False, ring: bool = True) -> int:
    """A barrier-AND (or barrier-OR with ``any_of``) packet over up to five signals."""
    handles = [getattr(s, "handle", s) for s in dependencies]
    if len(handles) > BARRIER_DEPENDENCIES:
        raise ToolchainError(f"a barrier packet takes at most {BARRIER_DEPENDENCIES} signals")
    fields = {f"dep_signal{n}": h for n, h in enumerate(handles)}
    return publish(queue, BARRIER_PACKET,
                   PACKET_TYPE_BARRIER_OR if any_of else PACKET_TYPE_BARRIER_AND,
                   barrier=barrier, ring=ring,
                   completion_signal=getattr(completion_signal, "handle", completion_signal),
                   **fields)


def agent_dispatch_packet(queue, dispatch_type: int, args=(), return_address: int = 0,
                          completion_signal=0, *, barrier: bool = False, ring: bool = True):
    fields = {f"arg{n}": a for n, a in enumerate(args)}
    return publish(queue, AGENT_DISPATCH_PACKET, PACKET_TYPE_AGENT_DISPATCH, barrier=barrier,
                   ring=ring, type=dispatch_type, return_address=return_address,
                   completion_signal=getattr(completion_signal, "handle", completion_signal),
                   **fields)


def kernel_dispatch_packet(queue, kernel_object: int, kernarg_address: int, grid, block, *,
                           group_segment_size: int = 0, private_segment_size: int = 0,
                           completion_signal=0, barrier: bool = False, ring: bool = True):
    """A kernel dispatch packet; ``grid``/``block`` are 3-tuples, dims from ``grid``."""
    dims = 3 if grid[2] > 1 or block[2] > 1 else 2 if grid[1] > 1 or block[1] > 1 else 1
    return publish(queue, KERNEL_DISPATCH_PACKET, PACKET_TYPE_KERNEL_DISPATCH, barrier=barrier,
                   ring=ring, setup=dims,
                   workgroup_size_x=block[0], workgroup_size_y=block[1], workgroup_size_z=block[2],
                   grid_size_x=grid[0], grid_size_y=grid[1], grid_size_z=grid[2],
                   group_segment_size=group_segment_size,
                   private_segment_size=private_segment_size, kernel_object=kernel_object,
                   kernarg_address=kernarg_address,
                   completion_signal=getattr(completion_signal, "handle", completion_signal))

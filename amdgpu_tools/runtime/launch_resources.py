"""The kernarg segment and completion signal a device lends to its launches.

Every launch needs a kernarg segment and a completion signal, and mapping and
unmapping them costs more than the rest of a short kernel's host work. So a
``Device`` makes one of each when it is created and lends them: a launch
takes them when they are free (and the segment is big and aligned enough:
``LENT_KERNARG_BYTES`` holds the hidden arguments of code object v5 and a
few hundred bytes of the kernel's own),
gives them back once its dispatch completed, and otherwise maps its own,
which are unmapped afterwards as before. Only the items made up front
circulate, so what a launch leaves mapped is exactly what it would without
them. A lent item is rewritten whole before each use (the segment up to the
end of its allocation, the whole amd_signal_t), so a launch never sees what
the one before left there.
"""

from __future__ import annotations

import threading

from .layouts import AMD_SIGNAL, AMD_SIGNAL_KIND_USER


class Lent:
    """A lent item: its ``destroy()`` gives it back instead of unmapping it."""

    __slots__ = ("owner", "item")

    def __init__(self, owner, item):
        self.owner = owner
        self.item = item

    def destroy(self) -> None:
        self.owner.give_back(self)


class LaunchResources:
    """One kernarg segment of ``kernarg_size`` bytes and one completion signal."""

    def __init__(self, agent, kernarg_size: int):
        self.agent = agent
        self.kernarg_size = kernarg_size
        self._kernarg = Lent(self, agent.allocate(kernarg_size, "kernarg"))
        self._signal = Lent(self, agent.signal_create(1))
        self._signal_bytes = {}
        #: the items on hand (taken and given back under the lock: threads launch too)
        self._free = {"kernarg": self._kernarg, "signal": self._signal}
        self._lock = threading.Lock()

    def kernarg(self, segment: bytes, size: int, align: int):
        """The lent segment holding ``segment`` (zeros up to the end of the
        allocation), or None when it is in use, smaller than ``size`` or not
        aligned to ``align``."""
        address = self._kernarg.item
        if size > self.kernarg_size or address % align or not self._take("kernarg"):
            return None
        self.agent.memory.write(address, segment.ljust(self.kernarg_size, b"\0"))
        return self._kernarg

    def signal(self, initial_value: int):
        """The lent signal, reset as ``signal_create(initial_value)`` makes one,
        or None when it is in use."""
        if not self._take("signal"):
            return None
        raw = self._signal_bytes.get(initial_value)
        if raw is None:
            raw = self._signal_bytes[initial_value] = AMD_SIGNAL.pack(
                kind=AMD_SIGNAL_KIND_USER, value=initial_value)
        self.agent.memory.write(self._signal.item.handle, raw)
        return self._signal

    def _take(self, name) -> bool:
        with self._lock:
            return self._free.pop(name, None) is not None

    def give_back(self, lent) -> None:
        with self._lock:
            self._free["kernarg" if lent is self._kernarg else "signal"] = lent

"""HSA signals: a 64-bit value in an ``amd_signal_t`` in device memory.

The signal's handle is the address of its ``amd_signal_t``, as in AMD's
runtime, so a kernel or a packet can refer to it by that 64-bit number. The
value field is the one place the value lives: the host API, the packet
processor (completion signals, barrier dependencies) and kernels (atomics on
``handle + 8``) all see the same bytes.

Waiting on a signal lets the packet processor make progress (``notify``), then
checks the condition, until the timeout expires. Read-modify-write operations
are atomic (``ATOMIC``, shared with the packet processor's completion-signal
decrement), and any number of threads may wait on one signal: the processor's
``run()`` waits for another thread's pass, so a waiter that sees no progress has
seen every packet published before it looked.
"""

from __future__ import annotations

import operator
import threading
import time

from ..errors import ToolchainError
from .layouts import AMD_SIGNAL, AMD_SIGNAL_KIND_USER
from .memory import Pinned

_MASK64 = (1 << 64) - 1

#: makes a signal's read-modify-write atomic against other host threads
ATOMIC = threading.Lock()

#: Wait conditions: the four of hsa_signal_condition_t (EQ=0, NE=1, LT=2,
#: GTE=3) and the two other orderings, under short names.
CONDITIONS = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "gte": operator.ge,
    "lte": operator.le,
    "gt": operator.gt,
}
HSA_CONDITION_NAMES = {0: "eq", 1: "ne", 2: "lt", 3: "gte"}


class SignalError(ToolchainError):
    """A signal handle that is not a live signal, or a bad condition."""


def _signed64(value: int) -> int:
    value &= _MASK64
    return value - (1 << 64) if value >> 63 else value


class Signal:
    """One signal; ``handle`` is the address of its amd_signal_t."""

    def __init__(self, memory, handle: int, notify=None):
        self.memory = memory
        self.handle = handle
        self._fields = Pinned(memory, handle, AMD_SIGNAL.size)
        self._notify = notify or (lambda: None)

    @classmethod
    def create(cls, memory, initial_value: int = 0, notify=None) -> "Signal":
        handle = memory.allocate(AMD_SIGNAL.size, align=AMD_SIGNAL.align, kind="signal",
                                 name="amd_signal_t")
        memory.write(handle, AMD_SIGNAL.pack(kind=AMD_SIGNAL_KIND_USER, value=initial_value))
        return cls(memory, handle, notify)

    def destroy(self) -> None:
        self.memory.free(self.handle)

    def __repr__(self):
        return f"Signal(0x{self.handle:x}, value={self.load()})"

    # ----------------------------------------------------------------- access
    def load(self) -> int:
        return AMD_SIGNAL.read(self._fields, self.handle, "value")

    def store(self, value: int) -> None:
        AMD_SIGNAL.write(self._fields, self.handle, "value", value)
        self._notify()

    def _update(self, function) -> int:
        """Apply ``function`` to the value atomically; returns the old value."""
        with ATOMIC:
            old = self.load()
            AMD_SIGNAL.write(self._fields, self.handle, "value", _signed64(function(old)))
        self._notify()
        return old

    def add(self, value: int) -> int:
        return self._update(lambda old: old + value)

    def subtract(self, value: int) -> int:
        return self._update(lambda old: old - value)

    def and_(self, value: int) -> int:
        return self._update(lambda old: old & value)

    def or_(self, value: int) -> int:
        return self._update(lambda old: old | value)

    def xor(self, value: int) -> int:
        return self._update(lambda old: old ^ value)

    def exchange(self, value: int) -> int:
        return self._update(lambda old: value)

    def cas(self, expected: int, value: int) -> int:
        """Store ``value`` if the value equals ``expected``; returns the old value."""
        return self._update(lambda old: value if old == _signed64(expected) else old)

    # ------------------------------------------------------------------- wait
    def wait(self, condition, compare_value: int, timeout: float | None = None,
             progress=None) -> int:
        """Wait until ``value <condition> compare_value``; returns the last value seen.

        ``condition`` is a name of ``CONDITIONS`` or an hsa_signal_condition_t
        number. ``progress`` (the packet processor) is called between checks;
        with ``timeout`` None the wait ends when progress stops making any
        (nothing else could ever change the value in a single-threaded
        runtime); with a timeout it ends when that many seconds have passed.
        """
        test = _condition(condition)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            value = self.load()
            if test(value, compare_value):
                return value
            moved = progress() if progress is not None else False
            if moved:
                continue
            if deadline is None or time.monotonic() >= deadline:
                return self.load()
            time.sleep(min(0.001, max(0.0, deadline - time.monotonic())))


def _condition(condition):
    if isinstance(condition, int) and condition in HSA_CONDITION_NAMES:
        condition = HSA_CONDITION_NAMES[condition]
    try:
        return CONDITIONS[str(condition).lower()]
    except KeyError:
        raise SignalError(f"unknown signal condition {condition!r} "
                          f"(known: {', '.join(CONDITIONS)})") from None

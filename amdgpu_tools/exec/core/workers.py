"""Worker processes of a dispatch: fork, run a share each, gather, keep or clean up.

Why processes and ``fork``: the run loop is Python, so threads would take
turns on one core. Forking at the dispatch gives each worker the host's
whole state as it is at that moment (the decoded program, the request, the
allocation table) for free, and device memory lives in MAP_SHARED pages
(``runtime.shared_bytes``), so a worker's loads and stores reach the very
bytes the host and the other workers see: nothing is copied back.

``run_forked(count, work)`` forks ``count`` children; child ``i`` runs
``work(i)`` and sends back its (pickled) return value or the exception it
raised through a pipe, then ends with ``os._exit`` (no atexit handlers, no
buffers of the host flushed twice). The host waits on the pipes; the first
exception a child reports is raised in the host, after every other child
has been killed and reaped: one error, no hang, no orphan. A child that ends
without a report (killed, crashed) is an error too. Children also die with
the host (``PR_SET_PDEATHSIG``), and the host kills them if it is itself
interrupted. The host runs no share itself: after ``fork`` every page it
writes is copied (copy on write), and measured, a host that ran a share
made the dispatch slower than one more child did.

``start_pool`` does the same and keeps the children: a fork costs ~5-10 ms
a worker (the host copies its page tables, ~3 ms with Numba loaded; the
child's first writes copy pages, its caches start cold; its exit unmaps
what it copied), so a later dispatch the children can take (``WorkerPool``,
``pool_for``) is sent to them instead, and they run it warm. One pool at a
time; an error in it ends it. NumPy 2 imports ``numpy.ma`` on the first
``np.unique`` (~25 ms), so this module imports it in the host, once, and no
child pays it.

Atomics: ``AtomicStripes`` are the cross-process locks a worker's global
atomics hold (``DeviceMemory.atomic_guard``): 16 POSIX semaphores striped by
64-byte line, taken in stripe order (no deadlock between workers). Making
them costs ~3 ms, so one set (``atomic_stripes()``) serves every dispatch;
a worker killed while holding one would leave it taken, so after a
dispatch whose workers were killed the next one gets a new set.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import io
import multiprocessing
import os
import pickle
import selectors
import signal
import struct
import time

import numpy as np
import numpy.ma  # noqa: F401  (imported once here, not in every worker: see above)

from ...errors import KernelError, WatchdogTimeout

#: Number of atomic lock stripes and the address bits below a stripe's line.
STRIPES = 16
STRIPE_SHIFT = 6
#: Seconds the host waits past the dispatch's deadline for a worker's own
#: watchdog report before it gives up on the worker.
DEADLINE_GRACE_SECONDS = 10.0
_PR_SET_PDEATHSIG = 1


class AtomicStripes:
    """Cross-process locks by address: ``with stripes(addresses): ...``."""

    def __init__(self):
        context = multiprocessing.get_context("fork")
        self._locks = [context.Lock() for _ in range(STRIPES)]

    @contextlib.contextmanager
    def __call__(self, addresses):
        lines = np.asarray(addresses, np.uint64).reshape(-1) >> np.uint64(STRIPE_SHIFT)
        stripes = np.unique(lines & np.uint64(STRIPES - 1)).tolist()
        held = []
        try:
            for stripe in stripes:
                self._locks[stripe].acquire()
                held.append(stripe)
            yield
        finally:
            for stripe in reversed(held):
                self._locks[stripe].release()


_stripes = None


def atomic_stripes() -> AtomicStripes:
    """The process's set of atomic stripes (made when first needed)."""
    global _stripes
    if _stripes is None:
        _stripes = AtomicStripes()
    return _stripes


def run_forked(count, work, *, deadline=None, describe="worker") -> list:
    """``[work(0), ..., work(count - 1)]``, each computed in a forked child.

    ``deadline`` (``time.monotonic()`` value): the host stops waiting
    ``DEADLINE_GRACE_SECONDS`` after it (the children watch it themselves).
    """
    children = _Children(describe)
    try:
        results = children.start(count, work, deadline)
        children.reap()
        return results
    finally:
        children.close()


class CannotSend(Exception):
    """A pool's command could not be sent to its workers (none ran it)."""


class WorkerPool:
    """Forked workers that stay for later dispatches (``start_pool``).

    A worker forked for a dispatch holds the host's state as it was then: the
    device memory's mappings, the blocks loaded, the decode caches, warm
    after its first share. While nothing it holds has changed (``key``: the
    dispatch's code compares the memory's epoch and the loaded blocks), a
    later dispatch is sent to it instead of forking again: ``run(function,
    args)`` has worker ``i`` compute ``function(i, *args)``. The arguments
    are pickled, and objects the workers inherited at the fork (``known``:
    the device memory, the atomic stripes, ...) go by reference, so each
    worker takes its own copy of them.
    """

    def __init__(self, key, known, describe, notes=None):
        self.key = key
        #: what the host has told the workers so far (the caller's to keep)
        self.notes = dict(notes or {})
        #: id -> object, made before the fork: the workers' copy has the same ids
        self.known = {id(thing): thing for thing in known}
        self.children = _Children(describe, serving=True, known=self.known)

    @property
    def size(self) -> int:
        return len(self.children.pids)

    def run(self, function, args, deadline) -> list:
        """``[function(0, *args), ...]``, one per worker. ``CannotSend`` (the
        pool is fine, nothing ran) when ``args`` cannot be pickled or a
        worker is gone; any other error leaves the workers busy: close the
        pool (``close_pool(busy=True)``)."""
        buffer = io.BytesIO()
        try:
            _KnownPickler(buffer, self.known).dump((function, args))
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            raise CannotSend(str(error)) from None
        payload = _frame(buffer.getvalue())
        sent = 0
        try:
            for fd in self.children.commands:
                _write_all(fd, payload)
                sent += 1
        except OSError as error:
            if sent:
                raise KernelError(f"{self.children.describe} process {sent} is gone: "
                                  f"{error}") from None
            raise CannotSend(str(error)) from None
        return self.children.gather(deadline)

    def close(self, busy=False):
        """End the workers (killed and reaped: none outlives the pool);
        ``busy``: they may be running a share (after an error)."""
        self.children.close(busy)


#: the pool of the last parallel dispatch (one at a time: a dispatch that
#: cannot use it ends it and starts its own)
_pool = None


def pool_for(key) -> WorkerPool | None:
    """The live pool made under ``key``, if any."""
    return _pool if _pool is not None and _pool.key == key else None


def start_pool(count, work, *, key, known=(), notes=None, deadline=None,
               describe="worker") -> list:
    """``run_forked``, with the children kept afterwards as the pool for
    ``key`` (``pool_for``), ending the one before; ``notes`` start the
    pool's ``notes``."""
    global _pool
    close_pool()
    pool = WorkerPool(key, known, describe, notes)
    try:
        results = pool.children.start(count, work, deadline)
    except BaseException:
        pool.close(busy=True)
        raise
    _pool = pool
    return results


def close_pool(busy=False) -> None:
    """End the pool, if there is one (``busy``: after a worker's error, when
    the others may be running their share)."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.close(busy)


def _forget_pool():
    """In a child forked from a process with a pool (by anyone): the pool is
    not its own, its pipes lead to the parent's workers; leave them alone."""
    global _pool
    _pool = None


atexit.register(close_pool)
os.register_at_fork(after_in_child=_forget_pool)


class _KnownPickler(pickle.Pickler):
    """Pickles the objects of ``known`` as references to the workers' copies."""

    def __init__(self, file, known):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._known = known

    def persistent_id(self, thing):
        ident = id(thing)
        return ident if self._known.get(ident) is thing else None


class _KnownUnpickler(pickle.Unpickler):
    def __init__(self, file, known):
        super().__init__(file)
        self._known = known

    def persistent_load(self, ident):
        return self._known[ident]


class _Children:
    """Forked children: their pipes and reports. Each report is a frame (its
    length first), so a serving child's answer is known to be whole without
    waiting for the child to end; with ``serving`` each child also gets a
    command pipe and waits on it for more work."""

    def __init__(self, describe, serving=False, known=None):
        self.describe, self.serving, self.known = describe, serving, known
        self.pids, self.pipes, self.commands = [], [], []

    def start(self, count, work, deadline) -> list:
        """Fork ``count`` children, child ``i`` running ``work(i)``; their reports."""
        for index in range(count):
            self.fork(index, work)
        return self.gather(deadline)

    def fork(self, index, work):
        host = os.getpid()
        opened = []
        try:
            read_end, write_end = os.pipe()
            opened += [read_end, write_end]
            if self.serving:
                command_read, command_write = os.pipe()
                opened += [command_read, command_write]
            pid = os.fork()
        except OSError as error:
            for fd in opened:
                os.close(fd)
            raise KernelError(f"{self.describe} process {index} cannot start: {error}") \
                from None
        if pid == 0:
            for fd in self.pipes + self.commands + [read_end] + \
                    ([command_write] if self.serving else []):
                os.close(fd)
            _child(write_end, work, index, host, command_read if self.serving else None,
                   self.known)
        os.close(write_end)
        self.pids.append(pid)
        self.pipes.append(read_end)
        if self.serving:
            os.close(command_read)
            self.commands.append(command_write)

    def gather(self, deadline) -> list:
        """Every child's next report in order (raises the first error reported)."""
        received = {fd: bytearray() for fd in self.pipes}
        results = {}
        with selectors.DefaultSelector() as selector:
            for number, fd in enumerate(self.pipes):
                selector.register(fd, selectors.EVENT_READ, number)
            while len(results) < len(self.pipes):
                timeout = None if deadline is None else \
                    max(0.0, deadline + DEADLINE_GRACE_SECONDS - time.monotonic())
                ready = selector.select(timeout)
                if not ready:
                    raise WatchdogTimeout(f"{self.describe} processes did not finish within "
                                          "the wall-clock limit")
                for key, _ in ready:
                    data = received[key.fd]
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        self._ended(key.data)
                    data += chunk
                    report = _unframe(data)
                    if report is not None:
                        selector.unregister(key.fd)
                        results[key.data] = _outcome(report)
        return [results[number] for number in range(len(self.pipes))]

    def _ended(self, index):
        """Child ``index`` closed its pipe before a whole report: reap it, say how."""
        _, status = os.waitpid(self.pids[index], 0)
        self.pids[index] = None
        raise KernelError(f"{self.describe} process {index} ended without a result "
                          f"({_exit_text(status)})")

    def reap(self):
        """Wait for children that end by themselves (after their report)."""
        for index, pid in enumerate(self.pids):
            if pid is not None:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
                self.pids[index] = None

    def close(self, busy=True):
        """Kill and reap every child still there (``busy``: it may be
        running a share), close the pipes."""
        _kill(self.pids, busy)
        for fd in self.pipes + self.commands:
            os.close(fd)
        self.pipes, self.commands = [], []


#: True in a forked worker process (set as it starts)
_IN_WORKER = False


def in_worker() -> bool:
    """Whether this process is a worker ``run_forked`` or ``start_pool``
    started: it runs only the blocks loaded in the process it was forked from."""
    return _IN_WORKER


def _child(fd, work, index, host, commands=None, known=None):
    """Run ``work(index)`` in the child and report through ``fd``; with a
    ``commands`` pipe, then run each ``(function, args)`` sent there as
    ``function(index, *args)`` until the host closes it; then exit."""
    global _IN_WORKER
    _IN_WORKER = True
    status = 0
    try:
        _die_with(host)
        _write_all(fd, _frame(_attempt(work, index)))
        while commands is not None:
            payload = _read_frame(commands)
            if payload is None:
                break
            _write_all(fd, _frame(_attempt(functools.partial(_command, payload, known), index)))
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _die_with(host):
    """Make the kernel kill this child when the host process dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != host:                   # the host died before prctl
        os._exit(1)


def _portable(error):
    """``error`` if it survives pickling, else a KernelError with its text."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return KernelError(f"{type(error).__name__}: {error}")


def _attempt(work, index) -> bytes:
    """The pickled report of ``work(index)``: ("ok", value) or ("error", what it raised)."""
    try:
        report = ("ok", work(index))
    except BaseException as error:          # every error goes to the host
        report = ("error", _portable(error))
    return pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)


def _command(payload, known, index):
    """A pool's command in a worker: ``function(index, *args)``."""
    function, args = _KnownUnpickler(io.BytesIO(payload), known).load()
    return function(index, *args)


def _outcome(report: bytes):
    """The value a report carries; raises the error it carries."""
    kind, value = pickle.loads(report)
    if kind == "error":
        raise value
    return value


#: a frame's length prefix
_LENGTH = struct.Struct("<Q")


def _frame(data: bytes) -> bytes:
    return _LENGTH.pack(len(data)) + data


def _unframe(data: bytearray):
    """The frame's contents once ``data`` holds all of it, else None."""
    if len(data) < _LENGTH.size:
        return None
    (length,) = _LENGTH.unpack_from(data)
    end = _LENGTH.size + length
    return bytes(data[_LENGTH.size:end]) if len(data) >= end else None


def _read_frame(fd):
    """The next frame's contents read from ``fd``; None at its end."""
    data = bytearray()
    while True:
        report = _unframe(data)
        if report is not None:
            return report
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return None
        data += chunk


def _write_all(fd, data: bytes):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _exit_text(status):
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _kill(pids, busy=True):
    """Kill and reap every child not reaped yet (``busy`` ones may hold
    atomic stripes: the set is not used again)."""
    global _stripes
    if busy and any(pid is not None for pid in pids):
        _stripes = None
    for pid in pids:
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    for pid in pids:
        if pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)

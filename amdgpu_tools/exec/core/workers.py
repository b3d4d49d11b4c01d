"""Worker processes of one dispatch: fork, run a share each, gather, clean up.

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

What a child does first it does in every dispatch again: its caches and
lazy imports die with it. NumPy 2 imports ``numpy.ma`` on the first
``np.unique`` (~25 ms), so this module imports it in the host, once.

Atomics: ``AtomicStripes`` are the cross-process locks a worker's global
atomics hold (``DeviceMemory.atomic_guard``): 16 POSIX semaphores striped by
64-byte line, taken in stripe order (no deadlock between workers). Making
them costs ~3 ms, so one set (``atomic_stripes()``) serves every dispatch;
a worker killed while holding one would leave it taken, so after a
dispatch whose workers were killed the next one gets a new set.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import pickle
import selectors
import signal
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
    children = _Children(describe, deadline)
    try:
        for index in range(count):
            children.fork(index, work)
        return children.gather()
    finally:
        children.close()


class _Children:
    """The forked children of one ``run_forked``: their pipes and reports."""

    def __init__(self, describe, deadline):
        self.describe, self.deadline = describe, deadline
        self.pids, self.pipes = [], []
        self.received, self.results = {}, {}
        self.selector = selectors.DefaultSelector()

    def fork(self, index, work):
        host = os.getpid()
        try:
            read_end, write_end = os.pipe()
        except OSError as error:
            raise KernelError(f"{self.describe} process {index} cannot start: {error}") \
                from None
        try:
            pid = os.fork()
        except OSError as error:
            os.close(read_end)
            os.close(write_end)
            raise KernelError(f"{self.describe} process {index} cannot start: {error}") \
                from None
        if pid == 0:
            for fd in self.pipes + [read_end]:
                os.close(fd)
            _child(write_end, work, index, host)
        os.close(write_end)
        self.pids.append(pid)
        self.pipes.append(read_end)
        self.received[read_end] = bytearray()
        self.selector.register(read_end, selectors.EVENT_READ, len(self.pids) - 1)

    def gather(self) -> list:
        """Every child's result in order (raises the first error reported)."""
        while self.selector.get_map():
            timeout = None if self.deadline is None else \
                max(0.0, self.deadline + DEADLINE_GRACE_SECONDS - time.monotonic())
            ready = self.selector.select(timeout)
            if not ready:
                raise WatchdogTimeout(f"{self.describe} processes did not finish within "
                                      "the wall-clock limit")
            for key, _ in ready:
                self._read(key)
        return [self.results[number] for number in range(len(self.pids))]

    def _read(self, key):
        chunk = os.read(key.fd, 1 << 16)
        if chunk:
            self.received[key.fd] += chunk
            return
        self.selector.unregister(key.fd)
        self.results[key.data] = _outcome(self.pids, key.data, self.received[key.fd],
                                          self.describe)

    def close(self):
        """Kill and reap every child still there, close the pipes."""
        _kill(self.pids)
        self.selector.close()
        for fd in self.pipes:
            os.close(fd)


#: True in a forked worker process (set as it starts)
_IN_WORKER = False


def in_worker() -> bool:
    """Whether this process is a worker ``run_forked`` started: whatever it
    loads or builds dies with it at the end of the dispatch."""
    return _IN_WORKER


def _child(fd, work, index, host):
    """Run ``work(index)`` in the child, report through ``fd`` and exit."""
    global _IN_WORKER
    _IN_WORKER = True
    status = 0
    try:
        _die_with(host)
        try:
            report = ("ok", work(index))
        except BaseException as error:          # every error goes to the host
            report = ("error", _portable(error))
        data = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
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


def _outcome(pids, index, data, describe):
    """The value child ``index`` reported (reaped now); raises what it raised."""
    _, status = os.waitpid(pids[index], 0)
    pids[index] = None
    try:
        kind, value = pickle.loads(bytes(data))
    except Exception:
        raise KernelError(f"{describe} process {index} ended without a result "
                          f"({_exit_text(status)})") from None
    if kind == "error":
        raise value
    return value


def _exit_text(status):
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _kill(pids):
    """Kill and reap every child not reaped yet (their stripes may be held:
    they are not used again)."""
    global _stripes
    if any(pid is not None for pid in pids):
        _stripes = None
    for pid in pids:
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    for pid in pids:
        if pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)

"""Background compilation: a separate process compiles blocks into the cache.

Compiling a block takes seconds (Numba's typing and LLVM), loading it from
the cache milliseconds. In ``auto`` mode the executor therefore never waits
for a compilation: it hands the block's module path to this process and
goes on interpreting; once the machine code is in the cache it loads it.
On a machine with a spare core the compilation costs the run nothing.

The process reads one path per line on stdin and answers ``ok PATH`` or
``failed PATH ERROR`` (the error as one JSON string) on stdout. When its
input ends (the executor is gone) it starts no other block and gives the
one in hand ``ORPHAN_SECONDS`` at the lowest priority, so that on an idle
machine the cache has it for the next run, and then ends: an executor that
ended must leave nothing behind competing with the runs after it for the
cores and memory (the virtual GPU's tests from a cold cache: 581 s with the
servers left behind finishing their blocks, 200 s without). It
compiles with LLVM's optimization level 1 (``NUMBA_OPT``; in this process
only): half the compile time of level 3, and no measurable difference in
how fast the blocks run (bench_exec's single-wave loop).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

#: Numba's optimization level for background compilations.
OPT_LEVEL = "1"
#: How long a server whose executor is gone may still compile (seconds).
ORPHAN_SECONDS = 30.0


class Compiler:
    """The executor's side: one server process per executor process, started
    at the first request; ``status(path)`` is None (pending), "ok" or the
    error text."""

    def __init__(self):
        self._owner = os.getpid()
        self._results = {}
        self._lock = threading.Lock()
        self._process = None

    def submit(self, path: Path) -> bool:
        """Ask for ``path`` to be compiled; False where this process cannot
        (a forked worker: the server belongs to its parent)."""
        if os.getpid() != self._owner:
            return False
        with self._lock:
            if path in self._results:
                return True
            process = self._start()
            if process is None:
                return False
            self._results[path] = None
            try:
                process.stdin.write(f"{path}\n")
                process.stdin.flush()
            except OSError:
                self._results[path] = "the background compiler ended"
        return True

    def status(self, path):
        return self._results.get(path)

    def _start(self):
        if self._process is not None:
            return self._process if self._process.poll() is None else None
        python = _python()
        if python is None:
            return None
        environment = dict(os.environ, NUMBA_OPT=OPT_LEVEL)
        try:
            self._process = subprocess.Popen(
                [python, "-m", "amdgpu_tools.exec.compiled.server"], env=environment,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, bufsize=1)
        except OSError:
            return None
        threading.Thread(target=self._collect, args=(self._process,), daemon=True).start()
        return self._process

    def _collect(self, process):
        for line in process.stdout:
            verdict, _, rest = line.rstrip("\n").partition(" ")
            path, _, error = rest.partition(" ")
            with self._lock:
                self._results[Path(path)] = "ok" if verdict == "ok" else json.loads(error)
        with self._lock:                      # the server is gone: nothing more comes
            for path, result in self._results.items():
                if result is None:
                    self._results[path] = "the background compiler ended"


def _python():
    """The Python interpreter to start the compiler with, or None where this
    process is not a Python program (an embedded interpreter's
    ``sys.executable`` may be its host program: never start that)."""
    executable = sys.executable
    if executable and re.fullmatch(r"python[0-9.]*", os.path.basename(executable)):
        return executable
    return None


_COMPILER = None


def compiler() -> Compiler:
    global _COMPILER
    if _COMPILER is None:
        _COMPILER = Compiler()
    return _COMPILER


def compiler_pid():
    """The background compiler's process id, or None while none runs."""
    process = _COMPILER._process if _COMPILER is not None else None
    return process.pid if process is not None and process.poll() is None else None


def load_module(path):
    """The block module at ``path``, imported under the name its cached
    machine code is filed under (the same in the background compiler; the
    cache directory is part of it, since a test may use several)."""
    folder = hashlib.sha256(str(path.parent.resolve()).encode()).hexdigest()[:8]
    name = f"amdgpu_tools_block_{path.stem}_{folder}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


def compile_into_cache(path: Path):
    """Import the block module at ``path`` and compile its function for the
    argument types the executor passes (Numba writes the machine code to the
    cache beside the module)."""
    compile_for_executor(load_module(path))


def compile_for_executor(module):
    """Compile the block function of ``module`` (or load its machine code)
    for the argument types the scheduler passes: the batch's arrays, the
    read-only ``wave_group``, and the address space or None. One call made
    here and in the executor, so both file the same machine code; it runs
    nothing (no waves)."""
    import numpy as np
    module.block(np.zeros((1, 1, 64), np.uint32), np.zeros((128, 1), np.uint32),
                 np.zeros(1, np.bool_), np.zeros((1, 4), np.uint8),
                 read_only(np.zeros(1, np.int64)), 0, 0, 0, 0, 0, False, 0,
                 _example_memory(module))


def read_only(array):
    """A read-only view of ``array``. Numba compiles a function again for
    every combination of argument types, writability included, so the
    executor always passes a block the read-only ``wave_group`` (a batch
    built from scratch has it writable, a copy of a prototype read-only:
    each block would be compiled, or loaded, twice)."""
    view = array.view()
    view.flags.writeable = False
    return view


def _example_memory(module):
    """A ``memory`` argument of the types the executor passes the block of
    ``module`` (``tier.memory_view`` for one that moves global memory, else
    None): a call with it compiles the function the executor will call."""
    if not module.USES_MEMORY:
        return None
    import numpy as np
    return (np.zeros(0, np.uint64), np.zeros(0, np.uint64), np.zeros(0, np.bool_),
            np.zeros(0, np.uint64), np.zeros(2, np.uint64), np.zeros(1, np.bool_))


def main():
    requests, executor_gone = queue.Queue(), threading.Event()
    threading.Thread(target=_read_requests, args=(requests, executor_gone),
                     daemon=True).start()
    while True:
        path = requests.get()
        if executor_gone.is_set():        # (set before the end's None is queued)
            return
        try:
            compile_into_cache(path)
            answer = f"ok {path}"
        except Exception as error:          # noqa: BLE001  (reported to the executor)
            answer = f"failed {path} {json.dumps(f'{type(error).__name__}: {error}')}"
        if executor_gone.is_set():
            return
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


def _read_requests(requests, executor_gone):
    """Queue each path read from stdin; at its end, mark the executor gone,
    lower the compiling (main) thread to the lowest priority and end the
    process ``ORPHAN_SECONDS`` later if it has not ended by then (Numba
    writes a cache file under a temporary name and renames it: an exit
    mid-compilation leaves no half-written entry)."""
    for line in sys.stdin:
        requests.put(Path(line.strip()))
    executor_gone.set()
    requests.put(None)
    _lowest_priority(threading.main_thread().native_id)
    deadline = threading.Timer(ORPHAN_SECONDS, os._exit, args=(0,))
    deadline.daemon = True
    deadline.start()


def _lowest_priority(thread_id):
    """Nice 19 for the thread ``thread_id`` (Linux: a thread's own priority),
    where the system lets a process lower itself; elsewhere nothing."""
    try:
        os.setpriority(os.PRIO_PROCESS, thread_id, 19)
    except (AttributeError, OSError):
        pass


if __name__ == "__main__":
    main()

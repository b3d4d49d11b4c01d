"""Tiering: which blocks get compiled, when, where the compiled code is kept.

A *block* is the longest run of instructions from a PC that ``codegen``
can compile (ALU work and no-ops; it ends before the first instruction it
cannot). Every PC of a block knows its block and its index in it, so waves
arriving anywhere in it (a branch into the middle, a group stopped part-way)
run the rest natively.

When to compile (``AMDGPU_TOOLS_COMPILE`` or ``Device(compile=...)``):

``auto`` (the default when Numba is installed)
    A block is compiled once the interpreter has run
    ``STEPS_BEFORE_COMPILING`` of its instruction-steps: compiling a block
    costs about a second, as much as the interpreter spends on ~10^5 steps,
    so a block is compiled once waiting longer would cost more than the
    compilation (the ski-rental rule); short runs never pay. A block already
    compiled in an earlier run (the cache) is loaded after
    ``STEPS_BEFORE_LOADING`` steps: loading costs milliseconds.
``eager``
    every block at its first run (tests).
``check``
    eager, and every block run is run twice: natively, then by the
    interpreter from the same registers; any difference in a VGPR, SGPR or
    SCC of the waves ends the dispatch with an error naming the block. A
    block touches no memory (memory instructions end blocks), so registers
    are all it can change.
``off``
    the interpreter only.

The cache: each block's generated module is a file named by a hash of its
source (which spells out every register, constant and mode) and of
everything that shapes compiled code (``fingerprint``: the executor's
semantics, the helpers, the code generator, Numba's version), under
``$AMDGPU_TOOLS_BLOCK_CACHE`` or ``$XDG_CACHE_HOME/amdgpu-tools/blocks``;
Numba keeps the machine code beside it (``cache=True``). A block Numba
cannot compile leaves a ``.failed`` file with the reason and is
interpreted from then on, in this run and later ones.
"""

from __future__ import annotations

import bisect
import hashlib
import importlib.util
import os
import re
import sys
from pathlib import Path

import numpy as np

from ...errors import KernelError
from ..launch import COMPILE_MODES
from .codegen import CODEGEN_VERSION, Modes, NotCompilable, block_source, why_not

#: Interpreted instruction-steps of a block before it is compiled (auto).
STEPS_BEFORE_COMPILING = 50_000
#: ... before a block found in the cache is loaded (auto).
STEPS_BEFORE_LOADING = 200
#: Longest block (a longer run of compilable code is cut into several).
MAX_BLOCK_INSTRUCTIONS = 256


def numba_available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def resolve_mode(requested=None) -> str:
    """The compile mode of a dispatch: ``requested`` (None: the
    environment's ``AMDGPU_TOOLS_COMPILE``, else ``auto``); anything but
    ``off`` needs Numba, without which every mode is ``off``."""
    mode = requested or os.environ.get("AMDGPU_TOOLS_COMPILE") or "auto"
    if mode not in COMPILE_MODES:
        raise ValueError(f"compile mode {mode!r}: use one of {', '.join(COMPILE_MODES)}")
    if mode != "off" and not numba_available():
        return "off"
    return mode


def cache_directory() -> Path:
    explicit = os.environ.get("AMDGPU_TOOLS_BLOCK_CACHE")
    if explicit:
        return Path(explicit)
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(root) / "amdgpu-tools" / "blocks"


_FINGERPRINT = None


def fingerprint() -> str:
    """A hash of everything compiled code depends on besides the block: the
    semantics and core sources, this package, Numba's version."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        import numba
        digest = hashlib.sha256(f"{CODEGEN_VERSION} {numba.__version__} "
                                f"{np.__version__}".encode())
        package = Path(__file__).resolve().parent.parent
        for folder in ("semantics", "core", "compiled"):
            for path in sorted((package / folder).glob("*.py")):
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
        _FINGERPRINT = digest.hexdigest()
    return _FINGERPRINT


class Block:
    """A run of compilable instructions and, once compiled, its native code."""

    __slots__ = ("pcs", "records", "steps", "fn", "failed", "modes_key", "source", "path")

    def __init__(self, records):
        self.records = records
        #: the PC of each instruction, then the PC after the last
        self.pcs = [record.pc for record in records] + [records[-1].next_pc]
        self.steps = 0
        self.fn = None
        self.failed = None
        self.modes_key = None
        self.source = None
        self.path = None

    def __len__(self):
        return len(self.records)


class Slot:
    """A PC inside a block: the block and the instruction's index in it."""

    __slots__ = ("block", "index")

    def __init__(self, block, index):
        self.block = block
        self.index = index


class BlockTier:
    """The blocks of one Program (one dispatch's code) and their compiled code."""

    def __init__(self, program, mode):
        self.program = program
        self.mode = mode
        self.threshold = 0 if mode in ("eager", "check") else STEPS_BEFORE_COMPILING
        #: pc -> Slot, or None where no block starts or runs through
        self.slots = {}
        #: ops whose semantics Numba could not compile (kept in the cache)
        self.refused = refused_ops()

    def slot(self, pc, state):
        """The Slot at ``pc`` (forming the block that starts there), or None."""
        found = self.slots.get(pc, False)
        if found is not False:
            return found
        modes = Modes(state)
        records = []
        at = pc
        while len(records) < MAX_BLOCK_INSTRUCTIONS:
            if records and at in self.slots:
                break                    # the next block (or uncompilable code) starts here
            try:
                record = self.program.at(at)
            except KernelError:
                break
            if why_not(record.inst, self.program.generation, modes, self.refused) is not None:
                break
            records.append(record)
            at = record.next_pc
        if not records:
            self.slots[pc] = None
            return None
        block = Block(records)
        for index, record in enumerate(records):
            self.slots.setdefault(record.pc, Slot(block, index))
        return self.slots[pc]

    def ready(self, block, state):
        """The block's compiled function for the state's modes, compiling or
        loading it when its time has come; None: interpret it this time."""
        key = (state.float_mode_bits, state.vgpr.shape[0])
        if block.fn is not None and block.modes_key == key:
            return block.fn
        if block.failed is not None:
            return None
        block.steps += 1
        if block.modes_key != key:
            block.source = block.path = None
            block.modes_key = key
        if block.path is None:
            try:
                source, _ = block_source([r.inst for r in block.records],
                                         self.program.generation, Modes(state))
            except NotCompilable as reason:          # not in these modes
                block.failed = str(reason)
                return None
            block.source = source
            digest = hashlib.sha256((fingerprint() + source).encode()).hexdigest()[:32]
            block.path = cache_directory() / f"b{digest}.py"
        if block.path.with_suffix(".failed").exists():
            block.failed = block.path.with_suffix(".failed").read_text()
            return None
        waited = STEPS_BEFORE_LOADING if block.path.exists() else self.threshold
        if self.threshold and block.steps < min(waited, self.threshold):
            return None
        block.fn = self._load(block, state)
        return block.fn

    def _load(self, block, state):
        """Write (if new), import and compile the block's module; None when
        Numba cannot compile it (remembered in a ``.failed`` file)."""
        path = block.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                temporary = path.with_suffix(f".{os.getpid()}.tmp")
                temporary.write_text(block.source)
                os.replace(temporary, path)
            name = f"amdgpu_tools_block_{path.stem}"
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            fn = module.block
            # compiles (or loads the machine code) for these argument types; runs nothing
            fn(state.vgpr, state.sgpr, state.scc, 0, 0, 0, 0)
            return fn
        except OSError as error:
            block.failed = f"the block cache is not writable: {error}"
            return None
        except Exception as error:          # Numba's typing and lowering errors
            return self._refuse(block, error)

    def _refuse(self, block, error):
        """A block Numba failed on. When the error names the op whose semantic
        call failed (the generated line's ``# op:`` tag), that op is refused
        from now on (and in later runs) and the block's PCs form new blocks
        without it; otherwise the block is interpreted (``.failed``)."""
        text = str(error)
        op = _FAILED_OP.search(text)
        if op is not None and op.group(1) not in self.refused:
            self.refused = self.refused | {op.group(1)}
            remember_refused(op.group(1), text)
            for record in block.records:
                if self.slots.get(record.pc) is not None and \
                        self.slots[record.pc].block is block:
                    del self.slots[record.pc]
            block.failed = f"Numba cannot compile {op.group(1)}"
            return None
        block.failed = f"{type(error).__name__}: {text.strip().splitlines()[0]}"
        try:
            block.path.with_suffix(".failed").write_text(text)
        except OSError:
            pass
        return None


_FAILED_OP = re.compile(r"# op:(\w+)")


def _refused_path():
    return cache_directory() / f"refused-{fingerprint()[:16]}.txt"


def refused_ops() -> frozenset:
    """The ops Numba failed to compile on this machine's versions (one per line)."""
    try:
        lines = _refused_path().read_text().splitlines()
    except OSError:
        return frozenset()
    return frozenset(line.split(":", 1)[0] for line in lines if line)


def remember_refused(op, error_text):
    reason = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", error_text).split())[:300]
    try:
        _refused_path().parent.mkdir(parents=True, exist_ok=True)
        with open(_refused_path(), "a") as out:
            out.write(f"{op}: {reason}\n")
    except OSError:
        pass


def runnable_count(block, start, steps, check_steps, executed, budget, n, limit):
    """How many of the block's instructions from ``start`` may run natively
    without changing what the interpreter's loop would do: none that falls
    on a periodic check step (a multiple of ``check_steps``), none past the
    instruction budget, none at or past ``limit`` (the PC where the group
    must stop to merge with the next one)."""
    count = min(len(block) - start, check_steps - 1 - (steps & (check_steps - 1)),
                (budget - executed) // n)
    if limit is not None and count > 1:
        stop = bisect.bisect_left(block.pcs, limit, start + 1, start + count)
        count = stop - start
    return count


def check_run(fn, block, ctx, start, stop, count_lanes):
    """Run instructions start:stop natively and by the interpreter from the
    same registers; a KernelError when any register or the lane count differs.
    Leaves the interpreter's registers; returns the lane count."""
    state, sel, n = ctx.state, ctx.sel, ctx.n
    w0, w1 = sel.start, sel.stop
    saved = [state.vgpr[:, w0:w1].copy(), state.sgpr[:, w0:w1].copy(), state.scc[w0:w1].copy()]
    native_lanes = fn(state.vgpr, state.sgpr, state.scc, w0, w1, start, stop)
    native = [state.vgpr[:, w0:w1].copy(), state.sgpr[:, w0:w1].copy(),
              state.scc[w0:w1].copy()]
    state.vgpr[:, w0:w1], state.sgpr[:, w0:w1], state.scc[w0:w1] = saved
    lanes = 0
    for record in block.records[start:stop]:
        ctx.record = record
        ctx._exec = None
        ctx.all_active = None
        lanes += count_lanes(ctx) if record.is_vector else n
        record.run(ctx)
    interpreted = [state.vgpr[:, w0:w1], state.sgpr[:, w0:w1], state.scc[w0:w1]]
    for what, mine, theirs in zip(("v", "s", "scc"), native, interpreted):
        differ = np.argwhere(mine != theirs)
        if differ.size:
            where = differ[0]
            register = f"{what}{where[0]}" if what != "scc" else "scc"
            ctx.record = block.records[start]
            raise ctx.fault(
                f"compiled block differs from the interpreter (instructions {start}:{stop} "
                f"of the block at 0x{block.pcs[0]:x}, {block.path}): {register} of wave "
                f"{w0 + int(where[1] if what != 'scc' else where[0])}: native "
                f"{mine[tuple(where)]!r}, interpreter {theirs[tuple(where)]!r}")
    if native_lanes != lanes:
        ctx.record = block.records[start]
        raise ctx.fault(f"compiled block counts {native_lanes} lanes, the interpreter {lanes}")
    return lanes

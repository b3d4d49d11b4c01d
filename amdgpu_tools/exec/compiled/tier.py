"""Tiering: which blocks get compiled, when, where the compiled code is kept.

A *block* is the longest run of instructions from a PC that ``codegen``
can compile (ALU work, branches, no-ops, LDS moves, barriers, FLAT/GLOBAL
dword loads and stores, scalar loads; it ends before the first instruction
it cannot, such as a scalar store). Every PC of a block knows
its block and its index in it, so waves arriving anywhere in it (a branch
into the middle, a group stopped part-way) run the rest natively, and a
loop inside a block runs natively until it exits.

When to compile (``AMDGPU_TOOLS_COMPILE`` or ``Device(compile=...)``):

``auto`` (the default when Numba is installed)
    Once the interpreter has run ``STEPS_BEFORE_COMPILING`` instruction-steps
    of a block, the block goes to the background compiler (``server.py``, a
    separate process) and the interpreter goes on; when the machine code is
    in the cache, the block runs natively. Compiling takes seconds, so short
    runs never ask for it, and with a spare core a long run does not wait
    for it. A block the cache already holds is loaded after
    ``STEPS_BEFORE_LOADING`` steps (loading costs ~0.1-0.3 s). A forked
    worker runs only the blocks loaded before it was forked.
``eager``
    every block compiled in this process at its first run (tests).
``check``
    eager, and every block run is run twice: natively, then by the
    interpreter from the same registers and memory for as many steps; any
    difference in a VGPR, SGPR or SCC of the waves, in LDS or device memory,
    in the lanes counted or in where the waves go next ends the dispatch
    with an error naming the block.
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

import functools
import hashlib
import importlib.metadata
import importlib.util
import os
import re
import time
from typing import NamedTuple
from pathlib import Path

import numpy as np

from ...errors import KernelError, LaunchError
from ..core import workers
from ..core.context import BARRIER
from ..core.registry import semantic_for
from ..semantics.vmem import layout_values
from ..launch import COMPILE_MODES
from . import server
from .codegen import CODEGEN_VERSION, Modes, NotCompilable, block_source, why_not

#: Interpreted instruction-steps of a block before it is compiled (auto).
STEPS_BEFORE_COMPILING = 20_000
#: ... before a block found in the cache is loaded (auto).
STEPS_BEFORE_LOADING = 2_000
#: Waves whose interpretation costs as much as one more one-wave step.
WAVES_PER_STEP = 20
#: Most waves a group may have to run a block natively (a block call makes
#: its lane masks, 64 bytes a wave). Lane by lane, native code beats the
#: interpreter's NumPy operations over every wave at once on wide groups
#: too: MGPUSim's fir 0.34 -> 0.10 s, matrixtranspose 0.26 -> 0.10 s,
#: simpleconvolution 0.46 -> 0.21 s in one process; while the semantics ran
#: on whole arrays natively too, wide groups gained nothing and 64 was the
#: limit.
MAX_NATIVE_WAVES = 1 << 16
#: Longest block (a longer run of compilable code is cut into several).
MAX_BLOCK_INSTRUCTIONS = 256


@functools.lru_cache(maxsize=1)
def numba_available() -> bool:
    """Whether Numba is installed (asked once: every dispatch asks). Found,
    not imported: importing it costs a fresh process ~0.1-0.3 s, which a
    run whose blocks never get hot need not pay."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


def resolve_mode(requested=None) -> str:
    """The compile mode of a dispatch: ``requested`` (None: the
    environment's ``AMDGPU_TOOLS_COMPILE``, else ``auto``); anything but
    ``off`` needs Numba, without which every mode is ``off``."""
    mode = requested or _environment("AMDGPU_TOOLS_COMPILE") or "auto"
    if mode not in COMPILE_MODES:
        raise LaunchError(f"compile mode {mode!r} (AMDGPU_TOOLS_COMPILE or compile=): use one "
                          f"of {', '.join(COMPILE_MODES)}")
    if mode != "off" and not numba_available():
        return "off"
    return mode


def loaded_blocks() -> int:
    """How many compiled blocks this process has loaded (it only ever loads
    more): a worker forked when this was lower lacks some."""
    return len(_LOADED)


def cache_directory() -> Path:
    """The block cache: ``$AMDGPU_TOOLS_BLOCK_CACHE``, else the user's cache
    folder. Every dispatch asks, so the answer is kept per environment."""
    return _cache_directory(_environment("AMDGPU_TOOLS_BLOCK_CACHE"),
                            _environment("XDG_CACHE_HOME"))


def _environment(name):
    """``os.environ.get(name)``, asked of CPython's dict behind ``os.environ``
    where there is one (every launch asks three times): ``get`` of a name
    that is not set raises and catches a KeyError (~1 us, against ~0.1),
    and the name is encoded once."""
    data = getattr(os.environ, "_data", None)
    if not isinstance(data, dict):
        return os.environ.get(name)
    key = _ENCODED_NAMES.get(name)
    if key is None:
        key = _ENCODED_NAMES[name] = os.environ.encodekey(name)
    value = data.get(key)
    return None if value is None else os.environ.decodevalue(value)


#: environment variable name -> its key in ``os.environ._data``
_ENCODED_NAMES = {}


@functools.lru_cache(maxsize=8)
def _cache_directory(explicit, xdg_cache_home) -> Path:
    if explicit:
        return Path(explicit)
    root = xdg_cache_home or os.path.join(Path.home(), ".cache")
    return Path(root) / "amdgpu-tools" / "blocks"


_FINGERPRINT = None
#: cache path -> the compiled function loaded from it in this process
_LOADED = {}
#: (code, generation, modes, cache) -> (source, cache path, uses memory) or
#: (None, why not, False):
#: every launch makes a new Program, whose blocks need not be generated again
_SOURCES = {}


#: (id of a decoded instruction, generation, MODE[9:0], VGPRs) -> (the
#: instruction, its op, why the code generator cannot compile it or None).
#: Decoded instructions are shared by every dispatch (exec/core/program.py),
#: and every launch makes a new Program whose blocks are formed again: asking
#: the code generator each time cost MGPUSim's nw ~0.3 s.
_GENERATOR_ANSWERS = {}
_GENERATOR_ANSWERS_LIMIT = 1 << 16


def _generator_answer(inst, generation, modes):
    """(op, why ``inst`` cannot be compiled or None), remembered."""
    key = (id(inst), generation, modes.float_mode_bits, modes.vgprs)
    known = _GENERATOR_ANSWERS.get(key)
    if known is not None and known[0] is inst:
        return known[1], known[2]
    semantic = semantic_for(inst, generation)
    op = semantic.op if semantic is not None else inst.op
    reason = why_not(inst, generation, modes)    # refused ops: checked by the caller
    if len(_GENERATOR_ANSWERS) >= _GENERATOR_ANSWERS_LIMIT:
        _GENERATOR_ANSWERS.clear()
    _GENERATOR_ANSWERS[key] = (inst, op, reason)
    return op, reason


class Formed(NamedTuple):
    """What an earlier dispatch formed at a PC (``_FORMED``)."""

    #: the code bytes it was formed from, to the PC after it (``end``)
    code: bytes
    #: the Block, or None where none starts at the PC (``code``: that one instruction)
    block: object
    #: the refused ops it was formed under
    refused: frozenset
    end: int


#: Blocks formed by earlier dispatches: (binding key, MODE bits, VGPRs, PC,
#: block cache) -> Formed. Every launch
#: makes a new Program; forming its blocks again (fetching and binding every
#: instruction, asking the code generator about each) cost MGPUSim's nw ~3 ms a
#: launch, a third of its time once its blocks ran natively. A Block whose
#: machine code is loaded is taken as it is (preparing it again looked at the
#: cache's files: ~0.1 ms a block and launch); one not loaded yet is made
#: anew from its records (a forked worker must not load it: ``_prepare``).
_FORMED = {}
_FORMED_LIMIT = 1 << 14


def _code_key(records):
    """What a block's generated source depends on in its code: each
    instruction as decoded, and where it sits relative to the first."""
    first = records[0].pc
    return tuple((record.pc - first, record.inst.encoding, record.inst.op,
                  tuple(sorted(record.inst.fields.items())), record.inst.literal)
                 for record in records)


#: The sources compiled code depends on besides the block's text (which
#: spells out what the decoder read): the semantic functions, what the code
#: generator takes from the core (operand codes, source order, types,
#: renames), the generator, its helpers and the compiled copies.
_SHAPING_SOURCES = ("semantics/*.py", "core/formats.py", "core/operands.py",
                    "core/registry.py", "core/state.py", "core/lanes.py",
                    "compiled/codegen.py", "compiled/fusion.py", "compiled/kernels.py",
                    "compiled/jitcopy.py",
                    "compiled/lanewise.py", "compiled/scalar_numpy.py",
                    "compiled/primitives.py", "addressing.py")


def fingerprint() -> str:
    """A hash of everything compiled code depends on besides the block
    (``_SHAPING_SOURCES``, Numba's and NumPy's versions): a change to any
    of them starts the cache afresh; the scheduler and the tier may change
    without recompiling."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        digest = hashlib.sha256(f"{CODEGEN_VERSION} {_numba_version()} "
                                f"{np.__version__}".encode())
        package = Path(__file__).resolve().parent.parent
        for pattern in _SHAPING_SOURCES:
            for path in sorted(package.glob(pattern)):
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
        _FINGERPRINT = digest.hexdigest()
    return _FINGERPRINT


def _numba_version() -> str:
    """Numba's version as installed: importing it to ask would cost a run
    whose blocks never get hot ~0.1-0.3 s (see ``numba_available``)."""
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:     # (not installed as a package)
        import numba
        return numba.__version__


class Block:
    """A run of compilable instructions and, once compiled, its native code."""

    __slots__ = ("pcs", "records", "code_key", "steps", "fn", "failed", "modes_key", "modes",
                 "lane_candidates", "path", "wait", "cached", "submitted", "uses_memory")

    def __init__(self, records, code_key=None):
        self.records = records
        #: what its generated source depends on in its code (``_code_key``)
        self.code_key = _code_key(records) if code_key is None else code_key
        #: the PC of each instruction, then the PC after the last
        self.pcs = [record.pc for record in records] + [records[-1].next_pc]
        self.steps = 0
        self.fn = None
        self.failed = None
        self.modes_key = None
        #: the Modes its source is generated for; the ops it could apply
        #: lane by lane (see BlockTier._write)
        self.modes = None
        self.lane_candidates = frozenset()
        self.path = None
        #: interpreted steps before it is compiled or loaded
        self.wait = 0
        #: whether the cache holds its machine code; whether it was handed to
        #: the background compiler
        self.cached = self.submitted = False
        #: whether it moves global memory (its function takes the address space)
        self.uses_memory = False

    def __len__(self):
        return len(self.records)


class Slot:
    """A PC inside a block: the block and the instruction's index in it."""

    __slots__ = ("block", "index")

    def __init__(self, block, index):
        self.block = block
        self.index = index


class BlockTier:
    """The blocks of one Program (the code of a kernel's dispatches, while
    unchanged: ``Program.keep``) and their compiled code."""

    def __init__(self, program, mode):
        self.program = program
        self.mode = mode
        self.threshold = 0 if mode in ("eager", "check") else STEPS_BEFORE_COMPILING
        #: pc -> Slot, or None where no block starts or runs through
        self.slots = {}
        #: the blocks ``slot`` formed or took, in order
        self._formed = []
        #: seconds spent compiling and loading blocks in this process (the
        #: watchdog's clock does not count them against the kernel)
        self.compile_seconds = 0.0
        #: the block cache (read once: the environment names it)
        self.cache = cache_directory()

    @property
    def refused(self) -> frozenset:
        """The ops whose semantics Numba could not compile (kept in the cache;
        read at the first compilable instruction: a launch that has none
        never looks)."""
        return refused_ops(self.cache)

    def slot(self, pc, state):
        """The Slot at a PC ``slots`` does not know yet: the block that starts
        there is formed, or taken from an earlier dispatch that formed it from
        the same bytes; None where its first instruction cannot be compiled
        (remembered likewise, by the instruction's bytes)."""
        key = (self.program.binding_key, state.float_mode_bits, state.vgpr.shape[0], pc,
               self.cache)
        formed = _FORMED.get(key)
        if formed is not None and formed.refused == self.refused and \
                self.program.code(pc, formed.end) == formed.code:
            block = formed.block
            if block is not None and block.fn is None:
                # not loaded yet: prepared again, by this process
                block = Block(block.records, block.code_key)
                _FORMED[key] = formed._replace(block=block)
        else:
            block = self._form(pc, state)
            self._remember_formed(key, pc, block)
        if block is None:
            self.slots[pc] = None
            return None
        self._formed.append(block)
        slots = self.slots
        for index, record in enumerate(block.records):
            if record.pc not in slots:
                slots[record.pc] = Slot(block, index)
        return slots[pc]

    def next_dispatch(self) -> None:
        """A kept Program's tier serves another dispatch: a block whose
        machine code is not loaded is prepared again at its first step,
        which looks at the cache afresh (another process may have compiled
        it since) and counts its steps from zero, as each dispatch always
        has (a kernel's short launches do not add up to a compile)."""
        for block in self._formed:
            if block.fn is None:
                block.modes_key = None

    def _remember_formed(self, key, pc, block):
        """Keep what ``_form`` made at ``pc`` (a Block or None) for later
        dispatches, with the code it was formed from."""
        try:
            end = block.pcs[-1] if block is not None else self.program.at(pc).next_pc
        except KernelError:
            return
        code = self.program.code(pc, end)
        if code is None:
            return
        if len(_FORMED) >= _FORMED_LIMIT:
            _FORMED.clear()
        _FORMED[key] = Formed(code, block, self.refused, end)

    def _form(self, pc, state):
        """The block of the compilable instructions from ``pc`` on, up to
        the next block or MAX_BLOCK_INSTRUCTIONS (None: none at ``pc``)."""
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
            op, reason = _generator_answer(record.inst, self.program.generation, modes)
            if reason is not None or op in self.refused:
                break
            records.append(record)
            at = record.next_pc
        return Block(records) if records else None

    def ready(self, block, state, waves=1):
        """The block's compiled function for the state's modes, or None:
        interpret it this time. The scheduler calls it at every interpreted
        step of a block without a function for these modes (a block's modes
        are MODE[9:0]: the VGPR count is the dispatch's, as is the tier), so
        the file system is looked at once per block and modes.

        A step of ``waves`` waves counts as ``1 + waves // WAVES_PER_STEP``
        steps, what it costs the interpreter: ~3 us a step and ~0.15 us a
        wave (MGPUSim's relu interpreted, 1024-wave groups, against the
        single-wave loop), so a wide kernel's blocks grow hot in fewer steps.

        In ``auto`` mode a block whose time has come is compiled by the
        background compiler (``server.py``) while the interpreter goes on,
        and loaded from the cache once it is there; a block the cache
        already holds is loaded after ``STEPS_BEFORE_LOADING`` steps. In
        ``eager`` and ``check`` mode it is compiled here, at once. A forked
        worker only counts the steps (its host adds them up: ``worker_steps``).
        """
        if block.modes_key != state.float_mode_bits:
            self._prepare(block, state)
        if block.failed is not None:
            return None
        block.steps += 1 + waves // WAVES_PER_STEP
        if block.steps < block.wait:
            return None
        if workers.in_worker():
            block.fn = _LOADED.get(block.path)
            return block.fn
        return self._advance(block)

    def _advance(self, block):
        """``ready``'s step once the block's wait is over: its function, or
        None while the background compiler has yet to make it."""
        if self.mode != "auto" or block.cached:
            block.fn = self._load(block)
        elif not block.submitted:
            block.submitted = self._write(block) and server.compiler().submit(block.path)
        else:
            status = server.compiler().status(block.path)
            if status == "ok":
                block.fn = self._load(block)
            elif status is not None:
                self._refuse(block, status)
        return block.fn

    def prepare_for_workers(self, pcs, state) -> dict:
        """Form the blocks of the code at ``pcs`` (every instruction a
        parallel dispatch can reach) and ready them here, before the workers
        are forked: a worker runs natively only the blocks loaded in the
        process it was forked from (loading costs it ~0.1 s a block, and it
        forgets them when it ends; kept workers take a later dispatch only
        while this process has loaded no block since their fork). In
        ``eager`` and ``check`` mode
        every block is compiled now. In ``auto`` mode those the cache holds
        are loaded (a dispatch of thousands of waves is hot enough for that),
        and those whose steps (in this process and the workers of earlier
        dispatches) passed their wait go to the background compiler.
        Returns the blocks by first PC with their steps (``worker_steps``)."""
        blocks = {}
        for pc in sorted(pcs):
            slot = self.slots.get(pc, False)
            if slot is False:
                slot = self.slot(pc, state)
            if slot is None or slot.block.pcs[0] in blocks:
                continue
            block = slot.block
            if block.modes_key != state.float_mode_bits:
                self._prepare(block, state)
            if block.failed is None and block.fn is None and \
                    (block.cached or block.steps >= block.wait):
                self._advance(block)
            blocks[block.pcs[0]] = (block, block.steps)
        return blocks

    def worker_steps(self) -> dict:
        """In a forked worker: the steps of each block formed before the fork
        that it interpreted, by first PC (what ``add_worker_steps`` takes)."""
        return {block.pcs[0]: block.steps for block in self._blocks()
                if block.fn is None and block.failed is None}

    def add_worker_steps(self, prepared, reports) -> None:
        """Count the workers' interpreted steps (``worker_steps`` of each) on
        the host's blocks ``prepared`` (``prepare_for_workers``); a block hot
        in the workers goes to the background compiler now (``auto``), and a
        later dispatch finds it in the cache."""
        for report in reports:
            for pc, steps in report.items():
                known = prepared.get(pc)
                if known is not None:
                    known[0].steps += steps - known[1]
        for block, _ in prepared.values():
            if block.fn is None and block.failed is None and block.steps >= block.wait:
                self._advance(block)

    def _blocks(self):
        """The distinct blocks formed so far."""
        return {id(slot.block): slot.block for slot in self.slots.values()
                if slot is not None}.values()

    def _prepare(self, block, state):
        """The block's source and cache path for these modes, whether an
        earlier run compiled it (or failed to), and how long to wait."""
        block.modes_key = state.float_mode_bits
        block.modes = Modes(state)
        block.fn = block.failed = None
        block.steps = 0
        block.submitted = False
        key = (block.code_key, self.program.generation, state.float_mode_bits,
               state.vgpr.shape[0], self.cache)
        made = _SOURCES.get(key)
        if made is None:
            try:
                source, uses_memory, candidates = block_source(
                    [r.inst for r in block.records], block.pcs, self.program.generation,
                    block.modes)
            except NotCompilable as reason:      # not in these modes
                made = (None, str(reason), False)
            else:
                digest = hashlib.sha256((fingerprint() + source).encode()).hexdigest()[:32]
                made = (candidates, self.cache / f"b{digest}.py", uses_memory)
            _SOURCES[key] = made
        if made[0] is None:
            block.failed = made[1]
            return
        block.lane_candidates, block.path, block.uses_memory = made
        if workers.in_worker() and block.path not in _LOADED:
            # loading machine code costs ~0.1 s a block, and a forked worker
            # forgets it when it ends: only what the process it was forked
            # from had loaded runs natively there
            block.failed = "not loaded before the worker process was forked"
            return
        failed = block.path.with_suffix(".failed")
        block.cached = block.path in _LOADED or any(
            block.path.parent.glob(f"__pycache__/{block.path.stem}.*.nbi"))
        if failed.exists():
            block.failed = failed.read_text()
        elif block.path in _LOADED:
            block.wait = 0                   # loaded by an earlier launch: costs nothing
        elif block.cached:
            block.wait = min(STEPS_BEFORE_LOADING, self.threshold)
        else:
            block.wait = self.threshold

    def _write(self, block):
        """Write the block's module into the cache (once); False when the
        cache is not writable (the block is then interpreted).

        What is written applies the ops whose scalar forms are exact lane by
        lane (``lanewise_ops``, which probes an op the first time it is
        seen). The file is named after the source with every op on whole
        arrays: the verdicts follow from the sources the fingerprint covers,
        so one name stands for one text, and a block is named, and looked up
        in the cache, without probing anything."""
        path = block.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                temporary = path.with_suffix(f".{os.getpid()}.tmp")
                temporary.write_text(self._lanewise_source(block))
                os.replace(temporary, path)
        except OSError as error:
            block.failed = f"the block cache is not writable: {error}"
            return False
        return True

    def _lanewise_source(self, block):
        """The block's source with its exact scalar forms applied lane by lane."""
        return block_source([record.inst for record in block.records], block.pcs,
                            self.program.generation, block.modes,
                            lanewise_ops(block.lane_candidates))[0]

    def _load(self, block):
        """Import the block's module and compile it for the scheduler's
        argument types (or load its machine code from the cache); None when
        Numba cannot compile it. A block loaded once is kept for the process
        (``_LOADED``): every launch makes a new Program, and loading machine
        code from the cache costs ~0.1-0.3 s."""
        loaded = _LOADED.get(block.path)
        if loaded is not None:
            return loaded
        if not self._write(block):
            return None
        started = time.monotonic()
        try:
            module = server.load_module(block.path)
            server.compile_for_executor(module)      # or loads its machine code
            fn = module.block
        except SyntaxError:                 # the code generator's own bug: never hidden
            raise
        except Exception as error:          # Numba's typing and lowering errors
            self._refuse(block, f"{type(error).__name__}: {error}")
            return None
        finally:
            self.compile_seconds += time.monotonic() - started
        _LOADED[block.path] = fn
        return fn

    def _refuse(self, block, error_text):
        """A block Numba failed on. When the error names the op whose semantic
        call failed (the generated line's ``# op:`` tag), that op is refused
        from now on (and in later runs) and the block's PCs form new blocks
        without it; otherwise the block is interpreted (``.failed``)."""
        text = re.sub(r"\x1b\[[0-9;]*m", "", error_text)       # (Numba colours its messages)
        op = _failed_op(text, block)
        if op is not None and op not in self.refused:
            remember_refused(op, text)
            for record in block.records:
                if self.slots.get(record.pc) is not None and \
                        self.slots[record.pc].block is block:
                    del self.slots[record.pc]
            block.failed = f"Numba cannot compile {op}"
            return
        block.failed = text.strip().splitlines()[0] if text.strip() else "failed"
        try:
            block.path.with_suffix(".failed").write_text(text)
        except OSError:
            pass


_OP_TAG = re.compile(r"# op:(\w+)")
_CALL_SITE = re.compile(r"typing of call at (.+?\.py) \((\d+)\)")


def _failed_op(text, block):
    """The op whose line of the block Numba's error points at (the last
    call site in the block's own file), or None."""
    try:
        lines = block.path.read_text().splitlines()
    except OSError:
        lines = []
    for path, line in reversed(_CALL_SITE.findall(text)):
        if Path(path).name == block.path.name and 0 < int(line) <= len(lines):
            tag = _OP_TAG.search(lines[int(line) - 1])
            if tag is not None:
                return tag.group(1)
    return None


def _refused_path(directory):
    return directory / f"refused-{fingerprint()[:16]}.txt"


#: block cache -> the ops its refused-ops file names, read once per process
#: (every dispatch asks)
_REFUSED = {}


def refused_ops(directory=None) -> frozenset:
    """The ops Numba failed to compile on this machine's versions (one per
    line of a file in the block cache ``directory``, default: ``cache_directory()``)."""
    directory = cache_directory() if directory is None else directory
    ops = _REFUSED.get(directory)
    if ops is None:
        try:
            lines = _refused_path(directory).read_text().splitlines()
        except OSError:
            lines = []
        ops = _REFUSED[directory] = frozenset(line.split(":", 1)[0] for line in lines if line)
    return ops


def remember_refused(op, error_text):
    reason = " ".join(error_text.split())[:300]
    directory = cache_directory()
    path = _refused_path(directory)
    _REFUSED[directory] = refused_ops(directory) | {op}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a") as out:
            out.write(f"{op}: {reason}\n")
    except OSError:
        pass


def _lanewise_path():
    return cache_directory() / f"lanewise-{fingerprint()[:16]}.txt"


#: verdicts file -> {op: None (applied lane by lane) or why not}, read once per process
_LANEWISE = {}


def lanewise_ops(ops) -> frozenset:
    """Those of ``ops`` (VALU, compare and SALU ops, saveexecs, conditional
    branches) whose scalar forms give the interpreter's bits
    (``lanewise.probe``): probed once per machine and version of the
    sources, the verdicts kept in the cache beside the refused ops ("op:
    yes" or "op: no, why")."""
    path = _lanewise_path()
    verdicts = _LANEWISE.get(path)
    if verdicts is None:
        verdicts = _LANEWISE[path] = {}
        try:
            lines = path.read_text().splitlines()
        except OSError:
            lines = []
        for line in lines:
            op, _, verdict = line.partition(": ")
            verdicts[op] = None if verdict == "yes" else verdict
    unknown = [op for op in ops if op not in verdicts]
    if unknown:
        from . import lanewise
        from ..core.registry import semantic_named
        for op in unknown:
            verdicts[op] = lanewise.probe(semantic_named(op))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a") as out:
                for op in unknown:
                    reason = verdicts[op]
                    out.write(f"{op}: {'yes' if reason is None else 'no, ' + reason}\n")
        except OSError:
            pass
    return frozenset(op for op in ops if verdicts[op] is None)


def memory_view(state, mapping):
    """The device memory ``mapping`` (``DeviceMemory.mapping``) as a block
    that moves global memory takes it: (allocation bases, ends, writable
    flags, the host addresses of their bytes, the LDS and private
    apertures' high 32 bits, whether a block may apply global atomics
    itself: no other process shares the memory, whose atomics would hold
    ``atomic_guard``'s locks), all uint64/bool arrays. The scheduler keeps it
    while the mapping stays the same, and with it the allocations, whose
    bytes the native code reaches by address.

    An allocation whose bytes are not one writable C-contiguous uint8
    array is laid out empty: an access there goes back to the interpreter.
    The last one made is kept (with the mapping it holds alive, so its
    identity is not reused): launch after launch maps the same memory, and
    laying it out cost ~0.1 ms a launch."""
    shared, private, _ = layout_values(state)
    alone = getattr(state.memory, "atomic_guard", None) is None
    global _LAST_VIEW
    if _LAST_VIEW is not None and _LAST_VIEW[0] is mapping and \
            _LAST_VIEW[1] == (shared, private, alone):
        return _LAST_VIEW[2]
    view = _lay_out(mapping, shared, private) + (np.array([alone], np.bool_),)
    _LAST_VIEW = (mapping, (shared, private, alone), view)
    return view


#: (mapping, (apertures, native atomics), view) of the last ``memory_view``
_LAST_VIEW = None


def _lay_out(mapping, shared, private):
    """``memory_view``'s arrays for ``mapping`` and the apertures."""
    bases, allocations = mapping
    ends = np.empty(len(bases), np.uint64)
    writable = np.empty(len(bases), np.bool_)
    addresses = np.zeros(len(bases), np.uint64)
    for index, allocation in enumerate(allocations):
        data = allocation.data
        usable = isinstance(data, np.ndarray) and data.dtype == np.uint8 and \
            data.ndim == 1 and data.flags.c_contiguous and data.flags.writeable
        ends[index] = allocation.address + (data.size if usable else 0)
        writable[index] = allocation.writable
        if usable:
            addresses[index] = data.ctypes.data
    apertures = np.array([shared >> 32, private >> 32], np.uint64)
    return np.asarray(bases, np.uint64), ends, writable, addresses, apertures


#: A limit PC above every code address (no group waits above the running one).
NO_LIMIT = 1 << 62


def gathers(sel, block, start, vgprs) -> bool:
    """Whether a group of the waves ``sel`` runs the block natively from
    instruction ``start``: waves side by side (a slice) always; the waves
    of a group split by divergence (an index array) when the rest of the
    block is long enough for its native run to repay copying their ``vgprs``
    VGPRs in and out (``run_block``): measured, an instruction interpreted
    costs about as much a wave as copying two VGPRs there and back, and
    ~15 us more."""
    return type(sel) is slice or 2 * (len(block.records) - start) >= vgprs or len(sel) <= 64


def run_block(fn, state, sel, wave_group, start, max_steps, limit, barrier_ok, base, memory):
    """Call block ``fn`` on the waves ``sel``: a slice of the batch as they
    lie; an index array (a group split by divergence) on contiguous copies
    of their registers, written back after (its LDS rows and memory are
    the batch's own)."""
    if type(sel) is slice:
        return fn(state.vgpr, state.sgpr, state.scc, state.lds, wave_group, sel.start,
                  sel.stop, start, max_steps, limit, barrier_ok, base, memory)
    # np.take: C-contiguous copies (the types the block was compiled for;
    # fancy indexing on axis 1 gives strided ones, which Numba compiles anew)
    vgpr, sgpr = np.take(state.vgpr, sel, axis=1), np.take(state.sgpr, sel, axis=1)
    scc, groups = np.take(state.scc, sel), np.take(wave_group, sel)
    groups.flags.writeable = False
    ran = fn(vgpr, sgpr, scc, state.lds, groups, 0, len(sel), start, max_steps, limit,
             barrier_ok, base, memory)
    state.vgpr[:, sel] = vgpr
    state.sgpr[:, sel] = sgpr
    state.scc[sel] = scc
    return ran


def check_run(fn, block, ctx, wave_group, start, max_steps, limit, barrier_ok, memory,
              count_lanes, uniform_next):
    """Run the block from instruction ``start`` natively and then, from the
    same registers and memory, by the interpreter for as many steps as the
    native run took; a KernelError when any register, LDS or device memory
    byte, the lane count or where the waves went differs. Leaves the
    interpreter's registers and memory; returns what the native function
    returns: (steps, lanes, next PC).

    A block that moves global memory has every allocation copied before and
    after its native run: slow, as a checking mode may be."""
    state, sel, n = ctx.state, ctx.sel, ctx.n
    waves = np.arange(sel.start, sel.stop) if type(sel) is slice else sel
    buffers = [a.data for a in state.memory.mapping()[1]] if memory is not None else []

    def snapshot():
        """Copies of the waves' registers, the LDS and every allocation."""
        return [state.vgpr[:, sel].copy(), state.sgpr[:, sel].copy(), state.scc[sel].copy(),
                state.lds.copy()] + [buffer.copy() for buffer in buffers]

    saved = snapshot()
    steps, native_lanes, native_pc = run_block(fn, state, sel, wave_group, start, max_steps,
                                               limit, barrier_ok, block.pcs[0], memory)
    native = snapshot()
    state.vgpr[:, sel], state.sgpr[:, sel], state.scc[sel] = saved[:3]
    for array, before in zip([state.lds] + buffers, saved[3:]):
        array[...] = before
    lanes = 0
    pc = block.pcs[start]
    records = {record.pc: record for record in block.records}
    for _ in range(steps):
        record = ctx.record = records[pc]
        ctx._exec = None
        ctx.all_active = None
        lanes += count_lanes(ctx) if record.is_vector else n
        outcome = record.run(ctx)
        pc = record.next_pc if outcome is BARRIER and barrier_ok else \
            uniform_next(record, outcome)
        if pc is None:
            raise ctx.fault("a compiled block ran on past a branch its waves disagree on")
    where_from = f"{steps} step(s) from 0x{block.pcs[start]:x} of the block at " \
        f"0x{block.pcs[0]:x} ({block.path})"
    names = ["v", "s", "scc", "lds"] + [f"memory {i}" for i in range(len(buffers))]
    for what, mine, theirs in zip(names, native, snapshot()):
        differ = np.argwhere(mine != theirs)
        if differ.size:
            where = differ[0]
            if what == "lds":
                place = f"LDS byte {int(where[1])} of work-group row {int(where[0])}"
            elif what == "scc":
                place = f"scc of wave {int(waves[where[0]])}"
            elif what.startswith("memory"):
                base = int(memory[0][int(what.split()[1])])
                place = f"device memory byte 0x{base + int(where[0]):x}"
            else:
                place = f"{what}{where[0]} of wave {int(waves[where[1]])}"
            ctx.record = block.records[start]
            raise ctx.fault(
                f"compiled block differs from the interpreter after {where_from}: "
                f"{place}: native {mine[tuple(where)]!r}, interpreter {theirs[tuple(where)]!r}")
    if (native_lanes, native_pc) != (lanes, pc):
        ctx.record = block.records[start]
        raise ctx.fault(f"compiled block differs from the interpreter after {where_from}: "
                        f"native {native_lanes} lanes, next PC 0x{native_pc:x}; interpreter "
                        f"{lanes} lanes, next PC 0x{pc:x}")
    return steps, lanes, pc

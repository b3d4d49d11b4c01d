"""Runs of a block's per-wave instructions as one clause that goes wave by
wave and, within a wave, lane by lane through several VALU ops at once,
their registers held in locals (``fused_clause``).

Instruction by instruction (``codegen``), a VALU op applied lane by lane
is one loop over the waves and their 64 lanes that reads its sources from
the batch's register arrays and writes its result back, where the next op
reads it again. Fused, the ops of a wave's run share one lane loop that
reads each register once, keeps what they write in locals (which LLVM
keeps in vector registers) and writes each register once, after the
lane's last op: the 1M vector add's eight address ops took 36 us a batch
of 1,024 waves this way against 71 one by one (the same fused loop
reading and writing the arrays took 195: it stayed scalar).

A run is the instructions between two that are not per-wave (a memory
access, an LDS or cross-wave op, an EXEC write, a branch) or a branch's
target: each of its instructions is one loop over the waves touching only
the registers of the wave it is at, under an EXEC none of them writes, so
running a wave's instructions before the next wave's changes nothing. The
clause is taken when the whole run fits the steps left and the limit from
its first instruction; ``codegen``'s instruction-by-instruction clauses
take the other entries, and so does a batch with a lane off. Its loop over
the waves is a function of its own (``run<first index>``), which the
clause calls: each wave runs the fused lane loops (``_Group``) and its
per-wave scalar instructions in order.
"""

from __future__ import annotations

import re

#: The most VGPRs the lanes of a fused group may read and write. The loop
#: reads and writes rows of one array whose strides LLVM does not know, so
#: it checks at run time that no row written overlaps another it touches,
#: up to a limit of such checks, past which the loop stays scalar: 16
#: v_mac_f32 of MGPUSim's matrix multiply (48 VGPRs) took 9.3 us for four
#: waves fused against 3.6 one by one, 3.5 in groups of at most 6-16
#: VGPRs and 8.6 in groups of 24; MGPUSim's aes, whose runs of v_xor_b32
#: write several VGPRs each, took 0.042 s with groups of 12 against 0.025
#: with groups of 6 and 0.024-0.026 without fusion.
MAX_GROUP_VGPRS = 6
#: A lane op reading or writing floats: it runs alone, as fused float ops
#: measured no faster than one by one, or slower (16 v_mul_f32 of MGPUSim's
#: matrix multiply 2.7 against 2.9 us, its 16 v_mac_f32 3.5 against 3.6;
#: relu's v_mul_f32 and v_max_f32, 67 against 58 us for 1,024 waves;
#: nbody's loop of 20, 12.6 against 10.5 us for 16 waves, its run 15%
#: slower in all), while integer address arithmetic gained (x0.4-0.8).
_FLOAT = re.compile(r"rt\.lane_(?:f32|f64|flush_f32|flush_f64|bits_f32|bits_f64)\b")
#: One lane's bit set in the wave's lane mask where ``{}`` holds (without a
#: branch: a carry or compare result taken as a branch kept the loop scalar
#: and cost ~5 ns a lane where it was unpredictable).
MASK_BIT = "mask |= (np.uint64(1) if {} else np.uint64(0)) << np.uint64(l)"
_MASK_LINE = re.compile(r"^mask \|= \(np\.uint64\(1\) if (.*) else np\.uint64\(0\)\) "
                        r"<< np\.uint64\(l\)(\s*#.*)?$")
#: A lane's VGPR, VGPR pair, and the pair's write, as ``codegen._vgpr`` and
#: ``_lane_valu`` write them.
_LANE_VGPR = re.compile(r"vgpr\[(\d+), ww, l\]")
_LANE_PAIR = re.compile(r"rt\.lane_pair\(vgpr, (\d+), ww, l\)")
_PAIR_STORE = re.compile(r"^rt\.lane_store64\(vgpr, (\d+), ww, l, (.*)\)$")
_VGPR_STORE = re.compile(r"^vgpr\[(\d+), ww, l\] = (.*)$")
#: An SGPR pair read once per wave (a carry-in or a compare's mask).
_PAIR_READ = re.compile(r"^rt\.lane_sgpr_pair\(sgpr, (\d+), ww\)$")
_SGPR_READ = re.compile(r"sgpr\[(\d+), ww\]")
_SGPR_PAIR_READ = re.compile(r"sgpr_pair\(sgpr, (\d+), ww\)")


#: The block function's locals a wave loop must not use: it becomes a
#: function of its own that takes only ``WAVE_ARGUMENTS``.
_BLOCK_LOCALS = re.compile(r"\b(base|memory|barrier_ok|limit|max_steps|steps|lanes|active|"
                           r"start|w1|i)\b")


def _vgprs_read(text):
    """The VGPRs ``text`` reads as a lane's VGPR or pair."""
    codes = {int(code) for code in _LANE_VGPR.findall(text)}
    return codes | {int(code) + k for code in _LANE_PAIR.findall(text) for k in (0, 1)}


def _sgpr_codes(expression):
    """The SGPRs ``expression`` reads of wave ``ww``."""
    codes = {int(code) for code in _SGPR_READ.findall(expression)}
    return codes | {int(code) + k for code in _SGPR_PAIR_READ.findall(expression) for k in (0, 1)}


class LaneOp:
    """A VALU op or compare applied lane by lane (``codegen._lane_loops``):
    the reads made once per wave before its lanes (``"xN = expression"``),
    the statements run for lane ``l`` of wave ``ww`` (unindented; nested by
    four spaces), and the SGPR pairs the lane mask they set goes to."""

    def __init__(self, reads, body, masks):
        self.reads, self.body, self.masks = list(reads), list(body), tuple(masks)

    def renamed(self, rename):
        return LaneOp([rename(line) for line in self.reads],
                      [rename(line) for line in self.body], self.masks)

    def full_loop(self, lanes="64"):
        """The loop over every lane of a wave (``lanes``: its count as written)."""
        return [f"for l in range({lanes}):"] + ["    " + line for line in self.body]

    def masked_loop(self):
        """The loop over the lanes of a wave that EXEC has on."""
        return ["for l in range(64):", "    if e[w, l]:"] + ["        " + line for line in self.body]

    def mask_stores(self, mask="mask"):
        return [f"rt.lane_sstore64(sgpr, {code}, ww, {mask})" for code in self.masks]

    def wave(self, loops):
        """The op for wave ``ww``: its per-wave reads, ``loops`` (lines over
        its lanes) and its mask's stores."""
        start = ["mask = np.uint64(0)"] if self.masks else []
        return self.reads + start + loops + self.mask_stores()

    def fusible(self):
        """Whether it gains by sharing a loop: an integer op (``_FLOAT``)
        whose lanes touch registers only as a lane's VGPR or pair
        (``_LANE_VGPR``...), so that they can be held in locals."""
        body = "\n".join(self.body)
        if _FLOAT.search(body):
            return False
        text = "\n".join(_PAIR_STORE.sub("", _VGPR_STORE.sub("", line.strip()))
                         for line in self.body)
        text = _LANE_VGPR.sub("", _LANE_PAIR.sub("", text))
        stored = [line for line in self.body if line.strip().startswith("rt.lane_store64")]
        return "vgpr" not in text and "sgpr" not in text and \
            all(_PAIR_STORE.match(line.strip()) for line in stored)

    def touched(self):
        """The VGPRs its lanes read or write."""
        return _vgprs_read("\n".join(self.body)) | self.written()

    def written(self):
        """The VGPRs its lanes write."""
        regs = set()
        for line in self.body:
            pair, single = _PAIR_STORE.match(line.strip()), _VGPR_STORE.match(line.strip())
            if pair:
                regs |= {int(pair.group(1)), int(pair.group(1)) + 1}
            elif single:
                regs.add(int(single.group(1)))
        return regs


class Body:
    """Instruction ``index`` (``op``) of a block: its clause of the chain
    (``lines``) and, when it is one loop over the waves touching only the
    registers of the wave it is at, what a fused run needs of it: its lines
    for wave ``ww`` (``wave_lines``, indented for the loop), what it counts
    (``counted``: ``n`` or ``active``) and, when applied lane by lane, its
    ``LaneOp``."""

    _WAVES = ["        for w in range(n):", "            ww = w0 + w"]
    _COUNTS = {"        lanes += n": "n", "        lanes += active": "active"}

    def __init__(self, index, op, lines, lane_op=None, rename=None):
        self.index, self.op = index, op
        self.wave_lines, self.counted = self._per_wave(lines)
        self.lane_op = None
        if self.wave_lines is not None and lane_op is not None:
            self.lane_op = lane_op.renamed(rename) if rename else lane_op
        if not lines[-1].lstrip().startswith(("i = ", "return ")):
            lines = lines + [f"        i = {index + 1}"]
        self.lines = [f"        elif i == {index}:    # {op}"] + ["    " + line for line in lines]

    @classmethod
    def _per_wave(cls, lines):
        """(the lines run for wave ``ww``, what the instruction counts) when
        ``lines`` are one loop over the waves and the count, or the count
        alone (an instruction without effect); else (None, None). Nothing
        else has that shape: a memory access, an LDS or cross-wave op, an
        EXEC write (EXEC's masks are read again after it), a branch."""
        counted = cls._COUNTS.get(lines[-1])
        if counted is None:
            return None, None
        if len(lines) == 1:
            return [], counted
        inner = lines[2:-1]
        if lines[:2] != cls._WAVES or not inner or \
                not all(line.startswith(" " * 12) for line in inner) or \
                any(_BLOCK_LOCALS.search(line) for line in inner):
            return None, None
        return [line[12:] for line in inner], counted


def runs(bodies, targets):
    """``bodies`` cut into runs of per-wave instructions (lists, cut before
    each branch target ``targets`` holds) and the others (lists of one)."""
    pieces, run = [], []
    for body in bodies:
        if body.wave_lines is None or (body.index in targets and run):
            if run:
                pieces.append(run)
            run = []
            if body.wave_lines is None:
                pieces.append([body])
                continue
        run.append(body)
    if run:
        pieces.append(run)
    return pieces


class _Group:
    """Lane ops of a run sharing one lane loop, in order (``lines``)."""

    def __init__(self):
        self.members = []           # (index, LaneOp)
        self.mask_owner = {}        # SGPR pair code -> the member writing it last, whole
        self.mask_codes = set()     # the SGPRs the members' masks go to
        self.touched = set()        # the VGPRs the members' lanes read or write

    def admits(self, op):
        """Whether ``op`` can join: its per-wave reads (made before the
        loop) read nothing a member writes, but a member's lane mask read as
        each lane's bit (``rt.mask_bit``: the member's own bit, forwarded),
        and no VGPR row (a DPP source, which must see every lane's value)."""
        if not self.members:
            return True
        if not op.fusible() or len(self.touched | op.touched()) > MAX_GROUP_VGPRS:
            return False
        for read in op.reads:
            name, expression = read.split(" = ", 1)
            if "vgpr" in expression:
                return False
            if _sgpr_codes(expression) & self.mask_codes and \
                    self._forwarded(name, expression, op) is None:
                return False
        return True

    def _forwarded(self, name, expression, op):
        """The member whose mask a per-wave read ``name = expression`` of
        ``op`` reads, when ``op`` uses it only as each lane's bit; else None."""
        pair = _PAIR_READ.match(expression)
        if pair is None or int(pair.group(1)) not in self.mask_owner:
            return None
        body = "\n".join(op.body)
        if len(re.findall(rf"\b{name}\b", body)) != body.count(f"rt.mask_bit({name}, l)"):
            return None
        return self.mask_owner[int(pair.group(1))]

    def add(self, index, op):
        self.members.append((index, op))
        self.touched |= op.touched()
        self._own(index, op)

    def _own(self, index, op):
        """``op`` (member ``index``) wrote its masks: their pairs are its
        (a pair overlapping one of them is nobody's whole)."""
        for code in op.masks:
            self.mask_owner.pop(code - 1, None)
            self.mask_owner.pop(code + 1, None)
            self.mask_owner[code] = index
            self.mask_codes |= {code, code + 1}

    def lines(self):
        """The members' per-wave reads, their fused lane loop and their
        masks' stores. A mask another member writes again later is never
        made (its bits are forwarded to the members reading them); a VGPR
        whose first touch is an unconditional write is not read first."""
        if len(self.members) == 1 and not self.members[0][1].fusible():
            return _single(self.members[0][1])
        written = sorted(set().union(*(op.written() for _, op in self.members)))
        last_writer = {code: index for index, op in self.members for code in op.masks}
        reads, stores = [], []
        read_first = self._read_first()
        inner = [f"lane_v{reg} = vgpr[{reg}, ww, l]" for reg in written if reg in read_first]
        self.mask_owner, self.mask_codes = {}, set()
        for index, op in self.members:
            forwards = {}
            for read in op.reads:
                name, expression = read.split(" = ", 1)
                owner = self._forwarded(name, expression, op)
                if owner is None:
                    reads.append(read)
                else:
                    forwards[name] = owner
            kept = [code for code in op.masks if last_writer[code] == index]
            for line in op.body:
                inner += _local(line, index, written, forwards, bool(kept))
            if kept:
                reads.append(f"lane_mask{index} = np.uint64(0)")
                stores += [f"rt.lane_sstore64(sgpr, {code}, ww, lane_mask{index})"
                           for code in kept]
            self._own(index, op)
        inner += [f"vgpr[{reg}, ww, l] = lane_v{reg}" for reg in written]
        return reads + ["for l in range(64):"] + ["    " + line for line in inner] + stores

    def _read_first(self):
        """The VGPRs the members touch first by reading them (or by a write
        under a condition, which keeps the old value elsewhere)."""
        first = {}
        for _, op in self.members:
            for line in op.body:
                statement = line.strip()
                unconditional = line == statement
                store = _PAIR_STORE.match(statement) or _VGPR_STORE.match(statement)
                value = store.group(2) if store else statement
                for reg in _vgprs_read(value):
                    first.setdefault(reg, "read")
                if store:
                    reg = int(store.group(1))
                    targets = (reg, reg + 1) if store.re is _PAIR_STORE else (reg,)
                    for target in targets:
                        first.setdefault(target, "write" if unconditional else "read")
        return {reg for reg, touch in first.items() if touch == "read"}


def _single(op):
    """A lane op that cannot share a loop, alone, for a wave with every lane on."""
    return op.wave(op.full_loop())


def _local(line, index, written, forwards, keeps_mask):
    """One statement of lane op ``index``, its VGPRs in ``written`` held in
    locals (``lane_vN``), its mask bit kept (``lane_cN``) and set in its own
    mask (``lane_maskN``) unless ``keeps_mask`` is False, the bits it reads of members' masks (``forwards``:
    read name -> member) taken from theirs: the lines replacing it."""
    indent = line[:len(line) - len(line.lstrip())]
    statement = line.strip()

    def value(text):
        text = _LANE_PAIR.sub(lambda m: _pair(int(m.group(1)), written), text)
        text = _LANE_VGPR.sub(lambda m: f"lane_v{m.group(1)}" if int(m.group(1)) in written
                              else m.group(0), text)
        for name, owner in forwards.items():
            text = text.replace(f"rt.mask_bit({name}, l)", f"lane_c{owner}")
        return text

    pair = _PAIR_STORE.match(statement)
    if pair:
        reg = int(pair.group(1))
        return [f"{indent}lane_pair{index} = np.uint64({value(pair.group(2))})",
                f"{indent}lane_v{reg} = rt.low_dword(lane_pair{index})",
                f"{indent}lane_v{reg + 1} = rt.high_dword(lane_pair{index})"]
    single = _VGPR_STORE.match(statement)
    if single:
        return [f"{indent}lane_v{single.group(1)} = np.uint32({value(single.group(2))})"]
    mask = _MASK_LINE.match(statement)
    if mask:
        bit = [f"{indent}lane_c{index} = True if {value(mask.group(1))} else False"
               f"{mask.group(2) or ''}"]
        return bit + [f"{indent}lane_mask{index} |= (np.uint64(1) if lane_c{index} else "
                      f"np.uint64(0)) << np.uint64(l)"] if keeps_mask else bit
    return [indent + value(statement)]


def _pair(reg, written):
    """A lane's VGPR pair at ``reg``, from the locals it has."""
    if reg not in written and reg + 1 not in written:
        return f"rt.lane_pair(vgpr, {reg}, ww, l)"
    low = f"lane_v{reg}" if reg in written else f"vgpr[{reg}, ww, l]"
    high = f"lane_v{reg + 1}" if reg + 1 in written else f"vgpr[{reg + 1}, ww, l]"
    return f"rt.pair_bits({low}, {high})"


def _full_wave(run):
    """The lines for a wave with every lane on: the run's lane ops in fused
    groups, its per-wave scalar instructions between them; and whether
    some group fuses two ops or more (else the clause gains nothing)."""
    lines, group, fused = [], _Group(), False

    def close():
        nonlocal group, fused
        if group.members:
            fused |= len(group.members) > 1
            lines.extend(group.lines())
        group = _Group()

    for body in run:
        op = body.lane_op
        if op is None:
            close()
            lines.extend(body.wave_lines)
            continue
        if not group.admits(op):
            close()
        group.add(body.index, op)
        if not op.fusible():
            close()
    close()
    return lines, fused


#: What the function of a run's wave loop may take of the block function's
#: locals (``fused_clause``): the registers, EXEC's masks, the waves. It
#: takes those its lines use: nbody's loop calls it for 16 waves a turn, and
#: each array passed costs the call its fields.
WAVE_ARGUMENTS = ("vgpr", "sgpr", "scc", "lds", "wave_group", "e", "full", "w0", "n")


def used_constants(prologue, lines):
    """The lines of ``prologue`` (the block's hoisted constants, ``kN =
    ...``) making the constants ``lines`` use."""
    used = set(re.findall(r"\bk\d+\b", "\n".join(lines)))
    return [line for line in prologue if line.split("=")[0].strip() in used]


def fused_clause(run, prologue):
    """(the clause of the chain running every instruction of ``run``, a list
    of ``Body``, from its first, when every lane of the batch is on; the
    function its wave loop is), or ([], []) when no two of its lane ops
    share a loop. A batch with lanes off takes the instructions' own
    clauses: a second copy of the run for such waves, each op's loop
    testing EXEC, was a fifth of the generated code of MGPUSim's blocks
    (15,325 of 76,379 lines), which Numba's compile time follows.

    The wave loop is a function of its own, not lines of the block
    function: there, LLVM optimised the loops of relu's block of 26
    instructions worse once its function was long enough (a run of six
    took 390 us a batch inside the block, 84 us as a function; no subset
    of the block's clauses was slow)."""
    full, fused = _full_wave(run)
    if not fused:
        return [], []
    first, last = run[0].index, run[-1].index
    count = len(run)
    vectors = sum(body.counted == "active" for body in run)
    lanes = " + ".join(term for term in (f"{count - vectors} * n" if count > vectors else "",
                                         f"{vectors} * active" if vectors else "") if term)
    loop = ["for w in range(n):", "    ww = w0 + w"] + ["    " + line for line in full]
    body = used_constants(prologue, loop) + ["    " + line for line in loop]
    text = "\n".join(body)
    arguments = ", ".join(name for name in WAVE_ARGUMENTS if re.search(rf"\b{name}\b", text))
    function = ["", "", "@njit(error_model=\"numpy\")", f"def run{first}({arguments}):"] + body
    clause = [f"        elif i == {first} and active == 64 * n and steps + {count} <= max_steps "
              f"and base + PCS[{last}] < limit:    # fused: {', '.join(b.op for b in run)}",
              f"            run{first}({arguments})",
              f"            lanes += {lanes}",
              f"            steps += {count - 1}",
              f"            i = {last + 1}"]
    return clause, function

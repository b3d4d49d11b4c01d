"""Whether a dispatch runs its work-groups in several processes, and how they
are cut into batches.

``DispatchRequest.jobs`` asks for up to that many worker processes
(``exec.core.workers`` forks them; ``exec.core.dispatch`` gives each its
batches). A dispatch stays in the calling process when any of these holds:

- ``jobs`` is 1, or the device memory is not ``shared`` (MAP_SHARED pages
  are what lets forked workers write the host's bytes; the virtual GPU's
  process memory is the host program's own and is never shared), or the
  system cannot fork;
- it is small: fewer than ``MIN_PARALLEL_WAVES`` waves (workers cost
  milliseconds) or a single work-group;
- something needs this process while the kernel runs: tracing or profiling
  (``request.trace``), hazard checking (``request.checker``), a hostcall
  server (``request.host_service``), a test's ``initializer`` or ``decode``;
- its code, scanned statically from the entry along every branch, uses the
  global data share (a DS op with the gds bit, ds_gws_*, ds_ordered_count:
  their state and their waits are the host's), sends interrupts to a runtime
  that listens (s_sendmsg MSG_INTERRUPT), or leaves through an indirect
  branch or call whose target it cannot compute (a function pointer, a
  computed s_setpc: the code beyond cannot be scanned; direct calls, as
  compilers emit them, are followed).

The scan decodes through the dispatch's ``Program``, so the workers forked
afterwards inherit every record already bound (and later dispatches of the
kernel find them in the decode cache).
"""

from __future__ import annotations

import os

from ...analysis.cfg import control_flow
from ...elf.listing import branch_target
from ...errors import KernelError
from ..semantics.control import MSG_INTERRUPT

#: Fewest waves for which a dispatch is spread over processes. Workers cost
#: ~10-15 ms a dispatch (forks, copied-on-write pages, cold caches): the 1M
#: vector add of bench_exec (~7 us a wave in one process) breaks even near
#: 4096 waves with two workers on the 2-core reference machine; kernels
#: doing more per wave gain below it, smaller dispatches would only lose.
MIN_PARALLEL_WAVES = 4096
#: Most instructions the scan looks at before giving up (the kernel then
#: runs in one process).
SCAN_LIMIT = 1 << 16
#: Ops that always reach the global data share.
_GDS_ONLY = ("ds_gws_", "ds_ordered_count")


def worker_count(request, program, total_groups, total_waves, initializer=None,
                 decode=None) -> int:
    """How many processes run ``request``'s work-groups (1: this one)."""
    jobs = min(int(getattr(request, "jobs", 1) or 1), total_groups)
    if jobs <= 1 or total_waves < MIN_PARALLEL_WAVES:
        return 1
    if not getattr(request.memory, "shared", False) or not hasattr(os, "fork"):
        return 1
    if request.trace is not None or request.checker is not None or \
            request.host_service is not None or initializer is not None or decode is not None:
        return 1
    if host_bound(program, int(request.setup.entry_address),
                  request.interrupt is not None) is not None:
        return 1
    return jobs


def batch_groups(groups_per_batch, total_groups, jobs, waves_per_group, scratch_wave_bytes,
                 scratch_budget) -> int:
    """Work-groups per batch when ``jobs`` processes run batches at once: no
    more than an even share, so that every worker has work, and few enough
    that the scratch of ``jobs`` concurrent batches (each has its own wave
    slots) stays within ``scratch_budget``."""
    share = -(-total_groups // jobs)
    groups = min(groups_per_batch, share)
    if scratch_wave_bytes:
        groups = min(groups, scratch_budget // (jobs * waves_per_group * scratch_wave_bytes))
    return max(1, groups)


def host_bound(program, entry, interrupts) -> str | None:
    """Why the code reachable from ``entry`` must run in this process, or None.

    Follows every direct branch, and calls whose target is built by the
    sequence compilers emit for a direct call (``s_getpc_b64 s[N:N+1]``,
    ``s_add_u32 sN, sN, lo``, ``s_addc_u32 sN+1, sN+1, hi``, then
    ``s_swappc_b64``/``s_setpc_b64`` on ``s[N:N+1]``). Once a call was
    followed, any other ``s_setpc_b64`` is taken for a return (clang emits
    it for nothing else); before that, and for every other register target
    (a call through a function pointer), the code cannot be seen. An
    instruction that does not decode ends its path (a wave reaching it
    faults in a worker as it would here).
    """
    seen = set()
    pending = [entry]
    calls = 0
    while pending:
        pc = pending.pop()
        known = {}                 # N -> value of s[N:N+1] built by getpc/add/addc
        while pc not in seen:
            if len(seen) >= SCAN_LIMIT:
                return f"more than {SCAN_LIMIT} instructions to scan"
            seen.add(pc)
            try:
                record = program.at(pc)
            except KernelError:
                break
            inst = record.inst
            reason = _host_use(inst, interrupts)
            if reason is not None:
                return f"{reason} at 0x{pc:x}"
            flow = control_flow(inst)
            if flow is None:
                _track_pc_arithmetic(known, record)
                pc = record.next_pc
                continue
            if flow.target == "register":
                target = known.get(int(inst.fields.get("ssrc0", -1)))
                if target is None and not (record.op == "s_setpc_b64" and calls):
                    return f"an indirect branch or call ({record.op}) at 0x{pc:x}"
                if target is not None:
                    pending.append(target)
                    calls += flow.call
            elif flow.target == "label":
                target = branch_target(pc, inst)
                if target is not None:
                    pending.append(target)
            if not flow.falls_through:
                break
            known.clear()
            pc = record.next_pc
    return None


def _track_pc_arithmetic(known, record):
    """Follow ``s_getpc_b64`` + ``s_add_u32``/``s_addc_u32`` with literals in
    ``known`` (first register of the pair -> its 64-bit value); any other
    scalar write to a tracked pair forgets it."""
    op, fields = record.op, record.inst.fields
    dst = int(fields.get("sdst", fields.get("sdata", -1)))
    if op.startswith(("v_readlane", "v_readfirstlane")):      # an SGPR in the VDST field
        dst = int(fields.get("vdst", -1))
    literal = _constant(record.inst)
    if op == "s_getpc_b64":
        known[dst] = record.next_pc
        return
    if op in ("s_add_u32", "s_addc_u32") and literal is not None and \
            int(fields.get("ssrc0", -1)) == dst:
        low = dst if op == "s_add_u32" else dst - 1
        if low in known:
            shift = 0 if op == "s_add_u32" else 32
            known[low] = (known[low] + (int(literal) << shift)) & (2 ** 64 - 1)
            return
    if dst >= 0:
        width = _registers_written(op)
        for low in [n for n in known if dst - 1 <= n < dst + width]:
            del known[low]


def _constant(inst):
    """The 32-bit constant of ``inst``'s SSRC1 (a literal or an inline integer), or None."""
    code = int(inst.fields.get("ssrc1", -1))
    if code == 255:
        return None if inst.literal is None else int(inst.literal) & 0xFFFFFFFF
    if 128 <= code <= 192:
        return code - 128
    if 193 <= code <= 208:
        return (192 - code) & 0xFFFFFFFF
    return None


def _registers_written(op) -> int:
    """SGPRs an instruction writes from its destination on (by its name)."""
    if "dwordx" in op:
        return int(op.rsplit("x", 1)[1])
    if op.endswith(("_b64", "_u64", "_i64")) or op.startswith("v_cmp"):
        return 2
    return 1


def _host_use(inst, interrupts) -> str | None:
    """What about ``inst`` needs the host's process (None: nothing)."""
    op = inst.op or ""
    if op.startswith("ds_"):
        if op.startswith(_GDS_ONLY) or int(inst.fields.get("gds", 0) or 0):
            return f"global data share access ({op})"
    elif interrupts and op in ("s_sendmsg", "s_sendmsghalt") and \
            int(inst.fields.get("simm16", 0)) & 0xF == MSG_INTERRUPT:
        return f"an interrupt to the runtime ({op})"
    return None

"""amdgpu-as throughput against llvm-mc-19 on a generated ~100k-instruction file.

``main()`` prints both times (best of 3 cold runs, wall and CPU, since the
machine may be shared) and their ratios (the target is within 5x of llvm-mc;
the figures printed are what this machine measured).
"""

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

INSTRUCTIONS = 100_000

_TEMPLATES = [
    "s_mov_b32 s{a}, s{b}",
    "s_add_u32 s{a}, s{b}, {imm}",
    "s_addc_u32 s{a}, s{b}, 0",
    "s_lshl_b32 s{a}, s{b}, 2",
    "v_mov_b32_e32 v{a}, s{b}",
    "v_add_f32_e32 v{a}, v{b}, v{c}",
    "v_mul_f32_e32 v{a}, 0x40490fd0, v{c}",
    "v_mac_f32_e32 v{a}, s{b}, v{c}",
    "v_add_u32_e32 v{a}, s{b}, v{c}",
    "v_lshlrev_b32_e32 v{a}, 2, v{c}",
    "v_cmp_gt_u32_e32 vcc, s{b}, v{c}",
    "global_load_dword v{a}, v{c}, s[{p}:{q}]",
    "global_store_dword v{c}, v{a}, s[{p}:{q}] offset:16",
    "ds_read_b32 v{a}, v{c} offset:{off}",
    "ds_write_b32 v{c}, v{a}",
    "s_load_dwordx2 s[{p}:{q}], s[4:5], 0x{off:x}",
    "s_waitcnt vmcnt(0) lgkmcnt(0)",
    "v_fma_f32 v{a}, v{b}, v{c}, 1.0",
]


def generate(count=INSTRUCTIONS, seed=1) -> str:
    """A kernel body of ``count`` varied GFX9 instructions, with labels and branches."""
    rng = random.Random(seed)
    lines = [".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"", ".text", ".globl bench",
             ".p2align 8", ".type bench,@function", "bench:"]
    for index in range(count - 1):
        if index % 500 == 0:
            lines.append(f".Lblock{index // 500}:")
        if index % 500 == 499:
            lines.append(f"  s_cbranch_scc1 .Lblock{index // 500}")
            continue
        pair = rng.randrange(0, 40, 2)
        lines.append("  " + rng.choice(_TEMPLATES).format(
            a=rng.randrange(0, 60), b=rng.randrange(0, 60), c=rng.randrange(0, 60),
            imm=rng.randrange(65, 100000), p=pair, q=pair + 1, off=rng.randrange(0, 64) * 4))
    lines.append("  s_endpgm")
    return "\n".join(lines) + "\n"


def _llvm_mc():
    for candidate in ("llvm-mc-19", "/usr/lib/llvm-19/bin/llvm-mc"):
        path = shutil.which(candidate) if "/" not in candidate else (
            candidate if os.access(candidate, os.X_OK) else None)
        if path:
            return path
    return None


def _assemble_once(count):
    """Time one cold assembly in this process: ``(wall s, CPU s, bytes)``."""
    from amdgpu_tools.asm import assemble
    source = generate(count)
    wall, cpu = time.perf_counter(), time.process_time()
    data = assemble(source, target="gfx900", filename="bench.s")
    return time.perf_counter() - wall, time.process_time() - cpu, len(data)


def _ours(count, repeats):
    """Best wall and CPU time of ``repeats`` cold runs, each in a fresh interpreter
    (the encoder's memos live for a process, so a second run in one would be warm)."""
    runs = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--once", str(count)],
                             check=True, capture_output=True, text=True).stdout.split()
        runs.append((float(out[0]), float(out[1]), int(out[2])))
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2]


def _theirs(tool, source, repeats):
    """Best wall and CPU (user + system, from rusage) time of llvm-mc-19 on ``source``."""
    import resource
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.s")
        with open(path, "w") as handle:
            handle.write(source)
        for _ in range(repeats):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([tool, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj",
                            path, "-o", os.path.join(tmp, "bench.o")], check=True)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def main(count=INSTRUCTIONS, repeats=3):
    wall, cpu, size = _ours(count, repeats)
    print(f"   amdgpu-as: {count} instructions in {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"(best of {repeats} cold runs; {count / cpu:,.0f} instructions/CPU-s, {size} bytes)")
    tool = _llvm_mc()
    if tool is None:
        print("   llvm-mc-19 not installed: no ratio")
        return
    their_wall, their_cpu = _theirs(tool, generate(count), repeats)
    print(f"   llvm-mc-19: {their_wall:.2f} s wall, {their_cpu:.2f} s CPU; amdgpu-as / llvm-mc = "
          f"{wall / their_wall:.1f}x wall, {cpu / their_cpu:.1f}x CPU (target: within 5x)")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--once":
        print(*_assemble_once(int(sys.argv[2])))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else INSTRUCTIONS)

"""amdgpu-as throughput against llvm-mc-19 on a generated ~100k-instruction file.

``main()`` prints both times and their ratio (the target is within 5x of
llvm-mc; the figure printed is what this machine measured).
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


def main(count=INSTRUCTIONS):
    from amdgpu_tools.asm import assemble
    source = generate(count)
    start = time.perf_counter()
    data = assemble(source, target="gfx900", filename="bench.s")
    ours = time.perf_counter() - start
    print(f"   amdgpu-as: {count} instructions in {ours:.2f} s "
          f"({count / ours:,.0f} instructions/s, {len(data)} bytes)")
    tool = _llvm_mc()
    if tool is None:
        print("   llvm-mc-19 not installed: no ratio")
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.s")
        with open(path, "w") as handle:
            handle.write(source)
        start = time.perf_counter()
        subprocess.run([tool, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj",
                        path, "-o", os.path.join(tmp, "bench.o")], check=True)
        theirs = time.perf_counter() - start
    print(f"   llvm-mc-19: {theirs:.2f} s; amdgpu-as / llvm-mc = {ours / theirs:.1f}x "
          f"(target: within 5x)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else INSTRUCTIONS)

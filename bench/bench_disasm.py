"""Disassembly throughput: our decoder+printer against llvm-mc -disassemble / llvm-objdump-19.

The code under test is every instruction of the recorded gfx900 corpus
(tests/isa/data), concatenated: a realistic mix of SOP/SMEM/VOP*/DPP/SDWA with
literals.  Reported: instructions per second for decode only, for decode+text,
for amdgpu-objdump's whole ``-d`` listing of that code as an ELF object (built
by llvm-mc), and the ratio to LLVM on the same bytes (LLVM timed as a whole
process, so its start-up is included; the bytes are large enough for that to
be minor).  Ours is the best of 3 runs: the machine is shared.
"""

import os
import subprocess
import tempfile
import time

from amdgpu_tools.isa import decode, disassemble, get_target

HERE = os.path.dirname(__file__)
CORPUS = os.path.join(HERE, "..", "tests", "isa", "data", "corpus_gfx900.txt")
LLVM_MC = "/usr/lib/llvm-19/bin/llvm-mc"
LLVM_OBJDUMP = "/usr/lib/llvm-19/bin/llvm-objdump"


def code_bytes(repeat=2):
    chunks = []
    with open(CORPUS) as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            _, hexbytes, _ = line.rstrip("\n").split("\t")
            if hexbytes != "ERROR":
                chunks.append(bytes.fromhex(hexbytes))
    return b"".join(chunks) * repeat


def best_of(runs, measure):
    """The shortest of ``runs`` timings: the machine is shared, the minimum is the
    figure least disturbed by other processes."""
    return min(measure() for _ in range(runs))


def time_ours(code, target, runs=3):
    count = sum(1 for _ in disassemble(code, target))

    def decode_only():
        start = time.perf_counter()
        offset = 0
        while offset < len(code):
            offset += decode(code, offset, target).size
        return time.perf_counter() - start

    def with_text():
        start = time.perf_counter()
        for _, inst in disassemble(code, target):
            inst.text()
        return time.perf_counter() - start
    return count, best_of(runs, decode_only), best_of(runs, with_text)


def time_listing(elf_path, target, runs=3):
    """amdgpu-objdump -d's whole listing (labels, words, addresses), in process."""
    from amdgpu_tools.elf.listing import disassembly
    from amdgpu_tools.elf.reader import read_elf_file
    elf = read_elf_file(elf_path)

    def listing():
        start = time.perf_counter()
        disassembly(elf, target)
        return time.perf_counter() - start
    return best_of(runs, listing)


def time_llvm_mc(code):
    if not os.access(LLVM_MC, os.X_OK):
        return None
    text = "\n".join(",".join(f"0x{b:02x}" for b in code[i:i + 4096])
                     for i in range(0, len(code), 4096))
    start = time.perf_counter()
    subprocess.run([LLVM_MC, "-disassemble", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900"],
                   input=text, capture_output=True, text=True, check=True)
    return time.perf_counter() - start


def build_object(code, tmp):
    """The code as the .text of an ELF object (llvm-mc), or None without LLVM."""
    if not os.access(LLVM_MC, os.X_OK):
        return None
    src = os.path.join(tmp, "code.s")
    obj = os.path.join(tmp, "code.o")
    with open(src, "w") as fh:
        fh.write(".text\n")
        for i in range(0, len(code), 64):
            fh.write(".byte " + ",".join(str(b) for b in code[i:i + 64]) + "\n")
    subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj",
                    "-o", obj, src], check=True, capture_output=True)
    return obj


def time_llvm_objdump(obj):
    if obj is None or not os.access(LLVM_OBJDUMP, os.X_OK):
        return None
    start = time.perf_counter()
    subprocess.run([LLVM_OBJDUMP, "-d", "--mcpu=gfx900", obj], capture_output=True, check=True)
    return time.perf_counter() - start


def main():
    target = get_target("gfx900")
    code = code_bytes()
    count, decode_only, with_text = time_ours(code, target)
    print(f"   {count} instructions, {len(code)} bytes (gfx900 corpus; best of 3 runs)")
    print(f"   ours, decode only : {count / decode_only:12,.0f} inst/s")
    print(f"   ours, decode+text : {count / with_text:12,.0f} inst/s")
    with tempfile.TemporaryDirectory() as tmp:
        obj = build_object(code, tmp)
        listing = time_listing(obj, target) if obj else None
        if listing:
            print(f"   ours, objdump -d  : {count / listing:12,.0f} inst/s  (whole listing)")
        llvm_objdump = time_llvm_objdump(obj)
        for name, seconds in (("llvm-mc -disassemble", time_llvm_mc(code)),
                              ("llvm-objdump-19 -d", llvm_objdump)):
            if seconds is None:
                print(f"   {name}: not installed")
                continue
            rate = count / seconds
            print(f"   {name:21s}: {rate:12,.0f} inst/s  (ours decode+text is "
                  f"{(count / with_text) / rate:.3f}x)")
        if listing and llvm_objdump:
            print(f"   ours objdump -d listing vs llvm-objdump-19 -d: "
                  f"{llvm_objdump / listing:.3f}x")


if __name__ == "__main__":
    main()

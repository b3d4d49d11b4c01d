"""Disassembly throughput: our decoder+printer against llvm-mc -disassemble / llvm-objdump-19.

The code under test is every instruction of the recorded gfx900 corpus
(tests/isa/data), concatenated: a realistic mix of SOP/SMEM/VOP*/DPP/SDWA with
literals.  Reported: instructions per second for decode only, for decode+text,
and the ratio to LLVM on the same bytes (LLVM timed as a whole process, so its
start-up is included; the bytes are large enough for that to be minor).
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


def time_ours(code, target):
    start = time.perf_counter()
    count = 0
    offset = 0
    while offset < len(code):
        offset += decode(code, offset, target).size
        count += 1
    decode_only = time.perf_counter() - start
    start = time.perf_counter()
    lines = [inst.text() for _, inst in disassemble(code, target)]
    with_text = time.perf_counter() - start
    return count, decode_only, with_text, len(lines)


def time_llvm_mc(code):
    if not os.access(LLVM_MC, os.X_OK):
        return None
    text = "\n".join(",".join(f"0x{b:02x}" for b in code[i:i + 4096])
                     for i in range(0, len(code), 4096))
    start = time.perf_counter()
    subprocess.run([LLVM_MC, "-disassemble", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900"],
                   input=text, capture_output=True, text=True, check=True)
    return time.perf_counter() - start


def time_llvm_objdump(code):
    if not (os.access(LLVM_OBJDUMP, os.X_OK) and os.access(LLVM_MC, os.X_OK)):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "code.s")
        obj = os.path.join(tmp, "code.o")
        with open(src, "w") as fh:
            fh.write(".text\n")
            for i in range(0, len(code), 64):
                fh.write(".byte " + ",".join(str(b) for b in code[i:i + 64]) + "\n")
        subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj",
                        "-o", obj, src], check=True, capture_output=True)
        start = time.perf_counter()
        subprocess.run([LLVM_OBJDUMP, "-d", "--mcpu=gfx900", obj], capture_output=True,
                       check=True)
        return time.perf_counter() - start


def main():
    target = get_target("gfx900")
    code = code_bytes()
    count, decode_only, with_text, printed = time_ours(code, target)
    print(f"   {count} instructions, {len(code)} bytes (gfx900 corpus)")
    print(f"   ours, decode only : {count / decode_only:12,.0f} inst/s")
    print(f"   ours, decode+text : {printed / with_text:12,.0f} inst/s")
    for name, seconds in (("llvm-mc -disassemble", time_llvm_mc(code)),
                          ("llvm-objdump-19 -d", time_llvm_objdump(code))):
        if seconds is None:
            print(f"   {name}: not installed")
            continue
        rate = count / seconds
        print(f"   {name:21s}: {rate:12,.0f} inst/s  (ours decode+text is "
              f"{(printed / with_text) / rate:.3f}x)")


if __name__ == "__main__":
    main()

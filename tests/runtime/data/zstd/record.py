"""Record the zstd frames of tests/runtime/test_zstd.py with the zstd tool.

Run from anywhere: ``python tests/runtime/data/zstd/record.py``. Each sample
is written twice: NAME.zst (zstd at the given level: the decoder's input) and
NAME.zlib (the same bytes compressed by Python's zlib: the test's independent
expected output). The samples are chosen to reach every block, literals and
sequence-table form the compressor uses: incompressible bytes (raw blocks and
literals), long runs (RLE), text over several 128 KB blocks (4-stream Huffman
literals, FSE and repeat tables, repeat offsets) and a real code object.
"""

import os
import subprocess
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CODE_OBJECT = os.path.join(HERE, "..", "kernels_v5_gfx900.hsaco")
WORDS = ("kernel wave lane exec vcc sgpr vgpr lds gds barrier atomic scalar vector "
         "dispatch queue signal packet doorbell the a of to and in 0 1 2 3 64 256 "
         "s_load_dword v_add_u32 ds_read_b32 global_store_dword s_endpgm").split()


def lcg_bytes(count, seed, modulus=256):
    """Deterministic pseudo-random bytes (a 64-bit LCG: no library's generator)."""
    state, out = seed, bytearray()
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        out.append((state >> 33) % modulus)
    return bytes(out)


def text(count, seed):
    """Assembly-like lines: repetitive enough to compress ~20x, varied enough for
    Huffman literals and every kind of offset."""
    choices = lcg_bytes(count // 16, seed, 16)
    lines = [f"{WORDS[c]} v{c % 4}, s{c // 4}\n" for c in choices]
    return "".join(lines).encode()[:count]


def samples():
    """name -> (bytes, zstd options, from a file: its size goes in the frame header)."""
    with open(CODE_OBJECT, "rb") as handle:
        code = handle.read()
    return {
        "random-l3": (lcg_bytes(3000, 7), ["-3"], True),                  # raw block
        "runs-l3": (bytes(70000) + b"\xff" * 5000 + bytes(300000), ["-3"], False),
        "text-l19": (text(300000, 11), ["-19"], True),                   # several blocks
        "code-l3": (code, ["-3"], True),
        "code-l22": (code, ["--ultra", "-22"], True),
        "tiny-l3": (b"amdgpu", ["-3"], False),
        "no-matches-l1": (bytes(c % 20 for c in lcg_bytes(1500, 22)), ["-1"], True),
        "x-runs-l19": (b"".join(b"x" + bytes(c % 7 + 40) for c in lcg_bytes(4000, 5)),
                       ["-19"], True),                                 # repeated tables
        "three-symbols-l1": (lcg_bytes(20000, 3, 3), ["-1"], True),     # direct weights
    }


def main():
    for name, (data, options, from_file) in samples().items():
        with tempfile.NamedTemporaryFile() as source:
            source.write(data)
            source.flush()
            argv = ["zstd", "-q", "-c", *options] + ([source.name] if from_file else [])
            compressed = subprocess.run(argv, input=None if from_file else data, check=True,
                                        capture_output=True).stdout
        with open(os.path.join(HERE, name + ".zst"), "wb") as handle:
            handle.write(compressed)
        with open(os.path.join(HERE, name + ".zlib"), "wb") as handle:
            handle.write(zlib.compress(data, 9))


if __name__ == "__main__":
    main()

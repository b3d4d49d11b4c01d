"""Record the offload bundles of tests/runtime/test_bundle.py with clang-19.

Run from anywhere: ``python tests/runtime/data/bundle/record.py``. The outputs
are committed so the bundle tests run without LLVM:

- scale-multi.hsaco: an uncompressed bundle with gfx803, gfx900:xnack- and
  gfx900:xnack+ entries (and the empty host entry);
- scale-zstd.hsaco: the gfx900 bundle compressed by ``--offload-compress``
  (a CCOB header, zstd data), and scale-zstd.payload, its decompressed bytes
  (by the zstd tool), which the tests use to check the header's size and hash.
"""

import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
CLANG19 = "/usr/lib/llvm-19/bin/clang"
HIP = ["-x", "hip", "--cuda-device-only", "-O2", "--rocm-path=/usr",
       "--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"]
#: the CCOB v2 header: magic, version, method, file size, uncompressed size, hash
CCOB_V2_HEADER_SIZE = 24


def clang(*argv):
    subprocess.run([CLANG19, *HIP, *argv], check=True, cwd=HERE)


def main():
    source = os.path.join(HERE, "scale.hip")
    clang("--offload-arch=gfx803", "--offload-arch=gfx900:xnack-",
          "--offload-arch=gfx900:xnack+", source, "-o", "scale-multi.hsaco")
    clang("--offload-arch=gfx900", "--offload-compress", source, "-o", "scale-zstd.hsaco")
    with open(os.path.join(HERE, "scale-zstd.hsaco"), "rb") as handle:
        compressed = handle.read()
    payload = subprocess.run(["zstd", "-d", "-c"], input=compressed[CCOB_V2_HEADER_SIZE:],
                             check=True, capture_output=True).stdout
    with open(os.path.join(HERE, "scale-zstd.payload"), "wb") as handle:
        handle.write(payload)


if __name__ == "__main__":
    main()

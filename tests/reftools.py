"""The LLVM reference tools: where they are, and skipping cleanly without them.

Import as ``from reftools import require_tool`` (tests/ is on sys.path).
"""

import os
import shutil
import subprocess

import pytest

#: Each reference tool and the places Debian's packages put it.
REFERENCE_TOOLS = {
    "llvm-mc-14": ["llvm-mc-14", "/usr/lib/llvm-14/bin/llvm-mc"],
    "llvm-mc-19": ["llvm-mc-19", "/usr/lib/llvm-19/bin/llvm-mc"],
    "ld.lld-19": ["ld.lld-19", "/usr/lib/llvm-19/bin/ld.lld"],
    "llvm-readelf-19": ["llvm-readelf-19", "/usr/lib/llvm-19/bin/llvm-readelf"],
    "llvm-objdump-19": ["llvm-objdump-19", "/usr/lib/llvm-19/bin/llvm-objdump"],
    "clang-19": ["clang-19", "/usr/lib/llvm-19/bin/clang"],
    "clang-14": ["clang-14", "/usr/lib/llvm-14/bin/clang"],
}

ROCM_BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"


def find_tool(name):
    """Path of a reference tool, or None when it is not installed."""
    for candidate in REFERENCE_TOOLS.get(name, [name]):
        path = shutil.which(candidate) if "/" not in candidate else (
            candidate if os.access(candidate, os.X_OK) else None)
        if path:
            return path
    return None


def require_tool(name):
    """The tool's path, or skip the calling test."""
    path = find_tool(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


#: Seconds a reference tool may run: llvm-mc-19 loops forever on some inputs
#: (e.g. `.p2align 2` in .text after 2 data bytes), which must fail, not hang.
TOOL_TIMEOUT = 300


def run_tool(argv, stdin=None, check=True):
    """Run a reference tool and return its CompletedProcess (text mode)."""
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, check=check,
                          timeout=TOOL_TIMEOUT)



"""Re-record the debug-information goldens: ``python tests/asm/dwarf/record.py``.

1. ``small.cl`` is compiled with ``clang -g -S`` for a few configurations into
   ``clang*_*.s`` (a golden header line first; ``-fdebug-compilation-dir``
   keeps the paths in the line table independent of where this runs).
2. Every ``*.s`` here is assembled by the llvm-mc its header names, with the
   header's options, into ``NAME.o`` next to it.

Header: ``// golden: mc=19 mcpu=gfx900 [cov=N] [mattr=...] [dwarf=N]``.
"""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]

import asm_goldens  # noqa: E402
from reftools import ROCM_BITCODE, find_tool  # noqa: E402

#: where every recording says it was compiled/assembled
COMPILATION_DIR = "/build"

#: (compiler, mcpu, optimisation, code object version) of the recorded clang outputs
CLANG_CONFIGS = [
    ("clang-19", "gfx803", "-O2", 5),
    ("clang-19", "gfx900", "-O0", 5),
    ("clang-14", "gfx803", "-O2", 4),
    ("clang-14", "gfx803", "-O0", 2),
]


def clang_argv(compiler, mcpu, opt, version, source, kind):
    """The clang command line of tests/e2e/test_opencl.py plus -g and -S or -c
    (run it in the source's directory: the line table names ``source`` as given)."""
    argv = [find_tool(compiler), "-target", "amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-x", "cl",
            "-cl-std=CL2.0", opt, f"-mcode-object-version={version}", "-g",
            f"-fdebug-compilation-dir={COMPILATION_DIR}", kind, str(source)]
    if compiler == "clang-14":
        argv += ["-nogpulib", "-DNO_DEVICE_LIBS"]
    else:
        argv += [f"--rocm-device-lib-path={ROCM_BITCODE}"]
    return argv


def header(compiler, mcpu, version) -> str:
    mc = "14" if version == 2 else "19"
    return f"// golden: mc={mc} mcpu={mcpu} cov={version}\n"


def mc_argv(tool, source: pathlib.Path, output: pathlib.Path) -> list:
    """asm_goldens' llvm-mc command plus -dwarf-version and the compilation dir."""
    argv = asm_goldens.llvm_mc_argv(tool, source, output)
    options = asm_goldens.options(source)
    argv.insert(3, f"-fdebug-compilation-dir={COMPILATION_DIR}")
    if "dwarf" in options:
        argv.insert(3, f"-dwarf-version={options['dwarf']}")
    return argv


def record_clang():
    for compiler, mcpu, opt, version in CLANG_CONFIGS:
        name = f"clang{compiler[-2:]}_{mcpu}{opt}_v{version}.s"
        text = subprocess.run(clang_argv(compiler, mcpu, opt, version, "small.cl", "-S") +
                              ["-o", "-"], check=True, capture_output=True, text=True,
                              cwd=HERE).stdout
        (HERE / name).write_text(header(compiler, mcpu, version) + text)


def record_objects():
    for source in sorted(HERE.glob("*.s")):
        tool = find_tool(asm_goldens.MC[asm_goldens.options(source).get("mc", "19")])
        subprocess.run(mc_argv(tool, source, source.with_suffix(".o")), check=True)


if __name__ == "__main__":
    record_clang()
    record_objects()

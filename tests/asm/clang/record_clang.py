"""Compile kernels.cl with clang-19 (gfx803/gfx900, code object v4/v5) into
``NAME.s`` (with a golden header) and ``NAME.clang.o`` (``clang -c``); then
``record_goldens.py`` records llvm-mc's ``NAME.o`` of the same .s:

    python tests/asm/clang/record_clang.py
"""

import pathlib
import subprocess

HERE = pathlib.Path(__file__).parent
BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
CONFIGS = [("gfx803", 4), ("gfx900", 5), ("gfx900", 4), ("gfx803", 5)]


SOURCES = [("kernels", CONFIGS), ("calls_printf", [("gfx900", 5), ("gfx803", 4)])]


def clang(args, source="kernels"):
    base = ["clang-19", "-target", "amdgcn-amd-amdhsa", "-x", "cl", "-cl-std=CL2.0", "-O2",
            f"--rocm-device-lib-path={BITCODE}", str(HERE / f"{source}.cl")]
    subprocess.run(base + args, check=True)


def main():
    for source, configs in SOURCES:
        for cpu, version in configs:
            record(source, cpu, version)


def record(source, cpu, version):
    """NAME.s and NAME.clang.o for one source, processor and code object version."""
    stem = HERE / f"{source}_{cpu}_v{version}"
    common = [f"-mcpu={cpu}", f"-mcode-object-version={version}"]
    clang(common + ["-S", "-o", str(stem) + ".tmp.s"], source)
    text = pathlib.Path(str(stem) + ".tmp.s").read_text()
    pathlib.Path(str(stem) + ".tmp.s").unlink()
    header = f"// golden: mc=19 mcpu={cpu} cov={version}\n"
    stem.with_suffix(".s").write_text(header + text)
    clang(common + ["-c", "-o", str(stem) + ".clang.o"], source)
    print(stem.name, "recorded")


def main_v2():
    """clang-14, code object v2 (gfx803): kernels_v2.cl."""
    stem = HERE / "kernels_v2_gfx803"
    common = ["clang-14", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx803", "-mcode-object-version=2",
              "-nogpulib", "-x", "cl", "-cl-std=CL2.0", "-O2", str(HERE / "kernels_v2.cl")]
    subprocess.run(common + ["-S", "-o", str(stem) + ".tmp.s"], check=True)
    text = pathlib.Path(str(stem) + ".tmp.s").read_text()
    pathlib.Path(str(stem) + ".tmp.s").unlink()
    stem.with_suffix(".s").write_text("// golden: mc=14 mcpu=gfx803 cov=2\n" + text)
    subprocess.run(common + ["-c", "-o", str(stem) + ".clang.o"], check=True)
    print(stem.name, "recorded")


if __name__ == "__main__":
    main()
    main_v2()

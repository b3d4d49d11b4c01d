"""Record llvm-mc's objects for the golden cases (run by hand when LLVM is installed):

    python tests/asm/record_goldens.py

Writes ``NAME.o`` next to each golden source (samples: ``golden/samples/``)
and, for each ``errors/NAME.s``, ``errors/NAME.lines``: the line numbers
llvm-mc reports errors on.
"""

import pathlib
import re
import subprocess
import sys
import tempfile

sys.path[:0] = [str(pathlib.Path(__file__).parent), str(pathlib.Path(__file__).parents[1])]

import asm_goldens as goldens  # noqa: E402
from reftools import find_tool  # noqa: E402


def record_objects():
    for directory in goldens.GOLDEN_DIRS:
        for source in sorted(directory.glob("*.s")):
            opts = goldens.options(source)
            if not opts:
                continue
            tool = find_tool(goldens.MC[opts.get("mc", "19")])
            output = goldens.reference_path(source)
            output.parent.mkdir(parents=True, exist_ok=True)
            result = subprocess.run(goldens.llvm_mc_argv(tool, source, output),
                                    capture_output=True, text=True)
            status = "ok" if result.returncode == 0 else "FAILED\n" + result.stderr
            print(f"{source.name}: {status}")
            record_encodings(tool, source, output.with_suffix(".enc"))


def record_encodings(tool, source, path):
    """llvm-mc -show-encoding's instruction and fixup lines for ``source``."""
    argv = goldens.llvm_mc_argv(tool, source, pathlib.Path("/dev/null"))
    argv = [a for a in argv if a not in ("-filetype=obj", "-o", "/dev/null")] + ["-show-encoding"]
    result = subprocess.run(argv, capture_output=True, text=True)
    lines = [line for line in result.stdout.splitlines()
             if "; encoding:" in line or ";   fixup" in line]
    if result.returncode == 0 and lines:
        path.write_text("\n".join(lines) + "\n")


def record_errors():
    for source in sorted(goldens.ERROR_DIR.glob("*.s")):
        opts = goldens.options(source)
        tool = find_tool(goldens.MC[opts.get("mc", "19")])
        with tempfile.TemporaryDirectory() as tmp:
            result = subprocess.run(goldens.llvm_mc_argv(tool, source, pathlib.Path(tmp) / "x.o"),
                                    capture_output=True, text=True)
        lines = sorted({int(m.group(1)) for m in
                        re.finditer(r"^[^:\n]+:(\d+):\d+: error:", result.stderr, re.MULTILINE)})
        if "<unknown>:0: error:" in result.stderr:
            lines.insert(0, 0)  # an error llvm-mc reports without a location
        source.with_suffix(".lines").write_text(" ".join(map(str, lines)) + "\n")
        print(f"{source.name}: errors on lines {lines}")


if __name__ == "__main__":
    record_objects()
    record_errors()
    sys.exit(0)

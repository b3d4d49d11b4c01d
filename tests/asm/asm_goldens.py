"""Golden cases: ``.s`` files whose first line says how llvm-mc assembled them.

``// golden: mc=19 mcpu=gfx900 [cov=4] [mattr=+xnack]`` ; the reference object
``NAME.o`` sits next to the source, recorded by ``record_goldens.py``.
Expected-error cases live in ``errors/`` with ``NAME.lines`` holding the line
numbers llvm-mc rejected.
"""

import pathlib
import re

HERE = pathlib.Path(__file__).parent
GOLDEN_DIRS = [HERE / "golden", HERE.parents[1] / "samples", HERE / "clang"]
ERROR_DIR = HERE / "errors"

_HEADER = re.compile(r"golden:\s*(.*)")

MC = {"14": "llvm-mc-14", "19": "llvm-mc-19"}


#: Sources that cannot carry a header line (owned elsewhere) and their options.
KNOWN_OPTIONS = {"hello_world.s": {"mc": "14", "mcpu": "gfx803", "cov": "2"}}


def options(source: pathlib.Path) -> dict:
    """The golden header of a source file as a dict (mc, mcpu, cov, mattr)."""
    if source.name in KNOWN_OPTIONS and source.parent.name == "samples":
        return dict(KNOWN_OPTIONS[source.name])
    for line in source.read_text().splitlines()[:5]:
        match = _HEADER.search(line)
        if match:
            return dict(item.split("=", 1) for item in match.group(1).split())
    return {}


def cases():
    """Every (source, reference object) pair that has a recorded reference."""
    return [source for directory in GOLDEN_DIRS for source in sorted(directory.glob("*.s"))
            if options(source) and reference_path(source).exists()]


def reference_path(source: pathlib.Path) -> pathlib.Path:
    """Where the llvm-mc object of ``source`` is recorded."""
    if source.parent.name == "samples":
        return HERE / "golden" / "samples" / (source.stem + ".o")
    return source.with_suffix(".o")


def llvm_mc_argv(tool: str, source: pathlib.Path, output: pathlib.Path) -> list:
    opts = options(source)
    argv = [tool, "-triple=amdgcn-amd-amdhsa", f"-mcpu={opts.get('mcpu', 'gfx900')}",
            "-filetype=obj", str(source), "-o", str(output)]
    if "cov" in opts:
        argv.insert(3, f"--amdhsa-code-object-version={opts['cov']}")
    if "mattr" in opts:
        argv.insert(3, f"-mattr={opts['mattr']}")
    return argv


def our_arguments(source: pathlib.Path) -> dict:
    opts = options(source)
    return {"target": opts.get("mcpu", "gfx900"),
            "code_object_version": int(opts["cov"]) if "cov" in opts else None,
            "features": opts.get("mattr")}

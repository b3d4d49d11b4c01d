"""Building the virtual GPU's ``libhsakmt.so.1`` from ``native/thunk.c``.

The library embeds this Python interpreter, so it is built for it: gcc with
the interpreter's headers and ``libpython`` (a Python built with
``--enable-shared``, as Debian's and most distributions' are) and the types
of Debian's ``libhsakmt-dev`` headers (``/usr/include/hsakmt.h``). The
result is cached per source and interpreter under
``$XDG_CACHE_HOME/amdgpu-tools`` (``~/.cache`` by default); ``make setup``
builds it ahead of time where the headers are installed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from importlib import resources
from pathlib import Path

from ..errors import ToolchainError

LIBRARY_NAME = "libhsakmt.so.1"
HSAKMT_HEADER = Path("/usr/include/hsakmt.h")


class BuildError(ToolchainError):
    """The thunk library cannot be built on this machine."""


def _native_file(name: str) -> bytes:
    return resources.files("amdgpu_tools.vgpu").joinpath("native", name).read_bytes()


def _python_link_flags() -> list[str]:
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        raise BuildError("the virtual GPU embeds Python, which needs a Python built with "
                         f"--enable-shared (a libpython); {sys.executable} has none")
    libdir = sysconfig.get_config_var("LIBDIR")
    version = sysconfig.get_config_var("LDVERSION") or sysconfig.get_python_version()
    return [f"-L{libdir}", f"-lpython{version}", f"-Wl,-rpath,{libdir}"]


def cache_directory() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(root) / "amdgpu-tools" / "vgpu"


def build_key() -> str:
    """What the built library depends on: sources, interpreter, headers."""
    digest = hashlib.sha256()
    for name in ("thunk.c", "libhsakmt.ver"):
        digest.update(_native_file(name))
    digest.update(sys.version.encode())
    digest.update(sysconfig.get_paths()["include"].encode())
    if HSAKMT_HEADER.exists():
        digest.update(HSAKMT_HEADER.read_bytes())
    return digest.hexdigest()[:16]


def thunk_library() -> Path:
    """The built ``libhsakmt.so.1`` (built now when the cache has none)."""
    target = cache_directory() / build_key() / LIBRARY_NAME
    if not target.exists():
        _build(target)
    return target


def _build(target: Path) -> None:
    if not HSAKMT_HEADER.exists():
        raise BuildError(f"building the virtual GPU needs the thunk's headers ({HSAKMT_HEADER}): "
                         "apt-get install libhsakmt-dev")
    compiler = shutil.which(os.environ.get("CC", "gcc"))
    if compiler is None:
        raise BuildError("building the virtual GPU needs a C compiler: apt-get install gcc")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        work = Path(work)
        (work / "thunk.c").write_bytes(_native_file("thunk.c"))
        (work / "libhsakmt.ver").write_bytes(_native_file("libhsakmt.ver"))
        output = work / LIBRARY_NAME
        command = [compiler, "-std=gnu11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
                   "-Wall", f"-I{sysconfig.get_paths()['include']}", str(work / "thunk.c"),
                   "-o", str(output), f"-Wl,--version-script={work / 'libhsakmt.ver'}",
                   f"-Wl,-soname,{LIBRARY_NAME}", *_python_link_flags(), "-lpthread"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise BuildError(f"building {LIBRARY_NAME} failed:\n{result.stderr.strip()}")
        os.replace(output, target)      # atomic: a concurrent build wins or loses whole


def main(argv=None) -> int:
    """``python -m amdgpu_tools.vgpu.build [--if-possible]``: build (or find) the
    library and print its path; with --if-possible a machine without the
    prerequisites gets one line saying so and exit status 0 (``make setup``)."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        print(f"virtual GPU: {thunk_library()}")
    except BuildError as error:
        print(f"virtual GPU not built: {error}", file=sys.stderr)
        return 0 if "--if-possible" in argv else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the virtual-GPU tests need, and skipping cleanly without it.

Import as ``from vgpu_env import ...`` (the tests put their folder on sys.path
through pytest's rootdir-relative imports, as tests/e2e does).

The virtual GPU needs the ROCm 5.2 runtime (``libhsa-runtime64-1``), the
thunk's headers to build our ``libhsakmt.so.1`` (``libhsakmt-dev``), gcc and
a shared libpython. Host programs are built with gcc against
``libhsa-runtime-dev`` or with hipcc; builds are cached by content under the
pytest cache directory of the e2e tests.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

PROGRAMS = pathlib.Path(__file__).parent / "programs"
CACHE = pathlib.Path(os.environ.get("AMDGPU_TOOLS_TEST_CACHE", "/tmp/amdgpu-tools-test-cache")) / "vgpu"
ROCR_LIBRARY = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1"
HSA_HEADER = "/usr/include/hsa/hsa.h"
#: Seconds one program may run under the emulator before the test fails.
PROGRAM_TIMEOUT = 300


def require_virtual_gpu() -> pathlib.Path:
    """The built thunk library, or skip."""
    if not os.path.exists(ROCR_LIBRARY):
        pytest.skip("the ROCm runtime is not installed (apt-get install libhsa-runtime64-1)")
    from amdgpu_tools.vgpu.build import BuildError, thunk_library
    try:
        return thunk_library()
    except BuildError as error:
        pytest.skip(f"the virtual GPU cannot be built here: {error}")


def cached_build(name: str, sources: list[pathlib.Path], argv_of) -> pathlib.Path:
    """Build ``name`` once per content: ``argv_of(output)`` is the build command."""
    digest = hashlib.sha256(" ".join(argv_of(pathlib.Path("OUT"))).encode())
    for source in sources:
        digest.update(source.read_bytes())
    CACHE.mkdir(parents=True, exist_ok=True)
    output = CACHE / f"{name}.{digest.hexdigest()[:16]}"
    if not output.exists():
        partial = output.with_suffix(".tmp")
        done = subprocess.run(argv_of(partial), capture_output=True, text=True,
                              env=dict(os.environ, HIP_PLATFORM="amd"))
        assert done.returncode == 0, done.stderr
        os.replace(partial, output)
    return output


def build_hsa_program(source: str) -> pathlib.Path:
    """A C program of programs/ linked with the HSA runtime (gcc), or skip."""
    gcc = shutil.which("gcc")
    if gcc is None or not os.path.exists(HSA_HEADER):
        pytest.skip("gcc and libhsa-runtime-dev are needed")
    path = PROGRAMS / source
    return cached_build(path.stem, [path, PROGRAMS / "hsa_common.h"],
                        lambda out: [gcc, "-O1", "-o", str(out), str(path), "-lhsa-runtime64"])


def build_code_object(source: str, mcpu: str = "gfx900") -> pathlib.Path:
    """A shared code object from an assembly file of programs/ (our as + ld)."""
    path = PROGRAMS / source

    def argv(out):
        return [sys.executable, "-c",
                "import sys\n"
                "from amdgpu_tools.asm import assemble\n"
                "from amdgpu_tools.link import link\n"
                "obj = assemble(open(sys.argv[1]).read(), target=sys.argv[2], filename=sys.argv[1])\n"
                "open(sys.argv[3], 'wb').write(link([obj]))\n",
                str(path), mcpu, str(out)]
    return cached_build(f"{path.stem}-{mcpu}.hsaco", [path], argv)


def run_on_virtual_gpu(argv, *options, timeout=PROGRAM_TIMEOUT, env=None):
    """``amdgpu-run [options] --exec argv...``: the CompletedProcess (text)."""
    require_virtual_gpu()
    command = [sys.executable, "-m", "amdgpu_tools.cli.run", *options, "--exec", *map(str, argv)]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))

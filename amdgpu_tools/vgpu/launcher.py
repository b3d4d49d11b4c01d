"""Running programs on the virtual GPU: the environment that puts it under ROCm.

A ROCm program finds the thunk through the dynamic linker, so what makes it
run on the emulator is its environment: ``LD_LIBRARY_PATH`` naming the
folder of our ``libhsakmt.so.1`` first, and the driver's options (the
processor, the watchdog, tracing) in ``AMDGPU_VGPU_*`` variables that the
embedded driver reads. ``amdgpu-run --exec`` runs one program so;
``amdgpu-run --print-env`` prints the same settings for a shell or CI job.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass

from . import environment as env
from .build import thunk_library
from .topology import VirtualGpuError, parse_mcpu


@dataclass(frozen=True)
class VirtualGpuOptions:
    """What ``amdgpu-run`` passes to the driver of every kernel's GPU."""

    mcpu: str | None = None
    max_instructions: int | None = None
    timeout: float | None = None
    trace: str | None = None          # comma-separated wave numbers, or "all"
    profile: bool = False
    check: bool = False               # report every kernel's hazards (amdgpu-run --check)


def environment(options: VirtualGpuOptions) -> dict:
    """The variables a program needs to run on the virtual GPU."""
    target_id = parse_mcpu(options.mcpu)
    library = thunk_library()
    search = [str(library.parent)]
    if os.environ.get("LD_LIBRARY_PATH"):
        search.append(os.environ["LD_LIBRARY_PATH"])
    settings = {
        "LD_LIBRARY_PATH": os.pathsep.join(search),
        env.LIBRARY: str(library),
        env.MCPU: str(target_id),
        env.PYTHON: sys.executable,
        env.PYTHONPATH: os.pathsep.join(p for p in sys.path if p),
    }
    if options.max_instructions is not None:
        settings[env.MAX_INSTRUCTIONS] = str(options.max_instructions)
    if options.timeout is not None:
        settings[env.TIMEOUT] = str(options.timeout)
    if options.trace is not None:
        settings[env.TRACE] = options.trace
    if options.profile:
        settings[env.PROFILE] = "1"
    if options.check:
        settings[env.CHECK] = "1"
    return settings


def export_lines(settings: dict) -> str:
    """``export NAME=value`` lines, quoted for a POSIX shell."""
    return "".join(f"export {name}={shlex.quote(value)}\n" for name, value in settings.items())


def run_program(argv: list[str], options: VirtualGpuOptions) -> int:
    """Run ``argv`` on the virtual GPU; its exit status (128 + N for signal N)."""
    variables = dict(os.environ)
    variables.update(environment(options))
    try:
        completed = subprocess.run(argv, env=variables)
    except FileNotFoundError:
        raise VirtualGpuError(f"no such program: {argv[0]}") from None
    except PermissionError:
        raise VirtualGpuError(f"cannot execute {argv[0]}: permission denied") from None
    code = completed.returncode
    return 128 - code if code < 0 else code

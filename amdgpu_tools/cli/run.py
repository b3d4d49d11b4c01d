"""amdgpu-run: load a code object and run one of its kernels on the embedded executor.

    amdgpu-run PROGRAM [--kernel NAME] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]]
               [--arg SPEC]... [--save I=FILE.npy]... [--mcpu CPU]
    amdgpu-run --spec LAUNCH.yaml
    amdgpu-run --info [PROGRAM] [--mcpu CPU]
    amdgpu-run --profile-html OUT.html (PROGRAM ... | --spec LAUNCH.yaml)

PROGRAM is a shared code object, a relocatable object (linked on load), a clang
offload bundle (hipcc --genco output: the entry for --mcpu, or its only GPU
entry) or an assembly file (assembled and linked on the fly). Buffers of at most
``--print-limit`` elements are printed after the run.
"""

from __future__ import annotations

import functools
import os

import click
import numpy as np

from ..elf.constants import ELF_MAGIC
from ..errors import ToolchainError
from ..exec.launch import COMPILE_MODES, ExecutionLimits, TraceOptions, profile_lines
from ..runtime.bundle import is_offload_bundle
from .common import llvm_style_args, run_click

TOOL = "amdgpu-run"
DEFAULT_ASM_CPU = "gfx900"


def read_program(path: str, mcpu: str | None) -> bytes:
    """The bytes to load: an object or offload bundle as is (the device, made
    for ``mcpu``, picks the bundle's entry), or an assembly file assembled."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as failure:
        raise ToolchainError(f"cannot read '{path}': {failure.strerror}") from None
    if data[:4] == ELF_MAGIC or is_offload_bundle(data):
        return data
    from ..asm import assemble
    return assemble(data.decode("utf-8", "replace"), target=mcpu or DEFAULT_ASM_CPU,
                    filename=path)


def _trace_options(trace, profile, sink):
    try:
        return TraceOptions.from_text(trace, profile, sink)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--trace") from None


def _limits(max_instructions, timeout):
    defaults = ExecutionLimits()
    return ExecutionLimits(
        max_wave_instructions=max_instructions or defaults.max_wave_instructions,
        max_seconds=timeout or defaults.max_seconds)


def _parse_saves(saves):
    out = {}
    for save in saves:
        index, sep, path = save.partition("=")
        if not sep or not index.strip().isdigit() or not path:
            raise click.BadParameter(f"'{save}' is not I=FILE.npy", param_hint="--save")
        out[int(index)] = path
    return out


def _choose_kernel(program, name, label):
    if name is not None:
        return program[name]
    names = list(program)
    if len(names) != 1:
        raise ToolchainError(f"{label} has {len(names)} kernels ({', '.join(sorted(names))}); "
                             "choose one with --kernel")
    return program[names[0]]


def _print_profile(result):
    if result is not None:
        for line in profile_lines(result):
            click.echo(line)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("program", required=False)
@click.option("--kernel", "kernel_name", help="Kernel to run (optional with one kernel).")
@click.option("--grid", default="1", show_default=True,
              help="Grid size in work-items: X[,Y[,Z]].")
@click.option("--block", default=None, help="Work-group size: X[,Y[,Z]] (default: grid, "
              "capped at 64).")
@click.option("--arg", "args", multiple=True, help="Kernel argument: i32:7 u32: i64: u64: "
              "f32: f64: buf:FILE.npy buf:float32[1024] local:4096.")
@click.option("--save", "saves", multiple=True, help="I=FILE.npy: save argument I's buffer.")
@click.option("--mcpu", help="Device processor (default: the code object's own).")
@click.option("--spec", "spec_path", type=click.Path(dir_okay=False),
              help="Run a launch spec (YAML) and check its expected buffers.")
@click.option("--info", is_flag=True, help="Print the agent, its regions and the kernels.")
@click.option("--max-instructions", type=click.IntRange(min=1),
              help="Watchdog: wave-instruction budget per dispatch.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True),
              help="Watchdog: seconds per dispatch.")
@click.option("--trace", help="Trace waves: 'all' or a list such as 0,3.")
@click.option("--profile", is_flag=True, help="Print a per-PC instruction count.")
@click.option("--profile-html", "profile_html", metavar="OUT.html",
              type=click.Path(dir_okay=False),
              help="Write a self-contained HTML profile (counts per instruction and block, "
                   "heat map, resource usage, CFG) of every launched kernel.")
@click.option("--check", is_flag=True,
              help="Watch every kernel for hazards (missing s_waitcnt, missing wait states, "
                   "LDS/global data races): one 'hazard:' line each on stderr, exit status 1 "
                   "when any (with --exec: lines only). Results are unchanged.")
@click.option("--jobs", type=click.IntRange(min=1), metavar="N",
              help="Run a dispatch's work-groups in up to N worker processes (default: one "
                   "per core). One process runs dispatches of fewer than 4096 waves and those "
                   "that are traced, profiled or checked, call hostcall services, use GDS/GWS "
                   "or interrupts, or make indirect calls; --exec always uses one.")
@click.option("--compile", "compile_mode", type=click.Choice(COMPILE_MODES), metavar="MODE",
              help="When blocks of ALU code run as native code (needs Numba): auto (hot "
                   "blocks, kept in a cache across runs; the default), eager (every block), "
                   "check (every block, compared with the interpreter after each run), off. "
                   "Sets AMDGPU_TOOLS_COMPILE for --exec.")
@click.option("--print-limit", default=256, show_default=True,
              help="Print buffers with at most this many elements.")
@click.option("--print-env", is_flag=True,
              help="Print 'export ...' lines that put every ROCm program of a shell on the "
                   "virtual GPU (--mcpu gfx803, gfx900 or gfx906).")
@click.option("--exec", "exec_program", metavar="PROGRAM [ARGS...]",
              help="Run PROGRAM (an unmodified ROCm/HIP program) on the virtual GPU; "
                   "everything after it goes to PROGRAM.")
def command(program, kernel_name, grid, block, args, saves, mcpu, spec_path, info,
            max_instructions, timeout, trace, profile, check, print_limit, print_env,
            exec_program=None, exec_args=(), profile_html=None, jobs=None, compile_mode=None):
    """Run a kernel of an AMDGPU code object on the embedded GCN executor, or a
    ROCm program on the virtual GPU (--exec)."""
    from ..runtime.api import Device

    if compile_mode is not None:
        os.environ["AMDGPU_TOOLS_COMPILE"] = compile_mode
    if exec_program is not None or print_env:
        if profile_html:
            raise click.UsageError("--profile-html profiles kernel runs (PROGRAM or --spec), "
                                   "not --exec/--print-env")
        return _virtual_gpu(exec_program, exec_args, mcpu, max_instructions, timeout, trace,
                            profile, check)

    if profile_html and info:
        raise click.UsageError("--profile-html needs a kernel run (PROGRAM or --spec), "
                               "not --info")
    trace_options = _trace_options(trace, profile or bool(profile_html), click.echo)
    limits = _limits(max_instructions, timeout)
    launches = [] if profile_html else None
    hazards = []

    def make_device():
        device = Device(mcpu, limits=limits, trace=trace_options, check=check, jobs=jobs,
                        compile=compile_mode)
        if check:
            device.agent.processor.hazard_sink = lambda found: _print_hazards(found, hazards)
        return device if launches is None else _recording(device, launches)

    status = _run_kernels(program, spec_path, make_device, mcpu, kernel_name, grid, block, args,
                          saves, print_limit, profile, info, profile_html, launches)
    return 1 if hazards and not status else status


def _print_hazards(found, seen):
    for hazard in found:
        click.echo(f"{TOOL}: hazard: {hazard.describe()}", err=True)
    seen.extend(found)


def _run_kernels(program, spec_path, make_device, mcpu, kernel_name, grid, block, args, saves,
                 print_limit, profile, info, profile_html, launches):
    """A kernel run or a spec (with --profile-html: the page, even when it fails)."""
    if profile_html:
        try:
            status = _dispatch(program, spec_path, make_device, mcpu, kernel_name, grid, block,
                               args, saves, print_limit, profile)
        finally:
            if launches:
                _write_profile_html(profile_html, launches, program or spec_path)
        if not launches:
            _write_profile_html(profile_html, launches, program or spec_path)
        return status
    return _dispatch(program, spec_path, make_device, mcpu, kernel_name, grid, block, args,
                     saves, print_limit, True, info)


def _dispatch(program, spec_path, make_device, mcpu, kernel_name, grid, block, args, saves,
              print_limit, print_profile, info=False):

    if spec_path:
        if program:
            raise click.UsageError("--spec takes no PROGRAM")
        return _run_spec(spec_path, make_device)
    if info:
        return _print_info(make_device(), program, mcpu)
    if not program:
        raise click.UsageError("missing PROGRAM (or --spec / --info)")
    return _run_program(make_device(), program, mcpu, kernel_name, grid, block, args, saves,
                        print_limit, print_profile)


def _recording(device, launches):
    """``device`` with its ``load`` giving programs whose kernels append each
    launch (code object, load base, geometry, result) to ``launches``."""
    from ..analysis.profile_html import Launch
    from ..runtime.api import Kernel, LocalMemory, Program

    class RecordingKernel(Kernel):
        def __call__(self, *args, grid, block, queue=None, shared=0):
            geometry = self.check_geometry(grid, block)
            result = super().__call__(*args, grid=grid, block=block, queue=queue, shared=shared)
            if result is not None:
                dynamic = sum(a.nbytes for a in args if isinstance(a, LocalMemory))
                loaded = self.loaded
                launches.append(Launch(loaded.code.elf, self.name, geometry.grid,
                                       geometry.block, result, loaded.base,
                                       dynamic + int(shared)))
            return result

    class RecordingProgram(Program):
        def __getitem__(self, name):
            kernel = super().__getitem__(name)
            recording = RecordingKernel(kernel.device, kernel.info)
            recording.loaded = self.loaded
            return recording

    plain_load = device.load

    def load(source):
        program = plain_load(source)
        return RecordingProgram(program.device, program.loaded, program.label)

    device.load = load
    return device


def _write_profile_html(path, launches, label) -> None:
    from ..analysis.profile_html import write_profile_html
    write_profile_html(path, launches, title=f"amdgpu-run profile: {label}")
    click.echo(f"profile: wrote {path} ({len(launches)} launch(es))", err=True)


def _virtual_gpu(exec_program, exec_args, mcpu, max_instructions, timeout, trace,
                 profile, check=False) -> int:
    """--exec / --print-env: the program's own exit status, or 0 after the lines."""
    from ..vgpu.launcher import VirtualGpuOptions, environment, export_lines, run_program
    _trace_options(trace, profile, None)          # the same checks as for a kernel run
    options = VirtualGpuOptions(mcpu=mcpu, max_instructions=max_instructions, timeout=timeout,
                                trace=trace, profile=profile, check=check)
    if exec_program is None:
        click.echo(export_lines(environment(options)), nl=False)
        return 0
    if not exec_program:
        raise click.UsageError("--exec needs a PROGRAM to run")
    return run_program([exec_program, *exec_args], options)


def _run_spec(spec_path, make_device) -> int:
    from ..runtime.spec import run_spec
    result = run_spec(spec_path, device_factory=make_device, echo=click.echo)
    verdict = "PASS" if result.ok else "FAIL"
    click.echo(f"{verdict} {result.name}: {sum(c.ok for c in result.comparisons)}/"
               f"{len(result.comparisons)} buffers match")
    return 0 if result.ok else 1


def _print_info(device, program, mcpu) -> int:
    loaded = device.load(read_program(program, mcpu)) if program else None
    click.echo(device.info())
    for kernel in (loaded.kernels.values() if loaded else ()):
        click.echo(kernel.describe())
    return 0


def _run_program(device, program, mcpu, kernel_name, grid, block, args, saves,
                 print_limit, print_profile=True) -> int:
    from ..runtime.api import Buffer
    from ..runtime.spec import parse_arg, parse_dims
    loaded = device.load(read_program(program, mcpu))
    kernel = _choose_kernel(loaded, kernel_name, program)
    values = [parse_arg(device, a) for a in args]
    grid_dims = parse_dims(grid, "--grid")
    block_dims = parse_dims(block, "--block") if block else tuple(min(g, 64) for g in grid_dims)
    save_paths = _parse_saves(saves)
    for index in save_paths:
        if index >= len(values) or not isinstance(values[index], Buffer):
            raise ToolchainError(f"--save {index}=...: argument {index} is not a buffer")
    result = kernel(*values, grid=grid_dims, block=block_dims)
    device.synchronize()
    for index, value in enumerate(values):
        if isinstance(value, Buffer):
            _report_buffer(index, value.numpy(), save_paths.get(index), print_limit)
    if print_profile:
        _print_profile(result)
    return 0


def _report_buffer(index, array, save_path, print_limit) -> None:
    """Save the buffer if asked, and print it when it is small."""
    if save_path is not None:
        try:
            np.save(save_path, array)
        except OSError as failure:
            raise ToolchainError(f"cannot write '{save_path}': {failure.strerror}") from None
        click.echo(f"arg {index}: saved {array.dtype}{list(array.shape)} to "
                   f"{os.fspath(save_path)}")
    if array.size <= print_limit:
        click.echo(f"arg {index}: {np.array2string(array, threshold=print_limit)}")


def main(argv=None) -> int:
    import sys
    argv = list(sys.argv[1:] if argv is None else argv)
    options, program_argv = _split_exec(argv)
    argv = llvm_style_args(options, {"mcpu": "mcpu"})
    if program_argv is None:
        return run_click(command, TOOL, argv)
    # everything after --exec PROGRAM belongs to PROGRAM, not to our options
    exec_command = click.Command(command.name, params=command.params, callback=functools.partial(
        command.callback, exec_args=tuple(program_argv[1:])), context_settings=command.context_settings)
    return run_click(exec_command, TOOL, argv + ["--exec", program_argv[0]])


def _split_exec(argv):
    """(our options, [PROGRAM, ARGS...] or None) for ``... --exec PROGRAM ARGS...``."""
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--exec":
            return argv[:index], argv[index + 1:] or [""]
        if word.startswith("--exec="):
            return argv[:index], [word[len("--exec="):], *argv[index + 1:]]
    return argv, None


if __name__ == "__main__":
    raise SystemExit(main())

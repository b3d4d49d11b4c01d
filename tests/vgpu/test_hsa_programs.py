"""The virtual GPU under a C program that uses the HSA API directly.

programs/hsa_vadd.c: agents and regions, an executable loaded from a code
object made by our assembler and linker, dispatches with completion
signals, a barrier-AND packet between two queues. programs/hsa_launch.c runs
one kernel of programs/faulty_kernels.s and reports queue errors: each way a
kernel can end badly must end the program with the runtime's own error, the
emulator's message naming the instruction, and never a hang.
"""

import signal
import subprocess
import sys

import pytest

from vgpu_env import build_code_object, build_hsa_program, require_virtual_gpu, run_on_virtual_gpu

pytestmark = pytest.mark.vgpu

#: SIGABRT, as the shell reports a program that aborted
ABORTED = 128 + 6


@pytest.fixture(scope="module")
def launcher():
    require_virtual_gpu()
    return build_hsa_program("hsa_launch.c"), build_code_object("faulty_kernels.s")


def test_hsa_program_dispatches_barriers_and_two_queues():
    require_virtual_gpu()
    program = build_hsa_program("hsa_vadd.c")
    code_object = build_code_object("../../../samples/vector_add.s")
    done = run_on_virtual_gpu([program, code_object])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["agent gfx900", "ok"]


def test_memory_fault_reaches_the_runtime(launcher):
    program, code_object = launcher
    done = run_on_virtual_gpu([program, code_object, "read_unmapped"])
    assert done.returncode == ABORTED
    assert "completed" not in done.stdout
    ours, = [line for line in done.stderr.splitlines() if line.startswith("amdgpu-run:")]
    assert "'global_load_dword v3, v[1:2], off'" in ours
    assert "unmapped address: read of 4 byte(s) at 0x10" in ours
    assert "Memory access fault by GPU node-1" in done.stderr
    assert "on address 0x10." in done.stderr


def test_trap_is_a_queue_error(launcher):
    program, code_object = launcher
    done = run_on_virtual_gpu([program, code_object, "trap"])
    assert done.returncode == 3
    assert done.stdout.splitlines() == [
        "queue error 0x1016: HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a "
        "hardware exception."]
    assert "'s_trap 2'" in done.stderr


@pytest.mark.parametrize("limit, cause", [
    (["--max-instructions", "20000"], "instruction budget of 20000 wave-instructions exceeded"),
    (["--timeout", "0.5"], "wall-clock limit of 0.5 s exceeded"),
])
def test_watchdog_ends_a_kernel_that_never_ends(launcher, limit, cause):
    program, code_object = launcher
    done = run_on_virtual_gpu([program, code_object, "spin_forever"], *limit, timeout=60)
    assert done.returncode == 3
    assert "queue error 0x1016" in done.stdout
    assert cause in done.stderr
    assert "'s_branch" in done.stderr


def test_a_queue_without_an_error_callback_does_not_hang(launcher):
    program, code_object = launcher
    done = run_on_virtual_gpu([program, code_object, "trap", "--no-callback"], timeout=60)
    assert done.returncode == ABORTED          # ROCr's default handler reports and aborts
    assert "inactivated due to async error" in done.stderr


def test_a_program_left_waiting_after_an_error_is_ended(launcher):
    """The safety net: the queue callback returns and the program waits for a
    dispatch that will never complete; once the GPU has been idle past the
    limit the program is ended (its failed packet stays in the queue)."""
    program, code_object = launcher
    done = run_on_virtual_gpu([program, code_object, "trap", "--callback-returns"], timeout=60,
                              env={"AMDGPU_VGPU_ERROR_EXIT": "1"})
    assert done.returncode == 1
    assert done.stdout.startswith("queue error 0x1016")
    assert done.stderr.splitlines()[-1].startswith(
        "amdgpu-run: the GPU stopped on an error and the program has waited 1.")


def test_print_env_puts_a_shell_on_the_virtual_gpu(launcher):
    program, code_object = launcher
    lines = subprocess.run([sys.executable, "-m", "amdgpu_tools.cli.run", "--print-env"],
                           capture_output=True, text=True, check=True).stdout
    assert "export LD_LIBRARY_PATH=" in lines and "export AMDGPU_VGPU_MCPU=gfx900" in lines
    script = lines + f"exec {program} {code_object} read_unmapped\n"
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGABRT       # exec: the program itself aborted
    assert "Memory access fault by GPU node-1" in done.stderr


def test_exec_reports_a_missing_program():
    require_virtual_gpu()
    done = run_on_virtual_gpu(["/nonexistent/program"])
    assert done.returncode == 1
    assert done.stderr == "amdgpu-run: error: no such program: /nonexistent/program\n"


def test_check_reports_hazards_of_programs(launcher):
    """amdgpu-run --check --exec: the driver checks every kernel ROCr dispatches; a
    scalar load read before its s_waitcnt is one 'hazard:' line, the kernel completes."""
    program, code_object = launcher
    done = run_on_virtual_gpu([program, code_object, "missing_wait"], "--check")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "completed"
    hazards = [line for line in done.stderr.splitlines() if "hazard:" in line]
    assert hazards == ["amdgpu-run: hazard: kernel missing_wait, wave 0, pc 0x8 "
                       "'s_mov_b32 s3, s2' reads s2, loaded by 's_load_dword s2, s[0:1], 0x4' "
                       "at pc 0x0; no s_waitcnt lgkmcnt(0) between"]
    clean = run_on_virtual_gpu([program, code_object, "read_unmapped"], "--check")
    assert not [line for line in clean.stderr.splitlines() if "hazard:" in line]

"""run_dispatch end to end: grid splitting, partial waves, control flow,
barriers, the watchdog, traces and faults."""

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError, WatchdogTimeout
from amdgpu_tools.exec.launch import ExecutionLimits, TraceOptions

from .kernel_util import Kernel

VADD = """
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_load_dwordx2 s[8:9], s[0:1], 0x10
s_waitcnt lgkmcnt(0)
v_lshlrev_b32 v1, 6, v0
s_lshl_b32 s3, s2, 6
v_add_u32 v1, s3, v0
v_lshlrev_b32 v1, 2, v1
v_mov_b32 v2, s5
v_add_co_u32 v3, vcc, s4, v1
v_addc_co_u32 v4, vcc, v2, 0, vcc
global_load_dword v5, v[3:4], off
v_mov_b32 v2, s7
v_add_co_u32 v3, vcc, s6, v1
v_addc_co_u32 v4, vcc, v2, 0, vcc
global_load_dword v6, v[3:4], off
s_waitcnt vmcnt(0)
v_add_f32 v5, v5, v6
v_mov_b32 v2, s9
v_add_co_u32 v3, vcc, s8, v1
v_addc_co_u32 v4, vcc, v2, 0, vcc
global_store_dword v[3:4], v5, off
s_endpgm
"""


def test_vector_add_with_partial_last_wave():
    kernel = Kernel(VADD)
    n = 1000
    a = np.arange(n, dtype=np.float32) * 0.5
    b = np.full(n, 3.25, np.float32)
    pa, pb, pc = kernel.buffer(a), kernel.buffer(b), kernel.buffer(np.zeros(1024, np.float32))
    result = kernel.run([pa, pb, pc], grid=n, block=64)
    out = kernel.read(pc, np.float32, 1024)
    np.testing.assert_array_equal(out[:n], a + b)
    assert not out[n:].any()          # lanes past the grid edge stay off
    assert result.waves == 16
    assert result.wave_instructions == 16 * 22
    assert result.lane_instructions > 0


def test_divergent_loop_reconverges():
    # each lane loops v0 times adding 3; out[i] = 3 * i
    source = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_mov_b32 v1, 0
v_mov_b32 v2, v0
s_mov_b64 s[10:11], exec
loop:
v_cmp_ne_u32 vcc, 0, v2
s_and_b64 exec, exec, vcc
s_cbranch_execz done
v_add_u32 v1, v1, 3
v_subrev_u32 v2, 1, v2
s_branch loop
done:
s_mov_b64 exec, s[10:11]
v_lshlrev_b32 v3, 2, v0
v_mov_b32 v4, s5
v_add_co_u32 v3, vcc, s4, v3
v_addc_co_u32 v4, vcc, v4, 0, vcc
global_store_dword v[3:4], v1, off
s_endpgm
"""
    kernel = Kernel(source)
    out = kernel.buffer(np.zeros(64, np.uint32))
    kernel.run([out], grid=64)
    np.testing.assert_array_equal(kernel.read(out, np.uint32, 64), 3 * np.arange(64))


def test_barrier_orders_lds_between_waves():
    # wave w writes its lane ids to LDS, barrier, then reads the other wave's slot
    source = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_lshlrev_b32 v1, 2, v0
v_add_u32 v2, 1000, v0
ds_write_b32 v1, v2
s_waitcnt lgkmcnt(0)
s_barrier
v_xor_b32 v3, 64, v0
v_lshlrev_b32 v3, 2, v3
ds_read_b32 v4, v3
s_waitcnt lgkmcnt(0)
v_mov_b32 v5, s5
v_add_co_u32 v1, vcc, s4, v1
v_addc_co_u32 v5, vcc, v5, 0, vcc
global_store_dword v[1:2], v4, off
s_endpgm
"""
    source = source.replace("global_store_dword v[1:2], v4, off",
                            "v_mov_b32 v2, v5\nglobal_store_dword v[1:2], v4, off")
    kernel = Kernel(source, lds=512)
    out = kernel.buffer(np.zeros(128, np.uint32))
    kernel.run([out], grid=128, block=128)
    expected = 1000 + (np.arange(128) ^ 64)
    np.testing.assert_array_equal(kernel.read(out, np.uint32, 128), expected)


def test_watchdog_stops_an_endless_loop():
    kernel = Kernel("loop:\ns_branch loop")
    with pytest.raises(WatchdogTimeout) as info:
        kernel.run([], grid=64, limits=ExecutionLimits(max_wave_instructions=1000))
    assert "pc 0x" in str(info.value) and "budget" in str(info.value)


def test_trap_2_is_a_kernel_error_naming_the_wave():
    kernel = Kernel("s_mov_b32 s9, 0\ns_trap 2")
    with pytest.raises(KernelError) as info:
        kernel.run([], grid=128, block=64)
    message = str(info.value)
    assert "s_trap 2" in message and "kernel 'test'" in message and "wave 0" in message
    assert info.value.pc == kernel.entry + 4


def test_trace_lists_register_changes_and_profile_counts():
    lines = []
    kernel = Kernel("s_mov_b32 s7, 0x1234\nv_mov_b32 v3, 5")
    result = kernel.run([], grid=128, trace=TraceOptions(waves=(1,), sink=lines.append,
                                                          profile=True))
    assert lines[0].startswith(f"wave 1 pc 0x{kernel.entry:x}: s_mov_b32 s7, 0x1234")
    assert "s7=0x00001234" in lines[0]
    assert "v3{[0]=0x00000005" in lines[1] and "(+60 lanes)" in lines[1]
    assert len(lines) == 3
    assert result.profile[kernel.entry] == 2


def test_unmapped_instruction_fetch_is_reported():
    kernel = Kernel("s_mov_b64 s[4:5], 0\ns_setpc_b64 s[4:5]")
    with pytest.raises(KernelError, match="unmapped") as info:
        kernel.run([], grid=128)
    assert info.value.pc == 0 and info.value.wave == 0 and info.value.kernel == "test"


def test_swappc_calls_and_returns():
    source = """
s_load_dwordx2 s[4:5], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
s_getpc_b64 s[12:13]
after:
s_add_u32 s12, s12, func - after
s_addc_u32 s13, s13, 0
s_swappc_b64 s[30:31], s[12:13]
v_lshlrev_b32 v3, 2, v0
v_mov_b32 v4, s5
v_add_co_u32 v3, vcc, s4, v3
v_addc_co_u32 v4, vcc, v4, 0, vcc
global_store_dword v[3:4], v1, off
s_endpgm
func:
v_mul_u32_u24 v1, v0, v0
s_setpc_b64 s[30:31]
"""
    kernel = Kernel(source)
    out = kernel.buffer(np.zeros(64, np.uint32))
    kernel.run([out], grid=64)
    np.testing.assert_array_equal(kernel.read(out, np.uint32, 64), np.arange(64) ** 2)


@pytest.mark.parametrize("source, what", [
    ("exp mrt0 v0, v0, v0, v0", "graphics"),
    ("image_load v[0:3], v0, s[8:15] dmask:0xf unorm", "graphics"),
])
def test_graphics_instructions_are_unsupported(source, what):
    from amdgpu_tools.errors import UnsupportedInstruction
    kernel = Kernel(source)
    with pytest.raises(UnsupportedInstruction, match=what) as info:
        kernel.run([], grid=64)
    assert info.value.pc == kernel.entry


def test_no_op_scalar_instructions_and_messages():
    kernel = Kernel("s_sleep 2\ns_waitcnt 0\ns_setprio 1\ns_sendmsg sendmsg(MSG_INTERRUPT)\n"
                    "s_icache_inv\ns_barrier\ns_memtime s[4:5]\ns_memrealtime s[6:7]")
    result = kernel.run([], grid=256, block=256)
    assert result.waves == 4 and result.wave_instructions == 4 * 9


def test_barrier_with_a_partial_work_group_and_early_exit():
    # waves of the second (partial) work-group and a wave that ends before
    # the barrier must not deadlock the others
    source = """
s_cmp_eq_u32 s2, 0
s_cbranch_scc1 work
v_readfirstlane_b32 s8, v0
s_cmp_lt_u32 s8, 64
s_cbranch_scc1 work
s_endpgm
work:
s_barrier
s_barrier
"""
    kernel = Kernel(source)
    result = kernel.run([], grid=(200, 1, 1), block=(128, 1, 1))
    assert result.waves == 4


def test_watchdog_wall_clock_limit():
    kernel = Kernel("loop:\ns_branch loop")
    with pytest.raises(WatchdogTimeout, match="wall-clock"):
        kernel.run([], grid=64, limits=ExecutionLimits(max_seconds=0.05))


def test_vgpr_beyond_the_declared_count_is_a_kernel_error():
    kernel = Kernel("v_mov_b32 v20, 1", vgprs=8)
    with pytest.raises(KernelError, match="declares 8 VGPRs") as info:
        kernel.run([], grid=64)
    assert "v_mov_b32" in str(info.value)


def test_debugtrap_continues_and_reserved_traps_stop():
    result = Kernel("s_trap 3\ns_mov_b32 s9, 1").run([], grid=64)
    assert result.wave_instructions == 3
    with pytest.raises(KernelError, match="reserved trap id"):
        Kernel("s_trap 7").run([], grid=64)


def test_grid_larger_than_one_batch_runs_batch_after_batch(monkeypatch):
    from amdgpu_tools.exec.core import dispatch
    monkeypatch.setattr(dispatch, "MAX_BATCH_WAVES", 3)
    kernel = Kernel(VADD)
    n = 64 * 7 + 5
    a = np.arange(n, dtype=np.float32)
    pa, pb = kernel.buffer(a), kernel.buffer(a * 2)
    pc = kernel.buffer(np.zeros(n + 59, np.float32))
    lines = []
    result = kernel.run([pa, pb, pc], grid=n, block=64,
                        trace=TraceOptions(waves=(7,), sink=lines.append))
    np.testing.assert_array_equal(kernel.read(pc, np.float32, n), a * 3)
    assert result.waves == 8
    assert lines and all(line.startswith("wave 7 ") for line in lines)


def test_wave_geometry_of_partial_work_groups():
    from .kernel_util import run_snippet
    state = run_snippet("s_mov_b32 s9, 0", waves=3)
    # run_snippet launches 3 waves of 64 in one-wave work-groups
    np.testing.assert_array_equal(state.workgroup_id[:, 0], [0, 1, 2])
    np.testing.assert_array_equal(state.workgroup_size, [[64, 1, 1]] * 3)
    np.testing.assert_array_equal(state.workitem_id[0, 1], np.arange(64))
    assert state.lane_valid.all()

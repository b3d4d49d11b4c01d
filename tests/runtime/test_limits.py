"""The device's stated limits: each shown by ``--info``, each exceeded with one
ResourceLimitError naming the resource, the request and the limit."""

import os

import numpy as np
import pytest

from amdgpu_tools import Device, LocalMemory
from amdgpu_tools.asm import assemble
from amdgpu_tools.errors import LaunchError, LaunchLimitError, ResourceLimitError, ToolchainError
from amdgpu_tools.runtime import hsa

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples")


def _hello(field=None):
    """samples/hello_world.s (code object v2), with one amd_kernel_code_t field added."""
    with open(os.path.join(SAMPLES, "hello_world.s")) as handle:
        text = handle.read()
    if field and field.startswith("kernarg_segment_byte_size"):
        text = text.replace("kernarg_segment_byte_size = 8", field)
    elif field:
        text = text.replace("      is_ptr64 = 1\n", f"      is_ptr64 = 1\n      {field}\n")
    return assemble(text, target="gfx803")


def test_device_memory_is_a_limit_not_a_numpy_memory_error():
    device = Device()
    with pytest.raises(ResourceLimitError) as info:
        device.zeros(10**11, np.float32)
    error = info.value
    assert not isinstance(error, MemoryError)
    assert (error.resource, error.requested, error.limit) == ("device memory", 4 * 10**11,
                                                              hsa.GLOBAL_SIZE)
    assert str(error).startswith("out of resources: device memory: 400000000000 bytes "
                                 "(372.5 GiB) requested, the limit is 17179869184 bytes (16 GiB)")
    assert device.agent.region("coarse grained").size == hsa.GLOBAL_SIZE
    a = device.array(np.arange(8, dtype=np.int32))        # the device still works
    assert a.numpy().tolist() == list(range(8))


def test_memory_in_use_counts_and_freeing_gives_it_back():
    device = Device(memory_size=1 << 20)
    in_use = device.memory.in_use                          # the default queue and its signal
    big = device.empty((1 << 20) - in_use - 4096, np.uint8)
    with pytest.raises(ResourceLimitError, match=r"device memory: 8192 bytes \(8 KiB\) "
                       r"requested, the limit is 1048576 bytes \(1 MiB\) \(.* 4096 free\)"):
        device.empty(8192, np.uint8)
    big.free()
    device.empty(8192, np.uint8)
    assert "Device Memory:                    1048576" in device.info()


def test_bad_shapes_are_launch_errors():
    device = Device()
    with pytest.raises(LaunchError, match="must be non-negative integers"):
        device.zeros((4, -1), np.float32)


@pytest.mark.parametrize("field,resource,requested,limit", [
    ("workgroup_group_segment_byte_size = 70000", "LDS per work-group", 70000, 65536),
    ("workitem_private_segment_byte_size = 200000", "scratch per wave", 200000 * 64,
     hsa.MAX_SCRATCH_PER_WAVE),
    ("kernarg_segment_byte_size = 70000", "kernarg segment", 70000,
     hsa.MAX_KERNARG_SEGMENT_SIZE),
])
def test_kernel_resources_beyond_the_limits(field, resource, requested, limit):
    device = Device()
    program = device.load(_hello(field))
    out = device.zeros(4, np.float32)
    before = len(device.memory.allocations())
    with pytest.raises(LaunchLimitError) as info:
        program["hello_world"](out, grid=64, block=64)
    error = info.value
    assert (error.resource, error.requested, error.limit) == (resource, requested, limit)
    assert "kernel 'hello_world'" in str(error)
    assert len(device.memory.allocations()) == before      # nothing leaked
    assert device.queue.state == device.queue.ACTIVE
    device.load(_hello())["hello_world"](out, grid=64, block=64)
    assert out.numpy()[0] == np.float32(3.14159)


def test_dynamic_lds_counts_towards_the_lds_limit():
    device = Device()
    program = device.load(_hello("workgroup_group_segment_byte_size = 60000"))
    out = device.zeros(4, np.float32)
    program["hello_world"](out, grid=64, block=64, shared=5536)          # exactly 64 KiB
    with pytest.raises(LaunchLimitError, match=r"LDS per work-group: 65537 bytes .*"
                       r"60000 fixed \+ 5537 dynamic"):
        program["hello_world"](out, grid=64, block=64, shared=5537)
    assert LocalMemory(0).nbytes == 0


@pytest.mark.parametrize("grid,block,resource,requested,limit", [
    ((1 << 16, 1 << 16, 1), 64, "grid size", 1 << 32, hsa.MAX_GRID_SIZE),
    (64, 2048, "work-group size in x", 2048, 1024),
    (64, (64, 32), "work-group size", 2048, 1024),
])
def test_geometry_limits(grid, block, resource, requested, limit):
    device = Device()
    program = device.load(_hello())
    with pytest.raises(LaunchLimitError) as info:
        program["hello_world"](device.zeros(1), grid=grid, block=block)
    assert (info.value.resource, info.value.requested, info.value.limit) == \
        (resource, requested, limit)
    assert isinstance(info.value, LaunchError) and isinstance(info.value, TypeError)


def test_number_of_queues():
    device = Device(max_queues=4)
    queues = [device.create_queue(64) for _ in range(3)]     # + the default queue
    with pytest.raises(ResourceLimitError, match="queues: 5 queues requested, the limit is 4 "
                       "queues"):
        device.create_queue(64)
    device.agent.queue_destroy(queues.pop())
    queues.append(device.create_queue(64))
    assert len(device.agent.processor.queues) == 4
    assert Device().agent.max_queues == hsa.MAX_QUEUES == 128


def test_info_states_every_limit(capsys):
    from amdgpu_tools.cli.run import main
    assert main(["--info", "--mcpu", "gfx900"]) == 0
    out = capsys.readouterr().out
    for line in ("LDS per Work-group:               65536",
                 "Scratch per Wave Max:             8387584",
                 "Kernarg Segment Max:              65536",
                 "Device Memory:                    17179869184",
                 "Max Queues:                       128",
                 "Workgroup Max Size:               1024",
                 "Grid Max Size:                    4294967295",
                 "Size:                           16777216(0x1000000) KB"):
        assert line in out


def test_clis_report_limits_in_one_line(tmp_path, capsys):
    from amdgpu_tools.cli.run import main
    program = tmp_path / "hello.o"
    program.write_bytes(_hello())
    assert main([str(program), "--arg", "buf:float32[100000000000]"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        "amdgpu-run: error: out of resources: device memory: 400000000000 bytes")
    assert main([str(program), "--arg", "buf:float32[4]", "--block", "2048",
                 "--grid", "2048"]) == 1
    err = capsys.readouterr().err
    assert err == ("amdgpu-run: error: out of resources: work-group size in x: 2048 work-items "
                   "requested, the limit is 1024 work-items (block (2048,))\n")
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"code_object: {program}\nbuffers:\n  out: {{zeros: 100000000000, "
                    "dtype: float32}\nlaunches:\n  - kernel: hello_world\n    grid: [64]\n"
                    "    block: [64]\n    args: [{buf: out}]\nexpect: {}\n")
    assert main(["--spec", str(spec)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "device memory: 400000000000 bytes" in err
    assert issubclass(ResourceLimitError, ToolchainError)

"""Fixtures for the runtime tests: recorded code objects and a fake executor.

The fake executor stands in for the GCN executor where a test is about the
runtime (queues, packets, kernargs, argument checks) rather than about
instruction semantics: it runs a small Python model of the named kernel that
reads its arguments from the kernarg segment, exactly where the real kernel
would read them.
"""

import os
import struct

import numpy as np
import pytest

from amdgpu_tools.errors import KernelError
from amdgpu_tools.exec.launch import DispatchResult

DATA = os.path.join(os.path.dirname(__file__), "data")


def data_path(name):
    return os.path.join(DATA, name)


def read_data(name):
    with open(data_path(name), "rb") as handle:
        return handle.read()


def _hello_world(request):
    """samples/hello_world.s: store 3.14159 at the buffer whose address is arg 0."""
    address = request.memory.read_u64(request.kernarg_address)
    request.memory.write(address, struct.pack("<f", 3.14159))


def _vadd(request):
    """c[i] = a[i] + b[i] for i < n (kernarg: a, b, c, n at 0, 8, 16, 24)."""
    memory = request.memory
    a, b, c = (memory.read_u64(request.kernarg_address + 8 * k) for k in range(3))
    n = struct.unpack("<i", memory.read(request.kernarg_address + 24, 4))[0]
    count = min(n, request.grid_size[0])
    x = np.frombuffer(memory.read(a, 4 * count), np.float32)
    y = np.frombuffer(memory.read(b, 4 * count), np.float32)
    memory.write(c, (x + y).astype(np.float32))


def _trap(request):
    address = request.memory.read_u64(request.kernarg_address)
    request.memory.write_u32(address, 1)
    raise KernelError("s_trap 2 (kernel error)", workgroup=(0, 0, 0), wave=0,
                      pc=request.setup.entry_address + 0x24, instruction="s_trap 2")


class FakeExecutor:
    """Records every DispatchRequest and runs the Python model of its kernel."""

    MODELS = {"hello_world": _hello_world, "vadd": _vadd, "trap": _trap}

    def __init__(self, **models):
        self.requests = []
        self.models = {**self.MODELS, **models}

    def __call__(self, request):
        self.requests.append(request)
        # what the kernel would see through its dispatch pointer: a real packet
        packet = request.memory.read(request.packet_address, 64)
        assert packet[0] == 2, "executor called on a packet that is not a kernel dispatch"
        model = self.models.get(request.kernel_name)
        if model is not None:
            model(request)
        return DispatchResult(waves=1, wave_instructions=7, profile={request.setup.entry_address: 1})

    @property
    def names(self):
        return [r.kernel_name for r in self.requests]


@pytest.fixture
def fake():
    return FakeExecutor()


def real_executor_available():
    """True when the embedded executor can run the hello-world sample."""
    try:
        from amdgpu_tools.runtime.api import Device
        device = Device()
        program = device.load(read_data("hello_world_v2.hsaco"))
        out = device.zeros(4, np.float32)
        program["hello_world"](out, grid=64, block=64)
        return abs(out.numpy()[0] - 3.14159) < 1e-6
    except Exception:  # any failure means: not (yet) usable
        return False


@pytest.fixture(scope="session")
def executor_ready():
    if not real_executor_available():
        pytest.skip("the embedded executor cannot run kernels yet")
    return True


ROCM_BITCODE_DIR = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"

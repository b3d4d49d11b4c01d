import time

import pytest

from amdgpu_tools.runtime.hsa import Agent
from amdgpu_tools.runtime.layouts import AMD_SIGNAL, AMD_SIGNAL_KIND_USER
from amdgpu_tools.runtime.signals import SignalError


@pytest.fixture
def agent():
    return Agent("gfx900")


def test_signal_is_an_amd_signal_t_in_device_memory(agent):
    signal = agent.signal_create(-5)
    assert signal.handle % 64 == 0
    raw = agent.memory.read(signal.handle, 64)
    assert int.from_bytes(raw[0:8], "little", signed=True) == AMD_SIGNAL_KIND_USER
    assert int.from_bytes(raw[8:16], "little", signed=True) == -5
    # a kernel atomically adding to handle+8 changes what the host loads
    agent.memory.write_u64(signal.handle + 8, 42)
    assert signal.load() == 42


def test_read_modify_write_operations_return_the_old_value(agent):
    signal = agent.signal_create(12)
    assert signal.add(3) == 12 and signal.load() == 15
    assert signal.subtract(5) == 15 and signal.load() == 10
    assert signal.and_(0b0110) == 10 and signal.load() == 0b0010
    assert signal.or_(0b1001) == 2 and signal.load() == 0b1011
    assert signal.xor(0b0001) == 11 and signal.load() == 0b1010
    assert signal.exchange(-1) == 10 and signal.load() == -1
    assert signal.cas(7, 100) == -1 and signal.load() == -1      # mismatch: unchanged
    assert signal.cas(-1, 100) == -1 and signal.load() == 100
    signal.store(1 << 63)
    assert signal.load() == -(1 << 63)                           # int64 wrap-around


@pytest.mark.parametrize("condition,compare,satisfied", [
    ("eq", 5, True), ("eq", 4, False), ("ne", 4, True), ("ne", 5, False),
    ("lt", 6, True), ("lt", 5, False), ("gte", 5, True), ("gte", 6, False),
    ("lte", 5, True), ("lte", 4, False), ("gt", 4, True), ("gt", 5, False),
    (0, 5, True), (1, 5, False), (2, 6, True), (3, 6, False),   # hsa_signal_condition_t
])
def test_wait_conditions(agent, condition, compare, satisfied):
    signal = agent.signal_create(5)
    start = time.monotonic()
    value = agent.signal_wait(signal, condition, compare, timeout=0.05)
    assert value == 5
    elapsed = time.monotonic() - start
    if satisfied:
        assert elapsed < 0.05
    else:
        assert elapsed >= 0.05


def test_wait_sees_a_change_made_while_waiting(agent):
    signal = agent.signal_create(3)
    calls = []

    def progress():
        calls.append(1)
        signal.subtract(1)
        return True

    assert signal.wait("eq", 0, timeout=5, progress=progress) == 0
    assert len(calls) == 3


def test_unknown_condition_is_an_error(agent):
    signal = agent.signal_create(0)
    with pytest.raises(SignalError, match="unknown signal condition"):
        signal.wait("sometimes", 0)


def test_destroy_unmaps_the_signal(agent):
    signal = agent.signal_create(0)
    signal.destroy()
    assert not any(a.address == signal.handle for a in agent.memory.allocations())
    assert AMD_SIGNAL.size == 64

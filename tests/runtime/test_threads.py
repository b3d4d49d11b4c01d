"""Many host threads on one Device: launches, allocations, copies and
synchronize on shared and private queues; packet slots reserved atomically;
signals waited on from several threads. Results checked with NumPy."""

import os
import sys
import threading

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.asm import assemble
from amdgpu_tools.errors import KernelError
from amdgpu_tools.runtime.hsa import Agent
from amdgpu_tools.runtime.packets import agent_dispatch_packet

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples")


@pytest.fixture(scope="module")
def vector_add_object():
    with open(os.path.join(SAMPLES, "vector_add.s")) as handle:
        return assemble(handle.read(), target="gfx900")


@pytest.fixture(autouse=True)
def frequent_thread_switches():
    """Switch threads every few microseconds: races show up in a short test."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(interval)


def _run_threads(count, work):
    """Run ``work(number)`` on ``count`` threads started together; return errors."""
    errors = []
    start = threading.Barrier(count)

    def body(number):
        try:
            start.wait()
            work(number)
        except BaseException as failure:   # reported by the test, not lost in a thread
            errors.append(f"thread {number}: {type(failure).__name__}: {failure}")

    threads = [threading.Thread(target=body, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
        assert not thread.is_alive(), "a thread hung"
    return errors


def test_threads_launching_on_the_default_queue(vector_add_object):
    device = Device()
    vadd = device.load(vector_add_object)["vector_add"]
    results = {}

    def work(number):
        for launch in range(12):
            n = 64 * (1 + (number + launch) % 5)
            x = np.random.default_rng(number * 100 + launch).standard_normal(n).astype(np.float32)
            a, b = device.array(x), device.array(x * number)
            c = device.empty(n, np.float32)
            vadd(a, b, c, np.int32(n), grid=n, block=64)
            results[number, launch] = (c.numpy(), x + x * number)
            for buffer in (a, b, c):
                buffer.free()
            if launch % 4 == 3:
                device.synchronize()

    assert _run_threads(8, work) == []
    assert len(results) == 8 * 12
    for got, want in results.values():
        np.testing.assert_array_equal(got, want)
    assert device.queue.load_read_index() == 8 * 12 == device.queue.load_write_index()


def test_threads_each_with_their_own_queues(vector_add_object):
    device = Device()
    vadd = device.load(vector_add_object)["vector_add"]
    queues = [device.create_queue(64) for _ in range(6)]
    sums = np.zeros((12, 256), np.float32)

    def work(number):
        queue = queues[number % len(queues)]
        acc = device.zeros(256, np.float32)
        one = device.array(np.full(256, number, np.float32))
        for _ in range(10):
            vadd(acc, one, acc, np.int32(256), grid=256, block=64, queue=queue)
        sums[number] = acc.numpy()

    assert _run_threads(12, work) == []
    np.testing.assert_array_equal(sums, np.repeat(np.arange(12, dtype=np.float32) * 10,
                                                  256).reshape(12, 256))
    assert sum(q.load_read_index() for q in queues) == 12 * 10


def test_a_fault_in_one_thread_does_not_break_the_others(vector_add_object):
    device = Device()
    vadd = device.load(vector_add_object)["vector_add"]
    faults = []

    def work(number):
        for launch in range(8):
            a = device.array(np.arange(64, dtype=np.float32))
            c = device.zeros(64, np.float32)
            if number == 0 and launch == 3:
                try:
                    vadd(a, a, c, np.int32(1 << 16), grid=1 << 16, block=64)
                except KernelError as failure:
                    faults.append(failure)
                continue
            try:
                vadd(a, a, c, np.int32(64), grid=64, block=64)
            except Exception as failure:     # only a packet queued behind the fault
                assert "was not run" in str(failure), failure
                continue
            np.testing.assert_array_equal(c.numpy(), 2 * np.arange(64, dtype=np.float32))

    assert _run_threads(6, work) == []
    assert len(faults) == 1 and "memory fault" in str(faults[0])
    device.synchronize()
    a = device.array(np.ones(64, np.float32))
    vadd(a, a, a, np.int32(64), grid=64, block=64)
    assert a.numpy().tolist() == [2.0] * 64


def test_write_index_reservations_are_atomic():
    """Producers on many threads reserve slots on one queue by hand, write agent
    dispatch packets and ring the doorbell: every packet runs exactly once."""
    agent = Agent("gfx900")
    queue = agent.queue_create(1024)
    seen = []
    lock = threading.Lock()

    def record(a, b, c, d):
        with lock:
            seen.append(a)
        return a * 2

    agent.register_agent_function(0x8001, record)
    done = agent.signal_create(16 * 40)
    out = agent.allocate(8 * 16 * 40, "fine grained")

    def work(number):
        for k in range(40):
            tag = number * 40 + k
            agent_dispatch_packet(queue, 0x8001, (tag, 0, 0, 0), out + 8 * tag, done)

    assert _run_threads(16, work) == []
    assert agent.signal_wait(done, "eq", 0) == 0
    assert sorted(seen) == list(range(16 * 40))
    returned = np.frombuffer(agent.memory.read(out, 8 * 16 * 40), np.uint64)
    np.testing.assert_array_equal(returned, np.arange(16 * 40, dtype=np.uint64) * 2)
    assert queue.load_write_index() == queue.load_read_index() == 16 * 40


def test_signals_waited_on_and_updated_from_many_threads():
    agent = Agent("gfx900")
    signal = agent.signal_create(0)
    released = agent.signal_create(1)
    woke = []

    def waiter(number):
        assert released.wait("eq", 0, timeout=60) == 0
        woke.append(number)

    def adder(number):
        for _ in range(500):
            signal.add(1)
        signal.subtract(100)

    waiters = [threading.Thread(target=waiter, args=(n,)) for n in range(6)]
    for thread in waiters:
        thread.start()
    assert _run_threads(8, adder) == []
    assert signal.load() == 8 * 400
    released.store(0)
    for thread in waiters:
        thread.join(60)
    assert sorted(woke) == list(range(6))


def test_allocations_and_copies_while_kernels_run(vector_add_object):
    device = Device()
    vadd = device.load(vector_add_object)["vector_add"]
    stop = threading.Event()
    checks = []

    def allocator():
        rng = np.random.default_rng(7)
        while not stop.is_set():
            data = rng.integers(0, 1 << 30, int(rng.integers(1, 5000)), dtype=np.int64)
            buffer = device.array(data)
            checks.append(np.array_equal(buffer.numpy(), data))
            buffer.free()

    helper = threading.Thread(target=allocator)
    helper.start()
    try:
        def work(number):
            x = np.arange(1024, dtype=np.float32) + number
            for _ in range(6):
                a = device.array(x)
                c = device.empty(1024, np.float32)
                vadd(a, a, c, np.int32(1024), grid=1024, block=256)
                np.testing.assert_array_equal(c.numpy(), 2 * x)
        assert _run_threads(4, work) == []
    finally:
        stop.set()
        helper.join(60)
    assert checks and all(checks)

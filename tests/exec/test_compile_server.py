"""The background compiler (exec/compiled/server.py) as a process: it answers
each block module it is sent while its executor lives, and once its input
ends it gives the block in hand a bounded time at the lowest priority and
starts no other, so that an executor that ended leaves nothing behind
competing for the cores."""

import os
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="thread priorities as Linux has them")

#: A stand-in block module: its "compilation" (the call the server makes)
#: takes a while, then notes its name and the compiling thread's priority.
FAKE_BLOCK = '''
import os, threading, time
USES_MEMORY = False
def block(*args):
    open({log!r} + ".{name}", "w").close()
    time.sleep({seconds})
    with open({log!r}, "a") as log:
        log.write(f"{name} {{os.getpriority(os.PRIO_PROCESS, threading.get_native_id())}}\\n")
'''


def _blocks(tmp_path, count, seconds):
    log = tmp_path / "compiled.log"
    paths = []
    for k in range(count):
        path = tmp_path / f"block_{k}.py"
        path.write_text(FAKE_BLOCK.format(seconds=seconds, log=str(log), name=path.stem))
        paths.append(path)
    return paths, log


def _wait_for(path, seconds=60):
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)


def _server(orphan_seconds=None):
    """The server as the executor starts it; with ``orphan_seconds``, its
    ORPHAN_SECONDS set to that."""
    command = ["-m", "amdgpu_tools.exec.compiled.server"] if orphan_seconds is None else [
        "-c", "from amdgpu_tools.exec.compiled import server; "
              f"server.ORPHAN_SECONDS = {orphan_seconds}; server.main()"]
    return subprocess.Popen([sys.executable, *command], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def test_each_block_is_answered_while_the_executor_lives(tmp_path):
    paths, log = _blocks(tmp_path, 3, 0.0)
    server = _server()
    answers = []
    for path in paths:
        server.stdin.write(f"{path}\n")
        server.stdin.flush()
        answers.append(server.stdout.readline().split())
    server.stdin.close()
    assert server.wait(timeout=30) == 0
    assert answers == [["ok", str(path)] for path in paths]
    assert [line.split() for line in log.read_text().splitlines()] == \
        [[path.stem, str(os.getpriority(os.PRIO_PROCESS, 0))] for path in paths]


def test_after_its_input_ends_only_the_block_in_hand_is_finished_at_nice_19(tmp_path):
    paths, log = _blocks(tmp_path, 6, 1.0)
    server = _server()
    server.stdin.write("".join(f"{path}\n" for path in paths))
    server.stdin.flush()
    _wait_for(log.with_name(log.name + ".block_0"))   # (the first block is in hand)
    server.stdin.close()
    assert server.wait(timeout=30) == 0
    assert server.stdout.read() == ""           # (nobody is left to answer)
    assert [line.split() for line in log.read_text().splitlines()] == [["block_0", "19"]]
    assert not any(log.with_name(f"{log.name}.{path.stem}").exists() for path in paths[1:])


def test_a_block_in_hand_past_the_orphans_time_is_given_up(tmp_path):
    """A block still compiling ``ORPHAN_SECONDS`` after the input ended is
    abandoned: the process ends then, without noting it compiled."""
    paths, log = _blocks(tmp_path, 2, 20.0)
    server = _server(orphan_seconds=0.5)
    server.stdin.write("".join(f"{path}\n" for path in paths))
    server.stdin.flush()
    _wait_for(log.with_name(log.name + ".block_0"))
    server.stdin.close()
    assert server.wait(timeout=15) == 0                    # (before the block's 20 s)
    assert not log.exists()
